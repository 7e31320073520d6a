/*
 * 4:2:0 YUV kernels written once over a small vector vocabulary and
 * compiled for AVX2 (yuv_avx2.c, 32 pixels per step) and SSE4.1
 * (yuv_sse4.c, 16 pixels per step). Those files define the vocabulary and
 * the few lane-order hooks, then include this file.
 *
 * The arithmetic is the reference's, lane for lane: 32-bit products with
 * the 2^20-scaled coefficients of src/kernels/yuv_math.h (pmulld),
 * arithmetic shift, then signed-saturating 32->16 and unsigned-saturating
 * 16->8 packs (which together equal sat_u8 of the int32). Nothing is
 * approximated, so the output is bit-identical to the reference for every
 * matrix and range. Every shuffle here stays inside a 128-bit lane; the
 * hooks put lanes in memory order (nothing to do for SSE4.1).
 *
 * Decode, per YV_N pixels x 2 rows: the luma bytes are read as 16-bit
 * (Y[2k], Y[2k+1]) pairs and zero-extended to 32-bit lanes with
 * punpckl/hwd, so the even and odd luma of lane k share chroma lane k
 * (NV12 chroma, or I420 U/V interleaved first, is widened the same way).
 * The packs then leave each 128-bit lane holding 16 consecutive pixels in
 * a fixed scrambled order (0,2,4,6,1,3,5,7,8,10,...). pshufb masks that
 * undo the scramble while interleaving (libyuv style: three masked
 * shuffles and two ORs per 16-byte output chunk) write packed RGB/BGR;
 * RGBA/BGRA use one unscrambling shuffle per channel and byte/word unpacks.
 *
 * Encode, per YV_N pixels of a row: 3-channel input is read with 16-byte
 * loads that each hold 4 whole pixels at byte 0 or byte 4 (never past the
 * row) and pshufb puts R, G and B into 32-bit lanes; 4-channel input is
 * split with shifts and masks. Four such vectors (G = YV_N / 4 pixels
 * each, in order) are packed to luma. Chroma (even rows, even pixels: the
 * top-left of each 2x2 block) takes the even lanes with shufps.
 *
 * Required before inclusion:
 *   YV_N, V, YV(name)         pixels per step, vector type, name decoration
 *   yv_load(p) yv_store(p,v) yv_loadmask(p)   whole-vector loads/stores
 *   yv_set1_32 yv_set1_8 yv_zero yv_and yv_or yv_add32 yv_sub32 yv_mullo32
 *   yv_srai32 yv_srli32 yv_subs_u8 yv_shuffle8 yv_packs32 yv_packus16
 *   yv_unpacklo8/hi8 yv_unpacklo16/hi16 yv_evens(a, b) (shufps 2,0,2,0)
 *   hooks: yv_store3(d, x0, x1, x2)    chunk m of each lane in x[m]
 *          yv_store4(d, o0, o1, o2, o3) 4 pixels of each lane in o[k]
 *          yv_load_planar(u, v)         YV_N/2 U and V as (U,V) pairs
 *          yv_rgb3_load(s, g, &sel)     the 3-channel vector of group g;
 *                                       sel: which mask set (0 or 1)
 *          yv_luma_order(pk)            packed luma to pixel order
 *          yv_store_uv_p(u, v, pk) yv_store_uv_sp(uv, pk, swap)
 *                                       packus(packs(U0,U1), packs(V0,V1))
 */

/* Shuffle masks built once by the fill function (under the family's once);
 * the two 16-byte halves serve the two lanes (SSE4.1 uses the first half,
 * except k_enc3, whose halves are the two load placements). */
static uint8_t k_dec3[3][3][32]; /* [16-byte output chunk][channel] -> packed RGB */
static uint8_t k_dec4[32];       /* scrambled -> pixel order within a lane */
static uint8_t k_enc3[3][32];    /* [channel offset]: pixels at byte 0 | at byte 4 */

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
    memset(k_enc3, 0x80, sizeof k_enc3);
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 4; i++) {
            k_enc3[c][4 * i] = (uint8_t)(3 * i + c);
            k_enc3[c][16 + 4 * i] = (uint8_t)(4 + 3 * i + c);
        }
}

/* ---------------------------------------------------------------- decode */

typedef struct dec_k {
    V cy, cvr, cvg, cug, cub, half, c128, lo8, yoff;
} dec_k;

static inline dec_k dec_consts(const pfi_yuv_params *p) {
    dec_k k;
    k.cy = yv_set1_32(p->k.cy);
    k.cvr = yv_set1_32(p->k.cvr);
    k.cvg = yv_set1_32(p->k.cvg);
    k.cug = yv_set1_32(p->k.cug);
    k.cub = yv_set1_32(p->k.cub);
    k.half = yv_set1_32(PFK_YUV_HALF);
    k.c128 = yv_set1_32(128);
    k.lo8 = yv_set1_32(0xff);
    k.yoff = yv_set1_8((char)p->k.y_off);
    return k;
}

typedef struct chroma3 { V r, g, b; } chroma3;

/* Chroma terms of chroma pairs: each 32-bit lane is first | second << 8
 * (U, V; or V, U when swap). */
static inline chroma3 chroma_terms(const dec_k *k, V pairs, int swap) {
    V a = yv_sub32(yv_and(pairs, k->lo8), k->c128);
    V b = yv_sub32(yv_srli32(pairs, 8), k->c128);
    V uu = swap ? b : a, vv = swap ? a : b;
    chroma3 c;
    c.r = yv_add32(k->half, yv_mullo32(k->cvr, vv));
    c.g = yv_add32(yv_add32(k->half, yv_mullo32(k->cvg, vv)), yv_mullo32(k->cug, uu));
    c.b = yv_add32(k->half, yv_mullo32(k->cub, uu));
    return c;
}

typedef struct rgb8 { V r, g, b; } rgb8;

/* One row of YV_N pixels: R, G, B bytes, each lane 16 pixels scrambled.
 * c[0] serves the luma pairs of the low unpack, c[1] the high one. */
static inline rgb8 dec_row(const dec_k *k, const uint8_t *y, const chroma3 c[2]) {
    const V zero = yv_zero();
    V raw = yv_subs_u8(yv_load(y), k->yoff); /* max(0, Y - y_off) */
    V r[4], g[4], b[4];
    for (int h = 0; h < 2; h++) {
        V pr = h ? yv_unpackhi16(raw, zero) : yv_unpacklo16(raw, zero);
        V ye = yv_mullo32(yv_and(pr, k->lo8), k->cy);
        V yo = yv_mullo32(yv_srli32(pr, 8), k->cy);
        r[2 * h] = yv_srai32(yv_add32(ye, c[h].r), PFK_YUV_SHIFT);
        r[2 * h + 1] = yv_srai32(yv_add32(yo, c[h].r), PFK_YUV_SHIFT);
        g[2 * h] = yv_srai32(yv_add32(ye, c[h].g), PFK_YUV_SHIFT);
        g[2 * h + 1] = yv_srai32(yv_add32(yo, c[h].g), PFK_YUV_SHIFT);
        b[2 * h] = yv_srai32(yv_add32(ye, c[h].b), PFK_YUV_SHIFT);
        b[2 * h + 1] = yv_srai32(yv_add32(yo, c[h].b), PFK_YUV_SHIFT);
    }
    rgb8 o;
    o.r = yv_packus16(yv_packs32(r[0], r[1]), yv_packs32(r[2], r[3]));
    o.g = yv_packus16(yv_packs32(g[0], g[1]), yv_packs32(g[2], g[3]));
    o.b = yv_packus16(yv_packs32(b[0], b[1]), yv_packs32(b[2], b[3]));
    return o;
}

/* Packed 3-channel pixels: each lane makes 48 bytes in three chunks. */
static inline void store3(uint8_t *d, V c0, V c1, V c2) {
    V x[3];
    for (int m = 0; m < 3; m++) {
        V s0 = yv_shuffle8(c0, yv_loadmask(k_dec3[m][0]));
        V s1 = yv_shuffle8(c1, yv_loadmask(k_dec3[m][1]));
        V s2 = yv_shuffle8(c2, yv_loadmask(k_dec3[m][2]));
        x[m] = yv_or(yv_or(s0, s1), s2);
    }
    yv_store3(d, x[0], x[1], x[2]);
}

/* 4-channel pixels (alpha 255). */
static inline void store4(uint8_t *d, V c0, V c1, V c2) {
    const V un = yv_loadmask(k_dec4), alpha = yv_set1_8((char)0xff);
    c0 = yv_shuffle8(c0, un);
    c1 = yv_shuffle8(c1, un);
    c2 = yv_shuffle8(c2, un);
    V lo01 = yv_unpacklo8(c0, c1), hi01 = yv_unpackhi8(c0, c1);
    V lo2a = yv_unpacklo8(c2, alpha), hi2a = yv_unpackhi8(c2, alpha);
    yv_store4(d, yv_unpacklo16(lo01, lo2a), yv_unpackhi16(lo01, lo2a), yv_unpacklo16(hi01, hi2a),
              yv_unpackhi16(hi01, hi2a));
}

static inline void store_px(uint8_t *d, rgb8 px, const pfi_yuv_params *p) {
    V c0 = p->blue_first ? px.b : px.r, c2 = p->blue_first ? px.r : px.b;
    if (p->cn == 3) store3(d, c0, px.g, c2);
    else store4(d, c0, px.g, c2);
}

/* Both rows of a block from YV_N/2 chroma pairs (U,V or V,U). */
static inline void dec_block(const dec_k *k, const uint8_t *y0, const uint8_t *y1, V uv,
                             uint8_t *d0, uint8_t *d1, const pfi_yuv_params *p) {
    const V zero = yv_zero();
    chroma3 c[2];
    c[0] = chroma_terms(k, yv_unpacklo16(uv, zero), p->swap_uv);
    c[1] = chroma_terms(k, yv_unpackhi16(uv, zero), p->swap_uv);
    store_px(d0, dec_row(k, y0, c), p);
    store_px(d1, dec_row(k, y1, c), p);
}

static void YV(sp_to_rgb)(const uint8_t *y0, const uint8_t *y1, const uint8_t *uv, uint8_t *d0,
                          uint8_t *d1, int32_t width, const pfi_yuv_params *p) {
    const dec_k k = dec_consts(p);
    const int32_t cn = p->cn;
    for (int32_t x = 0; x < width; x += YV_N)
        dec_block(&k, y0 + x, y1 + x, yv_load(uv + x), d0 + x * cn, d1 + x * cn, p);
}

static void YV(p_to_rgb)(const uint8_t *y0, const uint8_t *y1, const uint8_t *u,
                         const uint8_t *v, uint8_t *d0, uint8_t *d1, int32_t width,
                         const pfi_yuv_params *p) {
    const dec_k k = dec_consts(p);
    const int32_t cn = p->cn;
    for (int32_t x = 0; x < width; x += YV_N) /* swap_uv is 0 for planar frames */
        dec_block(&k, y0 + x, y1 + x, yv_load_planar(u + x / 2, v + x / 2), d0 + x * cn,
                  d1 + x * cn, p);
}

/* ---------------------------------------------------------------- encode */

typedef struct enc_k {
    V cry, cgy, cby, ky, cru, cgu, cbu, crv, cgv, cbv, kc, lo8;
    V rsh[2], gsh[2], bsh[2]; /* 3-channel masks per load placement */
} enc_k;

static inline enc_k enc_consts(const pfi_yuv_params *p) {
    enc_k k;
    k.cry = yv_set1_32(p->k.cry);
    k.cgy = yv_set1_32(p->k.cgy);
    k.cby = yv_set1_32(p->k.cby);
    k.ky = yv_set1_32(PFK_YUV_HALF + (p->k.y_off << PFK_YUV_SHIFT));
    k.cru = yv_set1_32(p->k.cru);
    k.cgu = yv_set1_32(p->k.cgu);
    k.cbu = yv_set1_32(p->k.cbu);
    k.crv = yv_set1_32(p->k.crv);
    k.cgv = yv_set1_32(p->k.cgv);
    k.cbv = yv_set1_32(p->k.cbv);
    k.kc = yv_set1_32(PFK_YUV_HALF + (128 << PFK_YUV_SHIFT));
    k.lo8 = yv_set1_32(0xff);
    const int ri = p->blue_first ? 2 : 0, bi = p->blue_first ? 0 : 2;
    for (int s = 0; s < 2; s++) {
        k.rsh[s] = yv_loadmask(k_enc3[ri] + 16 * s * (YV_N == 16));
        k.gsh[s] = yv_loadmask(k_enc3[1] + 16 * s * (YV_N == 16));
        k.bsh[s] = yv_loadmask(k_enc3[bi] + 16 * s * (YV_N == 16));
    }
    return k;
}

typedef struct lanes { V r[4], g[4], b[4]; } lanes;

/* R, G, B of YV_N pixels as 32-bit lanes (vector g: the g-th quarter). */
static inline void enc_load(const enc_k *k, const uint8_t *s, int32_t cn, int blue_first,
                            lanes *o) {
    for (int g = 0; g < 4; g++) {
        if (cn == 3) {
            int sel;
            V v = yv_rgb3_load(s, g, &sel);
            o->r[g] = yv_shuffle8(v, k->rsh[sel]);
            o->g[g] = yv_shuffle8(v, k->gsh[sel]);
            o->b[g] = yv_shuffle8(v, k->bsh[sel]);
        } else {
            V v = yv_load(s + YV_N * g);
            V c0 = yv_and(v, k->lo8);
            V c2 = yv_and(yv_srli32(v, 16), k->lo8);
            o->g[g] = yv_and(yv_srli32(v, 8), k->lo8);
            o->r[g] = blue_first ? c2 : c0;
            o->b[g] = blue_first ? c0 : c2;
        }
    }
}

static inline V dot3(V r, V g, V b, V cr, V cg, V cb, V add) {
    V s = yv_add32(yv_mullo32(r, cr), yv_mullo32(g, cg));
    s = yv_add32(s, yv_add32(yv_mullo32(b, cb), add));
    return yv_srai32(s, PFK_YUV_SHIFT);
}

static inline void enc_luma(const enc_k *k, const lanes *l, uint8_t *y) {
    V v[4];
    for (int g = 0; g < 4; g++) v[g] = dot3(l->r[g], l->g[g], l->b[g], k->cry, k->cgy, k->cby, k->ky);
    yv_store(y, yv_luma_order(yv_packus16(yv_packs32(v[0], v[1]), yv_packs32(v[2], v[3]))));
}

/* U and V of the even pixels of a row, packed as
 * packus(packs(U0, U1), packs(V0, V1)) for the hooks to put in order. */
static inline V enc_chroma(const enc_k *k, const lanes *l) {
    V cu[2], cv[2];
    for (int h = 0; h < 2; h++) {
        V r = yv_evens(l->r[2 * h], l->r[2 * h + 1]);
        V g = yv_evens(l->g[2 * h], l->g[2 * h + 1]);
        V b = yv_evens(l->b[2 * h], l->b[2 * h + 1]);
        cu[h] = dot3(r, g, b, k->cru, k->cgu, k->cbu, k->kc);
        cv[h] = dot3(r, g, b, k->crv, k->cgv, k->cbv, k->kc);
    }
    return yv_packus16(yv_packs32(cu[0], cu[1]), yv_packs32(cv[0], cv[1]));
}

static void YV(rgb_to_p)(const uint8_t *s0, const uint8_t *s1, uint8_t *y0, uint8_t *y1,
                         uint8_t *u, uint8_t *v, int32_t width, const pfi_yuv_params *p) {
    const enc_k k = enc_consts(p);
    const int32_t cn = p->cn;
    lanes l;
    for (int32_t x = 0; x < width; x += YV_N) {
        enc_load(&k, s0 + x * cn, cn, p->blue_first, &l);
        enc_luma(&k, &l, y0 + x);
        yv_store_uv_p(u + x / 2, v + x / 2, enc_chroma(&k, &l));
        enc_load(&k, s1 + x * cn, cn, p->blue_first, &l);
        enc_luma(&k, &l, y1 + x);
    }
}

static void YV(rgb_to_sp)(const uint8_t *s0, const uint8_t *s1, uint8_t *y0, uint8_t *y1,
                          uint8_t *uv, int32_t width, const pfi_yuv_params *p) {
    const enc_k k = enc_consts(p);
    const int32_t cn = p->cn;
    lanes l;
    for (int32_t x = 0; x < width; x += YV_N) {
        enc_load(&k, s0 + x * cn, cn, p->blue_first, &l);
        enc_luma(&k, &l, y0 + x);
        yv_store_uv_sp(uv + x, enc_chroma(&k, &l), p->swap_uv);
        enc_load(&k, s1 + x * cn, cn, p->blue_first, &l);
        enc_luma(&k, &l, y1 + x);
    }
}

static void YV(fill)(pfi_yuv_kernels *k) {
    build_tables();
    k->sp_to_rgb = YV(sp_to_rgb);
    k->p_to_rgb = YV(p_to_rgb);
    k->rgb_to_p = YV(rgb_to_p);
    k->rgb_to_sp = YV(rgb_to_sp);
}
