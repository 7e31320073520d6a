/* The AVX-512 (F+BW+VL, FMA) lane vocabulary of photo_simd_impl.h, shared
 * by photo_avx512.c and photo_avx512vbmi.c (PF_PHOTO_VBMI 1: byte permutes
 * for the RGB u8 (de)interleave). Include after <immintrin.h> and the
 * photo headers, define PFS(name) first. */
#ifndef PF_CPU_PHOTO_AVX512_VOCAB_H
#define PF_CPU_PHOTO_AVX512_VOCAB_H

#define PFS_N 16
#define PFS_AI static inline __attribute__((always_inline))
typedef __m512 VF;
typedef __m512i VI;
typedef __mmask16 VM;

#define vf_set1 _mm512_set1_ps
#define vf_zero _mm512_setzero_ps
#define vf_add _mm512_add_ps
#define vf_sub _mm512_sub_ps
#define vf_mul _mm512_mul_ps
#define vf_div _mm512_div_ps
#define vf_min _mm512_min_ps
#define vf_max _mm512_max_ps
#define vf_sqrt _mm512_sqrt_ps
#define vf_floor(v) _mm512_roundscale_ps((v), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
#define vf_fmadd _mm512_fmadd_ps
#define vf_from_vi _mm512_cvtepi32_ps
#define vf_ld(p) _mm512_loadu_ps(p)
#define vf_st(p, v) _mm512_storeu_ps((p), (v))
#define vf_eq(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_EQ_OQ)
#define vf_lt(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_LT_OQ)
#define vf_ge(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_GE_OQ)
#define vf_sel(m, t, f) _mm512_mask_blend_ps((m), (f), (t))
#define vm_or(a, b) ((__mmask16)((a) | (b)))
#define vf_as_vi _mm512_castps_si512
#define vi_as_vf _mm512_castsi512_ps

#define vi_set1(x) _mm512_set1_epi32((int)(x))
#define vi_iota() _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#define vi_add _mm512_add_epi32
#define vi_sub _mm512_sub_epi32
#define vi_mullo _mm512_mullo_epi32
#define vi_xor _mm512_xor_si512
#define vi_and _mm512_and_si512
#define vi_or _mm512_or_si512
#define vi_srli(v, n) _mm512_srli_epi32((v), (n))
#define vi_slli(v, n) _mm512_slli_epi32((v), (n))
#define vi_min _mm512_min_epi32
#define vi_max _mm512_max_epi32
#define vi_eq(a, b) _mm512_cmpeq_epi32_mask((a), (b))
#define vi_gt(a, b) _mm512_cmpgt_epi32_mask((a), (b))
#define vi_sel(m, t, f) _mm512_mask_blend_epi32((m), (f), (t))
#define vi_trunc _mm512_cvttps_epi32
#define vi_round _mm512_cvtps_epi32 /* MXCSR default: round half to even */

PFS_AI VI vi_mulhi_u32(VI a, VI m) {
    __m512i even = _mm512_srli_epi64(_mm512_mul_epu32(a, m), 32);
    __m512i odd = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), m);
    return _mm512_mask_blend_epi32((__mmask16)0xAAAA, even, odd);
}

PFS_AI uint64_t vi_hsum(VI v) {
    /* lanes are uint32: widen before adding */
    __m512i lo = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(v));
    __m512i hi = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(v, 1));
    return (uint64_t)_mm512_reduce_add_epi64(_mm512_add_epi64(lo, hi));
}

#if PF_PHOTO_VBMI
/* VBMI: one masked 48-byte load (no fault past it) and one byte permute
 * per channel put each pixel's byte in its dword; the store packs with
 * saturation and one byte permute interleaves. */
PFS_AI __m512i pf_idx_bytes(const uint8_t t[64]) { return _mm512_loadu_si512(t); }
static const uint8_t k_vsplit[3][64] = {
#define PF_R4(c, i) 3 * (i) + (c), 0, 0, 0
#define PF_R16(c, i) PF_R4(c, i), PF_R4(c, i + 1), PF_R4(c, i + 2), PF_R4(c, i + 3)
#define PF_ROW(c) {PF_R16(c, 0), PF_R16(c, 4), PF_R16(c, 8), PF_R16(c, 12)}
    PF_ROW(0), PF_ROW(1), PF_ROW(2)
#undef PF_ROW
#undef PF_R16
#undef PF_R4
};
/* output byte 3p + c <- packed byte 16 (p / 4) + 4 c + p % 4 */
static const uint8_t k_vjoin[64] = {
#define PF_P(p) 16 * ((p) / 4) + (p) % 4, 16 * ((p) / 4) + 4 + (p) % 4, 16 * ((p) / 4) + 8 + (p) % 4
#define PF_P4(p) PF_P(p), PF_P(p + 1), PF_P(p + 2), PF_P(p + 3)
    PF_P4(0), PF_P4(4), PF_P4(8), PF_P4(12)
#undef PF_P4
#undef PF_P
};
PFS_AI void ld3u8(const uint8_t *p, VI *r, VI *g, VI *b) {
    __m512i v = _mm512_maskz_loadu_epi8(0xFFFFFFFFFFFFull, p);
    const __mmask64 low = 0x1111111111111111ull; /* byte 0 of each dword */
    *r = _mm512_maskz_permutexvar_epi8(low, pf_idx_bytes(k_vsplit[0]), v);
    *g = _mm512_maskz_permutexvar_epi8(low, pf_idx_bytes(k_vsplit[1]), v);
    *b = _mm512_maskz_permutexvar_epi8(low, pf_idx_bytes(k_vsplit[2]), v);
}
/* The same permutes merged into 0x4B000000 lanes: floats 2^23 + x. */
PFS_AI void ld3u8_2p23(const uint8_t *p, VF *r, VF *g, VF *b) {
    __m512i v = _mm512_maskz_loadu_epi8(0xFFFFFFFFFFFFull, p);
    const __mmask64 low = 0x1111111111111111ull;
    const __m512i bias = _mm512_set1_epi32(0x4B000000);
    *r = _mm512_castsi512_ps(_mm512_mask_permutexvar_epi8(bias, low, pf_idx_bytes(k_vsplit[0]), v));
    *g = _mm512_castsi512_ps(_mm512_mask_permutexvar_epi8(bias, low, pf_idx_bytes(k_vsplit[1]), v));
    *b = _mm512_castsi512_ps(_mm512_mask_permutexvar_epi8(bias, low, pf_idx_bytes(k_vsplit[2]), v));
}
PFS_AI void st3u8(uint8_t *p, VI r, VI g, VI b) {
    __m512i x = _mm512_packus_epi16(_mm512_packs_epi32(r, g), _mm512_packs_epi32(b, b));
    _mm512_mask_storeu_epi8(p, 0xFFFFFFFFFFFFull, _mm512_permutexvar_epi8(pf_idx_bytes(k_vjoin), x));
}
#else
/* 16 pixels = bytes [0, 48) as a 32- and a 16-byte load; a dword permute
 * gives 128-bit lane i the bytes of pixels 4i..4i+3 at 0..11, then one
 * pshufb per channel spreads them to dwords. */
PFS_AI void ld3u8(const uint8_t *p, VI *r, VI *g, VI *b) {
    __m512i v = _mm512_inserti32x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(const void *)p)),
                                   _mm_loadu_si128((const __m128i *)(const void *)(p + 32)), 2);
    v = _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 1, 2, 2, 3, 4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11), v);
    const char z = -128;
#define PF_SPLIT_MASK(c)                                                                                          \
    _mm512_broadcast_i32x4(_mm_setr_epi8((c), z, z, z, (char)(3 + (c)), z, z, z, (char)(6 + (c)), z, z, z,       \
                                         (char)(9 + (c)), z, z, z))
    *r = _mm512_shuffle_epi8(v, PF_SPLIT_MASK(0));
    *g = _mm512_shuffle_epi8(v, PF_SPLIT_MASK(1));
    *b = _mm512_shuffle_epi8(v, PF_SPLIT_MASK(2));
#undef PF_SPLIT_MASK
}

/* Saturating packs (int32 -> int16 -> u8 clamp each lane to [0, 255]):
 * per 128-bit lane the bytes are r0..3 g0..3 b0..3 b0..3; one pshufb
 * interleaves the first 12, a dword permute joins the four lanes. */
PFS_AI void st3u8(uint8_t *p, VI r, VI g, VI b) {
    __m512i x = _mm512_packus_epi16(_mm512_packs_epi32(r, g), _mm512_packs_epi32(b, b));
    const char z = -128;
    x = _mm512_shuffle_epi8(x, _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, z, z, z, z)));
    x = _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 3, 7, 11, 15), x);
    _mm256_storeu_si256((__m256i *)(void *)p, _mm512_castsi512_si256(x));
    _mm_storeu_si128((__m128i *)(void *)(p + 32), _mm512_extracti32x4_epi32(x, 2));
}

#endif

#if !PF_PHOTO_VBMI
PFS_AI void ld3u8_2p23(const uint8_t *p, VF *r, VF *g, VF *b) {
    VI a, c, e;
    ld3u8(p, &a, &c, &e);
    const VI bias = _mm512_set1_epi32(0x4B000000);
    *r = _mm512_castsi512_ps(_mm512_or_si512(a, bias));
    *g = _mm512_castsi512_ps(_mm512_or_si512(c, bias));
    *b = _mm512_castsi512_ps(_mm512_or_si512(e, bias));
}
#endif

PFS_AI VI ld1u8(const uint8_t *p) { return _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)p)); }

PFS_AI void st1u8(uint8_t *p, VI v) { _mm_storeu_si128((__m128i *)(void *)p, _mm512_cvtepi32_epi8(v)); }

/* Split/join permutes for 16 interleaved f32 pixels (48 floats in three
 * vectors; element j is channel j % 3 of pixel j / 3): two vpermt2ps per
 * channel each way. */
static const int32_t k_s1[3][16] = {{0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 0, 0, 0, 0, 0},
                                    {1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 0, 0, 0, 0, 0},
                                    {2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 0, 0, 0, 0, 0, 0}};
static const int32_t k_s2[3][16] = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17, 20, 23, 26, 29},
                                    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 18, 21, 24, 27, 30},
                                    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 19, 22, 25, 28, 31}};
static const int32_t k_j1[3][16] = {{0, 16, 0, 1, 17, 0, 2, 18, 0, 3, 19, 0, 4, 20, 0, 5},
                                    {21, 0, 6, 22, 0, 7, 23, 0, 8, 24, 0, 9, 25, 0, 10, 26},
                                    {0, 11, 27, 0, 12, 28, 0, 13, 29, 0, 14, 30, 0, 15, 31, 0}};
static const int32_t k_j2[3][16] = {{0, 1, 16, 3, 4, 17, 6, 7, 18, 9, 10, 19, 12, 13, 20, 15},
                                    {0, 21, 2, 3, 22, 5, 6, 23, 8, 9, 24, 11, 12, 25, 14, 15},
                                    {26, 1, 2, 27, 4, 5, 28, 7, 8, 29, 10, 11, 30, 13, 14, 31}};

PFS_AI VF split3f(int ch, VF a, VF b, VF c) {
    VF ab = _mm512_permutex2var_ps(a, _mm512_loadu_si512(k_s1[ch]), b);
    return _mm512_permutex2var_ps(ab, _mm512_loadu_si512(k_s2[ch]), c);
}

PFS_AI void ld3f(const float *p, VF *r, VF *g, VF *b) {
    VF a = _mm512_loadu_ps(p), bb = _mm512_loadu_ps(p + 16), c = _mm512_loadu_ps(p + 32);
    *r = split3f(0, a, bb, c);
    *g = split3f(1, a, bb, c);
    *b = split3f(2, a, bb, c);
}

PFS_AI void st3f(float *p, VF r, VF g, VF b) {
    for (int o = 0; o < 3; o++) {
        VF t = _mm512_permutex2var_ps(r, _mm512_loadu_si512(k_j1[o]), g);
        _mm512_storeu_ps(p + 16 * o, _mm512_permutex2var_ps(t, _mm512_loadu_si512(k_j2[o]), b));
    }
}

/* z_c lane l = component c of block l -> elements 4l + c in order. */
PFS_AI void transpose4(VF z0, VF z1, VF z2, VF z3, VF out[4]) {
    VF a = _mm512_unpacklo_ps(z0, z1), b = _mm512_unpackhi_ps(z0, z1);
    VF c = _mm512_unpacklo_ps(z2, z3), d = _mm512_unpackhi_ps(z2, z3);
    VF e0 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(a), _mm512_castps_pd(c)));
    VF e1 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(a), _mm512_castps_pd(c)));
    VF e2 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(b), _mm512_castps_pd(d)));
    VF e3 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(b), _mm512_castps_pd(d)));
    /* e_j holds blocks j, j+4, j+8, j+12 (one per 128-bit lane) */
    VF t0 = _mm512_shuffle_f32x4(e0, e1, 0x44), t1 = _mm512_shuffle_f32x4(e2, e3, 0x44);
    VF t2 = _mm512_shuffle_f32x4(e0, e1, 0xEE), t3 = _mm512_shuffle_f32x4(e2, e3, 0xEE);
    out[0] = _mm512_shuffle_f32x4(t0, t1, 0x88);
    out[1] = _mm512_shuffle_f32x4(t0, t1, 0xDD);
    out[2] = _mm512_shuffle_f32x4(t2, t3, 0x88);
    out[3] = _mm512_shuffle_f32x4(t2, t3, 0xDD);
}

/* n is a multiple of 16: 64-byte steps, then 16-byte steps. */
PFS_AI void inv_bytes(const uint8_t *s, uint8_t *d, int32_t n) {
    const __m512i ones = _mm512_set1_epi32(-1);
    int32_t j = 0;
    for (; j + 64 <= n; j += 64) _mm512_storeu_si512(d + j, _mm512_xor_si512(_mm512_loadu_si512(s + j), ones));
    for (; j < n; j += 16)
        _mm_storeu_si128((__m128i *)(void *)(d + j),
                         _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(s + j)), _mm_set1_epi8(-1)));
}

#endif
