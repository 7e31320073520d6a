/* AVX2 u8 warp samplers (NEAREST, LINEAR, CUBIC; 1, 3 or 4 interleaved
 * channels) and the fused affine / remap kernels built on them.
 *
 * Output pixels go in blocks of 8. A block's source columns and rows
 * (32-bit lanes) are tested against two boxes at once:
 *  - the fast box: every tap of every pixel is inside the source, with
 *    room for the vector loads (a 4-byte gather, 8- or 16-byte row loads);
 *    such blocks are sampled in vector form from 32-bit offsets;
 *  - the border-value box (CONSTANT) / the untouched box (TRANSPARENT):
 *    when no pixel is inside it, the block is the border value or is left
 *    as it is.
 * A block crossing the border runs the vector path too and then redoes its
 * lanes outside the fast box with the reference, which is also the
 * specification of every fast path (TRANSPARENT crossings: the reference
 * for the whole block, since skipped pixels must not be written).
 *
 * Arithmetic: the taps are u8, the weights OpenCV's 15-bit integers
 * (CUBIC: the table entries; LINEAR: computed in lanes, see below),
 * products summed in int32 (vpmaddwd over 16-bit pairs, then 32-bit adds)
 * and rounded once: integer sums are exact in any order, so the result is
 * OpenCV's to the bit.
 *
 * The fused affine and remap kernels compute OpenCV's fixed-point
 * coordinates in the same lanes (no int16 coordinate buffer):
 * classification uses the unsaturated values, which order like the
 * int16-saturated ones because every box bound lies inside the int16 range
 * (sides < 32767). */
#include <immintrin.h>
#include <string.h>

#include "cpu/warp_exec.h"
#include "kernels/warp_math.h"
#include "pixflow/ops.h"

#define PF_INLINE static inline __attribute__((always_inline))
#define PREFETCH_AHEAD 32

enum { BLK_FAST, BLK_CONST, BLK_MIXED };

typedef struct u8ctx {
    const pfi_warp_src *s;
    const int16_t *tab; /* CUBIC: the 16 int16 weights per entry */
    int fast;           /* the fast box is non-empty and 32-bit offsets reach it */
    int cmode;          /* 0: never the border value; 1: border value; 2: untouched */
    int call;           /* the non-border box is empty: every pixel is cmode */
    __m256i fx_lo, fx_span, fy_lo, fy_span;
    __m256i cx_lo, cx_span, cy_lo, cy_span;
    __m256i stride;
    __m256i fill; /* 8 pixels of the border value */
} u8ctx;

/* sx * cn for a constant cn */
PF_INLINE __m256i mul_cn(__m256i v, int32_t cn) {
    return cn == 4 ? _mm256_slli_epi32(v, 2) : cn == 3 ? _mm256_add_epi32(v, _mm256_slli_epi32(v, 1)) : v;
}

/* Box [lo, hi] as (lo, hi - lo) for the unsigned range test; 0 if empty. */
static inline int set_box(int32_t lo, int32_t hi, __m256i *vlo, __m256i *vspan) {
    *vlo = _mm256_set1_epi32(lo);
    *vspan = _mm256_set1_epi32(hi - lo);
    return hi >= lo;
}

static inline __m256i in_box(__m256i v, __m256i lo, __m256i span) {
    __m256i d = _mm256_sub_epi32(v, lo);
    return _mm256_cmpeq_epi32(_mm256_min_epu32(d, span), d);
}

static void ctx_init(u8ctx *c, const pfi_warp_src *s, int interp) {
    int32_t w = s->width, h = s->height, cn = s->cn;
    c->s = s;
    c->tab = interp == PF_INTERP_CUBIC ? pfi_warp_tab_i(1) : NULL;
    /* fast box: the loads of each interpolation stay inside the row */
    int32_t fxl = 0, fxh, fyl = 0, fyh;
    if (interp == PF_INTERP_NEAREST) {
        fxh = w - (cn == 4 ? 1 : cn == 3 ? 2 : 4); /* 4-byte gather */
        fyh = h - 1;
    } else if (interp == PF_INTERP_LINEAR) {
        fxh = w - (cn == 3 ? 3 : 2); /* 8-byte (cn 3, 4) or 2-byte (cn 1) row loads */
        fyh = h - 2;
    } else {
        fxl = 1, fyl = 1;            /* taps sx - 1 .. sx + 2 */
        fxh = w - (cn == 3 ? 5 : 3); /* 16-byte (cn 3, 4) or 4-byte (cn 1) row loads */
        fyh = h - 3;
    }
    double reach = (double)(s->row_stride < 0 ? -s->row_stride : s->row_stride) * h + (double)w * cn + 64;
    c->fast = set_box(fxl, fxh, &c->fx_lo, &c->fx_span) & set_box(fyl, fyh, &c->fy_lo, &c->fy_span) &&
              cn != 2 && reach < 2147483647.0;
    /* border box: pixels outside it are the border value / untouched */
    int32_t lo = 0, xh = w - 1, yh = h - 1;
    c->cmode = s->border == PF_BORDER_CONSTANT ? 1 : s->border == PF_BORDER_TRANSPARENT ? 2 : 0;
    if (c->cmode == 1 && interp == PF_INTERP_LINEAR) lo = -1;
    if (c->cmode == 1 && interp == PF_INTERP_CUBIC) lo = -2, xh = w, yh = h;
    if (c->cmode == 2 && interp == PF_INTERP_LINEAR) xh = w - 2, yh = h - 2;
    c->call = c->cmode && !(set_box(lo, xh, &c->cx_lo, &c->cx_span) & set_box(lo, yh, &c->cy_lo, &c->cy_span));
    c->stride = _mm256_set1_epi32((int32_t)s->row_stride);
    uint32_t cv;
    memcpy(&cv, s->cval.u8, 4);
    const __m256i rep3 = _mm256_setr_epi8(0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1,
                                          2, 0, 1, 2, 0, 1);
    const __m256i rep = cn == 1 ? _mm256_setzero_si256() : cn == 2 ? _mm256_set1_epi16(0x0100)
                        : cn == 3 ? rep3 : _mm256_set1_epi32(0x03020100);
    c->fill = _mm256_shuffle_epi8(_mm256_set1_epi32((int32_t)cv), rep);
}

/* Block kind; *fast gets the lanes inside the fast box (when that box is
 * usable). */
PF_INLINE int classify(const u8ctx *c, __m256i sx, __m256i sy, __m256i *fast) {
    *fast = _mm256_setzero_si256();
    if (c->fast) {
        *fast = _mm256_and_si256(in_box(sx, c->fx_lo, c->fx_span), in_box(sy, c->fy_lo, c->fy_span));
        if (_mm256_movemask_epi8(*fast) == -1) return BLK_FAST;
    }
    if (c->cmode) {
        if (c->call) return BLK_CONST;
        __m256i in = _mm256_and_si256(in_box(sx, c->cx_lo, c->cx_span), in_box(sy, c->cy_lo, c->cy_span));
        if (_mm256_movemask_epi8(in) == 0) return BLK_CONST;
    }
    return BLK_MIXED;
}

/* 8 pixels' coordinates as the reference takes them (int16-saturated). */
static inline void spill(__m256i sx, __m256i sy, __m256i av, int16_t xy[16], uint16_t a[8]) {
    const __m256i inter = _mm256_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15, 0, 1, 8, 9, 2, 3, 10,
                                           11, 4, 5, 12, 13, 6, 7, 14, 15);
    _mm256_storeu_si256((__m256i *)(void *)xy, _mm256_shuffle_epi8(_mm256_packs_epi32(sx, sy), inter));
    __m256i q = _mm256_permute4x64_epi64(_mm256_packs_epi32(av, av), 0x08);
    _mm_storeu_si128((__m128i *)(void *)a, _mm256_castsi256_si128(q));
}

static inline uint32_t ld32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline void st32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

/* 4 pixels of 4 bytes (channel 3 unused for 3 channels) -> dst. */
static inline void store4px(__m128i v, int32_t cn, uint8_t *dst) {
    if (cn == 4) {
        _mm_storeu_si128((__m128i *)(void *)dst, v);
        return;
    }
    const __m128i pack3 = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    v = _mm_shuffle_epi8(v, pack3);
    _mm_storel_epi64((__m128i *)(void *)dst, v);
    st32(dst + 8, (uint32_t)_mm_extract_epi32(v, 2));
}

/* Two pixels' int32 channel sums (lane 0: s01's pixel 0 ...) -> rounded
 * bytes of 4 pixels [p0 p1 p2 p3] from s01 = (p0, p1), s23 = (p2, p3). */
static inline __m128i round4(__m256i s01, __m256i s23) {
    const __m256i half = _mm256_set1_epi32(1 << (PFK_REMAP_COEF_BITS - 1));
    s01 = _mm256_srai_epi32(_mm256_add_epi32(s01, half), PFK_REMAP_COEF_BITS);
    s23 = _mm256_srai_epi32(_mm256_add_epi32(s23, half), PFK_REMAP_COEF_BITS);
    __m256i w16 = _mm256_packs_epi32(s01, s23); /* lane 0: p0 p2, lane 1: p1 p3 */
    __m256i b8 = _mm256_packus_epi16(w16, w16);
    return _mm_unpacklo_epi32(_mm256_castsi256_si128(b8), _mm256_extracti128_si256(b8, 1));
}

/* Rounded sums of 8 one-channel pixels (int32, in order) -> 8 bytes. */
static inline void store8_c1(__m256i sum, uint8_t *dst) {
    const __m256i half = _mm256_set1_epi32(1 << (PFK_REMAP_COEF_BITS - 1));
    sum = _mm256_srai_epi32(_mm256_add_epi32(sum, half), PFK_REMAP_COEF_BITS);
    __m128i w16 = _mm_packs_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    _mm_storel_epi64((__m128i *)(void *)dst, _mm_packus_epi16(w16, w16));
}

/* ---------------------------------------------------------------- NEAREST */

PF_INLINE void nearest8(const pfi_warp_src *s, int32_t cn, __m256i off, uint8_t *dst) {
    __m256i v = _mm256_i32gather_epi32((const int *)(const void *)s->data, off, 1);
    if (cn == 4) {
        _mm256_storeu_si256((__m256i *)(void *)dst, v);
    } else if (cn == 3) {
        store4px(_mm256_castsi256_si128(v), 3, dst);
        store4px(_mm256_extracti128_si256(v, 1), 3, dst + 12);
    } else {
        const __m256i first = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8,
                                               12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
        v = _mm256_shuffle_epi8(v, first);
        st32(dst, (uint32_t)_mm256_extract_epi32(v, 0));
        st32(dst + 4, (uint32_t)_mm256_extract_epi32(v, 4));
    }
}

/* ----------------------------------------------------------------- LINEAR
 * No table: OpenCV's 2x2 integer weights are wx * wy * 32 with wx in
 * {32 - ix, ix}, wy in {32 - iy, iy} (the float products are exact
 * multiples of 2^-10), except that entry 0 holds 32767 for 32768. So
 * (sum(tap * w) + 2^14) >> 15 == (S + 2^9) >> 10 with
 * S = sum(tap * wx * wy) computed separably: vpmaddubsw (u8 taps x
 * 6-bit wx, <= 8160 in int16) then vpmaddwd with (wy0, wy1) (int32).
 * At ix = iy = 0 both forms give the tap itself (tap * 32767 + 2^14 >> 15
 * == tap for any u8), so the result is the table's to the bit.
 * 3/4 channels: two pixels per register (k in lane 0, k + 4 in lane 1),
 * an 8-byte load per neighbourhood row, bytes reordered into
 * (left, right) pairs of top and bottom row per channel. */
PF_INLINE __m256i lin_pair(const uint8_t *p, const uint8_t *q, ptrdiff_t st, __m256i wx, __m256i wy, __m256i pairs) {
    __m128i rp = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)p),
                                    _mm_loadl_epi64((const __m128i *)(const void *)(p + st)));
    __m128i rq = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)q),
                                    _mm_loadl_epi64((const __m128i *)(const void *)(q + st)));
    __m256i v = _mm256_shuffle_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(rp), rq, 1), pairs);
    return _mm256_madd_epi16(_mm256_maddubs_epi16(v, wx), wy);
}

PF_INLINE __m256i round10(__m256i v) { return _mm256_srai_epi32(_mm256_add_epi32(v, _mm256_set1_epi32(1 << 9)), 10); }

/* 8 pixels of 4 bytes [p0..p3 | p4..p7] -> 8 * cn bytes (cn 3 or 4). */
PF_INLINE void store8px(__m256i v, int32_t cn, uint8_t *dst) {
    if (cn == 4) {
        _mm256_storeu_si256((__m256i *)(void *)dst, v);
        return;
    }
    const __m256i pack3 = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, 0, 1, 2, 4, 5, 6,
                                           8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    v = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(v, pack3), _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7));
    _mm_storeu_si128((__m128i *)(void *)dst, _mm256_castsi256_si128(v));
    _mm_storel_epi64((__m128i *)(void *)(dst + 16), _mm256_extracti128_si256(v, 1));
}

/* av: table indices iy * 32 + ix (< 1024) of 8 pixels. */
PF_INLINE void linear8(const pfi_warp_src *s, int32_t cn, const int32_t off[8], __m256i av, uint8_t *dst) {
    const uint8_t *b = s->data;
    ptrdiff_t st = s->row_stride;
    const __m256i c32 = _mm256_set1_epi32(PFK_INTER_TAB);
    __m256i ix = _mm256_and_si256(av, _mm256_set1_epi32(PFK_INTER_TAB - 1)), iy = _mm256_srli_epi32(av, PFK_INTER_BITS);
    /* per pixel: bytes (32 - ix, ix) twice; int16 (32 - iy, iy) */
    __m256i wx = _mm256_or_si256(_mm256_sub_epi32(c32, ix), _mm256_slli_epi32(ix, 8));
    wx = _mm256_or_si256(wx, _mm256_slli_epi32(wx, 16));
    __m256i wy = _mm256_or_si256(_mm256_sub_epi32(c32, iy), _mm256_slli_epi32(iy, 16));
    if (cn == 1) {
        /* a pixel's taps are one dword [top left, top right, bottom left, bottom right] */
        uint32_t t[8];
        for (int i = 0; i < 8; i++) {
            uint16_t top, bot;
            memcpy(&top, b + off[i], 2);
            memcpy(&bot, b + off[i] + st, 2);
            t[i] = (uint32_t)top | ((uint32_t)bot << 16);
        }
        __m256i tv = _mm256_loadu_si256((const __m256i *)(const void *)t);
        __m256i sum = round10(_mm256_madd_epi16(_mm256_maddubs_epi16(tv, wx), wy));
        __m128i w16 = _mm_packs_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        _mm_storel_epi64((__m128i *)(void *)dst, _mm_packus_epi16(w16, w16));
        return;
    }
    /* lane: [row 0: 8 bytes | row 1: 8 bytes] -> per channel (tl, tr, bl, br) */
    const __m256i pairs = cn == 3 ? _mm256_setr_epi8(0, 3, 8, 11, 1, 4, 9, 12, 2, 5, 10, 13, -1, -1, -1, -1, 0, 3, 8,
                                                     11, 1, 4, 9, 12, 2, 5, 10, 13, -1, -1, -1, -1)
                                  : _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 0, 4, 8,
                                                     12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    __m256i s0 = lin_pair(b + off[0], b + off[4], st, _mm256_shuffle_epi32(wx, 0x00), _mm256_shuffle_epi32(wy, 0x00), pairs);
    __m256i s1 = lin_pair(b + off[1], b + off[5], st, _mm256_shuffle_epi32(wx, 0x55), _mm256_shuffle_epi32(wy, 0x55), pairs);
    __m256i s2 = lin_pair(b + off[2], b + off[6], st, _mm256_shuffle_epi32(wx, 0xAA), _mm256_shuffle_epi32(wy, 0xAA), pairs);
    __m256i s3 = lin_pair(b + off[3], b + off[7], st, _mm256_shuffle_epi32(wx, 0xFF), _mm256_shuffle_epi32(wy, 0xFF), pairs);
    __m256i w16a = _mm256_packs_epi32(round10(s0), round10(s1)); /* lane 0: p0 p1, lane 1: p4 p5 */
    __m256i w16b = _mm256_packs_epi32(round10(s2), round10(s3)); /* lane 0: p2 p3, lane 1: p6 p7 */
    store8px(_mm256_packus_epi16(w16a, w16b), cn, dst);
}

/* ------------------------------------------------------------------ CUBIC
 * 3/4 channels: two pixels per register; per tap row one 16-byte load,
 * reordered into (tap0, tap1) and (tap2, tap3) pairs per channel (zero
 * high bytes: already 16-bit) and multiplied by the row's weight pairs.
 * 1 channel: a pixel's 4 x 4 taps are 16 bytes, one 16-lane multiply-add
 * with its table entry, then a horizontal add tree over 8 pixels. */
static inline __m256i cub_two(const uint8_t *p, const uint8_t *q, ptrdiff_t st, const int16_t *wp, const int16_t *wq,
                              __m256i m01, __m256i m23) {
    __m256i acc = _mm256_setzero_si256();
    for (int r = 0; r < 4; r += 2) {
        __m256i w = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(wp + 4 * r))),
                                            _mm_loadu_si128((const __m128i *)(const void *)(wq + 4 * r)), 1);
        const uint8_t *pr = p + r * st, *qr = q + r * st;
        __m256i v0 = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)pr)),
                                             _mm_loadu_si128((const __m128i *)(const void *)qr), 1);
        __m256i v1 = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(pr + st))),
            _mm_loadu_si128((const __m128i *)(const void *)(qr + st)), 1);
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(v0, m01), _mm256_shuffle_epi32(w, 0x00)));
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(v0, m23), _mm256_shuffle_epi32(w, 0x55)));
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(v1, m01), _mm256_shuffle_epi32(w, 0xAA)));
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(v1, m23), _mm256_shuffle_epi32(w, 0xFF)));
    }
    return acc;
}

static inline __m256i cub_c1(const uint8_t *p, ptrdiff_t st, const int16_t *w) {
    __m128i t = _mm_setr_epi32((int32_t)ld32(p), (int32_t)ld32(p + st), (int32_t)ld32(p + 2 * st),
                               (int32_t)ld32(p + 3 * st));
    return _mm256_madd_epi16(_mm256_cvtepu8_epi16(t), _mm256_loadu_si256((const __m256i *)(const void *)w));
}

PF_INLINE void cubic8(const pfi_warp_src *s, int32_t cn, const int16_t *tab, const int32_t off[8], const int32_t e[8],
                          uint8_t *dst) {
    const uint8_t *b = s->data;
    ptrdiff_t st = s->row_stride;
    if (cn == 1) {
        __m256i m[8];
        for (int i = 0; i < 8; i++) m[i] = cub_c1(b + off[i], st, tab + 16 * e[i]);
        __m256i q0 = _mm256_hadd_epi32(_mm256_hadd_epi32(m[0], m[1]), _mm256_hadd_epi32(m[2], m[3]));
        __m256i q1 = _mm256_hadd_epi32(_mm256_hadd_epi32(m[4], m[5]), _mm256_hadd_epi32(m[6], m[7]));
        /* q0 lane 0: rows 0-1 of p0..p3, lane 1: rows 2-3; q1 likewise p4..p7 */
        store8_c1(_mm256_add_epi32(_mm256_permute2x128_si256(q0, q1, 0x20), _mm256_permute2x128_si256(q0, q1, 0x31)),
                  dst);
        return;
    }
    __m256i m01, m23;
    if (cn == 3) {
        m01 = _mm256_setr_epi8(0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1, 0, -1, 3, -1, 1, -1, 4, -1, 2,
                               -1, 5, -1, -1, -1, -1, -1);
        m23 = _mm256_setr_epi8(6, -1, 9, -1, 7, -1, 10, -1, 8, -1, 11, -1, -1, -1, -1, -1, 6, -1, 9, -1, 7, -1, 10, -1,
                               8, -1, 11, -1, -1, -1, -1, -1);
    } else {
        m01 = _mm256_setr_epi8(0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1, 0, -1, 4, -1, 1, -1, 5, -1, 2,
                               -1, 6, -1, 3, -1, 7, -1);
        m23 = _mm256_setr_epi8(8, -1, 12, -1, 9, -1, 13, -1, 10, -1, 14, -1, 11, -1, 15, -1, 8, -1, 12, -1, 9, -1, 13,
                               -1, 10, -1, 14, -1, 11, -1, 15, -1);
    }
    for (int h = 0; h < 8; h += 4) {
        const int32_t *o = off + h, *x = e + h;
        __m256i s01 = cub_two(b + o[0], b + o[1], st, tab + 16 * x[0], tab + 16 * x[1], m01, m23);
        __m256i s23 = cub_two(b + o[2], b + o[3], st, tab + 16 * x[2], tab + 16 * x[3], m01, m23);
        store4px(round4(s01, s23), cn, dst + h * cn);
    }
}

/* ------------------------------------------------------------------ blocks */

/* 8 output pixels at source (sx, sy) (table indices av); xy/a: the same
 * coordinates as int16 arrays when the caller has them, else NULL. */
/* 8 output pixels at source (sx, sy) (table indices av); xy/a: the same
 * coordinates as int16 arrays when the caller has them, else NULL.
 * A block crossing the border (except TRANSPARENT, which must not write
 * the pixels it skips) still runs the vector sampler, with the lanes
 * outside the fast box pointed at pixel (0, 0) (inside the fast box
 * whenever that box is usable), and then redoes those lanes with the
 * reference: the crossing costs a few reference pixels, not 8. */
PF_INLINE void block8(const u8ctx *c, int interp, int32_t cn, __m256i sx, __m256i sy, __m256i av, const int16_t *xy,
                      const uint16_t *a, uint8_t *dst) {
    const pfi_warp_src *s = c->s;
    __m256i fast;
    int16_t xyb[16];
    uint16_t ab[8];
    int kind = classify(c, sx, sy, &fast);
    if (kind == BLK_CONST) {
        if (c->cmode != 1) return;
        if (cn == 4) {
            _mm256_storeu_si256((__m256i *)(void *)dst, c->fill);
            return;
        }
        if (cn >= 2) _mm_storeu_si128((__m128i *)(void *)dst, _mm256_castsi256_si128(c->fill));
        if (cn == 3) _mm_storel_epi64((__m128i *)(void *)(dst + 16), _mm256_extracti128_si256(c->fill, 1));
        if (cn == 1) _mm_storel_epi64((__m128i *)(void *)dst, _mm256_castsi256_si128(c->fill));
        return;
    }
    int slow = 0; /* lanes the reference redoes */
    if (kind == BLK_MIXED) {
        slow = ~_mm256_movemask_ps(_mm256_castsi256_ps(fast)) & 0xFF;
        if (xy == NULL) {
            spill(sx, sy, av, xyb, ab);
            xy = xyb, a = ab;
        }
        if (slow == 0xFF || c->cmode == 2) {
            pfi_warp_row_ref(s, xy, a, dst, 8);
            return;
        }
    }
    if (interp == PF_INTERP_CUBIC) {
        const __m256i one = _mm256_set1_epi32(1);
        sx = _mm256_sub_epi32(sx, one);
        sy = _mm256_sub_epi32(sy, one);
    }
    __m256i off = _mm256_add_epi32(_mm256_mullo_epi32(sy, c->stride), mul_cn(sx, cn));
    if (slow) off = _mm256_and_si256(off, fast);
    if (interp == PF_INTERP_NEAREST) {
        nearest8(s, cn, off, dst);
    } else {
        int32_t o[8], e[8];
        _mm256_storeu_si256((__m256i *)(void *)o, off);
        av = _mm256_and_si256(av, _mm256_set1_epi32(PFK_INTER_TAB2 - 1));
        _mm256_storeu_si256((__m256i *)(void *)e, av);
        if (interp == PF_INTERP_LINEAR) linear8(s, cn, o, av, dst);
        else cubic8(s, cn, c->tab, o, e, dst);
    }
    while (slow) { /* runs of consecutive lanes: one reference call each */
        int i = __builtin_ctz((unsigned)slow);
        int len = __builtin_ctz(~((unsigned)slow >> i));
        pfi_warp_row_ref(s, xy + 2 * i, a + i, dst + (size_t)i * (size_t)cn, len);
        slow &= ~(((1 << len) - 1) << i);
    }
}

/* Prefetches the tap rows of source pixel (x, y): the rotated walk through
 * the source defeats the hardware prefetchers, and the loads of a block
 * otherwise wait on L2. A prefetch never faults; the address is formed as
 * an integer, so it may lie anywhere. */
PF_INLINE void prefetch_taps(const pfi_warp_src *s, int32_t cn, int interp, int32_t x, int32_t y) {
    if (interp == PF_INTERP_CUBIC) x -= 1, y -= 1;
    uintptr_t at = (uintptr_t)s->data + (uintptr_t)((ptrdiff_t)y * s->row_stride + (ptrdiff_t)x * cn);
    int rows = interp == PF_INTERP_NEAREST ? 1 : interp == PF_INTERP_LINEAR ? 2 : 4;
    for (int r = 0; r < rows; r++, at += (uintptr_t)s->row_stride) _mm_prefetch((const char *)at, _MM_HINT_T0);
}

PF_INLINE void row_xy(const pfi_warp_src *s, const int16_t *xy, const uint16_t *a, uint8_t *dst, int32_t n,
                          int interp, int32_t cn) {
    u8ctx c;
    ctx_init(&c, s, interp);
    size_t px = (size_t)cn;
    int32_t k = 0;
    for (; k + 8 <= n; k += 8) {
        if (k + PREFETCH_AHEAD < n)
            prefetch_taps(s, cn, interp, xy[2 * (k + PREFETCH_AHEAD)], xy[2 * (k + PREFETCH_AHEAD) + 1]);
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(xy + 2 * k));
        __m256i sx = _mm256_srai_epi32(_mm256_slli_epi32(v, 16), 16), sy = _mm256_srai_epi32(v, 16);
        __m256i av = interp != PF_INTERP_NEAREST ? _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(a + k)))
                            : _mm256_setzero_si256();
        block8(&c, interp, cn, sx, sy, av, xy + 2 * k, a + k, dst + (size_t)k * px);
    }
    if (k < n) pfi_warp_row_ref(s, xy + 2 * k, a + k, dst + (size_t)k * px, n - k);
}

PF_INLINE void affine_row(const pfi_warp_src *s, const int32_t *ad, const int32_t *bd, int32_t X0, int32_t Y0,
                              int32_t n, uint8_t *dst, int interp, int32_t cn) {
    u8ctx c;
    ctx_init(&c, s, interp);
    size_t px = (size_t)cn;
    const __m256i vx0 = _mm256_set1_epi32(X0), vy0 = _mm256_set1_epi32(Y0);
    const __m256i mask = _mm256_set1_epi32(PFK_INTER_TAB - 1);
    int32_t k = 0;
    for (; k + 8 <= n; k += 8) {
        __m256i X = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(ad + k)), vx0);
        __m256i Y = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(bd + k)), vy0);
        __m256i sx, sy, av = _mm256_setzero_si256();
        if (interp == PF_INTERP_NEAREST) {
            sx = _mm256_srai_epi32(X, PFK_AB_BITS);
            sy = _mm256_srai_epi32(Y, PFK_AB_BITS);
        } else {
            X = _mm256_srai_epi32(X, PFK_AB_BITS - PFK_INTER_BITS);
            Y = _mm256_srai_epi32(Y, PFK_AB_BITS - PFK_INTER_BITS);
            av = _mm256_add_epi32(_mm256_slli_epi32(_mm256_and_si256(Y, mask), PFK_INTER_BITS), _mm256_and_si256(X, mask));
            sx = _mm256_srai_epi32(X, PFK_INTER_BITS);
            sy = _mm256_srai_epi32(Y, PFK_INTER_BITS);
        }
        if (k + PREFETCH_AHEAD < n)
            prefetch_taps(s, cn, interp, pfk_add_wrap(X0, ad[k + PREFETCH_AHEAD]) >> PFK_AB_BITS,
                          pfk_add_wrap(Y0, bd[k + PREFETCH_AHEAD]) >> PFK_AB_BITS);
        block8(&c, interp, cn, sx, sy, av, NULL, NULL, dst + (size_t)k * px);
    }
    if (k < n) pfi_warp_affine_u8_ref(s, ad + k, bd + k, X0, Y0, n - k, dst + (size_t)k * px);
}

/* Remap: cvtps2dq rounds half to even and gives INT_MIN for NaN and
 * out-of-range values, as cvRound(float); map * 32 is exact. */
PF_INLINE void remap_row(const pfi_warp_src *s, const float *fx, const float *fy, int32_t n, uint8_t *dst,
                         int interp, int32_t cn) {
    u8ctx c;
    ctx_init(&c, s, interp);
    size_t px = (size_t)cn;
    const __m256 scale = _mm256_set1_ps(interp != PF_INTERP_NEAREST ? (float)PFK_INTER_TAB : 1.f);
    const __m256i mask = _mm256_set1_epi32(PFK_INTER_TAB - 1);
    int32_t k = 0;
    for (; k + 8 <= n; k += 8) {
        if (k + PREFETCH_AHEAD < n) {
            float pxf = fx[k + PREFETCH_AHEAD], pyf = fy[k + PREFETCH_AHEAD];
            if (pxf > -32768.f && pxf < 32768.f && pyf > -32768.f && pyf < 32768.f)
                prefetch_taps(s, cn, interp, (int32_t)pxf, (int32_t)pyf);
        }
        __m256i X = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(fx + k), scale));
        __m256i Y = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(fy + k), scale));
        __m256i sx = X, sy = Y, av = _mm256_setzero_si256();
        if (interp) {
            av = _mm256_add_epi32(_mm256_slli_epi32(_mm256_and_si256(Y, mask), PFK_INTER_BITS), _mm256_and_si256(X, mask));
            sx = _mm256_srai_epi32(X, PFK_INTER_BITS);
            sy = _mm256_srai_epi32(Y, PFK_INTER_BITS);
        }
        block8(&c, interp, cn, sx, sy, av, NULL, NULL, dst + (size_t)k * px);
    }
    if (k < n) pfi_warp_remap_u8_ref(s, fx + k, fy + k, n - k, dst + (size_t)k * px);
}

/* Entry points: one instantiation per interpolation and channel count (a
 * constant cn folds the layout choices); 2 channels use the reference. */
#define PF_ENTRY(name, interp)                                                                                      \
    static void row_##name(const pfi_warp_src *s, const int16_t *xy, const uint16_t *a, uint8_t *dst, int32_t n) { \
        switch (s->cn) {                                                                                            \
        case 1: row_xy(s, xy, a, dst, n, interp, 1); break;                                                        \
        case 3: row_xy(s, xy, a, dst, n, interp, 3); break;                                                        \
        case 4: row_xy(s, xy, a, dst, n, interp, 4); break;                                                        \
        default: pfi_warp_row_ref(s, xy, a, dst, n); break;                                                        \
        }                                                                                                           \
    }                                                                                                               \
    static void affine_##name(const pfi_warp_src *s, const int32_t *ad, const int32_t *bd, int32_t X0, int32_t Y0,  \
                              int32_t n, uint8_t *dst) {                                                            \
        switch (s->cn) {                                                                                            \
        case 1: affine_row(s, ad, bd, X0, Y0, n, dst, interp, 1); break;                                           \
        case 3: affine_row(s, ad, bd, X0, Y0, n, dst, interp, 3); break;                                           \
        case 4: affine_row(s, ad, bd, X0, Y0, n, dst, interp, 4); break;                                           \
        default: pfi_warp_affine_u8_ref(s, ad, bd, X0, Y0, n, dst); break;                                         \
        }                                                                                                           \
    }                                                                                                               \
    static void remap_##name(const pfi_warp_src *s, const float *fx, const float *fy, int32_t n, uint8_t *dst) {    \
        switch (s->cn) {                                                                                            \
        case 1: remap_row(s, fx, fy, n, dst, interp, 1); break;                                                    \
        case 3: remap_row(s, fx, fy, n, dst, interp, 3); break;                                                    \
        case 4: remap_row(s, fx, fy, n, dst, interp, 4); break;                                                    \
        default: pfi_warp_remap_u8_ref(s, fx, fy, n, dst); break;                                                  \
        }                                                                                                           \
    }

PF_ENTRY(nearest, 0)
PF_ENTRY(linear, 1)
PF_ENTRY(cubic, 2)

void pfi_warp_fill_u8_avx2(pfi_warp_kernels *k) {
    k->u8_row[PF_INTERP_NEAREST] = row_nearest;
    k->u8_row[PF_INTERP_LINEAR] = row_linear;
    k->u8_row[PF_INTERP_CUBIC] = row_cubic;
    k->affine_u8[PF_INTERP_NEAREST] = affine_nearest;
    k->affine_u8[PF_INTERP_LINEAR] = affine_linear;
    k->affine_u8[PF_INTERP_CUBIC] = affine_cubic;
    k->remap_u8[PF_INTERP_NEAREST] = remap_nearest;
    k->remap_u8[PF_INTERP_LINEAR] = remap_linear;
    k->remap_u8[PF_INTERP_CUBIC] = remap_cubic;
}
