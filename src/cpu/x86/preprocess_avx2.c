/*
 * AVX2 (+ FMA + F16C, pixflow's avx2 level) emit kernels of the fused
 * preprocess: the AVX-512 kernels' arithmetic at 8 lanes. 16 RGB pixels
 * per step are split into channels with pshufb, each channel's two halves
 * widened to f32, scaled, centred and divided by std through the
 * reciprocal and one fma correction (exactly pfi_pp_norm_rcp, see
 * preprocess_exec.h), then stored as f32 or round-to-nearest-even f16.
 * Without this level's slot the emit pass used the convert family's
 * dividing kernel (two vdivps per 8 lanes and channel). On an AVX2-only
 * AMD EPYC the two take the same time (the f32 stores are what the pass
 * waits on there; docs/performance.md, "AVX2-only CPUs"); Intel's AVX2
 * cores divide 8 lanes several times slower, which is where this kernel is
 * meant to pay (not measured: no such CPU was at hand).
 */
#include <immintrin.h>

#include "cpu/preprocess_exec.h"
#include "cpu/x86/rgb_split16.h"

static inline __m256 norm8(__m128i u8, __m256 scale, int scaled, __m256 mean, __m256 stdv, __m256 inv) {
    __m256 x = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(u8));
    if (scaled) x = _mm256_add_ps(_mm256_mul_ps(x, scale), _mm256_setzero_ps());
    __m256 t = _mm256_sub_ps(x, mean);
    __m256 q0 = _mm256_mul_ps(t, inv);
    __m256 r = _mm256_fnmadd_ps(q0, stdv, t);
    return _mm256_fmadd_ps(r, inv, q0);
}

static inline void norm(const uint8_t *px, const int8_t order[3], void *const dst[3], int32_t n,
                        const pfi_pp_norm_k *k, int half) {
    pfi_rgb_split16 sp;
    pfi_rgb_split16_init(&sp);
    __m256 scale = _mm256_set1_ps(k->scale), mean[3], stdv[3], inv[3];
    int scaled = k->scale != 1.0f;
    for (int c = 0; c < 3; c++) {
        mean[c] = _mm256_set1_ps(k->mean[c]);
        stdv[c] = _mm256_set1_ps(k->stdv[c]);
        inv[c] = _mm256_set1_ps(k->inv[c]);
    }
    for (int32_t j = 0; j < n; j += 16) {
        __m128i ch[3];
        pfi_rgb_split16_run(&sp, px + 3 * j, ch);
        for (int c = 0; c < 3; c++) {
            __m128i v = ch[order[c]];
            __m256 lo = norm8(v, scale, scaled, mean[c], stdv[c], inv[c]);
            __m256 hi = norm8(_mm_srli_si128(v, 8), scale, scaled, mean[c], stdv[c], inv[c]);
            if (half) {
                uint16_t *d = (uint16_t *)dst[c] + j;
                _mm_storeu_si128((__m128i *)(void *)d, _mm256_cvtps_ph(lo, _MM_FROUND_TO_NEAREST_INT));
                _mm_storeu_si128((__m128i *)(void *)(d + 8), _mm256_cvtps_ph(hi, _MM_FROUND_TO_NEAREST_INT));
            } else {
                float *d = (float *)dst[c] + j;
                _mm256_storeu_ps(d, lo);
                _mm256_storeu_ps(d + 8, hi);
            }
        }
    }
}

PFI_PP_DEFINE_FILL(pfi_preprocess_fill_avx2)
