/*
 * Photometric row kernels written once over float/int32 lanes and compiled
 * for AVX2+FMA (photo_avx2.c, 8 lanes), AVX-512 F/BW/VL+FMA (photo_avx512.c,
 * 16 lanes) and AVX-512 VBMI (photo_avx512vbmi.c: the same with byte-permute
 * RGB u8 loads/stores), so the variants cannot drift. Every kernel repeats
 * the reference's float operations in the same order (src/kernels/
 * photo_math.h; FMA exactly where the reference calls pfk_fmaf), so the
 * results are bit-identical to src/ref/photo_ref.c. Rows are whole
 * PFI_PHOTO_PX_BLOCK blocks (16 pixels; PFS_N divides it); the caller runs
 * the reference on the tails. Loads and stores stay inside the pixels of
 * the call.
 *
 * Required before inclusion (lanes: VF float, VI int32, VM lane mask):
 *   PFS_N, PFS(name), PFS_AI
 *   vf_set1 vf_zero vf_add vf_sub vf_mul vf_div vf_min vf_max vf_floor
 *   vf_fmadd(a,b,c) = a*b+c one rounding; vf_from_vi; vf_ld(p) vf_st(p,v)
 *   vf_eq vf_lt vf_ge -> VM; vf_sel(m,t,f); vm_or
 *   vi_set1 vi_add vi_sub vi_eq -> VM; vi_sel(m,t,f); vi_trunc(VF) vi_round(VF)
 *   vi_hsum(VI) -> uint64_t (lanes as uint32)
 *   ld3u8(p,&r,&g,&b): N RGB pixels -> int32 lanes
 *   ld3u8_2p23(p,&R,&G,&B): N RGB pixels -> floats 2^23 + x (bits 0x4B0000xx)
 *   st3u8(p,r,g,b):    int32 lanes -> N RGB pixels, each clamped to [0,255]
 *   st1u8(p,v):        N bytes from int32 lanes in [0,255]
 *   ld3f(p,&r,&g,&b), st3f(p,r,g,b): N interleaved RGB f32 pixels
 *   inv_bytes(s,d,n):  d[i] = ~s[i] for n a multiple of PFI_INVERT_BLOCK (16)
 * and the noise vocabulary listed in photo_noise_simd_impl.h.
 */

typedef struct PFS(rgb) { VF r, g, b; } PFS(rgb);

PFS_AI PFS(rgb) PFS(load_u8)(const uint8_t *p) {
    VI r, g, b;
    ld3u8(p, &r, &g, &b);
    PFS(rgb) o = {vf_from_vi(r), vf_from_vi(g), vf_from_vi(b)};
    return o;
}

PFS_AI PFS(rgb) PFS(load_f32)(const float *p) {
    PFS(rgb) o;
    ld3f(p, &o.r, &o.g, &o.b);
    return o;
}

/* pfk_trunc_u8 on non-NaN lanes: clamp to [0, 255], truncate. */
PFS_AI VI PFS(trunc_u8)(VF v) { return vi_trunc(vf_max(vf_min(v, vf_set1(255.0f)), vf_zero())); }

PFS_AI VF PFS(clamp01)(VF v) { return vf_min(vf_max(v, vf_zero()), vf_set1(1.0f)); }

/* pfk_gray: fma(b, 0.114, fma(g, 0.587, r * 0.2989)). */
PFS_AI VF PFS(gray)(PFS(rgb) p) {
    return vf_fmadd(p.b, vf_set1(PFK_GRAY_B), vf_fmadd(p.g, vf_set1(PFK_GRAY_G), vf_mul(p.r, vf_set1(PFK_GRAY_R))));
}

/* pfk_blend: fma(other, alpha, x * ratio). */
PFS_AI VF PFS(blend)(VF x, VF ratio, VF other, VF alpha) { return vf_fmadd(other, alpha, vf_mul(x, ratio)); }

/* ---------------------------------------------------------- contrast */

static void PFS(contrast_f32)(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const float *s = src;
    float *d = dst;
    VF ratio = vf_set1(k->ratio), alpha = vf_set1(k->alpha), other = vf_set1(k->other);
    for (int32_t j = 0; j < n; j += PFS_N) vf_st(d + j, PFS(clamp01)(PFS(blend)(vf_ld(s + j), ratio, other, alpha)));
}

/* -------------------------------------------------------- saturation */

static void PFS(saturation_u8)(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const uint8_t *s = src;
    uint8_t *d = dst;
    VF ratio = vf_set1(k->ratio), alpha = vf_set1(k->alpha);
    for (int32_t i = 0; i < n; i += PFS_N) {
        PFS(rgb) p = PFS(load_u8)(s + 3 * i);
        VF g = vf_floor(PFS(gray)(p));
        st3u8(d + 3 * i, PFS(trunc_u8)(PFS(blend)(p.r, ratio, g, alpha)), PFS(trunc_u8)(PFS(blend)(p.g, ratio, g, alpha)),
              PFS(trunc_u8)(PFS(blend)(p.b, ratio, g, alpha)));
    }
}

static void PFS(saturation_f32)(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const float *s = src;
    float *d = dst;
    VF ratio = vf_set1(k->ratio), alpha = vf_set1(k->alpha);
    for (int32_t i = 0; i < n; i += PFS_N) {
        PFS(rgb) p = PFS(load_f32)(s + 3 * i);
        VF g = PFS(gray)(p);
        st3f(d + 3 * i, PFS(clamp01)(PFS(blend)(p.r, ratio, g, alpha)), PFS(clamp01)(PFS(blend)(p.g, ratio, g, alpha)),
             PFS(clamp01)(PFS(blend)(p.b, ratio, g, alpha)));
    }
}

/* --------------------------------------------------------------- hue */

/* pfk_hue_shift lane by lane: the branches of the reference become
 * selects; every arithmetic operation is the reference's. */
PFS_AI PFS(rgb) PFS(hue_shift)(PFS(rgb) p, VF hue) {
    const VF one = vf_set1(1.0f), zero = vf_zero();
    VF maxc = vf_max(vf_max(p.r, p.g), p.b);
    VF minc = vf_min(vf_min(p.r, p.g), p.b);
    VM eqc = vf_eq(maxc, minc);
    VF cr = vf_sub(maxc, minc);
    VF s = vf_div(cr, vf_sel(eqc, one, maxc));
    VF crd = vf_sel(eqc, one, cr);
    VF rc = vf_div(vf_sub(maxc, p.r), crd);
    VF gc = vf_div(vf_sub(maxc, p.g), crd);
    VF bc = vf_div(vf_sub(maxc, p.b), crd);
    VF h = vf_sub(vf_add(gc, vf_set1(4.0f)), rc);
    h = vf_sel(vf_eq(maxc, p.g), vf_sub(vf_add(rc, vf_set1(2.0f)), bc), h);
    h = vf_sel(vf_eq(maxc, p.r), vf_sub(bc, gc), h);
    h = vf_add(vf_mul(h, vf_set1(PFK_ONE_SIXTH)), one);
    h = vf_sel(vf_ge(h, one), vf_sub(h, one), h);
    /* pfk_hue_add: (h + hue) remainder 1 */
    VF a = vf_add(h, hue);
    VM neg = vf_lt(a, zero), big = vf_ge(a, one);
    a = vf_sel(neg, vf_add(a, one), vf_sel(big, vf_sub(a, one), a));
    /* pfk_hsv_to_rgb */
    VF v = maxc;
    VF h6 = vf_mul(a, vf_set1(6.0f));
    VF fi = vf_floor(h6);
    VF f = vf_sub(h6, fi);
    VI i = vi_trunc(fi); /* 0..6; the reference's % 6 maps 6 to 0 */
    i = vi_sel(vi_eq(i, vi_set1(6)), vi_set1(0), i);
    VF sxf = vf_mul(s, f);
    VF oms = vf_sub(one, s);
    VF q = PFS(clamp01)(vf_mul(vf_sub(one, sxf), v));
    VF t = PFS(clamp01)(vf_mul(vf_add(sxf, oms), v));
    VF pp = PFS(clamp01)(vf_mul(oms, v));
    VM m0 = vi_eq(i, vi_set1(0)), m1 = vi_eq(i, vi_set1(1)), m2 = vi_eq(i, vi_set1(2));
    VM m3 = vi_eq(i, vi_set1(3)), m4 = vi_eq(i, vi_set1(4));
    PFS(rgb) o;
    /* r: v q p p t v;  g: t v v q p p;  b: p p t v v q  (i = 0..5) */
    o.r = vf_sel(vm_or(m2, m3), pp, vf_sel(m1, q, vf_sel(m4, t, v)));
    o.g = vf_sel(vm_or(m1, m2), v, vf_sel(m0, t, vf_sel(m3, q, pp)));
    o.b = vf_sel(vm_or(m3, m4), v, vf_sel(m2, t, vf_sel(vm_or(m0, m1), pp, q)));
    return o;
}

static void PFS(hue_u8)(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const uint8_t *s = src;
    uint8_t *d = dst;
    VF hue = vf_set1(k->hue), inv = vf_set1(PFK_INV255), sc = vf_set1(PFK_TO_U8_SCALE);
    for (int32_t i = 0; i < n; i += PFS_N) {
        PFS(rgb) p = PFS(load_u8)(s + 3 * i);
        p.r = vf_mul(p.r, inv);
        p.g = vf_mul(p.g, inv);
        p.b = vf_mul(p.b, inv);
        PFS(rgb) o = PFS(hue_shift)(p, hue);
        st3u8(d + 3 * i, PFS(trunc_u8)(vf_mul(o.r, sc)), PFS(trunc_u8)(vf_mul(o.g, sc)), PFS(trunc_u8)(vf_mul(o.b, sc)));
    }
}

static void PFS(hue_f32)(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const float *s = src;
    float *d = dst;
    VF hue = vf_set1(k->hue);
    for (int32_t i = 0; i < n; i += PFS_N) {
        PFS(rgb) o = PFS(hue_shift)(PFS(load_f32)(s + 3 * i), hue);
        st3f(d + 3 * i, o.r, o.g, o.b);
    }
}

/* ------------------------------------------------------------- twist */

/* pfk_twist, unfused: ((m0 r + m1 g) + m2 b) + m3. */
PFS_AI VF PFS(twist1)(const VF *m, PFS(rgb) p) {
    return vf_add(vf_add(vf_add(vf_mul(m[0], p.r), vf_mul(m[1], p.g)), vf_mul(m[2], p.b)), m[3]);
}

/* The products m * x of a u8 value x without converting x: the lane bits
 * 0x4B000000 | x are the float X = 2^23 + x, and fma(m, X, -(m 2^23)) is
 * m x computed exactly and rounded once, i.e. the reference's float
 * product (m 2^23 is exact: only the exponent moves). This moves the
 * three int -> float conversions off the busy add/convert pipes onto an
 * integer OR and the multiply pipes. Requires |m| <= 2^100 (no overflow
 * in m 2^23); an exact zero product comes out +0 where the reference may
 * have -0, which cannot change a sum that is rounded to an integer. */
PFS_AI VF PFS(twist1_u8)(const VF *m, const VF *c, VF R, VF G, VF B) {
    return vf_add(vf_add(vf_add(vf_fmadd(m[0], R, c[0]), vf_fmadd(m[1], G, c[1])), vf_fmadd(m[2], B, c[2])), m[3]);
}

static void PFS(twist_u8)(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const uint8_t *s = src;
    uint8_t *d = dst;
    VF mv[12], cv[12];
    int big = 0;
    for (int c = 0; c < 12; c++) {
        mv[c] = vf_set1(k->m[c]);
        cv[c] = vf_set1(-(k->m[c] * 8388608.0f));
        big |= c % 4 != 3 && !(fabsf(k->m[c]) <= 0x1p100f);
    }
    /* pfk_sat_u8_f: round half even (cvtps; NaN and out-of-int32 give
     * INT_MIN), then the saturating store clamps to [0, 255]. */
    if (big) {
        for (int32_t i = 0; i < n; i += PFS_N) {
            PFS(rgb) p = PFS(load_u8)(s + 3 * i);
            st3u8(d + 3 * i, vi_round(PFS(twist1)(mv, p)), vi_round(PFS(twist1)(mv + 4, p)),
                  vi_round(PFS(twist1)(mv + 8, p)));
        }
        return;
    }
    for (int32_t i = 0; i < n; i += PFS_N) {
        VF R, G, B;
        ld3u8_2p23(s + 3 * i, &R, &G, &B);
        st3u8(d + 3 * i, vi_round(PFS(twist1_u8)(mv, cv, R, G, B)), vi_round(PFS(twist1_u8)(mv + 4, cv + 4, R, G, B)),
              vi_round(PFS(twist1_u8)(mv + 8, cv + 8, R, G, B)));
    }
}

static void PFS(twist_f32)(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const float *s = src;
    float *d = dst;
    VF mv[12];
    for (int c = 0; c < 12; c++) mv[c] = vf_set1(k->m[c]);
    for (int32_t i = 0; i < n; i += PFS_N) {
        PFS(rgb) p = PFS(load_f32)(s + 3 * i);
        st3f(d + 3 * i, PFS(twist1)(mv, p), PFS(twist1)(mv + 4, p), PFS(twist1)(mv + 8, p));
    }
}

/* -------------------------------------------------------------- gray */

static void PFS(gray1_u8)(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    (void)k;
    const uint8_t *s = src;
    uint8_t *d = dst;
    for (int32_t i = 0; i < n; i += PFS_N) st1u8(d + i, PFS(trunc_u8)(PFS(gray)(PFS(load_u8)(s + 3 * i))));
}

static void PFS(gray3_u8)(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    (void)k;
    const uint8_t *s = src;
    uint8_t *d = dst;
    for (int32_t i = 0; i < n; i += PFS_N) {
        VI g = PFS(trunc_u8)(PFS(gray)(PFS(load_u8)(s + 3 * i)));
        st3u8(d + 3 * i, g, g, g);
    }
}

static uint64_t PFS(graysum_u8)(const uint8_t *src, int32_t n) {
    VI acc = vi_set1(0);
    for (int32_t i = 0; i < n; i += PFS_N) /* gray >= 0: truncation is floor */
        acc = vi_add(acc, vi_trunc(PFS(gray)(PFS(load_u8)(src + 3 * i))));
    return vi_hsum(acc);
}

/* ------------------------------------------------------------ invert */

static void PFS(invert_u8)(const uint8_t *src, uint8_t *dst, int32_t n) { inv_bytes(src, dst, n); }

#include "cpu/x86/photo_noise_simd_impl.h"

static void PFS(fill)(pfi_photo_kernels *k) {
    k->px[PFI_PHOTO_CONTRAST_F32] = PFS(contrast_f32);
    k->px[PFI_PHOTO_SAT_U8] = PFS(saturation_u8);
    k->px[PFI_PHOTO_SAT_F32] = PFS(saturation_f32);
    k->px[PFI_PHOTO_HUE_U8] = PFS(hue_u8);
    k->px[PFI_PHOTO_HUE_F32] = PFS(hue_f32);
    k->px[PFI_PHOTO_TWIST_U8] = PFS(twist_u8);
    k->px[PFI_PHOTO_TWIST_F32] = PFS(twist_f32);
    k->px[PFI_PHOTO_GRAY1_U8] = PFS(gray1_u8);
    k->px[PFI_PHOTO_GRAY3_U8] = PFS(gray3_u8);
    k->graysum_u8 = PFS(graysum_u8);
    k->noise_u8 = PFS(noise_u8);
    k->noise_f32 = PFS(noise_f32);
    k->invert_u8 = PFS(invert_u8);
}
