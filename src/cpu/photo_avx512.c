/*
 * Photometric row kernels with AVX-512 (F+BW+VL, and FMA for the fused
 * multiply-adds torch performs): 16 pixels per step. Every kernel repeats
 * the reference's float operations in the same order (photo_math.h,
 * philox.h), so results are bit-identical to it; whole blocks only, the
 * caller runs the reference on the tails.
 *
 * RGB u8 rows are split into three 16-byte channel vectors with pshufb
 * (3 loads, 9 shuffles) and widened to float; f32 rows are split with two
 * vpermt2ps per channel. Stores reverse both.
 */
#include <immintrin.h>

#include "cpu/photo_exec.h"
#include "kernels/philox.h"
#include "kernels/photo_math.h"
#include "pixflow/core.h"

typedef struct rgbf { __m512 r, g, b; } rgbf;

/* pshufb masks: split[ch][v] gathers channel ch's bytes from source vector
 * v; join[ch][v] places channel ch's bytes into destination vector v. */
typedef struct masks { __m128i split[3][3], join[3][3]; } masks;

static masks make_masks(void) {
    masks m;
    for (int ch = 0; ch < 3; ch++)
        for (int v = 0; v < 3; v++) {
            uint8_t s[16], j[16];
            for (int i = 0; i < 16; i++) {
                int src = 3 * i + ch - 16 * v;
                s[i] = (uint8_t)(src >= 0 && src < 16 ? src : 0x80);
                int dj = 16 * v + i;
                j[i] = (uint8_t)(dj % 3 == ch ? dj / 3 : 0x80);
            }
            m.split[ch][v] = _mm_loadu_si128((const __m128i *)(const void *)s);
            m.join[ch][v] = _mm_loadu_si128((const __m128i *)(const void *)j);
        }
    return m;
}

static inline __m128i split_ch(const masks *m, int ch, __m128i a, __m128i b, __m128i c) {
    return _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, m->split[ch][0]), _mm_shuffle_epi8(b, m->split[ch][1])),
                        _mm_shuffle_epi8(c, m->split[ch][2]));
}

static inline rgbf load_u8(const masks *m, const uint8_t *p) {
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
    __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(p + 32));
    rgbf o;
    o.r = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(split_ch(m, 0, a, b, c)));
    o.g = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(split_ch(m, 1, a, b, c)));
    o.b = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(split_ch(m, 2, a, b, c)));
    return o;
}

/* int32 lanes already in [0, 255] -> interleaved bytes. */
static inline void store_u8i(const masks *m, uint8_t *p, __m512i r, __m512i g, __m512i b) {
    __m128i R = _mm512_cvtepi32_epi8(r), G = _mm512_cvtepi32_epi8(g), B = _mm512_cvtepi32_epi8(b);
    for (int v = 0; v < 3; v++) {
        __m128i o = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(R, m->join[0][v]), _mm_shuffle_epi8(G, m->join[1][v])),
                                 _mm_shuffle_epi8(B, m->join[2][v]));
        _mm_storeu_si128((__m128i *)(void *)(p + 16 * v), o);
    }
}

/* pfk_trunc_u8 on non-NaN lanes: clamp to [0, 255], truncate. */
static inline __m512i trunc_u8(__m512 v) {
    return _mm512_cvttps_epi32(_mm512_max_ps(_mm512_min_ps(v, _mm512_set1_ps(255.0f)), _mm512_setzero_ps()));
}

/* Split/join permutes for 16 interleaved f32 pixels (48 floats in three
 * vectors; element j is channel j % 3 of pixel j / 3). */
typedef struct fidx { __m512i s1[3], s2[3], j1[3], j2[3]; } fidx;

static fidx make_fidx(void) {
    fidx f;
    for (int ch = 0; ch < 3; ch++) {
        int32_t a[16], b[16];
        for (int i = 0; i < 16; i++) {
            int g = 3 * i + ch;
            a[i] = g < 32 ? g : 0;                /* from vectors 0, 1 */
            b[i] = g < 32 ? i : 16 + (g - 32);    /* keep, or take from vector 2 */
        }
        f.s1[ch] = _mm512_loadu_si512(a);
        f.s2[ch] = _mm512_loadu_si512(b);
    }
    for (int v = 0; v < 3; v++) {
        int32_t a[16], b[16];
        for (int k = 0; k < 16; k++) {
            int j = 16 * v + k, ch = j % 3, i = j / 3;
            a[k] = ch == 0 ? i : ch == 1 ? 16 + i : 0; /* R or G */
            b[k] = ch == 2 ? 16 + i : k;               /* keep, or B */
        }
        f.j1[v] = _mm512_loadu_si512(a);
        f.j2[v] = _mm512_loadu_si512(b);
    }
    return f;
}

static inline rgbf load_f32(const fidx *f, const float *p) {
    __m512 a = _mm512_loadu_ps(p), b = _mm512_loadu_ps(p + 16), c = _mm512_loadu_ps(p + 32);
    rgbf o;
    o.r = _mm512_permutex2var_ps(_mm512_permutex2var_ps(a, f->s1[0], b), f->s2[0], c);
    o.g = _mm512_permutex2var_ps(_mm512_permutex2var_ps(a, f->s1[1], b), f->s2[1], c);
    o.b = _mm512_permutex2var_ps(_mm512_permutex2var_ps(a, f->s1[2], b), f->s2[2], c);
    return o;
}

static inline void store_f32(const fidx *f, float *p, rgbf v) {
    for (int o = 0; o < 3; o++) {
        __m512 t = _mm512_permutex2var_ps(v.r, f->j1[o], v.g);
        _mm512_storeu_ps(p + 16 * o, _mm512_permutex2var_ps(t, f->j2[o], v.b));
    }
}

static inline __m512 clamp01(__m512 v) {
    return _mm512_min_ps(_mm512_max_ps(v, _mm512_setzero_ps()), _mm512_set1_ps(1.0f));
}

static inline __m512 gray(rgbf p) {
    return _mm512_fmadd_ps(p.b, _mm512_set1_ps(PFK_GRAY_B),
                           _mm512_fmadd_ps(p.g, _mm512_set1_ps(PFK_GRAY_G), _mm512_mul_ps(p.r, _mm512_set1_ps(PFK_GRAY_R))));
}

static inline __m512 blend(__m512 x, __m512 ratio, __m512 other, __m512 alpha) {
    return _mm512_fmadd_ps(other, alpha, _mm512_mul_ps(x, ratio));
}

/* ---------------------------------------------------------- contrast */

static void contrast_f32(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const float *s = src;
    float *d = dst;
    __m512 ratio = _mm512_set1_ps(k->ratio), alpha = _mm512_set1_ps(k->alpha), other = _mm512_set1_ps(k->other);
    for (int32_t j = 0; j < n; j += 16)
        _mm512_storeu_ps(d + j, clamp01(blend(_mm512_loadu_ps(s + j), ratio, other, alpha)));
}

/* -------------------------------------------------------- saturation */

static void saturation_u8(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const uint8_t *s = src;
    uint8_t *d = dst;
    masks m = make_masks();
    __m512 ratio = _mm512_set1_ps(k->ratio), alpha = _mm512_set1_ps(k->alpha);
    for (int32_t i = 0; i < n; i += 16) {
        rgbf p = load_u8(&m, s + 3 * i);
        __m512 g = _mm512_roundscale_ps(gray(p), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        store_u8i(&m, d + 3 * i, trunc_u8(blend(p.r, ratio, g, alpha)), trunc_u8(blend(p.g, ratio, g, alpha)),
                  trunc_u8(blend(p.b, ratio, g, alpha)));
    }
}

static void saturation_f32(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const float *s = src;
    float *d = dst;
    fidx f = make_fidx();
    __m512 ratio = _mm512_set1_ps(k->ratio), alpha = _mm512_set1_ps(k->alpha);
    for (int32_t i = 0; i < n; i += 16) {
        rgbf p = load_f32(&f, s + 3 * i);
        __m512 g = gray(p);
        rgbf o = {clamp01(blend(p.r, ratio, g, alpha)), clamp01(blend(p.g, ratio, g, alpha)),
                  clamp01(blend(p.b, ratio, g, alpha))};
        store_f32(&f, d + 3 * i, o);
    }
}

/* --------------------------------------------------------------- hue */

static inline rgbf hue_shift(rgbf p, __m512 hue) {
    const __m512 one = _mm512_set1_ps(1.0f), zero = _mm512_setzero_ps();
    __m512 maxc = _mm512_max_ps(_mm512_max_ps(p.r, p.g), p.b);
    __m512 minc = _mm512_min_ps(_mm512_min_ps(p.r, p.g), p.b);
    __mmask16 eqc = _mm512_cmp_ps_mask(maxc, minc, _CMP_EQ_OQ);
    __m512 cr = _mm512_sub_ps(maxc, minc);
    __m512 s = _mm512_div_ps(cr, _mm512_mask_blend_ps(eqc, maxc, one));
    __m512 crd = _mm512_mask_blend_ps(eqc, cr, one);
    __m512 rc = _mm512_div_ps(_mm512_sub_ps(maxc, p.r), crd);
    __m512 gc = _mm512_div_ps(_mm512_sub_ps(maxc, p.g), crd);
    __m512 bc = _mm512_div_ps(_mm512_sub_ps(maxc, p.b), crd);
    __mmask16 is_r = _mm512_cmp_ps_mask(maxc, p.r, _CMP_EQ_OQ);
    __mmask16 is_g = _mm512_cmp_ps_mask(maxc, p.g, _CMP_EQ_OQ);
    __m512 h = _mm512_sub_ps(_mm512_add_ps(gc, _mm512_set1_ps(4.0f)), rc);
    h = _mm512_mask_blend_ps(is_g, h, _mm512_sub_ps(_mm512_add_ps(rc, _mm512_set1_ps(2.0f)), bc));
    h = _mm512_mask_blend_ps(is_r, h, _mm512_sub_ps(bc, gc));
    h = _mm512_add_ps(_mm512_mul_ps(h, _mm512_set1_ps(PFK_ONE_SIXTH)), one);
    h = _mm512_mask_sub_ps(h, _mm512_cmp_ps_mask(h, one, _CMP_GE_OQ), h, one);
    /* hue add with remainder 1 */
    __m512 a = _mm512_add_ps(h, hue);
    __mmask16 neg = _mm512_cmp_ps_mask(a, zero, _CMP_LT_OQ);
    __mmask16 big = _mm512_cmp_ps_mask(a, one, _CMP_GE_OQ);
    a = _mm512_mask_add_ps(a, neg, a, one);
    a = _mm512_mask_sub_ps(a, big, a, one);
    /* hsv -> rgb */
    __m512 v = maxc;
    __m512 h6 = _mm512_mul_ps(a, _mm512_set1_ps(6.0f));
    __m512 fi = _mm512_roundscale_ps(h6, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    __m512 f = _mm512_sub_ps(h6, fi);
    __m512i i = _mm512_cvttps_epi32(fi);
    i = _mm512_mask_sub_epi32(i, _mm512_cmpge_epi32_mask(i, _mm512_set1_epi32(6)), i, _mm512_set1_epi32(6));
    __m512 sxf = _mm512_mul_ps(s, f);
    __m512 oms = _mm512_sub_ps(one, s);
    __m512 q = clamp01(_mm512_mul_ps(_mm512_sub_ps(one, sxf), v));
    __m512 t = clamp01(_mm512_mul_ps(_mm512_add_ps(sxf, oms), v));
    __m512 pp = clamp01(_mm512_mul_ps(oms, v));
    __mmask16 m0 = _mm512_cmpeq_epi32_mask(i, _mm512_setzero_si512());
    __mmask16 m1 = _mm512_cmpeq_epi32_mask(i, _mm512_set1_epi32(1));
    __mmask16 m2 = _mm512_cmpeq_epi32_mask(i, _mm512_set1_epi32(2));
    __mmask16 m3 = _mm512_cmpeq_epi32_mask(i, _mm512_set1_epi32(3));
    __mmask16 m4 = _mm512_cmpeq_epi32_mask(i, _mm512_set1_epi32(4));
    rgbf o;
    /* r: v q p p t v;  g: t v v q p p;  b: p p t v v q  (i = 0..5) */
    o.r = _mm512_mask_blend_ps((__mmask16)(m2 | m3), _mm512_mask_blend_ps(m1, _mm512_mask_blend_ps(m4, v, t), q), pp);
    o.g = _mm512_mask_blend_ps((__mmask16)(m1 | m2), _mm512_mask_blend_ps(m0, _mm512_mask_blend_ps(m3, pp, q), t), v);
    o.b = _mm512_mask_blend_ps((__mmask16)(m3 | m4), _mm512_mask_blend_ps(m2, _mm512_mask_blend_ps((__mmask16)(m0 | m1), q, pp), t), v);
    return o;
}

static void hue_u8(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const uint8_t *s = src;
    uint8_t *d = dst;
    masks m = make_masks();
    __m512 hue = _mm512_set1_ps(k->hue), inv = _mm512_set1_ps(PFK_INV255), sc = _mm512_set1_ps(PFK_TO_U8_SCALE);
    for (int32_t i = 0; i < n; i += 16) {
        rgbf p = load_u8(&m, s + 3 * i);
        p.r = _mm512_mul_ps(p.r, inv);
        p.g = _mm512_mul_ps(p.g, inv);
        p.b = _mm512_mul_ps(p.b, inv);
        rgbf o = hue_shift(p, hue);
        store_u8i(&m, d + 3 * i, trunc_u8(_mm512_mul_ps(o.r, sc)), trunc_u8(_mm512_mul_ps(o.g, sc)),
                  trunc_u8(_mm512_mul_ps(o.b, sc)));
    }
}

static void hue_f32(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const float *s = src;
    float *d = dst;
    fidx f = make_fidx();
    __m512 hue = _mm512_set1_ps(k->hue);
    for (int32_t i = 0; i < n; i += 16) store_f32(&f, d + 3 * i, hue_shift(load_f32(&f, s + 3 * i), hue));
}

/* ------------------------------------------------------------- twist */

static inline rgbf twist(rgbf p, const __m512 mv[12]) {
    rgbf o;
    __m512 *out[3] = {&o.r, &o.g, &o.b};
    for (int c = 0; c < 3; c++) {
        const __m512 *m = mv + 4 * c;
        __m512 acc = _mm512_add_ps(_mm512_mul_ps(m[0], p.r), _mm512_mul_ps(m[1], p.g));
        acc = _mm512_add_ps(acc, _mm512_mul_ps(m[2], p.b));
        *out[c] = _mm512_add_ps(acc, m[3]);
    }
    return o;
}

/* pfk_sat_u8_f: round half even; out-of-int32 and NaN give 0 (cvtps
 * returns INT_MIN there), then clamp. */
static inline __m512i sat_round_u8(__m512 v) {
    __m512i i = _mm512_cvtps_epi32(v);
    return _mm512_min_epi32(_mm512_max_epi32(i, _mm512_setzero_si512()), _mm512_set1_epi32(255));
}

static void twist_u8(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const uint8_t *s = src;
    uint8_t *d = dst;
    masks m = make_masks();
    __m512 mv[12];
    for (int c = 0; c < 12; c++) mv[c] = _mm512_set1_ps(k->m[c]);
    for (int32_t i = 0; i < n; i += 16) {
        rgbf o = twist(load_u8(&m, s + 3 * i), mv);
        store_u8i(&m, d + 3 * i, sat_round_u8(o.r), sat_round_u8(o.g), sat_round_u8(o.b));
    }
}

static void twist_f32(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const float *s = src;
    float *d = dst;
    fidx f = make_fidx();
    __m512 mv[12];
    for (int c = 0; c < 12; c++) mv[c] = _mm512_set1_ps(k->m[c]);
    for (int32_t i = 0; i < n; i += 16) store_f32(&f, d + 3 * i, twist(load_f32(&f, s + 3 * i), mv));
}

/* -------------------------------------------------------------- gray */

static void gray1_u8(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    (void)k;
    const uint8_t *s = src;
    uint8_t *d = dst;
    masks m = make_masks();
    for (int32_t i = 0; i < n; i += 16)
        _mm_storeu_si128((__m128i *)(void *)(d + i), _mm512_cvtepi32_epi8(trunc_u8(gray(load_u8(&m, s + 3 * i)))));
}

static void gray3_u8(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    (void)k;
    const uint8_t *s = src;
    uint8_t *d = dst;
    masks m = make_masks();
    for (int32_t i = 0; i < n; i += 16) {
        __m512i g = trunc_u8(gray(load_u8(&m, s + 3 * i)));
        store_u8i(&m, d + 3 * i, g, g, g);
    }
}

static uint64_t graysum_u8(const uint8_t *src, int32_t n) {
    masks m = make_masks();
    __m512i acc = _mm512_setzero_si512();
    for (int32_t i = 0; i < n; i += 16) /* gray >= 0: truncation is floor */
        acc = _mm512_add_epi32(acc, _mm512_cvttps_epi32(gray(load_u8(&m, src + 3 * i))));
    uint32_t lanes[16];
    _mm512_storeu_si512(lanes, acc);
    uint64_t sum = 0;
    for (int l = 0; l < 16; l++) sum += lanes[l];
    return sum;
}

void pfi_photo_fill_avx512(pfi_kfn *slots);
#include "cpu/photo_noise_avx512.h"

void pfi_photo_fill_avx512(pfi_kfn *slots) {
    if (!(pf_cpu_features() & PF_CPU_FMA)) return;
    slots[PFI_PHOTO_CONTRAST_F32] = (pfi_kfn)contrast_f32;
    slots[PFI_PHOTO_SAT_U8] = (pfi_kfn)saturation_u8;
    slots[PFI_PHOTO_SAT_F32] = (pfi_kfn)saturation_f32;
    slots[PFI_PHOTO_HUE_U8] = (pfi_kfn)hue_u8;
    slots[PFI_PHOTO_HUE_F32] = (pfi_kfn)hue_f32;
    slots[PFI_PHOTO_TWIST_U8] = (pfi_kfn)twist_u8;
    slots[PFI_PHOTO_TWIST_F32] = (pfi_kfn)twist_f32;
    slots[PFI_PHOTO_GRAY1_U8] = (pfi_kfn)gray1_u8;
    slots[PFI_PHOTO_GRAY3_U8] = (pfi_kfn)gray3_u8;
    slots[PFI_PHOTO_GRAYSUM_U8] = (pfi_kfn)graysum_u8;
    slots[PFI_PHOTO_NOISE_U8] = (pfi_kfn)noise_u8;
    slots[PFI_PHOTO_NOISE_F32] = (pfi_kfn)noise_f32;
}
