/*
 * AVX-512 (F/BW/VL + FMA + F16C) emit kernels of the fused preprocess:
 * 16 RGB pixels per step are split into channels with pshufb, widened to
 * f32, scaled, centred and divided by std through the reciprocal and one
 * fma correction (exactly pfi_pp_norm_rcp, see preprocess_exec.h), then
 * stored to the three planes as f32 or round-to-nearest-even f16.
 */
#include <immintrin.h>

#include "cpu/preprocess_exec.h"
#include "cpu/x86/rgb_split16.h"

static inline void norm(const uint8_t *px, const int8_t order[3], void *const dst[3], int32_t n,
                        const pfi_pp_norm_k *k, int half) {
    pfi_rgb_split16 sp;
    pfi_rgb_split16_init(&sp);
    __m512 scale = _mm512_set1_ps(k->scale), zero = _mm512_setzero_ps(), mean[3], stdv[3], inv[3];
    int scaled = k->scale != 1.0f;
    for (int c = 0; c < 3; c++) {
        mean[c] = _mm512_set1_ps(k->mean[c]);
        stdv[c] = _mm512_set1_ps(k->stdv[c]);
        inv[c] = _mm512_set1_ps(k->inv[c]);
    }
    for (int32_t j = 0; j < n; j += 16) {
        __m128i ch[3];
        pfi_rgb_split16_run(&sp, px + 3 * j, ch);
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

PFI_PP_DEFINE_FILL(pfi_preprocess_fill_avx512)
