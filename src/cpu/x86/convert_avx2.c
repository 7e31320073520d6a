/*
 * Conversion kernels for AVX2 + FMA + F16C (every AVX2 CPU has the last
 * two; the fill function checks anyway). Each handles a multiple of
 * PFI_CVT_BLOCK pixels and computes exactly what the reference computes:
 *  - convertTo's scaled path is fmaf(x, alpha, beta): vfmadd is the same
 *    single rounding;
 *  - float -> u8 is cvtps2dq (round half even, INT_MIN when out of range)
 *    then saturating packs, i.e. pfk_cvround_f + saturation;
 *  - f16 narrowing is vcvtps2ph with round-to-nearest-even;
 *  - mean/std is (x * scale + 0 - mean) / std with a true division.
 * u8 rows are (de)interleaved 32 pixels at a time with pshufb (3
 * channels) or pshufb/unpacks and lane permutes (4 channels).
 */
#include <immintrin.h>

#include "cpu/convert_exec.h"

static void u8_f32(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) {
    const uint8_t *s = r->src[0];
    float *d = r->dst[0];
    __m256 a = _mm256_set1_ps(x->alpha), b = _mm256_set1_ps(x->beta);
    for (int32_t j = 0; j < n; j += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + j));
        __m256 lo = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(v));
        __m256 hi = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(v, 8)));
        if (!x->noscale) {
            lo = _mm256_fmadd_ps(lo, a, b);
            hi = _mm256_fmadd_ps(hi, a, b);
        }
        _mm256_storeu_ps(d + j, lo);
        _mm256_storeu_ps(d + j + 8, hi);
    }
}

static void f32_u8(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) {
    const float *s = r->src[0];
    uint8_t *d = r->dst[0];
    __m256 a = _mm256_set1_ps(x->alpha), b = _mm256_set1_ps(x->beta);
    for (int32_t j = 0; j < n; j += 16) {
        __m256 v0 = _mm256_loadu_ps(s + j), v1 = _mm256_loadu_ps(s + j + 8);
        if (!x->noscale) {
            v0 = _mm256_fmadd_ps(v0, a, b);
            v1 = _mm256_fmadd_ps(v1, a, b);
        }
        /* int32 -> s16 (INT_MIN -> -32768) -> u8, then undo the lane interleave */
        __m256i w = _mm256_packs_epi32(_mm256_cvtps_epi32(v0), _mm256_cvtps_epi32(v1));
        __m128i u = _mm_packus_epi16(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
        _mm_storeu_si128((__m128i *)(void *)(d + j), _mm_shuffle_epi32(u, _MM_SHUFFLE(3, 1, 2, 0)));
    }
}

static void f32_f16(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) {
    const float *s = r->src[0];
    uint16_t *d = r->dst[0];
    __m256 a = _mm256_set1_ps(x->alpha), b = _mm256_set1_ps(x->beta);
    for (int32_t j = 0; j < n; j += 8) {
        __m256 v = _mm256_loadu_ps(s + j);
        if (!x->noscale) v = _mm256_fmadd_ps(v, a, b);
        _mm_storeu_si128((__m128i *)(void *)(d + j), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
    }
}

static void f16_f32(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) {
    const uint16_t *s = r->src[0];
    float *d = r->dst[0];
    __m256 a = _mm256_set1_ps(x->alpha), b = _mm256_set1_ps(x->beta);
    for (int32_t j = 0; j < n; j += 8) {
        __m256 v = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(s + j)));
        if (!x->noscale) v = _mm256_fmadd_ps(v, a, b);
        _mm256_storeu_ps(d + j, v);
    }
}

/* pshufb masks: k_gather[k * 3 + v] picks, from input vector v of 48
 * interleaved bytes, the bytes of channel k (output byte i is input byte
 * 3i + k); k_scatter[v * 3 + k] places plane k's bytes into output vector v. */
static const int8_t k_gather[9][16] = {
    {0, 3, 6, 9, 12, 15, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128},
    {-128, -128, -128, -128, -128, -128, 2, 5, 8, 11, 14, -128, -128, -128, -128, -128},
    {-128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 1, 4, 7, 10, 13},
    {1, 4, 7, 10, 13, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128},
    {-128, -128, -128, -128, -128, 0, 3, 6, 9, 12, 15, -128, -128, -128, -128, -128},
    {-128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 2, 5, 8, 11, 14},
    {2, 5, 8, 11, 14, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128},
    {-128, -128, -128, -128, -128, 1, 4, 7, 10, 13, -128, -128, -128, -128, -128, -128},
    {-128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 0, 3, 6, 9, 12, 15}};
static const int8_t k_scatter[9][16] = {
    {0, -128, -128, 1, -128, -128, 2, -128, -128, 3, -128, -128, 4, -128, -128, 5},
    {-128, 0, -128, -128, 1, -128, -128, 2, -128, -128, 3, -128, -128, 4, -128, -128},
    {-128, -128, 0, -128, -128, 1, -128, -128, 2, -128, -128, 3, -128, -128, 4, -128},
    {-128, -128, 6, -128, -128, 7, -128, -128, 8, -128, -128, 9, -128, -128, 10, -128},
    {5, -128, -128, 6, -128, -128, 7, -128, -128, 8, -128, -128, 9, -128, -128, 10},
    {-128, 5, -128, -128, 6, -128, -128, 7, -128, -128, 8, -128, -128, 9, -128, -128},
    {-128, 11, -128, -128, 12, -128, -128, 13, -128, -128, 14, -128, -128, 15, -128, -128},
    {-128, -128, 11, -128, -128, 12, -128, -128, 13, -128, -128, 14, -128, -128, 15, -128},
    {10, -128, -128, 11, -128, -128, 12, -128, -128, 13, -128, -128, 14, -128, -128, 15}};

typedef struct masks3 {
    __m128i gather[3][3], scatter[3][3];
} masks3;

static void make_masks(masks3 *m) {
    for (int k = 0; k < 3; k++)
        for (int v = 0; v < 3; v++) {
            m->gather[k][v] = _mm_loadu_si128((const __m128i *)(const void *)k_gather[k * 3 + v]);
            m->scatter[v][k] = _mm_loadu_si128((const __m128i *)(const void *)k_scatter[v * 3 + k]);
        }
}

static inline __m128i gather_ch(const masks3 *m, int k, __m128i a, __m128i b, __m128i c) {
    return _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, m->gather[k][0]), _mm_shuffle_epi8(b, m->gather[k][1])),
                        _mm_shuffle_epi8(c, m->gather[k][2]));
}

/* 16 pixels of 3 channels from p; ch[k] = channel k. */
static inline void deinterleave16(const masks3 *m, const uint8_t *p, __m128i ch[3]) {
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p), b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16)),
            c = _mm_loadu_si128((const __m128i *)(const void *)(p + 32));
    for (int k = 0; k < 3; k++) ch[k] = gather_ch(m, k, a, b, c);
}

static inline __m256 norm8(__m128i u8x8, __m256 scale, int scaled, __m256 mean, __m256 stdv) {
    __m256 v = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(u8x8));
    if (scaled) v = _mm256_add_ps(_mm256_mul_ps(v, scale), _mm256_setzero_ps());
    return _mm256_div_ps(_mm256_sub_ps(v, mean), stdv);
}

static void norm_u8c3(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n, int half) {
    masks3 m;
    make_masks(&m);
    const uint8_t *base = (const uint8_t *)r->src[0] - r->sch[0];
    __m256 scale = _mm256_set1_ps(x->scale), mean[3], stdv[3];
    int scaled = x->scale != 1.0f;
    for (int c = 0; c < 3; c++) {
        mean[c] = _mm256_set1_ps(x->mean[c]);
        stdv[c] = _mm256_set1_ps(x->stdv[c]);
    }
    for (int32_t j = 0; j < n; j += 16) {
        __m128i ch[3];
        deinterleave16(&m, base + 3 * j, ch);
        for (int c = 0; c < 3; c++) {
            __m128i v = ch[r->sch[c]];
            __m256 lo = norm8(v, scale, scaled, mean[c], stdv[c]);
            __m256 hi = norm8(_mm_srli_si128(v, 8), scale, scaled, mean[c], stdv[c]);
            if (half) {
                uint16_t *d = (uint16_t *)r->dst[c] + j;
                _mm_storeu_si128((__m128i *)(void *)d, _mm256_cvtps_ph(lo, _MM_FROUND_TO_NEAREST_INT));
                _mm_storeu_si128((__m128i *)(void *)(d + 8), _mm256_cvtps_ph(hi, _MM_FROUND_TO_NEAREST_INT));
            } else {
                float *d = (float *)r->dst[c] + j;
                _mm256_storeu_ps(d, lo);
                _mm256_storeu_ps(d + 8, hi);
            }
        }
    }
}

static void norm_u8c3_f32(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) { norm_u8c3(r, x, n, 0); }
static void norm_u8c3_f16(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) { norm_u8c3(r, x, n, 1); }

/* 32 pixels with 256-bit pshufb: pshufb works within 128-bit lanes, so
 * lane 0 holds 16-byte chunks 0, 1, 2 of the 96 interleaved bytes and lane
 * 1 chunks 3, 4, 5; the per-lane gather then leaves pixels 0..15 of a
 * channel in lane 0 and 16..31 in lane 1, i.e. 32 plane bytes in order. */
static inline __m256i load2(const uint8_t *lo, const uint8_t *hi) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)lo)),
                                   _mm_loadu_si128((const __m128i *)(const void *)hi), 1);
}

static inline __m256i bcast(__m128i m) { return _mm256_broadcastsi128_si256(m); }

static void hwc_chw_u8c3(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) {
    (void)x;
    masks3 m;
    make_masks(&m);
    __m256i g[3][3];
    for (int k = 0; k < 3; k++)
        for (int v = 0; v < 3; v++) g[k][v] = bcast(m.gather[k][v]);
    const uint8_t *base = (const uint8_t *)r->src[0] - r->sch[0];
    int32_t j = 0;
    for (; j + 32 <= n; j += 32) {
        const uint8_t *p = base + 3 * (ptrdiff_t)j;
        __m256i a = load2(p, p + 48), b = load2(p + 16, p + 64), c = load2(p + 32, p + 80);
        for (int o = 0; o < 3; o++) {
            int k = r->sch[o];
            __m256i v = _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(a, g[k][0]), _mm256_shuffle_epi8(b, g[k][1])),
                                        _mm256_shuffle_epi8(c, g[k][2]));
            _mm256_storeu_si256((__m256i *)(void *)((uint8_t *)r->dst[o] + j), v);
        }
    }
    for (; j < n; j += 16) {
        __m128i ch[3];
        deinterleave16(&m, base + 3 * j, ch);
        for (int c = 0; c < 3; c++) _mm_storeu_si128((__m128i *)(void *)((uint8_t *)r->dst[c] + j), ch[r->sch[c]]);
    }
}

static void chw_hwc_u8c3(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) {
    (void)x;
    masks3 m;
    make_masks(&m);
    __m256i sc[3][3];
    for (int v = 0; v < 3; v++)
        for (int k = 0; k < 3; k++) sc[v][k] = bcast(m.scatter[v][k]);
    uint8_t *d = r->dst[0];
    const uint8_t *s0 = r->src[0], *s1 = r->src[1], *s2 = r->src[2];
    int32_t j = 0;
    for (; j + 32 <= n; j += 32) { /* lane 0: pixels j..j+15, lane 1: j+16..j+31 */
        __m256i p0 = _mm256_loadu_si256((const __m256i *)(const void *)(s0 + j)),
                p1 = _mm256_loadu_si256((const __m256i *)(const void *)(s1 + j)),
                p2 = _mm256_loadu_si256((const __m256i *)(const void *)(s2 + j));
        uint8_t *o = d + 3 * (ptrdiff_t)j;
        for (int v = 0; v < 3; v++) {
            __m256i t = _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(p0, sc[v][0]), _mm256_shuffle_epi8(p1, sc[v][1])),
                                        _mm256_shuffle_epi8(p2, sc[v][2]));
            _mm_storeu_si128((__m128i *)(void *)(o + 16 * v), _mm256_castsi256_si128(t));
            _mm_storeu_si128((__m128i *)(void *)(o + 48 + 16 * v), _mm256_extracti128_si256(t, 1));
        }
    }
    for (; j < n; j += 16) {
        __m128i p[3];
        for (int c = 0; c < 3; c++) p[c] = _mm_loadu_si128((const __m128i *)(const void *)((const uint8_t *)r->src[c] + j));
        for (int v = 0; v < 3; v++) {
            __m128i o = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(p[0], m.scatter[v][0]),
                                                  _mm_shuffle_epi8(p[1], m.scatter[v][1])),
                                     _mm_shuffle_epi8(p[2], m.scatter[v][2]));
            _mm_storeu_si128((__m128i *)(void *)(d + 3 * j + 16 * v), o);
        }
    }
}

/* 4 channels, 32 pixels (128 bytes) per step. Split: pshufb groups each
 * lane's 4 pixels by channel (one dword per channel), vpermd makes qword k
 * channel k of the vector's 8 pixels, then a 4x4 qword transpose
 * (unpack + permute2x128) gathers channel k of all 32 pixels. Merge: the
 * inverse with unpacks of bytes then words, and lane permutes. */
static void hwc_chw_u8c4(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) {
    (void)x;
    const __m256i group = _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 0, 4, 8, 12, 1, 5,
                                           9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    const __m256i lanes = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const uint8_t *base = (const uint8_t *)r->src[0] - r->sch[0];
    for (int32_t j = 0; j < n; j += 32) {
        const uint8_t *p = base + 4 * (ptrdiff_t)j;
        __m256i v[4], ch[4];
        int32_t vectors = n - j >= 32 ? 4 : 2; /* 16-pixel remainder: two vectors */
        for (int k = 0; k < 4; k++)
            v[k] = k < vectors ? _mm256_permutevar8x32_epi32(
                                     _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(p + 32 * k)), group), lanes)
                               : _mm256_setzero_si256();
        __m256i t0 = _mm256_unpacklo_epi64(v[0], v[1]), t1 = _mm256_unpackhi_epi64(v[0], v[1]);
        __m256i t2 = _mm256_unpacklo_epi64(v[2], v[3]), t3 = _mm256_unpackhi_epi64(v[2], v[3]);
        ch[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
        ch[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
        ch[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
        ch[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
        for (int c = 0; c < 4; c++) {
            uint8_t *d = (uint8_t *)r->dst[c] + j;
            if (vectors == 4)
                _mm256_storeu_si256((__m256i *)(void *)d, ch[r->sch[c]]);
            else
                _mm_storeu_si128((__m128i *)(void *)d, _mm256_castsi256_si128(ch[r->sch[c]]));
        }
    }
}

static void chw_hwc_u8c4(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n) {
    (void)x;
    const uint8_t *s[4] = {r->src[0], r->src[1], r->src[2], r->src[3]};
    uint8_t *d = r->dst[0];
    int32_t j = 0;
    for (; j + 32 <= n; j += 32) {
        __m256i p[4];
        for (int c = 0; c < 4; c++) p[c] = _mm256_loadu_si256((const __m256i *)(const void *)(s[c] + j));
        __m256i lo01 = _mm256_unpacklo_epi8(p[0], p[1]), hi01 = _mm256_unpackhi_epi8(p[0], p[1]);
        __m256i lo23 = _mm256_unpacklo_epi8(p[2], p[3]), hi23 = _mm256_unpackhi_epi8(p[2], p[3]);
        /* A: pixels 0-3 | 16-19, B: 4-7 | 20-23, C: 8-11 | 24-27, D: 12-15 | 28-31 */
        __m256i a = _mm256_unpacklo_epi16(lo01, lo23), b = _mm256_unpackhi_epi16(lo01, lo23);
        __m256i c = _mm256_unpacklo_epi16(hi01, hi23), e = _mm256_unpackhi_epi16(hi01, hi23);
        __m256i *o = (__m256i *)(void *)(d + 4 * (ptrdiff_t)j);
        _mm256_storeu_si256(o, _mm256_permute2x128_si256(a, b, 0x20));
        _mm256_storeu_si256(o + 1, _mm256_permute2x128_si256(c, e, 0x20));
        _mm256_storeu_si256(o + 2, _mm256_permute2x128_si256(a, b, 0x31));
        _mm256_storeu_si256(o + 3, _mm256_permute2x128_si256(c, e, 0x31));
    }
    for (; j < n; j += 16) {
        __m128i p[4];
        for (int c = 0; c < 4; c++) p[c] = _mm_loadu_si128((const __m128i *)(const void *)(s[c] + j));
        __m128i lo01 = _mm_unpacklo_epi8(p[0], p[1]), hi01 = _mm_unpackhi_epi8(p[0], p[1]);
        __m128i lo23 = _mm_unpacklo_epi8(p[2], p[3]), hi23 = _mm_unpackhi_epi8(p[2], p[3]);
        __m128i *o = (__m128i *)(void *)(d + 4 * (ptrdiff_t)j);
        _mm_storeu_si128(o, _mm_unpacklo_epi16(lo01, lo23));
        _mm_storeu_si128(o + 1, _mm_unpackhi_epi16(lo01, lo23));
        _mm_storeu_si128(o + 2, _mm_unpacklo_epi16(hi01, hi23));
        _mm_storeu_si128(o + 3, _mm_unpackhi_epi16(hi01, hi23));
    }
}

void pfi_convert_fill_avx2(pfi_convert_kernels *k) {
    /* FMA and F16C are part of the AVX2 level (pfi_isa_best) */
    k->row[PFI_CVT_U8_F32] = u8_f32;
    k->row[PFI_CVT_F32_U8] = f32_u8;
    k->row[PFI_CVT_F32_F16] = f32_f16;
    k->row[PFI_CVT_F16_F32] = f16_f32;
    k->row[PFI_NORM_U8C3_F16_CHW] = norm_u8c3_f16;
    k->row[PFI_NORM_U8C3_F32_CHW] = norm_u8c3_f32;
    k->row[PFI_FMT_U8C3_HWC_CHW] = hwc_chw_u8c3;
    k->row[PFI_FMT_U8C3_CHW_HWC] = chw_hwc_u8c3;
    k->row[PFI_FMT_U8C4_HWC_CHW] = hwc_chw_u8c4;
    k->row[PFI_FMT_U8C4_CHW_HWC] = chw_hwc_u8c4;
}
