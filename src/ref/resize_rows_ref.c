/* Scalar reference row kernels for resize: the arithmetic specification.
 * Operation order matters for float results and is documented per kernel. */
#include <string.h>

#include "kernels/resize_math.h"
#include "ref/resize_rows.h"

/* --------------------------------------------------------- horizontal */

/* int32 sums of u8 x int16 weights; weights packed in pairs (see header). */
int pfi_rz_h_u8_i32_ref(const pfi_hrow *r, int x0, int x1) {
    int32_t *d = r->buf;
    for (int e = x0; e < x1; e++) d[e] = pfi_rz_u8_pair_sum(r, e);
    return x1;
}

/* LINEAR: one tap pair, the sum pre-shifted by 4 and kept as int16. */
int pfi_rz_h_u8_lin16_ref(const pfi_hrow *r, int x0, int x1) {
    const uint8_t *s = r->src;
    int16_t *d = r->buf;
    const int32_t *cw = r->e_coef;
    size_t W = (size_t)r->width;
    for (int e = x0; e < x1; e++) {
        int32_t c = cw[e];
        int16_t a0 = (int16_t)(c & 0xffff), a1 = (int16_t)((uint32_t)c >> 16);
        int32_t sum = s[r->e_off[e]] * a0 + s[r->e_off[W + (size_t)e]] * a1;
        d[e] = (int16_t)(sum >> 4);
    }
    return x1;
}

/* float sums, taps left to right: ((s0*c0 + s1*c1) + s2*c2) + ... */
#define PFK_H_F32_REF(NAME, T)                                                  \
    int NAME(const pfi_hrow *r, int x0, int x1) {                               \
        const T *s = r->src;                                                    \
        float *d = r->buf;                                                      \
        const float *c = r->e_coef;                                             \
        const int32_t *off = r->e_off;                                          \
        size_t W = (size_t)r->width;                                            \
        for (int e = x0; e < x1; e++) {                                         \
            float v = (float)s[off[e]] * c[e];                                  \
            for (int k = 1; k < r->ksize; k++)                                  \
                v = v + (float)s[off[(size_t)k * W + (size_t)e]] * c[(size_t)k * W + (size_t)e]; \
            d[e] = v;                                                           \
        }                                                                       \
        return x1;                                                              \
    }
PFK_H_F32_REF(pfi_rz_h_f32_u8_ref, uint8_t)
PFK_H_F32_REF(pfi_rz_h_f32_u16_ref, uint16_t)
PFK_H_F32_REF(pfi_rz_h_f32_f32_ref, float)

/* Pillow 8-bit horizontal pass: 22-bit weights, rounding half preloaded. */
int pfi_rz_h_aa_u8_ref(const pfi_hrow *r, int x0, int x1) {
    const uint8_t *s = r->src;
    uint8_t *d = r->buf;
    const int32_t *c = r->e_coef;
    size_t W = (size_t)r->width;
    for (int e = x0; e < x1; e++) {
        int32_t ss = 1 << (PFK_AA_BITS - 1);
        for (int k = 0; k < r->ksize; k++)
            ss += s[r->e_off[(size_t)k * W + (size_t)e]] * c[(size_t)k * W + (size_t)e];
        d[e] = pfk_aa_clip8(ss);
    }
    return x1;
}

/* ----------------------------------------------------------- vertical */

int pfi_rz_v_u8_linear_ref(const pfi_vrow *r, int x0, int x1) {
    const int16_t *s0 = r->rows[0], *s1 = r->rows[1];
    uint8_t *d = r->dst;
    for (int x = x0; x < x1; x++) d[x] = pfk_v_u8_linear16(s0[x], s1[x], r->icoef[0], r->icoef[1]);
    return x1;
}

static uint8_t fix22_at(const pfi_vrow *r, int x) {
    int32_t sum = 0;
    for (int k = 0; k < r->ksize; k++) sum += ((const int32_t *)r->rows[k])[x] * r->icoef[k];
    return pfk_v_u8_fix22(sum);
}

int pfi_rz_v_u8_fix22_ref(const pfi_vrow *r, int x0, int x1) {
    uint8_t *d = r->dst;
    for (int x = x0; x < x1; x++) d[x] = fix22_at(r, x);
    return x1;
}

/* OpenCV's u8 cubic: float lanes on [0, vsplit), fixed point after. */
int pfi_rz_v_u8_cubic_ref(const pfi_vrow *r, int x0, int x1) {
    const int32_t *s0 = r->rows[0], *s1 = r->rows[1], *s2 = r->rows[2], *s3 = r->rows[3];
    const float *b = r->fcoef;
    uint8_t *d = r->dst;
    for (int x = x0; x < x1; x++)
        d[x] = x < r->vsplit ? pfk_v_u8_cubic_float(s0[x], s1[x], s2[x], s3[x], b[0], b[1], b[2], b[3])
                             : fix22_at(r, x);
    return x1;
}

/* Float rows: nested (last tap first) on [0, vsplit), left to right after. */
static float vf_at(const pfi_vrow *r, int x) {
    const float *const *rows = (const float *const *)r->rows;
    const float *b = r->fcoef;
    int k = r->ksize;
    float v;
    if (x < r->vsplit) {
        v = rows[k - 1][x] * b[k - 1];
        for (int j = k - 2; j >= 0; j--) v = rows[j][x] * b[j] + v;
    } else {
        v = rows[0][x] * b[0];
        for (int j = 1; j < k; j++) v = v + rows[j][x] * b[j];
    }
    return v;
}

int pfi_rz_v_f32_u8_ref(const pfi_vrow *r, int x0, int x1) {
    uint8_t *d = r->dst;
    for (int x = x0; x < x1; x++) d[x] = pfk_sat_u8_f(vf_at(r, x));
    return x1;
}
int pfi_rz_v_f32_u16_ref(const pfi_vrow *r, int x0, int x1) {
    uint16_t *d = r->dst;
    for (int x = x0; x < x1; x++) d[x] = pfk_sat_u16_f(vf_at(r, x));
    return x1;
}
int pfi_rz_v_f32_f32_ref(const pfi_vrow *r, int x0, int x1) {
    float *d = r->dst;
    for (int x = x0; x < x1; x++) d[x] = vf_at(r, x);
    return x1;
}

int pfi_rz_v_aa_u8_ref(const pfi_vrow *r, int x0, int x1) {
    uint8_t *d = r->dst;
    for (int x = x0; x < x1; x++) {
        int32_t ss = 1 << (PFK_AA_BITS - 1);
        for (int k = 0; k < r->ksize; k++) ss += ((const uint8_t *)r->rows[k])[x] * r->acoef[k];
        d[x] = pfk_aa_clip8(ss);
    }
    return x1;
}

/* ------------------------------------------------ whole-row kernels */

int pfi_rz_nn_u8_ref(const pfi_nnrow *r, int x0, int x1) {
    size_t cn = (size_t)r->cn;
    for (int x = x0; x < x1; x++) memcpy(r->dst + (size_t)x * cn, r->src + (size_t)r->nn_x[x] * cn, cn);
    return x1;
}

void pfi_rz_nn_row(const pfi_resize_plan *p, const void *src_row, void *dst_row, size_t pix) {
    const uint8_t *s = src_row;
    uint8_t *d = dst_row;
    for (int x = 0; x < p->dw; x++) memcpy(d + (size_t)x * pix, s + (size_t)p->nn_x[x] * pix, pix);
}

/* OpenCV resizeAreaFast for one output row. src_rows[0..afy) are the
 * source rows of this band, rows_avail of them inside the image. */
#define PFI_AREA_FAST(T, WT, SAT, FAST2, K2)                                                                 \
    do {                                                                                          \
        const T *const *S = (const T *const *)src_rows;                                           \
        T *D = dst_row;                                                                           \
        int cn = p->cn, fx = p->afx, fy = p->afy, area = fx * fy;                                 \
        float scale = 1.f / (float)area;                                                          \
        int sw = p->sw * cn, dw = p->dw * cn;                                                     \
        int w = rows_avail == fy ? (p->sw / fx) * cn : 0;                                         \
        int fast2 = fx == 2 && fy == 2 && (cn == 1 || cn == 3 || cn == 4) && !is_f32;             \
        int dx = 0;                                                                               \
        if (fast2) dx = FAST2(p, S, D, w, K2);                                                     \
        for (; dx < w; dx++) {                                                                    \
            int i = (dx / cn) * fx * cn + dx % cn;                                                \
            if (is_f32 && dx < p->vsplit) { /* OpenCV SIMD lanes: pairwise */                     \
                float v = ((float)S[0][i] + (float)S[0][i + cn]) + ((float)S[1][i] + (float)S[1][i + cn]); \
                D[dx] = (T)(v * 0.25f);                                                           \
                continue;                                                                         \
            }                                                                                     \
            WT sum = 0;                                                                           \
            int k = 0;                                                                            \
            /* OpenCV unrolls by 4: sum += ((a + b) + c) + d */                                   \
            for (; k <= area - 4; k += 4) {                                                       \
                WT q = (WT)S[k / fx][i + (k % fx) * cn];                                          \
                q = q + (WT)S[(k + 1) / fx][i + ((k + 1) % fx) * cn];                             \
                q = q + (WT)S[(k + 2) / fx][i + ((k + 2) % fx) * cn];                             \
                q = q + (WT)S[(k + 3) / fx][i + ((k + 3) % fx) * cn];                             \
                sum = sum + q;                                                                    \
            }                                                                                     \
            for (; k < area; k++) sum = sum + (WT)S[k / fx][i + (k % fx) * cn];                  \
            D[dx] = SAT((float)sum * scale);                                                      \
        }                                                                                         \
        for (; dx < dw; dx++) { /* partial cells at the right/bottom edge */                      \
            WT sum = 0;                                                                           \
            int count = 0, sx0 = (dx / cn) * fx * cn + dx % cn;                                   \
            for (int sy = 0; sy < fy && sy < rows_avail; sy++)                                    \
                for (int sx = 0; sx < fx * cn && sx0 + sx < sw; sx += cn) {                       \
                    sum = sum + (WT)S[sy][sx0 + sx];                                              \
                    count++;                                                                      \
                }                                                                                 \
            D[dx] = count ? SAT((float)sum / (float)count) : (T)0;                                \
        }                                                                                         \
    } while (0)

static float keep_f32(float v) { return v; }

/* OpenCV's 2x2 integer shortcut: (a + b + c + d + 2) >> 2 over the full
 * cells, output pixels [x0, x1). */
#define PFI_FAST2_BODY(T)                                                        \
    const T *a = r0 + (size_t)x0 * 2 * (size_t)cn, *b = r1 + (size_t)x0 * 2 * (size_t)cn; \
    D += (size_t)x0 * (size_t)cn;                                                \
    for (int x = x0; x < x1; x++, a += 2 * cn, b += 2 * cn, D += cn)             \
        for (int c = 0; c < cn; c++)                                             \
            D[c] = (T)((a[c] + a[c + cn] + b[c] + b[c + cn] + 2) >> 2);          \
    return x1;
int pfi_rz_area2_u8_ref(const uint8_t *r0, const uint8_t *r1, uint8_t *D, int cn, int x0, int x1) {
    PFI_FAST2_BODY(uint8_t)
}
static int area2_u16(const uint16_t *r0, const uint16_t *r1, uint16_t *D, int cn, int x0, int x1) {
    PFI_FAST2_BODY(uint16_t)
}
/* Full cells: the dispatched kernel first, the reference on what it left. */
static int fast2_u8(const pfi_resize_plan *p, const uint8_t *const *S, uint8_t *D, int w, pfi_area2_fn k) {
    int px = w / p->cn;
    int x = k != NULL ? k(S[0], S[1], D, p->cn, 0, px) : 0;
    pfi_rz_area2_u8_ref(S[0], S[1], D, p->cn, x, px);
    return px * p->cn;
}
static int fast2_u16(const pfi_resize_plan *p, const uint16_t *const *S, uint16_t *D, int w, pfi_area2_fn k) {
    (void)k;
    int px = w / p->cn;
    area2_u16(S[0], S[1], D, p->cn, 0, px);
    return px * p->cn;
}
static int fast2_none(const pfi_resize_plan *p, const float *const *S, float *D, int w, pfi_area2_fn k) {
    (void)p; (void)S; (void)D; (void)w; (void)k;
    return 0;
}

void pfi_rz_area_fast_row(const pfi_resize_plan *p, const void *const *src_rows, int rows_avail,
                          void *dst_row, pfi_area2_fn area2) {
    if (rows_avail <= 0) {
        memset(dst_row, 0, (size_t)p->dw * (size_t)p->cn * pf_dtype_size(p->dtype));
        return;
    }
    if (p->dtype == PF_U8) {
        const int is_f32 = 0;
        PFI_AREA_FAST(uint8_t, int32_t, pfk_sat_u8_f, fast2_u8, area2);
    } else if (p->dtype == PF_U16) {
        const int is_f32 = 0;
        PFI_AREA_FAST(uint16_t, float, pfk_sat_u16_f, fast2_u16, area2);
    } else {
        const int is_f32 = 1;
        PFI_AREA_FAST(float, float, keep_f32, fast2_none, area2);
    }
}
