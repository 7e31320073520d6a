/* Colour conversion row kernels: the reference (the specification) and the
 * contract the optimized kernels follow. */
#ifndef PF_REF_COLOR_ROWS_H
#define PF_REF_COLOR_ROWS_H

#include <stdint.h>

#include "kernels/color_math.h"
#include "pixflow/core.h"

/* Everything a row kernel needs to know about one conversion. */
typedef struct pfi_color_desc {
    pfk_color_kind kind;
    pf_dtype dtype;    /* PF_U8, PF_U16 or PF_F32 (src and dst alike) */
    int scn, dcn;      /* channels per src / dst pixel */
    int bidx;          /* index of blue in the RGB-side pixel: 0 = BGR, 2 = RGB */
    int swap;          /* RGB2RGB: dst channel 0 <- src channel 2 and back */
    int hrange;        /* HSV: u8 180 / 256 (forward FULL) / 255 (inverse FULL); f32 360 */
    int hsv_trunc;     /* HSV2RGB u8: 1 truncates to u8 (OpenCV's vector loop),
                          0 rounds (its scalar tail); see pfi_hsv2rgb_trunc_px */
} pfi_color_desc;

/* dst = convert(src) for n pixels of a row. Optimized kernels accept only n
 * that is a multiple of PFI_COLOR_BLOCK; the caller runs the reference on
 * the rest. */
typedef void (*pfi_color_row_fn)(const void *src, void *dst, int32_t n, const pfi_color_desc *d);

#define PFI_COLOR_BLOCK 64

void pfi_color_row_ref(const void *src, void *dst, int32_t n, const pfi_color_desc *d);

/* OpenCV's u8 HSV -> RGB truncates in its vector loop and rounds in its
 * scalar tail, so the result depends on the pixel's position: the first
 * pfi_hsv2rgb_trunc_px(width) pixels of each row are truncated. The
 * installed OpenCV (AVX2 dispatch, 8 float lanes, 4 vectors per step)
 * truncates floor(width / 32) * 32 pixels. */
static inline int32_t pfi_hsv2rgb_trunc_px(int32_t width) { return width / 32 * 32; }

#endif
