/* AVX2 resize row kernels: the vector vocabulary for 8 x 32-bit lanes,
 * then the shared kernel source. Compiled with -mavx2 (CMake sets it for
 * this file only); reached only when the CPU has AVX2. */
#include <immintrin.h>
#include <string.h>

#include "cpu/resize_exec.h"
#include "cpu/resize_x86_pixel.h"
#include "cpu/resize_x86_pairs.h"
#include "kernels/resize_math.h"

#define PFS_N 8
#define PFS(name) name##_avx2
typedef __m256i VI;
typedef __m256 VF;
#define vi_load(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define vi_store(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define vi_set1(x) _mm256_set1_epi32((int)(x))
#define vi_zero() _mm256_setzero_si256()
#define vi_add _mm256_add_epi32
#define vi_mullo _mm256_mullo_epi32
#define vi_srai(v, n) _mm256_srai_epi32((v), (n))
#define vi_slli(v, n) _mm256_slli_epi32((v), (n))
#define vi_and _mm256_and_si256
#define vi_or _mm256_or_si256
#define vi_madd16 _mm256_madd_epi16
#define vi_gather8(b, i) _mm256_i32gather_epi32((const int *)(const void *)(b), (i), 1)
#define vi_gather16(b, i) _mm256_i32gather_epi32((const int *)(const void *)(b), (i), 2)
#define vi_gather32(b, i) _mm256_i32gather_epi32((const int *)(const void *)(b), (i), 4)
#define vf_load(p) _mm256_loadu_ps(p)
#define vf_store(p, v) _mm256_storeu_ps((p), (v))
#define vf_set1 _mm256_set1_ps
#define vf_add _mm256_add_ps
#define vf_mul _mm256_mul_ps
#define vf_from_vi _mm256_cvtepi32_ps
#define vf_cast_vi _mm256_castsi256_ps
#define vi_round _mm256_cvtps_epi32 /* MXCSR default: round half to even */

static inline VI vi_load_u8(const uint8_t *p) {
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)p));
}
static inline void store_u8_sat(uint8_t *d, VI v) {
    __m256i w = _mm256_packs_epi32(v, v);   /* i16, per 128-bit lane */
    w = _mm256_packus_epi16(w, w);          /* u8, per lane */
    w = _mm256_permutevar8x32_epi32(w, _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4));
    _mm_storel_epi64((__m128i *)(void *)d, _mm256_castsi256_si128(w));
}
static inline void store_u16_sat(uint16_t *d, VI v) {
    __m256i w = _mm256_packus_epi32(v, v);
    w = _mm256_permute4x64_epi64(w, 0x08);
    _mm_storeu_si128((__m128i *)(void *)d, _mm256_castsi256_si128(w));
}

#define PFS_AA_PIXELS pfi_x86_aa_pixels
#define PFS_PAIR_PIXELS pfi_x86_pair_pixels
#include "cpu/resize_simd_impl.h"

void pfi_resize_fill_avx2(pfi_resize_kernels *k) { PFS(fill)(k); }
