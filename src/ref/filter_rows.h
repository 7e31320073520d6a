/* Filter row kernels: the reference (= specification) and the contract of
 * the SIMD versions.
 *
 * Rows are arrays of elements (a pixel of an HWC row is `step` = channels
 * consecutive elements; a CHW plane has step 1). "Padded" rows already
 * hold the border: element i of the output reads padded elements i,
 * i + step, ..., i + (taps - 1) * step. Vertical kernels combine `taps`
 * rows element by element.
 *
 * Every kernel processes elements [x0, n) and returns the end of what it
 * did: the references return n; SIMD kernels do whole vectors only and
 * the caller finishes [returned, n) with the reference, so SIMD code has
 * no tail logic. Results are identical either way.
 */
#ifndef PF_REF_FILTER_ROWS_H
#define PF_REF_FILTER_ROWS_H

#include <stdint.h>

#include "kernels/filter_math.h"

/* u8 horizontal weighted sum: out[i] = sum_j k[j] * pad[i + j * step]
 * (exact; callers guarantee the sum fits 16 bits: Gaussian taps sum to
 * 256, box taps are 1 with at most 257 of them). */
typedef int32_t (*pfi_hsum_u8_fn)(const uint8_t *pad, uint16_t *out, const uint16_t *k, int32_t taps,
                                  int32_t step, int32_t x0, int32_t n);
/* u8 Gaussian vertical pass: out[i] = pfk_gauss_q16_to_u8(sum_j k[j] * rows[j][i]). */
typedef int32_t (*pfi_vgauss_u8_fn)(const uint16_t *const *rows, const uint16_t *k, int32_t taps, uint8_t *out,
                                    int32_t x0, int32_t n);
/* u8 Gaussian vertical pass when every tap of both kernels is a multiple
 * of 2^sx / 2^sy with sx + sy >= 8 (OpenCV's default 3x3 and 5x5
 * kernels): with the reduced taps (k >> s) the whole 2D sum fits 16 bits,
 * and out[i] = (sum_j k[j] * rows[j][i] + round) >> shift, shift =
 * 16 - sx - sy, equals pfi_vgauss_u8 on the full taps exactly. */
typedef int32_t (*pfi_vgauss16_u8_fn)(const uint16_t *const *rows, const uint16_t *k, int32_t taps, int32_t shift,
                                      uint8_t *out, int32_t x0, int32_t n);
/* u8 box vertical pass, area <= 256: out[i] = pfk_box_div_u8(sum_j rows[j][i], d). */
typedef int32_t (*pfi_vbox_u8_fn)(const uint16_t *const *rows, int32_t taps, pfk_box_div d, uint8_t *out,
                                  int32_t x0, int32_t n);
/* u8 min (is_max 0) or max (1) over taps: horizontal on a padded row,
 * vertical over rows. */
typedef int32_t (*pfi_hmorph_u8_fn)(const uint8_t *pad, uint8_t *out, int32_t taps, int32_t step, int32_t x0,
                                    int32_t n);
typedef int32_t (*pfi_vmorph_u8_fn)(const uint8_t *const *rows, int32_t taps, uint8_t *out, int32_t x0,
                                    int32_t n);
/* Same for u16 and f32 (f32: a NaN in the window gives what the
 * reference's "if (w < v) v = w" scan gives, in window order). */
typedef int32_t (*pfi_hmorph_u16_fn)(const uint16_t *pad, uint16_t *out, int32_t taps, int32_t step, int32_t x0,
                                     int32_t n);
typedef int32_t (*pfi_vmorph_u16_fn)(const uint16_t *const *rows, int32_t taps, uint16_t *out, int32_t x0,
                                     int32_t n);
typedef int32_t (*pfi_hmorph_f32_fn)(const float *pad, float *out, int32_t taps, int32_t step, int32_t x0,
                                     int32_t n);
typedef int32_t (*pfi_vmorph_f32_fn)(const float *const *rows, int32_t taps, float *out, int32_t x0, int32_t n);
/* f32 separable convolution passes (products summed in tap order, f32,
 * no FMA). */
typedef int32_t (*pfi_hconv_f32_fn)(const float *pad, float *out, const float *k, int32_t taps, int32_t step,
                                    int32_t x0, int32_t n);
typedef int32_t (*pfi_vconv_f32_fn)(const float *const *rows, const float *k, int32_t taps, float *out,
                                    int32_t x0, int32_t n);

/* The non-zero taps of a 2D kernel, in row-major order: tap t reads
 * padded row row[t] at element i + off[t] and has weight w[t]. */
typedef struct pfi_taps2d {
    int32_t count;
    const int32_t *row;
    const int32_t *off;
    const float *w;
} pfi_taps2d;

/* filter_2d u8: out[i] = sat_u8(round_half_even(delta + sum_t w[t] * x_t)),
 * accumulated in f32 in tap order starting from delta. */
typedef int32_t (*pfi_conv2d_u8_fn)(const uint8_t *const *rows, const pfi_taps2d *taps, float delta,
                                    uint8_t *out, int32_t x0, int32_t n);
/* Median of the 3x3 (5x5) window of padded rows rows[0..2] ([0..4]). */
typedef int32_t (*pfi_median_u8_fn)(const uint8_t *const *rows, int32_t step, uint8_t *out, int32_t x0,
                                     int32_t n);
/* torchvision adjust_sharpness for interior elements of a u8 row: r0, r1,
 * r2 point at the rows above / at / below, element x of the output reads
 * columns x - step .. x + step of them (the caller keeps x - step >= 0 and
 * x + step < row length). g = (float)(1 - factor): the blend's alpha
 * (pfk_sharpen_blend). */
typedef int32_t (*pfi_sharpen_u8_fn)(const uint8_t *r0, const uint8_t *r1, const uint8_t *r2, uint8_t *out,
                                     int32_t step, float g, int32_t x0, int32_t n);

int32_t pfi_hsum_u8_ref(const uint8_t *pad, uint16_t *out, const uint16_t *k, int32_t taps, int32_t step,
                        int32_t x0, int32_t n);
int32_t pfi_vgauss_u8_ref(const uint16_t *const *rows, const uint16_t *k, int32_t taps, uint8_t *out, int32_t x0,
                          int32_t n);
int32_t pfi_vgauss16_u8_ref(const uint16_t *const *rows, const uint16_t *k, int32_t taps, int32_t shift,
                            uint8_t *out, int32_t x0, int32_t n);
int32_t pfi_vbox_u8_ref(const uint16_t *const *rows, int32_t taps, pfk_box_div d, uint8_t *out, int32_t x0,
                        int32_t n);
#define PFI_MORPH_REF_DECL(name, sfx, T)                                                                        \
    int32_t pfi_h##name##_##sfx##_ref(const T *pad, T *out, int32_t taps, int32_t step, int32_t x0, int32_t n);    \
    int32_t pfi_v##name##_##sfx##_ref(const T *const *rows, int32_t taps, T *out, int32_t x0, int32_t n);
PFI_MORPH_REF_DECL(min, u8, uint8_t)
PFI_MORPH_REF_DECL(max, u8, uint8_t)
PFI_MORPH_REF_DECL(min, u16, uint16_t)
PFI_MORPH_REF_DECL(max, u16, uint16_t)
PFI_MORPH_REF_DECL(min, f32, float)
PFI_MORPH_REF_DECL(max, f32, float)
int32_t pfi_hconv_f32_ref(const float *pad, float *out, const float *k, int32_t taps, int32_t step, int32_t x0,
                          int32_t n);
int32_t pfi_vconv_f32_ref(const float *const *rows, const float *k, int32_t taps, float *out, int32_t x0,
                          int32_t n);
int32_t pfi_conv2d_u8_ref(const uint8_t *const *rows, const pfi_taps2d *taps, float delta, uint8_t *out,
                          int32_t x0, int32_t n);
int32_t pfi_median3_u8_ref(const uint8_t *const *rows, int32_t step, uint8_t *out, int32_t x0, int32_t n);
int32_t pfi_median5_u8_ref(const uint8_t *const *rows, int32_t step, uint8_t *out, int32_t x0, int32_t n);
int32_t pfi_sharpen_u8_ref(const uint8_t *r0, const uint8_t *r1, const uint8_t *r2, uint8_t *out, int32_t step,
                           float g, int32_t x0, int32_t n);

/* Reference-only rows (no SIMD slot). */

/* u8 box with wide windows: 32-bit sums. */
void pfi_hsum_u8_u32_ref(const uint8_t *pad, uint32_t *out, int32_t taps, int32_t step, int32_t n);
void pfi_vbox_u32_u8_ref(const uint32_t *const *rows, int32_t taps, int32_t area, uint8_t *out, int32_t n);
/* f32 box: double sums in tap order, dst = (float)(sum * (1.0 / area)). */
typedef int32_t (*pfi_hsum_f32_f64_fn)(const float *pad, double *out, int32_t taps, int32_t step, int32_t x0,
                                       int32_t n);
typedef int32_t (*pfi_vbox_f64_f32_fn)(const double *const *rows, int32_t taps, double scale, float *out,
                                       int32_t x0, int32_t n);
int32_t pfi_hsum_f32_f64_ref(const float *pad, double *out, int32_t taps, int32_t step, int32_t x0, int32_t n);
int32_t pfi_vbox_f64_f32_ref(const double *const *rows, int32_t taps, double scale, float *out, int32_t x0,
                             int32_t n);
/* filter_2d f32: out[i] = delta + sum_t w[t] * x_t, f32, in tap order
 * from delta, no FMA. */
typedef int32_t (*pfi_conv2d_f32_fn)(const float *const *rows, const pfi_taps2d *taps, float delta, float *out,
                                     int32_t x0, int32_t n);
int32_t pfi_conv2d_f32_ref(const float *const *rows, const pfi_taps2d *taps, float delta, float *out, int32_t x0,
                           int32_t n);
/* u16 Gaussian (16.16 taps) and box: horizontal u16 -> u32 weighted
 * sums (exact), vertical passes to u16 (pfk_gauss_q32_to_u16 / pfk_box_u16). */
typedef int32_t (*pfi_hsum_u16_fn)(const uint16_t *pad, uint32_t *out, const uint32_t *k, int32_t taps,
                                   int32_t step, int32_t x0, int32_t n);
typedef int32_t (*pfi_vgauss_u16_fn)(const uint32_t *const *rows, const uint32_t *k, int32_t taps, uint16_t *out,
                                     int32_t x0, int32_t n);
int32_t pfi_hsum_u16_ref(const uint16_t *pad, uint32_t *out, const uint32_t *k, int32_t taps, int32_t step,
                         int32_t x0, int32_t n);
int32_t pfi_vgauss_u16_ref(const uint32_t *const *rows, const uint32_t *k, int32_t taps, uint16_t *out, int32_t x0,
                           int32_t n);
void pfi_hsum1_u16_ref(const uint16_t *pad, uint32_t *out, int32_t taps, int32_t step, int32_t n);
void pfi_vbox_u16_ref(const uint32_t *const *rows, int32_t taps, int32_t area, uint16_t *out, int32_t n);
/* Median of a k x k window (k odd): u8 any k, u16 and f32 k 3 or 5. */
void pfi_median_u8_ref(const uint8_t *const *rows, int32_t k, int32_t step, uint8_t *out, int32_t n);
void pfi_median_u16_ref(const uint16_t *const *rows, int32_t k, int32_t step, uint16_t *out, int32_t n);
void pfi_median_f32_ref(const float *const *rows, int32_t k, int32_t step, float *out, int32_t n);
/* torchvision adjust_sharpness, f32 interior elements (bound 1); same
 * contract as pfi_sharpen_u8_fn. */
typedef int32_t (*pfi_sharpen_f32_fn)(const float *r0, const float *r1, const float *r2, float *out, int32_t step,
                                      float g, int32_t x0, int32_t n);
int32_t pfi_sharpen_f32_ref(const float *r0, const float *r1, const float *r2, float *out, int32_t step, float g,
                            int32_t x0, int32_t n);

#endif
