/*
 * The random stream of one transform of one sample, for the augmentation
 * sampler (aug_sampler.c). A pure function of (seed, epoch, sample index,
 * transform id): there is no state shared between samples or calls.
 *
 * Keying (Philox4x32-10, src/kernels/philox.h):
 *   key     = (seed low 32 bits, seed high 32 bits)
 *   counter = (index low 32 bits, index high 32 bits, epoch (32 bits),
 *              transform id << 16 | draw number)
 * The draw number counts Philox blocks within the transform's stream;
 * each block yields four 32-bit words, consumed in order. Transform ids
 * are small (PFI_AUG_T_*), so counter word 3 stays below 2^24 and never
 * meets the photometric noise's op tag (0x4e6f6973) for the same seed.
 * No transform uses more than a few blocks (RandomResizedCrop: at most 22
 * words = 6 blocks), far below the 2^16 a transform may address.
 *
 * Float maths are plain IEEE +, -, *, /, sqrt and floor in the written
 * order (the build uses -ffp-contract=off) plus pfk_log_det and the
 * polynomial exp below, so the parameters are the same bits on every
 * platform, not just on every run.
 */
#ifndef PF_CPU_AUG_STREAM_H
#define PF_CPU_AUG_STREAM_H

#include <math.h>
#include <stdint.h>

#include "kernels/philox.h"

/* Transform ids (counter word 3, bits 16..23). Never renumber: that would
 * change every user's augmentation stream. */
enum {
    PFI_AUG_T_RRC = 1,
    PFI_AUG_T_HFLIP = 2,
    PFI_AUG_T_VFLIP = 3,
    PFI_AUG_T_JITTER = 4,
    PFI_AUG_T_GRAY = 5,
    PFI_AUG_T_AFFINE = 6
};

typedef struct pfi_aug_stream {
    uint32_t ctr[4];
    uint32_t k0, k1;
    uint32_t word[4];
    uint32_t transform;
    uint32_t block; /* draw number of the next block */
    int pos;        /* next unused word of word[]; 4 = none left */
} pfi_aug_stream;

static inline void pfi_aug_stream_init(pfi_aug_stream *s, uint64_t seed, uint32_t epoch, uint64_t index,
                                       uint32_t transform) {
    s->k0 = (uint32_t)seed;
    s->k1 = (uint32_t)(seed >> 32);
    s->ctr[0] = (uint32_t)index;
    s->ctr[1] = (uint32_t)(index >> 32);
    s->ctr[2] = epoch;
    s->ctr[3] = 0;
    s->transform = transform;
    s->block = 0;
    s->pos = 4;
}

static inline uint32_t pfi_aug_u32(pfi_aug_stream *s) {
    if (s->pos == 4) {
        s->ctr[3] = s->transform << 16 | (s->block & 0xffffu);
        s->block++;
        pfk_u32x4 r = pfk_philox4x32_10(s->ctr, s->k0, s->k1);
        for (int k = 0; k < 4; k++) s->word[k] = r.v[k];
        s->pos = 0;
    }
    return s->word[s->pos++];
}

/* torch's Tensor.uniform_(lo, hi) on a float32 tensor: u * (hi - lo) + lo
 * in float, u in [0, 1) from the top 24 bits of a word (torch takes 24
 * bits of its generator's word the same way). lo == hi gives lo exactly. */
static inline float pfi_aug_uniform(pfi_aug_stream *s, float lo, float hi) {
    return pfk_u01(pfi_aug_u32(s)) * (hi - lo) + lo;
}

/* torch.rand(1) < p: the coin of torchvision's _RandomApplyTransform. */
static inline int pfi_aug_coin(pfi_aug_stream *s, float p) { return pfk_u01(pfi_aug_u32(s)) < p; }

/* Uniform integer in [0, n) for 1 <= n <= 2^32 - 1 by multiply-high
 * (Lemire). Bias below n / 2^32, like torch's modulo reduction of a 32-bit
 * word; the same integer in every build. */
static inline uint32_t pfi_aug_below(pfi_aug_stream *s, uint32_t n) {
    return (uint32_t)(((uint64_t)pfi_aug_u32(s) * n) >> 32);
}

/* e^x in float for |x| <= 104 (Cephes expf: x = n ln2 + r with ln 2 split
 * in two, degree-5 polynomial in r, then 2^n applied in two halves so
 * n in [-150, 151] never leaves the normal range). About 1 ulp, and the
 * same bits everywhere, unlike libm's expf. */
static inline float pfi_aug_exp(float x) {
    float n = floorf(x * 1.44269504088896341f + 0.5f);
    float r = x - n * 0.693359375f;
    r = r - n * -2.12194440e-4f;
    float z = r * r;
    float y = 1.9875691500e-4f;
    y = y * r + 1.3981999507e-3f;
    y = y * r + 8.3334519073e-3f;
    y = y * r + 4.1665795894e-2f;
    y = y * r + 1.6666665459e-1f;
    y = y * r + 5.0000001201e-1f;
    y = y * z + r + 1.0f;
    int32_t ni = (int32_t)n, h = ni / 2;
    y = y * pfk_bits_as_f32((uint32_t)(h + 127) << 23);
    return y * pfk_bits_as_f32((uint32_t)(ni - h + 127) << 23);
}

/* Python's round() (half to even) of a finite double that fits int64:
 * rint in the default rounding mode, which pixflow never changes. */
static inline int64_t pfi_aug_round(double v) { return (int64_t)rint(v); }

#endif
