/* What a CUDA device op needs from the runtime (src/cuda/runtime_cuda.c):
 * the cudaStream_t, a reused parameter arena per stream, and error
 * mapping. Only compiled into CUDA builds.
 *
 * Pattern of a device op (see src/cuda/resize_cuda.c):
 *   pfi_arena a;
 *   PF_TRY(pfi_cuda_arena_begin(s, "pf_resize", bytes, scratch, &a));
 *   ... build jobs into a (pfi_arena_take) ...
 *   PF_TRY(pfi_cuda_arena_submit(s, "pf_resize", &a));   // one H2D copy
 *   return pfi_cuda_launched(s, "pf_resize", pfi_cu_launch_resize(pfi_cuda_stream(s), jobs, grid));
 */
#ifndef PF_CUDA_CUDA_STREAM_H
#define PF_CUDA_CUDA_STREAM_H

#include "core/backend.h"
#include "gpu/gpu_arena.h"

/* The stream's cudaStream_t as void * (for the .cu launchers). */
void *pfi_cuda_stream(pf_stream *s);
/* Hands out the stream's staging + device arena with at least the given
 * sizes (grown by doubling, never shrunk; reused across calls once the
 * previous upload from it has completed: an event gates reuse, so the
 * host never overwrites staging that a queued copy still reads). */
pf_status pfi_cuda_arena_begin(pf_stream *s, const char *op, size_t bytes, size_t scratch_bytes,
                               pfi_arena *a);
/* Queues the upload of a->used staging bytes and records the gate event. */
pf_status pfi_cuda_arena_submit(pf_stream *s, const char *op, const pfi_arena *a);
/* Maps a launch result (cudaError_t as int) to a status naming op and the
 * CUDA error, notes op as the stream's last op, and on the implicit
 * (NULL) stream waits for completion so errors surface here. */
pf_status pfi_cuda_launched(pf_stream *s, const char *op, int cuda_error);
/* "cudaErrorInvalidValue (invalid argument)" for an error code. */
const char *pfi_cuda_error_text(int cuda_error);

#endif
