/* The post kernel family: the reference everywhere, AVX2 and AVX-512
 * kernels where the CPU has them (filled by their ISA translation units,
 * called only after CPUID; see src/cpu/kfamily.c). */
#include "pixflow/core.h"
#include "post/post_kernels.h"

static const char *const k_names[PFI_POST_SLOTS] = {
    "post.nms_tv", "post.iou_row", "post.giou_row", "post.diou_row",
    "post.argmax_row", "post.thresh_row", "post.composite_row", "post.proto_row", "post.best_row"};

static void fill_ref(pfi_kfn *s) {
    s[PFI_POST_NMS_TV] = (pfi_kfn)pfi_nms_tv_ref;
    s[PFI_POST_IOU_ROW] = (pfi_kfn)pfi_iou_row_ref;
    s[PFI_POST_GIOU_ROW] = (pfi_kfn)pfi_giou_row_ref;
    s[PFI_POST_DIOU_ROW] = (pfi_kfn)pfi_diou_row_ref;
    s[PFI_POST_ARGMAX_ROW] = (pfi_kfn)pfi_argmax_row_ref;
    s[PFI_POST_THRESH_ROW] = (pfi_kfn)pfi_thresh_row_ref;
    s[PFI_POST_COMPOSITE_ROW] = (pfi_kfn)pfi_composite_row_ref;
    s[PFI_POST_PROTO_ROW] = (pfi_kfn)pfi_proto_row_ref;
    s[PFI_POST_BEST_ROW] = (pfi_kfn)pfi_best_row_ref;
}

pfi_kfamily pfi_post_family = PFI_KFAMILY_INIT(k_names, PFI_POST_SLOTS, fill_ref, NULL,
                                               PFI_X86(pfi_post_fill_avx2), PFI_X86(pfi_post_fill_avx512),
                                               NULL, NULL);

const pfi_ktable *pfi_post_kernels(const void *stream) {
    return pfi_kfamily_table(&pfi_post_family, pf_stream_isa((const pf_stream *)stream));
}
