/* pf_cvt_color: code decoding, argument checks and row-parallel execution. */
#include <stdio.h>
#include <stdlib.h>

#include "core/backend.h"
#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/color_exec.h"
#include "pixflow/ops.h"

typedef pfi_color_code_info code_info;

static int is_video_code(int code) { return (code >= 90 && code <= 134) || code >= 1000; }

int pfi_color_decode(int code, pfi_color_code_info *ci) {
    code_info c = {PFI_CK_RGB2RGB, 3, 4, 3, 3, 0, 0, 0, 0};
    switch (code) {
    case PF_COLOR_BGR2BGRA: c.dcn_min = c.dcn_max = 4; break;
    case PF_COLOR_BGRA2BGR: break;
    case PF_COLOR_BGR2RGBA: c.dcn_min = c.dcn_max = 4; c.swap = 1; break;
    case PF_COLOR_RGBA2BGR: c.swap = 1; break;
    case PF_COLOR_BGR2RGB: c.swap = 1; break;
    case PF_COLOR_BGRA2RGBA: c.dcn_min = c.dcn_max = 4; c.swap = 1; break;
    case PF_COLOR_BGR2GRAY: case PF_COLOR_BGRA2GRAY:
    case PF_COLOR_RGB2GRAY: case PF_COLOR_RGBA2GRAY:
        c.kind = PFI_CK_RGB2GRAY;
        c.dcn_min = c.dcn_max = 1;
        c.bidx = (code == PF_COLOR_RGB2GRAY || code == PF_COLOR_RGBA2GRAY) ? 2 : 0;
        break;
    case PF_COLOR_GRAY2BGR: case PF_COLOR_GRAY2BGRA:
        c.kind = PFI_CK_GRAY2RGB;
        c.scn_min = c.scn_max = 1;
        c.dcn_min = c.dcn_max = code == PF_COLOR_GRAY2BGR ? 3 : 4;
        break;
    case PF_COLOR_BGR2YCrCb: case PF_COLOR_RGB2YCrCb:
        c.kind = PFI_CK_RGB2YCRCB;
        c.bidx = code == PF_COLOR_RGB2YCrCb ? 2 : 0;
        break;
    case PF_COLOR_YCrCb2BGR: case PF_COLOR_YCrCb2RGB:
        c.kind = PFI_CK_YCRCB2RGB;
        c.scn_max = 3;
        c.dcn_max = 4;
        c.bidx = code == PF_COLOR_YCrCb2RGB ? 2 : 0;
        break;
    case PF_COLOR_BGR2HSV: case PF_COLOR_RGB2HSV:
    case PF_COLOR_BGR2HSV_FULL: case PF_COLOR_RGB2HSV_FULL:
        c.kind = PFI_CK_RGB2HSV;
        c.bidx = (code == PF_COLOR_RGB2HSV || code == PF_COLOR_RGB2HSV_FULL) ? 2 : 0;
        c.hrange_u8 = code >= PF_COLOR_BGR2HSV_FULL ? 256 : 180;
        c.no_u16 = 1;
        break;
    case PF_COLOR_HSV2BGR: case PF_COLOR_HSV2RGB:
    case PF_COLOR_HSV2BGR_FULL: case PF_COLOR_HSV2RGB_FULL:
        c.kind = PFI_CK_HSV2RGB;
        c.scn_max = 3;
        c.dcn_max = 4;
        c.bidx = (code == PF_COLOR_HSV2RGB || code == PF_COLOR_HSV2RGB_FULL) ? 2 : 0;
        c.hrange_u8 = code >= PF_COLOR_HSV2BGR_FULL ? 255 : 180; /* OpenCV: 255, not 256 */
        c.no_u16 = 1;
        break;
    default: return 0;
    }
    *ci = c;
    return 1;
}

static pf_status check_pair(int i, const pf_image *s, const pf_image *d, const code_info *c,
                            int code, int host) {
    char name[48];
    snprintf(name, sizeof name, "pf_cvt_color: src[%d]", i);
    pf_status st = pf_image_validate(s, name);
    if (st != PF_OK) return st;
    snprintf(name, sizeof name, "pf_cvt_color: dst[%d]", i);
    if ((st = pf_image_validate(d, name)) != PF_OK) return st;
    if (host && (s->mem != PF_MEM_HOST || d->mem != PF_MEM_HOST))
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "pf_cvt_color: %s[%d] is device memory; the CPU path needs host views",
                        s->mem != PF_MEM_HOST ? "src" : "dst", i);
    if (s->dtype != PF_U8 && s->dtype != PF_U16 && s->dtype != PF_F32)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "pf_cvt_color: src[%d].dtype is %s; supported: u8, u16, f32", i,
                        pf_dtype_name(s->dtype));
    if (c->no_u16 && s->dtype == PF_U16)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "pf_cvt_color: src[%d].dtype is u16; HSV codes (code %d) take u8 or f32, as in OpenCV",
                        i, code);
    if (d->dtype != s->dtype)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_cvt_color: dst[%d].dtype is %s but src[%d].dtype is %s; they must match "
                        "(change the dtype with pf_convert)",
                        i, pf_dtype_name(d->dtype), i, pf_dtype_name(s->dtype));
    if (s->channels < c->scn_min || s->channels > c->scn_max)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_cvt_color: src[%d] has %d channels; code %d needs %d%s%s", i,
                        (int)s->channels, code, c->scn_min, c->scn_max > c->scn_min ? " or " : "",
                        c->scn_max > c->scn_min ? (c->scn_max == 4 ? "4" : "3") : "");
    if (d->channels < c->dcn_min || d->channels > c->dcn_max)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_cvt_color: dst[%d] has %d channels; code %d produces %d%s%s", i,
                        (int)d->channels, code, c->dcn_min, c->dcn_max > c->dcn_min ? " or " : "",
                        c->dcn_max > c->dcn_min ? "4" : "");
    if ((s->channels > 1 && s->layout != PF_HWC) || (d->channels > 1 && d->layout != PF_HWC))
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "pf_cvt_color: %s[%d] is planar (CHW); colour codes need interleaved HWC "
                        "views (convert the layout with pf_reformat)",
                        s->channels > 1 && s->layout != PF_HWC ? "src" : "dst", i);
    if (s->width != d->width || s->height != d->height)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_cvt_color: dst[%d] is %dx%d but src[%d] is %dx%d",
                        i, (int)d->width, (int)d->height, i, (int)s->width, (int)s->height);
    /* In place is fine when every pixel keeps its size (each kernel reads a
     * pixel, or a whole block, before writing it); other overlap is not. */
    int same = s->data == d->data && s->row_stride == d->row_stride && s->channels == d->channels;
    if (pfi_images_overlap(s, d) && !same)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_cvt_color: src[%d] and dst[%d] overlap; only an in-place call with the "
                        "same view and channel count is allowed",
                        i, i);
    return PF_OK;
}

typedef struct color_job {
    const pf_image *src;
    pf_image *dst;
    code_info ci;
    const pfi_ktable *k;
} color_job;

/* One segment of a row: the fast kernel on whole blocks; the rest by one
 * more block that ends at the segment's end (it recomputes a few pixels
 * with the same result), or by the reference when the segment is shorter
 * than a block or the call is in place (src already overwritten). */
typedef struct seg_ctx {
    pfi_color_row_fn fast; /* NULL: the reference only */
    size_t sp, dp;         /* bytes per src / dst pixel */
    int in_place;
} seg_ctx;

static inline void run_segment(const seg_ctx *c, const char *s, char *d, int32_t n,
                               const pfi_color_desc *desc) {
    pfi_color_row_fn fast = c->fast;
    size_t sp = c->sp, dp = c->dp;
    int in_place = c->in_place;
    int32_t done = fast == NULL ? 0 : n / PFI_COLOR_BLOCK * PFI_COLOR_BLOCK;
    if (done) fast(s, d, done, desc);
    if (done == n) return;
    if (done && !in_place) {
        int32_t x = n - PFI_COLOR_BLOCK;
        fast(s + (size_t)x * sp, d + (size_t)x * dp, PFI_COLOR_BLOCK, desc);
    } else {
        pfi_color_row_ref(s + (size_t)done * sp, d + (size_t)done * dp, n - done, desc);
    }
}

static void color_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const color_job *j = ctx;
    const pf_image *s = &j->src[i];
    const pf_image *d = &j->dst[i];
    pfi_color_desc desc;
    desc.kind = j->ci.kind;
    desc.dtype = s->dtype;
    desc.scn = s->channels;
    desc.dcn = d->channels;
    desc.bidx = j->ci.bidx;
    desc.swap = j->ci.swap;
    desc.hrange = s->dtype == PF_F32 ? 360 : j->ci.hrange_u8;
    desc.hsv_trunc = 0;
    int slot = pfi_color_slot(&desc);
    pfi_color_row_fn fast = slot >= 0 ? (pfi_color_row_fn)j->k->fn[slot] : NULL;
    if (fast == pfi_color_row_ref) fast = NULL;
    int32_t w = s->width;
    int hsv2rgb_u8 = desc.kind == PFI_CK_HSV2RGB && desc.dtype == PF_U8;
    /* Rows stored back to back are one long row: no per-row call and tail
     * for small images. Not for u8 HSV -> RGB unless the whole row is
     * truncated (its rule depends on the x position). */
    size_t es = pf_dtype_size(desc.dtype);
    seg_ctx sc = {fast, es * (size_t)desc.scn, es * (size_t)desc.dcn, s->data == d->data};
    int packed = s->row_stride == (ptrdiff_t)((size_t)w * (size_t)desc.scn * es) &&
                 d->row_stride == (ptrdiff_t)((size_t)w * (size_t)desc.dcn * es) &&
                 (!hsv2rgb_u8 || pfi_hsv2rgb_trunc_px(w) == w);
    if (packed) {
        int32_t chunk = (int32_t)((1 << 30) / w); /* rows per call: n stays < 2^30 */
        if (chunk < 1) chunk = 1;
        if (hsv2rgb_u8) desc.hsv_trunc = 1;
        for (int32_t y = y0; y < y1; y += chunk) {
            int32_t rows = y1 - y < chunk ? y1 - y : chunk;
            run_segment(&sc, pfi_row_ptr(s, 0, y), pfi_row_ptr(d, 0, y), w * rows, &desc);
        }
        return;
    }
    for (int32_t y = y0; y < y1; y++) {
        const char *sr = pfi_row_ptr(s, 0, y);
        char *dr = pfi_row_ptr(d, 0, y);
        if (hsv2rgb_u8) {
            /* OpenCV truncates the first pixels of a row and rounds the rest */
            int32_t t = pfi_hsv2rgb_trunc_px(w);
            pfi_color_desc dt = desc;
            dt.hsv_trunc = 1;
            run_segment(&sc, sr, dr, t, &dt);
            run_segment(&sc, sr + (size_t)t * 3, dr + (size_t)t * (size_t)desc.dcn, w - t, &desc);
        } else {
            run_segment(&sc, sr, dr, w, &desc);
        }
    }
}

pf_status pf_cvt_color(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                       pf_color_code code, const pf_color_opts *opts) {
    pfi_clear_error();
    /* opts: the matrix/range options concern the 4:2:0 codes only */
    int icode = (int)code;
    code_info ci;
    if (!pfi_color_decode(icode, &ci)) {
        if (is_video_code(icode))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "pf_cvt_color: code %d is a 4:2:0 video code; use %s", icode,
                            icode >= 90 && icode <= 106 ? "pf_cvt_color_from_yuv"
                                                        : "pf_cvt_color_to_yuv");
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "pf_cvt_color: code %d is not supported (supported: BGR/RGB swaps and alpha "
                        "0-5, GRAY 6-11, YCrCb 36-39, HSV 40/41/54/55/66/67/70/71)",
                        icode);
    }
    if (count < 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_cvt_color: count is %d; it must be >= 0", count);
    if (count == 0) return PF_OK;
    if (src == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_cvt_color: src is NULL with count %d", count);
    if (dst == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_cvt_color: dst is NULL with count %d", count);
    const pfi_backend *be;
    pf_stream *ds;
    pf_status rt = pfi_route_images("pf_cvt_color", stream, count, src, dst, &be, &ds);
    if (rt != PF_OK) return rt;
    for (int i = 0; i < count; i++) {
        pf_status st = check_pair(i, &src[i], &dst[i], &ci, icode, be == NULL);
        if (st != PF_OK) return st;
    }
    if (be != NULL)
        return be->kernels->cvt_color ? be->kernels->cvt_color(ds, count, src, dst, code, opts)
                                      : pfi_unsupported_on("pf_cvt_color", be);
    int32_t *rows = malloc((size_t)count * 2 * sizeof *rows);
    if (rows == NULL)
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_cvt_color: out of memory for %d samples", count);
    for (int i = 0; i < count; i++) {
        rows[i] = src[i].height;
        rows[count + i] = src[i].width;
    }
    color_job j = {src, dst, ci, pfi_kfamily_table(&pfi_color_family, pf_stream_isa(stream))};
    pfi_run_rows(stream, count, rows, rows + count, 1, color_rows, &j);
    free(rows);
    return PF_OK;
}
