/* pf_dispatch_count / pf_dispatch_entry: which ISA every optimized kernel
 * uses under the current default dispatch level: the resize table first,
 * then every registered kernel family (kfamily.h) in order. */
#include "core/error.h"
#include "cpu/kfamily.h"
#include "cpu/resize_exec.h"

/* One line per family, so adding one never touches another line. */
extern pfi_kfamily pfi_color_family;
extern pfi_kfamily pfi_yuv_family;
extern pfi_kfamily pfi_convert_family;
extern pfi_kfamily pfi_lut_family;
extern pfi_kfamily pfi_geom_family;
extern pfi_kfamily pfi_warp_family;
extern pfi_kfamily pfi_photo_family;
extern pfi_kfamily pfi_filter_family;
extern pfi_kfamily pfi_preprocess_family;

pfi_kfamily *const pfi_kfamilies[] = {
    &pfi_color_family,
    &pfi_yuv_family,
    &pfi_convert_family,
    &pfi_lut_family,
    &pfi_geom_family,
    &pfi_warp_family,
    &pfi_photo_family,
    &pfi_filter_family,
    &pfi_preprocess_family,
    NULL};

int pf_dispatch_count(void) {
    int n = PFI_RESIZE_SLOTS;
    for (int f = 0; pfi_kfamilies[f]; f++) n += pfi_kfamilies[f]->nslots;
    return n;
}

pf_status pf_dispatch_entry(int i, const char **kernel, pf_isa *isa) {
    int n = pf_dispatch_count();
    if (i < 0 || i >= n)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_entry: index %d is outside 0..%d", i, n - 1);
    pf_isa level = pf_cpu_active_isa();
    if (i < PFI_RESIZE_SLOTS) {
        const pfi_resize_kernels *k = pfi_resize_kernels_for(level);
        if (kernel) *kernel = pfi_resize_slot_names[i];
        if (isa) *isa = k->slot_isa[i];
        return PF_OK;
    }
    i -= PFI_RESIZE_SLOTS;
    for (int f = 0; pfi_kfamilies[f]; f++) {
        pfi_kfamily *fam = pfi_kfamilies[f];
        if (i < fam->nslots) {
            const pfi_ktable *t = pfi_kfamily_table(fam, level);
            if (kernel) *kernel = fam->names[i];
            if (isa) *isa = t->isa[i];
            return PF_OK;
        }
        i -= fam->nslots;
    }
    return pfi_fail(PF_ERR_INTERNAL, "pf_dispatch_entry: kernel family table is inconsistent");
}
