/* Argument checks shared by pf_convert, pf_reformat, pf_normalize,
 * pf_split and pf_merge: each returns PF_OK or a pfi_fail() status whose
 * message names the op and the argument. */
#ifndef PF_CPU_CONVERT_CHECK_H
#define PF_CPU_CONVERT_CHECK_H

#include "cpu/convert_exec.h"
#include "pixflow/ops.h"

/* count >= 0, src/dst non-NULL when count > 0. */
pf_status pfi_cvt_check_batch(const char *op, int count, const void *src, const void *dst);
/* pf_image_validate + host memory; `what` is "src" or "dst", i the index. */
pf_status pfi_cvt_check_view(const char *op, const char *what, int i, const pf_image *im);
/* The same; the memory is checked only when host != 0 (device paths pass 0). */
pf_status pfi_cvt_check_view_in(const char *op, const char *what, int i, const pf_image *im, int host);
/* Same width and height. */
pf_status pfi_cvt_check_size(const char *op, const char *sname, int si, const pf_image *s,
                             const char *dname, int di, const pf_image *d);
/* order[c] for c < dcn is in [0, scn) or (allow_fill) PF_CHANNEL_FILL. */
pf_status pfi_cvt_check_order(const char *op, const char *argname, const int8_t *order, int dcn,
                              int scn, int i, int allow_fill);
/* No overlap, except the exact same view read channel c -> c (in place). */
pf_status pfi_cvt_check_overlap(const char *op, int i, const pf_image *s, const pf_image *d,
                                const int8_t *order);
/* Sample with one src and one dst image and a channel order. */
void pfi_cvt_sample_init(pfi_cvt_sample *smp, const pf_image *s, const pf_image *d,
                         const int8_t *order);

/* The samples of pf_convert (copy == 0: convertTo(alpha, beta)) or
 * pf_reformat (copy == 1), for validated arguments; shared by the CPU run
 * and the GPU job builder. *out is malloc'ed (free it). */
pf_status pfi_cvt_make_samples(const char *op, int count, const pf_image src[], const pf_image dst[],
                               const int8_t order[4], double fill, int copy, double alpha, double beta,
                               pfi_cvt_sample **out);
/* The samples of pf_normalize (validated); in PF_NORM_MINMAX mode their
 * transform is a placeholder (convertTo(1, 0)) that the GPU path replaces
 * once it knows each image's range. */
pf_status pfi_norm_make_samples(int count, const pf_image src[], const pf_image dst[],
                                const pf_normalize_opts *o, pfi_cvt_sample **out);

#endif
