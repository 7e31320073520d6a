/* AVX-512 VBMI horizontal flips: one vpermb reverses the pixels of a
 * 64-byte block for 1-, 2- and 4-byte pixels, and of a 63-byte block
 * (21 pixels) for 3-byte pixels (RGB u8), using masked loads/stores so no
 * byte outside the row is touched. Installed only when the CPU has VBMI. */
#include <immintrin.h>

#include "cpu/geom_exec.h"
#include "pixflow/core.h"

/* Byte permutations reversing the order of the 64/px pixels of px bytes
 * in a block, built once when the kernels are installed. */
static uint8_t g_rev[4][64];

static void build_reverse_index(int px) {
    int ppv = 64 / px;
    for (int j = 0; j < 64; j++) {
        int p = j / px, b = j % px;
        g_rev[px - 1][j] = (uint8_t)(p < ppv ? (ppv - 1 - p) * px + b : j);
    }
}

static inline void flip_blocks(const uint8_t *src, uint8_t *dst, int32_t n, int px) {
    const int ppv = 64 / px; /* pixels per vector: 64, 32, 21, 16 */
    const __mmask64 m = px == 3 ? (__mmask64)0x7FFFFFFFFFFFFFFFull : ~(__mmask64)0;
    const __m512i idx = _mm512_loadu_si512(g_rev[px - 1]);
    int32_t x = 0;
    for (; x + ppv <= n; x += ppv) {
        __m512i v = _mm512_maskz_loadu_epi8(m, src + (ptrdiff_t)(n - x - ppv) * px);
        _mm512_mask_storeu_epi8(dst + (ptrdiff_t)x * px, m, _mm512_permutexvar_epi8(idx, v));
    }
    if (x < n) pfi_flip_row_ref(src, dst + (ptrdiff_t)x * px, n - x, px);
}

static void flip_px1(const uint8_t *s, uint8_t *d, int32_t n) { flip_blocks(s, d, n, 1); }
static void flip_px2(const uint8_t *s, uint8_t *d, int32_t n) { flip_blocks(s, d, n, 2); }
static void flip_px3(const uint8_t *s, uint8_t *d, int32_t n) { flip_blocks(s, d, n, 3); }
static void flip_px4(const uint8_t *s, uint8_t *d, int32_t n) { flip_blocks(s, d, n, 4); }

void pfi_geom_fill_avx512vbmi(pfi_geom_kernels *k) {
    for (int px = 1; px <= 4; px++) build_reverse_index(px);
    k->flip[0] = flip_px1;
    k->flip[1] = flip_px2;
    k->flip[2] = flip_px3;
    k->flip[3] = flip_px4;
}
