/* C-vs-SIMD harness for resize: at every ISA level this CPU has, pf_resize
 * must give the same bytes as the scalar reference, on random data, odd
 * widths, 1-byte-misaligned rows, negative strides, and sources that end
 * exactly at a page boundary followed by a PROT_NONE guard page (so any
 * over-read faults). Also checks that the dispatch really selected SIMD
 * kernels at each level (so the comparison is not reference-vs-reference). */
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "simd/simd_harness.h"
#include "test_util.h"

static const pf_interp k_interps[] = {PF_INTERP_NEAREST, PF_INTERP_LINEAR, PF_INTERP_CUBIC,
                                      PF_INTERP_AREA, PF_INTERP_LANCZOS4, PF_INTERP_NEAREST_EXACT};

static pf_isa g_levels[4];
static int g_nlev;

/* One case: the scalar reference vs every SIMD level on a guarded source. */
static int run_case(uint64_t *rng, pf_dtype dt, pf_interp ip, int aa, int cn, int sw, int sh, int dw, int dh,
                    int negative, pf_resize_flavor fl) {
    size_t es = pf_dtype_size(dt);
    size_t row = (size_t)sw * cn * es;
    int misalign = dt == PF_U8 ? 1 : 4;
    size_t stride = row + (size_t)misalign;       /* odd stride for u8 */
    size_t total = stride * (size_t)(sh - 1) + row;
    guarded g = guarded_alloc(total);
    if (g.map == NULL) { CHECK(g.map != NULL); return 0; }
    for (size_t i = 0; i < total; i++) g.data[i] = (char)pft_rand(rng);
    if (dt == PF_F32) /* finite floats */
        for (int y = 0; y < sh; y++)
            for (int x = 0; x < sw * cn; x++)
                ((float *)(void *)(g.data + (size_t)y * stride))[x] = (float)(pft_rand(rng) % 20000) * 0.05f;
    pf_image src = negative
        ? pf_image_hwc(g.data + stride * (size_t)(sh - 1), sw, sh, cn, dt, -(ptrdiff_t)stride)
        : pf_image_hwc(g.data, sw, sh, cn, dt, (ptrdiff_t)stride);
    /* negative: the first row is the last in memory; both end at the guard */
    size_t dn = (size_t)dw * dh * cn * es;
    char *ref = malloc(dn), *out = malloc(dn + 1);
    pf_image dref = pf_image_hwc(ref, dw, dh, cn, dt, 0);
    pf_image dout = pf_image_hwc(dt == PF_U8 ? out + 1 : out, dw, dh, cn, dt, 0);
    pf_resize_opts o = {ip, aa != 0, fl};
    pf_cpu_set_cap(PF_ISA_SCALAR);
    CHECK_STATUS(pf_resize(NULL, 1, &src, &dref, &o), PF_OK);
    for (int l = 0; l < g_nlev; l++) {
        pf_cpu_set_cap(g_levels[l]);
        /* poison: a byte a kernel fails to write must not keep the previous level's value */
        for (size_t i = 0; i < dn; i++) ((char *)dout.data)[i] = (char)(ref[i] ^ (0x5b + l));
        CHECK_STATUS(pf_resize(NULL, 1, &src, &dout, &o), PF_OK);
        int same = memcmp(ref, dout.data, dn) == 0;
        if (!same)
            fprintf(stderr, "mismatch at %s: %s cn=%d %dx%d->%dx%d interp=%d aa=%d flavor=%d neg=%d\n",
                    pf_isa_name(g_levels[l]), pf_dtype_name(dt), cn, sw, sh, dw, dh, (int)ip, aa, (int)fl, negative);
        CHECK(same);
    }
    free(ref);
    free(out);
    guarded_free(g);
    return 1;
}

int main(void) {
    pf_isa *levels = g_levels;
    int nlev = g_nlev = simd_levels(g_levels, "test_simd_resize");

    /* The dispatch must pick kernels of each level. */
    for (int l = 0; l < nlev; l++) {
        pf_cpu_set_cap(levels[l]);
        int at_level = slots_at("resize.", levels[l]);
        if (at_level == 0) fprintf(stderr, "no kernel dispatched at %s\n", pf_isa_name(levels[l]));
        CHECK(at_level > 0);
    }

    uint64_t rng = 0xfeedbeefull;
    int cases = 0;
    for (int iter = 0; iter < 360; iter++) {
        pf_dtype dt = iter % 5 < 3 ? PF_U8 : (iter % 5 == 3 ? PF_U16 : PF_F32);
        pf_interp ip = k_interps[pft_range(&rng, 0, 5)];
        int aa = pft_range(&rng, 0, 3) == 0;
        int cn = (int[]){1, 3, 4, 2}[pft_range(&rng, 0, 3)];
        int sw = pft_range(&rng, 1, 400), sh = pft_range(&rng, 1, 120);
        int dw, dh;
        switch (iter % 4) {
        case 0: dw = pft_range(&rng, 1, 400); dh = pft_range(&rng, 1, 120); break;
        case 1: dw = sw * 2 + 1; dh = sh + 3; break;                    /* upscale */
        case 2: dw = (sw + 1) / 2; dh = (sh + 1) / 2; break;            /* ~2x down */
        default: dw = sw / 5 + 1; dh = sh / 3 + 1; break;               /* strong down */
        }
        cases += run_case(&rng, dt, ip, aa, cn, sw, sh, dw, dh, iter % 3 == 0, PF_RESIZE_OPENCV);
        /* the torchvision flavour on the same shape (no AREA there; its
         * LANCZOS needs antialias) */
        pf_interp tip = ip == PF_INTERP_AREA ? PF_INTERP_CUBIC : ip;
        int taa = tip == PF_INTERP_LANCZOS4 ? 1 : (int)(iter / 2 % 2);
        cases += run_case(&rng, dt, tip, taa, cn, sw, sh, dw, dh, iter % 3 == 1, PF_RESIZE_TORCHVISION);
    }
    /* u8 shapes of the specialised kernels, every channel count:
     * LINEAR at scales that need 1, 2, 3, 4 and more than 4 permute windows
     * per 16 elements (and rows shorter than one window), exact 2x2 AREA
     * (and LINEAR 2x, OpenCV's shortcut to it) with even and odd sizes,
     * NEAREST up and down. */
    static const int k_scale_w[][2] = {{333, 500}, {500, 224}, {700, 224}, {1500, 224}, {1920, 224},
                                       {3000, 224}, {37, 20}, {15, 40}, {225, 224}};
    for (int c = 1; c <= 4; c++) {
        for (size_t k = 0; k < sizeof k_scale_w / sizeof k_scale_w[0]; k++)
            cases += run_case(&rng, PF_U8, PF_INTERP_LINEAR, 0, c, k_scale_w[k][0], 9, k_scale_w[k][1], 7,
                              (int)k % 2, PF_RESIZE_OPENCV);
        /* torchvision u8: the permute steps need one or two 128-byte
         * windows per tap pair up to strong downscales, then stop; pixel
         * pairs for 3/4 channels; both axes, antialias or not */
        for (size_t k = 0; k < sizeof k_scale_w / sizeof k_scale_w[0]; k++)
            for (int m = 0; m < 4; m++)
                cases += run_case(&rng, PF_U8, m / 2 ? PF_INTERP_CUBIC : PF_INTERP_LINEAR, m % 2, c,
                                  k_scale_w[k][0], 9 + (int)k, k_scale_w[k][1], 7 + 3 * (m % 2), (int)k % 2,
                                  PF_RESIZE_TORCHVISION);
        for (int w = 62; w <= 70; w += 1)
            cases += run_case(&rng, PF_U8, w % 2 ? PF_INTERP_AREA : PF_INTERP_LINEAR, 0, c, 2 * w + (w % 3 == 0),
                              6 + (w % 3 == 1), w, 3, w % 2, PF_RESIZE_OPENCV);
        cases += run_case(&rng, PF_U8, PF_INTERP_AREA, 0, c, 640, 8, 320, 4, 0, PF_RESIZE_OPENCV);
        for (size_t k = 0; k < sizeof k_scale_w / sizeof k_scale_w[0]; k++)
            cases += run_case(&rng, PF_U8, k % 2 ? PF_INTERP_NEAREST : PF_INTERP_NEAREST_EXACT, 0, c,
                              k_scale_w[k][0], 5, k_scale_w[k][1], 4, (int)k % 2, PF_RESIZE_OPENCV);
    }
    /* u8 1 channel near the edges of the x86 1-channel groups: rows of 16
     * bytes (the windows' minimum) and of one or two 16-tap chunks (the
     * dots' loads, moved back to end in the row), outputs of 1 to 9
     * pixels (a partial last group, a lane with no pixel), upscales too;
     * torchvision with and without antialias, Pillow antialias, OpenCV
     * LINEAR, CUBIC and LANCZOS4 (borders folded into consecutive taps) */
    static const int k_tv1_sw[] = {15, 16, 17, 31, 32, 33, 47, 48, 49};
    static const int k_tv1_dw[] = {1, 2, 3, 4, 5, 7, 8, 9, 40};
    for (size_t a = 0; a < sizeof k_tv1_sw / sizeof k_tv1_sw[0]; a++)
        for (size_t b = 0; b < sizeof k_tv1_dw / sizeof k_tv1_dw[0]; b++) {
            pf_interp ip = b % 2 ? PF_INTERP_CUBIC : PF_INTERP_LINEAR;
            int neg = (int)(a + b) % 2;
            cases += run_case(&rng, PF_U8, ip, 1, 1, k_tv1_sw[a], 5, k_tv1_dw[b], 3, neg, PF_RESIZE_TORCHVISION);
            cases += run_case(&rng, PF_U8, ip, 0, 1, k_tv1_sw[a], 5, k_tv1_dw[b], 3, neg, PF_RESIZE_TORCHVISION);
            cases += run_case(&rng, PF_U8, ip, 1, 1, k_tv1_sw[a], 5, k_tv1_dw[b], 3, neg, PF_RESIZE_OPENCV);
            cases += run_case(&rng, PF_U8, b % 2 ? PF_INTERP_LINEAR : PF_INTERP_LANCZOS4, 0, 1, k_tv1_sw[a], 5,
                              k_tv1_dw[b], 3, neg, PF_RESIZE_OPENCV);
            cases += run_case(&rng, PF_U8, PF_INTERP_CUBIC, 0, 1, k_tv1_sw[a], 5, k_tv1_dw[b], 3, neg,
                              PF_RESIZE_OPENCV);
        }
    pf_cpu_set_cap(PF_ISA_NEON); /* uncapped */
    printf("test_simd_resize: %d cases x %d SIMD levels compared with scalar\n", cases, nlev);
    return pft_summary("test_simd_resize");
}
