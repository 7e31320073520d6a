/*
 * 4:2:0 YUV kernels with AVX-512 (F/BW) + VBMI byte permutes: the
 * avx512vbmi level (the avx512 level keeps the AVX2 kernels).
 *
 * The arithmetic is the reference's, lane for lane: 32-bit products with
 * the 2^20-scaled coefficients of src/kernels/yuv_math.h, arithmetic shift,
 * then signed-saturating 32->16 and unsigned-saturating 16->8 packs (which
 * together equal sat_u8 of the int32). Nothing is approximated, so the
 * output is bit-identical to the reference for every matrix and range.
 *
 * Decode, per 64 pixels x 2 rows: luma is loaded as 16-bit pairs and
 * widened to 32-bit lanes holding (Y[2k], Y[2k+1]), so the even and odd
 * luma of lane k share chroma lane k without any shuffle; NV12 chroma is
 * widened the same way ((U, V) pair per lane). The packs leave R, G and B
 * bytes in a fixed scrambled pixel order, and one VBMI permute per output
 * vector and channel (merge-masked) writes interleaved RGB/BGR/RGBA/BGRA
 * in final order. The permute tables are derived once from the pack order.
 *
 * Encode, per 64 pixels of a row: masked loads of 16 pixels (never past
 * the row), VBMI zero-masked permutes to 32-bit R, G, B lanes, products,
 * packs, one permute back to pixel order. Chroma (even rows, even pixels:
 * the top-left of each 2x2 block) reuses the R, G, B lanes of the even
 * pixels (vpermt2d).
 */
#include <immintrin.h>
#include <string.h>

#include "cpu/yuv_exec.h"
#include "pixflow/core.h"

/* Tables built once by the fill function (under the family's once). */
static uint8_t k_dec_idx[2][4][64];    /* [cn-3][output vector][byte] -> channel byte */
static uint64_t k_dec_mask[2][4][4];   /* [cn-3][vector][channel] */
static uint8_t k_enc_y_idx[64];        /* packed Y -> pixel order */
static uint8_t k_enc_p_idx[64];        /* packed U,V -> u[0..31], v[0..31] */
static uint8_t k_enc_sp_idx[2][64];    /* packed U,V -> (u,v) pairs; [1]: (v,u) */
static uint8_t k_enc_rgb_idx[2][64];   /* 3-channel: channel offset 0 / 2 -> dword lanes */

/* Source of byte q of packus(packs(a, b), packs(c, d)): vector 0..3
 * (a, b, c, d) and its 32-bit lane. */
static void pack_src(int q, int *vec, int *lane) {
    int j = q >> 4, r = q & 15;
    *vec = (r >= 8) * 2 + ((r & 7) >= 4);
    *lane = 4 * j + (r & 3);
}

static void build_tables(void) {
    int inv[64]; /* decode: pixel -> byte in a packed channel vector */
    for (int q = 0; q < 64; q++) {
        int vec, lane;
        pack_src(q, &vec, &lane);
        inv[32 * (vec >> 1) + 2 * lane + (vec & 1)] = q;
    }
    for (int c4 = 0; c4 < 2; c4++) {
        int cn = 3 + c4;
        for (int m = 0; m < cn; m++) {
            for (int c = 0; c < 4; c++) k_dec_mask[c4][m][c] = 0;
            for (int b = 0; b < 64; b++) {
                int t = 64 * m + b;
                k_dec_idx[c4][m][b] = (uint8_t)inv[t / cn];
                k_dec_mask[c4][m][t % cn] |= 1ull << b;
            }
        }
    }
    for (int q = 0; q < 64; q++) {
        int vec, lane;
        pack_src(q, &vec, &lane);
        int px = 16 * vec + lane;          /* Y: vectors are pixels 0..15, 16..31, ... */
        k_enc_y_idx[px] = (uint8_t)q;
        int ci = 16 * (vec & 1) + lane;    /* chroma: U0, U1, V0, V1 */
        int isv = vec >> 1;
        k_enc_p_idx[32 * isv + ci] = (uint8_t)q;
        k_enc_sp_idx[0][2 * ci + isv] = (uint8_t)q;
        k_enc_sp_idx[1][2 * ci + !isv] = (uint8_t)q;
    }
    /* 3-channel groups of 16 pixels: byte 3k (table 0) or 3k + 2 (table 1)
     * into the low byte of dword lane k; G is table 0 plus one. */
    memset(k_enc_rgb_idx, 0, sizeof k_enc_rgb_idx);
    for (int k = 0; k < 16; k++) {
        k_enc_rgb_idx[0][4 * k] = (uint8_t)(3 * k);
        k_enc_rgb_idx[1][4 * k] = (uint8_t)(3 * k + 2);
    }
}

static inline __m512i load_idx(const uint8_t *t) { return _mm512_loadu_si512(t); }

/* ---------------------------------------------------------------- decode */

typedef struct dec_k {
    __m512i cy, cvr, cvg, cug, cub, half, c128, lo8;
    __m512i yoff;
} dec_k;

static inline dec_k dec_consts(const pfi_yuv_params *p) {
    dec_k k;
    k.cy = _mm512_set1_epi32(p->k.cy);
    k.cvr = _mm512_set1_epi32(p->k.cvr);
    k.cvg = _mm512_set1_epi32(p->k.cvg);
    k.cug = _mm512_set1_epi32(p->k.cug);
    k.cub = _mm512_set1_epi32(p->k.cub);
    k.half = _mm512_set1_epi32(PFK_YUV_HALF);
    k.c128 = _mm512_set1_epi32(128);
    k.lo8 = _mm512_set1_epi32(0xff);
    k.yoff = _mm512_set1_epi8((char)p->k.y_off);
    return k;
}

typedef struct chroma3 { __m512i r, g, b; } chroma3;

/* Chroma terms for 16 chroma samples (u, v: 0..255 in 32-bit lanes). */
static inline chroma3 chroma_terms(const dec_k *k, __m512i u, __m512i v) {
    __m512i uu = _mm512_sub_epi32(u, k->c128), vv = _mm512_sub_epi32(v, k->c128);
    chroma3 c;
    c.r = _mm512_add_epi32(k->half, _mm512_mullo_epi32(k->cvr, vv));
    c.g = _mm512_add_epi32(_mm512_add_epi32(k->half, _mm512_mullo_epi32(k->cvg, vv)),
                           _mm512_mullo_epi32(k->cug, uu));
    c.b = _mm512_add_epi32(k->half, _mm512_mullo_epi32(k->cub, uu));
    return c;
}

typedef struct rgb8 { __m512i r, g, b; } rgb8;

/* One row of 64 pixels: R, G, B bytes in packed (scrambled) order. */
static inline rgb8 dec_row(const dec_k *k, const uint8_t *y, const chroma3 c[2]) {
    __m512i raw = _mm512_subs_epu8(_mm512_loadu_si512(y), k->yoff); /* max(0, Y - y_off) */
    __m512i r[4], g[4], b[4];
    for (int h = 0; h < 2; h++) {
        __m256i half = h ? _mm512_extracti64x4_epi64(raw, 1) : _mm512_castsi512_si256(raw);
        __m512i pr = _mm512_cvtepu16_epi32(half);
        __m512i ye = _mm512_mullo_epi32(_mm512_and_si512(pr, k->lo8), k->cy);
        __m512i yo = _mm512_mullo_epi32(_mm512_srli_epi32(pr, 8), k->cy);
        r[2 * h] = _mm512_srai_epi32(_mm512_add_epi32(ye, c[h].r), PFK_YUV_SHIFT);
        r[2 * h + 1] = _mm512_srai_epi32(_mm512_add_epi32(yo, c[h].r), PFK_YUV_SHIFT);
        g[2 * h] = _mm512_srai_epi32(_mm512_add_epi32(ye, c[h].g), PFK_YUV_SHIFT);
        g[2 * h + 1] = _mm512_srai_epi32(_mm512_add_epi32(yo, c[h].g), PFK_YUV_SHIFT);
        b[2 * h] = _mm512_srai_epi32(_mm512_add_epi32(ye, c[h].b), PFK_YUV_SHIFT);
        b[2 * h + 1] = _mm512_srai_epi32(_mm512_add_epi32(yo, c[h].b), PFK_YUV_SHIFT);
    }
    rgb8 o;
    o.r = _mm512_packus_epi16(_mm512_packs_epi32(r[0], r[1]), _mm512_packs_epi32(r[2], r[3]));
    o.g = _mm512_packus_epi16(_mm512_packs_epi32(g[0], g[1]), _mm512_packs_epi32(g[2], g[3]));
    o.b = _mm512_packus_epi16(_mm512_packs_epi32(b[0], b[1]), _mm512_packs_epi32(b[2], b[3]));
    return o;
}

/* Interleaves 64 pixels into dst (cn 3 or 4) in final pixel order. */
static inline void store_px(uint8_t *dst, rgb8 px, const pfi_yuv_params *p) {
    const int c4 = p->cn - 3;
    __m512i ch[3] = {p->blue_first ? px.b : px.r, px.g, p->blue_first ? px.r : px.b};
    __m512i alpha = _mm512_set1_epi8((char)0xff);
    for (int m = 0; m < p->cn; m++) {
        __m512i idx = load_idx(k_dec_idx[c4][m]);
        const uint64_t *mk = k_dec_mask[c4][m];
        __m512i o = _mm512_mask_permutexvar_epi8(alpha, mk[0], idx, ch[0]);
        o = _mm512_mask_permutexvar_epi8(o, mk[1], idx, ch[1]);
        o = _mm512_mask_permutexvar_epi8(o, mk[2], idx, ch[2]);
        _mm512_storeu_si512(dst + 64 * m, o);
    }
}

static void sp_to_rgb(const uint8_t *y0, const uint8_t *y1, const uint8_t *uv, uint8_t *d0,
                      uint8_t *d1, int32_t width, const pfi_yuv_params *p) {
    const dec_k k = dec_consts(p);
    const int32_t cn = p->cn;
    for (int32_t x = 0; x < width; x += 64) {
        __m512i raw = _mm512_loadu_si512(uv + x); /* 32 chroma pairs */
        chroma3 c[2];
        for (int h = 0; h < 2; h++) {
            __m512i pr = _mm512_cvtepu16_epi32(h ? _mm512_extracti64x4_epi64(raw, 1)
                                                 : _mm512_castsi512_si256(raw));
            __m512i a = _mm512_and_si512(pr, k.lo8), b = _mm512_srli_epi32(pr, 8);
            c[h] = p->swap_uv ? chroma_terms(&k, b, a) : chroma_terms(&k, a, b);
        }
        store_px(d0 + x * cn, dec_row(&k, y0 + x, c), p);
        store_px(d1 + x * cn, dec_row(&k, y1 + x, c), p);
    }
}

static void p_to_rgb(const uint8_t *y0, const uint8_t *y1, const uint8_t *u, const uint8_t *v,
                     uint8_t *d0, uint8_t *d1, int32_t width, const pfi_yuv_params *p) {
    const dec_k k = dec_consts(p);
    const int32_t cn = p->cn;
    for (int32_t x = 0; x < width; x += 64) {
        chroma3 c[2];
        for (int h = 0; h < 2; h++) {
            __m512i uu = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(u + x / 2 + 16 * h)));
            __m512i vv = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(v + x / 2 + 16 * h)));
            c[h] = chroma_terms(&k, uu, vv);
        }
        store_px(d0 + x * cn, dec_row(&k, y0 + x, c), p);
        store_px(d1 + x * cn, dec_row(&k, y1 + x, c), p);
    }
}

/* ---------------------------------------------------------------- encode */

typedef struct enc_k {
    __m512i cry, cgy, cby, ky, cru, cgu, cbu, crv, cgv, cbv, kc, lo8;
    __m512i ridx, gidx, bidx, yidx, even;
} enc_k;

static inline enc_k enc_consts(const pfi_yuv_params *p) {
    enc_k k;
    k.cry = _mm512_set1_epi32(p->k.cry);
    k.cgy = _mm512_set1_epi32(p->k.cgy);
    k.cby = _mm512_set1_epi32(p->k.cby);
    k.ky = _mm512_set1_epi32(PFK_YUV_HALF + (p->k.y_off << PFK_YUV_SHIFT));
    k.cru = _mm512_set1_epi32(p->k.cru);
    k.cgu = _mm512_set1_epi32(p->k.cgu);
    k.cbu = _mm512_set1_epi32(p->k.cbu);
    k.crv = _mm512_set1_epi32(p->k.crv);
    k.cgv = _mm512_set1_epi32(p->k.cgv);
    k.cbv = _mm512_set1_epi32(p->k.cbv);
    k.kc = _mm512_set1_epi32(PFK_YUV_HALF + (128 << PFK_YUV_SHIFT));
    k.lo8 = _mm512_set1_epi32(0xff);
    /* 3-channel: R at byte 3k + ri of the 48-byte group; G, B follow */
    const __m512i one = _mm512_set1_epi32(1);
    k.ridx = load_idx(k_enc_rgb_idx[p->blue_first ? 1 : 0]);
    k.gidx = _mm512_add_epi32(load_idx(k_enc_rgb_idx[0]), one);
    k.bidx = load_idx(k_enc_rgb_idx[p->blue_first ? 0 : 1]);
    k.yidx = load_idx(k_enc_y_idx);
    k.even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    return k;
}

typedef struct lanes { __m512i r[4], g[4], b[4]; } lanes;

/* R, G, B of 64 pixels as 32-bit lanes (vector g holds pixels 16g..16g+15). */
static inline void enc_load(const enc_k *k, const uint8_t *s, int32_t cn, int blue_first,
                            lanes *o) {
    const __mmask64 dw0 = 0x1111111111111111ull;
    for (int g = 0; g < 4; g++) {
        if (cn == 3) {
            __m512i v = _mm512_maskz_loadu_epi8(0xffffffffffffull, s + 48 * g);
            o->r[g] = _mm512_maskz_permutexvar_epi8(dw0, k->ridx, v);
            o->g[g] = _mm512_maskz_permutexvar_epi8(dw0, k->gidx, v);
            o->b[g] = _mm512_maskz_permutexvar_epi8(dw0, k->bidx, v);
        } else {
            __m512i v = _mm512_loadu_si512(s + 64 * g);
            __m512i c0 = _mm512_and_si512(v, k->lo8);
            __m512i c2 = _mm512_and_si512(_mm512_srli_epi32(v, 16), k->lo8);
            o->g[g] = _mm512_and_si512(_mm512_srli_epi32(v, 8), k->lo8);
            o->r[g] = blue_first ? c2 : c0;
            o->b[g] = blue_first ? c0 : c2;
        }
    }
}

static inline __m512i dot3(__m512i r, __m512i g, __m512i b, __m512i cr, __m512i cg, __m512i cb,
                           __m512i add) {
    __m512i s = _mm512_add_epi32(_mm512_mullo_epi32(r, cr), _mm512_mullo_epi32(g, cg));
    s = _mm512_add_epi32(s, _mm512_add_epi32(_mm512_mullo_epi32(b, cb), add));
    return _mm512_srai_epi32(s, PFK_YUV_SHIFT);
}

static inline void enc_luma(const enc_k *k, const lanes *l, uint8_t *y) {
    __m512i v[4];
    for (int g = 0; g < 4; g++) v[g] = dot3(l->r[g], l->g[g], l->b[g], k->cry, k->cgy, k->cby, k->ky);
    __m512i pk = _mm512_packus_epi16(_mm512_packs_epi32(v[0], v[1]), _mm512_packs_epi32(v[2], v[3]));
    _mm512_storeu_si512(y, _mm512_permutexvar_epi8(k->yidx, pk));
}

/* U, V of the 32 even pixels, packed: packus(packs(U0, U1), packs(V0, V1)). */
static inline __m512i enc_chroma(const enc_k *k, const lanes *l) {
    __m512i u[2], v[2];
    for (int h = 0; h < 2; h++) {
        __m512i r = _mm512_permutex2var_epi32(l->r[2 * h], k->even, l->r[2 * h + 1]);
        __m512i g = _mm512_permutex2var_epi32(l->g[2 * h], k->even, l->g[2 * h + 1]);
        __m512i b = _mm512_permutex2var_epi32(l->b[2 * h], k->even, l->b[2 * h + 1]);
        u[h] = dot3(r, g, b, k->cru, k->cgu, k->cbu, k->kc);
        v[h] = dot3(r, g, b, k->crv, k->cgv, k->cbv, k->kc);
    }
    return _mm512_packus_epi16(_mm512_packs_epi32(u[0], u[1]), _mm512_packs_epi32(v[0], v[1]));
}

static void rgb_to_p(const uint8_t *s0, const uint8_t *s1, uint8_t *y0, uint8_t *y1, uint8_t *u,
                     uint8_t *v, int32_t width, const pfi_yuv_params *p) {
    const enc_k k = enc_consts(p);
    const int32_t cn = p->cn;
    const __m512i pidx = load_idx(k_enc_p_idx);
    lanes l;
    for (int32_t x = 0; x < width; x += 64) {
        enc_load(&k, s0 + x * cn, cn, p->blue_first, &l);
        enc_luma(&k, &l, y0 + x);
        __m512i uv = _mm512_permutexvar_epi8(pidx, enc_chroma(&k, &l));
        _mm256_storeu_si256((__m256i *)(void *)(u + x / 2), _mm512_castsi512_si256(uv));
        _mm256_storeu_si256((__m256i *)(void *)(v + x / 2), _mm512_extracti64x4_epi64(uv, 1));
        enc_load(&k, s1 + x * cn, cn, p->blue_first, &l);
        enc_luma(&k, &l, y1 + x);
    }
}

static void rgb_to_sp(const uint8_t *s0, const uint8_t *s1, uint8_t *y0, uint8_t *y1,
                      uint8_t *uv, int32_t width, const pfi_yuv_params *p) {
    const enc_k k = enc_consts(p);
    const int32_t cn = p->cn;
    const __m512i sidx = load_idx(k_enc_sp_idx[p->swap_uv ? 1 : 0]);
    lanes l;
    for (int32_t x = 0; x < width; x += 64) {
        enc_load(&k, s0 + x * cn, cn, p->blue_first, &l);
        enc_luma(&k, &l, y0 + x);
        _mm512_storeu_si512(uv + x, _mm512_permutexvar_epi8(sidx, enc_chroma(&k, &l)));
        enc_load(&k, s1 + x * cn, cn, p->blue_first, &l);
        enc_luma(&k, &l, y1 + x);
    }
}

void pfi_yuv_fill_avx512vbmi(pfi_yuv_kernels *k) {
    build_tables();
    k->sp_to_rgb = sp_to_rgb;
    k->p_to_rgb = p_to_rgb;
    k->rgb_to_p = rgb_to_p;
    k->rgb_to_sp = rgb_to_sp;
}
