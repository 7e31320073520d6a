/* pf_composite (CV-CUDA Composite's arithmetic, src/kernels/mask_math.h)
 * and the background-blur recipe built from public ops: masks_unmap ->
 * gaussian_blur -> composite. Rows run in parallel bands on the stream. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "core/stream.h"
#include "pixflow/post.h"
#include "post/post_kernels.h"
#include "core/backend.h"

typedef struct comp_job {
    const pf_image *fg, *bg, *mask;
    pf_image *dst;
    const pfi_post_kernels *k;
    const int32_t *first; /* count + 1: first band of each sample */
    int32_t rows_per_band;
    int count;
} comp_job;

static void comp_rows(const comp_job *j, int i, int32_t y0, int32_t y1) {
    int32_t w = j->fg[i].width, cn = j->fg[i].channels, dcn = j->dst[i].channels;
    pfi_composite_row_fn fn = j->k->composite_row;
    for (int32_t y = y0; y < y1; y++) {
        const uint8_t *f = pfi_row_ptr(&j->fg[i], 0, y), *b = pfi_row_ptr(&j->bg[i], 0, y);
        const uint8_t *m = pfi_row_ptr(&j->mask[i], 0, y);
        uint8_t *d = pfi_row_ptr(&j->dst[i], 0, y);
        int32_t done = fn(f, b, m, d, w, cn, dcn);
        if (done < w)
            pfi_composite_row_ref(f + (size_t)done * cn, b + (size_t)done * cn, m + done, d + (size_t)done * dcn,
                                  w - done, cn, dcn);
    }
}

/* task t = band t of the batch: its sample and rows (each row written by
 * one task: the result does not depend on the thread count) */
static void comp_task(void *ctx, int t, int worker) {
    (void)worker;
    const comp_job *j = ctx;
    int i = 0;
    while (i + 1 < j->count && j->first[i + 1] <= t) i++;
    int32_t y0 = (t - j->first[i]) * j->rows_per_band, y1 = y0 + j->rows_per_band;
    if (y1 > j->fg[i].height) y1 = j->fg[i].height;
    comp_rows(j, i, y0, y1);
}

static int same_view(const pf_image *a, const pf_image *b) {
    return a->data == b->data && a->row_stride == b->row_stride && a->channels == b->channels;
}

/* host_only: the function has no device path (else the memory is
 * pfi_route's to judge) */
static pf_status check_u8_hwc(const char *op, const char *what, int i, const pf_image *im, int host_only) {
    char name[64];
    snprintf(name, sizeof name, "%s: %s[%d]", op, what, i);
    pf_status st = pf_image_validate(im, name);
    if (st != PF_OK) return st;
    if (im->dtype != PF_U8 || (im->layout != PF_HWC && im->channels > 1) || (host_only && im->mem != PF_MEM_HOST))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d] must be a u8 HWC%s image", op, what, i,
                        host_only ? " host" : "");
    return PF_OK;
}

/* Host or device: fg, bg, mask and dst of every sample, in that order. */
static pf_status route_composite(const char *op, pf_stream *stream, int count, const pf_image fg[],
                                 const pf_image bg[], const pf_image mask[], const pf_image dst[],
                                 const pfi_backend **be, pf_stream **rs) {
    pfi_view_ref *v = malloc((size_t)count * 4 * sizeof *v);
    if (v == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    for (int i = 0; i < count; i++) {
        v[4 * i + 0] = (pfi_view_ref){fg[i].mem, fg[i].device, "fg", i};
        v[4 * i + 1] = (pfi_view_ref){bg[i].mem, bg[i].device, "bg", i};
        v[4 * i + 2] = (pfi_view_ref){mask[i].mem, mask[i].device, "mask", i};
        v[4 * i + 3] = (pfi_view_ref){dst[i].mem, dst[i].device, "dst", i};
    }
    pf_status st = pfi_route(op, stream, v, count * 4, be, rs);
    free(v);
    return st;
}

pf_status pf_composite(pf_stream *stream, int count, const pf_image fg[], const pf_image bg[], const pf_image mask[],
                       pf_image dst[]) {
    static const char op[] = "pf_composite";
    pfi_clear_error();
    if (count < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: count %d must be >= 0", op, count);
    if (count == 0) return PF_OK;
    if (!fg || !bg || !mask || !dst)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, !fg ? "fg" : !bg ? "bg" : !mask ? "mask" : "dst");
    int32_t *first = malloc(((size_t)count + 1) * sizeof *first);
    if (first == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    pf_status st = PF_OK;
    for (int i = 0; i < count && st == PF_OK; i++) {
        if ((st = check_u8_hwc(op, "fg", i, &fg[i], 0)) || (st = check_u8_hwc(op, "bg", i, &bg[i], 0)) ||
            (st = check_u8_hwc(op, "mask", i, &mask[i], 0)) || (st = check_u8_hwc(op, "dst", i, &dst[i], 0)))
            break;
        const pf_image *f = &fg[i];
        if (bg[i].width != f->width || bg[i].height != f->height || bg[i].channels != f->channels ||
            mask[i].width != f->width || mask[i].height != f->height || dst[i].width != f->width ||
            dst[i].height != f->height) {
            st = pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: fg[%d], bg[%d], mask[%d] and dst[%d] must have fg's size %dx%d "
                          "(and bg its %d channels)", op, i, i, i, i, f->width, f->height, f->channels);
            break;
        }
        if (mask[i].channels != 1) {
            st = pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: mask[%d] has %d channels; it must have 1", op, i, mask[i].channels);
            break;
        }
        if (dst[i].channels != f->channels && !(f->channels == 3 && dst[i].channels == 4)) {
            st = pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst[%d] has %d channels; it must have %d (or 4 from 3)", op, i,
                          dst[i].channels, f->channels);
            break;
        }
        /* in place only as the very same view: each pixel reads its own bytes before writing them */
        const pf_image *in[3] = {&fg[i], &bg[i], &mask[i]};
        for (int q = 0; q < 3 && st == PF_OK; q++)
            if (pfi_images_overlap(in[q], &dst[i]) && !(q < 2 && same_view(in[q], &dst[i])))
                st = pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst[%d] overlaps %s[%d] (only dst == fg or dst == bg is allowed)",
                              op, i, q == 0 ? "fg" : q == 1 ? "bg" : "mask", i);
    }
    const pfi_backend *be = NULL;
    pf_stream *rs = stream;
    if (st == PF_OK) st = route_composite(op, stream, count, fg, bg, mask, dst, &be, &rs);
    if (st == PF_OK && be != NULL) {
        st = PFI_KERNEL(be, op, composite, rs, count, fg, bg, mask, dst);
    } else if (st == PF_OK) {
        /* bands of about 64K elements */
        int64_t widest = 1;
        for (int i = 0; i < count; i++)
            if ((int64_t)fg[i].width * fg[i].channels > widest) widest = (int64_t)fg[i].width * fg[i].channels;
        int32_t per = (int32_t)(65536 / widest > 0 ? 65536 / widest : 1);
        first[0] = 0;
        for (int i = 0; i < count; i++) first[i + 1] = first[i] + (fg[i].height + per - 1) / per;
        comp_job j = {fg, bg, mask, dst, pfi_post_kernels_for(stream), first, per, count};
        if (first[count] > 1) pfi_stream_parallel(stream, first[count], comp_task, &j);
        else comp_task(&j, 0, 0);
    }
    free(first);
    return st;
}

pf_status pf_background_blur(pf_stream *stream, int count, const pf_image frames[], const pf_image masks[],
                             const pf_letterbox_info info[], const pf_gaussian_params *params, pf_image dst[]) {
    static const char op[] = "pf_background_blur";
    pfi_clear_error();
    if (count < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: count %d must be >= 0", op, count);
    if (count == 0) return PF_OK;
    if (!frames || !masks || !info || !params || !dst)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op,
                        !frames ? "frames" : !masks ? "masks" : !info ? "info" : !params ? "params" : "dst");
    size_t bytes = 0;
    for (int i = 0; i < count; i++) {
        pf_status st = check_u8_hwc(op, "frames", i, &frames[i], 1);
        if (st != PF_OK) return st;
        if (frames[i].channels != 3)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: frames[%d] has %d channels; it must have 3", op, i,
                            frames[i].channels);
        bytes += (size_t)frames[i].width * frames[i].height * 4; /* blurred (3) + mask (1) */
    }
    uint8_t *mem = malloc(bytes);
    pf_image *v = malloc((size_t)count * 2 * sizeof *v);
    if (!mem || !v) {
        free(mem);
        free(v);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %zu bytes of scratch", op, bytes);
    }
    pf_image *blur = v, *mk = v + count;
    uint8_t *p = mem;
    for (int i = 0; i < count; i++) {
        int32_t w = frames[i].width, h = frames[i].height;
        blur[i] = pf_image_hwc(p, w, h, 3, PF_U8, 0);
        p += (size_t)w * h * 3;
        mk[i] = pf_image_hwc(p, w, h, 1, PF_U8, 0);
        p += (size_t)w * h;
    }
    pf_status st = pf_masks_unmap(stream, count, masks, info, mk, PF_INTERP_LINEAR);
    if (st == PF_OK && (st = pf_gaussian_blur(stream, count, frames, blur, params, 1)) != PF_OK) pfi_fail_in(op, st);
    if (st == PF_OK) st = pf_composite(stream, count, frames, blur, mk, dst);
    free(mem);
    free(v);
    return st;
}
