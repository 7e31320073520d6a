/* 4:2:0 row-pair kernels: the reference (the specification) and the
 * contract the optimized kernels follow.
 *
 * Every kernel converts one pair of luma rows (y0, y1 = rows 2j, 2j+1)
 * sharing one chroma row j, over `width` pixels starting at an even
 * column. Optimized kernels handle only widths that are a multiple of
 * PFI_YUV_BLOCK; the caller runs the reference on the rest of the row
 * (which starts at an even column, so the chroma phase is preserved). */
#ifndef PF_REF_YUV_ROWS_H
#define PF_REF_YUV_ROWS_H

#include <stdint.h>

#include "kernels/yuv_math.h"

#define PFI_YUV_BLOCK 64

typedef struct pfi_yuv_params {
    pfk_yuv_coeffs k;
    int32_t cn;      /* RGB side: 3 or 4 channels (4: alpha written as 255 / ignored) */
    int32_t blue_first; /* RGB side is BGR(A) */
    int32_t swap_uv; /* semi-planar chroma is V,U (NV21) */
} pfi_yuv_params;

/* NV12/NV21 -> RGB: uv holds width/2 (U,V) pairs (V,U when swap_uv). */
typedef void (*pfi_yuv_sp_to_rgb_fn)(const uint8_t *y0, const uint8_t *y1, const uint8_t *uv,
                                     uint8_t *d0, uint8_t *d1, int32_t width,
                                     const pfi_yuv_params *p);
/* I420/YV12 -> RGB: u and v hold width/2 samples each. */
typedef void (*pfi_yuv_p_to_rgb_fn)(const uint8_t *y0, const uint8_t *y1, const uint8_t *u,
                                    const uint8_t *v, uint8_t *d0, uint8_t *d1, int32_t width,
                                    const pfi_yuv_params *p);
/* RGB -> I420/YV12 planes. */
typedef void (*pfi_rgb_to_yuv_p_fn)(const uint8_t *s0, const uint8_t *s1, uint8_t *y0,
                                    uint8_t *y1, uint8_t *u, uint8_t *v, int32_t width,
                                    const pfi_yuv_params *p);
/* RGB -> NV12/NV21 (chroma interleaved; V,U when swap_uv). */
typedef void (*pfi_rgb_to_yuv_sp_fn)(const uint8_t *s0, const uint8_t *s1, uint8_t *y0,
                                     uint8_t *y1, uint8_t *uv, int32_t width,
                                     const pfi_yuv_params *p);

void pfi_yuv_sp_to_rgb_ref(const uint8_t *y0, const uint8_t *y1, const uint8_t *uv, uint8_t *d0,
                           uint8_t *d1, int32_t width, const pfi_yuv_params *p);
void pfi_yuv_p_to_rgb_ref(const uint8_t *y0, const uint8_t *y1, const uint8_t *u,
                          const uint8_t *v, uint8_t *d0, uint8_t *d1, int32_t width,
                          const pfi_yuv_params *p);
void pfi_rgb_to_yuv_p_ref(const uint8_t *s0, const uint8_t *s1, uint8_t *y0, uint8_t *y1,
                          uint8_t *u, uint8_t *v, int32_t width, const pfi_yuv_params *p);
void pfi_rgb_to_yuv_sp_ref(const uint8_t *s0, const uint8_t *s1, uint8_t *y0, uint8_t *y1,
                           uint8_t *uv, int32_t width, const pfi_yuv_params *p);

#endif
