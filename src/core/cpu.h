/* Internal CPU/ISA helpers. */
#ifndef PF_CORE_CPU_H
#define PF_CORE_CPU_H

#include "pixflow/core.h"

/* Best ISA available in `features` that does not exceed `cap`. */
pf_isa pfi_isa_best(unsigned features, pf_isa cap);
/* Parses "scalar|sse4|avx2|avx512|avx512vbmi|neon"; returns 1 on success. */
int pfi_isa_parse(const char *s, pf_isa *out);
/* Marks the default (NULL-stream) dispatch tables stale after a cap change. */
void pfi_dispatch_invalidate(void);
/* Generation counter bumped by pfi_dispatch_invalidate. */
unsigned pfi_dispatch_generation(void);

#endif
