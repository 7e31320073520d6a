/* Masks: Tensor2Mask (argmax / threshold of logits), masks_to_boxes,
 * YOLO-seg prototype masks, and masks back onto the source through the
 * letterbox mapping (crop the pad, then pf_resize). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "core/stream.h"
#include "kernels/mask_math.h"
#include "pixflow/post.h"
#include "post/post_kernels.h"
#include "core/backend.h"

pf_mask_opts pf_mask_opts_defaults(void) {
    pf_mask_opts o;
    memset(&o, 0, sizeof o);
    o.mode = PF_MASK_ARGMAX;
    o.threshold = 0.0f;
    o.value = 255;
    return o;
}

typedef struct logits_job {
    const float *src;
    uint8_t *dst;
    int32_t n, c, h, w, rows_per_task, tasks_per_sample;
    pf_mask_opts o;
    const pfi_post_kernels *k;
} logits_job;

static void logits_task(void *ctx, int t, int worker) {
    (void)worker;
    const logits_job *j = ctx;
    int32_t s = t / j->tasks_per_sample, y0 = (t % j->tasks_per_sample) * j->rows_per_task;
    int32_t y1 = y0 + j->rows_per_task > j->h ? j->h : y0 + j->rows_per_task;
    size_t plane = (size_t)j->h * (size_t)j->w;
    const float *base = j->src + (size_t)s * (size_t)j->c * plane;
    if (j->o.mode == PF_MASK_ARGMAX) {
        pfi_argmax_row_fn fn = j->k->argmax_row;
        const float *planes[256];
        for (int32_t y = y0; y < y1; y++) {
            for (int32_t c = 0; c < j->c; c++) planes[c] = base + (size_t)c * plane + (size_t)y * j->w;
            uint8_t *out = j->dst + (size_t)s * plane + (size_t)y * j->w;
            int32_t done = fn(planes, j->c, j->w, out);
            if (done < j->w) {
                for (int32_t c = 0; c < j->c; c++) planes[c] += done;
                pfi_argmax_row_ref(planes, j->c, j->w - done, out + done);
            }
        }
        return;
    }
    pfi_thresh_row_fn fn = j->k->thresh_row;
    for (int32_t c = 0; c < j->c; c++)
        for (int32_t y = y0; y < y1; y++) {
            size_t at = ((size_t)s * (size_t)j->c + (size_t)c) * plane + (size_t)y * j->w;
            int32_t done = fn(j->src + at, j->w, j->o.threshold, j->o.value, j->dst + at);
            if (done < j->w)
                pfi_thresh_row_ref(j->src + at + done, j->w - done, j->o.threshold, j->o.value, j->dst + at + done);
        }
}

pf_status pf_masks_from_logits(pf_stream *stream, const float *logits, int32_t n, int32_t channels, int32_t height,
                               int32_t width, uint8_t *masks, const pf_mask_opts *opts) {
    static const char op[] = "pf_masks_from_logits";
    pfi_clear_error();
    pf_mask_opts o = opts ? *opts : pf_mask_opts_defaults();
    if ((unsigned)o.mode > PF_MASK_THRESHOLD)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.mode %d is not a pf_mask_mode", op, (int)o.mode);
    if (n < 0 || channels < 1 || height < 1 || width < 1)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: shape [%d, %d, %d, %d] needs n >= 0 and the rest >= 1", op, n,
                        channels, height, width);
    if (o.mode == PF_MASK_ARGMAX && channels > 256)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %d channels; ARGMAX writes u8 class indices (<= 256 channels)",
                        op, channels);
    if (isnan(o.threshold)) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.threshold is NaN", op);
    if (n == 0) return PF_OK;
    if (logits == NULL || masks == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, logits == NULL ? "logits" : "masks");
    if ((double)n * channels * height * width > 9.2e18 / 4)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: the shape overflows", op);
    const pfi_backend *be = NULL;
    pf_stream *rs = stream;
    const pfi_ptr_ref arrays[] = {{logits, "logits", -1}, {masks, "masks", -1}};
    pf_status st = pfi_route_ptrs(op, stream, arrays, 2, &be, &rs);
    if (st != PF_OK) return st;
    if (be != NULL) return PFI_KERNEL(be, op, masks_from_logits, rs, logits, n, channels, height, width, masks, &o);
    logits_job j = {logits, masks, n, channels, height, width, 1, 1, o, pfi_post_kernels_for(stream)};
    int64_t per = 65536 / ((int64_t)width * channels);
    j.rows_per_task = (int32_t)(per < 1 ? 1 : per > height ? height : per);
    j.tasks_per_sample = (height + j.rows_per_task - 1) / j.rows_per_task;
    int64_t tasks = (int64_t)n * j.tasks_per_sample;
    if (tasks > INT32_MAX) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: too many rows", op);
    if (tasks > 1) pfi_stream_parallel(stream, (int)tasks, logits_task, &j);
    else logits_task(&j, 0, 0);
    return PF_OK;
}

/* ---------------------------------------------------------- masks_to_boxes */

static pf_status check_u8_1(const char *op, const char *what, int i, const pf_image *m) {
    char name[96];
    snprintf(name, sizeof name, "%s: %s[%d]", op, what, i);
    pf_status st = pf_image_validate(m, name);
    if (st != PF_OK) return st;
    if (m->dtype != PF_U8 || m->channels != 1 || m->mem != PF_MEM_HOST)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d] must be a u8 1-channel host image (it is %s, %d channels)",
                        op, what, i, pf_dtype_name(m->dtype), m->channels);
    return PF_OK;
}

pf_status pf_masks_to_boxes(int count, const pf_image masks[], float boxes[]) {
    static const char op[] = "pf_masks_to_boxes";
    pfi_clear_error();
    if (count < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: count %d must be >= 0", op, count);
    if (count == 0) return PF_OK;
    if (masks == NULL || boxes == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, masks == NULL ? "masks" : "boxes");
    for (int i = 0; i < count; i++) {
        pf_status st = check_u8_1(op, "masks", i, &masks[i]);
        if (st != PF_OK) return st;
    }
    for (int i = 0; i < count; i++) {
        const pf_image *m = &masks[i];
        int32_t x0 = INT32_MAX, x1 = -1, y0 = -1, y1 = -1;
        for (int32_t y = 0; y < m->height; y++) {
            const uint8_t *r = pfi_row_ptr(m, 0, y);
            int32_t a = 0, b = m->width - 1;
            while (a < m->width && r[a] == 0) a++;
            if (a == m->width) continue;
            while (r[b] == 0) b--;
            if (a < x0) x0 = a;
            if (b > x1) x1 = b;
            if (y0 < 0) y0 = y;
            y1 = y;
        }
        float *o = boxes + 4 * (size_t)i;
        if (y0 < 0) o[0] = o[1] = o[2] = o[3] = 0.0f; /* empty: defined, not an error */
        else {
            o[0] = (float)x0;
            o[1] = (float)y0;
            o[2] = (float)x1;
            o[3] = (float)y1;
        }
    }
    return PF_OK;
}

/* ------------------------------------------------------------ protos */

pf_proto_opts pf_proto_opts_defaults(void) {
    pf_proto_opts o;
    memset(&o, 0, sizeof o);
    o.input_width = 640;
    o.input_height = 640;
    o.crop = true;
    o.value = 255;
    return o;
}

typedef struct proto_job {
    const pf_proto_opts *o;
    const float *coeffs, *protos, *boxes;
    int32_t m, ph, pw;
    pf_image *masks, *logits;
    const pfi_post_kernels *k;
    float rx, ry;
    float **rows; /* per worker: one logit row */
} proto_job;

static void proto_task(void *ctx, int k, int worker) {
    const proto_job *j = ctx;
    float *row = j->rows[worker];
    const float *c = j->coeffs + (size_t)k * (size_t)j->m;
    /* ultralytics: boxes *= (mw / iw) in float32, then r >= x1 & r < x2 */
    const float *b = j->boxes + 4 * (size_t)k;
    float x1 = b[0] * j->rx, y1 = b[1] * j->ry, x2 = b[2] * j->rx, y2 = b[3] * j->ry;
    pfi_proto_row_fn fn = j->k->proto_row;
    ptrdiff_t ps = (ptrdiff_t)j->ph * j->pw;
    for (int32_t y = 0; y < j->ph; y++) {
        const float *p = j->protos + (size_t)y * j->pw;
        int32_t done = fn(c, j->m, p, ps, j->pw, row);
        if (done < j->pw) pfi_proto_row_ref(c, j->m, p + done, ps, j->pw - done, row + done);
        uint8_t *mo = pfi_row_ptr(&j->masks[k], 0, y);
        float *lo = j->logits ? pfi_row_ptr(&j->logits[k], 0, y) : NULL;
        float fy = (float)y;
        int yin = !j->o->crop || (fy >= y1 && fy < y2);
        for (int32_t x = 0; x < j->pw; x++) {
            float fx = (float)x;
            int in = yin && (!j->o->crop || (fx >= x1 && fx < x2));
            float v = in ? row[x] : 0.0f;
            mo[x] = v > 0.0f ? j->o->value : 0;
            if (lo) lo[x] = v;
        }
    }
}

pf_status pf_proto_masks(pf_stream *stream, const pf_proto_opts *opts, int count, const float *coeffs, int32_t num_masks,
                         const float *protos, int32_t proto_h, int32_t proto_w, const float *boxes, pf_image masks[],
                         pf_image logits[]) {
    static const char op[] = "pf_proto_masks";
    pfi_clear_error();
    pf_proto_opts o = opts ? *opts : pf_proto_opts_defaults();
    pf_status hs = pfi_route_host_only(op, stream);
    if (hs != PF_OK) return hs;
    if (count < 0 || num_masks < 1 || proto_h < 1 || proto_w < 1)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: count %d, num_masks %d, proto %dx%d: need count >= 0, the rest >= 1",
                        op, count, num_masks, proto_w, proto_h);
    if (o.input_width < 1 || o.input_height < 1)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.input_width/input_height must be >= 1", op);
    if (count == 0) return PF_OK;
    if (!coeffs || !protos || !boxes || !masks)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op,
                        !coeffs ? "coeffs" : !protos ? "protos" : !boxes ? "boxes" : "masks");
    for (int i = 0; i < count; i++) {
        pf_status st = check_u8_1(op, "masks", i, &masks[i]);
        if (st != PF_OK) return st;
        if (masks[i].width != proto_w || masks[i].height != proto_h)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: masks[%d] is %dx%d; it must be the prototypes' %dx%d", op, i,
                            masks[i].width, masks[i].height, proto_w, proto_h);
        if (logits) {
            char name[64];
            snprintf(name, sizeof name, "%s: logits[%d]", op, i);
            if ((st = pf_image_validate(&logits[i], name)) != PF_OK) return st;
            if (logits[i].dtype != PF_F32 || logits[i].channels != 1 || logits[i].mem != PF_MEM_HOST ||
                logits[i].width != proto_w || logits[i].height != proto_h)
                return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: logits[%d] must be f32, 1 channel, %dx%d, host", op, i,
                                proto_w, proto_h);
        }
    }
    int threads = pf_stream_threads(stream);
    float **rows = calloc((size_t)threads, sizeof *rows);
    int ok = rows != NULL;
    for (int t = 0; ok && t < threads; t++) ok = (rows[t] = malloc((size_t)proto_w * sizeof(float))) != NULL;
    if (ok) {
        proto_job j = {&o, coeffs, protos, boxes, num_masks, proto_h, proto_w, masks, logits, pfi_post_kernels_for(stream),
                       (float)((double)proto_w / o.input_width), (float)((double)proto_h / o.input_height), rows};
        if (count > 1) pfi_stream_parallel(stream, count, proto_task, &j);
        else proto_task(&j, 0, 0);
    }
    for (int t = 0; rows && t < threads; t++) free(rows[t]);
    free(rows);
    return ok ? PF_OK : pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
}

/* ------------------------------------------------------------ unmap */

pf_status pf_masks_unmap(pf_stream *stream, int count, const pf_image src[], const pf_letterbox_info info[],
                         pf_image dst[], pf_interp interp) {
    static const char op[] = "pf_masks_unmap";
    pfi_clear_error();
    if (count < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: count %d must be >= 0", op, count);
    if (count == 0) return PF_OK;
    if (!src || !info || !dst)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, !src ? "src" : !info ? "info" : "dst");
    pf_image *roi = malloc((size_t)count * sizeof *roi);
    if (roi == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    pf_status st = PF_OK;
    for (int i = 0; i < count && st == PF_OK; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s: src[%d]", op, i);
        if ((st = pf_image_validate(&src[i], name)) != PF_OK) break;
        snprintf(name, sizeof name, "%s: dst[%d]", op, i);
        if ((st = pf_image_validate(&dst[i], name)) != PF_OK) break;
        const pf_letterbox_info *li = &info[i];
        if (!(li->scale_x > 0.0f && li->scale_y > 0.0f) || !isfinite(li->offset_x) || !isfinite(li->offset_y)) {
            st = pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: info[%d] has a scale <= 0 or a non-finite offset", op, i);
            break;
        }
        double x0 = rint((double)li->offset_x), y0 = rint((double)li->offset_y);
        double w = rint((double)li->scale_x * dst[i].width), h = rint((double)li->scale_y * dst[i].height);
        if (x0 < 0 || y0 < 0 || w < 1 || h < 1 || x0 + w > src[i].width || y0 + h > src[i].height) {
            st = pfi_fail(PF_ERR_INVALID_ARGUMENT,
                          "%s: the letterbox rectangle (%g, %g, %gx%g) of info[%d] for dst[%d] (%dx%d) leaves src[%d] "
                          "(%dx%d)", op, x0, y0, w, h, i, i, dst[i].width, dst[i].height, i, src[i].width,
                          src[i].height);
            break;
        }
        st = pf_image_roi(&src[i], (int32_t)x0, (int32_t)y0, (int32_t)w, (int32_t)h, &roi[i]);
    }
    if (st == PF_OK) {
        pf_resize_opts ro = pf_resize_opts_defaults();
        ro.interp = interp;
        st = pf_resize(stream, count, roi, dst, &ro);
        if (st != PF_OK) pfi_fail_in(op, st);
    }
    free(roi);
    return st;
}
