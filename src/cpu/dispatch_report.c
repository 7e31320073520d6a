/* pf_dispatch_count / pf_dispatch_entry: which ISA every optimized kernel
 * uses under the current default dispatch level. */
#include "core/error.h"
#include "cpu/resize_exec.h"

int pf_dispatch_count(void) { return PFI_RESIZE_SLOTS; }

pf_status pf_dispatch_entry(int i, const char **kernel, pf_isa *isa) {
    if (i < 0 || i >= PFI_RESIZE_SLOTS)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_entry: index %d is outside 0..%d", i,
                        PFI_RESIZE_SLOTS - 1);
    const pfi_resize_kernels *k = pfi_resize_kernels_for(pf_cpu_active_isa());
    if (kernel) *kernel = pfi_resize_slot_names[i];
    if (isa) *isa = k->slot_isa[i];
    return PF_OK;
}
