/* Argument checks every batch op starts with, so each op's API file keeps
 * only what is specific to it. All set pf_last_error() with the op's name
 * and the argument at fault. */
#ifndef PF_CPU_OP_CHECK_H
#define PF_CPU_OP_CHECK_H

#include "pixflow/core.h"

/* count >= 0; src and dst non-NULL when count > 0. */
pf_status pfi_check_batch(const char *op, int count, const void *src, const void *dst);

/* A per-sample parameter array `name` (e.g. "codes"): non-NULL, and its
 * length n is 1 (shared) or count (one per sample). */
pf_status pfi_check_params(const char *op, const char *name, const void *params, int n, int count);

/* src[i] and dst[i] are valid views (pf_image_validate) in host memory. */
pf_status pfi_check_host_pair(const char *op, int i, const pf_image *s, const pf_image *d);

#endif
