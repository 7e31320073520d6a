/* The embedded OpenCL programs: for each, the generated array of source
 * strings (cmake/opencl.cmake lists the files: the prelude, the shared
 * kernel bodies of src/kernels, then the entry wrappers of
 * src/opencl/kernels). */
#include "opencl/cl_internal.h"

extern const char *const pfi_cl_src_pointwise[];
extern const unsigned pfi_cl_src_pointwise_count;
extern const char *const pfi_cl_src_convert[];
extern const unsigned pfi_cl_src_convert_count;
extern const char *const pfi_cl_src_color[];
extern const unsigned pfi_cl_src_color_count;
extern const char *const pfi_cl_src_warp[];
extern const unsigned pfi_cl_src_warp_count;
extern const char *const pfi_cl_src_resize[];
extern const unsigned pfi_cl_src_resize_count;
extern const char *const pfi_cl_src_preprocess[];
extern const unsigned pfi_cl_src_preprocess_count;
extern const char *const pfi_cl_src_post[];
extern const unsigned pfi_cl_src_post_count;
extern const char *const pfi_cl_src_nms[];
extern const unsigned pfi_cl_src_nms_count;

const char *const *pfi_cl_program_sources(pfi_cl_prog_id id, unsigned *count) {
    switch (id) {
    case PFI_CL_PROG_POINTWISE: *count = pfi_cl_src_pointwise_count; return pfi_cl_src_pointwise;
    case PFI_CL_PROG_CONVERT: *count = pfi_cl_src_convert_count; return pfi_cl_src_convert;
    case PFI_CL_PROG_COLOR: *count = pfi_cl_src_color_count; return pfi_cl_src_color;
    case PFI_CL_PROG_WARP: *count = pfi_cl_src_warp_count; return pfi_cl_src_warp;
    case PFI_CL_PROG_RESIZE: *count = pfi_cl_src_resize_count; return pfi_cl_src_resize;
    case PFI_CL_PROG_PREPROCESS: *count = pfi_cl_src_preprocess_count; return pfi_cl_src_preprocess;
    case PFI_CL_PROG_POST: *count = pfi_cl_src_post_count; return pfi_cl_src_post;
    case PFI_CL_PROG_NMS: *count = pfi_cl_src_nms_count; return pfi_cl_src_nms;
    case PFI_CL_PROG_COUNT: break;
    }
    *count = 0;
    return NULL;
}

const char *pfi_cl_program_name(pfi_cl_prog_id id) {
    switch (id) {
    case PFI_CL_PROG_POINTWISE: return "pointwise";
    case PFI_CL_PROG_CONVERT: return "convert";
    case PFI_CL_PROG_COLOR: return "color";
    case PFI_CL_PROG_WARP: return "warp";
    case PFI_CL_PROG_RESIZE: return "resize";
    case PFI_CL_PROG_PREPROCESS: return "preprocess";
    case PFI_CL_PROG_POST: return "post";
    case PFI_CL_PROG_NMS: return "nms";
    case PFI_CL_PROG_COUNT: break;
    }
    return "?";
}

bool pfi_cl_program_needs_fp64(pfi_cl_prog_id id) {
    return id == PFI_CL_PROG_CONVERT || id == PFI_CL_PROG_COLOR || id == PFI_CL_PROG_WARP ||
           id == PFI_CL_PROG_PREPROCESS || id == PFI_CL_PROG_NMS;
}
