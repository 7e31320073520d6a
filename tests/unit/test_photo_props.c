/* Properties of the photometric ops: identities (factor 1 for brightness,
 * contrast and saturation; hue 0 within rounding; invert twice), Philox
 * known-answer vectors (Random123 kat_vectors), noise determinism (thread
 * count, batch position with sample ids, layout), statistics of the
 * normals, erase painting order and in place. */
#include <math.h>
#include <stdlib.h>

#include "kernels/philox.h"
#include "pixflow/pixflow.h"
#include "test_util.h"

#define W 67
#define H 23

static void fill_u8(uint8_t *p, size_t n, uint64_t *rng) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)pft_rand(rng);
}

static void philox_kat(void) {
    static const uint32_t kat[3][10] = {
        {0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
        {~0u, ~0u, ~0u, ~0u, ~0u, ~0u, 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
        {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09, 0x94fdcceb,
         0x5001e420, 0x24126ea1}};
    for (int t = 0; t < 3; t++) {
        pfk_u32x4 r = pfk_philox4x32_10(kat[t], kat[t][4], kat[t][5]);
        for (int k = 0; k < 4; k++) CHECK(r.v[k] == kat[t][6 + k]);
    }
}

int main(void) {
    philox_kat();
    uint64_t rng = 99;
    size_t n3 = (size_t)W * H * 3;
    uint8_t *a = malloc(n3), *b = malloc(n3), *c = malloc(n3);
    float *fa = malloc(n3 * 4), *fb = malloc(n3 * 4);
    fill_u8(a, n3, &rng);
    for (size_t i = 0; i < n3; i++) fa[i] = (float)(pft_rand(&rng) % 1000001) / 1000000.0f;
    pf_image ia = pf_image_hwc(a, W, H, 3, PF_U8, 0), ib = pf_image_hwc(b, W, H, 3, PF_U8, 0);
    pf_image ic = pf_image_hwc(c, W, H, 3, PF_U8, 0);
    pf_image fia = pf_image_hwc(fa, W, H, 3, PF_F32, 0), fib = pf_image_hwc(fb, W, H, 3, PF_F32, 0);
    double one = 1.0, zero = 0.0;

    /* factor 1 is the identity (u8 exactly; f32 exactly: x*1 + y*0) */
    CHECK_STATUS(pf_adjust_brightness(NULL, 1, &ia, &ib, &one, 1), PF_OK);
    CHECK(memcmp(a, b, n3) == 0);
    CHECK_STATUS(pf_adjust_contrast(NULL, 1, &ia, &ib, &one, 1), PF_OK);
    CHECK(memcmp(a, b, n3) == 0);
    CHECK_STATUS(pf_adjust_saturation(NULL, 1, &ia, &ib, &one, 1), PF_OK);
    CHECK(memcmp(a, b, n3) == 0);
    CHECK_STATUS(pf_adjust_saturation(NULL, 1, &fia, &fib, &one, 1), PF_OK);
    CHECK(memcmp(fa, fb, n3 * 4) == 0);
    CHECK_STATUS(pf_adjust_contrast(NULL, 1, &fia, &fib, &one, 1), PF_OK);
    CHECK(memcmp(fa, fb, n3 * 4) == 0);
    /* hue 0: the HSV round trip moves u8 values by at most 1 */
    CHECK_STATUS(pf_adjust_hue(NULL, 1, &ia, &ib, &zero, 1), PF_OK);
    int maxd = 0;
    for (size_t i = 0; i < n3; i++) maxd = abs((int)a[i] - (int)b[i]) > maxd ? abs((int)a[i] - (int)b[i]) : maxd;
    CHECK(maxd <= 1);
    CHECK_STATUS(pf_adjust_hue(NULL, 1, &fia, &fib, &zero, 1), PF_OK);
    float fmaxd = 0;
    for (size_t i = 0; i < n3; i++) fmaxd = fabsf(fa[i] - fb[i]) > fmaxd ? fabsf(fa[i] - fb[i]) : fmaxd;
    CHECK(fmaxd < 1e-6f);
    /* saturation 0 = grayscale (floored) in every channel */
    CHECK_STATUS(pf_adjust_saturation(NULL, 1, &ia, &ib, &zero, 1), PF_OK);
    CHECK_STATUS(pf_rgb_to_grayscale(NULL, 1, &ia, &ic), PF_OK);
    CHECK(memcmp(b, c, n3) == 0);
    /* invert twice; in place */
    memcpy(b, a, n3);
    CHECK_STATUS(pf_invert(NULL, 1, &ib, &ib), PF_OK);
    CHECK((int)b[0] == 255 - (int)a[0]);
    CHECK_STATUS(pf_invert(NULL, 1, &ib, &ib), PF_OK);
    CHECK(memcmp(a, b, n3) == 0);
    /* solarize at 0 = invert; posterize 8 = identity; gamma 1 = identity */
    CHECK_STATUS(pf_solarize(NULL, 1, &ia, &ib, &zero, 1), PF_OK);
    CHECK((int)b[5] == 255 - (int)a[5]);
    int eight = 8;
    CHECK_STATUS(pf_posterize(NULL, 1, &ia, &ib, &eight, 1), PF_OK);
    CHECK(memcmp(a, b, n3) == 0);
    CHECK_STATUS(pf_adjust_gamma(NULL, 1, &ia, &ib, &one, NULL, 1), PF_OK);
    CHECK(memcmp(a, b, n3) == 0);

    /* noise: same bytes on 1 and 3 threads, batch position irrelevant with
     * sample ids, and HWC == CHW element by element */
    pf_stream *st3 = NULL;
    CHECK_STATUS(pf_stream_create_cpu(3, &st3), PF_OK);
    double mean = 0.0, sigma = 0.2;
    pf_noise_opts o = pf_noise_opts_defaults();
    o.seed = 0x1234567890abcdefull;
    uint64_t ids[2] = {77, 5};
    o.sample_ids = ids;
    pf_image pair_src[2] = {ia, ia}, pair_dst[2] = {ib, ic};
    CHECK_STATUS(pf_gaussian_noise(NULL, 2, pair_src, pair_dst, &mean, &sigma, 1, &o), PF_OK);
    uint8_t *b2 = malloc(n3), *c2 = malloc(n3);
    pf_image ib2 = pf_image_hwc(b2, W, H, 3, PF_U8, 0), ic2 = pf_image_hwc(c2, W, H, 3, PF_U8, 0);
    uint64_t ids_sw[2] = {5, 77};
    o.sample_ids = ids_sw;
    pf_image sw_dst[2] = {ic2, ib2};
    CHECK_STATUS(pf_gaussian_noise(st3, 2, pair_src, sw_dst, &mean, &sigma, 1, &o), PF_OK);
    CHECK(memcmp(b, b2, n3) == 0 && memcmp(c, c2, n3) == 0);
    CHECK(memcmp(b, c, n3) != 0); /* different ids, different noise */
    o.sample_ids = NULL;
    /* CHW view of the same data */
    uint8_t *pa = malloc(n3), *pb = malloc(n3);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int ch = 0; ch < 3; ch++) pa[(size_t)ch * W * H + (size_t)y * W + (size_t)x] = a[((size_t)y * W + (size_t)x) * 3 + (size_t)ch];
    pf_image pca = pf_image_chw(pa, W, H, 3, PF_U8, 0, 0), pcb = pf_image_chw(pb, W, H, 3, PF_U8, 0, 0);
    CHECK_STATUS(pf_gaussian_noise(NULL, 1, &ia, &ib, &mean, &sigma, 1, &o), PF_OK);
    CHECK_STATUS(pf_gaussian_noise(NULL, 1, &pca, &pcb, &mean, &sigma, 1, &o), PF_OK);
    int chw_same = 1;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int ch = 0; ch < 3; ch++)
                chw_same &= pb[(size_t)ch * W * H + (size_t)y * W + (size_t)x] == b[((size_t)y * W + (size_t)x) * 3 + (size_t)ch];
    CHECK(chw_same);
    /* statistics of the normals: mean ~ 0, variance ~ 1 over 2^20 draws */
    {
        size_t nn = 1u << 20;
        float *z0 = calloc(nn, 4), *z1 = malloc(nn * 4);
        pf_image zs = pf_image_hwc(z0, 1024, 1024, 1, PF_F32, 0), zd = pf_image_hwc(z1, 1024, 1024, 1, PF_F32, 0);
        double s1 = 1.0;
        o.clip = false;
        CHECK_STATUS(pf_gaussian_noise(st3, 1, &zs, &zd, &zero, &s1, 1, &o), PF_OK);
        double m1 = 0, m2 = 0;
        for (size_t i = 0; i < nn; i++) { m1 += (double)z1[i]; m2 += (double)z1[i] * (double)z1[i]; }
        m1 /= (double)nn;
        m2 = m2 / (double)nn - m1 * m1;
        CHECK(fabs(m1) < 0.005);
        CHECK(fabs(m2 - 1.0) < 0.01);
        free(z0);
        free(z1);
    }
    /* erase: later rectangles paint over earlier ones; in place keeps the rest */
    memcpy(b, a, n3);
    pf_erase_rect rr[2] = {{1, 1, 4, 3, {10, 20, 30, 0}}, {3, 2, 5, 5, {300, -4, 7.5, 0}}};
    int32_t cnt = 2;
    CHECK_STATUS(pf_erase(NULL, 1, &ib, &ib, rr, &cnt, 1), PF_OK);
    CHECK(b[(1 * W + 1) * 3] == 10 && b[(1 * W + 1) * 3 + 2] == 30);
    CHECK(b[(2 * W + 3) * 3] == 255 && b[(2 * W + 3) * 3 + 1] == 0 && b[(2 * W + 3) * 3 + 2] == 8);
    CHECK(b[0] == a[0] && b[n3 - 1] == a[n3 - 1]);
    pf_stream_destroy(st3);
    free(a); free(b); free(c); free(b2); free(c2); free(fa); free(fb); free(pa); free(pb);
    return pft_summary("test_photo_props");
}
