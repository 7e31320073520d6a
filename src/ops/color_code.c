/* The meaning of the pf_cvt_color codes (shared by the front-end, the CPU
 * run and the GPU job builder) and pf_color_opts_defaults (shared with the
 * 4:2:0 codes). */
#include "ops/color_code.h"

pf_color_opts pf_color_opts_defaults(void) {
    pf_color_opts o;
    o.yuv_matrix = PF_YUV_BT601;
    o.yuv_range = PF_YUV_LIMITED;
    return o;
}

int pfi_color_decode(int code, pfi_color_code_info *ci) {
    pfi_color_code_info c = {PFK_COLOR_RGB2RGB, 3, 4, 3, 3, 0, 0, 0, 0};
    switch (code) {
    case PF_COLOR_BGR2BGRA: c.dcn_min = c.dcn_max = 4; break;
    case PF_COLOR_BGRA2BGR: break;
    case PF_COLOR_BGR2RGBA: c.dcn_min = c.dcn_max = 4; c.swap = 1; break;
    case PF_COLOR_RGBA2BGR: c.swap = 1; break;
    case PF_COLOR_BGR2RGB: c.swap = 1; break;
    case PF_COLOR_BGRA2RGBA: c.dcn_min = c.dcn_max = 4; c.swap = 1; break;
    case PF_COLOR_BGR2GRAY: case PF_COLOR_BGRA2GRAY:
    case PF_COLOR_RGB2GRAY: case PF_COLOR_RGBA2GRAY:
        c.kind = PFK_COLOR_RGB2GRAY;
        c.dcn_min = c.dcn_max = 1;
        c.bidx = (code == PF_COLOR_RGB2GRAY || code == PF_COLOR_RGBA2GRAY) ? 2 : 0;
        break;
    case PF_COLOR_GRAY2BGR: case PF_COLOR_GRAY2BGRA:
        c.kind = PFK_COLOR_GRAY2RGB;
        c.scn_min = c.scn_max = 1;
        c.dcn_min = c.dcn_max = code == PF_COLOR_GRAY2BGR ? 3 : 4;
        break;
    case PF_COLOR_BGR2YCrCb: case PF_COLOR_RGB2YCrCb:
        c.kind = PFK_COLOR_RGB2YCRCB;
        c.bidx = code == PF_COLOR_RGB2YCrCb ? 2 : 0;
        break;
    case PF_COLOR_YCrCb2BGR: case PF_COLOR_YCrCb2RGB:
        c.kind = PFK_COLOR_YCRCB2RGB;
        c.scn_max = 3;
        c.dcn_max = 4;
        c.bidx = code == PF_COLOR_YCrCb2RGB ? 2 : 0;
        break;
    case PF_COLOR_BGR2HSV: case PF_COLOR_RGB2HSV:
    case PF_COLOR_BGR2HSV_FULL: case PF_COLOR_RGB2HSV_FULL:
        c.kind = PFK_COLOR_RGB2HSV;
        c.bidx = (code == PF_COLOR_RGB2HSV || code == PF_COLOR_RGB2HSV_FULL) ? 2 : 0;
        c.hrange_u8 = code >= PF_COLOR_BGR2HSV_FULL ? 256 : 180;
        c.no_u16 = 1;
        break;
    case PF_COLOR_HSV2BGR: case PF_COLOR_HSV2RGB:
    case PF_COLOR_HSV2BGR_FULL: case PF_COLOR_HSV2RGB_FULL:
        c.kind = PFK_COLOR_HSV2RGB;
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
