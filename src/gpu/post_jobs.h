/* Job building of the post-processing GPU paths (src/kernels/gpu_post.h,
 * src/kernels/gpu_nms.h): plain C, run by the CUDA device ops and, with an
 * emulated arena, by the CPU tests. Arguments were validated by the
 * public functions. */
#ifndef PF_GPU_POST_JOBS_H
#define PF_GPU_POST_JOBS_H

#include "gpu/gpu_arena.h"
#include "kernels/gpu_nms.h"
#include "kernels/gpu_post.h"
#include "pixflow/post.h"

/* pf_masks_from_logits */
size_t pfi_gpu_logits_bytes(size_t *scratch_bytes);
pf_status pfi_gpu_logits_build(pfi_arena *a, const float *logits, int32_t n, int32_t channels, int32_t height,
                               int32_t width, uint8_t *masks, const pf_mask_opts *opts,
                               const pfk_logits_batch **dev_batch, pfi_grid *grid);

/* pf_composite */
size_t pfi_gpu_composite_bytes(int count, size_t *scratch_bytes);
pf_status pfi_gpu_composite_build(pfi_arena *a, int count, const pf_image fg[], const pf_image bg[],
                                  const pf_image mask[], const pf_image dst[], const pfk_composite_batch **dev_batch,
                                  pfi_grid *grid);

/* pf_nms: what a GPU run needs besides the batch */
typedef struct pfi_gpu_nms_plan {
    int32_t count;
    int32_t max_n;      /* the filter / gather grids: max_n x count */
    int32_t max_bound;  /* the output / compact grids: max_bound x count */
    int64_t total;      /* sum of n (the sort's items) */
} pfi_gpu_nms_plan;

/* Most boxes one sample of n candidates can keep (pf_nms_capacity's rule). */
int32_t pfi_gpu_nms_bound(const pf_nms_opts *o, int32_t n);
/* Whether the GPU path does these options (soft-NMS and the automatic
 * class offset stay on the CPU); names the option when not. opts were
 * validated by pf_nms. */
pf_status pfi_gpu_nms_supported(const char *op, const pf_nms_opts *o);
/* sort_bytes: the device sort's temporary storage (0 in the emulation) */
size_t pfi_gpu_nms_bytes(int count, const pf_nms_sample samples[], const pf_nms_opts *o, size_t sort_bytes,
                         size_t *scratch_bytes);
pf_status pfi_gpu_nms_build(pfi_arena *a, int count, const pf_nms_sample samples[], const pf_nms_opts *o,
                            int64_t offsets[], int32_t keep[], float scores_out[], size_t sort_bytes,
                            const pfk_nms_batch **dev_batch, pfk_nms_batch **host_batch, void **sort_temp,
                            pfi_gpu_nms_plan *plan);

#endif
