/* SSE4.1 4:2:0 YUV kernels, 16 pixels per step (the shared source is
 * yuv_simd_impl.h): the vector vocabulary for 128-bit vectors; one lane,
 * so the lane-order hooks are plain stores. Compiled with -msse4.1 for
 * this file only; installed at the SSE4 level. */
#include <immintrin.h>
#include <string.h>

#include "cpu/yuv_exec.h"
#include "pixflow/core.h"

#define YV_N 16
#define YV(name) name##_sse4
typedef __m128i V;

#define yv_load(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define yv_loadmask(p) yv_load(p)
#define yv_store(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define yv_set1_32 _mm_set1_epi32
#define yv_set1_8 _mm_set1_epi8
#define yv_zero _mm_setzero_si128
#define yv_and _mm_and_si128
#define yv_or _mm_or_si128
#define yv_add32 _mm_add_epi32
#define yv_sub32 _mm_sub_epi32
#define yv_mullo32 _mm_mullo_epi32
#define yv_srai32 _mm_srai_epi32
#define yv_srli32 _mm_srli_epi32
#define yv_subs_u8 _mm_subs_epu8
#define yv_shuffle8 _mm_shuffle_epi8
#define yv_packs32 _mm_packs_epi32
#define yv_packus16 _mm_packus_epi16
#define yv_unpacklo8 _mm_unpacklo_epi8
#define yv_unpackhi8 _mm_unpackhi_epi8
#define yv_unpacklo16 _mm_unpacklo_epi16
#define yv_unpackhi16 _mm_unpackhi_epi16

/* Even 32-bit lanes of a then b. */
static inline V yv_evens(V a, V b) {
    return _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b), _MM_SHUFFLE(2, 0, 2, 0)));
}

static inline void yv_store3(uint8_t *d, V x0, V x1, V x2) {
    yv_store(d, x0);
    yv_store(d + 16, x1);
    yv_store(d + 32, x2);
}

static inline void yv_store4(uint8_t *d, V o0, V o1, V o2, V o3) {
    yv_store(d, o0);
    yv_store(d + 16, o1);
    yv_store(d + 32, o2);
    yv_store(d + 48, o3);
}

/* 8 U and 8 V as (U,V) pairs. */
static inline V yv_load_planar(const uint8_t *u, const uint8_t *v) {
    return _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(const void *)u),
                             _mm_loadl_epi64((const __m128i *)(const void *)v));
}

/* Pixels 4g..4g+3: 16 bytes from the group start (pixels at byte 0), but
 * the last group loads from 4 bytes earlier (pixels at byte 4) so that it
 * ends at the row end. */
static inline V yv_rgb3_load(const uint8_t *s, int g, int *sel) {
    *sel = g == 3;
    return yv_load(s + (g == 3 ? 32 : 12 * g));
}

static inline V yv_luma_order(V pk) { return pk; } /* already pixels 0..15 */

/* pk: U0..U7, V0..V7. */
static inline void yv_store_uv_p(uint8_t *u, uint8_t *v, V pk) {
    _mm_storel_epi64((__m128i *)(void *)u, pk);
    _mm_storel_epi64((__m128i *)(void *)v, _mm_srli_si128(pk, 8));
}

static inline void yv_store_uv_sp(uint8_t *uv, V pk, int swap) {
    V hi = _mm_srli_si128(pk, 8);
    yv_store(uv, swap ? _mm_unpacklo_epi8(hi, pk) : _mm_unpacklo_epi8(pk, hi));
}

#include "cpu/x86/yuv_simd_impl.h"

/* Builds its tables with SSE4.1 code: kfamily.c calls it only on SSE4.1 CPUs. */
void pfi_yuv_fill_sse4(pfi_yuv_kernels *k) { YV(fill)(k); }
