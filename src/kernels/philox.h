/*
 * Philox4x32-10 (Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as
 * easy as 1, 2, 3", SC 2011; the Random123 reference), plus the uniform and
 * normal transforms pixflow uses on top of it. Every operation is integer
 * or a plain IEEE float +, *, sqrt in the written order, so the CPU
 * reference, the SIMD kernels, the CUDA kernels (with __fmul_rn/__fadd_rn
 * or -fmad=false) produce the same bits (known-answer vectors: tests/unit/test_photo_props.c).
 *
 * How keys and counters are formed (a counter-based generator has no state:
 * the numbers for an element are a pure function of where it is):
 *   key     = (low 32 bits of the seed, high 32 bits of the seed)
 *   counter = (block, low 32 bits of the sample id, high 32 bits of the
 *              sample id, op tag)
 * `block` indexes groups of 4 outputs (element e uses block e / 4, lane
 * e % 4); the sample id is the caller's id for the sample (by default its
 * index in the batch); the op tag keeps the streams of different ops
 * apart. The fused augmentation (DESIGN.md) folds the epoch into the op
 * tag word's upper bits. Nothing depends on threads or batch splitting.
 */
#ifndef PF_KERNELS_PHILOX_H
#define PF_KERNELS_PHILOX_H

#include "kernels/pf_hd.h"

#define PFK_PHILOX_M0 0xD2511F53u
#define PFK_PHILOX_M1 0xCD9E8D57u
#define PFK_PHILOX_W0 0x9E3779B9u /* golden ratio */
#define PFK_PHILOX_W1 0xBB67AE85u /* sqrt(3) - 1 */

/* Op tags (counter word 3). */
#define PFK_PHILOX_OP_NOISE 0x4e6f6973u /* "Nois" */

typedef struct pfk_u32x4 { uint32_t v[4]; } pfk_u32x4;

PF_HD uint32_t pfk_mulhilo32(uint32_t a, uint32_t b, uint32_t *hi) {
    uint64_t p = (uint64_t)a * (uint64_t)b;
    *hi = (uint32_t)(p >> 32);
    return (uint32_t)p;
}

/* One Philox round: two 32x32->64 multiplies, then a word permutation with
 * the key xored into the high halves. */
PF_HD void pfk_philox_round(uint32_t c[4], uint32_t k0, uint32_t k1) {
    uint32_t hi0, hi1;
    uint32_t lo0 = pfk_mulhilo32(PFK_PHILOX_M0, c[0], &hi0);
    uint32_t lo1 = pfk_mulhilo32(PFK_PHILOX_M1, c[2], &hi1);
    uint32_t n0 = hi1 ^ c[1] ^ k0, n2 = hi0 ^ c[3] ^ k1;
    c[0] = n0;
    c[1] = lo1;
    c[2] = n2;
    c[3] = lo0;
}

/* Philox4x32 with 10 rounds; the key is bumped by the Weyl constants
 * between rounds. */
PF_HD pfk_u32x4 pfk_philox4x32_10(const uint32_t ctr[4], uint32_t k0, uint32_t k1) {
    uint32_t c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]};
    for (int r = 0; r < 10; r++) {
        if (r > 0) {
            k0 += PFK_PHILOX_W0;
            k1 += PFK_PHILOX_W1;
        }
        pfk_philox_round(c, k0, k1);
    }
    pfk_u32x4 out = {{c[0], c[1], c[2], c[3]}};
    return out;
}

PF_HD float pfk_bits_as_f32(uint32_t u) {
    union { uint32_t u; float f; } x;
    x.u = u;
    return x.f;
}
PF_HD uint32_t pfk_f32_as_bits(float f) {
    union { uint32_t u; float f; } x;
    x.f = f;
    return x.u;
}

/* Uniform in [0, 1): the top 24 bits times 2^-24 (exact in float). */
PF_HD float pfk_u01(uint32_t x) { return (float)(x >> 8) * 5.9604644775390625e-8f; }
/* Uniform in (0, 1]: (top 24 bits + 1) * 2^-24, for the logarithm. */
PF_HD float pfk_u01_open0(uint32_t x) { return (float)((x >> 8) + 1u) * 5.9604644775390625e-8f; }

/* Natural log of a normal float x in (0, 1] (Cephes logf: mantissa folded
 * into [sqrt(1/2), sqrt(2)), degree-9 polynomial, ln 2 split in two).
 * Max error about 1 ulp; what matters is that it is the same sequence of
 * float operations everywhere. */
PF_HD float pfk_log_det(float x) {
    uint32_t bits = pfk_f32_as_bits(x);
    int32_t e = (int32_t)(bits >> 23) - 126;
    float m = pfk_bits_as_f32((bits & 0x7fffffu) | 0x3f000000u); /* [0.5, 1) */
    if (m < 0.707106781186547524f) {
        e -= 1;
        m = (m + m) - 1.0f;
    } else {
        m = m - 1.0f;
    }
    float z = m * m;
    float y = 7.0376836292e-2f;
    y = y * m + -1.1514610310e-1f;
    y = y * m + 1.1676998740e-1f;
    y = y * m + -1.2420140846e-1f;
    y = y * m + 1.4249322787e-1f;
    y = y * m + -1.6668057665e-1f;
    y = y * m + 2.0000714765e-1f;
    y = y * m + -2.4999993993e-1f;
    y = y * m + 3.3333331174e-1f;
    y = (y * m) * z;
    float fe = (float)e;
    y = y + -2.12194440e-4f * fe;
    y = y + -0.5f * z;
    float r = m + y;
    return r + 0.693359375f * fe;
}

/* sin and cos of 2*pi*k/2^24 for a 24-bit k: the quadrant comes from the
 * integer, the remainder angle is in [-pi/4, pi/4) (Cephes polynomials). */
PF_HD void pfk_sincos_2pi_det(uint32_t k, float *s_out, float *c_out) {
    uint32_t q = (k + (1u << 21)) >> 22;              /* nearest quadrant, 0..4 */
    int32_t r = (int32_t)k - (int32_t)(q << 22);      /* [-2^21, 2^21) */
    float t = (float)r * 2.384185791015625e-7f;        /* r * 2^-22, in [-0.5, 0.5) */
    float a = t * 1.57079632679489662f;               /* angle in [-pi/4, pi/4) */
    float z = a * a;
    float sp = -1.9515295891e-4f;
    sp = sp * z + 8.3321608736e-3f;
    sp = sp * z + -1.6666654611e-1f;
    float sn = ((sp * z) * a) + a;
    float cp = 2.443315711809948e-5f;
    cp = cp * z + -1.388731625493765e-3f;
    cp = cp * z + 4.166664568298827e-2f;
    float cs = (((cp * z) * z) - 0.5f * z) + 1.0f;
    switch (q & 3u) {
    case 0: *s_out = sn; *c_out = cs; break;
    case 1: *s_out = cs; *c_out = -sn; break;
    case 2: *s_out = -sn; *c_out = -cs; break;
    default: *s_out = -cs; *c_out = sn; break;
    }
}

/* Box-Muller: two standard normals from two 32-bit words,
 * z0 = R cos(2 pi u2), z1 = R sin(2 pi u2), R = sqrt(-2 ln u1), with
 * u1 in (0, 1] from x1 and u2 from the top 24 bits of x2. */
PF_HD void pfk_box_muller(uint32_t x1, uint32_t x2, float *z0, float *z1) {
    float rad = sqrtf(-2.0f * pfk_log_det(pfk_u01_open0(x1)));
    float s, c;
    pfk_sincos_2pi_det(x2 >> 8, &s, &c);
    *z0 = rad * c;
    *z1 = rad * s;
}

/* The four normals of one Philox block: (z0, z1) from words 0, 1 and
 * (z2, z3) from words 2, 3. */
PF_HD void pfk_philox_normal4(const uint32_t ctr[4], uint32_t k0, uint32_t k1, float z[4]) {
    pfk_u32x4 r = pfk_philox4x32_10(ctr, k0, k1);
    pfk_box_muller(r.v[0], r.v[1], &z[0], &z[1]);
    pfk_box_muller(r.v[2], r.v[3], &z[2], &z[3]);
}

#endif
