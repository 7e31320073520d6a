/* Post kernel family: the reference everywhere (src/ref/post_ref.c); on
 * x86 the AVX2 level takes the 8-lane kernels of post_avx2.c and the
 * avx512 level the 16-lane ones of post_avx512.c. There is no SSE4.1 or
 * VBMI post kernel: those levels keep the one below. */
#include "cpu/post_exec.h"

static const pfi_kslot slots[] = {
    PFI_KSLOT(pfi_post_kernels, nms_tv, "post.nms_tv"),
    PFI_KSLOT(pfi_post_kernels, iou_row[0], "post.iou_row"),
    PFI_KSLOT(pfi_post_kernels, iou_row[1], "post.giou_row"),
    PFI_KSLOT(pfi_post_kernels, iou_row[2], "post.diou_row"),
    PFI_KSLOT(pfi_post_kernels, argmax_row, "post.argmax_row"),
    PFI_KSLOT(pfi_post_kernels, thresh_row, "post.thresh_row"),
    PFI_KSLOT(pfi_post_kernels, composite_row, "post.composite_row"),
    PFI_KSLOT(pfi_post_kernels, proto_row, "post.proto_row"),
    PFI_KSLOT(pfi_post_kernels, best_row, "post.best_row"),
};

static void fill_ref(pfi_post_kernels *k) {
    k->nms_tv = pfi_nms_tv_ref;
    k->iou_row[0] = pfi_iou_row_ref;
    k->iou_row[1] = pfi_giou_row_ref;
    k->iou_row[2] = pfi_diou_row_ref;
    k->argmax_row = pfi_argmax_row_ref;
    k->thresh_row = pfi_thresh_row_ref;
    k->composite_row = pfi_composite_row_ref;
    k->proto_row = pfi_proto_row_ref;
    k->best_row = pfi_best_row_ref;
}

PFI_KFAMILY_DEFINE(pfi_post_family, pfi_post_kernels, slots, fill_ref, NULL, PFI_X86(pfi_post_fill_avx2),
                   PFI_X86(pfi_post_fill_avx512), NULL, NULL);
