/* Scalar filter row kernels: the specification the SIMD kernels are
 * checked against (see filter_rows.h for each contract). */
#include <stdlib.h>
#include <string.h>

#include "ref/filter_rows.h"

int32_t pfi_hsum_u8_ref(const uint8_t *pad, uint16_t *out, const uint16_t *k, int32_t taps, int32_t step,
                        int32_t x0, int32_t n) {
    for (int32_t i = x0; i < n; i++) {
        uint32_t acc = 0;
        for (int32_t j = 0; j < taps; j++) acc += (uint32_t)k[j] * pad[i + j * step];
        out[i] = (uint16_t)acc;
    }
    return n;
}

int32_t pfi_vgauss_u8_ref(const uint16_t *const *rows, const uint16_t *k, int32_t taps, uint8_t *out, int32_t x0,
                          int32_t n) {
    for (int32_t i = x0; i < n; i++) {
        uint32_t acc = 0;
        for (int32_t j = 0; j < taps; j++) acc += (uint32_t)k[j] * rows[j][i];
        out[i] = pfk_gauss_q16_to_u8(acc);
    }
    return n;
}

int32_t pfi_vgauss16_u8_ref(const uint16_t *const *rows, const uint16_t *k, int32_t taps, int32_t shift,
                            uint8_t *out, int32_t x0, int32_t n) {
    uint32_t rnd = shift > 0 ? 1u << (shift - 1) : 0;
    for (int32_t i = x0; i < n; i++) {
        uint32_t acc = 0;
        for (int32_t j = 0; j < taps; j++) acc += (uint32_t)k[j] * rows[j][i];
        acc = (acc + rnd) >> shift;
        out[i] = (uint8_t)(acc > 255 ? 255 : acc);
    }
    return n;
}

int32_t pfi_vbox_u8_ref(const uint16_t *const *rows, int32_t taps, pfk_box_div d, uint8_t *out, int32_t x0,
                        int32_t n) {
    for (int32_t i = x0; i < n; i++) {
        uint32_t acc = 0;
        for (int32_t j = 0; j < taps; j++) acc += rows[j][i];
        out[i] = pfk_box_div_u8(acc, d);
    }
    return n;
}

#define MORPH_ROWS(name, sfx, T, better)                                                           \
    int32_t pfi_h##name##_##sfx##_ref(const T *pad, T *out, int32_t taps, int32_t step, int32_t x0,     \
                                      int32_t n) {                                                      \
        for (int32_t i = x0; i < n; i++) {                                                              \
            T v = pad[i];                                                                               \
            for (int32_t j = 1; j < taps; j++) {                                                        \
                T w = pad[i + j * step];                                                                \
                if (w better v) v = w;                                                                  \
            }                                                                                           \
            out[i] = v;                                                                                 \
        }                                                                                               \
        return n;                                                                                       \
    }                                                                                                   \
    int32_t pfi_v##name##_##sfx##_ref(const T *const *rows, int32_t taps, T *out, int32_t x0, int32_t n) { \
        for (int32_t i = x0; i < n; i++) {                                                              \
            T v = rows[0][i];                                                                           \
            for (int32_t j = 1; j < taps; j++)                                                          \
                if (rows[j][i] better v) v = rows[j][i];                                                \
            out[i] = v;                                                                                 \
        }                                                                                               \
        return n;                                                                                       \
    }
MORPH_ROWS(min, u8, uint8_t, <)
MORPH_ROWS(max, u8, uint8_t, >)
MORPH_ROWS(min, u16, uint16_t, <)
MORPH_ROWS(max, u16, uint16_t, >)
MORPH_ROWS(min, f32, float, <)
MORPH_ROWS(max, f32, float, >)

int32_t pfi_hconv_f32_ref(const float *pad, float *out, const float *k, int32_t taps, int32_t step, int32_t x0,
                          int32_t n) {
    for (int32_t i = x0; i < n; i++) {
        float acc = k[0] * pad[i];
        for (int32_t j = 1; j < taps; j++) acc += k[j] * pad[i + j * step];
        out[i] = acc;
    }
    return n;
}

int32_t pfi_vconv_f32_ref(const float *const *rows, const float *k, int32_t taps, float *out, int32_t x0,
                          int32_t n) {
    for (int32_t i = x0; i < n; i++) {
        float acc = k[0] * rows[0][i];
        for (int32_t j = 1; j < taps; j++) acc += k[j] * rows[j][i];
        out[i] = acc;
    }
    return n;
}

int32_t pfi_conv2d_u8_ref(const uint8_t *const *rows, const pfi_taps2d *taps, float delta, uint8_t *out,
                          int32_t x0, int32_t n) {
    for (int32_t i = x0; i < n; i++) {
        float acc = delta;
        for (int32_t t = 0; t < taps->count; t++) acc += taps->w[t] * (float)rows[taps->row[t]][i + taps->off[t]];
        out[i] = pfk_sat_u8_f(acc);
    }
    return n;
}

/* Median through a counting pass: exact for any window of u8. */
static uint8_t median_u8_window(const uint8_t *const *rows, int32_t k, int32_t step, int32_t i) {
    uint16_t hist[256];
    memset(hist, 0, sizeof hist);
    for (int32_t r = 0; r < k; r++)
        for (int32_t j = 0; j < k; j++) hist[rows[r][i + j * step]]++;
    int32_t need = (k * k) / 2 + 1, seen = 0, v = 0;
    for (; v < 255; v++) {
        seen += hist[v];
        if (seen >= need) break;
    }
    return (uint8_t)v;
}

static int32_t median_small_u8(const uint8_t *const *rows, int32_t k, int32_t step, uint8_t *out, int32_t x0,
                               int32_t n) {
    uint8_t w[25];
    for (int32_t i = x0; i < n; i++) {
        int32_t m = 0;
        for (int32_t r = 0; r < k; r++)
            for (int32_t j = 0; j < k; j++) w[m++] = rows[r][i + j * step];
        /* partial selection sort up to the middle element */
        for (int32_t a = 0; a <= m / 2; a++)
            for (int32_t b = a + 1; b < m; b++)
                if (w[b] < w[a]) {
                    uint8_t t = w[a];
                    w[a] = w[b];
                    w[b] = t;
                }
        out[i] = w[m / 2];
    }
    return n;
}

int32_t pfi_median3_u8_ref(const uint8_t *const *rows, int32_t step, uint8_t *out, int32_t x0, int32_t n) {
    return median_small_u8(rows, 3, step, out, x0, n);
}

int32_t pfi_median5_u8_ref(const uint8_t *const *rows, int32_t step, uint8_t *out, int32_t x0, int32_t n) {
    return median_small_u8(rows, 5, step, out, x0, n);
}

int32_t pfi_sharpen_u8_ref(const uint8_t *r0, const uint8_t *r1, const uint8_t *r2, uint8_t *out, int32_t step,
                           float g, int32_t x0, int32_t n) {
    float s = pfk_sharpen_side(), c = pfk_sharpen_centre();
    for (int32_t x = x0; x < n; x++) {
        float acc = (float)r0[x - step] * s;
        acc += (float)r0[x] * s;
        acc += (float)r0[x + step] * s;
        acc += (float)r1[x - step] * s;
        acc += (float)r1[x] * c;
        acc += (float)r1[x + step] * s;
        acc += (float)r2[x - step] * s;
        acc += (float)r2[x] * s;
        acc += (float)r2[x + step] * s;
        float blurred = (float)pfk_sat_u8_f(acc); /* torch.round (half to even), then uint8 */
        out[x] = (uint8_t)pfk_sharpen_blend((float)r1[x], blurred, g, 255.0f); /* .to(uint8) truncates */
    }
    return n;
}

void pfi_hsum_u8_u32_ref(const uint8_t *pad, uint32_t *out, int32_t taps, int32_t step, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        uint32_t acc = 0;
        for (int32_t j = 0; j < taps; j++) acc += pad[i + j * step];
        out[i] = acc;
    }
}

void pfi_vbox_u32_u8_ref(const uint32_t *const *rows, int32_t taps, int32_t area, uint8_t *out, int32_t n) {
    float scale = (float)(1.0 / area);
    for (int32_t i = 0; i < n; i++) {
        uint32_t acc = 0;
        for (int32_t j = 0; j < taps; j++) acc += rows[j][i];
        out[i] = pfk_box_scale_u8(acc, scale);
    }
}

int32_t pfi_hsum_f32_f64_ref(const float *pad, double *out, int32_t taps, int32_t step, int32_t x0, int32_t n) {
    for (int32_t i = x0; i < n; i++) {
        double acc = 0;
        for (int32_t j = 0; j < taps; j++) acc += (double)pad[i + j * step];
        out[i] = acc;
    }
    return n;
}

int32_t pfi_vbox_f64_f32_ref(const double *const *rows, int32_t taps, double scale, float *out, int32_t x0,
                             int32_t n) {
    for (int32_t i = x0; i < n; i++) {
        double acc = 0;
        for (int32_t j = 0; j < taps; j++) acc += rows[j][i];
        out[i] = (float)(acc * scale);
    }
    return n;
}

int32_t pfi_conv2d_f32_ref(const float *const *rows, const pfi_taps2d *taps, float delta, float *out, int32_t x0,
                           int32_t n) {
    for (int32_t i = x0; i < n; i++) {
        float acc = delta;
        for (int32_t t = 0; t < taps->count; t++) acc += taps->w[t] * rows[taps->row[t]][i + taps->off[t]];
        out[i] = acc;
    }
    return n;
}

void pfi_median_u8_ref(const uint8_t *const *rows, int32_t k, int32_t step, uint8_t *out, int32_t n) {
    if (k <= 5) {
        median_small_u8(rows, k, step, out, 0, n);
        return;
    }
    for (int32_t i = 0; i < n; i++) out[i] = median_u8_window(rows, k, step, i);
}

int32_t pfi_hsum_u16_ref(const uint16_t *pad, uint32_t *out, const uint32_t *k, int32_t taps, int32_t step,
                         int32_t x0, int32_t n) {
    for (int32_t i = x0; i < n; i++) {
        uint32_t acc = 0;
        for (int32_t j = 0; j < taps; j++) acc += k[j] * pad[i + j * step];
        out[i] = acc;
    }
    return n;
}

int32_t pfi_vgauss_u16_ref(const uint32_t *const *rows, const uint32_t *k, int32_t taps, uint16_t *out, int32_t x0,
                           int32_t n) {
    for (int32_t i = x0; i < n; i++) {
        uint64_t acc = 0;
        for (int32_t j = 0; j < taps; j++) acc += (uint64_t)k[j] * rows[j][i];
        out[i] = pfk_gauss_q32_to_u16(acc);
    }
    return n;
}

void pfi_hsum1_u16_ref(const uint16_t *pad, uint32_t *out, int32_t taps, int32_t step, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        uint32_t acc = 0;
        for (int32_t j = 0; j < taps; j++) acc += pad[i + j * step];
        out[i] = acc;
    }
}

void pfi_vbox_u16_ref(const uint32_t *const *rows, int32_t taps, int32_t area, uint16_t *out, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        uint64_t acc = 0;
        for (int32_t j = 0; j < taps; j++) acc += rows[j][i];
        out[i] = pfk_box_u16(acc, area);
    }
}

static int cmp_u16(const void *a, const void *b) {
    uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;
    return (x > y) - (x < y);
}

void pfi_median_u16_ref(const uint16_t *const *rows, int32_t k, int32_t step, uint16_t *out, int32_t n) {
    uint16_t w[25];
    for (int32_t i = 0; i < n; i++) {
        int32_t m = 0;
        for (int32_t r = 0; r < k; r++)
            for (int32_t j = 0; j < k; j++) w[m++] = rows[r][i + j * step];
        qsort(w, (size_t)m, sizeof w[0], cmp_u16);
        out[i] = w[m / 2];
    }
}

static int cmp_f32(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

void pfi_median_f32_ref(const float *const *rows, int32_t k, int32_t step, float *out, int32_t n) {
    float w[25];
    for (int32_t i = 0; i < n; i++) {
        int32_t m = 0;
        for (int32_t r = 0; r < k; r++)
            for (int32_t j = 0; j < k; j++) w[m++] = rows[r][i + j * step];
        qsort(w, (size_t)m, sizeof w[0], cmp_f32);
        out[i] = w[m / 2];
    }
}

int32_t pfi_sharpen_f32_ref(const float *r0, const float *r1, const float *r2, float *out, int32_t step, float g,
                            int32_t x0, int32_t n) {
    for (int32_t x = x0; x < n; x++) {
        float blurred = pfk_sharpen_blur_f32(r0, r1, r2, x, step);
        out[x] = pfk_sharpen_blend(r1[x], blurred, g, 1.0f);
    }
    return n;
}
