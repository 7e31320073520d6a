/*
 * Colour kernels with AVX-512 VBMI (Ice Lake, Zen 4 and later).
 *
 * Byte shuffles (BGR <-> RGB, add/drop alpha, GRAY -> BGR): a block of 64
 * pixels is scn input vectors and dcn output vectors. Every output byte is
 * one input byte (or the constant alpha), so each output vector is one
 * vpermi2b over a pair of adjacent input vectors, plus a second one merged
 * by mask when its bytes straddle three input vectors (BGR <-> RGB). The
 * index vectors ("plans") are derived once from the per-pixel byte mapping,
 * so every shape shares one loop. All inputs of a block are loaded before
 * any output is stored: in-place BGR <-> RGB is safe.
 *
 * GRAY: vpermi2b with zeroing spreads 16 pixels into 16-bit lanes
 * (b, g) and (r, 1), and two vpmaddwd with (BY, GY) and (RY, 1 << 14)
 * give OpenCV's exact 15-bit fixed-point sum (the same integer as its
 * CV_DESCALE), then >> 15 and vpmovdb.
 */
#include <immintrin.h>
#include <string.h>

#include "cpu/color_exec.h"
#include "kernels/color_math.h"
#include "pixflow/core.h"

/* ---------------------------------------------------------- byte shuffles */

typedef struct perm_vec {
    uint8_t idx1[64], idx2[64]; /* vpermi2b indexes into pair p1 / p2 */
    int p1, p2;                 /* first input vector of each pair */
    __mmask64 m2;               /* bytes taken from pair p2 */
    __mmask64 alpha;            /* bytes set to 255 */
} perm_vec;

typedef struct perm_plan {
    int scn, dcn;
    perm_vec v[4];
} perm_plan;

/* Source byte of output byte q in a 64-pixel block, or -1 for alpha. */
static int src_byte(int scn, int dcn, int swap, int q) {
    int px = q / dcn, c = q % dcn;
    if (scn == 1) return c < 3 ? px : -1;
    if (c == 3) return scn == 4 ? px * 4 + 3 : -1;
    int sc = swap ? 2 - c : c;
    return px * scn + sc;
}

/* Input pairs of output vector k, as compile-time constants of the loop:
 * the first pixel touching vector k starts in input vector pair_lo; the
 * second pair (pair_lo + 2, + 3) is needed when the last pixel reaches it. */
static inline int pair_lo(int scn, int dcn, int k) { return (64 * k / dcn) * scn / 64; }
static inline int needs_pair2(int scn, int dcn, int k) {
    return ((64 * k + 63) / dcn) * scn + scn - 1 >= 64 * (pair_lo(scn, dcn, k) + 2);
}

/* 0 when some byte falls outside the pairs (then the kernel is not used). */
static int plan_build(perm_plan *p, int scn, int dcn, int swap) {
    memset(p, 0, sizeof *p);
    p->scn = scn;
    p->dcn = dcn;
    for (int k = 0; k < dcn; k++) {
        perm_vec *v = &p->v[k];
        v->p1 = pair_lo(scn, dcn, k);
        v->p2 = v->p1 + 2;
        for (int j = 0; j < 64; j++) {
            int s = src_byte(scn, dcn, swap, 64 * k + j);
            if (s >= 0 && (s < 64 * v->p1 || s >= 64 * (v->p2 + 2) ||
                           (s >= 64 * v->p2 && !needs_pair2(scn, dcn, k))))
                return 0;
            if (s < 0) {
                v->alpha |= (__mmask64)1 << j;
            } else if (s < 64 * (v->p1 + 2)) {
                v->idx1[j] = (uint8_t)(s - 64 * v->p1);
            } else {
                v->m2 |= (__mmask64)1 << j;
                v->idx2[j] = (uint8_t)(s - 64 * v->p2);
            }
        }
    }
    return 1;
}

static perm_plan g_swap3, g_swap4, g_add[2], g_drop[2], g_g2c3, g_g2c4;

/* One block per iteration; scn/dcn are constants in each caller. The plan
 * is copied to registers first: byte stores to dst may alias it as far as
 * the compiler knows, and reloading six 64-byte indexes per block would
 * double the load traffic. */
static inline __attribute__((always_inline)) void perm_run(const perm_plan *p, int scn, int dcn,
                                                           const uint8_t *src, uint8_t *dst,
                                                           int32_t n) {
    const __m512i ff = _mm512_set1_epi8((char)0xff);
    __m512i idx1[4], idx2[4];
    __mmask64 m2[4], alpha[4];
    for (int k = 0; k < dcn; k++) {
        idx1[k] = _mm512_loadu_si512(p->v[k].idx1);
        idx2[k] = _mm512_loadu_si512(p->v[k].idx2);
        m2[k] = p->v[k].m2;
        alpha[k] = p->v[k].alpha;
    }
    for (int32_t x = 0; x < n; x += 64, src += 64 * scn, dst += 64 * dcn) {
        __m512i in[6];
        for (int i = 0; i < scn; i++) in[i] = _mm512_loadu_si512(src + 64 * i);
        for (int i = scn; i < 6; i++) in[i] = _mm512_setzero_si512();
        __m512i out[4];
        for (int k = 0; k < dcn; k++) {
            const int p1 = pair_lo(scn, dcn, k); /* constants once inlined */
            __m512i r = _mm512_permutex2var_epi8(in[p1], idx1[k], in[p1 + 1]);
            if (needs_pair2(scn, dcn, k))
                r = _mm512_mask_mov_epi8(r, m2[k],
                                         _mm512_permutex2var_epi8(in[p1 + 2], idx2[k], in[p1 + 3]));
            if (dcn == 4 && scn != 4) r = _mm512_mask_mov_epi8(r, alpha[k], ff);
            out[k] = r;
        }
        for (int k = 0; k < dcn; k++) _mm512_storeu_si512(dst + 64 * k, out[k]);
    }
}

static void swap_u8c3(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    (void)c;
    perm_run(&g_swap3, 3, 3, s, d, n);
}
static void swap_u8c4(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    (void)c;
    perm_run(&g_swap4, 4, 4, s, d, n);
}
static void add_alpha_u8(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    perm_run(&g_add[c->swap != 0], 3, 4, s, d, n);
}
static void drop_alpha_u8(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    perm_run(&g_drop[c->swap != 0], 4, 3, s, d, n);
}
static void gray2bgr_u8(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    (void)c;
    perm_run(&g_g2c3, 1, 3, s, d, n);
}
static void gray2bgra_u8(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    (void)c;
    perm_run(&g_g2c4, 1, 4, s, d, n);
}

/* ------------------------------------------------------------------- gray */

/* For 16-pixel group g of a block: indexes into pair (in[q], in[q+1]),
 * q = (16 g scn) / 64, placing b,g (or r) of pixel i in word 2i (b / r)
 * and word 2i + 1 (g), low byte; high bytes are zeroed by the masks. */
typedef struct gray_plan {
    uint8_t bg[4][64], r[4][64];
    int q[4];
} gray_plan;

static gray_plan g_gray3, g_gray4;

static void gray_plan_build(gray_plan *p, int scn) {
    memset(p, 0, sizeof *p);
    for (int g = 0; g < 4; g++) {
        int base = 16 * g * scn;
        p->q[g] = base / 64;
        for (int i = 0; i < 16; i++) {
            int px = base + i * scn - 64 * p->q[g];
            p->bg[g][4 * i] = (uint8_t)px;           /* src[0] */
            p->bg[g][4 * i + 2] = (uint8_t)(px + 1); /* src[1] */
            p->r[g][4 * i] = (uint8_t)(px + 2);      /* src[2] */
        }
    }
}

static inline __attribute__((always_inline)) void gray_run(const gray_plan *p, int scn,
                                                           const uint8_t *src, uint8_t *dst,
                                                           int32_t n, int bidx) {
    int32_t w[3];
    pfk_gray_weights_i(bidx, w);
    /* words (w0, w1) and (w2, 1 << 14): the second pair adds the rounding */
    const __m512i c01 = _mm512_set1_epi32((int)((uint32_t)w[0] | ((uint32_t)w[1] << 16)));
    const __m512i c2d = _mm512_set1_epi32((int)((uint32_t)w[2] | (1u << 30)));
    const __m512i one_hi = _mm512_set1_epi32(1 << 16); /* word 2i + 1 = 1 */
    const __mmask64 even_b = 0x5555555555555555ull;     /* low byte of each word */
    const __mmask64 low_b = 0x1111111111111111ull;      /* low byte of each dword */
    __m512i ibg[4], ir[4]; /* in registers, as in perm_run */
    for (int g = 0; g < 4; g++) {
        ibg[g] = _mm512_loadu_si512(p->bg[g]);
        ir[g] = _mm512_loadu_si512(p->r[g]);
    }
    for (int32_t x = 0; x < n; x += 64, src += 64 * scn, dst += 64) {
        __m512i in[5];
        for (int i = 0; i < scn; i++) in[i] = _mm512_loadu_si512(src + 64 * i);
        in[scn] = _mm512_setzero_si512();
        for (int g = 0; g < 4; g++) {
            const int q = 16 * g * scn / 64; /* p->q[g], a constant once inlined */
            __m512i a = in[q], b = in[q + 1];
            __m512i bg = _mm512_maskz_permutex2var_epi8(even_b, a, ibg[g], b);
            __m512i r = _mm512_maskz_permutex2var_epi8(low_b, a, ir[g], b);
            r = _mm512_or_si512(r, one_hi);
            __m512i y = _mm512_add_epi32(_mm512_madd_epi16(bg, c01), _mm512_madd_epi16(r, c2d));
            y = _mm512_srli_epi32(y, PFK_GRAY_SHIFT);
            _mm_storeu_si128((__m128i *)(void *)(dst + 16 * g), _mm512_cvtepi32_epi8(y));
        }
    }
}

static void gray_u8c3(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    gray_run(&g_gray3, 3, s, d, n, c->bidx);
}
static void gray_u8c4(const void *s, void *d, int32_t n, const pfi_color_desc *c) {
    gray_run(&g_gray4, 4, s, d, n, c->bidx);
}

void pfi_color_fill_avx512vbmi(pfi_color_kernels *k) {
    int ok = plan_build(&g_swap3, 3, 3, 1) && plan_build(&g_swap4, 4, 4, 1) &&
             plan_build(&g_add[0], 3, 4, 0) && plan_build(&g_add[1], 3, 4, 1) &&
             plan_build(&g_drop[0], 4, 3, 0) && plan_build(&g_drop[1], 4, 3, 1) &&
             plan_build(&g_g2c3, 1, 3, 0) && plan_build(&g_g2c4, 1, 4, 0);
    if (!ok) return; /* cannot happen for these shapes; keep the reference */
    gray_plan_build(&g_gray3, 3);
    gray_plan_build(&g_gray4, 4);
    k->row[PFI_COLOR_SWAP_U8C3] = swap_u8c3;
    k->row[PFI_COLOR_SWAP_U8C4] = swap_u8c4;
    k->row[PFI_COLOR_ADD_ALPHA_U8] = add_alpha_u8;
    k->row[PFI_COLOR_DROP_ALPHA_U8] = drop_alpha_u8;
    k->row[PFI_COLOR_GRAY_U8C3] = gray_u8c3;
    k->row[PFI_COLOR_GRAY_U8C4] = gray_u8c4;
    k->row[PFI_COLOR_GRAY2BGR_U8] = gray2bgr_u8;
    k->row[PFI_COLOR_GRAY2BGRA_U8] = gray2bgra_u8;
    pfi_color_fill_avx512vbmi_math(k);
}
