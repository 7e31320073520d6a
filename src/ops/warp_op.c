/* pf_warp_affine, pf_warp_perspective, pf_remap: defaults, argument
 * checks, routing to the backend (CPU: src/cpu/warp_cpu.c, CUDA:
 * src/cuda/warp_cuda.c; remap is CPU only). The matrices are decoded by
 * each backend with ops/warp_matrix.h. */
#include <stdio.h>
#include <string.h>

#include "core/backend.h"
#include "core/error.h"
#include "core/image_util.h"
#include "ops/op_args.h"
#include "ops/warp_matrix.h"
#include "pixflow/ops.h"

pf_warp_opts pf_warp_opts_defaults(void) {
    pf_warp_opts o;
    memset(&o, 0, sizeof o);
    o.interp = PF_INTERP_LINEAR;
    o.border = PF_BORDER_CONSTANT;
    return o;
}

/* ---------------------------------------------------------------- checks */

static pf_status check_opts(const char *op, const pf_warp_opts *o, int remap) {
    if (o->interp != PF_INTERP_NEAREST && o->interp != PF_INTERP_LINEAR && o->interp != PF_INTERP_CUBIC)
        return pfi_fail(o->interp == PF_INTERP_AREA || o->interp == PF_INTERP_LANCZOS4 ||
                                o->interp == PF_INTERP_NEAREST_EXACT
                            ? PF_ERR_UNSUPPORTED
                            : PF_ERR_INVALID_ARGUMENT,
                        "%s: opts.interp is %d; use NEAREST(0), LINEAR(1) or CUBIC(2)", op, (int)o->interp);
    if ((unsigned)o->border > 5u)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: opts.border is %d; use CONSTANT(0), REPLICATE(1), REFLECT(2), WRAP(3), REFLECT_101(4) "
                        "or TRANSPARENT(5)",
                        op, (int)o->border);
    if (remap ? o->flags != 0 : (o->flags & ~PF_WARP_INVERSE_MAP) != 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.flags is %d; %s", op, o->flags,
                        remap ? "pf_remap takes no flags (0)" : "only PF_WARP_INVERSE_MAP (16) is defined");
    return PF_OK;
}

/* Where src and dst live is pfi_route's. */
static pf_status check_image_pair(const char *op, int i, const pf_image *s, const pf_image *d) {
    pf_status st = pfi_check_pair(op, i, s, d, 0);
    if (st != PF_OK) return st;
    if (s->dtype != PF_U8 && s->dtype != PF_U16 && s->dtype != PF_F32)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: src[%d].dtype is %s; warps support u8, u16 and f32", op, i,
                        pf_dtype_name(s->dtype));
    if (s->dtype != d->dtype || s->channels != d->channels)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src[%d] is %s x%d but dst[%d] is %s x%d; dtype and channels are kept",
                        op, i, pf_dtype_name(s->dtype), (int)s->channels, i, pf_dtype_name(d->dtype),
                        (int)d->channels);
    if (s->channels > 4)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: src[%d] has %d channels; at most 4", op, i, (int)s->channels);
    if (s->channels > 1 && s->layout != d->layout)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src[%d] and dst[%d] differ in layout; convert with pf_reformat",
                        op, i, i);
    if ((st = pfi_warp_check_sides(op, i, s, d)) != PF_OK) return st;
    return pfi_check_no_overlap(op, i, s, d);
}

static pf_status check_map(const char *op, const char *which, int i, const pf_image *m, const pf_image *d) {
    char name[64];
    snprintf(name, sizeof name, "%s: %s[%d]", op, which, i);
    pf_status st = pf_image_validate(m, name);
    if (st != PF_OK) return st;
    if (m->mem != PF_MEM_HOST)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: %s[%d] is device memory; the CPU path needs host views", op, which, i);
    if (m->dtype != PF_F32 || m->channels != 1)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d] is %s x%d; maps are 1-channel f32", op, which, i,
                        pf_dtype_name(m->dtype), (int)m->channels);
    if (m->width != d->width || m->height != d->height)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d] is %dx%d but dst[%d] is %dx%d; maps have dst's size", op,
                        which, i, (int)m->width, (int)m->height, i, (int)d->width, (int)d->height);
    if (pfi_images_overlap(m, d))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d] and dst[%d] overlap", op, which, i, i);
    return PF_OK;
}

/* Every check of the call but where src and dst live; *o receives the
 * options. */
static pf_status check_call(pfi_warp_kind kind, const char *op, int count, const pf_image *src, const pf_image *dst,
                            const double *mats, int nmats, const pf_image *mx, const pf_image *my,
                            const pf_warp_opts *opts, pf_warp_opts *o) {
    *o = opts ? *opts : pf_warp_opts_defaults();
    pf_status st = check_opts(op, o, kind == PFI_WARP_REMAP);
    if (st != PF_OK) return st;
    if (kind == PFI_WARP_REMAP) {
        if (mx == NULL || my == NULL)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, mx == NULL ? "map_x" : "map_y");
    } else {
        if (mats == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: matrices is NULL", op);
        if (nmats != 1 && nmats != count)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: nmatrices is %d; it must be 1 or count (%d)", op, nmats,
                            count);
    }
    for (int i = 0; i < count; i++) {
        if ((st = check_image_pair(op, i, &src[i], &dst[i])) != PF_OK) return st;
        if (kind == PFI_WARP_REMAP && ((st = check_map(op, "map_x", i, &mx[i], &dst[i])) != PF_OK ||
                                       (st = check_map(op, "map_y", i, &my[i], &dst[i])) != PF_OK))
            return st;
    }
    /* every matrix must be finite and invertible (the backends decode them
     * again with the same function) */
    for (int i = 0; i < count && kind != PFI_WARP_REMAP; i++) {
        int mi = nmats == 1 ? 0 : i;
        double m[9];
        const double *in = mats + (size_t)mi * (kind == PFI_WARP_AFFINE ? 6 : 9);
        st = pfi_warp_dst_to_src(op, kind == PFI_WARP_PERSPECTIVE, in, mi, o->flags, m);
        if (st != PF_OK) return st;
    }
    return PF_OK;
}

static pf_status run(pf_stream *stream, pfi_warp_kind kind, const char *op, int count, const pf_image *src,
                     pf_image *dst, const double *mats, int nmats, const pf_image *mx, const pf_image *my,
                     const pf_warp_opts *opts) {
    pfi_clear_error();
    pf_status st = pfi_check_batch(op, count, src, dst);
    if (st != PF_OK || count == 0) return st;
    const pfi_backend *be;
    pf_stream *ds;
    if ((st = pfi_route_images(op, stream, count, src, dst, &be, &ds)) != PF_OK) return st;
    /* no device remap: say so before the map checks */
    if (kind == PFI_WARP_REMAP && be != NULL && be->kernels->remap == NULL) return pfi_unsupported_on(op, be);
    pf_warp_opts o;
    if ((st = check_call(kind, op, count, src, dst, mats, nmats, mx, my, opts, &o)) != PF_OK) return st;
    if (kind == PFI_WARP_REMAP) return PFI_KERNEL(be, op, remap, ds, count, src, dst, mx, my, &o);
    if (kind == PFI_WARP_AFFINE) return PFI_KERNEL(be, op, warp_affine, ds, count, src, dst, mats, nmats, &o);
    return PFI_KERNEL(be, op, warp_perspective, ds, count, src, dst, mats, nmats, &o);
}

pf_status pf_warp_affine(pf_stream *stream, int count, const pf_image src[], pf_image dst[], const double matrices[],
                         int nmatrices, const pf_warp_opts *opts) {
    return run(stream, PFI_WARP_AFFINE, "pf_warp_affine", count, src, dst, matrices, nmatrices, NULL, NULL, opts);
}

pf_status pf_warp_perspective(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                              const double matrices[], int nmatrices, const pf_warp_opts *opts) {
    return run(stream, PFI_WARP_PERSPECTIVE, "pf_warp_perspective", count, src, dst, matrices, nmatrices, NULL, NULL,
               opts);
}

pf_status pf_remap(pf_stream *stream, int count, const pf_image src[], pf_image dst[], const pf_image map_x[],
                   const pf_image map_y[], const pf_warp_opts *opts) {
    return run(stream, PFI_WARP_REMAP, "pf_remap", count, src, dst, NULL, 0, map_x, map_y, opts);
}
