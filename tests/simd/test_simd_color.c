/* C-vs-SIMD harness for pf_cvt_color: at every ISA level this CPU has,
 * (1) every optimized colour row kernel gives the same bytes as the
 * reference on random data, with rows that end exactly at a page boundary
 * followed by a PROT_NONE guard page (src and dst), and 1-byte-misaligned
 * starts; (2) pf_cvt_color on every code gives the same bytes as at the
 * scalar cap, with odd widths, negative strides, page-edge sources and
 * in-place calls. Also checks which level each slot really runs at (so the
 * comparison is not reference-vs-reference): the AVX2 kernels at avx2 and
 * at avx512 (there is no plain AVX-512 colour kernel: a Skylake-SP runs
 * the AVX2 ones), the VBMI kernels at avx512vbmi. */
#include <stdlib.h>

#include "cpu/color_exec.h"
#include "pixflow/pixflow.h"
#include "simd/simd_harness.h"
#include "test_util.h"


static void fill_rand(uint8_t *p, size_t n, uint64_t *s) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)pft_rand(s);
}

/* The u8 shapes each slot serves (see pfi_color_slot). */
typedef struct slot_case { int slot; pfk_color_kind kind; int scn, dcn, swap, bidx, hrange, trunc; } slot_case;
static const slot_case k_slot_cases[] = {
    {PFI_COLOR_SWAP_U8C3, PFK_COLOR_RGB2RGB, 3, 3, 1, 0, 0, 0},
    {PFI_COLOR_SWAP_U8C4, PFK_COLOR_RGB2RGB, 4, 4, 1, 0, 0, 0},
    {PFI_COLOR_ADD_ALPHA_U8, PFK_COLOR_RGB2RGB, 3, 4, 0, 0, 0, 0},
    {PFI_COLOR_ADD_ALPHA_U8, PFK_COLOR_RGB2RGB, 3, 4, 1, 0, 0, 0},
    {PFI_COLOR_DROP_ALPHA_U8, PFK_COLOR_RGB2RGB, 4, 3, 0, 0, 0, 0},
    {PFI_COLOR_DROP_ALPHA_U8, PFK_COLOR_RGB2RGB, 4, 3, 1, 0, 0, 0},
    {PFI_COLOR_GRAY_U8C3, PFK_COLOR_RGB2GRAY, 3, 1, 0, 0, 0, 0},
    {PFI_COLOR_GRAY_U8C3, PFK_COLOR_RGB2GRAY, 3, 1, 0, 2, 0, 0},
    {PFI_COLOR_GRAY_U8C4, PFK_COLOR_RGB2GRAY, 4, 1, 0, 0, 0, 0},
    {PFI_COLOR_GRAY_U8C4, PFK_COLOR_RGB2GRAY, 4, 1, 0, 2, 0, 0},
    {PFI_COLOR_GRAY2BGR_U8, PFK_COLOR_GRAY2RGB, 1, 3, 0, 0, 0, 0},
    {PFI_COLOR_GRAY2BGRA_U8, PFK_COLOR_GRAY2RGB, 1, 4, 0, 0, 0, 0},
    {PFI_COLOR_YCRCB_U8, PFK_COLOR_RGB2YCRCB, 3, 3, 0, 0, 0, 0},
    {PFI_COLOR_YCRCB_U8, PFK_COLOR_RGB2YCRCB, 4, 3, 0, 2, 0, 0},
    {PFI_COLOR_YCRCB2RGB_U8, PFK_COLOR_YCRCB2RGB, 3, 3, 0, 2, 0, 0},
    {PFI_COLOR_YCRCB2RGB_U8, PFK_COLOR_YCRCB2RGB, 3, 4, 0, 0, 0, 0},
    {PFI_COLOR_HSV_U8, PFK_COLOR_RGB2HSV, 3, 3, 0, 0, 180, 0},
    {PFI_COLOR_HSV_U8, PFK_COLOR_RGB2HSV, 4, 3, 0, 2, 256, 0},
    {PFI_COLOR_HSV_U8, PFK_COLOR_RGB2HSV, 3, 3, 0, 2, 256, 0},
    {PFI_COLOR_HSV2RGB_U8, PFK_COLOR_HSV2RGB, 3, 3, 0, 0, 180, 1},
    {PFI_COLOR_HSV2RGB_U8, PFK_COLOR_HSV2RGB, 3, 3, 0, 0, 180, 0},
    {PFI_COLOR_HSV2RGB_U8, PFK_COLOR_HSV2RGB, 3, 4, 0, 2, 255, 1},
    {PFI_COLOR_HSV2RGB_U8, PFK_COLOR_HSV2RGB, 3, 3, 0, 2, 255, 0},
};
#define NSLOTCASES ((int)(sizeof k_slot_cases / sizeof k_slot_cases[0]))

static void test_kernels(pf_isa isa, uint64_t *seed) {
    const pfi_color_kernels *t = pfi_kfamily_table(&pfi_color_family, isa);
    int nfast = 0;
    for (size_t c = 0; c < sizeof k_slot_cases / sizeof k_slot_cases[0]; c++) {
        const slot_case *sc = &k_slot_cases[c];
        pfi_color_row_fn fn = t->row[sc->slot];
        if (fn != pfi_color_row_ref) nfast++;
        pfi_color_desc d = {sc->kind, PF_U8, sc->scn, sc->dcn, sc->bidx, sc->swap, sc->hrange, sc->trunc};
        const int32_t ns[] = {64, 128, 192, 64 * 31};
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            int32_t n = ns[k];
            size_t sb = (size_t)n * (size_t)sc->scn, db = (size_t)n * (size_t)sc->dcn;
            for (int mis = 0; mis < 2; mis++) {
                /* src ends at the guard page; dst too; mis shifts the start */
                guarded gs = guarded_alloc(sb + (size_t)mis), gd = guarded_alloc(db), gr = guarded_alloc(db);
                uint8_t *src = (uint8_t *)gs.data + mis; /* [src, src + sb) ends at the guard */
                fill_rand((uint8_t *)gs.data, sb + (size_t)mis, seed);
                fn(src, gd.data, n, &d);
                pfi_color_row_ref(src, gr.data, n, &d);
                if (memcmp(gd.data, gr.data, db) != 0) {
                    size_t i = 0;
                    while (((uint8_t *)gd.data)[i] == ((uint8_t *)gr.data)[i]) i++;
                    fprintf(stderr, "isa %s slot %s scn %d dcn %d swap %d bidx %d n %d mis %d: byte %zu differs\n",
                            pf_isa_name(isa), pfi_color_family.slots[sc->slot].name, sc->scn, sc->dcn,
                            sc->swap, sc->bidx, (int)n, mis, i);
                    CHECK(0);
                } else {
                    CHECK(1);
                }
                guarded_free(gs), guarded_free(gd), guarded_free(gr);
            }
        }
    }
    /* every slot is accelerated at AVX2 (HSV -> RGB needs FMA too), keeps
     * those kernels at avx512 and takes the VBMI ones at avx512vbmi */
    if (isa == PF_ISA_AVX2 || isa == PF_ISA_AVX512 || isa == PF_ISA_AVX512VBMI) {
        CHECK(nfast == NSLOTCASES);
        pf_isa want = isa == PF_ISA_AVX512VBMI ? PF_ISA_AVX512VBMI : PF_ISA_AVX2;
        for (int i = 0; i < pfi_color_family.nslots; i++) {
            pf_isa at = pfi_kfamily_slot_isa(&pfi_color_family, isa, i);
            if (at != want)
                fprintf(stderr, "%s: %s runs at %s, want %s\n", pf_isa_name(isa), pfi_color_family.slots[i].name,
                        pf_isa_name(at), pf_isa_name(want));
            CHECK(at == want);
        }
    }
    printf("test_simd_color: %s: %d of %d slot cases use an optimized kernel\n", pf_isa_name(isa), nfast,
           NSLOTCASES);
}

/* Every u8 (b, g, r) triple through the HSV kernels, and every (h, s, v)
 * triple through the HSV -> RGB kernels (both hue ranges, truncating and
 * rounding): the SIMD kernels at every level against the reference. */
static void test_exhaustive(const pf_isa *levels, int nlev) {
    const int32_t n = 1 << 24;
    uint8_t *src = malloc((size_t)n * 3), *ref = malloc((size_t)n * 3), *got = malloc((size_t)n * 3);
    if (!src || !ref || !got) {
        CHECK(0);
        free(src), free(ref), free(got);
        return;
    }
    for (int32_t i = 0; i < n; i++) {
        src[3 * i] = (uint8_t)(i >> 16);
        src[3 * i + 1] = (uint8_t)(i >> 8);
        src[3 * i + 2] = (uint8_t)i;
    }
    const pfi_color_desc descs[] = {
        {PFK_COLOR_RGB2HSV, PF_U8, 3, 3, 0, 0, 180, 0}, {PFK_COLOR_RGB2HSV, PF_U8, 3, 3, 0, 0, 256, 0},
        {PFK_COLOR_HSV2RGB, PF_U8, 3, 3, 0, 0, 180, 1}, {PFK_COLOR_HSV2RGB, PF_U8, 3, 3, 0, 0, 180, 0},
        {PFK_COLOR_HSV2RGB, PF_U8, 3, 3, 0, 0, 255, 1}, {PFK_COLOR_HSV2RGB, PF_U8, 3, 3, 0, 0, 255, 0}};
    for (size_t k = 0; k < sizeof descs / sizeof descs[0]; k++) {
        const pfi_color_desc *d = &descs[k];
        pfi_color_row_ref(src, ref, n, d);
        for (int l = 0; l < nlev; l++) {
            pfi_color_row_fn fn =
                ((const pfi_color_kernels *)pfi_kfamily_table(&pfi_color_family, levels[l]))->row[pfi_color_slot(d)];
            if (fn == pfi_color_row_ref) continue;
            fn(src, got, n, d);
            size_t bad = 0;
            while (bad < (size_t)n * 3 && got[bad] == ref[bad]) bad++;
            if (bad < (size_t)n * 3)
                fprintf(stderr, "isa %s kind %d hrange %d trunc %d: input %02x%02x%02x differs\n",
                        pf_isa_name(levels[l]), (int)d->kind, d->hrange, d->hsv_trunc,
                        src[bad / 3 * 3], src[bad / 3 * 3 + 1], src[bad / 3 * 3 + 2]);
            CHECK(bad == (size_t)n * 3);
        }
    }
    printf("test_simd_color: all 2^24 u8 triples: HSV and HSV -> RGB kernels == reference\n");
    free(src), free(ref), free(got);
}

static const int k_codes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 36, 37, 38, 39,
                              40, 41, 54, 55, 66, 67, 70, 71};

static int code_scn(int code) { return code == 8 || code == 9 ? 1 : (code == 1 || code == 3 || code == 5 || code == 10 || code == 11) ? 4 : 3; }
static int code_dcn(int code) {
    switch (code) {
    case 0: case 2: case 5: case 9: return 4;
    case 6: case 7: case 10: case 11: return 1;
    default: return 3;
    }
}

/* pf_cvt_color at `isa` vs at the scalar cap, on one random image. */
static void test_api_case(pf_isa isa, int code, pf_dtype t, int32_t w, int32_t h, int neg, uint64_t *seed) {
    int scn = code_scn(code), dcn = code_dcn(code);
    size_t es = pf_dtype_size(t);
    size_t srow = (size_t)w * (size_t)scn * es, drow = (size_t)w * (size_t)dcn * es;
    guarded gs = guarded_alloc(srow * (size_t)h);
    fill_rand((uint8_t *)gs.data, srow * (size_t)h, seed);
    if (t == PF_F32) { /* finite values in [0, 1] (H in [0, 360)) */
        float *f = (float *)(void *)gs.data;
        for (size_t i = 0; i < srow * (size_t)h / 4; i++) f[i] = (float)(pft_rand(seed) >> 40) / 16777216.0f * ((code >= 54 && code <= 55) || code >= 70 ? (i % 3 == 0 ? 360.f : 1.f) : 1.f);
    }
    pf_image s = pf_image_hwc(gs.data, w, h, scn, t, 0);
    if (neg) { s.data = gs.data + srow * (size_t)(h - 1); s.row_stride = -(ptrdiff_t)srow; }
    uint8_t *a = malloc(drow * (size_t)h), *b = malloc(drow * (size_t)h);
    pf_image da = pf_image_hwc(a, w, h, dcn, t, 0), db = pf_image_hwc(b, w, h, dcn, t, 0);
    pf_cpu_set_cap(PF_ISA_SCALAR);
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &da, (pf_color_code)code, NULL), PF_OK);
    pf_cpu_set_cap(isa);
    CHECK_STATUS(pf_cvt_color(NULL, 1, &s, &db, (pf_color_code)code, NULL), PF_OK);
    if (memcmp(a, b, drow * (size_t)h) != 0) {
        fprintf(stderr, "isa %s code %d %s %dx%d neg %d differs from scalar\n", pf_isa_name(isa), code,
                pf_dtype_name(t), (int)w, (int)h, neg);
        CHECK(0);
    }
    /* in place (same channel count): equals the out-of-place result */
    if (scn == dcn && !neg) {
        pf_image ip = pf_image_hwc(gs.data, w, h, scn, t, 0);
        CHECK_STATUS(pf_cvt_color(NULL, 1, &ip, &ip, (pf_color_code)code, NULL), PF_OK);
        CHECK(memcmp(gs.data, b, drow * (size_t)h) == 0);
    }
    free(a), free(b);
    guarded_free(gs);
}

int main(void) {
    pf_isa best = pf_cpu_active_isa();
    uint64_t seed = 0x5eed0c0102ull;
    pf_isa levels[4];
    int nlev = 0;
    for (int l = PF_ISA_SSE4; l <= PF_ISA_AVX512VBMI; l++)
        if (l <= (int)best && best != PF_ISA_NEON) levels[nlev++] = (pf_isa)l;
    if (best == PF_ISA_NEON) levels[nlev++] = PF_ISA_NEON;
    test_kernels(PF_ISA_SCALAR, &seed);
    for (int l = 0; l < nlev; l++) test_kernels(levels[l], &seed);
    test_exhaustive(levels, nlev);
    const int32_t widths[] = {1, 7, 31, 32, 33, 63, 64, 65, 127, 129, 200};
    for (int l = 0; l < nlev; l++)
        for (size_t c = 0; c < sizeof k_codes / sizeof k_codes[0]; c++)
            for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
                int code = k_codes[c];
                int hsv = code >= 40 && code != 36 && code != 37 && code != 38 && code != 39;
                test_api_case(levels[l], code, PF_U8, widths[wi], 3 + (int)(wi % 3), (int)(wi & 1), &seed);
                if (wi % 4 == 0) {
                    test_api_case(levels[l], code, PF_F32, widths[wi], 2, 1, &seed);
                    if (!hsv) test_api_case(levels[l], code, PF_U16, widths[wi], 2, 0, &seed);
                }
            }
    pf_cpu_set_cap(PF_ISA_NEON); /* uncapped */
    return pft_summary("test_simd_color");
}
