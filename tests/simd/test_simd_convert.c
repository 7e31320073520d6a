/* C-vs-SIMD harness for the conversion kernels: at every ISA level this
 * CPU has, pf_convert / pf_normalize / pf_reformat / pf_split / pf_merge
 * must give the same bytes as at the scalar cap (the reference), on random
 * data (for floats: random bit patterns with NaN, inf, subnormals, ties and
 * out-of-range values), odd widths, misaligned rows, negative strides, and
 * buffers that end exactly at a PROT_NONE guard page (src and dst), so any
 * over-read or over-write faults. Also checks that each level dispatches
 * SIMD kernels for the convert family (not reference vs reference). */
#include <math.h>
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "simd/simd_harness.h"
#include "test_util.h"


typedef struct buf { guarded g; size_t bytes; pf_image v; } buf;

/* A w x h x cn view whose last byte touches the guard page; rows padded by
 * `pad` bytes (odd for misalignment), optionally a negative row stride. */
static buf make_buf(int w, int h, int cn, pf_dtype dt, pf_layout lay, int pad, int neg) {
    buf b;
    size_t es = pf_dtype_size(dt);
    size_t row = (size_t)w * (lay == PF_HWC ? (size_t)cn : 1u) * es, stride = row + (size_t)pad;
    size_t plane = stride * (size_t)(h - 1) + row;
    size_t pstride = plane + (size_t)pad;
    b.bytes = lay == PF_HWC ? plane : pstride * (size_t)(cn - 1) + plane;
    b.g = guarded_alloc(b.bytes);
    char *p = b.g.data;
    if (neg) p += stride * (size_t)(h - 1);
    b.v = lay == PF_HWC ? pf_image_hwc(p, w, h, cn, dt, (ptrdiff_t)stride)
                        : pf_image_chw(p, w, h, cn, dt, (ptrdiff_t)stride, (ptrdiff_t)pstride);
    if (neg) b.v.row_stride = -(ptrdiff_t)stride;
    return b;
}

static void fill_bits(buf *b, uint64_t *rng, pf_dtype dt) {
    for (size_t i = 0; i < b->bytes; i++) b->g.data[i] = (char)pft_rand(rng);
    if (dt == PF_F32) { /* mix in values in interesting ranges */
        float *f = (float *)(void *)b->g.data;
        for (size_t i = 0; i + 4 <= b->bytes; i += 4)
            if (pft_range(rng, 0, 2)) {
                float v = (float)pft_range(rng, -400, 700) * 0.5f; /* ties */
                if (pft_range(rng, 0, 9) == 0) v = (float)pft_range(rng, -1000000, 1000000) * 1e-9f;
                memcpy((char *)f + i, &v, 4);
            }
    }
}

static int same_bytes(const buf *a, const buf *b) { return memcmp(a->g.data, b->g.data, a->bytes) == 0; }

enum { C_U8_F32, C_F32_U8, C_F32_F16, C_F16_F32, C_NORM_F32, C_NORM_F16, C_HWC_CHW, C_CHW_HWC, C_SPLIT,
       C_NORM_HWC_F32, C_NORM_HWC_F16, C_NORM_F32SRC_F32, C_NORM_F32SRC_F16, C_N };

/* The u8 (de)interleaves, which also run on 4 channels. */
static int interleave_kind(int kind) { return kind == C_HWC_CHW || kind == C_CHW_HWC || kind == C_SPLIT; }

/* One case at the current cap into a fresh dst (returned). */
static buf run_case(int kind, const buf *src, int w, int h, int cn, int pad, int neg, uint64_t prm) {
    uint64_t r = prm;
    pf_convert_opts co = pf_convert_opts_defaults();
    if (pft_range(&r, 0, 1)) {
        co.alpha = (double)pft_range(&r, -3000, 3000) / 997.0;
        co.beta = (double)pft_range(&r, -9000, 9000) / 77.0;
    } else if (pft_range(&r, 0, 1)) {
        co.alpha = 1.0 / 255;
    }
    pf_normalize_opts no = pf_normalize_opts_defaults();
    no.scale = pft_range(&r, 0, 1) ? 1.0f / 255 : 1.0f;
    int8_t perm[4] = {0, 1, 2, 3};
    /* u8 (de)interleaves run on 3 or 4 channels (cn); the rest on 3 */
    int pcn = interleave_kind(kind) && cn == 4 ? 4 : 3;
    for (int i = pcn - 1; i > 0; i--) {
        int j = pft_range(&r, 0, i);
        int8_t t = perm[i]; perm[i] = perm[j]; perm[j] = t;
    }
    memcpy(no.order, perm, 4);
    for (int c = 0; c < 3; c++) {
        no.params.mean[c] = (float)pft_range(&r, 0, 1000) / 1000.0f;
        no.params.std[c] = (float)pft_range(&r, 10, 1000) / 997.0f;
    }
    buf d;
    memset(&d, 0, sizeof d);
    pf_status st = PF_ERR_INTERNAL;
    switch (kind) {
    case C_U8_F32: d = make_buf(w, h, cn, PF_F32, PF_HWC, pad * 4, neg); st = pf_convert(NULL, 1, &src->v, &d.v, &co); break;
    case C_F32_U8: d = make_buf(w, h, cn, PF_U8, PF_HWC, pad, neg); st = pf_convert(NULL, 1, &src->v, &d.v, &co); break;
    case C_F32_F16: d = make_buf(w, h, cn, PF_F16, PF_HWC, pad * 2, neg); st = pf_convert(NULL, 1, &src->v, &d.v, &co); break;
    case C_F16_F32: d = make_buf(w, h, cn, PF_F32, PF_HWC, pad * 4, neg); st = pf_convert(NULL, 1, &src->v, &d.v, &co); break;
    case C_NORM_F32: d = make_buf(w, h, 3, PF_F32, PF_CHW, pad * 4, neg); st = pf_normalize(NULL, 1, &src->v, &d.v, &no); break;
    case C_NORM_F16: d = make_buf(w, h, 3, PF_F16, PF_CHW, pad * 2, neg); st = pf_normalize(NULL, 1, &src->v, &d.v, &no); break;
    case C_NORM_HWC_F32: d = make_buf(w, h, 3, PF_F32, PF_HWC, pad * 4, neg); st = pf_normalize(NULL, 1, &src->v, &d.v, &no); break;
    case C_NORM_HWC_F16: d = make_buf(w, h, 3, PF_F16, PF_HWC, pad * 2, neg); st = pf_normalize(NULL, 1, &src->v, &d.v, &no); break;
    case C_NORM_F32SRC_F32: d = make_buf(w, h, 3, PF_F32, PF_CHW, pad * 4, neg); st = pf_normalize(NULL, 1, &src->v, &d.v, &no); break;
    case C_NORM_F32SRC_F16: d = make_buf(w, h, 3, PF_F16, PF_CHW, pad * 2, neg); st = pf_normalize(NULL, 1, &src->v, &d.v, &no); break;
    case C_HWC_CHW: d = make_buf(w, h, pcn, PF_U8, PF_CHW, pad, neg); st = pf_reformat(NULL, 1, &src->v, &d.v, perm, 0); break;
    case C_CHW_HWC: d = make_buf(w, h, pcn, PF_U8, PF_HWC, pad, neg); st = pf_reformat(NULL, 1, &src->v, &d.v, perm, 0); break;
    default: { /* split into the planes of one CHW buffer, then merge back */
        d = make_buf(w, h, pcn, PF_U8, PF_CHW, pad, neg);
        pf_image p[4];
        for (int c = 0; c < pcn; c++) {
            p[c] = pf_image_hwc((char *)d.v.data + c * d.v.plane_stride, w, h, 1, PF_U8, d.v.row_stride);
        }
        st = pf_split(NULL, 1, &src->v, p);
        if (st == PF_OK) {
            buf m = make_buf(w, h, pcn, PF_U8, PF_HWC, pad, neg);
            st = pf_merge(NULL, 1, pcn, p, &m.v);
            int same = st == PF_OK;
            for (int y = 0; y < h && same; y++)
                same = memcmp((char *)m.v.data + y * m.v.row_stride,
                              (const char *)src->v.data + y * src->v.row_stride, (size_t)w * (size_t)pcn) == 0;
            CHECK(same); /* split then merge is the identity */
            guarded_free(m.g);
        }
    }
    }
    if (st != PF_OK) fprintf(stderr, "kind %d failed: %s\n", kind, pf_last_error());
    CHECK(st == PF_OK);
    return d;
}

int main(void) {
    pf_isa best = pf_cpu_active_isa();
    pf_isa levels[4];
    int nlev = 0;
    for (int l = PF_ISA_AVX2; l <= PF_ISA_AVX512VBMI; l++)
        if (l <= (int)best && best != PF_ISA_NEON) levels[nlev++] = (pf_isa)l;
    if (nlev == 0) printf("test_simd_convert: no SIMD convert level on this CPU; only the reference exists\n");
    for (int l = 0; l < nlev; l++) {
        pf_cpu_set_cap(levels[l]);
        int simd = 0;
        for (int i = 0; i < pf_dispatch_count(); i++) {
            const char *n;
            pf_isa isa;
            pf_dispatch_entry(i, &n, &isa);
            if (strncmp(n, "convert.", 8) == 0 || strncmp(n, "normalize.", 10) == 0 || strncmp(n, "reformat.", 9) == 0)
                simd += isa != PF_ISA_SCALAR;
            /* every u8 (de)interleave has a kernel at every SIMD level (AVX2
             * below avx512vbmi, VBMI byte permutes there), and both AVX-512
             * levels run the plain AVX-512 f16, convertTo and normalize
             * kernels (so the avx512 cap compares them here) */
            int fmt = strncmp(n, "reformat.", 9) == 0;
            int plain = strncmp(n, "convert.", 8) == 0 || strncmp(n, "normalize.", 10) == 0;
            pf_isa want = isa;
            if (fmt) want = levels[l] == PF_ISA_AVX512VBMI ? PF_ISA_AVX512VBMI : PF_ISA_AVX2;
            if (plain && levels[l] >= PF_ISA_AVX512) want = PF_ISA_AVX512;
            if (isa != want || (fmt && isa == PF_ISA_SCALAR)) {
                fprintf(stderr, "%s dispatches %s at cap %s, want %s\n", n, pf_isa_name(isa), pf_isa_name(levels[l]),
                        pf_isa_name(want));
                CHECK(0);
            }
        }
        CHECK(simd >= 4);
    }
    uint64_t rng = 0xc0417e47ull;
    int cases = 0;
    for (int iter = 0; iter < 780; iter++) {
        int kind = iter % C_N;
        int w = pft_range(&rng, 0, 3) == 0 ? pft_range(&rng, 1, 70) : pft_range(&rng, 60, 700);
        int h = pft_range(&rng, 1, 7), cn = pft_range(&rng, 1, 4);
        int pad = pft_range(&rng, 0, 1) ? 1 : 0, neg = pft_range(&rng, 0, 2) == 0;
        if (kind >= C_NORM_F32) cn = interleave_kind(kind) && pft_range(&rng, 0, 1) ? 4 : 3;
        pf_dtype sdt = kind == C_F32_U8 || kind == C_F32_F16 || kind == C_NORM_F32SRC_F32 || kind == C_NORM_F32SRC_F16
                           ? PF_F32
                       : kind == C_F16_F32 ? PF_F16
                                           : PF_U8;
        pf_layout slay = kind == C_CHW_HWC ? PF_CHW : PF_HWC;
        buf src = make_buf(w, h, cn, sdt, slay, pad * (int)pf_dtype_size(sdt), neg);
        if (src.g.map == NULL) { CHECK(0); continue; }
        fill_bits(&src, &rng, sdt);
        uint64_t prm = pft_rand(&rng);
        pf_cpu_set_cap(PF_ISA_SCALAR);
        buf want = run_case(kind, &src, w, h, cn, pad, neg, prm);
        for (int l = 0; l < nlev; l++) {
            pf_cpu_set_cap(levels[l]);
            buf got = run_case(kind, &src, w, h, cn, pad, neg, prm);
            int ok = same_bytes(&want, &got);
            if (!ok) fprintf(stderr, "mismatch: kind %d %dx%dx%d pad %d neg %d at %s\n", kind, w, h, cn, pad, neg, pf_isa_name(levels[l]));
            CHECK(ok);
            guarded_free(got.g);
            cases++;
        }
        guarded_free(want.g);
        guarded_free(src.g);
    }
    pf_cpu_set_cap(PF_ISA_NEON); /* uncapped */
    printf("test_simd_convert: %d SIMD comparisons\n", cases);
    return pft_summary("test_simd_convert");
}
