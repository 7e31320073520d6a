/* pf_dispatch_count / pf_dispatch_entry: which ISA every optimized kernel
 * uses under the current default dispatch level: every registered kernel
 * family (kfamily.h) in order, resize first, post last. This registry is
 * the one place that names the families' definitions (the CPU backend's,
 * src/cpu/<family>_dispatch.c), as core/backend_registry.c names the
 * backends' tables; everything else reaches a family it does not define
 * through pfi_kfamilies. */
#include "core/error.h"
#include "dispatch/kfamily.h"

/* One line per family, so adding one never touches another line. */
extern pfi_kfamily pfi_resize_family;
extern pfi_kfamily pfi_color_family;
extern pfi_kfamily pfi_yuv_family;
extern pfi_kfamily pfi_convert_family;
extern pfi_kfamily pfi_lut_family;
extern pfi_kfamily pfi_geom_family;
extern pfi_kfamily pfi_warp_family;
extern pfi_kfamily pfi_photo_family;
extern pfi_kfamily pfi_filter_family;
extern pfi_kfamily pfi_preprocess_family;
extern pfi_kfamily pfi_post_family;

pfi_kfamily *const pfi_kfamilies[PFI_FAMILY_COUNT] = {
    [PFI_FAMILY_RESIZE] = &pfi_resize_family,
    [PFI_FAMILY_COLOR] = &pfi_color_family,
    [PFI_FAMILY_YUV] = &pfi_yuv_family,
    [PFI_FAMILY_CONVERT] = &pfi_convert_family,
    [PFI_FAMILY_LUT] = &pfi_lut_family,
    [PFI_FAMILY_GEOM] = &pfi_geom_family,
    [PFI_FAMILY_WARP] = &pfi_warp_family,
    [PFI_FAMILY_PHOTO] = &pfi_photo_family,
    [PFI_FAMILY_FILTER] = &pfi_filter_family,
    [PFI_FAMILY_PREPROCESS] = &pfi_preprocess_family,
    [PFI_FAMILY_POST] = &pfi_post_family,
};

int pf_dispatch_count(void) {
    int n = 0;
    for (int f = 0; f < PFI_FAMILY_COUNT; f++) n += pfi_kfamilies[f]->nslots;
    return n;
}

pf_status pf_dispatch_entry(int i, const char **kernel, pf_isa *isa) {
    int n = pf_dispatch_count();
    if (i < 0 || i >= n)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_entry: index %d is outside 0..%d", i, n - 1);
    pf_isa level = pf_cpu_active_isa();
    for (int f = 0; f < PFI_FAMILY_COUNT; f++) {
        pfi_kfamily *fam = pfi_kfamilies[f];
        if (i < fam->nslots) {
            if (kernel) *kernel = fam->slots[i].name;
            if (isa) *isa = pfi_kfamily_slot_isa(fam, level, i);
            return PF_OK;
        }
        i -= fam->nslots;
    }
    return pfi_fail(PF_ERR_INTERNAL, "pf_dispatch_entry: kernel family table is inconsistent");
}
