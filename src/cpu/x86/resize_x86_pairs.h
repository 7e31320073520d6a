/* AVX2 helper shared by resize_avx2.c and resize_avx512.c: the antialiased
 * u8 horizontal pass for 3/4 channels, two taps per step. The 16 source
 * bytes at a tap pair are broadcast to both 128-bit halves, a byte shuffle
 * interleaves tap 2j and 2j+1 per channel as 16-bit lanes, and one
 * vpmaddwd against [hi pair x4 | lo pair x4] gives the high- and low-part
 * sums of the 22-bit weights (w = hi * 2048 + lo). The final
 * (hi << 11) + lo + 2^21 is the reference's integer sum, exactly. */
#ifndef PF_CPU_RESIZE_X86_PAIRS_H
#define PF_CPU_RESIZE_X86_PAIRS_H

#include <immintrin.h>

#include "cpu/x86/resize_x86_pixel.h"
#include "kernels/resize_math.h"
#include "ref/resize_rows.h"

static inline int pfi_h_aa_u8_pairs_avx2(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if (r->pair_off == NULL || x0 % cn != 0) return x0;
    const uint8_t *s = r->src;
    uint8_t *d = r->buf;
    const __m256i shuf = cn == 3
        ? _mm256_setr_epi8(0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1,
                           0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1)
        : _mm256_setr_epi8(0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1,
                           0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1);
    const __m128i half = _mm_set1_epi32(1 << (PFK_AA_BITS - 1));
    int dx = x0 / cn, end = r->pair_safe_end;
    int e = x0;
    for (; dx < end && e + 4 <= x1; dx++, e += cn) {
        const uint8_t *px = s + r->pair_off[dx];
        const __m256i *c = (const __m256i *)(const void *)(r->pair_coef + (size_t)dx * (size_t)r->pair_max * 8);
        __m256i acc = _mm256_setzero_si256();
        int n = r->pair_n[dx];
        for (int j = 0; j < n; j++, px += 2 * cn) {
            __m256i v = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)px));
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(v, shuf), _mm256_loadu_si256(c + j)));
        }
        __m128i hi = _mm256_castsi256_si128(acc), lo = _mm256_extracti128_si256(acc, 1);
        __m128i ss = _mm_add_epi32(_mm_add_epi32(_mm_slli_epi32(hi, 11), lo), half);
        ss = _mm_srai_epi32(ss, PFK_AA_BITS);
        int32_t o = _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packs_epi32(ss, ss), ss));
        memcpy(d + e, &o, 4);
    }
    return e;
}

/* LINEAR u8 horizontal, 3/4 channels, two output pixels per AVX2 step:
 * as pfi_h_u8_pair_pixels (resize_x86_pixel.h) with one pixel per 128-bit
 * half, driven by the per-pixel tables (offsets, 4x-replicated weights;
 * adjacency decided once when the tables are built). The int32 and the
 * int16 (LIN16) kernels differ only in how they store the sums, so the
 * step itself is one function. */
static inline __m256i pfi_pair_shuf_avx2(int cn) {
    return cn == 3
        ? _mm256_setr_epi8(0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1,
                           0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1)
        : _mm256_setr_epi8(0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1,
                           0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1);
}
/* Output pixels dx (low half) and dx + 1 (high half): per-channel sums. */
static inline __m256i pfi_pair_step_avx2(const pfi_hrow *r, int dx, __m256i shuf) {
    const uint8_t *s = r->src;
    const int32_t *po = r->pair_off;
    __m128i a = _mm_loadl_epi64((const __m128i *)(const void *)(s + po[dx]));
    __m128i b = _mm_loadl_epi64((const __m128i *)(const void *)(s + po[dx + 1]));
    __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(a), b, 1);
    __m256i w = _mm256_loadu_si256((const __m256i *)(const void *)(r->pair_coef + (size_t)dx * 4));
    return _mm256_madd_epi16(_mm256_shuffle_epi8(v, shuf), w);
}

static inline int pfi_h_u8_pair_pixels_avx2(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if (r->ksize != 2 || r->pair_off == NULL || x0 % cn != 0) return x0;
    int32_t *d = r->buf;
    const __m256i shuf = pfi_pair_shuf_avx2(cn);
    int dx = x0 / cn, end = r->pair_safe_end;
    int e = x0;
    for (; dx + 1 < end && e + cn + 4 <= x1; dx += 2, e += 2 * cn) {
        __m256i t = pfi_pair_step_avx2(r, dx, shuf);
        _mm_storeu_si128((__m128i *)(void *)(d + e), _mm256_castsi256_si128(t));
        _mm_storeu_si128((__m128i *)(void *)(d + e + cn), _mm256_extracti128_si256(t, 1));
    }
    return e;
}

/* As pfi_h_u8_pair_pixels_avx2 for PFK_H_U8_LIN16: sums >> 4 as int16. */
static inline int pfi_h_u8_pair16_pixels_avx2(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if (r->ksize != 2 || r->pair_off == NULL || x0 % cn != 0) return x0;
    int16_t *d = r->buf;
    const __m256i shuf = pfi_pair_shuf_avx2(cn);
    int dx = x0 / cn, end = r->pair_safe_end;
    int e = x0;
    for (; dx + 1 < end && e + cn + 4 <= x1; dx += 2, e += 2 * cn) {
        __m256i t = _mm256_srai_epi32(pfi_pair_step_avx2(r, dx, shuf), 4);
        t = _mm256_packs_epi32(t, t);
        _mm_storel_epi64((__m128i *)(void *)(d + e), _mm256_castsi256_si128(t));
        _mm_storel_epi64((__m128i *)(void *)(d + e + cn), _mm256_extracti128_si256(t, 1));
    }
    return e;
}

/* The per-pixel entry points the AVX2 and AVX-512 kernel tables use:
 * AVX2 steps where the tables allow, SSE4.1 single steps after. */
static inline int pfi_x86_aa_pixels(const pfi_hrow *r, int x0, int x1) {
    int e = pfi_h_aa_u8_pairs_avx2(r, x0, x1);
    return e != x0 ? e : pfi_h_aa_u8_pixels(r, x0, x1);
}
static inline int pfi_x86_pair_pixels(const pfi_hrow *r, int x0, int x1) {
    int e = pfi_h_u8_pair_pixels_avx2(r, x0, x1);
    return pfi_h_u8_pair_pixels(r, e, x1);
}
static inline int pfi_x86_pair16_pixels(const pfi_hrow *r, int x0, int x1) {
    int e = pfi_h_u8_pair16_pixels_avx2(r, x0, x1);
    return pfi_h_u8_pair16_pixels(r, e, x1);
}

#endif
