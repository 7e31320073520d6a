/* C-vs-SIMD harness for the warp kernels (u8 LINEAR sampling of 1, 3 and
 * 4 channels, affine / perspective / remap coordinate rows): every ISA level against the scalar
 * reference through pf_warp_affine / pf_warp_perspective / pf_remap, random matrices (so runs
 * of inlier pixels of every length meet border pixels), widths around
 * the vector block sizes, misaligned and negative-stride sources ending at
 * a guard page (an 8-byte tap load past the last pixel would fault). */
#include <math.h>
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "simd/simd_harness.h"
#include "test_util.h"

static double frand(uint64_t *s, double lo, double hi) {
    return lo + (hi - lo) * (double)(pft_rand(s) >> 11) * 0x1.0p-53;
}

int main(void) {
    pf_isa levels[4];
    int nlev = simd_levels(levels, "test_simd_warp");
    if (!(pf_cpu_features() & PF_CPU_NEON)) CHECK(family_levels_ok("warp.", levels, nlev, PF_ISA_AVX2));
    uint64_t rng = 4242;
    int cases = 0;
    for (int iter = 0; iter < 360; iter++) {
        int cn = (int[]){1, 3, 4}[iter % 3];
        int w = iter < 90 ? iter / 3 + 1 : pft_range(&rng, 1, 300), h = pft_range(&rng, 1, 40);
        int dw = pft_range(&rng, 1, 130), dh = pft_range(&rng, 1, 12);
        size_t row = (size_t)w * (size_t)cn;
        size_t stride = row + (size_t)(iter % 3);
        size_t total = stride * (size_t)(h - 1) + row;
        guarded g = guarded_alloc(total);
        if (g.map == NULL) { CHECK(g.map != NULL); continue; }
        for (size_t i = 0; i < total; i++) g.data[i] = (char)pft_rand(&rng);
        int negative = iter % 5 == 2;
        pf_image src = negative ? pf_image_hwc(g.data + stride * (size_t)(h - 1), w, h, cn, PF_U8, -(ptrdiff_t)stride)
                                : pf_image_hwc(g.data, w, h, cn, PF_U8, (ptrdiff_t)stride);
        size_t dn = (size_t)dw * (size_t)dh * (size_t)cn;
        uint8_t *ref = malloc(dn), *out = malloc(dn + 1);
        pf_image dref = pf_image_hwc(ref, dw, dh, cn, PF_U8, 0);
        pf_image dout = pf_image_hwc(out + 1, dw, dh, cn, PF_U8, 0);
        double a = frand(&rng, -3.2, 3.2), sc = frand(&rng, 0.4, 2.5);
        double m[6] = {cos(a) * sc, sin(a) * sc, frand(&rng, -0.5, 1.2) * w, -sin(a) * sc, cos(a) * sc,
                       frand(&rng, -0.5, 1.2) * h};
        if (iter % 4 == 0) m[0] = 1, m[1] = 0, m[3] = 0, m[4] = 1, m[2] = frand(&rng, -2, 2), m[5] = frand(&rng, -2, 2);
        pf_warp_opts o = pf_warp_opts_defaults();
        o.flags = PF_WARP_INVERSE_MAP;
        o.interp = (pf_interp)((iter / 3) % 3); /* NEAREST, LINEAR, CUBIC for every cn */
        o.border = (pf_border)(iter % 6);
        o.border_value[0] = 17, o.border_value[1] = 200, o.border_value[2] = 3, o.border_value[3] = 99;
        float *mx = malloc((size_t)dw * (size_t)dh * sizeof *mx), *my = malloc((size_t)dw * (size_t)dh * sizeof *my);
        for (int y = 0; y < dh; y++)
            for (int x = 0; x < dw; x++) {
                mx[y * dw + x] = (float)(m[0] * x + m[1] * y + m[2]);
                my[y * dw + x] = (float)(m[3] * x + m[4] * y + m[5]);
            }
        pf_image imx = pf_image_hwc(mx, dw, dh, 1, PF_F32, 0), imy = pf_image_hwc(my, dw, dh, 1, PF_F32, 0);
        double m9[9] = {m[0], m[1], m[2], m[3], m[4], m[5], frand(&rng, -2e-3, 2e-3), frand(&rng, -2e-3, 2e-3), 1};
        for (int op = 0; op < 3; op++) {
            memset(ref, 0x5A, dn);
            pf_cpu_set_cap(PF_ISA_SCALAR);
            CHECK_STATUS(op == 2 ? pf_warp_perspective(NULL, 1, &src, &dref, m9, 1, &o)
                         : op ? pf_remap(NULL, 1, &src, &dref, &imx, &imy, &(pf_warp_opts){o.interp, o.border, {17, 200, 3, 99}, 0})
                              : pf_warp_affine(NULL, 1, &src, &dref, m, 1, &o),
                         PF_OK);
            for (int l = 0; l < nlev; l++) {
                memset(out + 1, 0x5A, dn);
                pf_cpu_set_cap(levels[l]);
                CHECK_STATUS(op == 2 ? pf_warp_perspective(NULL, 1, &src, &dout, m9, 1, &o)
                             : op ? pf_remap(NULL, 1, &src, &dout, &imx, &imy, &(pf_warp_opts){o.interp, o.border, {17, 200, 3, 99}, 0})
                                  : pf_warp_affine(NULL, 1, &src, &dout, m, 1, &o),
                             PF_OK);
                int ok = memcmp(ref, out + 1, dn) == 0;
                if (!ok)
                    fprintf(stderr, "%s mismatch at %s: cn=%d src %dx%d dst %dx%d border=%d interp=%d neg=%d\n",
                            op == 2 ? "perspective" : op ? "remap" : "affine", pf_isa_name(levels[l]), cn, w, h, dw, dh, (int)o.border,
                            (int)o.interp, negative);
                CHECK(ok);
            }
        }
        cases++;
        free(mx);
        free(my);
        free(ref);
        free(out);
        guarded_free(g);
    }
    pf_cpu_set_cap(PF_ISA_NEON);
    printf("test_simd_warp: %d cases x %d SIMD levels compared with scalar\n", cases, nlev);
    return pft_summary("test_simd_warp");
}
