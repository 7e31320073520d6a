/*
 * AVX-512 (F/BW/VL + FMA + F16C) emit kernels of the fused preprocess:
 * 16 RGB pixels per step are split into channels with pshufb, widened to
 * f32, scaled, centred and divided by std through the reciprocal and one
 * fma correction (exactly pfi_pp_norm_rcp, see preprocess_exec.h), then
 * stored to the three planes as f32 or round-to-nearest-even f16.
 */
#include <immintrin.h>

#include "cpu/preprocess_exec.h"

/* pshufb masks: channel k of 16 pixels from byte vector v (0..2). */
static void make_gather(__m128i g[3][3]) {
    for (int k = 0; k < 3; k++)
        for (int v = 0; v < 3; v++) {
            int8_t m[16];
            for (int i = 0; i < 16; i++) m[i] = (int8_t)((3 * i + k) / 16 == v ? (3 * i + k) % 16 : -128);
            g[k][v] = _mm_loadu_si128((const __m128i *)(const void *)m);
        }
}

static inline void norm(const uint8_t *px, const int8_t order[3], void *const dst[3], int32_t n,
                        const pfi_pp_norm_k *k, int half) {
    __m128i g[3][3];
    make_gather(g);
    __m512 scale = _mm512_set1_ps(k->scale), zero = _mm512_setzero_ps(), mean[3], stdv[3], inv[3];
    int scaled = k->scale != 1.0f;
    for (int c = 0; c < 3; c++) {
        mean[c] = _mm512_set1_ps(k->mean[c]);
        stdv[c] = _mm512_set1_ps(k->stdv[c]);
        inv[c] = _mm512_set1_ps(k->inv[c]);
    }
    for (int32_t j = 0; j < n; j += 16) {
        const uint8_t *p = px + 3 * j;
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
        __m128i cc = _mm_loadu_si128((const __m128i *)(const void *)(p + 32));
        __m128i ch[3];
        for (int q = 0; q < 3; q++)
            ch[q] = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, g[q][0]), _mm_shuffle_epi8(b, g[q][1])),
                                 _mm_shuffle_epi8(cc, g[q][2]));
        for (int c = 0; c < 3; c++) {
            __m512 x = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(ch[order[c]]));
            if (scaled) x = _mm512_add_ps(_mm512_mul_ps(x, scale), zero);
            __m512 t = _mm512_sub_ps(x, mean[c]);
            __m512 q0 = _mm512_mul_ps(t, inv[c]);
            __m512 r = _mm512_fnmadd_ps(q0, stdv[c], t);
            __m512 q = _mm512_fmadd_ps(r, inv[c], q0);
            if (half)
                _mm256_storeu_si256((__m256i *)(void *)((uint16_t *)dst[c] + j),
                                    _mm512_cvtps_ph(q, _MM_FROUND_TO_NEAREST_INT));
            else
                _mm512_storeu_ps((float *)dst[c] + j, q);
        }
    }
}

static void norm_f32(const uint8_t *px, const int8_t order[3], void *const dst[3], int32_t n,
                     const pfi_pp_norm_k *k) {
    norm(px, order, dst, n, k, 0);
}
static void norm_f16(const uint8_t *px, const int8_t order[3], void *const dst[3], int32_t n,
                     const pfi_pp_norm_k *k) {
    norm(px, order, dst, n, k, 1);
}

void pfi_preprocess_fill_avx512(pfi_preprocess_kernels *k) {
    k->norm[PFI_PP_NORM_F32] = norm_f32;
    k->norm[PFI_PP_NORM_F16] = norm_f16;
}
