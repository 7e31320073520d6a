/* C-vs-SIMD harness for the flip and 8x8 tile-transpose kernels (1-, 2-,
 * 3-, 4-byte pixels; flips, quarter turns, transpose):
 * every ISA level against the scalar reference, widths around the vector
 * block sizes, misaligned and negative-stride rows, sources ending at a
 * guard page (so the masked loads are proven not to read past the row). */
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "simd/simd_harness.h"
#include "test_util.h"

int main(void) {
    pf_isa levels[4];
    int nlev = simd_levels(levels, "test_simd_geom");
    if (!(pf_cpu_features() & PF_CPU_NEON)) CHECK(family_levels_ok("geom.", levels, nlev, PF_ISA_SSE4));
    uint64_t rng = 77;
    int cases = 0;
    for (int iter = 0; iter < 480; iter++) {
        int kind = iter % 4; /* pixel bytes - 1 */
        pf_dtype dt = kind == 1 ? PF_U16 : PF_U8;
        int cn = kind == 1 ? 1 : kind + 1;
        int w = iter < 200 ? iter / 2 + 1 : pft_range(&rng, 1, 900), h = pft_range(&rng, 1, 4);
        if (iter % 7 == 3) h = pft_range(&rng, 8, 41); /* room for 8x8 tiles */
        size_t row = (size_t)w * (size_t)(kind + 1);
        size_t stride = row + (size_t)(iter % 3);
        size_t total = stride * (size_t)(h - 1) + row;
        guarded g = guarded_alloc(total);
        if (g.map == NULL) { CHECK(g.map != NULL); continue; }
        for (size_t i = 0; i < total; i++) g.data[i] = (char)pft_rand(&rng);
        int negative = iter % 5 == 2;
        pf_image src = negative ? pf_image_hwc(g.data + stride * (size_t)(h - 1), w, h, cn, dt, -(ptrdiff_t)stride)
                                : pf_image_hwc(g.data, w, h, cn, dt, (ptrdiff_t)stride);
        size_t dn = row * (size_t)h;
        char *ref = malloc(dn), *out = malloc(dn + 2);
        pf_image dref = pf_image_hwc(ref, w, h, cn, dt, 0);
        pf_image dout = pf_image_hwc(out + (dt == PF_U8 ? 1 : 2), w, h, cn, dt, 0);
        pf_flip_code code = iter % 2 ? PF_FLIP_HORIZONTAL : PF_FLIP_BOTH;
        pf_cpu_set_cap(PF_ISA_SCALAR);
        CHECK_STATUS(pf_flip(NULL, 1, &src, &dref, &code, 1), PF_OK);
        for (int l = 0; l < nlev; l++) {
            pf_cpu_set_cap(levels[l]);
            CHECK_STATUS(pf_flip(NULL, 1, &src, &dout, &code, 1), PF_OK);
            int ok = memcmp(ref, dout.data, dn) == 0;
            if (!ok) fprintf(stderr, "flip mismatch at %s: px=%d w=%d h=%d neg=%d\n", pf_isa_name(levels[l]), kind + 1, w, h, negative);
            CHECK(ok);
        }
        /* quarter turns and transpose: the 8x8 tile kernels */
        {
            char *tref = malloc(dn), *tout = malloc(dn);
            pf_image tr = pf_image_hwc(tref, h, w, cn, dt, 0), to = pf_image_hwc(tout, h, w, cn, dt, 0);
            pf_rotate_code rc = iter % 3 == 0 ? PF_ROTATE_90_CLOCKWISE : PF_ROTATE_90_COUNTERCLOCKWISE;
            for (int op = 0; op < 2; op++) {
                pf_cpu_set_cap(PF_ISA_SCALAR);
                CHECK_STATUS(op ? pf_transpose(NULL, 1, &src, &tr) : pf_rotate(NULL, 1, &src, &tr, &rc, 1), PF_OK);
                for (int l = 0; l < nlev; l++) {
                    pf_cpu_set_cap(levels[l]);
                    CHECK_STATUS(op ? pf_transpose(NULL, 1, &src, &to) : pf_rotate(NULL, 1, &src, &to, &rc, 1), PF_OK);
                    int ok = memcmp(tref, tout, dn) == 0;
                    if (!ok) fprintf(stderr, "%s mismatch at %s: px=%d w=%d h=%d neg=%d\n", op ? "transpose" : "rotate",
                                     pf_isa_name(levels[l]), kind + 1, w, h, negative);
                    CHECK(ok);
                }
            }
            free(tref);
            free(tout);
        }
        cases++;
        free(ref);
        free(out);
        guarded_free(g);
    }
    pf_cpu_set_cap(PF_ISA_NEON);
    printf("test_simd_geom: %d cases x %d SIMD levels compared with scalar\n", cases, nlev);
    return pft_summary("test_simd_geom");
}
