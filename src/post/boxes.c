/* Box utilities: torchvision's box_convert, clip_boxes_to_image and
 * remove_small_boxes, and the un-mapping of tensor-pixel boxes back to the
 * source through pf_letterbox_info (exact inverse, or ultralytics'
 * scale_boxes bit for bit). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/error.h"
#include "kernels/box_math.h"
#include "pixflow/post.h"

static int fmt_ok(pf_box_format f) { return (unsigned)f <= PF_BOX_YXYX; }

pf_status pf_box_convert(int64_t n, const float *in, pf_box_format in_fmt, float *out, pf_box_format out_fmt) {
    static const char op[] = "pf_box_convert";
    pfi_clear_error();
    if (n < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: n is %lld; it must be >= 0", op, (long long)n);
    if (!fmt_ok(in_fmt) || !fmt_ok(out_fmt))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s %d is not a pf_box_format", op,
                        fmt_ok(in_fmt) ? "out_fmt" : "in_fmt", fmt_ok(in_fmt) ? (int)out_fmt : (int)in_fmt);
    if (n == 0) return PF_OK;
    if (in == NULL || out == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, in == NULL ? "in" : "out");
    uintptr_t a = (uintptr_t)in, b = (uintptr_t)out, len = (uintptr_t)n * 4 * sizeof(float);
    if (a != b && a < b + len && b < a + len)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: in and out overlap without being the same array", op);
    for (int64_t i = 0; i < n; i++) {
        float xyxy[4], r[4];
        pfk_box_to_xyxy(in + 4 * i, (int)in_fmt, xyxy);
        if (in_fmt == out_fmt) memcpy(r, in + 4 * i, sizeof r);
        else pfk_box_from_xyxy(xyxy, (int)out_fmt, r);
        memcpy(out + 4 * i, r, sizeof r);
    }
    return PF_OK;
}

/* Tensor.clamp(min=0, max=hi): NaN and -0 pass through */
static float clamp_to(float x, float hi) {
    float v = 0.0f > x ? 0.0f : x;
    return hi < v ? hi : v;
}

pf_status pf_clip_boxes(int64_t n, const float *in, int32_t width, int32_t height, float *out) {
    static const char op[] = "pf_clip_boxes";
    pfi_clear_error();
    if (n < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: n is %lld; it must be >= 0", op, (long long)n);
    if (width < 0 || height < 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: width %d and height %d must be >= 0", op, width, height);
    if (n == 0) return PF_OK;
    if (in == NULL || out == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, in == NULL ? "in" : "out");
    float w = (float)width, h = (float)height;
    for (int64_t i = 0; i < 4 * n; i += 4) {
        float b[4] = {clamp_to(in[i], w), clamp_to(in[i + 1], h), clamp_to(in[i + 2], w), clamp_to(in[i + 3], h)};
        memcpy(out + i, b, sizeof b);
    }
    return PF_OK;
}

pf_status pf_remove_small_boxes(int32_t n, const float *boxes, float min_size, int32_t keep[], int32_t *kept) {
    static const char op[] = "pf_remove_small_boxes";
    pfi_clear_error();
    if (n < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: n is %d; it must be >= 0", op, n);
    if (kept == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: kept is NULL", op);
    if (n > 0 && (boxes == NULL || keep == NULL))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, boxes == NULL ? "boxes" : "keep");
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++) {
        const float *b = boxes + 4 * (size_t)i;
        float ws = b[2] - b[0], hs = b[3] - b[1];
        if (ws >= min_size && hs >= min_size) keep[k++] = i;
    }
    *kept = k;
    return PF_OK;
}

/* ------------------------------------------------------------ un-mapping */

pf_unmap_opts pf_unmap_opts_defaults(void) {
    pf_unmap_opts o;
    memset(&o, 0, sizeof o);
    o.rounding = PF_UNMAP_EXACT;
    o.clip = true;
    return o;
}

typedef struct axis_map {
    double scale, offset, crop, resized; /* resized: the flip's span in tensor pixels */
    int flip;
} axis_map;

/* tensor coordinate -> source coordinate (double) */
static double map_pt(const axis_map *m, double v) {
    double r = v - m->offset;
    if (m->flip) r = m->resized - r;
    return r / m->scale + m->crop;
}

static pf_status check_desc(const char *op, int i, const pf_unmap_desc *d, const pf_unmap_opts *o) {
    const pf_letterbox_info *li = &d->info;
    if (!(li->scale_x > 0.0f) || !(li->scale_y > 0.0f) || !isfinite(li->scale_x) || !isfinite(li->scale_y) ||
        !isfinite(li->offset_x) || !isfinite(li->offset_y))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: desc[%d].info has scale %g x %g, offset %g, %g; scales must be finite and > 0", op, i,
                        (double)li->scale_x, (double)li->scale_y, (double)li->offset_x, (double)li->offset_y);
    if (d->src_width < 1 || d->src_height < 1)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: desc[%d].src_width/src_height %dx%d must be >= 1", op, i,
                        d->src_width, d->src_height);
    if (d->crop_width < 0 || d->crop_height < 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: desc[%d].crop_width/crop_height must be >= 0", op, i);
    if (o->rounding == PF_UNMAP_ULTRALYTICS && (d->flip_h || d->flip_v || d->crop_width || d->crop_height ||
                                                li->crop_x || li->crop_y))
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "%s: desc[%d] has a crop or flip; PF_UNMAP_ULTRALYTICS maps whole, unflipped images only",
                        op, i);
    return PF_OK;
}

/* clip_boxes of one xyxy box to [0, w] x [0, h] */
static void clip4(float *b, int32_t w, int32_t h) {
    b[0] = clamp_to(b[0], (float)w);
    b[1] = clamp_to(b[1], (float)h);
    b[2] = clamp_to(b[2], (float)w);
    b[3] = clamp_to(b[3], (float)h);
}

/* ultralytics scale_boxes + clip_boxes for one xyxy box (float32 steps) */
static void unmap_ultralytics(float *b, const pf_unmap_desc *d, const pf_unmap_opts *o) {
    double gain = fmin((double)o->out_height / d->src_height, (double)o->out_width / d->src_width);
    double padx = rint(((double)o->out_width - d->src_width * gain) / 2 - 0.1);
    double pady = rint(((double)o->out_height - d->src_height * gain) / 2 - 0.1);
    float g = (float)gain, px = (float)padx, py = (float)pady;
    b[0] = (b[0] - px) / g;
    b[1] = (b[1] - py) / g;
    b[2] = (b[2] - px) / g;
    b[3] = (b[3] - py) / g;
    if (o->clip) clip4(b, d->src_width, d->src_height);
}

static void unmap_exact(float *b, pf_box_format fmt, const pf_unmap_desc *d, const pf_unmap_opts *o) {
    const pf_letterbox_info *li = &d->info;
    int32_t cw = d->crop_width ? d->crop_width : d->src_width, ch = d->crop_height ? d->crop_height : d->src_height;
    axis_map mx = {(double)li->scale_x, (double)li->offset_x, li->crop_x, rint((double)li->scale_x * cw), d->flip_h};
    axis_map my = {(double)li->scale_y, (double)li->offset_y, li->crop_y, rint((double)li->scale_y * ch), d->flip_v};
    double x1, y1, x2, y2;
    switch (fmt) {
    case PF_BOX_XYWH: x1 = (double)b[0]; y1 = (double)b[1]; x2 = x1 + (double)b[2]; y2 = y1 + (double)b[3]; break;
    case PF_BOX_CXCYWH:
        x1 = (double)b[0] - 0.5 * (double)b[2];
        y1 = (double)b[1] - 0.5 * (double)b[3];
        x2 = (double)b[0] + 0.5 * (double)b[2];
        y2 = (double)b[1] + 0.5 * (double)b[3];
        break;
    default: x1 = (double)b[0]; y1 = (double)b[1]; x2 = (double)b[2]; y2 = (double)b[3]; break;
    }
    double u1 = map_pt(&mx, x1), u2 = map_pt(&mx, x2), v1 = map_pt(&my, y1), v2 = map_pt(&my, y2);
    if (mx.flip) { double t = u1; u1 = u2; u2 = t; }
    if (my.flip) { double t = v1; v1 = v2; v2 = t; }
    switch (fmt) {
    case PF_BOX_XYWH: b[0] = (float)u1; b[1] = (float)v1; b[2] = (float)(u2 - u1); b[3] = (float)(v2 - v1); break;
    case PF_BOX_CXCYWH:
        b[0] = (float)((u1 + u2) * 0.5); b[1] = (float)((v1 + v2) * 0.5);
        b[2] = (float)(u2 - u1); b[3] = (float)(v2 - v1);
        break;
    default:
        b[0] = (float)u1; b[1] = (float)v1; b[2] = (float)u2; b[3] = (float)v2;
        if (o->clip) clip4(b, d->src_width, d->src_height);
        break;
    }
}

pf_status pf_boxes_unmap(int count, const int64_t offsets[], float *boxes, pf_box_format fmt,
                         const pf_unmap_desc desc[], int ndesc, const pf_unmap_opts *opts) {
    static const char op[] = "pf_boxes_unmap";
    pfi_clear_error();
    pf_unmap_opts o = opts ? *opts : pf_unmap_opts_defaults();
    if (count < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: count is %d; it must be >= 0", op, count);
    if (count == 0) return PF_OK;
    if (offsets == NULL || desc == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, offsets == NULL ? "offsets" : "desc");
    if (ndesc != 1 && ndesc != count)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: ndesc is %d; it must be 1 or count (%d)", op, ndesc, count);
    if (fmt != PF_BOX_XYXY && fmt != PF_BOX_XYWH && fmt != PF_BOX_CXCYWH)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: fmt %d must be PF_BOX_XYXY, PF_BOX_XYWH or PF_BOX_CXCYWH", op,
                        (int)fmt);
    if ((unsigned)o.rounding > PF_UNMAP_ULTRALYTICS)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.rounding %d is not a pf_unmap_rounding", op,
                        (int)o.rounding);
    if (o.rounding == PF_UNMAP_ULTRALYTICS) {
        if (fmt != PF_BOX_XYXY)
            return pfi_fail(PF_ERR_UNSUPPORTED, "%s: PF_UNMAP_ULTRALYTICS maps PF_BOX_XYXY boxes only", op);
        if (o.out_width < 1 || o.out_height < 1)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "%s: opts.out_width/out_height (%dx%d) must be the tensor size for PF_UNMAP_ULTRALYTICS",
                            op, o.out_width, o.out_height);
    }
    if (offsets[0] < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: offsets[0] is negative", op);
    for (int i = 0; i < count; i++) {
        if (offsets[i + 1] < offsets[i])
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: offsets[%d] < offsets[%d]; offsets must not decrease", op,
                            i + 1, i);
        pf_status st = check_desc(op, ndesc == 1 ? 0 : i, &desc[ndesc == 1 ? 0 : i], &o);
        if (st != PF_OK) return st;
    }
    if (offsets[count] > offsets[0] && boxes == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: boxes is NULL", op);
    for (int i = 0; i < count; i++) {
        const pf_unmap_desc *d = &desc[ndesc == 1 ? 0 : i];
        for (int64_t k = offsets[i]; k < offsets[i + 1]; k++) {
            if (o.rounding == PF_UNMAP_ULTRALYTICS) unmap_ultralytics(boxes + 4 * k, d, &o);
            else unmap_exact(boxes + 4 * k, fmt, d, &o);
        }
    }
    return PF_OK;
}
