/* Resize plan construction with OpenCV 4.x cv::resize semantics (see
 * docs/exactness.md). This file is the specification of *which* source
 * pixels and *which* weights every output uses; ref/resize_rows_ref.c is the
 * specification of the arithmetic. Written from OpenCV's documented
 * behaviour and verified against it by tests/parity. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "kernels/resize_math.h"
#include "plan/resize_plan.h"
#include "plan/resize_tv_plan.h"

#define PFI_PI 3.1415926535897932384626433832795

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* OpenCV interpolateLanczos4: double trig, float accumulation. Host only
 * (the CUDA side receives these tables). */
static void lanczos4_coeffs(float x, float *c) {
    static const double s45 = 0.70710678118654752440084436210485;
    static const double cs[8][2] = {{1, 0},  {-s45, -s45}, {0, 1},  {s45, -s45},
                                    {-1, 0}, {s45, s45},   {0, -1}, {-s45, s45}};
    float sum = 0;
    double y0 = -(double)(x + 3) * PFI_PI * 0.25, s0 = sin(y0), c0 = cos(y0);
    for (int i = 0; i < 8; i++) {
        float y0_ = (x + 3 - (float)i);
        if (fabsf(y0_) >= 1e-6f) {
            double y = -(double)y0_ * PFI_PI * 0.25;
            c[i] = (float)((cs[i][0] * s0 + cs[i][1] * c0) / (y * y));
        } else {
            c[i] = 1e30f;
        }
        sum += c[i];
    }
    sum = 1.f / sum;
    for (int i = 0; i < 8; i++) c[i] *= sum;
}

/* OpenCV saturate_cast<short>(float). */
static int16_t sat_s16(float v) {
    int32_t r = pfk_round_f32(v);
    return (int16_t)(r < -32768 ? -32768 : r > 32767 ? 32767 : r);
}

/* Allocates the table arrays of one axis inside one block (zeroed). */
void *pfi_axis_alloc(pfi_axis *a, int32_t n, int32_t ksize) {
    size_t taps = (size_t)n * (size_t)ksize;
    size_t bytes = taps * (sizeof(int32_t) * 2 + sizeof(float) + sizeof(int16_t)) +
                   (size_t)n * sizeof(int32_t) + 64;
    char *m = calloc(1, bytes);
    if (m == NULL) return NULL;
    a->n = n;
    a->ksize = ksize;
    a->idx = (int32_t *)(void *)m;
    a->acoef = a->idx + taps;
    a->fcoef = (float *)(a->acoef + taps);
    a->count = (int32_t *)(a->fcoef + taps);
    a->icoef = (int16_t *)(a->count + n);
    return m;
}

/* OpenCV's generic separable tables for one axis. `horizontal` applies the
 * linear/area border fix that OpenCV performs only along x. */
static pf_status generic_axis(pfi_axis *a, void **mem, int32_t in, int32_t out, double scale,
                              double inv_scale, pf_interp interp, bool horizontal) {
    int ksize = interp == PF_INTERP_CUBIC ? 4 : interp == PF_INTERP_LANCZOS4 ? 8 : 2;
    int ksize2 = ksize / 2;
    bool area_mode = interp == PF_INTERP_AREA;
    bool wide = interp == PF_INTERP_CUBIC || interp == PF_INTERP_LANCZOS4;
    *mem = pfi_axis_alloc(a, out, ksize);
    if (*mem == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_resize: out of memory for tables");
    for (int d = 0; d < out; d++) {
        float f;
        int s;
        if (!area_mode) {
            f = (float)((d + 0.5) * scale - 0.5);
            s = (int)floorf(f);
            f -= (float)s;
        } else {
            s = (int)floor(d * scale);
            f = (float)((d + 1) - (s + 1) * inv_scale);
            f = f <= 0 ? 0.f : f - floorf(f);
        }
        if (horizontal) {
            if (s < ksize2 - 1 && s < 0 && !wide) { f = 0; s = 0; }
            if (s + ksize2 >= in && s >= in - 1 && !wide) { f = 0; s = in - 1; }
        }
        float c[8];
        if (interp == PF_INTERP_CUBIC) pfk_cubic_coeffs(f, c);
        else if (interp == PF_INTERP_LANCZOS4) lanczos4_coeffs(f, c);
        else { c[0] = 1.f - f; c[1] = f; }
        a->count[d] = ksize;
        for (int k = 0; k < ksize; k++) {
            size_t t = (size_t)d * (size_t)ksize + (size_t)k;
            a->idx[t] = clampi(s - ksize2 + 1 + k, 0, in - 1);
            a->fcoef[t] = c[k];
            a->icoef[t] = sat_s16(c[k] * PFK_COEF_ONE);
        }
    }
    return PF_OK;
}

/* OpenCV computeResizeAreaTab, regrouped per output with zero-weight pads
 * (adding 0 * finite changes no float sum, so the padded order is exact). */
static pf_status area_axis(pfi_axis *a, void **mem, int32_t in, int32_t out, double scale) {
    /* First pass: count taps per output to size the table. */
    int kmax = 1;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            *mem = pfi_axis_alloc(a, out, kmax);
            if (*mem == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_resize: out of memory for tables");
        }
        for (int d = 0; d < out; d++) {
            double fs1 = d * scale, fs2 = fs1 + scale;
            double cell = fmin(scale, in - fs1);
            int s1 = (int)ceil(fs1), s2 = (int)floor(fs2);
            s2 = s2 < in - 1 ? s2 : in - 1;
            s1 = s1 < s2 ? s1 : s2;
            int n = 0;
            int32_t *ix = pass ? a->idx + (size_t)d * (size_t)kmax : NULL;
            float *cf = pass ? a->fcoef + (size_t)d * (size_t)kmax : NULL;
            if (s1 - fs1 > 1e-3) {
                if (pass) { ix[n] = s1 - 1; cf[n] = (float)((s1 - fs1) / cell); }
                n++;
            }
            for (int s = s1; s < s2; s++) {
                if (pass) { ix[n] = s; cf[n] = (float)(1.0 / cell); }
                n++;
            }
            if (fs2 - s2 > 1e-3) {
                if (pass) { ix[n] = s2; cf[n] = (float)(fmin(fmin(fs2 - s2, 1.), cell) / cell); }
                n++;
            }
            if (pass == 0) { if (n > kmax) kmax = n; continue; }
            if (n == 0) { ix[0] = clampi(s1, 0, in - 1); cf[0] = 0.f; }
            a->count[d] = n;
            for (int k = n; k < kmax; k++) { ix[k] = ix[n ? n - 1 : 0]; cf[k] = 0.f; }
        }
    }
    return PF_OK;
}

size_t pfi_resize_buf_row_bytes(const pfi_resize_plan *p) {
    size_t es = p->hk == PFK_H_AA_U8 || p->hk == PFK_H_TV_U8 ? 1 : p->hk == PFK_H_U8_LIN16 ? 2 : 4;
    return (size_t)p->dw * (size_t)p->cn * es;
}

void pfi_resize_plan_free(pfi_resize_plan *p) {
    if (p == NULL) return;
    free(p->nn_x);
    free(p->h.idx);
    free(p->v.idx);
    memset(p, 0, sizeof *p);
}

static pf_status nn_tables(pfi_resize_plan *p, pf_interp interp) {
    p->kind = PFK_RZ_NN;
    p->nn_x = malloc(sizeof(int32_t) * ((size_t)p->dw + (size_t)p->dh));
    if (p->nn_x == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_resize: out of memory for tables");
    p->nn_y = p->nn_x + p->dw;
    if (interp == PF_INTERP_NEAREST) {
        double ifx = 1. / ((double)p->dw / p->sw), ify = 1. / ((double)p->dh / p->sh);
        for (int x = 0; x < p->dw; x++) {
            int s = (int)floor(x * ifx);
            p->nn_x[x] = s < p->sw - 1 ? s : p->sw - 1;
        }
        for (int y = 0; y < p->dh; y++) {
            int s = (int)floor(y * ify);
            p->nn_y[y] = s < p->sh - 1 ? s : p->sh - 1;
        }
    } else {
        /* 16.16 fixed point sampling at pixel centres (Pillow / scikit-image). */
        int64_t ifx = (((int64_t)p->sw << 16) + p->dw / 2) / p->dw, ifx0 = ifx / 2 - 1;
        int64_t ify = (((int64_t)p->sh << 16) + p->dh / 2) / p->dh, ify0 = ify / 2 - 1;
        for (int x = 0; x < p->dw; x++) {
            int64_t s = (ifx * x + ifx0) >> 16;
            p->nn_x[x] = (int32_t)(s < p->sw - 1 ? s : p->sw - 1);
        }
        for (int y = 0; y < p->dh; y++) {
            int64_t s = (ify * y + ify0) >> 16;
            p->nn_y[y] = (int32_t)(s < p->sh - 1 ? s : p->sh - 1);
        }
    }
    return PF_OK;
}

/* torch / torchvision semantics (resize_tv_tables.c): u8 through the
 * int16 fixed-point kinds, u16 and f32 through the float kinds (torch
 * resizes those as float32; torchvision rounds integer results half to
 * even, as the u16 store does). */
static pf_status tv_plan(pfi_resize_plan *p, pf_interp interp, bool antialias) {
    if (interp == PF_INTERP_NEAREST || interp == PF_INTERP_NEAREST_EXACT) {
        p->kind = PFK_RZ_NN;
        p->nn_x = malloc(sizeof(int32_t) * ((size_t)p->dw + (size_t)p->dh));
        if (p->nn_x == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_resize: out of memory for tables");
        p->nn_y = p->nn_x + p->dw;
        pfi_tv_nn_build(p->nn_x, p->sw, p->dw, interp == PF_INTERP_NEAREST_EXACT);
        pfi_tv_nn_build(p->nn_y, p->sh, p->dh, interp == PF_INTERP_NEAREST_EXACT);
        return PF_OK;
    }
    if (interp == PF_INTERP_AREA)
        return pfi_fail(PF_ERR_UNSUPPORTED, "pf_resize: opts->interp AREA has no torchvision F.resize "
                                            "equivalent; use the OpenCV flavour");
    bool fixed = p->dtype == PF_U8;
    void *hm = NULL, *vm = NULL;
    p->kind = PFK_RZ_SEP;
    p->hk = fixed ? PFK_H_TV_U8 : PFK_H_F32;
    p->vk = fixed ? PFK_V_TV_U8 : PFK_V_F32;
    pf_status st = pfi_tv_axis_build(&p->h, p->sw, p->dw, interp, antialias, fixed, &hm);
    if (st == PF_OK) st = pfi_tv_axis_build(&p->v, p->sh, p->dh, interp, antialias, fixed, &vm);
    if (st != PF_OK) { free(hm); free(vm); memset(p, 0, sizeof *p); }
    p->h_skip = fixed && p->sw == p->dw;
    p->v_skip = fixed && p->sh == p->dh;
    return st;
}

static void slice_axis(pfi_axis *a, int32_t o, int32_t n) {
    size_t k = (size_t)a->ksize, from = (size_t)o * k, taps = (size_t)n * k;
    memmove(a->idx, a->idx + from, taps * sizeof *a->idx);
    memmove(a->acoef, a->acoef + from, taps * sizeof *a->acoef);
    memmove(a->fcoef, a->fcoef + from, taps * sizeof *a->fcoef);
    memmove(a->icoef, a->icoef + from, taps * sizeof *a->icoef);
    memmove(a->count, a->count + o, (size_t)n * sizeof *a->count);
    a->n = n;
}

pf_status pfi_resize_plan_window(pfi_resize_plan *p, int32_t wx, int32_t wy, int32_t ww, int32_t wh) {
    if (wx == 0 && wy == 0 && ww == p->dw && wh == p->dh) return PF_OK;
    if (wx < 0 || wy < 0 || ww < 1 || wh < 1 || wx > p->dw - ww || wy > p->dh - wh)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_resize: window %dx%d at (%d, %d) is not inside the %dx%d image",
                        ww, wh, wx, wy, p->dw, p->dh);
    switch (p->kind) {
    case PFK_RZ_COPY: /* the window of the source itself */
        p->nn_x = malloc(sizeof(int32_t) * ((size_t)ww + (size_t)wh));
        if (p->nn_x == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_resize: out of memory for tables");
        p->nn_y = p->nn_x + ww;
        for (int32_t x = 0; x < ww; x++) p->nn_x[x] = x + wx;
        for (int32_t y = 0; y < wh; y++) p->nn_y[y] = y + wy;
        p->kind = PFK_RZ_NN;
        break;
    case PFK_RZ_NN:
        memmove(p->nn_x, p->nn_x + wx, (size_t)ww * sizeof *p->nn_x);
        memmove(p->nn_y, p->nn_y + wy, (size_t)wh * sizeof *p->nn_y);
        break;
    case PFK_RZ_SEP:
        if (p->vsplit != 0) goto unsupported;
        slice_axis(&p->h, wx, ww);
        slice_axis(&p->v, wy, wh);
        p->h_skip = p->h_skip && wx == 0 && ww == p->dw;
        p->v_skip = p->v_skip && wy == 0 && wh == p->dh;
        break;
    default:
        goto unsupported;
    }
    p->dw = ww;
    p->dh = wh;
    return PF_OK;
unsupported:
    return pfi_fail(PF_ERR_UNSUPPORTED, "pf_resize: a resize-then-crop window needs a plan whose outputs do not "
                                        "depend on their position in the row (the torchvision flavour's)");
}

pf_status pfi_resize_plan_build(pfi_resize_plan *p, int32_t sw, int32_t sh, int32_t dw, int32_t dh,
                                int32_t cn, pf_dtype dtype, pf_interp interp, pf_resize_flavor flavor,
                                bool antialias) {
    memset(p, 0, sizeof *p);
    p->dtype = dtype;
    p->cn = cn;
    p->sw = sw; p->sh = sh; p->dw = dw; p->dh = dh;
    pfi_resize_canon(&flavor, &antialias);
    if (sw == dw && sh == dh) { p->kind = PFK_RZ_COPY; return PF_OK; }
    if (flavor == PF_RESIZE_TORCHVISION) return tv_plan(p, interp, antialias);
    if (interp == PF_INTERP_NEAREST || interp == PF_INTERP_NEAREST_EXACT) return nn_tables(p, interp);

    void *hm = NULL, *vm = NULL;
    pf_status st;
    p->kind = PFK_RZ_SEP;
    if (antialias) {
        bool fixed = dtype == PF_U8;
        p->hk = fixed ? PFK_H_AA_U8 : PFK_H_F32;
        p->vk = fixed ? PFK_V_AA_U8 : PFK_V_F32;
        st = pfi_aa_axis_build(&p->h, sw, dw, interp, fixed, &hm);
        if (st == PF_OK) st = pfi_aa_axis_build(&p->v, sh, dh, interp, fixed, &vm);
        if (st != PF_OK) { free(hm); free(vm); memset(p, 0, sizeof *p); }
        return st;
    }

    double inv_sx = (double)dw / sw, inv_sy = (double)dh / sh;
    double scale_x = 1. / inv_sx, scale_y = 1. / inv_sy;
    int iscale_x = (int)lrint(scale_x), iscale_y = (int)lrint(scale_y);
    bool area_fast = fabs(scale_x - iscale_x) < DBL_EPSILON && fabs(scale_y - iscale_y) < DBL_EPSILON;

    if (interp == PF_INTERP_LINEAR && area_fast && iscale_x == 2 && iscale_y == 2)
        interp = PF_INTERP_AREA; /* OpenCV's 2x-down shortcut */
    if (interp == PF_INTERP_AREA && scale_x >= 1 && scale_y >= 1) {
        if (area_fast) {
            p->kind = PFK_RZ_AREA_FAST;
            p->afx = iscale_x;
            p->afy = iscale_y;
            /* f32 2x2 on cn 1/4: OpenCV's SIMD lanes sum in pairs. */
            int w = (sw / iscale_x) * cn;
            p->vsplit = (dtype == PF_F32 && iscale_x == 2 && iscale_y == 2 && (cn == 1 || cn == 4))
                            ? (w / 4) * 4 : 0;
            return PF_OK;
        }
        p->hk = PFK_H_F32;
        p->vk = PFK_V_F32;
        st = area_axis(&p->h, &hm, sw, dw, scale_x);
        if (st == PF_OK) st = area_axis(&p->v, &vm, sh, dh, scale_y);
        if (st != PF_OK) { free(hm); free(vm); memset(p, 0, sizeof *p); }
        return st;
    }

    st = generic_axis(&p->h, &hm, sw, dw, scale_x, inv_sx, interp, true);
    if (st == PF_OK) st = generic_axis(&p->v, &vm, sh, dh, scale_y, inv_sy, interp, false);
    if (st != PF_OK) { free(hm); free(vm); memset(p, 0, sizeof *p); return st; }
    int32_t W = dw * cn;
    if (dtype == PF_U8) {
        p->hk = PFK_H_U8_I32;
        if (interp == PF_INTERP_CUBIC) {
            p->vk = PFK_V_U8_CUBIC;
            p->vsplit = (W / 8) * 8; /* v_int16 lanes of the SSE2 build */
            /* float lane weights: beta * 2^-22 (exact) */
            size_t taps = (size_t)p->v.n * (size_t)p->v.ksize;
            for (size_t t = 0; t < taps; t++)
                p->v.fcoef[t] = (float)p->v.icoef[t] * (1.f / (PFK_COEF_ONE * PFK_COEF_ONE));
        } else if (interp == PF_INTERP_LANCZOS4) {
            p->vk = PFK_V_U8_FIX22;
        } else {
            p->hk = PFK_H_U8_LIN16;
            p->vk = PFK_V_U8_LINEAR;
        }
    } else {
        p->hk = PFK_H_F32;
        p->vk = PFK_V_F32;
        if (interp == PF_INTERP_CUBIC)
            p->vsplit = dtype == PF_U16 ? (W / 8) * 8 : (W / 4) * 4;
        else if (interp == PF_INTERP_LANCZOS4 && dtype == PF_F32)
            p->vsplit = (W / 4) * 4;
    }
    return PF_OK;
}
