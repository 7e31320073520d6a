/* Public filter ops: defaults, argument validation (the whole batch,
 * before any output is written) and translation of each sample's
 * parameters into a pfi_filter_plan (filter_plan.h), which the backend
 * runs (CPU: src/cpu/filter_run.c). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/error.h"
#include "kernels/filter_math.h"
#include "ops/filter_plan.h"
#include "ops/op_args.h"

#define MAXK PFK_FILTER_MAX_KSIZE

void pf_gaussian_params_defaults(pf_gaussian_params *p) {
    if (p == NULL) return;
    memset(p, 0, sizeof *p);
    p->ksize_x = p->ksize_y = 3;
    p->border = PF_BORDER_REFLECT_101;
}

void pf_box_params_defaults(pf_box_params *p) {
    if (p == NULL) return;
    memset(p, 0, sizeof *p);
    p->ksize_x = p->ksize_y = 3;
    p->anchor_x = p->anchor_y = -1;
    p->border = PF_BORDER_REFLECT_101;
}

void pf_filter2d_params_defaults(pf_filter2d_params *p) {
    if (p == NULL) return;
    memset(p, 0, sizeof *p);
    p->anchor_x = p->anchor_y = -1;
    p->border = PF_BORDER_REFLECT_101;
}

void pf_morph_params_defaults(pf_morph_params *p) {
    if (p == NULL) return;
    memset(p, 0, sizeof *p);
    p->ksize_x = p->ksize_y = 3;
    p->anchor_x = p->anchor_y = -1;
    p->iterations = 1;
    p->border = PF_BORDER_CONSTANT;
}

static pf_status check_batch(const char *op, int count, const void *src, const void *dst, const void *params,
                             int nparams, const char *pname) {
    pf_status st = pfi_check_batch(op, count, src, dst);
    if (st != PF_OK || count <= 0) return st;
    return pfi_check_params(op, pname, params, nparams, count);
}

/* u16: Gaussian, box, median, erode / dilate (allow_u16); filter_2d and
 * sharpen take u8 or f32. */
static pf_status check_pair(const char *op, int i, const pf_image *s, const pf_image *d, int allow_u16) {
    pf_status st = pfi_check_pair(op, i, s, d, 1);
    if (st != PF_OK) return st;
    if (s->dtype != PF_U8 && s->dtype != PF_F32 && !(allow_u16 && s->dtype == PF_U16))
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: src[%d].dtype is %s; %s takes %s", op, i,
                        pf_dtype_name(s->dtype), op, allow_u16 ? "u8, u16 or f32" : "u8 or f32");
    if ((st = pfi_check_format(op, i, s, d)) != PF_OK) return st;
    if (d->width != s->width || d->height != s->height)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst[%d] is %dx%d; it must be src[%d]'s %dx%d", op, i,
                        (int)d->width, (int)d->height, i, (int)s->width, (int)s->height);
    return pfi_check_no_overlap(op, i, s, d);
}

static pf_status check_border(const char *op, const char *pname, int k, pf_border b) {
    if (b == PF_BORDER_WRAP)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "%s: %s[%d].border is PF_BORDER_WRAP; filters support CONSTANT, REPLICATE, REFLECT and "
                        "REFLECT_101 (OpenCV's filters reject WRAP too)",
                        op, pname, k);
    if (b != PF_BORDER_CONSTANT && b != PF_BORDER_REPLICATE && b != PF_BORDER_REFLECT && b != PF_BORDER_REFLECT_101)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d].border is %d; not a pf_border", op, pname, k, (int)b);
    return PF_OK;
}

static pf_status check_ksize(const char *op, const char *pname, int k, const char *field, int32_t v, int odd) {
    if (v < 1 || v > MAXK || (odd && v % 2 == 0))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d].%s is %d; it must be %sin [1, %d]", op, pname, k, field,
                        (int)v, odd ? "odd and " : "", MAXK);
    return PF_OK;
}

/* anchor -1 -> centre; otherwise it must lie inside the window. */
static pf_status resolve_anchor(const char *op, const char *pname, int k, const char *field, int32_t a,
                                int32_t ksize, int32_t *out) {
    if (a == -1) {
        *out = ksize / 2;
        return PF_OK;
    }
    if (a < 0 || a >= ksize)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d].%s is %d; it must be -1 (centre) or in [0, %d)", op,
                        pname, k, field, (int)a, (int)ksize);
    *out = a;
    return PF_OK;
}

/* Runs the batch's plans (when every sample's was made) and frees them.
 * No device version: the views were checked to be host memory. */
static pf_status run_plans(pf_stream *stream, const char *op, int count, const pf_image *src, pf_image *dst,
                           pfi_filter_plan *plans, pf_status st) {
    if (st == PF_OK) st = PFI_KERNEL(pfi_host_backend(), op, filter, stream, op, count, src, dst, plans);
    for (int i = 0; i < count; i++) pfi_filter_plan_free(&plans[i]);
    free(plans);
    return st;
}

void pfi_filter_plan_free(pfi_filter_plan *p) {
    free(p->mem);
    p->mem = NULL;
}

static pfi_filter_plan *new_plans(const char *op, int count) {
    pfi_filter_plan *p = calloc((size_t)count, sizeof *p);
    if (p == NULL) pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", op, count);
    return p;
}

/* ----------------------------------------------------------- Gaussian */

/* Common power-of-two factor of a tap set (at most 8: taps sum to 256). */
static int32_t taps_shift(const uint16_t *q, int32_t n) {
    uint32_t all = 0;
    for (int32_t t = 0; t < n; t++) all |= q[t];
    int32_t s = 0;
    while (s < 8 && !(all & (1u << s))) s++;
    return s;
}

/* When the taps share 2^8 or more between them, the u8 2D sum fits 16
 * bits after dividing it out: select the 16-bit vertical pass. */
static void reduce_taps(pfi_filter_plan *p) {
    int32_t sx = taps_shift(p->qx, p->kx), sy = taps_shift(p->qy, p->ky);
    if (sx + sy < 8) return;
    while (sx + sy > 15) sy > 0 ? sy-- : sx--; /* keep a shift >= 1 (gshift 0 means "32-bit pass") */
    for (int32_t t = 0; t < p->kx; t++) p->qx[t] = (uint16_t)(p->qx[t] >> sx);
    for (int32_t t = 0; t < p->ky; t++) p->qy[t] = (uint16_t)(p->qy[t] >> sy);
    p->gshift = 16 - sx - sy;
}

static pf_status gauss_plan(int k, const pf_gaussian_params *gp, const pf_image *s, pfi_filter_plan *p) {
    static const char op[] = "pf_gaussian_blur";
    int is_u8 = s->dtype == PF_U8;
    if (!isfinite(gp->sigma_x) || !isfinite(gp->sigma_y))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: params[%d].sigma_x/sigma_y is not finite (%g, %g)", op, k,
                        gp->sigma_x, gp->sigma_y);
    if (gp->sigma_x > 1e4 || gp->sigma_y > 1e4)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: params[%d].sigma is %g; at most 1e4", op, k,
                        gp->sigma_x > gp->sigma_y ? gp->sigma_x : gp->sigma_y);
    pf_status st = check_border(op, "params", k, gp->border);
    if (st != PF_OK) return st;
    int32_t kxs = gp->ksize_x, kys = gp->ksize_y;
    double sx = gp->sigma_x, sy = gp->sigma_y > 0 ? gp->sigma_y : gp->sigma_x;
    /* OpenCV: a 1-pixel axis gets a 1-tap kernel unless the border is CONSTANT */
    if (gp->border != PF_BORDER_CONSTANT) {
        if (s->height == 1) kys = 1;
        if (s->width == 1) kxs = 1;
    }
    if (kxs < 0 || kys < 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: params[%d].ksize is %dx%d; sizes are odd >= 1 or 0 (from sigma)",
                        op, k, (int)gp->ksize_x, (int)gp->ksize_y);
    if (kxs == 0 && sx > 0) kxs = pfk_gauss_ksize_from_sigma(sx, is_u8);
    if (kys == 0 && sy > 0) kys = pfk_gauss_ksize_from_sigma(sy, is_u8);
    if (kxs == 0 || kys == 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: params[%d] has ksize %dx%d with sigma %g/%g; a zero ksize needs a "
                        "positive sigma", op, k, (int)gp->ksize_x, (int)gp->ksize_y, gp->sigma_x, gp->sigma_y);
    if ((st = check_ksize(op, "params", k, "ksize_x", kxs, 1)) != PF_OK) return st;
    if ((st = check_ksize(op, "params", k, "ksize_y", kys, 1)) != PF_OK) return st;
    p->border = gp->border;
    if (kxs == 1 && kys == 1) {
        p->kind = PFI_FK_COPY;
        return PF_OK;
    }
    p->kind = PFI_FK_GAUSS;
    p->kx = kxs;
    p->ky = kys;
    p->ax = kxs / 2;
    p->ay = kys / 2;
    size_t n = (size_t)(kxs + kys);
    double *tmp = malloc(n * sizeof(double));
    p->mem = malloc(n * (sizeof(uint32_t) + sizeof(uint16_t) + sizeof(float)));
    if (tmp == NULL || p->mem == NULL) {
        free(tmp);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    }
    p->wx = p->mem;
    p->wy = p->wx + kxs;
    p->fx = (float *)(void *)(p->wy + kys);
    p->fy = p->fx + kxs;
    p->qx = (uint16_t *)(void *)(p->fy + kys);
    p->qy = p->qx + kxs;
    pfk_gauss_kernel(tmp, kxs, sx > 0 ? sx : 0);
    pfk_gauss_kernel(tmp + kxs, kys, sy > 0 ? sy : 0);
    pfk_gauss_kernel_q8(tmp, kxs, p->qx);
    pfk_gauss_kernel_q8(tmp + kxs, kys, p->qy);
    pfk_gauss_kernel_fixed(tmp, kxs, 16, p->wx);
    pfk_gauss_kernel_fixed(tmp + kxs, kys, 16, p->wy);
    for (size_t t = 0; t < n; t++) p->fx[t] = (float)tmp[t];
    free(tmp);
    reduce_taps(p);
    return PF_OK;
}

/* The batch loop shared by the ops whose per-sample parameter is a struct:
 * checks, then plan i from params[n == 1 ? 0 : i] (elem bytes apart) with
 * plan_fn, then runs all plans. allow_u16 is check_pair's dtype rule. */
typedef pf_status (*plan_fn)(const void *ctx, int k, const void *param, const pf_image *s, pfi_filter_plan *p);

static pf_status filter_batch(pf_stream *stream, const char *op, int count, const pf_image *src, pf_image *dst,
                              const void *params, int nparams, size_t elem, int allow_u16, plan_fn fn,
                              const void *ctx) {
    pfi_clear_error();
    pf_status st = check_batch(op, count, src, dst, params, nparams, "params");
    if (st != PF_OK || count == 0) return st;
    pfi_filter_plan *plans = new_plans(op, count);
    if (plans == NULL) return PF_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < count && st == PF_OK; i++) {
        int k = nparams == 1 ? 0 : i;
        st = check_pair(op, i, &src[i], &dst[i], allow_u16);
        if (st == PF_OK) st = fn(ctx, k, (const char *)params + (size_t)k * elem, &src[i], &plans[i]);
    }
    return run_plans(stream, op, count, src, dst, plans, st);
}

static pf_status gauss_plan_fn(const void *ctx, int k, const void *prm, const pf_image *s, pfi_filter_plan *p) {
    (void)ctx;
    return gauss_plan(k, prm, s, p);
}

pf_status pf_gaussian_blur(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                           const pf_gaussian_params params[], int nparams) {
    return filter_batch(stream, "pf_gaussian_blur", count, src, dst, params, nparams, sizeof *params, 1,
                        gauss_plan_fn, NULL);
}

/* ---------------------------------------------------------------- box */

static pf_status box_plan(int k, const pf_box_params *bp, const pf_image *s, pfi_filter_plan *p) {
    static const char op[] = "pf_box_blur";
    pf_status st;
    (void)s;
    if ((st = check_border(op, "params", k, bp->border)) != PF_OK) return st;
    if ((st = check_ksize(op, "params", k, "ksize_x", bp->ksize_x, 0)) != PF_OK) return st;
    if ((st = check_ksize(op, "params", k, "ksize_y", bp->ksize_y, 0)) != PF_OK) return st;
    if ((st = resolve_anchor(op, "params", k, "anchor_x", bp->anchor_x, bp->ksize_x, &p->ax)) != PF_OK) return st;
    if ((st = resolve_anchor(op, "params", k, "anchor_y", bp->anchor_y, bp->ksize_y, &p->ay)) != PF_OK) return st;
    p->border = bp->border;
    p->kx = bp->ksize_x;
    p->ky = bp->ksize_y;
    if (p->kx == 1 && p->ky == 1) {
        p->kind = PFI_FK_COPY;
        return PF_OK;
    }
    p->kind = PFI_FK_BOX;
    p->mem = malloc((size_t)p->kx * sizeof(uint16_t));
    if (p->mem == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    p->qx = p->mem;
    for (int32_t t = 0; t < p->kx; t++) p->qx[t] = 1;
    return PF_OK;
}

static pf_status box_plan_fn(const void *ctx, int k, const void *prm, const pf_image *s, pfi_filter_plan *p) {
    (void)ctx;
    return box_plan(k, prm, s, p);
}

pf_status pf_box_blur(pf_stream *stream, int count, const pf_image src[], pf_image dst[], const pf_box_params params[],
                      int nparams) {
    return filter_batch(stream, "pf_box_blur", count, src, dst, params, nparams, sizeof *params, 1, box_plan_fn,
                        NULL);
}

/* ------------------------------------------------------------- median */

pf_status pf_median_blur(pf_stream *stream, int count, const pf_image src[], pf_image dst[], const int32_t ksizes[],
                         int nksizes) {
    static const char op[] = "pf_median_blur";
    pfi_clear_error();
    pf_status st = check_batch(op, count, src, dst, ksizes, nksizes, "ksizes");
    if (st != PF_OK || count == 0) return st;
    pfi_filter_plan *plans = new_plans(op, count);
    if (plans == NULL) return PF_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < count && st == PF_OK; i++) {
        int k = nksizes == 1 ? 0 : i;
        int32_t ks = ksizes[k];
        if ((st = check_pair(op, i, &src[i], &dst[i], 1)) != PF_OK) break;
        if (ks < 1 || ks % 2 == 0 || ks > 255) {
            st = pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: ksizes[%d] is %d; it must be odd and in [1, 255]", op, k,
                          (int)ks);
            break;
        }
        if (ks > 5 && src[i].dtype != PF_U8) { /* OpenCV: sorting networks for 3 and 5 only */
            st = pfi_fail(PF_ERR_UNSUPPORTED, "%s: ksizes[%d] is %d with src[%d] %s; sizes above 5 are u8 only (as in "
                          "OpenCV)", op, k, (int)ks, i, pf_dtype_name(src[i].dtype));
            break;
        }
        if (ks > 5 && src[i].layout == PF_HWC && src[i].channels == 2) {
            st = pfi_fail(PF_ERR_UNSUPPORTED, "%s: ksizes[%d] is %d with 2-channel src[%d]; sizes above 5 take 1, 3 or "
                          "4 channels (as in OpenCV)", op, k, (int)ks, i);
            break;
        }
        pfi_filter_plan *p = &plans[i];
        p->kind = ks == 1 ? PFI_FK_COPY : PFI_FK_MEDIAN;
        p->kx = p->ky = ks;
        p->ax = p->ay = ks / 2;
        p->border = PF_BORDER_REPLICATE;
    }
    return run_plans(stream, op, count, src, dst, plans, st);
}

/* ---------------------------------------------------------- filter_2d */

static pf_status conv_plan(int k, const pf_filter2d_params *fp, const pf_image *s, pfi_filter_plan *p) {
    static const char op[] = "pf_filter_2d";
    pf_status st;
    if (fp->kernel == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: params[%d].kernel is NULL", op, k);
    if ((st = check_border(op, "params", k, fp->border)) != PF_OK) return st;
    if ((st = check_ksize(op, "params", k, "ksize_x", fp->ksize_x, 0)) != PF_OK) return st;
    if ((st = check_ksize(op, "params", k, "ksize_y", fp->ksize_y, 0)) != PF_OK) return st;
    if ((st = resolve_anchor(op, "params", k, "anchor_x", fp->anchor_x, fp->ksize_x, &p->ax)) != PF_OK) return st;
    if ((st = resolve_anchor(op, "params", k, "anchor_y", fp->anchor_y, fp->ksize_y, &p->ay)) != PF_OK) return st;
    if (!isfinite(fp->delta)) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: params[%d].delta is not finite", op, k);
    size_t total = (size_t)fp->ksize_x * (size_t)fp->ksize_y, nz = 0;
    for (size_t t = 0; t < total; t++) {
        if (!isfinite(fp->kernel[t]))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: params[%d].kernel[%zu] is not finite", op, k, t);
        nz += fp->kernel[t] != 0.0f;
    }
    p->kind = PFI_FK_CONV2D;
    p->border = fp->border;
    p->kx = fp->ksize_x;
    p->ky = fp->ksize_y;
    p->delta = (float)fp->delta;
    p->mem = malloc((nz ? nz : 1) * (2 * sizeof(int32_t) + sizeof(float)));
    if (p->mem == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    int32_t *row = p->mem, *off = row + nz;
    float *w = (float *)(void *)(off + nz);
    int32_t cn = s->layout == PF_CHW ? 1 : s->channels;
    size_t t = 0;
    for (int32_t r = 0; r < p->ky; r++)
        for (int32_t c = 0; c < p->kx; c++) {
            float v = fp->kernel[(size_t)r * (size_t)p->kx + (size_t)c];
            if (v == 0.0f) continue;
            row[t] = r;
            off[t] = c * cn;
            w[t] = v;
            t++;
        }
    p->taps.count = (int32_t)nz;
    p->taps.row = row;
    p->taps.off = off;
    p->taps.w = w;
    return PF_OK;
}

static pf_status conv_plan_fn(const void *ctx, int k, const void *prm, const pf_image *s, pfi_filter_plan *p) {
    (void)ctx;
    return conv_plan(k, prm, s, p);
}

pf_status pf_filter_2d(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                       const pf_filter2d_params params[], int nparams) {
    return filter_batch(stream, "pf_filter_2d", count, src, dst, params, nparams, sizeof *params, 0, conv_plan_fn,
                        NULL);
}

/* ------------------------------------------------------ erode / dilate */

static pf_status morph_plan(const char *op, int dilate, int k, const pf_morph_params *mp, const pf_image *s,
                            pfi_filter_plan *p) {
    pf_status st;
    if ((st = check_border(op, "params", k, mp->border)) != PF_OK) return st;
    if ((st = check_ksize(op, "params", k, "ksize_x", mp->ksize_x, 0)) != PF_OK) return st;
    if ((st = check_ksize(op, "params", k, "ksize_y", mp->ksize_y, 0)) != PF_OK) return st;
    if (mp->iterations < 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: params[%d].iterations is %d; it must be >= 0", op, k,
                        (int)mp->iterations);
    int32_t ax = 0, ay = 0;
    if ((st = resolve_anchor(op, "params", k, "anchor_x", mp->anchor_x, mp->ksize_x, &ax)) != PF_OK) return st;
    if ((st = resolve_anchor(op, "params", k, "anchor_y", mp->anchor_y, mp->ksize_y, &ay)) != PF_OK) return st;
    int64_t it = mp->iterations;
    int64_t kx = mp->ksize_x + (it - 1) * (mp->ksize_x - 1), ky = mp->ksize_y + (it - 1) * (mp->ksize_y - 1);
    if (it > 1 && (kx > MAXK || ky > MAXK))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: params[%d]: %d iterations of %dx%d make a %lldx%lld window; at "
                        "most %d", op, k, (int)it, (int)mp->ksize_x, (int)mp->ksize_y, (long long)kx, (long long)ky,
                        MAXK);
    if (mp->use_border_value && mp->border == PF_BORDER_CONSTANT)
        for (int c = 0; c < 4; c++)
            if (isnan(mp->border_value[c]))
                return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: params[%d].border_value[%d] is NaN", op, k, c);
    p->border = mp->border;
    if (it == 0 || (mp->ksize_x == 1 && mp->ksize_y == 1)) {
        p->kind = PFI_FK_COPY;
        return PF_OK;
    }
    p->kind = dilate ? PFI_FK_DILATE : PFI_FK_ERODE;
    /* OpenCV runs n iterations of a full rectangle as one bigger rectangle */
    p->kx = (int32_t)kx;
    p->ky = (int32_t)ky;
    p->ax = (int32_t)(ax * it);
    p->ay = (int32_t)(ay * it);
    for (int c = 0; c < 4; c++) {
        double v;
        if (mp->use_border_value) v = mp->border_value[c];
        else if (s->dtype == PF_U8) v = dilate ? 0.0 : 255.0;
        else if (s->dtype == PF_U16) v = dilate ? 0.0 : 65535.0;
        else v = dilate ? -(double)FLT_MAX : (double)FLT_MAX;
        if (s->dtype == PF_U8) v = v < 0 ? 0 : v > 255 ? 255 : nearbyint(v);
        if (s->dtype == PF_U16) v = v < 0 ? 0 : v > 65535 ? 65535 : nearbyint(v);
        p->border_value[c] = v;
    }
    return PF_OK;
}

typedef struct morph_ctx { const char *op; int dilate; } morph_ctx;

static pf_status morph_plan_fn(const void *ctx, int k, const void *prm, const pf_image *s, pfi_filter_plan *p) {
    const morph_ctx *m = ctx;
    return morph_plan(m->op, m->dilate, k, prm, s, p);
}

static pf_status morph(pf_stream *stream, const char *op, int dilate, int count, const pf_image *src, pf_image *dst,
                       const pf_morph_params *params, int nparams) {
    morph_ctx m = {op, dilate};
    return filter_batch(stream, op, count, src, dst, params, nparams, sizeof *params, 1, morph_plan_fn, &m);
}

pf_status pf_erode(pf_stream *stream, int count, const pf_image src[], pf_image dst[], const pf_morph_params params[],
                   int nparams) {
    return morph(stream, "pf_erode", 0, count, src, dst, params, nparams);
}

pf_status pf_dilate(pf_stream *stream, int count, const pf_image src[], pf_image dst[], const pf_morph_params params[],
                    int nparams) {
    return morph(stream, "pf_dilate", 1, count, src, dst, params, nparams);
}

/* ------------------------------------------------------------ sharpen */

pf_status pf_sharpen(pf_stream *stream, int count, const pf_image src[], pf_image dst[], const float factors[],
                     int nfactors) {
    static const char op[] = "pf_sharpen";
    pfi_clear_error();
    pf_status st = check_batch(op, count, src, dst, factors, nfactors, "factors");
    if (st != PF_OK || count == 0) return st;
    pfi_filter_plan *plans = new_plans(op, count);
    if (plans == NULL) return PF_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < count && st == PF_OK; i++) {
        int k = nfactors == 1 ? 0 : i;
        float f = factors[k];
        if (!(f >= 0.0f) || !isfinite(f)) {
            st = pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: factors[%d] is %g; it must be finite and >= 0", op, k,
                          (double)f);
            break;
        }
        if ((st = check_pair(op, i, &src[i], &dst[i], 0)) != PF_OK) break;
        pfi_filter_plan *p = &plans[i];
        /* torchvision returns images with a side <= 2 unchanged */
        p->kind = src[i].width <= 2 || src[i].height <= 2 ? PFI_FK_COPY : PFI_FK_SHARPEN;
        p->g = (float)(1.0 - (double)f); /* torch: python float (1.0 - ratio), then f32 */
        p->ky = 3;
    }
    return run_plans(stream, op, count, src, dst, plans, st);
}
