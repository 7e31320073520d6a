/* Device-op entry points of the CUDA backend (the pfi_kernels table in
 * backend_cuda.c), one per public op, same arguments; each file
 * src/cuda/<op>_cuda.c implements one (the pointwise ops share
 * pointwise_cuda.c). Called by the public ops after validation, with
 * device views and a CUDA stream. */
#ifndef PF_CUDA_CUDA_OPS_H
#define PF_CUDA_CUDA_OPS_H

#include "core/backend.h"

pf_status pfi_cuda_preprocess(pf_preprocess_plan *plan, pf_stream *s, int count, const pf_image src[],
                              const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]);
pf_status pfi_cuda_preprocess_yuv(pf_preprocess_plan *plan, pf_stream *s, int count, const pf_yuv src[],
                                  const pf_color_code codes[], const pf_color_opts opts[],
                                  const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]);

/* Frees a stream's parameter arena (runtime_cuda.c). */
void pfi_cuda_stream_state_free(int device, void *state);

pf_status pfi_cuda_resize(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                          const pf_resize_opts *opts);
pf_status pfi_cuda_warp_affine(pf_stream *s, int count, const pf_image src[], pf_image dst[], const double matrices[],
                               int nmatrices, const pf_warp_opts *opts);
pf_status pfi_cuda_warp_perspective(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                                    const double matrices[], int nmatrices, const pf_warp_opts *opts);
pf_status pfi_cuda_cvt_color_from_yuv(pf_stream *s, int count, const pf_yuv src[], pf_image dst[],
                                      pf_color_code code, const pf_color_opts *opts);
pf_status pfi_cuda_cvt_color(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                             pf_color_code code, const pf_color_opts *opts);
pf_status pfi_cuda_flip(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                        const pf_flip_code codes[], int ncodes);
pf_status pfi_cuda_convert(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                           const pf_convert_opts *opts);
pf_status pfi_cuda_reformat(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                            const int8_t order[4], double fill);
pf_status pfi_cuda_normalize(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                             const pf_normalize_opts *opts);
/* post-processing (post_cuda.c) */
pf_status pfi_cuda_nms(pf_stream *s, int count, const pf_nms_sample samples[], const pf_nms_opts *opts,
                       int64_t offsets[], int32_t keep[], float updated_scores[]);
pf_status pfi_cuda_masks_from_logits(pf_stream *s, const float *logits, int32_t n, int32_t channels, int32_t height,
                                     int32_t width, uint8_t *masks, const pf_mask_opts *opts);
pf_status pfi_cuda_composite(pf_stream *s, int count, const pf_image fg[], const pf_image bg[], const pf_image mask[],
                             pf_image dst[]);

#endif
