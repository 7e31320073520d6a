/* C-vs-SIMD harness for pf_lut: at every ISA level, every table layout
 * (shared / per channel), channel count, odd widths, misaligned and
 * negative strides, CHW, sources ending at a guard page: the same bytes as
 * the scalar reference. The AVX-512 kernel needs VBMI; without it the
 * reference runs at that level too (reported, not failed). */
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "simd/simd_harness.h"
#include "test_util.h"

int main(void) {
    pf_isa levels[4];
    int nlev = simd_levels(levels, "test_simd_lut");
    for (int l = 0; l < nlev; l++) {
        pf_cpu_set_cap(levels[l]);
        if (slots_at("lut.", levels[l]))
            printf("test_simd_lut: lut kernel at %s\n", pf_isa_name(levels[l]));
    }
    uint64_t rng = 0x17ull;
    uint8_t tables[4 * 256];
    int cases = 0;
    for (int iter = 0; iter < 400; iter++) {
        int cn = pft_range(&rng, 1, 4);
        int tcn = pft_range(&rng, 0, 1) ? cn : 1;
        int w = iter < 40 ? iter + 1 : pft_range(&rng, 1, 700), h = pft_range(&rng, 1, 9);
        int chw = cn > 1 && iter % 5 == 4;
        for (int i = 0; i < 256 * tcn; i++) tables[i] = (uint8_t)pft_rand(&rng);
        size_t row = (size_t)w * (size_t)(chw ? 1 : cn);
        size_t stride = row + (size_t)(iter % 3); /* odd strides misalign rows */
        size_t plane = stride * (size_t)h;
        size_t total = chw ? plane * (size_t)(cn - 1) + stride * (size_t)(h - 1) + row
                           : stride * (size_t)(h - 1) + row;
        guarded g = guarded_alloc(total);
        if (g.map == NULL) { CHECK(g.map != NULL); continue; }
        for (size_t i = 0; i < total; i++) g.data[i] = (char)pft_rand(&rng);
        int negative = !chw && iter % 4 == 1;
        pf_image src = chw ? pf_image_chw(g.data, w, h, cn, PF_U8, (ptrdiff_t)stride, (ptrdiff_t)plane)
                     : negative ? pf_image_hwc(g.data + stride * (size_t)(h - 1), w, h, cn, PF_U8,
                                               -(ptrdiff_t)stride)
                                : pf_image_hwc(g.data, w, h, cn, PF_U8, (ptrdiff_t)stride);
        size_t dn = (size_t)w * (size_t)h * (size_t)cn;
        uint8_t *ref = malloc(dn), *out = malloc(dn + 1);
        pf_image dref = chw ? pf_image_chw(ref, w, h, cn, PF_U8, 0, 0) : pf_image_hwc(ref, w, h, cn, PF_U8, 0);
        pf_image dout = chw ? pf_image_chw(out + 1, w, h, cn, PF_U8, 0, 0)
                            : pf_image_hwc(out + 1, w, h, cn, PF_U8, 0);
        pf_lut_opts o = pf_lut_opts_defaults();
        o.table_channels = tcn;
        pf_cpu_set_cap(PF_ISA_SCALAR);
        CHECK_STATUS(pf_lut(NULL, 1, &src, &dref, tables, &o), PF_OK);
        for (int l = 0; l < nlev; l++) {
            pf_cpu_set_cap(levels[l]);
            CHECK_STATUS(pf_lut(NULL, 1, &src, &dout, tables, &o), PF_OK);
            int same = memcmp(ref, out + 1, dn) == 0;
            if (!same)
                fprintf(stderr, "mismatch at %s: cn=%d tables=%d %dx%d chw=%d neg=%d\n",
                        pf_isa_name(levels[l]), cn, tcn, w, h, chw, negative);
            CHECK(same);
        }
        cases++;
        free(ref);
        free(out);
        guarded_free(g);
    }
    pf_cpu_set_cap(PF_ISA_NEON);
    printf("test_simd_lut: %d cases x %d SIMD levels compared with scalar\n", cases, nlev);
    return pft_summary("test_simd_lut");
}
