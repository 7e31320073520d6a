/* AVX2 4:2:0 YUV kernels, 32 pixels per step (the shared source is
 * yuv_simd_impl.h): the vector vocabulary for 256-bit vectors and the
 * hooks that put the two 128-bit lanes in memory order. Compiled with
 * -mavx2 for this file only; installed at the AVX2 level (and kept at the
 * AVX-512 level on CPUs without VBMI). */
#include <immintrin.h>
#include <string.h>

#include "cpu/yuv_exec.h"
#include "pixflow/core.h"

#define YV_N 32
#define YV(name) name##_avx2
typedef __m256i V;

#define yv_load(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define yv_loadmask(p) yv_load(p)
#define yv_store(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define yv_set1_32 _mm256_set1_epi32
#define yv_set1_8 _mm256_set1_epi8
#define yv_zero _mm256_setzero_si256
#define yv_and _mm256_and_si256
#define yv_or _mm256_or_si256
#define yv_add32 _mm256_add_epi32
#define yv_sub32 _mm256_sub_epi32
#define yv_mullo32 _mm256_mullo_epi32
#define yv_srai32 _mm256_srai_epi32
#define yv_srli32 _mm256_srli_epi32
#define yv_subs_u8 _mm256_subs_epu8
#define yv_shuffle8 _mm256_shuffle_epi8
#define yv_packs32 _mm256_packs_epi32
#define yv_packus16 _mm256_packus_epi16
#define yv_unpacklo8 _mm256_unpacklo_epi8
#define yv_unpackhi8 _mm256_unpackhi_epi8
#define yv_unpacklo16 _mm256_unpacklo_epi16
#define yv_unpackhi16 _mm256_unpackhi_epi16

static inline __m128i load16(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }
static inline void store16(uint8_t *p, __m128i v) { _mm_storeu_si128((__m128i *)(void *)p, v); }

/* Even 32-bit lanes of a and b, within each 128-bit lane. */
static inline V yv_evens(V a, V b) {
    return _mm256_castps_si256(
        _mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(2, 0, 2, 0)));
}

/* Chunks X0..X2 hold lane A's and lane B's 48 bytes: memory is A0 A1 A2 B0 B1 B2. */
static inline void yv_store3(uint8_t *d, V x0, V x1, V x2) {
    yv_store(d, _mm256_permute2x128_si256(x0, x1, 0x20));
    yv_store(d + 32, _mm256_blend_epi32(x2, x0, 0xf0));
    yv_store(d + 64, _mm256_permute2x128_si256(x1, x2, 0x31));
}

/* o0..o3 hold pixels 0-3, 4-7, 8-11, 12-15 | 16-19, ... 28-31. */
static inline void yv_store4(uint8_t *d, V o0, V o1, V o2, V o3) {
    yv_store(d, _mm256_permute2x128_si256(o0, o1, 0x20));
    yv_store(d + 32, _mm256_permute2x128_si256(o2, o3, 0x20));
    yv_store(d + 64, _mm256_permute2x128_si256(o0, o1, 0x31));
    yv_store(d + 96, _mm256_permute2x128_si256(o2, o3, 0x31));
}

/* 16 U and 16 V as (U,V) pairs: lane 0 pairs 0..7, lane 1 pairs 8..15. */
static inline V yv_load_planar(const uint8_t *u, const uint8_t *v) {
    __m128i uu = load16(u), vv = load16(v);
    return _mm256_setr_m128i(_mm_unpacklo_epi8(uu, vv), _mm_unpackhi_epi8(uu, vv));
}

/* Pixels 8g..8g+7: lane 0 from the group start (pixels at byte 0), lane 1
 * from +8 (pixels 4..7 at byte 4), so the last group ends at the row end. */
static inline V yv_rgb3_load(const uint8_t *s, int g, int *sel) {
    const uint8_t *q = s + 24 * g;
    *sel = 0;
    return _mm256_inserti128_si256(_mm256_castsi128_si256(load16(q)), load16(q + 8), 1);
}

/* packs/packus leave dwords as pixels 0-3, 8-11, 16-19, 24-27 | 4-7, ... */
static inline V yv_luma_order(V pk) {
    return _mm256_permutevar8x32_epi32(pk, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

/* Words of pk: lane 0 = U(0,1) U(4,5) U(8,9) U(12,13) V(0,1) ...; lane 1 =
 * U(2,3) U(6,7) ...: a word unpack of the two lanes restores order. */
static inline void split_uv(V pk, __m128i *u, __m128i *v) {
    __m128i x0 = _mm256_castsi256_si128(pk), x1 = _mm256_extracti128_si256(pk, 1);
    *u = _mm_unpacklo_epi16(x0, x1);
    *v = _mm_unpackhi_epi16(x0, x1);
}

static inline void yv_store_uv_p(uint8_t *u, uint8_t *v, V pk) {
    __m128i cu, cv;
    split_uv(pk, &cu, &cv);
    store16(u, cu);
    store16(v, cv);
}

static inline void yv_store_uv_sp(uint8_t *uv, V pk, int swap) {
    __m128i cu, cv;
    split_uv(pk, &cu, &cv);
    __m128i a = swap ? cv : cu, b = swap ? cu : cv;
    store16(uv, _mm_unpacklo_epi8(a, b));
    store16(uv + 16, _mm_unpackhi_epi8(a, b));
}

#include "cpu/x86/yuv_simd_impl.h"

/* Builds its tables with AVX2 code: kfamily.c calls it only on AVX2 CPUs. */
void pfi_yuv_fill_avx2(pfi_yuv_kernels *k) { YV(fill)(k); }
