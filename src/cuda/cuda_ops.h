/* Device entry points of the CUDA backend's kernels table
 * (src/cuda/backend_cuda.c): same arguments as the public ops, called by
 * them after validation with device views and a CUDA stream. */
#ifndef PF_CUDA_CUDA_OPS_H
#define PF_CUDA_CUDA_OPS_H

#include "pixflow/ops.h"

pf_status pfi_cuda_resize(pf_stream *s, int count, const pf_image src[], pf_image dst[],
                          const pf_resize_opts *opts);

#endif
