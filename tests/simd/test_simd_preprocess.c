/* The preprocess kernel family (src/cpu/preprocess_dispatch.c): the fused
 * emit pass's reciprocal normalize of 3-channel u8 rows into f32 / f16
 * planes, at every SIMD level this CPU has, against the scalar
 * specification pfi_pp_norm_rcp bit for bit: random pixels, every channel
 * order, scale 1 and 1/255, means and stds from ImageNet's to arbitrary
 * ones (the kernels must equal the specification whether or not the plan
 * would accept it, pfi_pp_rcp_exact), lengths of 16 to 1024 pixels, each
 * plane ending at a guard page so a store past the row faults. Then that
 * the family runs SIMD where the CPU reaches AVX2 and none below. */
#include <stdlib.h>
#include <string.h>

#include "cpu/preprocess_exec.h"
#include "kernels/convert_math.h"
#include "simd/simd_harness.h"
#include "test_util.h"

static float frand(uint64_t *r) { return (float)(pft_rand(r) >> 40) / (float)(1 << 24); }

static const pfi_preprocess_kernels *table(pf_isa isa) { return pfi_kfamily_table(&pfi_preprocess_family, isa); }

static int compare(const pf_isa *levels, int nlev, int half, uint64_t *rng) {
    static const int8_t orders[6][3] = {{0, 1, 2}, {2, 1, 0}, {1, 0, 2}, {0, 2, 1}, {1, 2, 0}, {2, 0, 1}};
    int cases = 0;
    size_t es = half ? 2 : 4;
    for (int it = 0; it < 240; it++) {
        int32_t n = 16 * (it < 64 ? it + 1 : pft_range(rng, 1, 64));
        pfi_pp_norm_k k;
        k.scale = it % 3 == 0 ? 1.0f / 255.0f : 1.0f;
        for (int c = 0; c < 3; c++) {
            float s = k.scale == 1.0f ? 255.0f : 1.0f;
            k.mean[c] = it % 4 == 0 ? (float[]){0.485f, 0.456f, 0.406f}[c] * s : (frand(rng) - 0.25f) * s;
            k.stdv[c] = it % 4 == 0 ? (float[]){0.229f, 0.224f, 0.225f}[c] * s : (frand(rng) + 0.01f) * s;
            k.inv[c] = 1.0f / k.stdv[c];
        }
        const int8_t *order = orders[it % 6];
        uint8_t *px = malloc((size_t)n * 3);
        for (int32_t i = 0; i < 3 * n; i++) px[i] = (uint8_t)pft_rand(rng);
        void *want[3];
        guarded g[3];
        for (int c = 0; c < 3; c++) {
            want[c] = malloc((size_t)n * es);
            g[c] = guarded_alloc((size_t)n * es);
        }
        table(PF_ISA_SCALAR)->norm[half](px, order, want, n, &k);
        /* the scalar slot is the specification itself */
        float spec = pfi_pp_norm_rcp((float)px[order[1]], k.scale, k.mean[1], k.stdv[1], k.inv[1]);
        CHECK(half ? ((uint16_t *)want[1])[0] == pfk_f32_to_f16(spec) : pfk_f32_bits(((float *)want[1])[0]) == pfk_f32_bits(spec));
        for (int l = 0; l < nlev; l++) {
            void *got[3] = {g[0].data, g[1].data, g[2].data};
            for (int c = 0; c < 3; c++) memset(got[c], 0xA5, (size_t)n * es);
            table(levels[l])->norm[half](px, order, got, n, &k);
            for (int c = 0; c < 3; c++) {
                int ok = memcmp(want[c], got[c], (size_t)n * es) == 0;
                if (!ok)
                    fprintf(stderr, "norm %s mismatch at %s: n=%d channel %d order %d%d%d scale %g\n",
                            half ? "f16" : "f32", pf_isa_name(levels[l]), (int)n, c, order[0], order[1], order[2],
                            (double)k.scale);
                CHECK(ok);
            }
        }
        for (int c = 0; c < 3; c++) {
            free(want[c]);
            guarded_free(g[c]);
        }
        free(px);
        cases++;
    }
    return cases;
}

int main(void) {
    pf_isa levels[4];
    int nlev = simd_levels(levels, "test_simd_preprocess");
    if (!(pf_cpu_features() & PF_CPU_NEON)) CHECK(family_levels_ok("preprocess.", levels, nlev, PF_ISA_AVX2));
    nlev = levels_with_own_kernels("preprocess.", levels, nlev);
    uint64_t rng = 2027;
    int cases = compare(levels, nlev, PFI_PP_NORM_F32, &rng) + compare(levels, nlev, PFI_PP_NORM_F16, &rng);
    pf_cpu_set_cap(PF_ISA_NEON);
    printf("test_simd_preprocess: %d cases x %d SIMD levels with their own kernels compared with the scalar "
           "specification\n", cases, nlev);
    return pft_summary("test_simd_preprocess");
}
