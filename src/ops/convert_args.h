/* Shared by pf_convert, pf_reformat, pf_normalize, pf_split and pf_merge:
 * argument checks (each returns PF_OK or a pfi_fail() status whose message
 * names the op and the argument; the batch, view and size checks are
 * ops/op_args.h's) and the samples of the element map, which both backends
 * run. */
#ifndef PF_OPS_CONVERT_ARGS_H
#define PF_OPS_CONVERT_ARGS_H

#include "pixflow/ops.h"
#include "ref/convert_rows.h"

/* One sample of the element map: a list of dst channels with the src
 * (image, channel) each reads and the dst (image, channel) each writes. */
typedef struct pfi_cvt_sample {
    const pf_image *sim[4]; /* src image of dst channel c (NULL: fill) */
    int8_t sch[4];          /* and its channel */
    const pf_image *dim[4]; /* dst image of dst channel c */
    int8_t dch[4];
    int dcn;
    int32_t width, height;
    pfi_cvt_xform xf;
} pfi_cvt_sample;

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
 * pf_reformat (copy == 1), for validated arguments. *out is malloc'ed
 * (free it). */
pf_status pfi_cvt_make_samples(const char *op, int count, const pf_image src[], const pf_image dst[],
                               const int8_t order[4], double fill, int copy, double alpha, double beta,
                               pfi_cvt_sample **out);
/* The samples of pf_normalize (validated); in PF_NORM_MINMAX mode their
 * transform is a placeholder (convertTo(1, 0)) that each backend replaces
 * once it knows each image's range. */
pf_status pfi_norm_make_samples(int count, const pf_image src[], const pf_image dst[],
                                const pf_normalize_opts *o, pfi_cvt_sample **out);

#endif
