/* Colour row kernels written once over 32-bit lanes and compiled for AVX2
 * (color_avx2.c, 8 lanes) and AVX-512 VBMI (color_avx512vbmi_math.c, 16
 * lanes). Each kernel computes the reference formula of
 * src/kernels/color_math.h lane by lane with the same integer operations
 * (fixed-point sums, descale shifts, clamps) or the same float operations
 * in the same order (HSV -> RGB), so results are bit-identical to
 * pfi_color_row_ref. Rows are whole 64-pixel blocks (PFI_COLOR_BLOCK);
 * every load and store stays inside the pixels of the call.
 *
 * Required before inclusion (all values in lanes are int32):
 *   PFS_N, PFS(name), VI, VF, VM (lane mask)
 *   vi_set1 vi_add vi_sub vi_mullo vi_srai vi_slli vi_min vi_max
 *   vi_eq(a,b) vi_lt(a,b) -> VM; vi_sel(m, t, f)
 *   vf_set1 vf_from_vi vf_mul vf_sub vf_div vf_fnmadd(a,b,c) = c - a*b, one rounding
 *   vf_floor vf_ge(a,b) -> VM; vf_sel(m, t, f); vi_trunc(vf) vi_round(vf)
 *   ld3(p,&a,&b,&c) ld4(p,&a,&b,&c)  (N pixels, u8 -> lanes)
 *   st3(p,a,b,c) st4(p,a,b,c,d)      (lanes in [0,255] -> u8)
 *   PFS_SHUFFLES: 1 to build the shuffle/gray kernels too, which also need
 *   ld1(p), ld4a(p,&a,&b,&c,&d) (keeps the 4th byte) and st1(p,a)
 *   PFS_FMA: 1 when vf_fnmadd is available (HSV -> RGB truncating path)
 */

#define PFS_AI static inline __attribute__((always_inline))

PFS_AI VI PFS(clamp_u8)(VI v) { return vi_min(vi_max(v, vi_set1(0)), vi_set1(255)); }

/* N pixels of 3 (scn 3) or 4 (scn 4) bytes; the 4th is ignored. */
PFS_AI void PFS(ld_rgb)(const uint8_t *p, int scn, VI *a, VI *b, VI *c) {
    if (scn == 3) ld3(p, a, b, c);
    else ld4(p, a, b, c);
}

/* ------------------------------------------------------ shuffles (AVX2) */
#if PFS_SHUFFLES
static void PFS(swap_u8c3)(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    (void)c;
    const uint8_t *src = s;
    uint8_t *dst = d;
    for (int32_t x = 0; x < n; x += PFS_N) {
        VI a, b, e;
        ld3(src + 3 * x, &a, &b, &e);
        st3(dst + 3 * x, e, b, a);
    }
}
static void PFS(swap_u8c4)(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    (void)c;
    const uint8_t *src = s;
    uint8_t *dst = d;
    for (int32_t x = 0; x < n; x += PFS_N) {
        VI a, b, e, f;
        ld4a(src + 4 * x, &a, &b, &e, &f);
        st4(dst + 4 * x, e, b, a, f);
    }
}
PFS_AI void PFS(alpha_body)(const uint8_t *src, uint8_t *dst, int32_t n, int scn, int dcn, int sw) {
    for (int32_t x = 0; x < n; x += PFS_N) {
        VI a, b, e, f = vi_set1(255);
        if (scn == 3) ld3(src + 3 * x, &a, &b, &e);
        else ld4a(src + 4 * x, &a, &b, &e, &f);
        if (sw) {
            VI t = a;
            a = e;
            e = t;
        }
        if (dcn == 3) st3(dst + 3 * x, a, b, e);
        else st4(dst + 4 * x, a, b, e, f);
    }
}
static void PFS(add_alpha_u8)(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    if (c->swap) PFS(alpha_body)(s, d, n, 3, 4, 1);
    else PFS(alpha_body)(s, d, n, 3, 4, 0);
}
static void PFS(drop_alpha_u8)(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    if (c->swap) PFS(alpha_body)(s, d, n, 4, 3, 1);
    else PFS(alpha_body)(s, d, n, 4, 3, 0);
}
static void PFS(gray2bgr_u8)(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    (void)c;
    const uint8_t *src = s;
    uint8_t *dst = d;
    for (int32_t x = 0; x < n; x += PFS_N) {
        VI g = ld1(src + x);
        st3(dst + 3 * x, g, g, g);
    }
}
static void PFS(gray2bgra_u8)(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    (void)c;
    const uint8_t *src = s;
    uint8_t *dst = d;
    for (int32_t x = 0; x < n; x += PFS_N) {
        VI g = ld1(src + x);
        st4(dst + 4 * x, g, g, g, vi_set1(255));
    }
}

/* Gray: the 15-bit fixed-point sum of pfk_gray_u8 (all terms >= 0). */
PFS_AI void PFS(gray_body)(const uint8_t *src, uint8_t *dst, int32_t n, int scn, int bidx) {
    int32_t w[3];
    pfk_gray_weights_i(bidx, w);
    const VI w0 = vi_set1(w[0]), w1 = vi_set1(w[1]), w2 = vi_set1(w[2]);
    const VI half = vi_set1(1 << (PFK_GRAY_SHIFT - 1));
    for (int32_t x = 0; x < n; x += PFS_N) {
        VI a, b, e;
        PFS(ld_rgb)(src + (size_t)scn * (size_t)x, scn, &a, &b, &e);
        VI y = vi_add(vi_add(vi_mullo(a, w0), vi_mullo(b, w1)), vi_add(vi_mullo(e, w2), half));
        st1(dst + x, vi_srai(y, PFK_GRAY_SHIFT));
    }
}
static void PFS(gray_u8c3)(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    PFS(gray_body)(s, d, n, 3, c->bidx);
}
static void PFS(gray_u8c4)(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    PFS(gray_body)(s, d, n, 4, c->bidx);
}
#endif

/* ------------------------------------------------------- RGB -> YCrCb */

/* pfk_ycrcb_i for u8: Y = descale(weighted sum); Cr, Cb = descale((r|b -
 * Y) * k + 128 << 14), clamped. Y never needs the clamp (weights sum to
 * 1 << 14). */
PFS_AI void PFS(ycrcb_body)(const uint8_t *src, uint8_t *dst, int32_t n, int scn, int bidx) {
    const VI c0 = vi_set1(bidx == 0 ? PFK_B2Y : PFK_R2Y), c1 = vi_set1(PFK_G2Y);
    const VI c2 = vi_set1(bidx == 0 ? PFK_R2Y : PFK_B2Y);
    const VI kr = vi_set1(PFK_YCRI), kb = vi_set1(PFK_YCBI);
    const VI half = vi_set1(1 << (PFK_YCC_SHIFT - 1));
    const VI delta = vi_set1((128 << PFK_YCC_SHIFT) + (1 << (PFK_YCC_SHIFT - 1)));
    for (int32_t x = 0; x < n; x += PFS_N) {
        VI s0, s1, s2;
        PFS(ld_rgb)(src + (size_t)scn * (size_t)x, scn, &s0, &s1, &s2);
        VI y = vi_add(vi_add(vi_mullo(s0, c0), vi_mullo(s1, c1)), vi_add(vi_mullo(s2, c2), half));
        y = vi_srai(y, PFK_YCC_SHIFT);
        VI r = bidx == 0 ? s2 : s0, b = bidx == 0 ? s0 : s2;
        VI cr = vi_srai(vi_add(vi_mullo(vi_sub(r, y), kr), delta), PFK_YCC_SHIFT);
        VI cb = vi_srai(vi_add(vi_mullo(vi_sub(b, y), kb), delta), PFK_YCC_SHIFT);
        st3(dst + 3 * (size_t)x, y, PFS(clamp_u8)(cr), PFS(clamp_u8)(cb));
    }
}
static void PFS(ycrcb_u8)(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    if (c->scn == 3) {
        if (c->bidx == 0) PFS(ycrcb_body)(s, d, n, 3, 0);
        else PFS(ycrcb_body)(s, d, n, 3, 2);
    } else {
        if (c->bidx == 0) PFS(ycrcb_body)(s, d, n, 4, 0);
        else PFS(ycrcb_body)(s, d, n, 4, 2);
    }
}

/* ------------------------------------------------------- YCrCb -> RGB */

PFS_AI void PFS(ycrcb2rgb_body)(const uint8_t *src, uint8_t *dst, int32_t n, int dcn, int bidx) {
    const VI kcr_r = vi_set1(PFK_CR2RI), kcr_g = vi_set1(PFK_CR2GI);
    const VI kcb_g = vi_set1(PFK_CB2GI), kcb_b = vi_set1(PFK_CB2BI);
    const VI half = vi_set1(1 << (PFK_YCC_SHIFT - 1)), c128 = vi_set1(128);
    for (int32_t x = 0; x < n; x += PFS_N) {
        VI y, cr, cb;
        ld3(src + 3 * (size_t)x, &y, &cr, &cb);
        cr = vi_sub(cr, c128);
        cb = vi_sub(cb, c128);
        VI b = vi_add(y, vi_srai(vi_add(vi_mullo(cb, kcb_b), half), PFK_YCC_SHIFT));
        VI g = vi_add(vi_mullo(cb, kcb_g), vi_add(vi_mullo(cr, kcr_g), half));
        g = vi_add(y, vi_srai(g, PFK_YCC_SHIFT));
        VI r = vi_add(y, vi_srai(vi_add(vi_mullo(cr, kcr_r), half), PFK_YCC_SHIFT));
        b = PFS(clamp_u8)(b);
        g = PFS(clamp_u8)(g);
        r = PFS(clamp_u8)(r);
        VI o0 = bidx == 0 ? b : r, o2 = bidx == 0 ? r : b;
        if (dcn == 3) st3(dst + 3 * (size_t)x, o0, g, o2);
        else st4(dst + 4 * (size_t)x, o0, g, o2, vi_set1(255));
    }
}
static void PFS(ycrcb2rgb_u8)(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    if (c->dcn == 3) {
        if (c->bidx == 0) PFS(ycrcb2rgb_body)(s, d, n, 3, 0);
        else PFS(ycrcb2rgb_body)(s, d, n, 3, 2);
    } else {
        if (c->bidx == 0) PFS(ycrcb2rgb_body)(s, d, n, 4, 0);
        else PFS(ycrcb2rgb_body)(s, d, n, 4, 2);
    }
}

/* --------------------------------------------------------- RGB -> HSV */

/* OpenCV's reciprocal table entry round_half_even(num / den) (0 for den 0),
 * computed instead of gathered: one correctly rounded float division and a
 * round-half-even conversion give exactly the table value. Why: for the
 * tables' num (255 << 12, 180 << 12, 256 << 12; all < 2^21) and den (v or
 * 6 * diff, <= 1530), the quotient q is < 2^20 and the division errs by at
 * most q * 2^-24 <= 2^-4 / den, while an inexact fraction of num / den lies
 * at least 1 / (2 den) from one half; a quotient ending in exactly .5 is
 * representable. test_simd_color checks all 2^24 inputs. */
PFS_AI VI PFS(recip_entry)(VF num, VI den) {
    VI q = vi_round(vf_div(num, vf_from_vi(den)));
    return vi_sel(vi_eq(den, vi_set1(0)), vi_set1(0), q);
}

/* pfk_hsv_u8_core with the table entries sdiv[v] and hdiv[v - min]. */
PFS_AI void PFS(hsv_body)(const uint8_t *src, uint8_t *dst, int32_t n, int scn, int bidx,
                          int32_t hrange) {
    const VI round = vi_set1(1 << (PFK_HSV_SHIFT - 1)), hr = vi_set1(hrange);
    const VF snum = vf_set1((float)(255 << PFK_HSV_SHIFT)), hnum = vf_set1((float)(hrange << PFK_HSV_SHIFT));
    const VI zero = vi_set1(0), six = vi_set1(6);
    for (int32_t x = 0; x < n; x += PFS_N) {
        VI s0, s1, s2;
        PFS(ld_rgb)(src + (size_t)scn * (size_t)x, scn, &s0, &s1, &s2);
        VI b = bidx == 0 ? s0 : s2, g = s1, r = bidx == 0 ? s2 : s0;
        VI v = vi_max(vi_max(b, g), r);
        VI mn = vi_min(vi_min(b, g), r);
        VI diff = vi_sub(v, mn);
        VI hg = vi_add(vi_sub(b, r), vi_add(diff, diff));
        VI hb = vi_add(vi_sub(r, g), vi_slli(diff, 2));
        VI h = vi_sel(vi_eq(v, r), vi_sub(g, b), vi_sel(vi_eq(v, g), hg, hb));
        VI sdiv = PFS(recip_entry)(snum, v), hdiv = PFS(recip_entry)(hnum, vi_mullo(diff, six));
        VI sv = vi_srai(vi_add(vi_mullo(diff, sdiv), round), PFK_HSV_SHIFT);
        h = vi_srai(vi_add(vi_mullo(h, hdiv), round), PFK_HSV_SHIFT);
        h = vi_sel(vi_lt(h, zero), vi_add(h, hr), h);
        st3(dst + 3 * (size_t)x, PFS(clamp_u8)(h), sv, v);
    }
}
static void PFS(hsv_u8)(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    if (c->scn == 3) {
        if (c->bidx == 0) PFS(hsv_body)(s, d, n, 3, 0, c->hrange);
        else PFS(hsv_body)(s, d, n, 3, 2, c->hrange);
    } else {
        if (c->bidx == 0) PFS(hsv_body)(s, d, n, 4, 0, c->hrange);
        else PFS(hsv_body)(s, d, n, 4, 2, c->hrange);
    }
}

/* --------------------------------------------------------- HSV -> RGB */
#if PFS_FMA
/* pfk_hsv2rgb_u8, float for float: H * hscale, fmod 6 (a conditional
 * subtract: H * hscale < 12 for u8 H, and x - 6 is exact on [6, 12)),
 * sector = floor, the four candidates (fused as OpenCV's vector loop when
 * trunc, plain otherwise), the per-sector pick, * 255, then truncate or
 * round half even, clamp. s == 0 needs no branch: every candidate is v. */
PFS_AI void PFS(hsv2rgb_body)(const uint8_t *src, uint8_t *dst, int32_t n, int dcn, int bidx,
                              int trunc, float hscale) {
    const VF hs = vf_set1(hscale), k255 = vf_set1(1.0f / 255.0f), one = vf_set1(1.0f);
    const VF six = vf_set1(6.0f), f255 = vf_set1(255.0f);
    for (int32_t x = 0; x < n; x += PFS_N) {
        VI hi, si, vi;
        ld3(src + 3 * (size_t)x, &hi, &si, &vi);
        VF h = vf_mul(vf_from_vi(hi), hs);
        h = vf_sel(vf_ge(h, six), vf_sub(h, six), h);
        VF fl = vf_floor(h);
        VI sector = vi_trunc(fl);
        h = vf_sub(h, fl);
        VF s = vf_mul(vf_from_vi(si), k255), v = vf_mul(vf_from_vi(vi), k255);
        VF t0 = v, t1 = vf_mul(v, vf_sub(one, s)), t2, t3;
        if (trunc) {
            t2 = vf_mul(v, vf_fnmadd(s, h, one));
            t3 = vf_mul(v, vf_fnmadd(s, vf_sub(one, h), one));
        } else {
            t2 = vf_mul(v, vf_sub(one, vf_mul(s, h)));
            t3 = vf_mul(v, vf_sub(one, vf_mul(s, vf_sub(one, h))));
        }
        /* sector -> (b, g, r) = (1,3,0) (1,0,2) (3,0,1) (0,2,1) (0,1,3) (2,1,0) */
        VM m1 = vi_eq(sector, vi_set1(1)), m2 = vi_eq(sector, vi_set1(2));
        VM m3 = vi_eq(sector, vi_set1(3)), m4 = vi_eq(sector, vi_set1(4));
        VM m5 = vi_eq(sector, vi_set1(5));
        VF fb = vf_sel(m2, t3, vf_sel(m3, t0, vf_sel(m4, t0, vf_sel(m5, t2, t1))));
        VF fg = vf_sel(m1, t0, vf_sel(m2, t0, vf_sel(m3, t2, vf_sel(m4, t1, vf_sel(m5, t1, t3)))));
        VF fr = vf_sel(m1, t2, vf_sel(m2, t1, vf_sel(m3, t1, vf_sel(m4, t3, t0))));
        fb = vf_mul(fb, f255);
        fg = vf_mul(fg, f255);
        fr = vf_mul(fr, f255);
        VI b = PFS(clamp_u8)(trunc ? vi_trunc(fb) : vi_round(fb));
        VI g = PFS(clamp_u8)(trunc ? vi_trunc(fg) : vi_round(fg));
        VI r = PFS(clamp_u8)(trunc ? vi_trunc(fr) : vi_round(fr));
        VI o0 = bidx == 0 ? b : r, o2 = bidx == 0 ? r : b;
        if (dcn == 3) st3(dst + 3 * (size_t)x, o0, g, o2);
        else st4(dst + 4 * (size_t)x, o0, g, o2, vi_set1(255));
    }
}
#define PFS_HSV2RGB_CASE(DCN, BIDX)                                                      \
    do {                                                                                 \
        if (c->hsv_trunc) PFS(hsv2rgb_body)(s, d, n, DCN, BIDX, 1, hscale);              \
        else PFS(hsv2rgb_body)(s, d, n, DCN, BIDX, 0, hscale);                           \
    } while (0)
static void PFS(hsv2rgb_u8)(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    float hscale = 6.0f / (float)c->hrange; /* as the reference */
    if (c->dcn == 3) {
        if (c->bidx == 0) PFS_HSV2RGB_CASE(3, 0);
        else PFS_HSV2RGB_CASE(3, 2);
    } else {
        if (c->bidx == 0) PFS_HSV2RGB_CASE(4, 0);
        else PFS_HSV2RGB_CASE(4, 2);
    }
}
#undef PFS_HSV2RGB_CASE
#endif

/* Installs the kernels of this file. */
static void PFS(fill)(pfi_color_kernels *k) {
#if PFS_SHUFFLES
    k->row[PFI_COLOR_SWAP_U8C3] = PFS(swap_u8c3);
    k->row[PFI_COLOR_SWAP_U8C4] = PFS(swap_u8c4);
    k->row[PFI_COLOR_ADD_ALPHA_U8] = PFS(add_alpha_u8);
    k->row[PFI_COLOR_DROP_ALPHA_U8] = PFS(drop_alpha_u8);
    k->row[PFI_COLOR_GRAY_U8C3] = PFS(gray_u8c3);
    k->row[PFI_COLOR_GRAY_U8C4] = PFS(gray_u8c4);
    k->row[PFI_COLOR_GRAY2BGR_U8] = PFS(gray2bgr_u8);
    k->row[PFI_COLOR_GRAY2BGRA_U8] = PFS(gray2bgra_u8);
#endif
    k->row[PFI_COLOR_YCRCB_U8] = PFS(ycrcb_u8);
    k->row[PFI_COLOR_YCRCB2RGB_U8] = PFS(ycrcb2rgb_u8);
    k->row[PFI_COLOR_HSV_U8] = PFS(hsv_u8);
#if PFS_FMA
    k->row[PFI_COLOR_HSV2RGB_U8] = PFS(hsv2rgb_u8); /* FMA: part of the AVX2 level */
#endif
}
