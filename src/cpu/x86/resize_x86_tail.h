/* The row-end copy the x86 pixel kernels of the u8 horizontal passes
 * read their last pixels from (pfi_hrow.pair_tail_*): those pixels' loads
 * would leave the source row, and taking them to the scalar reference
 * cost a sizeable share of the pass on random crops (docs/performance.md,
 * "AVX2-only CPUs"). The pad bytes meet only zero weights, so the sums
 * are the reference's. */
#ifndef PF_CPU_RESIZE_X86_TAIL_H
#define PF_CPU_RESIZE_X86_TAIL_H

#include <smmintrin.h>
#include <stdint.h>

#include "ref/resize_rows.h"

/* A copy's size: the reach, plus the zeroing's last 16-byte store. */
#define PFI_ROW_WIN_BYTES (PFI_ROW_TAIL_MAX + 16)

/* win = the n row bytes at src, zero up to `reach` (<= PFI_ROW_TAIL_MAX),
 * in 16-byte moves: a variable-length memcpy of a few dozen bytes
 * compiles to a byte loop, and the zeroing of the whole window to
 * `rep stos`, both slow for once per row. The last piece is the 16 bytes
 * ending at the row's end when the row has them. */
static inline void pfi_row_tail_copy(uint8_t *win, const uint8_t *src, int n, int reach) {
    const __m128i z = _mm_setzero_si128();
    for (int i = n & ~15; i < reach; i += 16) _mm_storeu_si128((__m128i *)(void *)(win + i), z);
    int i = 0;
    for (; i + 16 <= n; i += 16)
        _mm_storeu_si128((__m128i *)(void *)(win + i), _mm_loadu_si128((const __m128i *)(const void *)(src + i)));
    if (i == n) return;
    if (n >= 16) {
        _mm_storeu_si128((__m128i *)(void *)(win + n - 16),
                         _mm_loadu_si128((const __m128i *)(const void *)(src + n - 16)));
        return;
    }
    for (; i < n; i++) win[i] = src[i];
}

#endif
