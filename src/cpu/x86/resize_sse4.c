/* SSE4.1 resize row kernels: 4 x 32-bit lanes, same kernel source as AVX2.
 * SSE has no gather, so gathers are four scalar loads. Compiled with
 * -msse4.1 for this file only. */
#include <smmintrin.h>
#include <string.h>

#include "cpu/resize_exec.h"
#include "cpu/x86/resize_c1_x86.h"
#include "cpu/x86/resize_tv_x86.h"
#include "cpu/x86/resize_x86_pixel.h"
#include "kernels/resize_math.h"

#define PFS_N 4
#define PFS(name) name##_sse4
typedef __m128i VI;
typedef __m128 VF;
#define vi_load(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define vi_store(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define vi_set1(x) _mm_set1_epi32((int)(x))
#define vi_zero() _mm_setzero_si128()
#define vi_add _mm_add_epi32
#define vi_mullo _mm_mullo_epi32
#define vi_srai(v, n) _mm_srai_epi32((v), (n))
#define vi_slli(v, n) _mm_slli_epi32((v), (n))
#define vi_and _mm_and_si128
#define vi_or _mm_or_si128
#define vi_madd16 _mm_madd_epi16
#define vf_load(p) _mm_loadu_ps(p)
#define vf_store(p, v) _mm_storeu_ps((p), (v))
#define vf_set1 _mm_set1_ps
#define vf_add _mm_add_ps
#define vf_mul _mm_mul_ps
#define vf_from_vi _mm_cvtepi32_ps
#define vf_cast_vi _mm_castsi128_ps
#define vi_round _mm_cvtps_epi32 /* MXCSR default: round half to even */

static inline int32_t ld32(const uint8_t *p) { int32_t v; memcpy(&v, p, 4); return v; }
static inline VI gather_bytes(const void *base, VI idx, int scale) {
    const uint8_t *b = base;
    int32_t i[4];
    _mm_storeu_si128((__m128i *)(void *)i, idx);
    return _mm_setr_epi32(ld32(b + (ptrdiff_t)i[0] * scale), ld32(b + (ptrdiff_t)i[1] * scale),
                          ld32(b + (ptrdiff_t)i[2] * scale), ld32(b + (ptrdiff_t)i[3] * scale));
}
#define vi_gather8(b, i) gather_bytes((b), (i), 1)
#define vi_gather16(b, i) gather_bytes((b), (i), 2)
#define vi_gather32(b, i) gather_bytes((b), (i), 4)

static inline VI vi_load_u8(const uint8_t *p) { return _mm_cvtepu8_epi32(_mm_cvtsi32_si128(ld32(p))); }
static inline void store_u8_sat(uint8_t *d, VI v) {
    __m128i w = _mm_packus_epi16(_mm_packs_epi32(v, v), _mm_setzero_si128());
    int32_t o = _mm_cvtsi128_si32(w);
    memcpy(d, &o, 4);
}
static inline void store_u16_sat(uint16_t *d, VI v) {
    _mm_storel_epi64((__m128i *)(void *)d, _mm_packus_epi32(v, v));
}

static inline void store_i16(int16_t *d, VI v) { _mm_storel_epi64((__m128i *)(void *)d, _mm_packs_epi32(v, v)); }
#define vs_set1(x) _mm_set1_epi16((short)(x))
#define vs_mulhi _mm_mulhi_epi16
#define vs_add _mm_add_epi16
#define vs_srai(v, n) _mm_srai_epi16((v), (n))
static inline void store_u8_from16(uint8_t *d, VI v) {
    _mm_storel_epi64((__m128i *)(void *)d, _mm_packus_epi16(v, v));
}

#define vi_sra(v, n) _mm_sra_epi32((v), _mm_cvtsi32_si128(n))
#define vb_unpacklo8 _mm_unpacklo_epi8
#define vb_unpackhi8 _mm_unpackhi_epi8
#define vi_packs32 _mm_packs_epi32
#define vi_packus16 _mm_packus_epi16
#define PFS_TV_PIXELS pfi_sse4_tv_pixels
#define PFS_C1_TV pfi_sse4_c1_tv
#define PFS_C1_AA pfi_sse4_c1_aa
#define PFS_C1_LIN16 pfi_sse4_c1_lin16
#define PFS_C1_I32 pfi_sse4_c1_i32
#define PFS_AA_PIXELS pfi_h_aa_u8_pixels
#define PFS_PAIR16_PIXELS pfi_h_u8_pair16_pixels
#define PFS_PAIR_PIXELS pfi_h_u8_pair_pixels
#include "cpu/x86/resize_simd_impl.h"

static int nn_u8_sse4(const pfi_nnrow *r, int x0, int x1) { return pfi_nn_u8_pixels(r, x0, x1); }

void pfi_resize_fill_sse4(pfi_resize_kernels *k) {
    PFS(fill)(k);
    k->nn_u8 = nn_u8_sse4;
    k->c1_groups = 1; /* pfi_sse4_c1_* */
}
