/*
 * 4:2:0 YUV kernels with AVX2, for CPUs without AVX-512 VBMI (and for
 * PIXFLOW_CPU=avx2). Compiled with -mavx2 for this file only.
 *
 * The arithmetic is the reference's, lane for lane: 32-bit products with
 * the 2^20-scaled coefficients of src/kernels/yuv_math.h (vpmulld),
 * arithmetic shift, then signed-saturating 32->16 and unsigned-saturating
 * 16->8 packs (which together equal sat_u8 of the int32). Nothing is
 * approximated, so the output is bit-identical to the reference for every
 * matrix and range. All shuffles stay inside 128-bit lanes except a few
 * vperm2i128 / vpermd that put lanes in memory order.
 *
 * Decode, per 32 pixels x 2 rows: the 32 luma bytes are read as 16-bit
 * (Y[2k], Y[2k+1]) pairs and zero-extended to 32-bit lanes with
 * vpunpckl/hwd, so the even and odd luma of lane k share chroma lane k
 * (NV12 chroma, or I420 U/V interleaved first, is widened the same way).
 * The packs then leave each 128-bit lane holding 16 consecutive pixels in
 * a fixed scrambled order (0,2,4,6,1,3,5,7,8,10,...). vpshufb masks that
 * undo the scramble while interleaving (libyuv style: three masked
 * shuffles and two ORs per 16-byte output chunk) write packed RGB/BGR;
 * RGBA/BGRA use one unscrambling shuffle per channel and byte/word unpacks.
 *
 * Encode, per 32 pixels of a row: 3-channel input is read as 8-pixel
 * groups (24 bytes: a 16-byte load at the group start for pixels 0..3 and
 * one at +8 for pixels 4..7, so nothing past the row is touched) and
 * vpshufb puts R, G and B into 32-bit lanes; 4-channel input is split with
 * shifts and masks. Luma is packed and put in order with one vpermd.
 * Chroma (even rows, even pixels: the top-left of each 2x2 block) takes
 * the even lanes with vshufps; word unpacks split the packed U and V.
 */
#include <immintrin.h>
#include <string.h>

#include "cpu/yuv_exec.h"
#include "pixflow/core.h"

/* Shuffle masks built once by the fill function (under the family's once);
 * both 128-bit lanes of each mask are the same. */
static uint8_t k_dec3[3][3][32]; /* [16-byte output chunk][channel] -> packed RGB */
static uint8_t k_dec4[32];       /* scrambled -> pixel order within a lane */
static uint8_t k_enc3[3][32];    /* [channel offset] 8 pixels of RGB -> dword lanes */

/* Position of pixel p (0..15) of a lane in the decoder's packed order. */
static int dec_pos(int p) { return (p & 8) + ((p & 1) << 2) + ((p & 7) >> 1); }

static void build_tables(void) {
    for (int m = 0; m < 3; m++)
        for (int c = 0; c < 3; c++)
            for (int b = 0; b < 32; b++) {
                int t = 16 * m + (b & 15); /* byte t of a lane's 48-byte output */
                k_dec3[m][c][b] = t % 3 == c ? (uint8_t)dec_pos(t / 3) : 0x80;
            }
    for (int b = 0; b < 32; b++) k_dec4[b] = (uint8_t)dec_pos(b & 15);
    /* lane 0 holds pixels 0..3 at bytes 0..11; lane 1 pixels 4..7 at 4..15 */
    memset(k_enc3, 0x80, sizeof k_enc3);
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 4; i++) {
            k_enc3[c][4 * i] = (uint8_t)(3 * i + c);
            k_enc3[c][16 + 4 * i] = (uint8_t)(4 + 3 * i + c);
        }
}

static inline __m256i load32(const uint8_t *p) {
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}
static inline __m128i load16(const uint8_t *p) {
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}
static inline void store32(uint8_t *p, __m256i v) {
    _mm256_storeu_si256((__m256i *)(void *)p, v);
}
static inline void store16(uint8_t *p, __m128i v) {
    _mm_storeu_si128((__m128i *)(void *)p, v);
}

/* ---------------------------------------------------------------- decode */

typedef struct dec_k {
    __m256i cy, cvr, cvg, cug, cub, half, c128, lo8, yoff;
} dec_k;

static inline dec_k dec_consts(const pfi_yuv_params *p) {
    dec_k k;
    k.cy = _mm256_set1_epi32(p->k.cy);
    k.cvr = _mm256_set1_epi32(p->k.cvr);
    k.cvg = _mm256_set1_epi32(p->k.cvg);
    k.cug = _mm256_set1_epi32(p->k.cug);
    k.cub = _mm256_set1_epi32(p->k.cub);
    k.half = _mm256_set1_epi32(PFK_YUV_HALF);
    k.c128 = _mm256_set1_epi32(128);
    k.lo8 = _mm256_set1_epi32(0xff);
    k.yoff = _mm256_set1_epi8((char)p->k.y_off);
    return k;
}

typedef struct chroma3 { __m256i r, g, b; } chroma3;

/* Chroma terms of 8 chroma pairs: each 32-bit lane is first | second << 8
 * (U, V; or V, U when swap). */
static inline chroma3 chroma_terms(const dec_k *k, __m256i pairs, int swap) {
    __m256i a = _mm256_sub_epi32(_mm256_and_si256(pairs, k->lo8), k->c128);
    __m256i b = _mm256_sub_epi32(_mm256_srli_epi32(pairs, 8), k->c128);
    __m256i uu = swap ? b : a, vv = swap ? a : b;
    chroma3 c;
    c.r = _mm256_add_epi32(k->half, _mm256_mullo_epi32(k->cvr, vv));
    c.g = _mm256_add_epi32(_mm256_add_epi32(k->half, _mm256_mullo_epi32(k->cvg, vv)),
                           _mm256_mullo_epi32(k->cug, uu));
    c.b = _mm256_add_epi32(k->half, _mm256_mullo_epi32(k->cub, uu));
    return c;
}

/* Chroma of 32 pixels from 16 interleaved pairs; c[0] serves luma pairs
 * 0..3 and 8..11, c[1] pairs 4..7 and 12..15 (the unpack split). */
static inline void chroma_block(const dec_k *k, __m256i uv, int swap, chroma3 c[2]) {
    const __m256i zero = _mm256_setzero_si256();
    c[0] = chroma_terms(k, _mm256_unpacklo_epi16(uv, zero), swap);
    c[1] = chroma_terms(k, _mm256_unpackhi_epi16(uv, zero), swap);
}

typedef struct rgb8 { __m256i r, g, b; } rgb8;

/* One row of 32 pixels: R, G, B bytes, each lane 16 pixels scrambled. */
static inline rgb8 dec_row(const dec_k *k, const uint8_t *y, const chroma3 c[2]) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i raw = _mm256_subs_epu8(load32(y), k->yoff); /* max(0, Y - y_off) */
    __m256i r[4], g[4], b[4];
    for (int h = 0; h < 2; h++) {
        __m256i pr = h ? _mm256_unpackhi_epi16(raw, zero) : _mm256_unpacklo_epi16(raw, zero);
        __m256i ye = _mm256_mullo_epi32(_mm256_and_si256(pr, k->lo8), k->cy);
        __m256i yo = _mm256_mullo_epi32(_mm256_srli_epi32(pr, 8), k->cy);
        r[2 * h] = _mm256_srai_epi32(_mm256_add_epi32(ye, c[h].r), PFK_YUV_SHIFT);
        r[2 * h + 1] = _mm256_srai_epi32(_mm256_add_epi32(yo, c[h].r), PFK_YUV_SHIFT);
        g[2 * h] = _mm256_srai_epi32(_mm256_add_epi32(ye, c[h].g), PFK_YUV_SHIFT);
        g[2 * h + 1] = _mm256_srai_epi32(_mm256_add_epi32(yo, c[h].g), PFK_YUV_SHIFT);
        b[2 * h] = _mm256_srai_epi32(_mm256_add_epi32(ye, c[h].b), PFK_YUV_SHIFT);
        b[2 * h + 1] = _mm256_srai_epi32(_mm256_add_epi32(yo, c[h].b), PFK_YUV_SHIFT);
    }
    rgb8 o;
    o.r = _mm256_packus_epi16(_mm256_packs_epi32(r[0], r[1]), _mm256_packs_epi32(r[2], r[3]));
    o.g = _mm256_packus_epi16(_mm256_packs_epi32(g[0], g[1]), _mm256_packs_epi32(g[2], g[3]));
    o.b = _mm256_packus_epi16(_mm256_packs_epi32(b[0], b[1]), _mm256_packs_epi32(b[2], b[3]));
    return o;
}

/* 32 pixels as 96 bytes of packed 3-channel pixels: each lane makes 48
 * bytes (chunks X0..X2 = lane 0 / lane 1 halves), then lanes go to memory
 * order A0 A1 A2 B0 B1 B2. */
static inline void store3(uint8_t *d, __m256i c0, __m256i c1, __m256i c2) {
    __m256i x[3];
    for (int m = 0; m < 3; m++) {
        __m256i s0 = _mm256_shuffle_epi8(c0, load32(k_dec3[m][0]));
        __m256i s1 = _mm256_shuffle_epi8(c1, load32(k_dec3[m][1]));
        __m256i s2 = _mm256_shuffle_epi8(c2, load32(k_dec3[m][2]));
        x[m] = _mm256_or_si256(_mm256_or_si256(s0, s1), s2);
    }
    store32(d, _mm256_permute2x128_si256(x[0], x[1], 0x20));
    store32(d + 32, _mm256_blend_epi32(x[2], x[0], 0xf0));
    store32(d + 64, _mm256_permute2x128_si256(x[1], x[2], 0x31));
}

/* 32 pixels as 128 bytes of 4-channel pixels (alpha 255). */
static inline void store4(uint8_t *d, __m256i c0, __m256i c1, __m256i c2) {
    const __m256i un = load32(k_dec4), alpha = _mm256_set1_epi8((char)0xff);
    c0 = _mm256_shuffle_epi8(c0, un);
    c1 = _mm256_shuffle_epi8(c1, un);
    c2 = _mm256_shuffle_epi8(c2, un);
    __m256i lo01 = _mm256_unpacklo_epi8(c0, c1), hi01 = _mm256_unpackhi_epi8(c0, c1);
    __m256i lo2a = _mm256_unpacklo_epi8(c2, alpha), hi2a = _mm256_unpackhi_epi8(c2, alpha);
    __m256i o0 = _mm256_unpacklo_epi16(lo01, lo2a), o1 = _mm256_unpackhi_epi16(lo01, lo2a);
    __m256i o2 = _mm256_unpacklo_epi16(hi01, hi2a), o3 = _mm256_unpackhi_epi16(hi01, hi2a);
    store32(d, _mm256_permute2x128_si256(o0, o1, 0x20));
    store32(d + 32, _mm256_permute2x128_si256(o2, o3, 0x20));
    store32(d + 64, _mm256_permute2x128_si256(o0, o1, 0x31));
    store32(d + 96, _mm256_permute2x128_si256(o2, o3, 0x31));
}

static inline void store_px(uint8_t *d, rgb8 px, const pfi_yuv_params *p) {
    __m256i c0 = p->blue_first ? px.b : px.r, c2 = p->blue_first ? px.r : px.b;
    if (p->cn == 3) store3(d, c0, px.g, c2);
    else store4(d, c0, px.g, c2);
}

/* Both rows of a 32-pixel block from 16 chroma pairs (U,V or V,U). */
static inline void dec_block(const dec_k *k, const uint8_t *y0, const uint8_t *y1, __m256i uv,
                             uint8_t *d0, uint8_t *d1, const pfi_yuv_params *p) {
    chroma3 c[2];
    chroma_block(k, uv, p->swap_uv, c);
    store_px(d0, dec_row(k, y0, c), p);
    store_px(d1, dec_row(k, y1, c), p);
}

static void sp_to_rgb(const uint8_t *y0, const uint8_t *y1, const uint8_t *uv, uint8_t *d0,
                      uint8_t *d1, int32_t width, const pfi_yuv_params *p) {
    const dec_k k = dec_consts(p);
    const int32_t cn = p->cn;
    for (int32_t x = 0; x < width; x += 32)
        dec_block(&k, y0 + x, y1 + x, load32(uv + x), d0 + x * cn, d1 + x * cn, p);
}

static void p_to_rgb(const uint8_t *y0, const uint8_t *y1, const uint8_t *u, const uint8_t *v,
                     uint8_t *d0, uint8_t *d1, int32_t width, const pfi_yuv_params *p) {
    const dec_k k = dec_consts(p);
    const int32_t cn = p->cn;
    for (int32_t x = 0; x < width; x += 32) {
        __m128i uu = load16(u + x / 2), vv = load16(v + x / 2);
        __m256i uv = _mm256_setr_m128i(_mm_unpacklo_epi8(uu, vv), _mm_unpackhi_epi8(uu, vv));
        dec_block(&k, y0 + x, y1 + x, uv, d0 + x * cn, d1 + x * cn, p); /* swap_uv is 0 */
    }
}

/* ---------------------------------------------------------------- encode */

typedef struct enc_k {
    __m256i cry, cgy, cby, ky, cru, cgu, cbu, crv, cgv, cbv, kc, lo8;
    __m256i rsh, gsh, bsh, yperm;
} enc_k;

static inline enc_k enc_consts(const pfi_yuv_params *p) {
    enc_k k;
    k.cry = _mm256_set1_epi32(p->k.cry);
    k.cgy = _mm256_set1_epi32(p->k.cgy);
    k.cby = _mm256_set1_epi32(p->k.cby);
    k.ky = _mm256_set1_epi32(PFK_YUV_HALF + (p->k.y_off << PFK_YUV_SHIFT));
    k.cru = _mm256_set1_epi32(p->k.cru);
    k.cgu = _mm256_set1_epi32(p->k.cgu);
    k.cbu = _mm256_set1_epi32(p->k.cbu);
    k.crv = _mm256_set1_epi32(p->k.crv);
    k.cgv = _mm256_set1_epi32(p->k.cgv);
    k.cbv = _mm256_set1_epi32(p->k.cbv);
    k.kc = _mm256_set1_epi32(PFK_YUV_HALF + (128 << PFK_YUV_SHIFT));
    k.lo8 = _mm256_set1_epi32(0xff);
    k.rsh = load32(k_enc3[p->blue_first ? 2 : 0]);
    k.gsh = load32(k_enc3[1]);
    k.bsh = load32(k_enc3[p->blue_first ? 0 : 2]);
    /* packs/packus leave dwords as pixels 0-3, 8-11, 16-19, 24-27 | 4-7, ... */
    k.yperm = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    return k;
}

typedef struct lanes { __m256i r[4], g[4], b[4]; } lanes;

/* R, G, B of 32 pixels as 32-bit lanes (vector g holds pixels 8g..8g+7). */
static inline void enc_load(const enc_k *k, const uint8_t *s, int32_t cn, int blue_first,
                            lanes *o) {
    for (int g = 0; g < 4; g++) {
        if (cn == 3) {
            const uint8_t *q = s + 24 * g;
            __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(load16(q)), load16(q + 8), 1);
            o->r[g] = _mm256_shuffle_epi8(v, k->rsh);
            o->g[g] = _mm256_shuffle_epi8(v, k->gsh);
            o->b[g] = _mm256_shuffle_epi8(v, k->bsh);
        } else {
            __m256i v = load32(s + 32 * g);
            __m256i c0 = _mm256_and_si256(v, k->lo8);
            __m256i c2 = _mm256_and_si256(_mm256_srli_epi32(v, 16), k->lo8);
            o->g[g] = _mm256_and_si256(_mm256_srli_epi32(v, 8), k->lo8);
            o->r[g] = blue_first ? c2 : c0;
            o->b[g] = blue_first ? c0 : c2;
        }
    }
}

static inline __m256i dot3(__m256i r, __m256i g, __m256i b, __m256i cr, __m256i cg, __m256i cb,
                           __m256i add) {
    __m256i s = _mm256_add_epi32(_mm256_mullo_epi32(r, cr), _mm256_mullo_epi32(g, cg));
    s = _mm256_add_epi32(s, _mm256_add_epi32(_mm256_mullo_epi32(b, cb), add));
    return _mm256_srai_epi32(s, PFK_YUV_SHIFT);
}

static inline void enc_luma(const enc_k *k, const lanes *l, uint8_t *y) {
    __m256i v[4];
    for (int g = 0; g < 4; g++) v[g] = dot3(l->r[g], l->g[g], l->b[g], k->cry, k->cgy, k->cby, k->ky);
    __m256i pk = _mm256_packus_epi16(_mm256_packs_epi32(v[0], v[1]), _mm256_packs_epi32(v[2], v[3]));
    store32(y, _mm256_permutevar8x32_epi32(pk, k->yperm));
}

/* Even lanes of a (pixels 8g..) and b (pixels 8g+8..): lane 0 holds
 * pixels 0, 2, 8, 10 of the pair, lane 1 pixels 4, 6, 12, 14. */
static inline __m256i evens(__m256i a, __m256i b) {
    return _mm256_castps_si256(
        _mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(2, 0, 2, 0)));
}

/* U and V of the 16 even pixels of a row, in order. */
static inline void enc_chroma(const enc_k *k, const lanes *l, __m128i *u, __m128i *v) {
    __m256i cu[2], cv[2];
    for (int h = 0; h < 2; h++) {
        __m256i r = evens(l->r[2 * h], l->r[2 * h + 1]);
        __m256i g = evens(l->g[2 * h], l->g[2 * h + 1]);
        __m256i b = evens(l->b[2 * h], l->b[2 * h + 1]);
        cu[h] = dot3(r, g, b, k->cru, k->cgu, k->cbu, k->kc);
        cv[h] = dot3(r, g, b, k->crv, k->cgv, k->cbv, k->kc);
    }
    /* words: lane 0 = U(0,1) U(4,5) U(8,9) U(12,13) V(0,1) ...; lane 1 =
     * U(2,3) U(6,7) ...: a word unpack of the two lanes restores order */
    __m256i pk = _mm256_packus_epi16(_mm256_packs_epi32(cu[0], cu[1]), _mm256_packs_epi32(cv[0], cv[1]));
    __m128i x0 = _mm256_castsi256_si128(pk), x1 = _mm256_extracti128_si256(pk, 1);
    *u = _mm_unpacklo_epi16(x0, x1);
    *v = _mm_unpackhi_epi16(x0, x1);
}

static void rgb_to_p(const uint8_t *s0, const uint8_t *s1, uint8_t *y0, uint8_t *y1, uint8_t *u,
                     uint8_t *v, int32_t width, const pfi_yuv_params *p) {
    const enc_k k = enc_consts(p);
    const int32_t cn = p->cn;
    lanes l;
    for (int32_t x = 0; x < width; x += 32) {
        __m128i cu, cv;
        enc_load(&k, s0 + x * cn, cn, p->blue_first, &l);
        enc_luma(&k, &l, y0 + x);
        enc_chroma(&k, &l, &cu, &cv);
        store16(u + x / 2, cu);
        store16(v + x / 2, cv);
        enc_load(&k, s1 + x * cn, cn, p->blue_first, &l);
        enc_luma(&k, &l, y1 + x);
    }
}

static void rgb_to_sp(const uint8_t *s0, const uint8_t *s1, uint8_t *y0, uint8_t *y1,
                      uint8_t *uv, int32_t width, const pfi_yuv_params *p) {
    const enc_k k = enc_consts(p);
    const int32_t cn = p->cn;
    lanes l;
    for (int32_t x = 0; x < width; x += 32) {
        __m128i cu, cv;
        enc_load(&k, s0 + x * cn, cn, p->blue_first, &l);
        enc_luma(&k, &l, y0 + x);
        enc_chroma(&k, &l, &cu, &cv);
        __m128i a = p->swap_uv ? cv : cu, b = p->swap_uv ? cu : cv;
        store16(uv + x, _mm_unpacklo_epi8(a, b));
        store16(uv + x + 16, _mm_unpackhi_epi8(a, b));
        enc_load(&k, s1 + x * cn, cn, p->blue_first, &l);
        enc_luma(&k, &l, y1 + x);
    }
}

void pfi_yuv_fill_avx2(pfi_kfn *slots) {
    if (!(pf_cpu_features() & PF_CPU_AVX2)) return; /* the tables below are built with AVX2 code */
    build_tables();
    slots[PFI_YUV_NV12_TO_RGB] = (pfi_kfn)sp_to_rgb;
    slots[PFI_YUV_I420_TO_RGB] = (pfi_kfn)p_to_rgb;
    slots[PFI_YUV_RGB_TO_I420] = (pfi_kfn)rgb_to_p;
    slots[PFI_YUV_RGB_TO_NV12] = (pfi_kfn)rgb_to_sp;
}
