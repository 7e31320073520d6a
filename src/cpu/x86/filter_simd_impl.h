/* Filter row kernels written once over a small vector vocabulary, compiled
 * for AVX2 (filter_avx2.c) and AVX-512 (filter_avx512.c). Each kernel does
 * whole vectors only and returns where it stopped; the caller finishes
 * the tail with the reference (filter_rows.h). The including file defines:
 *   PFS(name)        name with the ISA suffix
 *   PFS_B8, PFS_B16, PFS_F   bytes / u16 lanes / f32 lanes per vector
 *   VI, VF           integer / float vector types
 *   ld8(p) st8(p, v)          PFS_B8 bytes
 *   ld16(p) st16(p, v)        PFS_B16 u16
 *   ld8w16(p)                 PFS_B16 bytes widened to u16
 *   st16n8(p, v)              u16 lanes (<= 255) narrowed and stored as bytes
 *   ld8f(p)                   PFS_F bytes widened to f32
 *   stf8(p, vi32)             PFS_F i32 lanes (any value) saturated to u8
 *   VD, PFS_D                 double vector type and its lanes
 *   ldf_d(p) ldd(p) std(p, v) std_f(p, v)  PFS_D floats widened / doubles /
 *                             doubles stored / doubles narrowed to floats
 *   blend_d(x, d, g)          x + g * d per f32 lane, computed in double
 *                             lanes and rounded once to f32
 *   and the integer / float operations used below. */

/* Loop over whole vectors of W elements from x0; a last partial vector is
 * redone as the full vector ending at n (outputs are pure functions of
 * the inputs and never alias them, so overlapping elements get the same
 * values). Only rows shorter than one vector are left to the caller. */
#define PFS_FOR(i, x0, n, W) \
    for (;; i += (W))        \
        if (i + (W) > (n) && (i >= (n) || (n) - (x0) < (W) || ((i = (n) - (W)), 0))) break; else

/* u8 horizontal weighted sum (Gaussian 8.8 taps or box ones). 3 and 5
 * taps are unrolled with the weights held in registers. */
static int32_t PFS(hsum3_u8)(const uint8_t *pad, uint16_t *out, const uint16_t *k, int32_t step, int32_t x0,
                             int32_t n) {
    int32_t i = x0;
    const VI k0 = set16(k[0]), k1 = set16(k[1]), k2 = set16(k[2]);
    PFS_FOR(i, x0, n, PFS_B16) {
        const uint8_t *p = pad + i;
        VI acc = add16(mul16(ld8w16(p), k0), mul16(ld8w16(p + step), k1));
        st16(out + i, add16(acc, mul16(ld8w16(p + 2 * step), k2)));
    }
    return i;
}

static int32_t PFS(hsum5_u8)(const uint8_t *pad, uint16_t *out, const uint16_t *k, int32_t step, int32_t x0,
                             int32_t n) {
    int32_t i = x0;
    const VI k0 = set16(k[0]), k1 = set16(k[1]), k2 = set16(k[2]), k3 = set16(k[3]), k4 = set16(k[4]);
    PFS_FOR(i, x0, n, PFS_B16) {
        const uint8_t *p = pad + i;
        VI a = add16(mul16(ld8w16(p), k0), mul16(ld8w16(p + step), k1));
        VI b = add16(mul16(ld8w16(p + 2 * step), k2), mul16(ld8w16(p + 3 * step), k3));
        st16(out + i, add16(add16(a, b), mul16(ld8w16(p + 4 * step), k4)));
    }
    return i;
}

static int32_t PFS(hsum_u8)(const uint8_t *pad, uint16_t *out, const uint16_t *k, int32_t taps, int32_t step,
                            int32_t x0, int32_t n) {
    if (taps == 3) return PFS(hsum3_u8)(pad, out, k, step, x0, n);
    if (taps == 5) return PFS(hsum5_u8)(pad, out, k, step, x0, n);
    int32_t i = x0;
    PFS_FOR(i, x0, n, PFS_B16) {
        VI acc = mul16(ld8w16(pad + i), set16(k[0]));
        for (int32_t j = 1; j < taps; j++) acc = add16(acc, mul16(ld8w16(pad + i + j * step), set16(k[j])));
        st16(out + i, acc);
    }
    return i;
}

/* u8 Gaussian vertical pass. The 16-bit sums are biased to signed
 * (x - 32768) so pairs of rows go through one multiply-add of signed
 * 16-bit lanes; the bias times the tap sum (256) is added back with the
 * rounding constant. */
static int32_t PFS(vgauss_u8)(const uint16_t *const *rows, const uint16_t *k, int32_t taps, uint8_t *out,
                              int32_t x0, int32_t n) {
    int32_t i = x0;
    const VI bias = set16(0x8000);
    const VI zero = zero_v();
    PFS_FOR(i, x0, n, PFS_B16) {
        VI lo = set32((1 << 23) + (1 << 15)), hi = lo;
        int32_t j = 0;
        for (; j + 1 < taps; j += 2) {
            VI a = xor_v(ld16(rows[j] + i), bias), b = xor_v(ld16(rows[j + 1] + i), bias);
            VI w = set32((int32_t)((uint32_t)k[j] | ((uint32_t)k[j + 1] << 16)));
            lo = add32(lo, madd16(unpacklo16(a, b), w));
            hi = add32(hi, madd16(unpackhi16(a, b), w));
        }
        if (j < taps) {
            VI a = xor_v(ld16(rows[j] + i), bias);
            VI w = set32((int32_t)k[j]);
            lo = add32(lo, madd16(unpacklo16(a, zero), w));
            hi = add32(hi, madd16(unpackhi16(a, zero), w));
        }
        st16n8(out + i, packus32(srli32(lo, 16), srli32(hi, 16)));
    }
    return i;
}

/* u8 Gaussian vertical pass in 16 bits (reduced taps, see filter_rows.h). */
static int32_t PFS(vgauss16_3_u8)(const uint16_t *const *rows, const uint16_t *k, int32_t shift, uint8_t *out,
                                  int32_t x0, int32_t n) {
    int32_t i = x0;
    const VI rnd = set16(1 << (shift - 1)), k0 = set16(k[0]), k1 = set16(k[1]), k2 = set16(k[2]);
    const __m128i cnt = _mm_cvtsi32_si128(shift);
    const uint16_t *r0 = rows[0], *r1 = rows[1], *r2 = rows[2];
    PFS_FOR(i, x0, n, PFS_B16) {
        VI acc = add16(add16(rnd, mul16(ld16(r0 + i), k0)), mul16(ld16(r1 + i), k1));
        st16n8(out + i, srl16(add16(acc, mul16(ld16(r2 + i), k2)), cnt));
    }
    return i;
}

static int32_t PFS(vgauss16_5_u8)(const uint16_t *const *rows, const uint16_t *k, int32_t shift, uint8_t *out,
                                  int32_t x0, int32_t n) {
    int32_t i = x0;
    const VI rnd = set16(1 << (shift - 1)), k0 = set16(k[0]), k1 = set16(k[1]), k2 = set16(k[2]);
    const VI k3 = set16(k[3]), k4 = set16(k[4]);
    const __m128i cnt = _mm_cvtsi32_si128(shift);
    const uint16_t *r0 = rows[0], *r1 = rows[1], *r2 = rows[2], *r3 = rows[3], *r4 = rows[4];
    PFS_FOR(i, x0, n, PFS_B16) {
        VI a = add16(add16(rnd, mul16(ld16(r0 + i), k0)), mul16(ld16(r1 + i), k1));
        VI b = add16(mul16(ld16(r2 + i), k2), mul16(ld16(r3 + i), k3));
        st16n8(out + i, srl16(add16(add16(a, b), mul16(ld16(r4 + i), k4)), cnt));
    }
    return i;
}

static int32_t PFS(vgauss16_u8)(const uint16_t *const *rows, const uint16_t *k, int32_t taps, int32_t shift,
                                uint8_t *out, int32_t x0, int32_t n) {
    if (shift >= 1 && taps == 3) return PFS(vgauss16_3_u8)(rows, k, shift, out, x0, n);
    if (shift >= 1 && taps == 5) return PFS(vgauss16_5_u8)(rows, k, shift, out, x0, n);
    int32_t i = x0;
    const VI rnd = set16(shift > 0 ? 1 << (shift - 1) : 0);
    const __m128i cnt = _mm_cvtsi32_si128(shift);
    PFS_FOR(i, x0, n, PFS_B16) {
        VI acc = add16(rnd, mul16(ld16(rows[0] + i), set16(k[0])));
        for (int32_t j = 1; j < taps; j++) acc = add16(acc, mul16(ld16(rows[j] + i), set16(k[j])));
        st16n8(out + i, srl16(acc, cnt));
    }
    return i;
}

/* u8 box vertical pass, area <= 256: exact division as OpenCV's. */
static int32_t PFS(vbox_u8)(const uint16_t *const *rows, int32_t taps, pfk_box_div d, uint8_t *out, int32_t x0,
                            int32_t n) {
    int32_t i = x0;
    const VI zero = zero_v(), mul = set32((int32_t)d.mul), dd = set16((int16_t)d.delta);
    PFS_FOR(i, x0, n, PFS_B16) {
        VI s = ld16(rows[0] + i);
        for (int32_t j = 1; j < taps; j++) s = add16(s, ld16(rows[j] + i));
        s = add16(s, dd);
        VI lo = srli32(mullo32(unpacklo16(s, zero), mul), 23);
        VI hi = srli32(mullo32(unpackhi16(s, zero), mul), 23);
        st16n8(out + i, packus32(lo, hi));
    }
    return i;
}

#define PFS_MORPH(name, op)                                                                                      \
    static int32_t PFS(h##name##_u8)(const uint8_t *pad, uint8_t *out, int32_t taps, int32_t step, int32_t x0,    \
                                     int32_t n) {                                                                \
        int32_t i = x0;                                                                                          \
        if (taps == 3) {                                                                                         \
            PFS_FOR(i, x0, n, PFS_B8) {                                                                          \
                st8(out + i, op(op(ld8(pad + i), ld8(pad + i + step)), ld8(pad + i + 2 * step)));              \
            }                                                                                                    \
            return i;                                                                                            \
        }                                                                                                        \
        if (taps == 5) {                                                                                         \
            PFS_FOR(i, x0, n, PFS_B8) {                                                                          \
                const uint8_t *q = pad + i;                                                                      \
                VI a = op(op(ld8(q), ld8(q + step)), ld8(q + 2 * step));                                         \
                st8(out + i, op(a, op(ld8(q + 3 * step), ld8(q + 4 * step))));                                   \
            }                                                                                                    \
            return i;                                                                                            \
        }                                                                                                        \
        PFS_FOR(i, x0, n, PFS_B8) {                                                                   \
            VI v = ld8(pad + i);                                                                                 \
            for (int32_t j = 1; j < taps; j++) v = op(v, ld8(pad + i + j * step));                               \
            st8(out + i, v);                                                                                     \
        }                                                                                                        \
        return i;                                                                                                \
    }                                                                                                            \
    static int32_t PFS(v##name##_u8)(const uint8_t *const *rows, int32_t taps, uint8_t *out, int32_t x0,          \
                                     int32_t n) {                                                                \
        int32_t i = x0;                                                                                          \
        if (taps == 3) {                                                                                         \
            const uint8_t *r0 = rows[0], *r1 = rows[1], *r2 = rows[2];                                           \
            PFS_FOR(i, x0, n, PFS_B8) { st8(out + i, op(op(ld8(r0 + i), ld8(r1 + i)), ld8(r2 + i))); }           \
            return i;                                                                                            \
        }                                                                                                        \
        if (taps == 5) {                                                                                         \
            const uint8_t *r0 = rows[0], *r1 = rows[1], *r2 = rows[2], *r3 = rows[3], *r4 = rows[4];             \
            PFS_FOR(i, x0, n, PFS_B8) {                                                                          \
                VI a = op(op(ld8(r0 + i), ld8(r1 + i)), ld8(r2 + i));                                            \
                st8(out + i, op(a, op(ld8(r3 + i), ld8(r4 + i))));                                               \
            }                                                                                                    \
            return i;                                                                                            \
        }                                                                                                        \
        PFS_FOR(i, x0, n, PFS_B8) {                                                                   \
            VI v = ld8(rows[0] + i);                                                                             \
            for (int32_t j = 1; j < taps; j++) v = op(v, ld8(rows[j] + i));                                      \
            st8(out + i, v);                                                                                     \
        }                                                                                                        \
        return i;                                                                                                \
    }
PFS_MORPH(min, minu8)
PFS_MORPH(max, maxu8)

static int32_t PFS(hconv_f32)(const float *pad, float *out, const float *k, int32_t taps, int32_t step, int32_t x0,
                              int32_t n) {
    int32_t i = x0;
    PFS_FOR(i, x0, n, PFS_F) {
        VF acc = mulf(ldf(pad + i), setf(k[0]));
        for (int32_t j = 1; j < taps; j++) acc = addf(acc, mulf(ldf(pad + i + j * step), setf(k[j])));
        stf(out + i, acc);
    }
    return i;
}

static int32_t PFS(vconv_f32)(const float *const *rows, const float *k, int32_t taps, float *out, int32_t x0,
                              int32_t n) {
    int32_t i = x0;
    PFS_FOR(i, x0, n, PFS_F) {
        VF acc = mulf(ldf(rows[0] + i), setf(k[0]));
        for (int32_t j = 1; j < taps; j++) acc = addf(acc, mulf(ldf(rows[j] + i), setf(k[j])));
        stf(out + i, acc);
    }
    return i;
}

/* filter_2d u8: f32 accumulation in tap order from delta, round half to
 * even (the default MXCSR mode), saturate. */
static int32_t PFS(conv2d_u8)(const uint8_t *const *rows, const pfi_taps2d *taps, float delta, uint8_t *out,
                              int32_t x0, int32_t n) {
    int32_t i = x0;
    const VF d = setf(delta);
    PFS_FOR(i, x0, n, PFS_F) {
        VF acc = d;
        for (int32_t t = 0; t < taps->count; t++)
            acc = addf(acc, mulf(setf(taps->w[t]), ld8f(rows[taps->row[t]] + i + taps->off[t])));
        stf8(out + i, cvtf_i32(acc));
    }
    return i;
}

#define PFS_SORT(a, b)           \
    do {                         \
        VI t_ = minu8(a, b);     \
        b = maxu8(a, b);         \
        a = t_;                  \
    } while (0)

/* Median of 9 with the classic 19-exchange network (p4 ends as the median). */
static int32_t PFS(median3_u8)(const uint8_t *const *rows, int32_t step, uint8_t *out, int32_t x0, int32_t n) {
    int32_t i = x0;
    PFS_FOR(i, x0, n, PFS_B8) {
        VI p0 = ld8(rows[0] + i), p1 = ld8(rows[0] + i + step), p2 = ld8(rows[0] + i + 2 * step);
        VI p3 = ld8(rows[1] + i), p4 = ld8(rows[1] + i + step), p5 = ld8(rows[1] + i + 2 * step);
        VI p6 = ld8(rows[2] + i), p7 = ld8(rows[2] + i + step), p8 = ld8(rows[2] + i + 2 * step);
        PFS_SORT(p1, p2); PFS_SORT(p4, p5); PFS_SORT(p7, p8);
        PFS_SORT(p0, p1); PFS_SORT(p3, p4); PFS_SORT(p6, p7);
        PFS_SORT(p1, p2); PFS_SORT(p4, p5); PFS_SORT(p7, p8);
        PFS_SORT(p0, p3); PFS_SORT(p5, p8); PFS_SORT(p4, p7);
        PFS_SORT(p3, p6); PFS_SORT(p1, p4); PFS_SORT(p2, p5);
        PFS_SORT(p4, p7); PFS_SORT(p4, p2); PFS_SORT(p6, p4);
        PFS_SORT(p4, p2);
        st8(out + i, p4);
    }
    return i;
}

/* Median of 25 by forgetful selection: keep 14 candidates; repeatedly
 * move the smallest to the front and the largest to the back, drop both
 * (neither can be the median) and take in the next value; the median is
 * the middle of the last 3. */
static int32_t PFS(median5_u8)(const uint8_t *const *rows, int32_t step, uint8_t *out, int32_t x0, int32_t n) {
    int32_t i = x0;
    PFS_FOR(i, x0, n, PFS_B8) {
        VI v[25];
        for (int r = 0; r < 5; r++)
            for (int c = 0; c < 5; c++) v[r * 5 + c] = ld8(rows[r] + i + c * step);
        /* Round r keeps candidates v[r..13]; fully unrolled so the
         * indices are constants and v[] lives in registers. */
#pragma GCC unroll 12
        for (int r = 0; r < 12; r++) {
#pragma GCC unroll 14
            for (int t = r + 1; t <= 13; t++) PFS_SORT(v[r], v[t]); /* min to the front */
#pragma GCC unroll 14
            for (int t = r + 1; t < 13; t++) PFS_SORT(v[t], v[13]); /* max to the back */
            if (r < 11) v[13] = v[14 + r];                           /* drop both, take the next */
        }
        int lo = 11;
        /* 3 candidates left at lo..lo+2 after the last sweep: min at lo, max at lo+2 */
        st8(out + i, v[lo + 1]);
    }
    return i;
}

/* torchvision adjust_sharpness, u8 interior elements. The blend is
 * pfk_sharpen_blend's: x + g * (blurred - x) rounded once to f32, done in
 * double lanes (blend_d, defined by the including file). */
static int32_t PFS(sharpen_u8)(const uint8_t *r0, const uint8_t *r1, const uint8_t *r2, uint8_t *out, int32_t step,
                               float g, int32_t x0, int32_t n) {
    int32_t i = x0;
    const VF s = setf(pfk_sharpen_side()), c = setf(pfk_sharpen_centre());
    const VF z = setf(0.0f), top = setf(255.0f);
    const VD vg = setd((double)g);
    PFS_FOR(i, x0, n, PFS_F) {
        VF acc = mulf(ld8f(r0 + i - step), s);
        acc = addf(acc, mulf(ld8f(r0 + i), s));
        acc = addf(acc, mulf(ld8f(r0 + i + step), s));
        acc = addf(acc, mulf(ld8f(r1 + i - step), s));
        VF x = ld8f(r1 + i);
        acc = addf(acc, mulf(x, c));
        acc = addf(acc, mulf(ld8f(r1 + i + step), s));
        acc = addf(acc, mulf(ld8f(r2 + i - step), s));
        acc = addf(acc, mulf(ld8f(r2 + i), s));
        acc = addf(acc, mulf(ld8f(r2 + i + step), s));
        VF blurred = cvti32_f(cvtf_i32(acc)); /* round half to even; 0..255 already */
        VF v = blend_d(x, subf(blurred, x), vg);
        v = maxf(z, minf(v, top));
        stf8(out + i, cvttf_i32(v));
    }
    return i;
}

/* Separable min / max passes for u16 and f32. For f32 the new element is
 * the first operand: min_ps(w, v) = w < v ? w : v, exactly the
 * reference's "if (w < v) v = w" (NaNs included). */
#define PFS_MORPH_HV(sfx, T, V, B, LD, ST, OP, name)                                                            \
    static int32_t PFS(h##name##_##sfx)(const T *pad, T *out, int32_t taps, int32_t step, int32_t x0,            \
                                        int32_t n) {                                                             \
        int32_t i = x0;                                                                                          \
        PFS_FOR(i, x0, n, B) {                                                                                   \
            V v = LD(pad + i);                                                                                   \
            for (int32_t j = 1; j < taps; j++) v = OP(LD(pad + i + j * step), v);                                \
            ST(out + i, v);                                                                                      \
        }                                                                                                        \
        return i;                                                                                                \
    }                                                                                                            \
    static int32_t PFS(v##name##_##sfx)(const T *const *rows, int32_t taps, T *out, int32_t x0, int32_t n) {     \
        int32_t i = x0;                                                                                          \
        PFS_FOR(i, x0, n, B) {                                                                                   \
            V v = LD(rows[0] + i);                                                                               \
            for (int32_t j = 1; j < taps; j++) v = OP(LD(rows[j] + i), v);                                       \
            ST(out + i, v);                                                                                      \
        }                                                                                                        \
        return i;                                                                                                \
    }
PFS_MORPH_HV(u16, uint16_t, VI, PFS_B16, ld16, st16, minu16, min)
PFS_MORPH_HV(u16, uint16_t, VI, PFS_B16, ld16, st16, maxu16, max)
PFS_MORPH_HV(f32, float, VF, PFS_F, ldf, stf, minf, min)
PFS_MORPH_HV(f32, float, VF, PFS_F, ldf, stf, maxf, max)

/* f32 box: double sums in tap order from 0 (0 + x is exact, -0 becomes +0
 * in both), then (float)(sum * scale). */
static int32_t PFS(hsum_f32_f64)(const float *pad, double *out, int32_t taps, int32_t step, int32_t x0,
                                 int32_t n) {
    int32_t i = x0;
    PFS_FOR(i, x0, n, PFS_D) {
        VD acc = zerod();
        for (int32_t j = 0; j < taps; j++) acc = addd(acc, ldf_d(pad + i + j * step));
        std(out + i, acc);
    }
    return i;
}

static int32_t PFS(vbox_f64_f32)(const double *const *rows, int32_t taps, double scale, float *out, int32_t x0,
                                 int32_t n) {
    int32_t i = x0;
    const VD sc = setd(scale);
    PFS_FOR(i, x0, n, PFS_D) {
        VD acc = zerod();
        for (int32_t j = 0; j < taps; j++) acc = addd(acc, ldd(rows[j] + i));
        std_f(out + i, muld(acc, sc));
    }
    return i;
}

/* filter_2d f32: f32 accumulation in tap order from delta, no FMA. */
static int32_t PFS(conv2d_f32)(const float *const *rows, const pfi_taps2d *taps, float delta, float *out,
                               int32_t x0, int32_t n) {
    int32_t i = x0;
    const VF d = setf(delta);
    if (taps->count == 9) { /* dense 3x3: weights held in registers */
        const float *w = taps->w;
        const VF w0 = setf(w[0]), w1 = setf(w[1]), w2 = setf(w[2]), w3 = setf(w[3]), w4 = setf(w[4]);
        const VF w5 = setf(w[5]), w6 = setf(w[6]), w7 = setf(w[7]), w8 = setf(w[8]);
        const float *p0 = rows[taps->row[0]] + taps->off[0], *p1 = rows[taps->row[1]] + taps->off[1];
        const float *p2 = rows[taps->row[2]] + taps->off[2], *p3 = rows[taps->row[3]] + taps->off[3];
        const float *p4 = rows[taps->row[4]] + taps->off[4], *p5 = rows[taps->row[5]] + taps->off[5];
        const float *p6 = rows[taps->row[6]] + taps->off[6], *p7 = rows[taps->row[7]] + taps->off[7];
        const float *p8 = rows[taps->row[8]] + taps->off[8];
        PFS_FOR(i, x0, n, PFS_F) {
            VF acc = addf(d, mulf(w0, ldf(p0 + i)));
            acc = addf(acc, mulf(w1, ldf(p1 + i)));
            acc = addf(acc, mulf(w2, ldf(p2 + i)));
            acc = addf(acc, mulf(w3, ldf(p3 + i)));
            acc = addf(acc, mulf(w4, ldf(p4 + i)));
            acc = addf(acc, mulf(w5, ldf(p5 + i)));
            acc = addf(acc, mulf(w6, ldf(p6 + i)));
            acc = addf(acc, mulf(w7, ldf(p7 + i)));
            stf(out + i, addf(acc, mulf(w8, ldf(p8 + i))));
        }
        return i;
    }
    PFS_FOR(i, x0, n, PFS_F) {
        VF acc = d;
        for (int32_t t = 0; t < taps->count; t++)
            acc = addf(acc, mulf(setf(taps->w[t]), ldf(rows[taps->row[t]] + i + taps->off[t])));
        stf(out + i, acc);
    }
    return i;
}

/* torchvision adjust_sharpness, f32 interior elements; the clamp keeps
 * the reference's NaN behaviour: min_ps(top, v) is v unless top < v. */
static int32_t PFS(sharpen_f32)(const float *r0, const float *r1, const float *r2, float *out, int32_t step, float g,
                                int32_t x0, int32_t n) {
    int32_t i = x0;
    const VF s = setf(pfk_sharpen_side()), c = setf(pfk_sharpen_centre());
    const VF z = setf(0.0f), top = setf(1.0f);
    const VD vg = setd((double)g);
    PFS_FOR(i, x0, n, PFS_F) {
        VF acc = mulf(ldf(r0 + i - step), s);
        acc = addf(acc, mulf(ldf(r0 + i), s));
        acc = addf(acc, mulf(ldf(r0 + i + step), s));
        acc = addf(acc, mulf(ldf(r1 + i - step), s));
        VF x = ldf(r1 + i);
        acc = addf(acc, mulf(x, c));
        acc = addf(acc, mulf(ldf(r1 + i + step), s));
        acc = addf(acc, mulf(ldf(r2 + i - step), s));
        acc = addf(acc, mulf(ldf(r2 + i), s));
        acc = addf(acc, mulf(ldf(r2 + i + step), s));
        VF v = blend_d(x, subf(acc, x), vg);
        stf(out + i, maxf(z, minf(top, v)));
    }
    return i;
}

static void PFS(fill)(pfi_filter_kernels *k) {
    k->hsum_u8 = PFS(hsum_u8);
    k->vgauss_u8 = PFS(vgauss_u8);
    k->vbox_u8 = PFS(vbox_u8);
    k->hmin_u8 = PFS(hmin_u8);
    k->hmax_u8 = PFS(hmax_u8);
    k->vmin_u8 = PFS(vmin_u8);
    k->vmax_u8 = PFS(vmax_u8);
    k->hconv_f32 = PFS(hconv_f32);
    k->vconv_f32 = PFS(vconv_f32);
    k->conv2d_u8 = PFS(conv2d_u8);
    k->median3_u8 = PFS(median3_u8);
    k->median5_u8 = PFS(median5_u8);
    k->sharpen_u8 = PFS(sharpen_u8);
    k->vgauss16_u8 = PFS(vgauss16_u8);
    k->hmin_u16 = PFS(hmin_u16);
    k->hmax_u16 = PFS(hmax_u16);
    k->vmin_u16 = PFS(vmin_u16);
    k->vmax_u16 = PFS(vmax_u16);
    k->hmin_f32 = PFS(hmin_f32);
    k->hmax_f32 = PFS(hmax_f32);
    k->vmin_f32 = PFS(vmin_f32);
    k->vmax_f32 = PFS(vmax_f32);
    k->hsum_f32_f64 = PFS(hsum_f32_f64);
    k->vbox_f64_f32 = PFS(vbox_f64_f32);
    k->conv2d_f32 = PFS(conv2d_f32);
    k->sharpen_f32 = PFS(sharpen_f32);
}
