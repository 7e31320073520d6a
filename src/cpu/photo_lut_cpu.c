/*
 * The channel-wise photometric ops on the CPU: brightness, gamma, solarize,
 * posterize, autocontrast, equalize (invert: photo_invert_cpu.c). On u8 each is a function of the
 * value alone (given the sample's parameters and, for autocontrast and
 * equalize, its per-channel statistics), so it is computed exactly once
 * per value into a 256-entry table and applied by the pf_lut executor
 * (pfi_photo_lut -> pfi_cpu_lut: VBMI permutes).
 * f32 goes through the same formulas element by element.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/cpu_kernels.h"
#include "cpu/photo_cpu.h"
#include "kernels/photo_math.h"

typedef enum pw_op { PW_BRIGHT, PW_GAMMA, PW_SOLAR, PW_POSTER, PW_AUTOC, PW_EQ } pw_op;

/* Per-sample constants of a channel-wise op. */
typedef struct pw_sample {
    float a[4], b[4];  /* per-channel or scalar constants (see pw_apply) */
    double gamma;      /* gamma: torch special-cases some exponents */
    int use_gain;
    int bits;
    const float *eq;   /* equalize f32: 4 x 256 output values */
} pw_sample;

static float pw_apply(pw_op op, const pw_sample *p, int c, float x) {
    switch (op) {
    case PW_BRIGHT: return pfk_clampf(x * p->a[0], 0.0f, 1.0f);
    case PW_GAMMA: return pfk_gamma_unit(x, p->gamma, p->use_gain, p->a[1]);
    case PW_SOLAR: return x >= p->a[0] ? 1.0f - x : x;
    case PW_POSTER: {
        float levels = (float)(1 << p->bits);
        float v = pfk_clampf(floorf(x * levels), 0.0f, levels - 1.0f);
        return v * (float)(1.0 / (double)(1 << p->bits));
    }
    case PW_AUTOC: return pfk_clampf((x - p->a[c]) / p->b[c], 0.0f, 1.0f);
    default: return p->eq[c * 256 + pfk_unit_to_u8(x)];
    }
}

/* The u8 table of sample p, channel c: the same formulas on 0..255. */
static uint8_t pw_u8(pw_op op, const pw_sample *p, int c, int v) {
    switch (op) {
    case PW_BRIGHT: return pfk_brightness_u8((uint8_t)v, p->a[0]);
    case PW_GAMMA: return pfk_unit_to_u8(pw_apply(op, p, c, pfk_u8_to_unit((uint8_t)v)));
    case PW_SOLAR: return (float)v >= p->a[0] ? (uint8_t)(255 - v) : (uint8_t)v;
    case PW_POSTER: return (uint8_t)(p->bits >= 8 ? (unsigned)v : (unsigned)v & (0xffu << (8 - p->bits)) & 0xffu);
    case PW_AUTOC:
        return pfk_trunc_u8(pfk_clampf(((float)v - p->a[c]) / p->b[c], 0.0f, 255.0f));
    default: return 0; /* equalize builds its tables directly */
    }
}

typedef struct pw_job {
    const pf_image *src;
    pf_image *dst;
    const pw_sample *ps;
    pw_op op;
} pw_job;

static void pw_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const pw_job *j = ctx;
    const pf_image *s = &j->src[i];
    const pf_image *d = &j->dst[i];
    const pw_sample *p = &j->ps[i];
    int planes = s->layout == PF_CHW ? s->channels : 1;
    int cn = s->layout == PF_CHW ? 1 : s->channels;
    int32_t n = s->width * cn;
    for (int32_t y = y0; y < y1; y++)
        for (int pl = 0; pl < planes; pl++) {
            const float *sr = pfi_row_ptr(s, pl, y);
            float *dr = pfi_row_ptr(d, pl, y);
            for (int32_t x = 0; x < n; x++) dr[x] = pw_apply(j->op, p, planes > 1 ? pl : x % cn, sr[x]);
        }
}

/* Per-sample statistics for autocontrast (min/max) and equalize
 * (histograms): one task per sample. */
typedef struct stat_job {
    const pf_image *src;
    float *minmax;     /* count x 8: min[4], max[4] */
    uint32_t *hist;    /* count x 4 x 256 */
} stat_job;

static void stat_sample(void *ctx, int i, int32_t y0, int32_t y1) {
    (void)y0;
    (void)y1;
    const stat_job *j = ctx;
    const pf_image *s = &j->src[i];
    int C = s->channels;
    int planes = s->layout == PF_CHW ? C : 1;
    int cn = s->layout == PF_CHW ? 1 : C;
    int32_t n = s->width * cn;
    float *mm = j->minmax ? j->minmax + (size_t)i * 8 : NULL;
    uint32_t *h = j->hist ? j->hist + (size_t)i * 1024 : NULL;
    if (mm)
        for (int c = 0; c < 4; c++) {
            mm[c] = INFINITY;
            mm[4 + c] = -INFINITY;
        }
    if (h) memset(h, 0, 1024 * sizeof *h);
    if (h && !mm && s->dtype == PF_U8) { /* the common case: a tight loop */
        for (int32_t y = 0; y < s->height; y++)
            for (int pl = 0; pl < planes; pl++) {
                const uint8_t *row = pfi_row_ptr(s, pl, y);
                uint32_t *hp = h + (planes > 1 ? pl * 256 : 0);
                if (cn == 3)
                    for (int32_t x = 0; x < n; x += 3) {
                        hp[row[x]]++;
                        hp[256 + row[x + 1]]++;
                        hp[512 + row[x + 2]]++;
                    }
                else
                    for (int32_t x = 0; x < n; x++) hp[(x % cn) * 256 + row[x]]++;
            }
        return;
    }
    for (int32_t y = 0; y < s->height; y++)
        for (int pl = 0; pl < planes; pl++) {
            const void *row = pfi_row_ptr(s, pl, y);
            for (int32_t x = 0; x < n; x++) {
                int c = planes > 1 ? pl : x % cn;
                float v = s->dtype == PF_U8 ? (float)((const uint8_t *)row)[x] : ((const float *)row)[x];
                if (mm) {
                    if (v < mm[c]) mm[c] = v;
                    if (v > mm[4 + c]) mm[4 + c] = v;
                }
                if (h) {
                    uint8_t q = s->dtype == PF_U8 ? ((const uint8_t *)row)[x] : pfk_unit_to_u8(v);
                    h[c * 256 + q]++;
                }
            }
        }
}

static pf_status run_stats(pf_stream *stream, int count, const pf_image src[], float *mm, uint32_t *hist) {
    int32_t *ones = malloc((size_t)(unsigned)count * sizeof *ones);
    if (ones == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "photometric: out of memory for %d samples", count);
    for (int i = 0; i < count; i++) ones[i] = 1;
    stat_job j = {src, mm, hist};
    pfi_run_rows(stream, count, ones, NULL, 1, stat_sample, &j);
    free(ones);
    return PF_OK;
}

/* torchvision equalize on one channel's histogram (PIL's rule). */
static void equalize_table(const uint32_t *hist, uint8_t *lut) {
    uint64_t total = 0, cum[256];
    int last = 0;
    for (int v = 0; v < 256; v++) {
        total += hist[v];
        cum[v] = total;
        if (hist[v]) last = v; /* argmax of cum = last non-empty bin */
    }
    uint64_t step = (total - hist[last]) / 255;
    if (step == 0) {
        for (int v = 0; v < 256; v++) lut[v] = (uint8_t)v;
        return;
    }
    lut[0] = 0;
    for (int v = 1; v < 256; v++) {
        uint64_t q = (cum[v - 1] + step / 2) / step;
        lut[v] = (uint8_t)(q > 255 ? 255 : q);
    }
}

/* Builds the per-sample constants (and, for u8, the tables), then runs. */
static pf_status run_pw(const char *op_name, pw_op op, pf_stream *stream, int count,
                        const pf_image src[], pf_image dst[], pw_sample *ps) {
    int per_channel = op == PW_AUTOC || op == PW_EQ;
    float *mm = NULL;
    uint32_t *hist = NULL;
    uint8_t *tab = NULL;
    float *eqf = NULL;
    pf_status st = PF_OK;
    if (per_channel) {
        mm = op == PW_AUTOC ? malloc((size_t)(unsigned)count * 8 * sizeof *mm) : NULL;
        hist = op == PW_EQ ? malloc((size_t)(unsigned)count * 1024 * sizeof *hist) : NULL;
        if ((op == PW_AUTOC && !mm) || (op == PW_EQ && !hist)) goto oom;
        if ((st = run_stats(stream, count, src, mm, hist)) != PF_OK) goto done;
    }
    tab = malloc((size_t)(unsigned)count * PFI_PHOTO_TAB_STRIDE);
    if (op == PW_EQ) eqf = malloc((size_t)(unsigned)count * 1024 * sizeof *eqf);
    if (!tab || (op == PW_EQ && !eqf)) goto oom;
    int any_f32 = 0;
    for (int i = 0; i < count; i++) {
        pw_sample *p = &ps[i];
        uint8_t *t = tab + (size_t)i * (per_channel ? PFI_PHOTO_TAB_STRIDE : 256);
        int u8 = src[i].dtype == PF_U8;
        any_f32 |= !u8;
        int C = per_channel ? src[i].channels : 1;
        for (int c = 0; c < C; c++) {
            if (op == PW_AUTOC) {
                float mn = mm[i * 8 + c], mx = mm[i * 8 + 4 + c];
                float bound = u8 ? 255.0f : 1.0f;
                int eq = mx == mn;
                p->a[c] = eq ? 0.0f : mn;
                p->b[c] = eq ? 1.0f : (mx - mn) * (float)(1.0 / (double)bound);
            }
            if (op == PW_EQ) {
                equalize_table(hist + (size_t)i * 1024 + c * 256, t + c * 256);
                p->eq = eqf + (size_t)i * 1024;
                for (int v = 0; v < 256; v++) eqf[(size_t)i * 1024 + (size_t)c * 256 + (size_t)v] =
                    pfk_u8_to_unit(t[c * 256 + v]);
            } else if (u8) {
                for (int v = 0; v < 256; v++) t[c * 256 + v] = pw_u8(op, p, c, v);
            }
        }
    }
    /* u8 samples through the LUT executor, f32 samples element-wise; a batch may mix. */
    for (int i = 0; i < count && st == PF_OK; i++) {
        int u8 = src[i].dtype == PF_U8;
        int run = 1;
        while (i + run < count && (src[i + run].dtype == PF_U8) == u8) run++;
        if (u8) {
            /* the LUT executor wants per-sample tables contiguous from the first sample */
            st = pfi_photo_lut(op_name, stream, run, src + i,  dst + i,
                               tab + (size_t)i * (per_channel ? PFI_PHOTO_TAB_STRIDE : 256), per_channel);
        } else {
            int32_t *rows = malloc((size_t)(unsigned)run * 2 * sizeof *rows);
            if (!rows) goto oom;
            for (int k = 0; k < run; k++) {
                rows[k] = src[i + k].height;
                rows[run + k] = src[i + k].width * src[i + k].channels;
            }
            pw_job j = {src + i, dst + i, ps + i, op};
            pfi_run_rows(stream, run, rows, rows + run, 1, pw_rows, &j);
            free(rows);
        }
        i += run - 1;
    }
    (void)any_f32;
    goto done;
oom:
    st = pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", op_name, count);
done:
    free(mm);
    free(hist);
    free(tab);
    free(eqf);
    return st;
}

/* Runs op with per-sample constants ps (count entries, freed here). */
static pf_status finish(const char *op, pw_op kind, pf_stream *stream, int count, const pf_image src[],
                        pf_image dst[], pw_sample *ps) {
    pf_status st = run_pw(op, kind, stream, count, src, dst, ps);
    free(ps);
    return st;
}

static pw_sample *samples(const char *op, int count) {
    pw_sample *ps = calloc((size_t)(unsigned)count, sizeof *ps);
    if (ps == NULL) pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", op, count);
    return ps;
}

pf_status pfi_cpu_adjust_brightness(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                                    const double factors[], int n) {
    const char *op = "pf_adjust_brightness";
    pw_sample *ps = samples(op, count);
    if (ps == NULL) return PF_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < count; i++) ps[i].a[0] = (float)factors[pfi_pick(n, i)];
    return finish(op, PW_BRIGHT, stream, count, src, dst, ps);
}

pf_status pfi_cpu_adjust_gamma(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                               const double gammas[], const double gains[], int n) {
    const char *op = "pf_adjust_gamma";
    pw_sample *ps = samples(op, count);
    if (ps == NULL) return PF_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < count; i++) {
        int k = pfi_pick(n, i);
        ps[i].gamma = gammas[k];
        ps[i].use_gain = gains != NULL && gains[k] != 1.0;
        ps[i].a[1] = gains ? (float)gains[k] : 1.0f;
    }
    return finish(op, PW_GAMMA, stream, count, src, dst, ps);
}

pf_status pfi_cpu_solarize(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                           const double thresholds[], int n) {
    const char *op = "pf_solarize";
    pw_sample *ps = samples(op, count);
    if (ps == NULL) return PF_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < count; i++) ps[i].a[0] = (float)thresholds[pfi_pick(n, i)];
    return finish(op, PW_SOLAR, stream, count, src, dst, ps);
}

pf_status pfi_cpu_posterize(pf_stream *stream, int count, const pf_image src[], pf_image dst[], const int bits[],
                            int n) {
    const char *op = "pf_posterize";
    pw_sample *ps = samples(op, count);
    if (ps == NULL) return PF_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < count; i++) ps[i].bits = bits[pfi_pick(n, i)];
    return finish(op, PW_POSTER, stream, count, src, dst, ps);
}

pf_status pfi_cpu_autocontrast(pf_stream *stream, int count, const pf_image src[], pf_image dst[]) {
    pw_sample *ps = samples("pf_autocontrast", count);
    if (ps == NULL) return PF_ERR_OUT_OF_MEMORY;
    return finish("pf_autocontrast", PW_AUTOC, stream, count, src, dst, ps);
}

pf_status pfi_cpu_equalize(pf_stream *stream, int count, const pf_image src[], pf_image dst[]) {
    pw_sample *ps = samples("pf_equalize", count);
    if (ps == NULL) return PF_ERR_OUT_OF_MEMORY;
    return finish("pf_equalize", PW_EQ, stream, count, src, dst, ps);
}
