/*
 * Conversion kernels for AVX-512 (F/BW/VL): 16 f32 lanes per operation.
 * Same arithmetic as the AVX2 kernels and the reference: fused
 * multiply-add for convertTo's scaled path, cvtps2dq + saturation for
 * f32 -> u8 (max with 0 first so INT_MIN and negatives become 0, then the
 * unsigned saturating narrow), a true division for mean/std, vcvtps2ph
 * round-to-nearest-even for f16. Slots not defined here keep AVX2's; the
 * u8 (de)interleaves are in convert_avx512vbmi.c (byte permutes).
 */
#include <immintrin.h>

#include "cpu/convert_exec.h"

/* The convertTo kernels below run 64 elements per step (four independent
 * 16-lane chains keep the FMA and convert ports busy) and then 16 at a
 * time; `noscale` is tested outside the loops. */
static inline __m512 u8x16_f32(const uint8_t *p) {
    return _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)p)));
}

static void u8_f32(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) {
    const uint8_t *s = r->src[0];
    float *d = r->dst[0];
    int32_t j = 0;
    if (x->noscale) {
        for (; j < n; j += 16) _mm512_storeu_ps(d + j, u8x16_f32(s + j));
        return;
    }
    __m512 a = _mm512_set1_ps(x->alpha), b = _mm512_set1_ps(x->beta);
    for (; j + 64 <= n; j += 64)
        for (int k = 0; k < 64; k += 16) _mm512_storeu_ps(d + j + k, _mm512_fmadd_ps(u8x16_f32(s + j + k), a, b));
    for (; j < n; j += 16) _mm512_storeu_ps(d + j, _mm512_fmadd_ps(u8x16_f32(s + j), a, b));
}

/* cvtps2dq (round half even, INT_MIN when out of range), max with 0 so
 * INT_MIN and negatives become 0, then the unsigned saturating narrow. */
static inline __m128i f32x16_u8(__m512 v) {
    return _mm512_cvtusepi32_epi8(_mm512_max_epi32(_mm512_cvtps_epi32(v), _mm512_setzero_si512()));
}

static void f32_u8(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) {
    const float *s = r->src[0];
    uint8_t *d = r->dst[0];
    int32_t j = 0;
    if (x->noscale) {
        for (; j < n; j += 16) _mm_storeu_si128((__m128i *)(void *)(d + j), f32x16_u8(_mm512_loadu_ps(s + j)));
        return;
    }
    __m512 a = _mm512_set1_ps(x->alpha), b = _mm512_set1_ps(x->beta);
    for (; j + 64 <= n; j += 64)
        for (int k = 0; k < 64; k += 16)
            _mm_storeu_si128((__m128i *)(void *)(d + j + k),
                             f32x16_u8(_mm512_fmadd_ps(_mm512_loadu_ps(s + j + k), a, b)));
    for (; j < n; j += 16)
        _mm_storeu_si128((__m128i *)(void *)(d + j), f32x16_u8(_mm512_fmadd_ps(_mm512_loadu_ps(s + j), a, b)));
}

/* f32 <-> f16 with vcvtps2ph / vcvtph2ps on 16 lanes (the same
 * instructions as F16C, so the same bits as the AVX2 kernels). */
static void f32_f16(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) {
    const float *s = r->src[0];
    uint16_t *d = r->dst[0];
    __m512 a = _mm512_set1_ps(x->alpha), b = _mm512_set1_ps(x->beta);
    for (int32_t j = 0; j < n; j += 16) {
        __m512 v = _mm512_loadu_ps(s + j);
        if (!x->noscale) v = _mm512_fmadd_ps(v, a, b);
        _mm256_storeu_si256((__m256i *)(void *)(d + j), _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
    }
}

static void f16_f32(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) {
    const uint16_t *s = r->src[0];
    float *d = r->dst[0];
    __m512 a = _mm512_set1_ps(x->alpha), b = _mm512_set1_ps(x->beta);
    for (int32_t j = 0; j < n; j += 16) {
        __m512 v = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)(s + j)));
        if (!x->noscale) v = _mm512_fmadd_ps(v, a, b);
        _mm512_storeu_ps(d + j, v);
    }
}

/* Channel k of 16 interleaved 3-channel pixels at p (pshufb gather). */
static inline void deinterleave16(__m128i g[3][3], const uint8_t *p, __m128i ch[3]) {
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p), b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16)),
            c = _mm_loadu_si128((const __m128i *)(const void *)(p + 32));
    for (int k = 0; k < 3; k++)
        ch[k] = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, g[k][0]), _mm_shuffle_epi8(b, g[k][1])),
                             _mm_shuffle_epi8(c, g[k][2]));
}

/* pshufb masks (same table as convert_avx2.c): channel k from vector v. */
static void make_gather(__m128i g[3][3]) {
    for (int k = 0; k < 3; k++)
        for (int v = 0; v < 3; v++) {
            int8_t m[16];
            for (int i = 0; i < 16; i++) m[i] = (int8_t)((3 * i + k) / 16 == v ? (3 * i + k) % 16 : -128);
            g[k][v] = _mm_loadu_si128((const __m128i *)(const void *)m);
        }
}

static void norm_u8c3(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n, int half) {
    __m128i g[3][3];
    make_gather(g);
    const uint8_t *base = (const uint8_t *)r->src[0] - r->sch[0];
    __m512 scale = _mm512_set1_ps(x->scale), zero = _mm512_setzero_ps(), mean[3], stdv[3];
    int scaled = x->scale != 1.0f;
    for (int c = 0; c < 3; c++) {
        mean[c] = _mm512_set1_ps(x->mean[c]);
        stdv[c] = _mm512_set1_ps(x->stdv[c]);
    }
    for (int32_t j = 0; j < n; j += 16) {
        __m128i ch[3];
        deinterleave16(g, base + 3 * j, ch);
        for (int c = 0; c < 3; c++) {
            __m512 v = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(ch[r->sch[c]]));
            if (scaled) v = _mm512_add_ps(_mm512_mul_ps(v, scale), zero);
            v = _mm512_div_ps(_mm512_sub_ps(v, mean[c]), stdv[c]);
            if (half)
                _mm256_storeu_si256((__m256i *)(void *)((uint16_t *)r->dst[c] + j),
                                    _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
            else
                _mm512_storeu_ps((float *)r->dst[c] + j, v);
        }
    }
}

static void norm_u8c3_f32(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) { norm_u8c3(r, x, n, 0); }
static void norm_u8c3_f16(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) { norm_u8c3(r, x, n, 1); }

/* Mean/std constants of one call, per dst channel. */
typedef struct norm_k {
    __m512 scale, mean[3], stdv[3];
    int scaled;
} norm_k;

static void norm_k_init(norm_k *k, const pfi_cvt_xform *x) {
    k->scale = _mm512_set1_ps(x->scale);
    k->scaled = x->scale != 1.0f;
    for (int c = 0; c < 3; c++) {
        k->mean[c] = _mm512_set1_ps(x->mean[c]);
        k->stdv[c] = _mm512_set1_ps(x->stdv[c]);
    }
}

/* (v * scale + 0 - mean[c]) / std[c]: pfk_norm_mean_std on 16 lanes. */
static inline __m512 norm16(const norm_k *k, __m512 v, int c) {
    if (k->scaled) v = _mm512_add_ps(_mm512_mul_ps(v, k->scale), _mm512_setzero_ps());
    return _mm512_div_ps(_mm512_sub_ps(v, k->mean[c]), k->stdv[c]);
}

static inline void store16(void *d, __m512 v, int half) {
    if (half)
        _mm256_storeu_si256((__m256i *)d, _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
    else
        _mm512_storeu_ps(d, v);
}

/* Interleave of three 16-lane channel vectors into 48 HWC elements: lane e
 * of output vector o is pixel (16o + e) / 3, channel (16o + e) % 3; one
 * vpermt2ps of channels 0 and 1 (+16 selects channel 1) and a masked
 * vpermps of channel 2. Generated by that formula. */
static const int32_t k_ilv3[3][16] = {{0, 16, 0, 1, 17, 1, 2, 18, 2, 3, 19, 3, 4, 20, 4, 5},
                                      {21, 5, 6, 22, 6, 7, 23, 7, 8, 24, 8, 9, 25, 9, 10, 26},
                                      {10, 11, 27, 11, 12, 28, 12, 13, 29, 13, 14, 30, 14, 15, 31, 15}};
static const __mmask16 k_ilv3_ch2[3] = {0x4924, 0x2492, 0x9249};

/* u8 HWC 3 channels -> f32/f16 HWC: 16 pixels deinterleaved (pshufb),
 * normalized per dst channel, interleaved back with float permutes. */
static void norm_u8c3_hwc(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n, int half) {
    __m128i g[3][3];
    make_gather(g);
    norm_k k;
    norm_k_init(&k, x);
    __m512i idx[3];
    for (int o = 0; o < 3; o++) idx[o] = _mm512_loadu_si512(k_ilv3[o]);
    const uint8_t *base = (const uint8_t *)r->src[0] - r->sch[0];
    size_t esz = half ? 2 : 4;
    char *d = r->dst[0];
    for (int32_t j = 0; j < n; j += 16) {
        __m128i ch[3];
        deinterleave16(g, base + 3 * j, ch);
        __m512 v[3];
        for (int c = 0; c < 3; c++) v[c] = norm16(&k, _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(ch[r->sch[c]])), c);
        for (int o = 0; o < 3; o++) {
            __m512 t = _mm512_permutex2var_ps(v[0], idx[o], v[1]);
            t = _mm512_mask_permutexvar_ps(t, k_ilv3_ch2[o], idx[o], v[2]);
            store16(d + (3 * (size_t)j + 16 * (size_t)o) * esz, t, half);
        }
    }
}

static void norm_u8c3_f32_hwc(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) { norm_u8c3_hwc(r, x, n, 0); }
static void norm_u8c3_f16_hwc(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) { norm_u8c3_hwc(r, x, n, 1); }

/* f32 HWC 3 channels -> f32/f16 planes: channel k of 16 pixels is element
 * 3i + k of the vectors a, b, c: vpermt2ps of a, b (index < 32) and a
 * masked vpermps of c (index >= 32, low 4 bits). */
static void norm_f32c3(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n, int half) {
    norm_k k;
    norm_k_init(&k, x);
    const float *base = (const float *)r->src[0] - r->sch[0];
    __m512i i3 = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                    _mm512_set1_epi32(3)),
            idx[3];
    __mmask16 from_c[3];
    for (int c = 0; c < 3; c++) {
        idx[c] = _mm512_add_epi32(i3, _mm512_set1_epi32(r->sch[c]));
        from_c[c] = _mm512_cmpge_epi32_mask(idx[c], _mm512_set1_epi32(32));
    }
    size_t esz = half ? 2 : 4;
    for (int32_t j = 0; j < n; j += 16) {
        const float *p = base + 3 * (size_t)j;
        __m512 a = _mm512_loadu_ps(p), b = _mm512_loadu_ps(p + 16), cv = _mm512_loadu_ps(p + 32);
        for (int c = 0; c < 3; c++) {
            __m512 v = _mm512_permutex2var_ps(a, idx[c], b);
            v = _mm512_mask_permutexvar_ps(v, from_c[c], idx[c], cv);
            store16((char *)r->dst[c] + (size_t)j * esz, norm16(&k, v, c), half);
        }
    }
}

static void norm_f32c3_f32(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) { norm_f32c3(r, x, n, 0); }
static void norm_f32c3_f16(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) { norm_f32c3(r, x, n, 1); }

void pfi_convert_fill_avx512(pfi_convert_kernels *k) {
    k->row[PFI_CVT_U8_F32] = u8_f32;
    k->row[PFI_CVT_F32_U8] = f32_u8;
    k->row[PFI_NORM_U8C3_F32_CHW] = norm_u8c3_f32;
    k->row[PFI_NORM_U8C3_F16_CHW] = norm_u8c3_f16;
    k->row[PFI_CVT_F32_F16] = f32_f16;
    k->row[PFI_CVT_F16_F32] = f16_f32;
    k->row[PFI_NORM_U8C3_F32_HWC] = norm_u8c3_f32_hwc;
    k->row[PFI_NORM_U8C3_F16_HWC] = norm_u8c3_f16_hwc;
    k->row[PFI_NORM_F32C3_F32_CHW] = norm_f32c3_f32;
    k->row[PFI_NORM_F32C3_F16_CHW] = norm_f32c3_f16;
}
