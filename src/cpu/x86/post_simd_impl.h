/*
 * The post family's SIMD kernels, written once over a small vocabulary and
 * compiled per ISA (post_avx2.c: 8 lanes, post_avx512.c: 16 lanes). Every
 * kernel performs the reference's float operations in the reference's
 * order (no FMA: the ISA files are built without -mfma and with
 * -ffp-contract=off), so results are bit-identical; std::max/min and
 * torch.maximum/minimum are spelled with the operand order that gives the
 * same result for NaN and signed zeros:
 *   std::max(a, b) = a < b ? b : a  = max_ps(b, a)
 *   std::min(a, b) = b < a ? b : a  = min_ps(b, a)
 *   torch maximum  = NaN if either is NaN, else max_ps(a, b)
 * Kernels handle whole vectors only and return how many elements they
 * did; the callers finish with the reference kernels.
 */
#include <math.h>
#include <stdint.h>

#include "kernels/mask_math.h"
#include "cpu/post_exec.h"

#if defined(PFI_POST_AVX512)
#  include <immintrin.h>
#  define W 16
typedef __m512 vf;
typedef __mmask16 vm;
#  define VLD(p) _mm512_loadu_ps(p)
#  define VST(p, v) _mm512_storeu_ps((p), (v))
#  define V1(x) _mm512_set1_ps(x)
#  define VADD _mm512_add_ps
#  define VSUB _mm512_sub_ps
#  define VMUL _mm512_mul_ps
#  define VDIV _mm512_div_ps
#  define VMAX _mm512_max_ps
#  define VMIN _mm512_min_ps
#  define VGT(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_GT_OQ)
#  define VUNORD(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_UNORD_Q)
#  define VORD(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_ORD_Q)
#  define MOR(a, b) ((vm)((a) | (b)))
#  define MAND(a, b) ((vm)((a) & (b)))
#  define MANY(m) ((m) != 0)
#  define VSEL(m, a, b) _mm512_mask_blend_ps((m), (b), (a)) /* m ? a : b */
#  define VI1(i) _mm512_castsi512_ps(_mm512_set1_epi32(i)) /* int bits in a float vector */
#  define FILL(f) f##_avx512
#elif defined(PFI_POST_AVX2)
#  include <immintrin.h>
#  define W 8
typedef __m256 vf;
typedef __m256 vm;
#  define VLD(p) _mm256_loadu_ps(p)
#  define VST(p, v) _mm256_storeu_ps((p), (v))
#  define V1(x) _mm256_set1_ps(x)
#  define VADD _mm256_add_ps
#  define VSUB _mm256_sub_ps
#  define VMUL _mm256_mul_ps
#  define VDIV _mm256_div_ps
#  define VMAX _mm256_max_ps
#  define VMIN _mm256_min_ps
#  define VGT(a, b) _mm256_cmp_ps((a), (b), _CMP_GT_OQ)
#  define VUNORD(a, b) _mm256_cmp_ps((a), (b), _CMP_UNORD_Q)
#  define VORD(a, b) _mm256_cmp_ps((a), (b), _CMP_ORD_Q)
#  define MOR(a, b) _mm256_or_ps((a), (b))
#  define MAND(a, b) _mm256_and_ps((a), (b))
#  define MANY(m) (_mm256_movemask_ps(m) != 0)
#  define VSEL(m, a, b) _mm256_blendv_ps((b), (a), (m))
#  define VI1(i) _mm256_castsi256_ps(_mm256_set1_epi32(i))
#  define FILL(f) f##_avx2
#else
#  error "define PFI_POST_AVX2 or PFI_POST_AVX512"
#endif

static inline vf tmax(vf a, vf b) { return VSEL(VUNORD(a, b), V1(NAN), VMAX(a, b)); }
static inline vf tmin(vf a, vf b) { return VSEL(VUNORD(a, b), V1(NAN), VMIN(a, b)); }
static inline vf tclamp0(vf x) { return VMAX(V1(0.0f), x); } /* 0 > x ? 0 : x */

static int32_t nms_tv(const pfi_nms_cols *k, int32_t n, const float c[5], float off, float thr, int *hit) {
    vf cx1 = V1(c[0]), cy1 = V1(c[1]), cx2 = V1(c[2]), cy2 = V1(c[3]), ca = V1(c[4]);
    vf vthr = V1(thr), voff = V1(off), zero = V1(0.0f);
    int32_t i = 0;
    *hit = 0;
    for (; i + W <= n; i += W) {
        vf xx1 = VMAX(cx1, VLD(k->x1 + i)), yy1 = VMAX(cy1, VLD(k->y1 + i));
        vf xx2 = VMIN(cx2, VLD(k->x2 + i)), yy2 = VMIN(cy2, VLD(k->y2 + i));
        vf dw = VSUB(xx2, xx1), dh = VSUB(yy2, yy1);
        if (off != 0.0f) {
            dw = VADD(dw, voff);
            dh = VADD(dh, voff);
        }
        vf w = VMAX(dw, zero), h = VMAX(dh, zero); /* std::max(0, d) */
        vf inter = VMUL(w, h);
        vf iou = VDIV(inter, VSUB(VADD(VLD(k->area + i), ca), inter));
        if (MANY(VGT(iou, vthr))) {
            *hit = 1;
            return i + W;
        }
    }
    return i;
}

typedef struct iou_parts {
    vf iou, uni;
} iou_parts;

static inline iou_parts iou_vec(const float a[5], const pfi_nms_cols *b, int32_t j) {
    vf ltx = tmax(V1(a[0]), VLD(b->x1 + j)), lty = tmax(V1(a[1]), VLD(b->y1 + j));
    vf rbx = tmin(V1(a[2]), VLD(b->x2 + j)), rby = tmin(V1(a[3]), VLD(b->y2 + j));
    vf inter = VMUL(tclamp0(VSUB(rbx, ltx)), tclamp0(VSUB(rby, lty)));
    iou_parts r;
    r.uni = VSUB(VADD(V1(a[4]), VLD(b->area + j)), inter);
    r.iou = VDIV(inter, r.uni);
    return r;
}

static inline void enclosing(const float a[5], const pfi_nms_cols *b, int32_t j, vf *w, vf *h) {
    vf ltx = tmin(V1(a[0]), VLD(b->x1 + j)), lty = tmin(V1(a[1]), VLD(b->y1 + j));
    vf rbx = tmax(V1(a[2]), VLD(b->x2 + j)), rby = tmax(V1(a[3]), VLD(b->y2 + j));
    *w = tclamp0(VSUB(rbx, ltx));
    *h = tclamp0(VSUB(rby, lty));
}

static int32_t iou_row(const float a[5], const pfi_nms_cols *b, int32_t n, float eps, float *out) {
    (void)eps;
    int32_t j = 0;
    for (; j + W <= n; j += W) VST(out + j, iou_vec(a, b, j).iou);
    return j;
}

static int32_t giou_row(const float a[5], const pfi_nms_cols *b, int32_t n, float eps, float *out) {
    (void)eps;
    int32_t j = 0;
    for (; j + W <= n; j += W) {
        iou_parts p = iou_vec(a, b, j);
        vf w, h;
        enclosing(a, b, j, &w, &h);
        vf areai = VMUL(w, h);
        VST(out + j, VSUB(p.iou, VDIV(VSUB(areai, p.uni), areai)));
    }
    return j;
}

static int32_t diou_row(const float a[5], const pfi_nms_cols *b, int32_t n, float eps, float *out) {
    int32_t j = 0;
    vf half = V1(0.5f); /* x / 2 and x * 0.5 round the same real */
    vf xp = VMUL(VADD(V1(a[0]), V1(a[2])), half), yp = VMUL(VADD(V1(a[1]), V1(a[3])), half);
    for (; j + W <= n; j += W) {
        iou_parts p = iou_vec(a, b, j);
        vf w, h;
        enclosing(a, b, j, &w, &h);
        vf diag = VADD(VADD(VMUL(w, w), VMUL(h, h)), V1(eps));
        vf xg = VMUL(VADD(VLD(b->x1 + j), VLD(b->x2 + j)), half);
        vf yg = VMUL(VADD(VLD(b->y1 + j), VLD(b->y2 + j)), half);
        vf dx = VSUB(xp, xg), dy = VSUB(yp, yg);
        vf cd = VADD(VMUL(dx, dx), VMUL(dy, dy));
        VST(out + j, VSUB(p.iou, VDIV(cd, diag)));
    }
    return j;
}

/* ------------------------------------------------------ u8 narrowing */

#if W == 16
/* 16 int32 lanes in 0..255 -> 16 bytes */
static inline void store_idx(uint8_t *dst, vf idx) {
    _mm_storeu_si128((__m128i *)(void *)dst, _mm512_cvtepi32_epi8(_mm512_cvttps_epi32(idx)));
}
#else
static inline void store_idx(uint8_t *dst, vf idx) {
    __m256i v = _mm256_cvttps_epi32(idx);
    __m128i w16 = _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    _mm_storel_epi64((__m128i *)(void *)dst, _mm_packus_epi16(w16, w16));
}
#endif

static int32_t argmax_row(const float *const *planes, int32_t channels, int32_t n, uint8_t *out) {
    int32_t x = 0;
    for (; x + W <= n; x += W) {
        vf best = VLD(planes[0] + x), bi = V1(0.0f);
        for (int32_t c = 1; c < channels; c++) {
            vf v = VLD(planes[c] + x);
            /* v > best, or v is NaN and best is not (the first NaN stays) */
            vm take = MOR(VGT(v, best), MAND(VUNORD(v, v), VORD(best, best)));
            best = VSEL(take, v, best);
            bi = VSEL(take, V1((float)c), bi);
        }
        store_idx(out + x, bi);
    }
    return x;
}

/* One row (channel plane) after another over a span of columns, the
 * running maximum in best[] and its channel in arg[] (L1-resident): every
 * plane is read as one sequential stream, where a column at a time would
 * touch `channels` strided lines per vector. tmax's NaN is sticky, as the
 * reference's flag; the index follows the reference's v > b wherever no
 * NaN occurs (elsewhere it is unspecified). The index is blended as the
 * bits of a float vector and stored through a float pointer: intrinsic
 * loads and stores may alias any type. */
static int32_t best_row(const float *p, ptrdiff_t stride, int32_t channels, int32_t n, float *best, int32_t *arg) {
    enum { SPAN = 1024 };
    int32_t nv = n - n % W;
    float *argf = (float *)(void *)arg;
    for (int32_t x0 = 0; x0 < nv; x0 += SPAN) {
        int32_t x1 = nv - x0 < SPAN ? nv : x0 + SPAN;
        for (int32_t x = x0; x < x1; x += W) {
            vf b = VLD(p + x);
            VST(best + x, VSEL(VUNORD(b, b), V1(NAN), b));
            VST(argf + x, VI1(0));
        }
        for (int32_t c = 1; c < channels; c++) {
            const float *row = p + (ptrdiff_t)c * stride;
            vf vc = VI1(c);
            for (int32_t x = x0; x < x1; x += W) {
                vf v = VLD(row + x), b = VLD(best + x);
                VST(argf + x, VSEL(VGT(v, b), vc, VLD(argf + x)));
                VST(best + x, tmax(v, b));
            }
        }
    }
    return nv;
}

static int32_t thresh_row(const float *src, int32_t n, float thr, uint8_t value, uint8_t *out) {
    int32_t x = 0;
    vf t = V1(thr), val = V1((float)value), zero = V1(0.0f);
    for (; x + W <= n; x += W) store_idx(out + x, VSEL(VGT(VLD(src + x), t), val, zero));
    return x;
}

static int32_t proto_row(const float *coeff, int32_t m, const float *protos, ptrdiff_t plane_stride, int32_t n,
                         float *out) {
    int32_t x = 0;
    for (; x + W <= n; x += W) {
        vf s = VMUL(V1(coeff[0]), VLD(protos + x));
        for (int32_t k = 1; k < m; k++) s = VADD(s, VMUL(V1(coeff[k]), VLD(protos + (ptrdiff_t)k * plane_stride + x)));
        VST(out + x, s);
    }
    return x;
}

/* ------------------------------------------------------ composite */

/* W elements of fg / bg with their (already expanded) mask bytes. */
#if W == 16
static inline __m512i u8_to_epi32(__m128i v) { return _mm512_cvtepu8_epi32(v); }
static inline void blend_w(const uint8_t *fg, const uint8_t *bg, __m128i m8, uint8_t *dst) {
    __m512i f = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)fg));
    __m512i b = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)bg));
    __m512i p = _mm512_mullo_epi32(_mm512_sub_epi32(f, b), u8_to_epi32(m8));
    __m512 v = _mm512_mul_ps(_mm512_cvtepi32_ps(p), V1(PFK_INV_255));
    v = _mm512_add_ps(v, _mm512_cvtepi32_ps(b));
    v = _mm512_add_ps(v, V1(0.5f));
    _mm_storeu_si128((__m128i *)(void *)dst, _mm512_cvtepi32_epi8(_mm512_cvttps_epi32(v)));
}
#else
static inline void blend_w(const uint8_t *fg, const uint8_t *bg, __m128i m8, uint8_t *dst) {
    __m256i f = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)fg));
    __m256i b = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)bg));
    __m256i p = _mm256_mullo_epi32(_mm256_sub_epi32(f, b), _mm256_cvtepu8_epi32(m8));
    __m256 v = _mm256_mul_ps(_mm256_cvtepi32_ps(p), V1(PFK_INV_255));
    v = _mm256_add_ps(v, _mm256_cvtepi32_ps(b));
    v = _mm256_add_ps(v, V1(0.5f));
    store_idx(dst, v); /* truncation (cvtt) then narrowing, values in 0..255 */
}
#endif

static int32_t composite_row(const uint8_t *fg, const uint8_t *bg, const uint8_t *mask, uint8_t *dst, int32_t n,
                             int32_t cn, int32_t dcn) {
    if (dcn != cn) return 0; /* 3 -> 4 (alpha) stays with the reference */
    int32_t x = 0;
    /* element j of a run of 16 pixels x cn channels takes mask byte j / cn:
     * one pshufb index vector per 16-byte chunk of the run */
    __m128i ix[4];
    for (int32_t c = 0; c < cn; c++) {
        uint8_t idx[16];
        for (int j = 0; j < 16; j++) idx[j] = (uint8_t)((c * 16 + j) / cn);
        ix[c] = _mm_loadu_si128((const __m128i *)(const void *)idx);
    }
    for (; x + 16 <= n; x += 16) {
        __m128i m16 = _mm_loadu_si128((const __m128i *)(const void *)(mask + x));
        for (int32_t c = 0; c < cn; c++) {
            __m128i mc = _mm_shuffle_epi8(m16, ix[c]);
            size_t e = (size_t)x * (size_t)cn + (size_t)c * 16;
#if W == 16
            blend_w(fg + e, bg + e, mc, dst + e);
#else
            blend_w(fg + e, bg + e, mc, dst + e);
            blend_w(fg + e + 8, bg + e + 8, _mm_srli_si128(mc, 8), dst + e + 8);
#endif
        }
    }
    return x;
}

void FILL(pfi_post_fill)(pfi_post_kernels *k) {
    k->nms_tv = nms_tv;
    k->iou_row[0] = iou_row;
    k->iou_row[1] = giou_row;
    k->iou_row[2] = diou_row;
    k->argmax_row = argmax_row;
    k->thresh_row = thresh_row;
    k->composite_row = composite_row;
    k->proto_row = proto_row;
    k->best_row = best_row;
}
