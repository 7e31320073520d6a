/* Device-op entry points of the CUDA backend (the pfi_kernels table in
 * backend_cuda.c), one per public op, same arguments; each file
 * src/cuda/<op>_cuda.c implements one. */
#ifndef PF_CUDA_CUDA_OPS_H
#define PF_CUDA_CUDA_OPS_H

#include "core/backend.h"

/* Frees a stream's parameter arena (runtime_cuda.c). */
void pfi_cuda_stream_state_free(int device, void *state);

pf_status pfi_cuda_warp_affine(pf_stream *s, int count, const pf_image src[], pf_image dst[], const double matrices[],
                               int nmatrices, const pf_warp_opts *opts);
pf_status pfi_cuda_warp_perspective(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                                    const double matrices[], int nmatrices, const pf_warp_opts *opts);

#endif
