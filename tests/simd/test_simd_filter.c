/* C-vs-SIMD harness for the filter kernels: every op that has SIMD row
 * kernels (Gaussian u8 32- and 16-bit vertical passes, u16 and f32 passes, box
 * u8 and f32, erode / dilate u8, u16 and f32 (separable and windows from
 * iterations > 1), 3x3 and 5x5 median u8, filter_2d u8 and f32, sharpen
 * u8 and f32) runs at every ISA level and must equal the scalar reference
 * bit for bit (f32 included: the SIMD kernels keep the reference's
 * operation order); widths around the vector sizes (1..200 and wide rows that take
 * several column strips), 1..4 channels and CHW planes, misaligned and
 * negative-stride sources, sources ending at a guard page (proving the
 * overlapped last vector never reads past a row), all borders. */
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "simd/simd_harness.h"
#include "test_util.h"

enum { OP_GAUSS, OP_GAUSS_F32, OP_BOX, OP_ERODE, OP_DILATE, OP_MEDIAN, OP_CONV, OP_SHARPEN, OP_COUNT };
static const char *const k_names[OP_COUNT] = {"gaussian", "gaussian f32", "box",       "erode",
                                              "dilate",   "median",       "filter_2d", "sharpen"};

static pf_status run_op(int op, uint64_t *rng, const pf_image *src, pf_image *dst, const float *kern) {
    pf_border border = (pf_border)pft_range(rng, 0, 3);
    if (border == PF_BORDER_WRAP) border = PF_BORDER_REFLECT_101;
    switch (op) {
    case OP_GAUSS:
    case OP_GAUSS_F32: {
        pf_gaussian_params gp;
        pf_gaussian_params_defaults(&gp);
        static const int32_t ks[] = {3, 5, 3, 5, 7, 1, 9};
        gp.ksize_x = ks[pft_range(rng, 0, 6)];
        gp.ksize_y = ks[pft_range(rng, 0, 6)];
        if (pft_range(rng, 0, 2) == 0) gp.sigma_x = 0.5 + pft_range(rng, 0, 30) / 10.0;
        gp.border = border;
        return pf_gaussian_blur(NULL, 1, src, dst, &gp, 1);
    }
    case OP_BOX: {
        pf_box_params bp;
        pf_box_params_defaults(&bp);
        bp.ksize_x = pft_range(rng, 1, 7);
        bp.ksize_y = pft_range(rng, 1, 7);
        bp.border = border;
        return pf_box_blur(NULL, 1, src, dst, &bp, 1);
    }
    case OP_ERODE:
    case OP_DILATE: {
        pf_morph_params mp;
        pf_morph_params_defaults(&mp);
        mp.ksize_x = pft_range(rng, 1, 5);
        mp.ksize_y = pft_range(rng, 1, 5);
        if (pft_range(rng, 0, 3) == 0) mp.iterations = pft_range(rng, 2, 3);
        if (pft_range(rng, 0, 2) == 0) mp.anchor_x = pft_range(rng, 0, mp.ksize_x - 1);
        mp.border = border;
        return op == OP_ERODE ? pf_erode(NULL, 1, src, dst, &mp, 1) : pf_dilate(NULL, 1, src, dst, &mp, 1);
    }
    case OP_MEDIAN: {
        int32_t k = pft_range(rng, 0, 1) ? 3 : 5;
        return pf_median_blur(NULL, 1, src, dst, &k, 1);
    }
    case OP_CONV: {
        pf_filter2d_params fp;
        pf_filter2d_params_defaults(&fp);
        fp.kernel = kern;
        fp.ksize_x = pft_range(rng, 1, 4);
        fp.ksize_y = pft_range(rng, 1, 4);
        fp.delta = pft_range(rng, -5, 5);
        fp.border = border;
        return pf_filter_2d(NULL, 1, src, dst, &fp, 1);
    }
    default: {
        float f = (float)pft_range(rng, 0, 40) / 10.0f;
        return pf_sharpen(NULL, 1, src, dst, &f, 1);
    }
    }
}

int main(void) {
    pf_isa levels[4];
    int nlev = simd_levels(levels, "test_simd_filter");
    if (!(pf_cpu_features() & PF_CPU_NEON)) CHECK(family_levels_ok("filter.", levels, nlev, PF_ISA_AVX2));
    uint64_t rng = 4242;
    float kern[16];
    for (int i = 0; i < 16; i++) kern[i] = (float)pft_range(&rng, -100, 100) / 64.0f;
    for (int iter = 0; iter < 640; iter++) {
        int op = iter % OP_COUNT;
        /* u8 on even rounds, f32 on odd ones (every op has f32 kernels), */
        pf_dtype dt = op == OP_GAUSS_F32 || (iter / OP_COUNT) % 2 ? PF_F32 : PF_U8;
        /* and u16 on every third even round for the ops that take it */
        if (dt == PF_U8 && (iter / OP_COUNT) % 6 == 2 && op != OP_CONV && op != OP_SHARPEN) dt = PF_U16;
        size_t es = pf_dtype_size(dt);
        int cn = pft_range(&rng, 1, 4);
        int chw = cn > 1 && iter % 9 == 4;
        int w = iter < 320 ? iter / 2 % 200 + 1 : pft_range(&rng, 1, 1400), h = pft_range(&rng, 1, 9);
        int pcn = chw ? 1 : cn, planes = chw ? cn : 1;
        size_t row = (size_t)w * (size_t)pcn * es;
        size_t stride = row + (size_t)(iter % 3) * es;
        size_t plane = stride * (size_t)h;
        size_t total = plane * (size_t)planes;
        guarded g = guarded_alloc(total);
        if (g.map == NULL) {
            CHECK(g.map != NULL);
            continue;
        }
        for (size_t i = 0; i < total; i++) g.data[i] = (char)pft_rand(&rng);
        if (dt == PF_F32)
            for (size_t i = 0; i + 4 <= total; i += 4) {
                float v = (float)(pft_rand(&rng) % 100000) / 1000.0f;
                uint32_t qnan = 0x7fc00000u; /* some NaNs: min / max / clamps must treat them as the reference */
                if (iter % 4 == 1 && pft_rand(&rng) % 64 == 0) memcpy(&v, &qnan, 4);
                memcpy(g.data + i, &v, 4);
            }
        int negative = iter % 5 == 2 && !chw;
        pf_image src;
        if (chw) src = pf_image_chw(g.data, w, h, cn, dt, (ptrdiff_t)stride, (ptrdiff_t)plane);
        else if (negative)
            src = pf_image_hwc(g.data + stride * (size_t)(h - 1), w, h, cn, dt, -(ptrdiff_t)stride);
        else src = pf_image_hwc(g.data, w, h, cn, dt, (ptrdiff_t)stride);
        size_t dn = row * (size_t)h * (size_t)planes;
        char *ref = malloc(dn), *out = malloc(dn + es);
        pf_image dref = chw ? pf_image_chw(ref, w, h, cn, dt, (ptrdiff_t)row, (ptrdiff_t)(row * (size_t)h))
                            : pf_image_hwc(ref, w, h, cn, dt, 0);
        pf_image dout = chw ? pf_image_chw(out + es, w, h, cn, dt, (ptrdiff_t)row, (ptrdiff_t)(row * (size_t)h))
                            : pf_image_hwc(out + es, w, h, cn, dt, 0);
        uint64_t seed = rng;
        pf_cpu_set_cap(PF_ISA_SCALAR);
        uint64_t r0 = seed;
        CHECK_STATUS(run_op(op, &r0, &src, &dref, kern), PF_OK);
        for (int l = 0; l < nlev; l++) {
            pf_cpu_set_cap(levels[l]);
            uint64_t r1 = seed; /* same parameters */
            CHECK_STATUS(run_op(op, &r1, &src, &dout, kern), PF_OK);
            int ok = memcmp(ref, out + es, dn) == 0;
            if (!ok)
                fprintf(stderr, "%s mismatch at %s: cn=%d chw=%d w=%d h=%d neg=%d\n", k_names[op],
                        pf_isa_name(levels[l]), cn, chw, w, h, negative);
            CHECK(ok);
        }
        rng = r0;
        free(ref);
        free(out);
        guarded_free(g);
    }
    pf_cpu_set_cap(PF_ISA_NEON);
    return pft_summary("test_simd_filter");
}
