/*
 * 16 interleaved 3-byte pixels (48 bytes) split into three 16-byte channel
 * vectors with pshufb (SSSE3; every x86 SIMD level pixflow builds has it):
 * output channel k takes bytes 3i + k, which lie in one of the three
 * 16-byte loads. Shared by the fused preprocess's normalize kernels of each
 * level (static inline, so each file compiles it for its own level).
 */
#ifndef PF_CPU_X86_RGB_SPLIT16_H
#define PF_CPU_X86_RGB_SPLIT16_H

#include <immintrin.h>
#include <stdint.h>

typedef struct pfi_rgb_split16 {
    __m128i g[3][3]; /* g[k][v]: channel k's bytes out of load v (-128 = none) */
} pfi_rgb_split16;

static inline void pfi_rgb_split16_init(pfi_rgb_split16 *s) {
    for (int k = 0; k < 3; k++)
        for (int v = 0; v < 3; v++) {
            int8_t m[16];
            for (int i = 0; i < 16; i++) m[i] = (int8_t)((3 * i + k) / 16 == v ? (3 * i + k) % 16 : -128);
            s->g[k][v] = _mm_loadu_si128((const __m128i *)(const void *)m);
        }
}

/* ch[k] = channel k of the 16 pixels at p. */
static inline void pfi_rgb_split16_run(const pfi_rgb_split16 *s, const uint8_t *p, __m128i ch[3]) {
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
    __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(p + 32));
    for (int k = 0; k < 3; k++)
        ch[k] = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, s->g[k][0]), _mm_shuffle_epi8(b, s->g[k][1])),
                             _mm_shuffle_epi8(c, s->g[k][2]));
}

#endif
