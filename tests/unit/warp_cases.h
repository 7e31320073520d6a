/* Random warp cases shared by the GPU warp tests (emulated on the CPU:
 * tests/unit/test_gpu_warp.c; on a CUDA device: tests/cuda/test_cuda_warp.c):
 * case number -> a batch of source views and two identical destination
 * buffers (canaries included) plus matrices and options. */
#ifndef PF_TESTS_WARP_CASES_H
#define PF_TESTS_WARP_CASES_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

#define MAXN 3

static double frand(uint64_t *s, double lo, double hi) {
    return lo + (hi - lo) * (double)(pft_rand(s) >> 11) * 0x1.0p-53;
}

/* A view over a fresh buffer: padded rows, optionally a negative row
 * stride and (u16/f32) an odd byte offset. buf/size describe the whole
 * allocation so that bytes outside the view are compared too. */
typedef struct view {
    pf_image im;
    uint8_t *buf;
    size_t size;
} view;

static view make_view(uint64_t *rng, int w, int h, int cn, pf_dtype dt, pf_layout lay, int negative,
                      int misalign) {
    view v;
    size_t es = pf_dtype_size(dt);
    int planar = lay == PF_CHW && cn > 1;
    size_t row = (size_t)w * es * (size_t)(planar ? 1 : cn);
    size_t stride = row + (size_t)pft_range(rng, 0, 2) * es + (misalign ? 1 : 0);
    size_t plane = stride * (size_t)h + (size_t)pft_range(rng, 0, 1) * 8;
    size_t off = misalign ? 1 : 0;
    v.size = plane * (size_t)(planar ? cn : 1) + off + 16;
    v.buf = malloc(v.size);
    for (size_t i = 0; i < v.size; i++) v.buf[i] = (uint8_t)pft_rand(rng);
    uint8_t *base = v.buf + off + (negative ? stride * (size_t)(h - 1) : 0);
    ptrdiff_t rs = negative ? -(ptrdiff_t)stride : (ptrdiff_t)stride;
    v.im = planar ? pf_image_chw(base, w, h, cn, dt, rs, (ptrdiff_t)plane) : pf_image_hwc(base, w, h, cn, dt, rs);
    if (!planar) v.im.layout = lay;
    return v;
}

/* Well-defined pixel values: floats stay finite (no NaN payload games). */
static void fill_pixels(uint64_t *rng, view *v) {
    if (v->im.dtype != PF_F32) return; /* u8/u16: random bytes are valid pixels */
    for (size_t i = 0; i + 4 <= v->size; i += 4) {
        float f = (float)frand(rng, -300, 300);
        memcpy(v->buf + i, &f, 4);
    }
}

static void random_matrix(uint64_t *rng, int persp, int sw, int sh, int dw, int dh, double *m) {
    double a = frand(rng, -3.2, 3.2), sc = frand(rng, 0.3, 2.5);
    double sx = (double)sw / dw, sy = (double)sh / dh;
    m[0] = cos(a) * sc * sx, m[1] = sin(a) * sc * sx, m[2] = frand(rng, -0.5, 1.2) * sw;
    m[3] = -sin(a) * sc * sy, m[4] = cos(a) * sc * sy, m[5] = frand(rng, -0.5, 1.2) * sh;
    int kind = pft_range(rng, 0, 9);
    if (kind == 0) m[0] = 1, m[1] = 0, m[3] = 0, m[4] = 1, m[2] = frand(rng, -2, 2), m[5] = frand(rng, -2, 2);
    if (kind == 1) m[0] *= 3000, m[4] *= 2500; /* coordinates beyond int16: saturation */
    if (persp) {
        m[6] = frand(rng, -4e-3, 4e-3), m[7] = frand(rng, -4e-3, 4e-3), m[8] = frand(rng, 0.8, 1.2);
        if (kind == 2) m[6] = 0.05; /* denominator through zero inside the image */
    }
}

typedef struct warp_case {
    int persp, count, nmat;
    pf_dtype dt;
    int cn;
    pf_layout lay;
    pf_warp_opts o;
    view src[MAXN], ref[MAXN], out[MAXN];
    pf_image s[MAXN], dref[MAXN], dout[MAXN];
    double mats[MAXN * 9];
} warp_case;

static void warp_case_make(int cs, warp_case *wc) {
    uint64_t rng = 0x9E3779B97F4A7C15ull ^ ((uint64_t)cs * 0x100000001B3ull);
    for (int k = 0; k < 4; k++) pft_rand(&rng);
    int persp = wc->persp = pft_range(&rng, 0, 1);
    pf_dtype dt = (pf_dtype[]){PF_U8, PF_U16, PF_F32}[pft_range(&rng, 0, 2)];
    if (pft_range(&rng, 0, 2) == 0) dt = PF_U8; /* the fused preprocess's case gets extra weight */
    int cn = pft_range(&rng, 1, 4);
    pf_layout lay = pft_range(&rng, 0, 2) == 0 ? PF_CHW : PF_HWC;
    int count = pft_range(&rng, 1, MAXN), nmat = pft_range(&rng, 0, 1) ? 1 : count;
    pf_warp_opts o = pf_warp_opts_defaults();
    o.interp = (pf_interp)pft_range(&rng, 0, 2);
    o.border = (pf_border)pft_range(&rng, 0, 5);
    if (pft_range(&rng, 0, 2) == 0) o.border = PF_BORDER_CONSTANT;
    for (int c = 0; c < 4; c++) o.border_value[c] = frand(&rng, -20, dt == PF_U8 ? 300 : 70000);
    o.flags = pft_range(&rng, 0, 1) ? PF_WARP_INVERSE_MAP : 0;
    view *src = wc->src, *ref = wc->ref, *out = wc->out;
    pf_image *s = wc->s, *dref = wc->dref, *dout = wc->dout;
    double *mats = wc->mats;
    for (int i = 0; i < count; i++) {
        int big = pft_range(&rng, 0, 5) == 0;
        int sw = pft_range(&rng, 1, big ? 300 : 40), sh = pft_range(&rng, 1, big ? 40 : 30);
        int dw = pft_range(&rng, 1, big ? 260 : 40), dh = pft_range(&rng, 1, 24);
        int neg = pft_range(&rng, 0, 3) == 0, mis = dt != PF_U8 && pft_range(&rng, 0, 4) == 0;
        src[i] = make_view(&rng, sw, sh, cn, dt, lay, neg, mis);
        fill_pixels(&rng, &src[i]);
        ref[i] = make_view(&rng, dw, dh, cn, dt, lay, pft_range(&rng, 0, 3) == 0, mis);
        out[i] = ref[i];
        out[i].buf = malloc(ref[i].size);
        memcpy(out[i].buf, ref[i].buf, ref[i].size); /* same canaries */
        out[i].im.data = out[i].buf + ((uint8_t *)ref[i].im.data - ref[i].buf);
        s[i] = src[i].im, dref[i] = ref[i].im, dout[i] = out[i].im;
    }
    for (int i = 0; i < nmat; i++) {
        double *m = mats + i * (persp ? 9 : 6);
        random_matrix(&rng, persp, s[i].width, s[i].height, dref[i].width, dref[i].height, m);
    }
    wc->count = count, wc->nmat = nmat, wc->dt = dt, wc->cn = cn, wc->lay = lay, wc->o = o;
}

static void warp_case_free(warp_case *wc) {
    for (int i = 0; i < wc->count; i++) free(wc->src[i].buf), free(wc->ref[i].buf), free(wc->out[i].buf);
}

/* Index of the first differing byte of sample i's buffers, or -1. */
static long warp_case_diff(const warp_case *wc, int i) {
    for (size_t k = 0; k < wc->ref[i].size; k++)
        if (wc->ref[i].buf[k] != wc->out[i].buf[k]) return (long)k;
    return -1;
}

static void warp_case_report(const warp_case *wc, int cs, int i, long k, const char *what) {
    fprintf(stderr,
            "case %d sample %d: %s differs from the CPU op at byte %ld (cpu %d, got %d): %s %s %s x%d %s interp %d "
            "border %d flags %d src %dx%d dst %dx%d\n",
            cs, i, what, k, wc->ref[i].buf[k], wc->out[i].buf[k], wc->persp ? "perspective" : "affine",
            pf_dtype_name(wc->dt), wc->lay == PF_CHW ? "CHW" : "HWC", wc->cn, wc->nmat == 1 ? "1 matrix" : "per-sample",
            (int)wc->o.interp, (int)wc->o.border, wc->o.flags, (int)wc->s[i].width, (int)wc->s[i].height,
            (int)wc->dref[i].width, (int)wc->dref[i].height);
}

#endif
