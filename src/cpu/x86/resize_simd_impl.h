/* Resize row kernels written once over a small vector vocabulary and
 * compiled for SSE4.1, AVX2 and AVX-512 (resize_sse4.c, resize_avx2.c,
 * resize_avx512.c define the vocabulary, then include this file). Each
 * kernel does the reference arithmetic (src/ref/resize_rows_ref.c) lane by
 * lane in the same operation order, on whole vectors only; the shared
 * wrapper in resize_exec.c finishes tails with the reference.
 *
 * Required before inclusion:
 *   PFS_N                 lanes of 32 bits
 *   PFS(name)             name decoration (e.g. name##_avx2)
 *   VI / VF               int32 / float vector types
 *   vi_load(p) vi_set1(x) vi_add vi_mullo vi_srai(v,n) vi_and vi_or vi_slli
 *   vi_min vi_max vi_madd16(a,b) vi_zero()
 *   vi_gather8/16/32(base, idxvec)   32-bit loads at base + idx*elemsize
 *   vi_load_u8(p)  N bytes -> N int32;  vf_load(p) vf_store(p,v)
 *   vf_set1 vf_add vf_mul vf_from_vi vi_round(vf)   (round half even)
 *   vi_store(p,v) store_u8_sat(p, vi) store_u16_sat(p, vi)
 *   vi_sra(v, n) (runtime count)  vb_unpacklo8 / vb_unpackhi8 (bytes, per
 *   128-bit lane)  vi_packs32 vi_packus16 (per 128-bit lane)
 *   PFS_TV_PIXELS(r, x0, x1)  the 3/4-channel torchvision pixel kernel
 */

static int PFS(h_u8_i32)(const pfi_hrow *r, int x0, int x1) {
    const uint8_t *s = r->src;
    int32_t *d = r->buf;
    const int32_t *cw = r->e_coef;
    size_t W = (size_t)r->width;
    int k2 = r->ksize / 2;
    VI mask = vi_set1(0xff);
    int e = PFS_PAIR_PIXELS(r, x0, x1);
    if (e != x0) return e;
#ifdef PFS_C1_I32
    e = PFS_C1_I32(r, e, x1); /* 1 channel: its groups take the row */
    if (e >= x1) return e;
#endif
    if (x1 > r->safe_end) x1 = r->safe_end; /* as h_u8_lin16 */
    for (; e + PFS_N <= x1; e += PFS_N) {
        VI acc = vi_zero();
        for (int j = 0; j < k2; j++) {
            VI o0 = vi_load(r->e_off + (size_t)(2 * j) * W + (size_t)e);
            VI o1 = vi_load(r->e_off + (size_t)(2 * j + 1) * W + (size_t)e);
            VI g0 = vi_and(vi_gather8(s, o0), mask);
            VI g1 = vi_and(vi_gather8(s, o1), mask);
            /* (u8 tap0 | u8 tap1 << 16) . (a0 | a1 << 16) = tap0*a0 + tap1*a1 */
            VI pair = vi_or(g0, vi_slli(g1, 16));
            acc = vi_add(acc, vi_madd16(pair, vi_load(cw + (size_t)j * W + (size_t)e)));
        }
        vi_store(d + e, acc);
    }
    return e;
}

/* LINEAR: one tap pair, sums >> 4 stored as int16 (PFK_H_U8_LIN16). */
static int PFS(h_u8_lin16)(const pfi_hrow *r, int x0, int x1) {
    const uint8_t *s = r->src;
    int16_t *d = r->buf;
    const int32_t *cw = r->e_coef;
    size_t W = (size_t)r->width;
    VI mask = vi_set1(0xff);
    int e = PFS_PAIR16_PIXELS(r, x0, x1);
    if (e != x0) return e;
#ifdef PFS_C1_LIN16
    e = PFS_C1_LIN16(r, e, x1); /* 1 channel: its groups take the row */
    if (e >= x1) return e;
#endif
    /* the executor passes whole rows where the groups take them; the
     * gathers still stop at safe_end */
    if (x1 > r->safe_end) x1 = r->safe_end;
    for (; e + PFS_N <= x1; e += PFS_N) {
        VI g0 = vi_and(vi_gather8(s, vi_load(r->e_off + e)), mask);
        VI g1 = vi_and(vi_gather8(s, vi_load(r->e_off + W + (size_t)e)), mask);
        VI sum = vi_madd16(vi_or(g0, vi_slli(g1, 16)), vi_load(cw + e));
        store_i16(d + e, vi_srai(sum, 4));
    }
    return e;
}

#define PFS_H_F32(NAME, GATHER, CONV, PIXELS)                                      \
    static int PFS(NAME)(const pfi_hrow *r, int x0, int x1) {                       \
        const void *s = r->src;                                                    \
        float *d = r->buf;                                                         \
        const float *c = r->e_coef;                                                \
        size_t W = (size_t)r->width;                                               \
        int e = PIXELS(r, x0, x1);                                                 \
        if (e != x0) return e;                                                     \
        for (; e + PFS_N <= x1; e += PFS_N) {                                      \
            VF v = vf_mul(CONV(GATHER(s, vi_load(r->e_off + e))), vf_load(c + e)); \
            for (int k = 1; k < r->ksize; k++) {                                   \
                size_t t = (size_t)k * W + (size_t)e;                              \
                v = vf_add(v, vf_mul(CONV(GATHER(s, vi_load(r->e_off + t))), vf_load(c + t))); \
            }                                                                      \
            vf_store(d + e, v);                                                    \
        }                                                                          \
        return e;                                                                  \
    }
#define PFS_U8_TO_F(g) vf_from_vi(vi_and((g), vi_set1(0xff)))
#define PFS_U16_TO_F(g) vf_from_vi(vi_and((g), vi_set1(0xffff)))
#define PFS_F_AS_F(g) vf_cast_vi(g)
#define PFS_NO_PIXELS(r, x0, x1) (x0)
PFS_H_F32(h_f32_u8, vi_gather8, PFS_U8_TO_F, pfi_h_f32_u8_pixels)
PFS_H_F32(h_f32_u16, vi_gather16, PFS_U16_TO_F, PFS_NO_PIXELS)
PFS_H_F32(h_f32_f32, vi_gather32, PFS_F_AS_F, PFS_NO_PIXELS)

static int PFS(h_aa_u8)(const pfi_hrow *r, int x0, int x1) {
    const uint8_t *s = r->src;
    uint8_t *d = r->buf;
    const int32_t *c = r->e_coef;
    size_t W = (size_t)r->width;
    VI mask = vi_set1(0xff), half = vi_set1(1 << (PFK_AA_BITS - 1));
    int e = PFS_AA_PIXELS(r, x0, x1);
    if (e != x0) return e;
#ifdef PFS_C1_AA
    e = PFS_C1_AA(r, e, x1); /* 1 channel: its groups take the row */
    if (e >= x1) return e;
#endif
    if (x1 > r->safe_end) x1 = r->safe_end; /* as h_u8_lin16 */
    for (; e + PFS_N <= x1; e += PFS_N) {
        VI ss = half;
        for (int k = 0; k < r->ksize; k++) {
            size_t t = (size_t)k * W + (size_t)e;
            VI g = vi_and(vi_gather8(s, vi_load(r->e_off + t)), mask);
            ss = vi_add(ss, vi_mullo(g, vi_load(c + t)));
        }
        store_u8_sat(d + e, vi_srai(ss, PFK_AA_BITS)); /* == clip8 */
    }
    return e;
}

/* torchvision u8 horizontal: as h_u8_i32 from the rounding half, then
 * the axis precision's arithmetic shift and the u8 clamp. */
static int PFS(h_tv_u8)(const pfi_hrow *r, int x0, int x1) {
    const uint8_t *s = r->src;
    uint8_t *d = r->buf;
    const int32_t *cw = r->e_coef;
    size_t W = (size_t)r->width;
    int k2 = r->ksize / 2;
    VI mask = vi_set1(0xff), half = vi_set1(1 << (r->shift - 1));
    int e = PFS_TV_PIXELS(r, x0, x1);
    if (e != x0) return e;
#ifdef PFS_C1_TV
    e = PFS_C1_TV(r, e, x1); /* 1 channel: its groups take the row */
    if (e >= x1) return e;
#endif
    /* the executor passes whole rows where the pixel kernels finish them
     * (pair_whole); the gathers still stop at safe_end */
    if (x1 > r->safe_end) x1 = r->safe_end;
    for (; e + PFS_N <= x1; e += PFS_N) {
        VI acc = half;
        for (int j = 0; j < k2; j++) {
            VI g0 = vi_and(vi_gather8(s, vi_load(r->e_off + (size_t)(2 * j) * W + (size_t)e)), mask);
            VI g1 = vi_and(vi_gather8(s, vi_load(r->e_off + (size_t)(2 * j + 1) * W + (size_t)e)), mask);
            acc = vi_add(acc, vi_madd16(vi_or(g0, vi_slli(g1, 16)), vi_load(cw + (size_t)j * W + (size_t)e)));
        }
        store_u8_sat(d + e, vi_sra(acc, r->shift));
    }
    return e;
}

/* int16 rows (sum >> 4): pmulhw is exactly (b * t) >> 16; 2 * PFS_N
 * elements per step. */
static int PFS(v_u8_linear)(const pfi_vrow *r, int x0, int x1) {
    const int16_t *s0 = r->rows[0], *s1 = r->rows[1];
    uint8_t *d = r->dst;
    VI b0 = vs_set1(r->icoef[0]), b1 = vs_set1(r->icoef[1]), two = vs_set1(2);
    int x = x0;
    for (; x + 2 * PFS_N <= x1; x += 2 * PFS_N) {
        VI a = vs_mulhi(b0, vi_load(s0 + x)), b = vs_mulhi(b1, vi_load(s1 + x));
        store_u8_from16(d + x, vs_srai(vs_add(vs_add(a, b), two), 2));
    }
    return x;
}

static int PFS(v_u8_fix22)(const pfi_vrow *r, int x0, int x1) {
    uint8_t *d = r->dst;
    VI half = vi_set1(1 << 21);
    int x = x0;
    for (; x + PFS_N <= x1; x += PFS_N) {
        VI sum = vi_zero();
        for (int k = 0; k < r->ksize; k++)
            sum = vi_add(sum, vi_mullo(vi_load((const int32_t *)r->rows[k] + x), vi_set1(r->icoef[k])));
        store_u8_sat(d + x, vi_srai(vi_add(sum, half), 22));
    }
    return x;
}

/* Float lanes on [0, vsplit) only; the reference does the fixed-point rest. */
static int PFS(v_u8_cubic)(const pfi_vrow *r, int x0, int x1) {
    uint8_t *d = r->dst;
    const int32_t *const *S = (const int32_t *const *)r->rows;
    VF b0 = vf_set1(r->fcoef[0]), b1 = vf_set1(r->fcoef[1]), b2 = vf_set1(r->fcoef[2]),
       b3 = vf_set1(r->fcoef[3]);
    int end = x1 < r->vsplit ? x1 : r->vsplit;
    int x = x0;
    for (; x + PFS_N <= end; x += PFS_N) {
        VF t = vf_mul(vf_from_vi(vi_load(S[3] + x)), b3);
        t = vf_add(vf_mul(vf_from_vi(vi_load(S[2] + x)), b2), t);
        t = vf_add(vf_mul(vf_from_vi(vi_load(S[1] + x)), b1), t);
        t = vf_add(vf_mul(vf_from_vi(vi_load(S[0] + x)), b0), t);
        store_u8_sat(d + x, vi_round(t));
    }
    return x;
}

/* Float rows; nested order below vsplit, left to right from vsplit on. */
static inline VF PFS(vf_sum)(const pfi_vrow *r, int x, int nested) {
    const float *const *S = (const float *const *)r->rows;
    int k = r->ksize;
    VF v;
    if (nested) {
        v = vf_mul(vf_load(S[k - 1] + x), vf_set1(r->fcoef[k - 1]));
        for (int j = k - 2; j >= 0; j--) v = vf_add(vf_mul(vf_load(S[j] + x), vf_set1(r->fcoef[j])), v);
    } else {
        v = vf_mul(vf_load(S[0] + x), vf_set1(r->fcoef[0]));
        for (int j = 1; j < k; j++) v = vf_add(v, vf_mul(vf_load(S[j] + x), vf_set1(r->fcoef[j])));
    }
    return v;
}

#define PFS_V_F32(NAME, STORE)                                                  \
    static int PFS(NAME)(const pfi_vrow *r, int x0, int x1) {                    \
        int x = x0;                                                             \
        for (; x + PFS_N <= x1 && x + PFS_N <= r->vsplit; x += PFS_N)           \
            STORE(r->dst, x, PFS(vf_sum)(r, x, 1));                             \
        if (x < r->vsplit) return x; /* a vector would straddle vsplit */       \
        for (; x + PFS_N <= x1; x += PFS_N) STORE(r->dst, x, PFS(vf_sum)(r, x, 0)); \
        return x;                                                               \
    }
#define PFS_ST_U8(d, x, v) store_u8_sat((uint8_t *)(d) + (x), vi_round(v))
#define PFS_ST_U16(d, x, v) store_u16_sat((uint16_t *)(d) + (x), vi_round(v))
#define PFS_ST_F32(d, x, v) vf_store((float *)(d) + (x), (v))
PFS_V_F32(v_f32_u8, PFS_ST_U8)
PFS_V_F32(v_f32_u16, PFS_ST_U16)
PFS_V_F32(v_f32_f32, PFS_ST_F32)

static int PFS(v_aa_u8)(const pfi_vrow *r, int x0, int x1) {
    uint8_t *d = r->dst;
    VI half = vi_set1(1 << (PFK_AA_BITS - 1));
    int x = x0;
    for (; x + PFS_N <= x1; x += PFS_N) {
        VI ss = half;
        for (int k = 0; k < r->ksize; k++)
            ss = vi_add(ss, vi_mullo(vi_load_u8((const uint8_t *)r->rows[k] + x), vi_set1(r->acoef[k])));
        store_u8_sat(d + x, vi_srai(ss, PFK_AA_BITS));
    }
    return x;
}

/* torchvision u8 vertical, 4 * PFS_N elements per step: the bytes of two
 * rows interleaved, zero-extended to u16 (a_x, b_x) pairs and multiplied
 * with the (w_a, w_b) int16 pair by pmaddwd; the packs undo the unpacks'
 * in-lane order. Exact integer sums as the reference. */
static int PFS(v_tv_u8)(const pfi_vrow *r, int x0, int x1) {
    uint8_t *d = r->dst;
    const VI zero = vi_zero(), half = vi_set1(1 << (r->shift - 1));
    int K = r->ksize, x = x0, np = (K + 1) / 2;
    /* the row pointers and weight pairs of the tap pairs, made once per
     * row (up to 8 pairs; more are made per step) */
    const uint8_t *pa[8], *pb[8];
    VI pw[8];
    for (int j = 0; j < np && j < 8; j++) {
        int k = 2 * j;
        int16_t wb = k + 1 < K ? r->icoef[k + 1] : 0;
        pa[j] = (const uint8_t *)r->rows[k];
        pb[j] = k + 1 < K ? (const uint8_t *)r->rows[k + 1] : pa[j];
        pw[j] = vi_set1((int32_t)((uint32_t)(uint16_t)r->icoef[k] | ((uint32_t)(uint16_t)wb << 16)));
    }
    for (; np <= 8 && x + 4 * PFS_N <= x1; x += 4 * PFS_N) {
        VI a0 = half, a1 = half, a2 = half, a3 = half;
        for (int j = 0; j < np; j++) {
            VI p = vi_load(pa[j] + x), q = vi_load(pb[j] + x), w = pw[j];
            VI lo = vb_unpacklo8(p, q), hi = vb_unpackhi8(p, q);
            a0 = vi_add(a0, vi_madd16(vb_unpacklo8(lo, zero), w));
            a1 = vi_add(a1, vi_madd16(vb_unpackhi8(lo, zero), w));
            a2 = vi_add(a2, vi_madd16(vb_unpacklo8(hi, zero), w));
            a3 = vi_add(a3, vi_madd16(vb_unpackhi8(hi, zero), w));
        }
        a0 = vi_sra(a0, r->shift);
        a1 = vi_sra(a1, r->shift);
        a2 = vi_sra(a2, r->shift);
        a3 = vi_sra(a3, r->shift);
        vi_store(d + x, vi_packus16(vi_packs32(a0, a1), vi_packs32(a2, a3)));
    }
    for (; x + 4 * PFS_N <= x1; x += 4 * PFS_N) {
        VI a0 = half, a1 = half, a2 = half, a3 = half;
        for (int k = 0; k < K; k += 2) {
            const uint8_t *ra = (const uint8_t *)r->rows[k] + x;
            const uint8_t *rb = k + 1 < K ? (const uint8_t *)r->rows[k + 1] + x : ra;
            int16_t wb = k + 1 < K ? r->icoef[k + 1] : 0;
            VI w = vi_set1((int32_t)((uint32_t)(uint16_t)r->icoef[k] | ((uint32_t)(uint16_t)wb << 16)));
            VI p = vi_load(ra), q = vi_load(rb);
            VI lo = vb_unpacklo8(p, q), hi = vb_unpackhi8(p, q);
            a0 = vi_add(a0, vi_madd16(vb_unpacklo8(lo, zero), w));
            a1 = vi_add(a1, vi_madd16(vb_unpackhi8(lo, zero), w));
            a2 = vi_add(a2, vi_madd16(vb_unpacklo8(hi, zero), w));
            a3 = vi_add(a3, vi_madd16(vb_unpackhi8(hi, zero), w));
        }
        a0 = vi_sra(a0, r->shift);
        a1 = vi_sra(a1, r->shift);
        a2 = vi_sra(a2, r->shift);
        a3 = vi_sra(a3, r->shift);
        vi_store(d + x, vi_packus16(vi_packs32(a0, a1), vi_packs32(a2, a3)));
    }
    /* PFS_N elements at a time for the rest (rows of 3-channel pixels are
     * rarely a multiple of 4 * PFS_N) */
    for (; x + PFS_N <= x1; x += PFS_N) {
        VI acc = half;
        for (int k = 0; k < K; k++)
            acc = vi_add(acc, vi_mullo(vi_load_u8((const uint8_t *)r->rows[k] + x), vi_set1(r->icoef[k])));
        store_u8_sat(d + x, vi_sra(acc, r->shift));
    }
#ifdef PFS_TV_VTAIL
    x = PFS_TV_VTAIL(r, x, x1); /* masked: the last < PFS_N elements */
#endif
    return x;
}

static void PFS(fill)(pfi_resize_kernels *k) {
    k->h_u8_i32 = PFS(h_u8_i32);
    k->h_u8_lin16 = PFS(h_u8_lin16);
    k->h_f32[PFK_RZ_T_U8] = PFS(h_f32_u8);
    k->h_f32[PFK_RZ_T_U16] = PFS(h_f32_u16);
    k->h_f32[PFK_RZ_T_F32] = PFS(h_f32_f32);
    k->h_aa_u8 = PFS(h_aa_u8);
    k->v_u8_linear = PFS(v_u8_linear);
    k->v_u8_fix22 = PFS(v_u8_fix22);
    k->v_u8_cubic = PFS(v_u8_cubic);
    k->v_f32[PFK_RZ_T_U8] = PFS(v_f32_u8);
    k->v_f32[PFK_RZ_T_U16] = PFS(v_f32_u16);
    k->v_f32[PFK_RZ_T_F32] = PFS(v_f32_f32);
    k->v_aa_u8 = PFS(v_aa_u8);
    k->h_tv_u8 = PFS(h_tv_u8);
    k->v_tv_u8 = PFS(v_tv_u8);
    k->tv_quads_whole = 1;
}
