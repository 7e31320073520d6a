/*
 * pixflow operators. Every op is batch-first: it takes `count` source views
 * (possibly of different sizes) and `count` destination views, and runs on
 * a stream (NULL = calling thread).
 */
#ifndef PIXFLOW_OPS_H
#define PIXFLOW_OPS_H

#include <stdbool.h>
#include "pixflow/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ================================================================ resize */

/* Interpolation modes; the values equal OpenCV's cv::InterpolationFlags. */
typedef enum pf_interp {
    PF_INTERP_NEAREST = 0,
    PF_INTERP_LINEAR = 1,
    PF_INTERP_CUBIC = 2,
    PF_INTERP_AREA = 3,
    PF_INTERP_LANCZOS4 = 4,
    PF_INTERP_NEAREST_EXACT = 6
} pf_interp;

typedef struct pf_resize_opts {
    pf_interp interp;  /* default PF_INTERP_LINEAR */
    bool antialias;    /* default false; see below */
} pf_resize_opts;

PF_API pf_resize_opts pf_resize_opts_defaults(void);

/*
 * pf_resize: resizes src[i] into dst[i] for i in [0, count). The output
 * size of each sample is dst[i].width x dst[i].height. opts may be NULL
 * (defaults).
 *
 * Supports: dtypes PF_U8, PF_U16, PF_F32; 1..4 channels; PF_HWC and PF_CHW
 * (CHW resizes each plane); any strides (negative row strides included);
 * src and dst may differ in layout only if channels == 1. Host memory only
 * (PF_MEM_CUDA views are rejected with PF_ERR_UNSUPPORTED on the CPU path).
 *
 * antialias == false: the result equals OpenCV 4.x cv::resize(src, dst,
 * dst.size(), 0, 0, interp):
 *   - u8: bit-exact for every mode (NEAREST, NEAREST_EXACT, LINEAR with
 *     its 2x->AREA shortcut, CUBIC, AREA integer and fractional, and AREA
 *     upscale, LANCZOS4), 1/3/4 channels, HWC. Verified against Debian's
 *     OpenCV 4.6 build (SSE2 baseline); CUBIC reproduces that build's
 *     float/integer split of the vertical pass (docs/exactness.md).
 *   - u16: bit-exact; f32: bit-identical in every tested case (the
 *     contract is 1e-5 relative).
 *   - NEAREST_EXACT is exact for widths/heights < 32768 (OpenCV's own
 *     16.16 fixed point overflows past that).
 *
 * antialias == true: separable filtering with the filter support widened
 * by the downscale factor, exactly as Pillow's Image.resize computes it
 * (two passes, horizontal first, 22-bit fixed-point weights, u8
 * intermediate), and as torchvision's antialias=True approximates:
 *   LINEAR -> triangle (Pillow BILINEAR), CUBIC -> Keys a=-0.5 (Pillow
 *   BICUBIC), AREA -> box (Pillow BOX), LANCZOS4 -> Lanczos a=3 (Pillow
 *   LANCZOS). NEAREST/NEAREST_EXACT ignore the flag.
 *   u8 matches Pillow 9.x bit-exactly on the tested images (max diff 0);
 *   u16 and f32 use float weights and float accumulation (no intermediate
 *   rounding). Channels are filtered independently (Pillow premultiplies
 *   RGBA by alpha; pixflow does not).
 *
 * Not supported: in-place or overlapping src/dst (PF_ERR_INVALID_ARGUMENT),
 * s16/s32/f16/bf16 (PF_ERR_UNSUPPORTED), more than 4 channels, sizes whose
 * byte extent overflows size_t.
 */
PF_API pf_status pf_resize(pf_stream *stream, int count, const pf_image src[],
                           pf_image dst[], const pf_resize_opts *opts);

#ifdef __cplusplus
}
#endif

#endif /* PIXFLOW_OPS_H */
