/* Warp row kernels (warp_affine, warp_perspective, remap): the reference
 * and the contract of the optimized versions.
 *
 * A warp is two steps per output row: coordinates (per pixel an int16
 * source column and row, xy[2k] and xy[2k+1], and for LINEAR/CUBIC the
 * sub-pixel table index a[k] = fy * 32 + fx, see kernels/warp_math.h),
 * then sampling (interpolation with the border rule). */
#ifndef PF_REF_WARP_ROWS_H
#define PF_REF_WARP_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "pixflow/core.h"

/* One source plane as the sampler sees it. */
typedef struct pfi_warp_src {
    const uint8_t *data;  /* pixel (0, 0) of the plane */
    ptrdiff_t row_stride; /* bytes, any sign */
    int32_t width, height;
    int32_t cn;           /* interleaved channels (HWC: channels; a CHW plane: 1) */
    pf_dtype dtype;       /* PF_U8, PF_U16 or PF_F32 */
    int interp;           /* PF_INTERP_NEAREST, LINEAR or CUBIC */
    int border;           /* pf_border value, or PF_BORDER_TRANSPARENT */
    union {               /* the border value per channel, saturated to dtype */
        uint8_t u8[4];
        uint16_t u16[4];
        float f32[4];
    } cval;
} pfi_warp_src;

/* Coefficient tables (built once, thread-safe): 1024 entries of 2x2
 * (LINEAR) or 4x4 (CUBIC) weights, row-major, int16 for u8 and float for
 * u16/f32. */
const int16_t *pfi_warp_tab_i(int cubic);
const float *pfi_warp_tab_f(int cubic);

/* Samples n output pixels (cn interleaved channels each) from s at the
 * given coordinates. TRANSPARENT leaves the pixels whose source is outside
 * untouched. Handles every pixel (inside or at the border). */
void pfi_warp_row_ref(const pfi_warp_src *s, const int16_t *xy, const uint16_t *a, void *dst, int32_t n);

/* u8 sampling of a whole row from int16 coordinates (any pixel, inside
 * or at the border; 1..4 interleaved channels): the slot contract of the
 * SIMD samplers, one slot per interpolation. The reference is
 * pfi_warp_row_ref. */
typedef void (*pfi_warp_u8_row_fn)(const pfi_warp_src *s, const int16_t *xy, const uint16_t *a, uint8_t *dst,
                                   int32_t n);
void pfi_warp_u8_row_ref(const pfi_warp_src *s, const int16_t *xy, const uint16_t *a, uint8_t *dst, int32_t n);

/* Affine u8 in one pass: the coordinates of pixels [0, n) of a row
 * (pfi_warp_affine_xy_fn's arguments; s->interp picks NEAREST/LINEAR/
 * CUBIC) sampled straight into dst, so a SIMD kernel needs no coordinate
 * buffer. The reference computes coordinate rows and calls
 * pfi_warp_row_ref. */
typedef void (*pfi_warp_affine_u8_fn)(const pfi_warp_src *s, const int32_t *adelta, const int32_t *bdelta,
                                      int32_t X0, int32_t Y0, int32_t n, uint8_t *dst);
void pfi_warp_affine_u8_ref(const pfi_warp_src *s, const int32_t *adelta, const int32_t *bdelta, int32_t X0,
                            int32_t Y0, int32_t n, uint8_t *dst);

/* Remap u8 in one pass: pixels [0, n) from the float maps fx, fy (as
 * pfi_warp_remap_xy_fn) sampled straight into dst. */
typedef void (*pfi_warp_remap_u8_fn)(const pfi_warp_src *s, const float *fx, const float *fy, int32_t n,
                                     uint8_t *dst);
void pfi_warp_remap_u8_ref(const pfi_warp_src *s, const float *fx, const float *fy, int32_t n, uint8_t *dst);

/* Affine coordinates of one row: pixels [x0, x0 + n) of the row whose
 * fixed-point origin is (X0, Y0) (kernels/warp_math.h pfk_affine_row),
 * with the per-column terms adelta/bdelta (indexed by absolute column). */
typedef void (*pfi_warp_affine_xy_fn)(const int32_t *adelta, const int32_t *bdelta, int32_t X0, int32_t Y0,
                                      int32_t n, int nearest, int16_t *xy, uint16_t *a);
void pfi_warp_affine_xy_ref(const int32_t *adelta, const int32_t *bdelta, int32_t X0, int32_t Y0, int32_t n,
                            int nearest, int16_t *xy, uint16_t *a);

/* Perspective coordinates of n pixels x1 = x1_0 .. x1_0 + n - 1 columns
 * right of the block origin o (pfk_persp_origin). */
typedef void (*pfi_warp_persp_xy_fn)(const double m[9], const double o[3], int32_t x1_0, int32_t n, int nearest,
                                     int16_t *xy, uint16_t *a);
void pfi_warp_persp_xy_ref(const double m[9], const double o[3], int32_t x1_0, int32_t n, int nearest, int16_t *xy,
                           uint16_t *a);

/* Remap coordinates of n pixels from float maps. */
typedef void (*pfi_warp_remap_xy_fn)(const float *fx, const float *fy, int32_t n, int nearest, int16_t *xy,
                                     uint16_t *a);
void pfi_warp_remap_xy_ref(const float *fx, const float *fy, int32_t n, int nearest, int16_t *xy, uint16_t *a);

#endif
