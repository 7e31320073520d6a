/* The CPU backend's op entries (its pfi_kernels table, backend_cpu.c):
 * the same arguments as the public functions, already validated by the
 * op front-ends (src/ops, src/augment), host views, any CPU stream or
 * NULL. Each returns PF_OK, or PF_ERR_OUT_OF_MEMORY (or what a per-sample
 * decoding such as a singular warp matrix reports) naming the public
 * function. */
#ifndef PF_CPU_CPU_KERNELS_H
#define PF_CPU_CPU_KERNELS_H

#include "core/backend.h"

pf_status pfi_cpu_resize(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_resize_opts *opts);
pf_status pfi_cpu_cvt_color(pf_stream *s, int count, const pf_image src[], pf_image dst[], pf_color_code code,
                            const pf_color_opts *opts);
pf_status pfi_cpu_cvt_color_from_yuv(pf_stream *s, int count, const pf_yuv src[], pf_image dst[],
                                     pf_color_code code, const pf_color_opts *opts);
pf_status pfi_cpu_cvt_color_to_yuv(pf_stream *s, int count, const pf_image src[], pf_yuv dst[], pf_color_code code,
                                   const pf_color_opts *opts);

pf_status pfi_cpu_flip(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_flip_code codes[],
                       int ncodes);
pf_status pfi_cpu_rotate(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_rotate_code codes[],
                         int ncodes);
pf_status pfi_cpu_transpose(pf_stream *s, int count, const pf_image src[], pf_image dst[]);
pf_status pfi_cpu_copy_make_border(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                                   const pf_border_params params[], int nparams);
pf_status pfi_cpu_warp_affine(pf_stream *s, int count, const pf_image src[], pf_image dst[], const double matrices[],
                              int nmatrices, const pf_warp_opts *opts);
pf_status pfi_cpu_warp_perspective(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                                   const double matrices[], int nmatrices, const pf_warp_opts *opts);
pf_status pfi_cpu_remap(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_image map_x[],
                        const pf_image map_y[], const pf_warp_opts *opts);

pf_status pfi_cpu_convert(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_convert_opts *opts);
pf_status pfi_cpu_reformat(pf_stream *s, int count, const pf_image src[], pf_image dst[], const int8_t order[4],
                           double fill);
pf_status pfi_cpu_normalize(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                            const pf_normalize_opts *opts);
pf_status pfi_cpu_split(pf_stream *s, int count, const pf_image src[], pf_image dst[]);
pf_status pfi_cpu_merge(pf_stream *s, int count, int channels, const pf_image src[], pf_image dst[]);
pf_status pfi_cpu_lut(pf_stream *s, int count, const pf_image src[], pf_image dst[], const uint8_t *tables,
                      const pf_lut_opts *opts);

pf_status pfi_cpu_adjust_brightness(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                                    const double factors[], int n);
pf_status pfi_cpu_adjust_contrast(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                                  const double factors[], int n);
pf_status pfi_cpu_adjust_saturation(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                                    const double factors[], int n);
pf_status pfi_cpu_adjust_hue(pf_stream *s, int count, const pf_image src[], pf_image dst[], const double hues[],
                             int n);
pf_status pfi_cpu_solarize(pf_stream *s, int count, const pf_image src[], pf_image dst[], const double thresholds[],
                           int n);
pf_status pfi_cpu_adjust_gamma(pf_stream *s, int count, const pf_image src[], pf_image dst[], const double gammas[],
                               const double gains[], int n);
pf_status pfi_cpu_posterize(pf_stream *s, int count, const pf_image src[], pf_image dst[], const int bits[], int n);
pf_status pfi_cpu_rgb_to_grayscale(pf_stream *s, int count, const pf_image src[], pf_image dst[]);
pf_status pfi_cpu_invert(pf_stream *s, int count, const pf_image src[], pf_image dst[]);
pf_status pfi_cpu_autocontrast(pf_stream *s, int count, const pf_image src[], pf_image dst[]);
pf_status pfi_cpu_equalize(pf_stream *s, int count, const pf_image src[], pf_image dst[]);
pf_status pfi_cpu_color_twist(pf_stream *s, int count, const pf_image src[], pf_image dst[], const float matrices[],
                              int n);
pf_status pfi_cpu_gaussian_noise(pf_stream *s, int count, const pf_image src[], pf_image dst[], const double means[],
                                 const double sigmas[], int n, const pf_noise_opts *opts);
pf_status pfi_cpu_erase(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_erase_rect rects[],
                        const int32_t rect_counts[], int ncounts);

pf_status pfi_cpu_filter(pf_stream *s, const char *op, int count, const pf_image src[], pf_image dst[],
                         const struct pfi_filter_plan *plans);

pf_status pfi_cpu_preprocess(pf_preprocess_plan *plan, pf_stream *s, int count, const pf_image src[],
                             const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]);
pf_status pfi_cpu_preprocess_yuv(pf_preprocess_plan *plan, pf_stream *s, int count, const pf_yuv src[],
                                 const pf_color_code codes[], const pf_color_opts opts[],
                                 const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]);

#endif
