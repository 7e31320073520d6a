/* C-vs-SIMD harness for the photometric kernels: every op of the photo
 * family (saturation, hue, contrast, color_twist, grayscale 1/3, noise,
 * invert; u8 and f32; AVX2 and AVX-512 share one kernel source) at every ISA level gives the same bytes as the scalar cap,
 * on odd widths, misaligned rows, negative strides and sources that end
 * at a guard page. */
#include <stdlib.h>

#include "cpu/photo_exec.h"
#include "pixflow/pixflow.h"
#include "simd/simd_harness.h"
#include "test_util.h"

enum { OP_SAT, OP_HUE, OP_CONTRAST, OP_TWIST, OP_GRAY1, OP_GRAY3, OP_NOISE, OP_INVERT, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"saturation", "hue", "contrast", "twist", "gray1", "gray3",
                                               "noise", "invert"};

static pf_status run(int op, const pf_image *src, pf_image *dst, uint64_t *rng) {
    double f = (double)(pft_rand(rng) % 3000) / 1000.0;
    switch (op) {
    case OP_SAT: return pf_adjust_saturation(NULL, 1, src, dst, &f, 1);
    case OP_HUE: { double h = f / 3.0 - 0.5; return pf_adjust_hue(NULL, 1, src, dst, &h, 1); }
    case OP_CONTRAST: return pf_adjust_contrast(NULL, 1, src, dst, &f, 1);
    case OP_TWIST: {
        float m[12];
        for (int i = 0; i < 12; i++) m[i] = (float)((int)(pft_rand(rng) % 4001) - 2000) / 1000.0f * (i % 4 == 3 ? 50.0f : 1.0f);
        /* u8 kernels take another path when a coefficient exceeds 2^100;
         * tiny (subnormal) coefficients test the exact-product trick */
        unsigned pick = (unsigned)(pft_rand(rng) % 8);
        if (pick == 0) m[pft_rand(rng) % 3] = 3e30f;
        if (pick == 1) m[4 + pft_rand(rng) % 3] = -1e-40f;
        if (pick == 2) m[8 + pft_rand(rng) % 3] = 1.0f / 3.0f;
        return pf_color_twist(NULL, 1, src, dst, m, 1);
    }
    case OP_GRAY1: case OP_GRAY3: return pf_rgb_to_grayscale(NULL, 1, src, dst);
    case OP_INVERT: return pf_invert(NULL, 1, src, dst);
    default: {
        double mean = 0.05, sigma = f / 10.0;
        pf_noise_opts o = pf_noise_opts_defaults();
        o.seed = pft_rand(rng);
        o.clip = (pft_rand(rng) & 1) != 0;
        return pf_gaussian_noise(NULL, 1, src, dst, &mean, &sigma, 1, &o);
    }
    }
}

/* Direct kernel checks, one fill function at a time: the avx512vbmi level
 * replaces the RGB u8 kernels, so the plain AVX-512 ones are reached
 * through the API only at the avx512 level; here every variant this CPU
 * can run also meets the reference on rows ending at a guard page. */
static void direct_kernels(uint64_t *rng) {
#if defined(PF_HAVE_X86) || defined(__x86_64__)
    static const struct { const char *name; void (*fill)(pfi_photo_kernels *); unsigned need; } fills[] = {
        {"avx2", pfi_photo_fill_avx2, PF_CPU_AVX2 | PF_CPU_FMA},
        {"avx512", pfi_photo_fill_avx512,
         PF_CPU_AVX512F | PF_CPU_AVX512BW | PF_CPU_AVX512DQ | PF_CPU_AVX512VL | PF_CPU_FMA},
        {"avx512vbmi", pfi_photo_fill_avx512vbmi,
         PF_CPU_AVX512F | PF_CPU_AVX512BW | PF_CPU_AVX512DQ | PF_CPU_AVX512VL | PF_CPU_FMA | PF_CPU_AVX512VBMI}};
    static const int slots[] = {PFI_PHOTO_SAT_U8, PFI_PHOTO_HUE_U8, PFI_PHOTO_TWIST_U8, PFI_PHOTO_GRAY1_U8,
                                PFI_PHOTO_GRAY3_U8};
    const pfi_photo_kernels *ref = pfi_kfamily_table(&pfi_photo_family, PF_ISA_SCALAR);
    int checked = 0;
    for (size_t f = 0; f < sizeof fills / sizeof fills[0]; f++) {
        if ((pf_cpu_features() & fills[f].need) != fills[f].need) continue;
        pfi_photo_kernels t = *ref;
        fills[f].fill(&t);
        for (int it = 0; it < 60; it++) {
            int32_t n = 16 * pft_range(rng, 1, 40);
            guarded g = guarded_alloc((size_t)n * 3);
            if (g.map == NULL) { CHECK(g.map != NULL); continue; }
            uint8_t *src = (uint8_t *)g.data;
            for (int32_t i = 0; i < 3 * n; i++) src[i] = (uint8_t)pft_rand(rng);
            pfi_photo_k k = {0};
            k.ratio = (float)(pft_rand(rng) % 3000) / 1000.0f;
            k.alpha = (float)(1.0 - (double)k.ratio);
            k.hue = (float)(pft_rand(rng) % 1001) / 1000.0f - 0.5f;
            for (int c = 0; c < 12; c++) k.m[c] = (float)((int)(pft_rand(rng) % 4001) - 2000) / 400.0f;
            uint8_t a[3 * 640], b[3 * 640];
            for (size_t sl = 0; sl < sizeof slots / sizeof slots[0]; sl++) {
                k.dcn = slots[sl] == PFI_PHOTO_GRAY1_U8 ? 1 : 3;
                ref->px[slots[sl]](src, a, n, &k);
                t.px[slots[sl]](src, b, n, &k);
                int same = memcmp(a, b, (size_t)n * (size_t)k.dcn) == 0;
                if (!same) fprintf(stderr, "direct %s slot %d n=%d differs\n", fills[f].name, slots[sl], (int)n);
                CHECK(same);
            }
            CHECK(ref->graysum_u8(src, n) == t.graysum_u8(src, n));
            ref->invert_u8(src, a, 3 * n);
            t.invert_u8(src, b, 3 * n);
            CHECK(memcmp(a, b, (size_t)n * 3) == 0);
            guarded_free(g);
            checked++;
        }
    }
    printf("test_simd_photo: %d direct kernel rows\n", checked);
#else
    (void)rng;
#endif
}

int main(void) {
    pf_isa levels[4];
    int nlev = simd_levels(levels, "test_simd_photo");
    for (int l = 0; l < nlev; l++) {
        pf_cpu_set_cap(levels[l]);
        printf("test_simd_photo: %d photo kernels at %s\n", slots_at("photo.", levels[l]), pf_isa_name(levels[l]));
    }
    uint64_t rng = 0x5eedull;
    int cases = 0;
    for (int iter = 0; iter < 800; iter++) {
        int op = iter % OP_COUNT;
        pf_dtype dt = (iter / OP_COUNT) % 2 ? PF_F32 : PF_U8;
        if (dt == PF_F32 && (op == OP_GRAY1 || op == OP_GRAY3)) dt = PF_U8;
        size_t es = dt == PF_U8 ? 1 : 4;
        int cn = op == OP_NOISE || op == OP_INVERT ? pft_range(&rng, 1, 4) : 3;
        int dcn = op == OP_GRAY1 ? 1 : cn;
        int w = iter < 100 ? iter / 2 + 1 : pft_range(&rng, 1, 300), h = pft_range(&rng, 1, 7);
        size_t row = (size_t)w * (size_t)cn * es;
        size_t stride = row + (dt == PF_U8 ? (size_t)(iter % 3) : 4u * (size_t)(iter % 2));
        size_t total = stride * (size_t)(h - 1) + row;
        guarded g = guarded_alloc(total);
        if (g.map == NULL) { CHECK(g.map != NULL); continue; }
        for (size_t i = 0; i < total; i += es) {
            if (dt == PF_U8) g.data[i] = (char)pft_rand(&rng);
            else { float v = (float)(pft_rand(&rng) % 100001) / 100000.0f; memcpy(g.data + i, &v, 4); }
        }
        int negative = iter % 4 == 1;
        pf_image src = negative ? pf_image_hwc(g.data + stride * (size_t)(h - 1), w, h, cn, dt, -(ptrdiff_t)stride)
                                : pf_image_hwc(g.data, w, h, cn, dt, (ptrdiff_t)stride);
        size_t dn = (size_t)w * (size_t)h * (size_t)dcn * es;
        char *ref = malloc(dn), *out = malloc(dn + 4);
        pf_image dref = pf_image_hwc(ref, w, h, dcn, dt, 0);
        pf_image dout = pf_image_hwc(out + (dt == PF_U8 ? 1 : 4), w, h, dcn, dt, 0);
        uint64_t r0 = rng;
        pf_cpu_set_cap(PF_ISA_SCALAR);
        CHECK_STATUS(run(op, &src, &dref, &rng), PF_OK);
        for (int l = 0; l < nlev; l++) {
            pf_cpu_set_cap(levels[l]);
            uint64_t r1 = r0;
            CHECK_STATUS(run(op, &src, &dout, &r1), PF_OK);
            int same = memcmp(ref, (char *)dout.data, dn) == 0;
            if (!same)
                fprintf(stderr, "mismatch at %s: %s %s cn=%d %dx%d neg=%d\n", pf_isa_name(levels[l]), op_names[op],
                        pf_dtype_name(dt), cn, w, h, negative);
            CHECK(same);
        }
        free(ref);
        free(out);
        guarded_free(g);
        cases++;
    }
    pf_cpu_set_cap(PF_ISA_NEON);
    printf("test_simd_photo: %d cases x %d levels\n", cases, nlev);
    direct_kernels(&rng);
    return pft_summary("test_simd_photo");
}
