/* CUDA device ops: the entries of the CUDA backend's kernel table
 * (src/cuda/backend_cuda.c), one line per op, same arguments as the
 * public op; called only with validated device views. */
#ifndef PF_CUDA_CUDA_OPS_H
#define PF_CUDA_CUDA_OPS_H

#include "pixflow/ops.h"
#include "pixflow/runtime.h"

pf_status pfi_cuda_warp_affine(pf_stream *s, int count, const pf_image src[], pf_image dst[], const double matrices[],
                               int nmatrices, const pf_warp_opts *opts);
pf_status pfi_cuda_warp_perspective(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                                    const double matrices[], int nmatrices, const pf_warp_opts *opts);

#endif
