/* Device-op entry points of the CUDA backend (the pfi_kernels table in
 * backend_cuda.c), one per public op, same arguments; each file
 * src/cuda/<op>_cuda.c implements one. */
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

#endif
