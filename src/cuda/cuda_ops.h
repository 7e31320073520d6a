/* Device-op entry points of the CUDA backend (the pfi_kernels table in
 * backend_cuda.c), one per public op, same arguments; each file
 * src/cuda/<op>_cuda.c implements one. */
#ifndef PF_CUDA_CUDA_OPS_H
#define PF_CUDA_CUDA_OPS_H

#include "core/backend.h"

/* Frees a stream's parameter arena (runtime_cuda.c). */
void pfi_cuda_stream_state_free(int device, void *state);

#endif
