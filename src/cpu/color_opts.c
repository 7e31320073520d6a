/* pf_color_opts_defaults (shared by pf_cvt_color and the 4:2:0 codes). */
#include "pixflow/ops.h"

pf_color_opts pf_color_opts_defaults(void) {
    pf_color_opts o;
    o.yuv_matrix = PF_YUV_BT601;
    o.yuv_range = PF_YUV_LIMITED;
    return o;
}
