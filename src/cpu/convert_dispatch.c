/* Kernel family "convert" (placeholder until its kernels land: no slots). */
#include "cpu/kfamily.h"

static void fill_ref(pfi_kfn *slots) { (void)slots; }
static const char *const k_names[1] = {""};
pfi_kfamily pfi_convert_family = PFI_KFAMILY_INIT(k_names, 0, fill_ref, NULL, NULL, NULL, NULL);
