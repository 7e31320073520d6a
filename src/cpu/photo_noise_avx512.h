/*
 * Gaussian noise with AVX-512 (included by photo_avx512.c only): 16 Philox
 * blocks per step, one per lane (64 normals), with the exact integer and
 * float sequence of src/kernels/philox.h; then a 4x16 transpose puts the
 * normals in element order (element 4b + l is lane l of block b).
 */
#ifndef PF_CPU_PHOTO_NOISE_AVX512_H
#define PF_CPU_PHOTO_NOISE_AVX512_H

/* High 32 bits of a * m per lane (vpmuludq on even and odd lanes). */
static inline __m512i mulhi32(__m512i a, __m512i m) {
    __m512i even = _mm512_srli_epi64(_mm512_mul_epu32(a, m), 32);
    __m512i odd = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), m);
    return _mm512_mask_blend_epi32((__mmask16)0xAAAA, even, odd);
}

typedef struct u4 { __m512i c0, c1, c2, c3; } u4;

static inline u4 philox16(__m512i c0, const pfi_photo_k *k) {
    u4 c = {c0, _mm512_set1_epi32((int)k->ctr[0]), _mm512_set1_epi32((int)k->ctr[1]),
            _mm512_set1_epi32((int)k->ctr[2])};
    const __m512i M0 = _mm512_set1_epi32((int)PFK_PHILOX_M0), M1 = _mm512_set1_epi32((int)PFK_PHILOX_M1);
    uint32_t k0 = k->key[0], k1 = k->key[1];
    for (int r = 0; r < 10; r++) {
        if (r > 0) {
            k0 += PFK_PHILOX_W0;
            k1 += PFK_PHILOX_W1;
        }
        __m512i hi0 = mulhi32(c.c0, M0), lo0 = _mm512_mullo_epi32(c.c0, M0);
        __m512i hi1 = mulhi32(c.c2, M1), lo1 = _mm512_mullo_epi32(c.c2, M1);
        u4 n = {_mm512_xor_si512(_mm512_xor_si512(hi1, c.c1), _mm512_set1_epi32((int)k0)), lo1,
                _mm512_xor_si512(_mm512_xor_si512(hi0, c.c3), _mm512_set1_epi32((int)k1)), lo0};
        c = n;
    }
    return c;
}

static inline __m512 ps(float v) { return _mm512_set1_ps(v); }

static inline __m512 log_det16(__m512 x) {
    __m512i bits = _mm512_castps_si512(x);
    __m512i e = _mm512_sub_epi32(_mm512_srli_epi32(bits, 23), _mm512_set1_epi32(126));
    __m512 m = _mm512_castsi512_ps(_mm512_or_si512(_mm512_and_si512(bits, _mm512_set1_epi32(0x7fffff)),
                                                   _mm512_set1_epi32(0x3f000000)));
    __mmask16 small = _mm512_cmp_ps_mask(m, ps(0.707106781186547524f), _CMP_LT_OQ);
    e = _mm512_mask_sub_epi32(e, small, e, _mm512_set1_epi32(1));
    m = _mm512_mask_blend_ps(small, _mm512_sub_ps(m, ps(1.0f)), _mm512_sub_ps(_mm512_add_ps(m, m), ps(1.0f)));
    __m512 z = _mm512_mul_ps(m, m);
    __m512 y = ps(7.0376836292e-2f);
    y = _mm512_add_ps(_mm512_mul_ps(y, m), ps(-1.1514610310e-1f));
    y = _mm512_add_ps(_mm512_mul_ps(y, m), ps(1.1676998740e-1f));
    y = _mm512_add_ps(_mm512_mul_ps(y, m), ps(-1.2420140846e-1f));
    y = _mm512_add_ps(_mm512_mul_ps(y, m), ps(1.4249322787e-1f));
    y = _mm512_add_ps(_mm512_mul_ps(y, m), ps(-1.6668057665e-1f));
    y = _mm512_add_ps(_mm512_mul_ps(y, m), ps(2.0000714765e-1f));
    y = _mm512_add_ps(_mm512_mul_ps(y, m), ps(-2.4999993993e-1f));
    y = _mm512_add_ps(_mm512_mul_ps(y, m), ps(3.3333331174e-1f));
    y = _mm512_mul_ps(_mm512_mul_ps(y, m), z);
    __m512 fe = _mm512_cvtepi32_ps(e);
    y = _mm512_add_ps(y, _mm512_mul_ps(ps(-2.12194440e-4f), fe));
    y = _mm512_add_ps(y, _mm512_mul_ps(ps(-0.5f), z));
    __m512 r = _mm512_add_ps(m, y);
    return _mm512_add_ps(r, _mm512_mul_ps(ps(0.693359375f), fe));
}

/* Box-Muller on 16 word pairs: z0 = R cos, z1 = R sin. */
static inline void box_muller16(__m512i x1, __m512i x2, __m512 *z0, __m512 *z1) {
    __m512 u1 = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_add_epi32(_mm512_srli_epi32(x1, 8), _mm512_set1_epi32(1))),
                              ps(5.9604644775390625e-8f));
    __m512 rad = _mm512_sqrt_ps(_mm512_mul_ps(ps(-2.0f), log_det16(u1)));
    __m512i kk = _mm512_srli_epi32(x2, 8);
    __m512i q = _mm512_srli_epi32(_mm512_add_epi32(kk, _mm512_set1_epi32(1 << 21)), 22);
    __m512i r = _mm512_sub_epi32(kk, _mm512_slli_epi32(q, 22));
    __m512 t = _mm512_mul_ps(_mm512_cvtepi32_ps(r), ps(2.384185791015625e-7f));
    __m512 a = _mm512_mul_ps(t, ps(1.57079632679489662f));
    __m512 z = _mm512_mul_ps(a, a);
    __m512 sp = ps(-1.9515295891e-4f);
    sp = _mm512_add_ps(_mm512_mul_ps(sp, z), ps(8.3321608736e-3f));
    sp = _mm512_add_ps(_mm512_mul_ps(sp, z), ps(-1.6666654611e-1f));
    __m512 sn = _mm512_add_ps(_mm512_mul_ps(_mm512_mul_ps(sp, z), a), a);
    __m512 cp = ps(2.443315711809948e-5f);
    cp = _mm512_add_ps(_mm512_mul_ps(cp, z), ps(-1.388731625493765e-3f));
    cp = _mm512_add_ps(_mm512_mul_ps(cp, z), ps(4.166664568298827e-2f));
    __m512 cs = _mm512_add_ps(_mm512_sub_ps(_mm512_mul_ps(_mm512_mul_ps(cp, z), z), _mm512_mul_ps(ps(0.5f), z)),
                              ps(1.0f));
    __m512i q3 = _mm512_and_si512(q, _mm512_set1_epi32(3));
    __mmask16 odd = _mm512_test_epi32_mask(q3, _mm512_set1_epi32(1));   /* q = 1, 3: swap */
    __mmask16 sneg = _mm512_cmpge_epi32_mask(q3, _mm512_set1_epi32(2)); /* q = 2, 3: sin negated */
    __mmask16 cneg = _mm512_cmpeq_epi32_mask(q3, _mm512_set1_epi32(1)) |
                     _mm512_cmpeq_epi32_mask(q3, _mm512_set1_epi32(2)); /* q = 1, 2: cos negated */
    __m512 s_abs = _mm512_mask_blend_ps(odd, sn, cs);
    __m512 c_abs = _mm512_mask_blend_ps(odd, cs, sn);
    const __m512i sign = _mm512_set1_epi32((int)0x80000000u);
    __m512i si = _mm512_castps_si512(s_abs), ci = _mm512_castps_si512(c_abs);
    __m512 s = _mm512_castsi512_ps(_mm512_mask_xor_epi32(si, sneg, si, sign));
    __m512 c = _mm512_castsi512_ps(_mm512_mask_xor_epi32(ci, (__mmask16)cneg, ci, sign));
    *z0 = _mm512_mul_ps(rad, c);
    *z1 = _mm512_mul_ps(rad, s);
}

/* 64 normals of blocks b0 .. b0+15 in element order, into out[4]. */
static inline void normals64(uint32_t b0, const pfi_photo_k *k, __m512 out[4]) {
    __m512i c0 = _mm512_add_epi32(_mm512_set1_epi32((int)b0),
                                  _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    u4 x = philox16(c0, k);
    __m512 z0, z1, z2, z3;
    box_muller16(x.c0, x.c1, &z0, &z1);
    box_muller16(x.c2, x.c3, &z2, &z3);
    __m512 a = _mm512_unpacklo_ps(z0, z1), b = _mm512_unpackhi_ps(z0, z1);
    __m512 c = _mm512_unpacklo_ps(z2, z3), d = _mm512_unpackhi_ps(z2, z3);
    __m512 e0 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(a), _mm512_castps_pd(c)));
    __m512 e1 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(a), _mm512_castps_pd(c)));
    __m512 e2 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(b), _mm512_castps_pd(d)));
    __m512 e3 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(b), _mm512_castps_pd(d)));
    /* e_j holds blocks j, j+4, j+8, j+12 (one per 128-bit lane) */
    __m512 t0 = _mm512_shuffle_f32x4(e0, e1, 0x44), t1 = _mm512_shuffle_f32x4(e2, e3, 0x44);
    __m512 t2 = _mm512_shuffle_f32x4(e0, e1, 0xEE), t3 = _mm512_shuffle_f32x4(e2, e3, 0xEE);
    out[0] = _mm512_shuffle_f32x4(t0, t1, 0x88);
    out[1] = _mm512_shuffle_f32x4(t0, t1, 0xDD);
    out[2] = _mm512_shuffle_f32x4(t2, t3, 0x88);
    out[3] = _mm512_shuffle_f32x4(t2, t3, 0xDD);
}

static void noise_f32(const void *src, void *dst, int32_t n, uint64_t e0, const pfi_photo_k *k) {
    const float *s = src;
    float *d = dst;
    __m512 sg = ps(k->sigma), mu = ps(k->mean);
    for (int32_t j = 0; j < n; j += 64) {
        __m512 z[4];
        normals64((uint32_t)((e0 + (uint64_t)j) >> 2), k, z);
        for (int v = 0; v < 4; v++) {
            __m512 o = _mm512_add_ps(_mm512_loadu_ps(s + j + 16 * v), _mm512_add_ps(_mm512_mul_ps(z[v], sg), mu));
            if (k->clip) o = _mm512_min_ps(_mm512_max_ps(o, _mm512_setzero_ps()), ps(1.0f));
            _mm512_storeu_ps(d + j + 16 * v, o);
        }
    }
}

static void noise_u8(const void *src, void *dst, int32_t n, uint64_t e0, const pfi_photo_k *k) {
    const uint8_t *s = src;
    uint8_t *d = dst;
    __m512 sg = ps(k->sigma), mu = ps(k->mean);
    for (int32_t j = 0; j < n; j += 64) {
        __m512 z[4];
        normals64((uint32_t)((e0 + (uint64_t)j) >> 2), k, z);
        for (int v = 0; v < 4; v++) {
            __m512 nf = _mm512_add_ps(_mm512_mul_ps(z[v], sg), mu);
            nf = _mm512_max_ps(_mm512_min_ps(nf, ps(32767.0f)), ps(-32768.0f));
            __m512i x = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(s + j + 16 * v)));
            __m512i o = _mm512_add_epi32(x, _mm512_cvttps_epi32(nf));
            if (k->clip) o = _mm512_min_epi32(_mm512_max_epi32(o, _mm512_setzero_si512()), _mm512_set1_epi32(255));
            _mm_storeu_si128((__m128i *)(void *)(d + j + 16 * v), _mm512_cvtepi32_epi8(o)); /* wraps mod 256 */
        }
    }
}

#endif
