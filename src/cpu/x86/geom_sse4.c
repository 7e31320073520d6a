/* SSE4 level (SSSE3 pshufb) horizontal flips of 2- and 3-byte pixels
 * (u8 gray+alpha / u16 gray, and u8 RGB: the fused preprocess's flip of
 * every mirrored RandomResizedCrop row on CPUs without AVX-512 VBMI, where
 * the reference's per-pixel copies were 4 % of `pixflow run`).
 * 2-byte pixels: one pshufb reverses the 8 pixels of 16 bytes.
 * 3-byte pixels: 16 pixels (48 bytes) per step; each 16-byte output vector
 * is the OR of three pshufb of the three input vectors, with masks built
 * once when the level is filled. Tails go to the reference. Every load and
 * store touches only bytes of the row. */
#include <tmmintrin.h>

#include "cpu/geom_exec.h"

/* g_rev3[o][v]: output vector o's bytes taken from input vector v (-128:
 * none); the 48 bytes hold 16 pixels, output pixel p = input pixel 15 - p. */
static int8_t g_rev3[3][3][16];

static void build_rev3(void) {
    for (int o = 0; o < 3; o++)
        for (int v = 0; v < 3; v++)
            for (int i = 0; i < 16; i++) {
                int j = 16 * o + i, src = (15 - j / 3) * 3 + j % 3;
                g_rev3[o][v][i] = (int8_t)(src / 16 == v ? src % 16 : -128);
            }
}

static void flip_px2(const uint8_t *src, uint8_t *dst, int32_t n) {
    const __m128i rev = _mm_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
    int32_t x = 0;
    for (; x + 8 <= n; x += 8) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + 2 * (ptrdiff_t)(n - x - 8)));
        _mm_storeu_si128((__m128i *)(void *)(dst + 2 * (ptrdiff_t)x), _mm_shuffle_epi8(v, rev));
    }
    if (x < n) pfi_flip_row_ref(src, dst + 2 * (ptrdiff_t)x, n - x, 2);
}

static void flip_px3(const uint8_t *src, uint8_t *dst, int32_t n) {
    __m128i m[3][3];
    for (int o = 0; o < 3; o++)
        for (int v = 0; v < 3; v++) m[o][v] = _mm_loadu_si128((const __m128i *)(const void *)g_rev3[o][v]);
    int32_t x = 0;
    for (; x + 16 <= n; x += 16) {
        const uint8_t *s = src + 3 * (ptrdiff_t)(n - x - 16);
        __m128i in[3];
        for (int v = 0; v < 3; v++) in[v] = _mm_loadu_si128((const __m128i *)(const void *)(s + 16 * v));
        uint8_t *d = dst + 3 * (ptrdiff_t)x;
        for (int o = 0; o < 3; o++) {
            __m128i r = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(in[0], m[o][0]), _mm_shuffle_epi8(in[1], m[o][1])),
                                     _mm_shuffle_epi8(in[2], m[o][2]));
            _mm_storeu_si128((__m128i *)(void *)(d + 16 * o), r);
        }
    }
    if (x < n) pfi_flip_row_ref(src, dst + 3 * (ptrdiff_t)x, n - x, 3);
}

void pfi_geom_fill_sse4(pfi_geom_kernels *k) {
    build_rev3();
    k->flip[1] = flip_px2;
    k->flip[2] = flip_px3;
}
