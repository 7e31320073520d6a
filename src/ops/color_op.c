/* pf_cvt_color: code decoding, argument checks, routing to the backend
 * (CPU: src/cpu/color_cpu.c, CUDA: src/cuda/pointwise_cuda.c). */
#include "core/backend.h"
#include "core/error.h"
#include "core/image_util.h"
#include "ops/color_code.h"
#include "ops/op_args.h"

#define OP "pf_cvt_color"

static int is_video_code(int code) { return (code >= 90 && code <= 134) || code >= 1000; }

/* Where the views live is pfi_route's. */
static pf_status check_pair(int i, const pf_image *s, const pf_image *d, const pfi_color_code_info *c, int code) {
    pf_status st = pfi_check_pair(OP, i, s, d, 0);
    if (st != PF_OK) return st;
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

pf_status pf_cvt_color(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                       pf_color_code code, const pf_color_opts *opts) {
    pfi_clear_error();
    /* opts: the matrix/range options concern the 4:2:0 codes only */
    int icode = (int)code;
    pfi_color_code_info ci;
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
    pf_status st = pfi_check_batch(OP, count, src, dst);
    if (st != PF_OK || count == 0) return st;
    const pfi_backend *be;
    pf_stream *ds;
    if ((st = pfi_route_images(OP, stream, count, src, dst, &be, &ds)) != PF_OK) return st;
    for (int i = 0; i < count; i++)
        if ((st = check_pair(i, &src[i], &dst[i], &ci, icode)) != PF_OK) return st;
    return PFI_KERNEL(be, OP, cvt_color, ds, count, src, dst, code, opts);
}
