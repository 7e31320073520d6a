/* The post family's table: one typed slot per row kernel (their contract
 * and the reference are in src/ref/post_rows.h). It is a kernel family of
 * the one dispatch engine (src/dispatch/kfamily.h) like resize and colour:
 * the CPU backend defines it with its ISA fills (src/cpu/post_dispatch.c,
 * src/cpu/x86/post_*.c), and this room's host executors read the table of
 * their stream's level through the engine's registry, so they name
 * nothing of the CPU backend. */
#ifndef PF_POST_KERNELS_H
#define PF_POST_KERNELS_H

#include "dispatch/kfamily.h"
#include "ref/post_rows.h"

/* One level's table. */
typedef struct pfi_post_kernels {
    pfi_nms_tv_fn nms_tv;           /* torchvision IoU of one candidate vs kept boxes */
    pfi_iou_row_fn iou_row[3];      /* box_iou / GIoU / DIoU of one box vs a row of boxes */
    pfi_argmax_row_fn argmax_row;   /* argmax over channel planes */
    pfi_thresh_row_fn thresh_row;   /* logit > threshold ? value : 0 */
    pfi_composite_row_fn composite_row;
    pfi_proto_row_fn proto_row;     /* sum_m coeff[m] * proto[m][x] */
    pfi_best_row_fn best_row;       /* largest channel value, NaN-propagating */
} pfi_post_kernels;

/* The table of the stream's ISA level (NULL: the current cap; levels
 * above the CPU hold the CPU's best). */
static inline const pfi_post_kernels *pfi_post_kernels_for(const pf_stream *stream) {
    return (const pfi_post_kernels *)pfi_kfamily_table(pfi_kfamilies[PFI_FAMILY_POST], pf_stream_isa(stream));
}

#endif
