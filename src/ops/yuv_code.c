/* The meaning of the 4:2:0 codes and colour options (shared by the
 * front-end, the CPU run and the GPU job builders). */
#include "core/error.h"
#include "ops/yuv_code.h"
#include "plan/yuv_coeffs.h"

int pfi_yuv_decode_code(pf_color_code code, pfi_yuv_code *c) {
    int v = (int)code;
    if (v >= 90 && v <= 97) { /* NV12/NV21: RGB, BGR, RGB, BGR, RGBA, BGRA, RGBA, BGRA */
        int o = v - 90;
        c->kind = PFK_YUV_FRAME_SP;
        c->blue_first = o & 1;
        c->swap_uv = (o >> 1) & 1;
        c->cn = o >= 4 ? 4 : 3;
        return 1;
    }
    if (v >= 98 && v <= 105) { /* YV12, IYUV x {RGB, BGR}, then the same with alpha */
        int o = v - 98;
        c->kind = PFK_YUV_FRAME_PLANAR;
        c->blue_first = o & 1;
        c->swap_uv = 0; /* u/v are named planes: YV12 differs from I420 only in memory order */
        c->cn = o >= 4 ? 4 : 3;
        return 1;
    }
    if (v == 106) {
        c->kind = PFK_YUV_FRAME_GRAY;
        c->blue_first = c->swap_uv = 0;
        c->cn = 1;
        return 1;
    }
    return 0;
}

int pfi_yuv_encode_code(pf_color_code code, pfi_yuv_code *c) {
    int v = (int)code;
    if (v >= 127 && v <= 134) { /* I420 RGB, BGR, RGBA, BGRA; then YV12 */
        int o = (v - 127) & 3;
        c->kind = PFK_YUV_FRAME_PLANAR;
        c->blue_first = o & 1;
        c->cn = o >= 2 ? 4 : 3;
        c->swap_uv = 0;
        return 1;
    }
    if (v >= 1000 && v <= 1007) { /* NV12 RGB, BGR, RGBA, BGRA; then NV21 */
        int o = v - 1000;
        c->kind = PFK_YUV_FRAME_SP;
        c->blue_first = o & 1;
        c->cn = (o & 3) >= 2 ? 4 : 3;
        c->swap_uv = o >= 4;
        return 1;
    }
    return 0;
}

pf_status pfi_yuv_check_opts(const char *fn, const pf_color_opts *opts, pfk_yuv_coeffs *k) {
    int m = opts ? (int)opts->yuv_matrix : (int)PF_YUV_BT601;
    int r = opts ? (int)opts->yuv_range : (int)PF_YUV_LIMITED;
    if (m != PF_YUV_BT601 && m != PF_YUV_BT709)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: opts->yuv_matrix is %d; use PF_YUV_BT601 or PF_YUV_BT709", fn, m);
    if (r != PF_YUV_LIMITED && r != PF_YUV_FULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: opts->yuv_range is %d; use PF_YUV_LIMITED or PF_YUV_FULL", fn, r);
    *k = *pfi_yuv_coeffs(m, r);
    return PF_OK;
}
