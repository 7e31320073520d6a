/* C-vs-SIMD harness for the 4:2:0 conversions: at every ISA level this CPU
 * has, pf_cvt_color_from_yuv / pf_cvt_color_to_yuv must give the same bytes
 * as the scalar reference, for every code, matrix and range, on random
 * data, widths that are and are not multiples of the 64-pixel block,
 * 1-byte-misaligned rows, negative strides, and source planes that end
 * exactly at a page boundary followed by a PROT_NONE guard page (so any
 * over-read faults). Also checks that the yuv.* slots really dispatch to
 * the SSE4.1 / AVX2 / AVX-512 VBMI kernels at those caps where this CPU
 * has them. */
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "simd/simd_harness.h"
#include "test_util.h"


/* A random u8 plane of w x h x cn in guarded memory, stride = row + pad,
 * optionally with a negative stride (first row last in memory). */
static pf_image plane(guarded *g, int w, int h, int cn, int pad, int negative, uint64_t *rng) {
    size_t row = (size_t)w * (size_t)cn, stride = row + (size_t)pad;
    size_t total = stride * (size_t)(h - 1) + row;
    *g = guarded_alloc(total);
    if (g->map == NULL) return pf_image_hwc(NULL, w, h, cn, PF_U8, 0);
    for (size_t i = 0; i < total; i++) g->data[i] = (char)pft_rand(rng);
    return negative ? pf_image_hwc(g->data + stride * (size_t)(h - 1), w, h, cn, PF_U8, -(ptrdiff_t)stride)
                    : pf_image_hwc(g->data, w, h, cn, PF_U8, (ptrdiff_t)stride);
}

/* Copies of an image's rows (to compare outputs written with strides). */
static int same_rows(const pf_image *a, const pf_image *b) {
    size_t row = (size_t)a->width * (size_t)a->channels;
    for (int y = 0; y < a->height; y++)
        if (memcmp((char *)a->data + y * a->row_stride, (char *)b->data + y * b->row_stride, row)) return 0;
    return 1;
}

static const int k_dec_codes[] = {90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106};
static const int k_enc_codes[] = {127, 128, 129, 130, 131, 132, 133, 134,
                                  1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007};

static int pick_width(uint64_t *rng) {
    switch (pft_range(rng, 0, 3)) {
    case 0: return 64 * pft_range(rng, 1, 6);                  /* whole blocks */
    case 1: return 64 * pft_range(rng, 1, 6) + 2 * pft_range(rng, 1, 31); /* block + tail */
    case 2: return 2 * pft_range(rng, 1, 31);                  /* tail only */
    default: return 2 * pft_range(rng, 1, 400);
    }
}

static int decode_case(int code, int w, int h, const pf_color_opts *o, const pf_isa *levels,
                       int nlev, int negative, uint64_t *rng) {
    int sp = code <= 97, cn = code == 106 ? 1 : ((code - (sp ? 90 : 98)) >= 4 ? 4 : 3);
    guarded gy, gc0, gc1 = {0};
    pf_yuv f;
    memset(&f, 0, sizeof f);
    f.y = plane(&gy, w, h, 1, pft_range(rng, 0, 3), negative, rng);
    if (sp) {
        f.uv = plane(&gc0, w / 2, h / 2, 2, pft_range(rng, 0, 3), negative, rng);
    } else {
        f.u = plane(&gc0, w / 2, h / 2, 1, pft_range(rng, 0, 3), negative, rng);
        f.v = plane(&gc1, w / 2, h / 2, 1, pft_range(rng, 0, 3), !negative, rng);
    }
    size_t dn = (size_t)w * (size_t)h * (size_t)cn;
    uint8_t *ref = malloc(dn), *out = malloc(dn + 1);
    pf_image dref = pf_image_hwc(ref, w, h, cn, PF_U8, 0);
    pf_image dout = pf_image_hwc(out + 1, w, h, cn, PF_U8, 0);
    int ok = 1;
    pf_cpu_set_cap(PF_ISA_SCALAR);
    CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f, &dref, (pf_color_code)code, o), PF_OK);
    for (int l = 0; l < nlev; l++) {
        pf_cpu_set_cap(levels[l]);
        memset(out, 0, dn + 1);
        CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f, &dout, (pf_color_code)code, o), PF_OK);
        if (!same_rows(&dref, &dout)) {
            ok = 0;
            fprintf(stderr, "decode mismatch at %s: code %d %dx%d matrix %d range %d neg %d\n",
                    pf_isa_name(levels[l]), code, w, h, (int)o->yuv_matrix, (int)o->yuv_range, negative);
        }
    }
    free(ref);
    free(out);
    guarded_free(gy);
    guarded_free(gc0);
    guarded_free(gc1);
    return ok;
}

/* Output planes for the encoder: one packed buffer, 1 byte misaligned. */
static pf_yuv enc_frame(uint8_t *buf, int w, int h, int sp) {
    return sp ? pf_yuv_nv12(buf + 1, w, h, 0) : pf_yuv_i420(buf + 1, w, h, 0);
}

static int encode_case(int code, int w, int h, const pf_color_opts *o, const pf_isa *levels,
                       int nlev, int negative, uint64_t *rng) {
    int sp = code >= 1000, cn = ((code - (sp ? 1000 : 127)) & 3) >= 2 ? 4 : 3;
    guarded gs;
    pf_image src = plane(&gs, w, h, cn, pft_range(rng, 0, 5), negative, rng);
    size_t fn = pf_yuv_frame_size(w, h, 0);
    uint8_t *ref = calloc(fn + 1, 1), *out = calloc(fn + 1, 1);
    pf_yuv fref = enc_frame(ref, w, h, sp), fout = enc_frame(out, w, h, sp);
    int ok = 1;
    pf_cpu_set_cap(PF_ISA_SCALAR);
    CHECK_STATUS(pf_cvt_color_to_yuv(NULL, 1, &src, &fref, (pf_color_code)code, o), PF_OK);
    for (int l = 0; l < nlev; l++) {
        pf_cpu_set_cap(levels[l]);
        memset(out, 0, fn + 1);
        CHECK_STATUS(pf_cvt_color_to_yuv(NULL, 1, &src, &fout, (pf_color_code)code, o), PF_OK);
        if (memcmp(ref, out, fn + 1)) {
            ok = 0;
            fprintf(stderr, "encode mismatch at %s: code %d %dx%d matrix %d range %d neg %d\n",
                    pf_isa_name(levels[l]), code, w, h, (int)o->yuv_matrix, (int)o->yuv_range, negative);
        }
    }
    free(ref);
    free(out);
    guarded_free(gs);
    return ok;
}

int main(void) {
    pf_isa best = pf_cpu_active_isa();
    pf_isa levels[4];
    int nlev = 0;
    for (int l = PF_ISA_SSE4; l <= PF_ISA_AVX512VBMI; l++)
        if (l <= (int)best && best != PF_ISA_NEON) levels[nlev++] = (pf_isa)l;
    if (best == PF_ISA_NEON) levels[nlev++] = PF_ISA_NEON;
    if (nlev == 0) printf("test_simd_yuv: no SIMD level on this CPU; only the scalar path exists\n");

    /* Every yuv.* slot must leave the reference wherever this CPU has a
     * kernel for it: the SSE4.1 / AVX2 kernels at the sse4 / avx2 caps, the
     * AVX2 ones at the avx512 cap (there is no plain AVX-512 YUV kernel: a
     * Skylake-SP runs the AVX2 ones), the VBMI kernels at avx512vbmi. */
    for (int l = 0; l < nlev; l++) {
        pf_isa want = PF_ISA_SCALAR;
        if (levels[l] == PF_ISA_SSE4 || levels[l] == PF_ISA_AVX2 || levels[l] == PF_ISA_AVX512VBMI)
            want = levels[l];
        if (levels[l] == PF_ISA_AVX512) want = PF_ISA_AVX2;
        pf_cpu_set_cap(levels[l]);
        int yuv_slots = 0, as_expected = 0;
        for (int i = 0; i < pf_dispatch_count(); i++) {
            const char *n;
            pf_isa isa;
            pf_dispatch_entry(i, &n, &isa);
            if (strncmp(n, "yuv.", 4) == 0) yuv_slots++, as_expected += isa == want;
        }
        CHECK(yuv_slots == 4 && as_expected == yuv_slots);
        if (as_expected != yuv_slots)
            fprintf(stderr, "at the %s cap %d of %d yuv.* slots dispatch to %s\n",
                    pf_isa_name(levels[l]), as_expected, yuv_slots, pf_isa_name(want));
    }

    uint64_t rng = 0x420c0deull;
    int cases = 0, bad = 0;
    for (int iter = 0; iter < 600; iter++) {
        int w = pick_width(&rng), h = 2 * pft_range(&rng, 1, 12);
        pf_color_opts o = {(pf_yuv_matrix)pft_range(&rng, 0, 1), (pf_yuv_range)pft_range(&rng, 0, 1)};
        int negative = iter % 3 == 0;
        int ok = iter % 2 == 0
                     ? decode_case(k_dec_codes[pft_range(&rng, 0, 16)], w, h, &o, levels, nlev, negative, &rng)
                     : encode_case(k_enc_codes[pft_range(&rng, 0, 15)], w, h, &o, levels, nlev, negative, &rng);
        CHECK(ok);
        bad += !ok;
        cases++;
    }
    pf_cpu_set_cap(PF_ISA_NEON); /* uncapped */
    printf("test_simd_yuv: %d cases x %d SIMD levels compared with scalar, %d mismatched\n", cases, nlev, bad);
    return pft_summary("test_simd_yuv");
}
