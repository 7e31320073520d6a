/* Internal view of a device handle: one per (kind, index), reference
 * counted, holding its backend and the properties probed at first open. */
#ifndef PF_CORE_DEVICE_H
#define PF_CORE_DEVICE_H

#include "core/backend.h"

struct pf_device {
    pf_device_kind kind;
    int index;
    int refs;                 /* guarded by the registry lock */
    const pfi_backend *be;
    pf_device_props props;
};

/* Takes one more reference (for streams, events and pools that keep the
 * device open). */
pf_device *pfi_device_ref(pf_device *d);
/* The CPU device (always open, never freed). */
pf_device *pfi_device_cpu(void);
/* True once a device of kind was opened (copies then ask its backend who
 * owns a pointer). */
bool pfi_kind_in_use(pf_device_kind kind);
bool pfi_cuda_in_use(void); /* pfi_kind_in_use(PF_DEVICE_CUDA) */

#endif
