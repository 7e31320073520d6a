/* The argument checks every batch op shares (count, arrays, views, shapes),
 * so each op's front-end keeps only what is specific to it. All set
 * pf_last_error() with the op's name and the argument at fault; `host`
 * arguments add "in host memory", the requirement of ops that only the
 * CPU backend implements (routed ops get that from pfi_route). */
#ifndef PF_OPS_OP_ARGS_H
#define PF_OPS_OP_ARGS_H

#include "pixflow/core.h"

/* count >= 0. */
pf_status pfi_check_count(const char *op, int count);

/* count >= 0; src and dst non-NULL when count > 0. */
pf_status pfi_check_batch(const char *op, int count, const void *src, const void *dst);

/* A per-sample parameter array `name` (e.g. "codes"): non-NULL, and its
 * length n is 1 (shared) or count (one per sample). */
pf_status pfi_check_params(const char *op, const char *name, const void *params, int n, int count);

/* Sample i's entry of an array of n = 1 or count entries. */
static inline int pfi_pick(int n, int i) { return n == 1 ? 0 : i; }

/* what[i] ("src", "dst") is a valid view (pf_image_validate); host: in
 * host memory. The argument's name is formatted only when the view is
 * bad (validated again with it): snprintf on every call costs more than a
 * small image's per-row work. */
pf_status pfi_check_view(const char *op, const char *what, int i, const pf_image *im, int host);

/* src[i] and dst[i], in that order, as pfi_check_view. */
pf_status pfi_check_pair(const char *op, int i, const pf_image *s, const pf_image *d, int host);

/* dst keeps src's dtype, channels and (multi-channel) layout. */
pf_status pfi_check_format(const char *op, int i, const pf_image *s, const pf_image *d);

/* sname[si] and dname[di] have the same width and height. */
pf_status pfi_check_size(const char *op, const char *sname, int si, const pf_image *s, const char *dname, int di,
                         const pf_image *d);

/* src[i] and dst[i] do not overlap in memory (no in-place). */
pf_status pfi_check_no_overlap(const char *op, int i, const pf_image *s, const pf_image *d);

#endif
