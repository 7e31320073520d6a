/* GPU resize job building (plain C, compiled in every build): turns
 * validated resize arguments into pfk_resize_job entries whose tables
 * (the CPU plan's own tap indices and weights) live in a launch arena.
 * The kernel body is src/kernels/gpu_resize.h. */
#ifndef PF_GPU_RESIZE_JOBS_H
#define PF_GPU_RESIZE_JOBS_H

#include <stddef.h>

#include "gpu/gpu_arena.h"
#include "kernels/gpu_resize.h"
#include "pixflow/ops.h"
#include "plan/resize_plan.h"

/* Upper bound of the arena bytes pfi_gpu_resize_job_fill takes for one
 * sample (src sizes, dtype, channels and layout matter; data does not). */
size_t pfi_gpu_resize_job_bytes(const pf_image *src, int32_t dst_w, int32_t dst_h, const pf_resize_opts *opts);
/* The same for a resize-then-crop job: the window dst_w x dst_h of a
 * resize to rw x rh (the taps per output are the full resize's). */
size_t pfi_gpu_resize_job_bytes_win(const pf_image *src, int32_t dst_w, int32_t dst_h, int32_t rw, int32_t rh,
                                    const pf_resize_opts *opts);

/* Fills ONE job for resizing `src` (a device-address view, e.g. a crop
 * ROI; already validated: dtype u8/u16/f32, 1..4 channels) to
 * dst_w x dst_h: plan tables go into the arena, job->src/strides are the
 * view's. The destination is left empty (dst NULL, strides 0,
 * dst_aligned 0): set it with pfi_gpu_resize_job_set_dst, or use the job
 * only through pfk_resize_u8_value. opts NULL = defaults (LINEAR, no
 * antialias). win: NULL, or resize-then-crop (the plan of a resize to
 * win->rw x win->rh narrowed to its dst_w x dst_h window at (win->wx,
 * win->wy): the kernel sees an ordinary job). PF_ERR_OUT_OF_MEMORY for the
 * host plan, PF_ERR_INTERNAL when the arena is smaller than
 * pfi_gpu_resize_job_bytes said. */
pf_status pfi_gpu_resize_job_fill(pfi_arena *a, const pf_image *src, int32_t dst_w, int32_t dst_h,
                                  const pf_resize_opts *opts, const pfi_rz_window *win, pfk_resize_job *job);
/* Points the job's output at dst (same channels/layout as the source;
 * dst->width/height must equal the job's dw/dh). */
void pfi_gpu_resize_job_set_dst(pfk_resize_job *job, const pf_image *dst);

/* The whole op: arena bytes for count samples (scratch: none). */
size_t pfi_gpu_resize_bytes(int count, const pf_image src[], const pf_image dst[], const pf_resize_opts *opts,
                            size_t *scratch_bytes);
/* Builds the jobs and the batch header into the arena; *dev_batch is the
 * device address of the pfk_resize_batch, *grid covers the largest output
 * (one layer per sample). Arguments as pf_resize validated them. */
pf_status pfi_gpu_resize_build(pfi_arena *a, int count, const pf_image src[], const pf_image dst[],
                               const pf_resize_opts *opts, const pfk_resize_batch **dev_batch, pfi_grid *grid);

/* Queues the resize kernel for a built batch on a cudaStream_t; returns
 * the launch's cudaError_t as int (0 = success). Defined in
 * resize_kernels.cu (CUDA builds only). */
int pfi_cu_launch_resize(void *stream, const void *dev_batch, pfi_grid g);

#endif
