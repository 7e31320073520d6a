/* AVX2 geometry kernels. Horizontal flips of 1-byte pixels (byte shuffle within lanes, then
 * swap the lanes) and 4-byte pixels (one cross-lane dword permute). Each
 * step reverses the 32 bytes that end where the previous step began.
 * 8x8 tile transposes (rotate / transpose) below. */
#include <immintrin.h>

#include "cpu/geom_exec.h"

static void flip_px1(const uint8_t *src, uint8_t *dst, int32_t n) {
    const __m256i rev = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14,
                                         13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    int32_t x = 0;
    for (; x + 32 <= n; x += 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(src + n - x - 32));
        v = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(v, rev), 0x4E);
        _mm256_storeu_si256((__m256i *)(void *)(dst + x), v);
    }
    if (x < n) pfi_flip_row_ref(src, dst + x, n - x, 1);
}

static void flip_px4(const uint8_t *src, uint8_t *dst, int32_t n) {
    const __m256i rev = _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0);
    int32_t x = 0;
    for (; x + 8 <= n; x += 8) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(src + 4 * (ptrdiff_t)(n - x - 8)));
        _mm256_storeu_si256((__m256i *)(void *)(dst + 4 * (ptrdiff_t)x), _mm256_permutevar8x32_epi32(v, rev));
    }
    if (x < n) pfi_flip_row_ref(src, dst + 4 * (ptrdiff_t)x, n - x, 4);
}


/* ---- 8x8 tile transpose for 1..4-byte pixels ----
 * Each of 8 source rows (rstep bytes apart, any sign) contributes 8
 * consecutive pixels; they are widened to one dword per pixel, transposed
 * as an 8x8 dword matrix, narrowed back and stored as 8 destination rows
 * (dstep apart). Loads and stores touch exactly the tile's bytes. */

static inline void transpose8x8_epi32(__m256i r[8]) {
    __m256i t[8], u[8];
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
        u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
        u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
        u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
        u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (int i = 0; i < 4; i++) {
        r[i] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x20);
        r[i + 4] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x31);
    }
}

static inline __m256i load_px3(const uint8_t *p) {
    __m256i v = _mm256_set_m128i(_mm_loadl_epi64((const __m128i *)(const void *)(p + 16)),
                                 _mm_loadu_si128((const __m128i *)(const void *)p));
    v = _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 1, 2, 3, 3, 4, 5, 5));
    /* lane 0 holds bytes 0..11 (pixels 0-3), lane 1 bytes 12..23 (pixels 4-7) */
    const __m256i spread = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, 0, 1, 2, -1,
                                            3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    return _mm256_shuffle_epi8(v, spread);
}

static inline void store_px3(uint8_t *p, __m256i v) {
    const __m256i pack = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, 0, 1, 2, 4,
                                          5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    v = _mm256_shuffle_epi8(v, pack);
    v = _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7));
    _mm_storeu_si128((__m128i *)(void *)p, _mm256_castsi256_si128(v));
    _mm_storel_epi64((__m128i *)(void *)(p + 16), _mm256_extracti128_si256(v, 1));
}

static inline void store_px1(uint8_t *p, __m256i v) {
    const __m256i pack = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4,
                                          8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    v = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(v, pack), _mm256_setr_epi32(0, 4, 1, 1, 1, 1, 1, 1));
    _mm_storel_epi64((__m128i *)(void *)p, _mm256_castsi256_si128(v));
}

static inline void store_px2(uint8_t *p, __m256i v) {
    const __m256i pack = _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 4,
                                          5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1);
    v = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(v, pack), _mm256_setr_epi32(0, 1, 4, 5, 2, 2, 2, 2));
    _mm_storeu_si128((__m128i *)(void *)p, _mm256_castsi256_si128(v));
}

#define TILE_KERNEL(NAME, LOAD, STORE)                                                     \
    static void NAME(const uint8_t *src, ptrdiff_t rstep, uint8_t *dst, ptrdiff_t dstep) { \
        __m256i r[8];                                                                      \
        for (int i = 0; i < 8; i++) r[i] = LOAD(src + i * rstep);                          \
        transpose8x8_epi32(r);                                                             \
        for (int i = 0; i < 8; i++) STORE(dst + i * dstep, r[i]);                          \
    }

static inline __m256i load_px1(const uint8_t *p) {
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)p));
}
static inline __m256i load_px2(const uint8_t *p) {
    return _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)p));
}
static inline __m256i load_px4(const uint8_t *p) { return _mm256_loadu_si256((const __m256i *)(const void *)p); }
static inline void store_px4(uint8_t *p, __m256i v) { _mm256_storeu_si256((__m256i *)(void *)p, v); }

TILE_KERNEL(tile_px1, load_px1, store_px1)
TILE_KERNEL(tile_px2, load_px2, store_px2)
TILE_KERNEL(tile_px3, load_px3, store_px3)
TILE_KERNEL(tile_px4, load_px4, store_px4)

void pfi_geom_fill_avx2(pfi_geom_kernels *k) {
    k->flip[0] = flip_px1;
    k->flip[3] = flip_px4;
    k->tile8[0] = tile_px1;
    k->tile8[1] = tile_px2;
    k->tile8[2] = tile_px3;
    k->tile8[3] = tile_px4;
}
