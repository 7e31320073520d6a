/*
 * pf_aug_sample / pf_aug_policy_defaults: determinism (same key -> same
 * parameters; any first_index/count split; run to run via golden values),
 * the documented Philox keying layout, epochs/seeds/indices giving
 * different draws, eval crop arithmetic, RandomResizedCrop fallback,
 * parameter ranges, the deterministic exp/log, and bad arguments (each
 * named, nothing written). Distributions against torchvision are in
 * tests/python/test_sampler_distributions.py.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "augment/aug_stream.h"
#include "pixflow/augment.h"
#include "test_util.h"

static int params_eq(const pf_aug_params *a, const pf_aug_params *b) {
    return a->crop_x == b->crop_x && a->crop_y == b->crop_y && a->crop_w == b->crop_w && a->crop_h == b->crop_h &&
           a->flip_h == b->flip_h && a->flip_v == b->flip_v && a->affine == b->affine && a->angle == b->angle &&
           a->translate_x == b->translate_x && a->translate_y == b->translate_y && a->scale == b->scale &&
           a->shear_x == b->shear_x && a->shear_y == b->shear_y && a->brightness == b->brightness &&
           a->contrast == b->contrast && a->saturation == b->saturation && a->hue == b->hue &&
           memcmp(a->jitter_order, b->jitter_order, 4) == 0 && a->grayscale == b->grayscale && a->gamma == b->gamma;
}

/* Everything on: RRC, both flips, ColorJitter 0.4/0.4/0.4/0.1, gray, affine. */
static pf_aug_policy full_policy(void) {
    pf_aug_policy p = pf_aug_policy_defaults();
    p.random_resized_crop = true;
    p.hflip_p = 0.5f;
    p.vflip_p = 0.25f;
    p.color_jitter = true;
    p.brightness[0] = p.contrast[0] = p.saturation[0] = 0.6f;
    p.brightness[1] = p.contrast[1] = p.saturation[1] = 1.4f;
    p.hue[0] = -0.1f;
    p.hue[1] = 0.1f;
    p.grayscale_p = 0.1f;
    p.random_affine = true;
    p.degrees[0] = -30.0f;
    p.degrees[1] = 30.0f;
    p.translate[0] = 0.1f;
    p.translate[1] = 0.2f;
    p.scale_range[0] = 0.8f;
    p.scale_range[1] = 1.2f;
    p.shear[0] = -10.0f;
    p.shear[1] = 10.0f;
    p.shear[2] = -5.0f;
    p.shear[3] = 5.0f;
    p.affine_width = p.affine_height = 224;
    return p;
}

enum { N = 1000 };
static int32_t g_w[N], g_h[N];

static void make_sizes(void) {
    uint64_t s = 77;
    for (int i = 0; i < N; i++) {
        g_w[i] = pft_range(&s, 1, 2000);
        g_h[i] = pft_range(&s, 1, 2000);
    }
    g_w[0] = 500, g_h[0] = 375;
}

static void test_defaults(void) {
    pf_aug_policy p = pf_aug_policy_defaults();
    pf_aug_params o;
    int32_t w = 640, h = 480;
    CHECK_STATUS(pf_aug_sample(&p, 1, 0, 0, 1, &w, &h, &o), PF_OK);
    CHECK(o.crop_x == 0 && o.crop_y == 0 && o.crop_w == 640 && o.crop_h == 480);
    CHECK(!o.flip_h && !o.flip_v && !o.affine && !o.grayscale);
    CHECK(o.brightness == 1.0f && o.contrast == 1.0f && o.saturation == 1.0f && o.hue == 0.0f && o.gamma == 1.0f);
    CHECK(o.scale == 1.0f && o.angle == 0.0f);
    CHECK(o.jitter_order[0] == 0 && o.jitter_order[1] == 1 && o.jitter_order[2] == 2 && o.jitter_order[3] == 3);
}

/* Same (seed, epoch, index) -> same parameters, for one call, repeated
 * calls, and random first_index/count splits of the same range. */
static void test_split_and_repeat(void) {
    pf_aug_policy p = full_policy();
    static pf_aug_params whole[N], again[N], split[N];
    CHECK_STATUS(pf_aug_sample(&p, 1234, 7, 5000, N, g_w, g_h, whole), PF_OK);
    CHECK_STATUS(pf_aug_sample(&p, 1234, 7, 5000, N, g_w, g_h, again), PF_OK);
    uint64_t s = 9;
    for (int at = 0; at < N;) {
        int n = pft_range(&s, 1, 97);
        if (n > N - at) n = N - at;
        CHECK_STATUS(pf_aug_sample(&p, 1234, 7, 5000 + (uint64_t)at, n, g_w + at, g_h + at, split + at), PF_OK);
        at += n;
    }
    int same_again = 0, same_split = 0;
    for (int i = 0; i < N; i++) {
        same_again += params_eq(&whole[i], &again[i]);
        same_split += params_eq(&whole[i], &split[i]);
    }
    CHECK(same_again == N);
    CHECK(same_split == N);
    /* one sample alone, far from its batch */
    pf_aug_params one;
    CHECK_STATUS(pf_aug_sample(&p, 1234, 7, 5000 + 321, 1, &g_w[321], &g_h[321], &one), PF_OK);
    CHECK(params_eq(&one, &whole[321]));
}

/* Different epochs, seeds and indices give different crops. */
static void test_keys_differ(void) {
    pf_aug_policy p = full_policy();
    static pf_aug_params a[N], b[N], c[N];
    int32_t w[N], h[N];
    for (int i = 0; i < N; i++) w[i] = 500, h[i] = 375;
    CHECK_STATUS(pf_aug_sample(&p, 42, 0, 0, N, w, h, a), PF_OK);
    CHECK_STATUS(pf_aug_sample(&p, 42, 1, 0, N, w, h, b), PF_OK);
    CHECK_STATUS(pf_aug_sample(&p, 43, 0, 0, N, w, h, c), PF_OK);
    int same_epoch = 0, same_seed = 0, same_next = 0;
    for (int i = 0; i < N; i++) {
        same_epoch += a[i].crop_x == b[i].crop_x && a[i].crop_y == b[i].crop_y && a[i].crop_w == b[i].crop_w;
        same_seed += a[i].crop_x == c[i].crop_x && a[i].crop_y == c[i].crop_y && a[i].crop_w == c[i].crop_w;
        if (i + 1 < N) same_next += a[i].crop_x == a[i + 1].crop_x && a[i].crop_w == a[i + 1].crop_w;
    }
    CHECK(same_epoch < N / 50);
    CHECK(same_seed < N / 50);
    CHECK(same_next < N / 50);
    /* the high halves of the seed and the index are part of the key */
    pf_aug_params x, y;
    CHECK_STATUS(pf_aug_sample(&p, 42, 0, 3, 1, w, h, &x), PF_OK);
    CHECK_STATUS(pf_aug_sample(&p, 42 + (1ull << 32), 0, 3, 1, w, h, &y), PF_OK);
    CHECK(!params_eq(&x, &y));
    CHECK_STATUS(pf_aug_sample(&p, 42, 0, 3 + (1ull << 32), 1, w, h, &y), PF_OK);
    CHECK(!params_eq(&x, &y));
    /* the largest epoch and index are accepted */
    CHECK_STATUS(pf_aug_sample(&p, 42, UINT32_MAX, UINT64_MAX, 1, w, h, &y), PF_OK);
}

/* The documented layout: the horizontal flip of sample i is
 * u01(word 0 of Philox(key = seed, ctr = (i lo, i hi, epoch, 2 << 16 | 0))) < p. */
static void test_keying_layout(void) {
    pf_aug_policy p = pf_aug_policy_defaults();
    p.hflip_p = 0.5f;
    static pf_aug_params o[N];
    uint64_t seed = 0x0123456789abcdefull, first = 0xfffffff0ull;
    uint32_t epoch = 3;
    CHECK_STATUS(pf_aug_sample(&p, seed, epoch, first, N, g_w, g_h, o), PF_OK);
    int agree = 0;
    for (int i = 0; i < N; i++) {
        uint64_t idx = first + (uint64_t)i;
        uint32_t ctr[4] = {(uint32_t)idx, (uint32_t)(idx >> 32), epoch, 2u << 16};
        pfk_u32x4 r = pfk_philox4x32_10(ctr, (uint32_t)seed, (uint32_t)(seed >> 32));
        agree += o[i].flip_h == (pfk_u01(r.v[0]) < 0.5f);
    }
    CHECK(agree == N);
}

/* Golden values: the parameters are a documented function of the key and
 * must not change between runs, builds, ISA caps or releases (a change
 * here changes every user's augmentation stream). */
typedef struct golden {
    int32_t x, y, w, h;
    bool fh, fv;
    float brightness, hue;
    int8_t order[4];
    bool gray;
    float angle, tx, scale;
} golden;

static void test_golden(void) {
    static const golden want[3] = {
        {100, 15, 371, 359, 0, 1, 0x1.baf9cp-1f, 0x1.62024cp-5f, {3, 0, 1, 2}, 0, -0x1.70dfa6p+4f, -0x1.2p+3f, 0x1.d8a1ap-1f},
        {644, 272, 737, 613, 1, 1, 0x1.3ef136p+0f, 0x1.f5ad8p-9f, {1, 2, 3, 0}, 0, 0x1.c7caccp+4f, -0x1p+2f, 0x1.9d8ee2p-1f},
        {30, 78, 166, 138, 0, 1, 0x1.3c28b8p+0f, 0x1.40dea4p-5f, {3, 0, 1, 2}, 0, 0x1.22d36p+3f, 0x1p+1f, 0x1.21fdf2p+0f},
    };
    pf_aug_policy p = full_policy();
    pf_aug_params o[3];
    int32_t w[3] = {500, 1920, 224}, h[3] = {375, 1080, 224};
    CHECK_STATUS(pf_aug_sample(&p, 2024, 5, 100, 3, w, h, o), PF_OK);
    for (int i = 0; i < 3; i++) {
        const golden *g = &want[i];
        int ok = o[i].crop_x == g->x && o[i].crop_y == g->y && o[i].crop_w == g->w && o[i].crop_h == g->h &&
                 o[i].flip_h == g->fh && o[i].flip_v == g->fv && o[i].brightness == g->brightness &&
                 o[i].hue == g->hue && memcmp(o[i].jitter_order, g->order, 4) == 0 && o[i].grayscale == g->gray &&
                 o[i].angle == g->angle && o[i].translate_x == g->tx && o[i].scale == g->scale;
        CHECK(ok);
        if (!ok)
            printf("golden[%d] now = {%d, %d, %d, %d, %d, %d, %a, %a, {%d, %d, %d, %d}, %d, %a, %a, %a}\n", i,
                   o[i].crop_x, o[i].crop_y, o[i].crop_w, o[i].crop_h, o[i].flip_h, o[i].flip_v,
                   (double)o[i].brightness, (double)o[i].hue, o[i].jitter_order[0], o[i].jitter_order[1],
                   o[i].jitter_order[2], o[i].jitter_order[3], o[i].grayscale, (double)o[i].angle,
                   (double)o[i].translate_x, (double)o[i].scale);
    }
}

/* Resize(shorter 256) + CenterCrop(224) as a source rect, worked by hand:
 * 500x375 -> 341x256 (int(256 * 500 / 375) = 341), offsets round(58.5) = 58
 * (half to even) and 16, mapped back: x [58, 282) * 500/341 -> [85.04,
 * 413.49) -> [85, 413); y [16, 240) * 375/256 -> [23.44, 351.56) -> [23, 352). */
static void test_eval_crop(void) {
    pf_aug_policy p = pf_aug_policy_defaults();
    p.resize_shorter = 256;
    p.center_crop_w = p.center_crop_h = 224;
    int32_t w[4] = {500, 375, 224, 1000}, h[4] = {375, 500, 224, 10};
    pf_aug_params o[4];
    CHECK_STATUS(pf_aug_sample(&p, 0, 0, 0, 4, w, h, o), PF_OK);
    CHECK(o[0].crop_x == 85 && o[0].crop_y == 23 && o[0].crop_w == 328 && o[0].crop_h == 329);
    CHECK(o[1].crop_x == 23 && o[1].crop_y == 85 && o[1].crop_w == 329 && o[1].crop_h == 328); /* transposed */
    /* 224 -> 256, offset 16: [16, 240) * 224/256 = [14, 210) */
    CHECK(o[2].crop_x == 14 && o[2].crop_y == 14 && o[2].crop_w == 196 && o[2].crop_h == 196);
    /* 1000x10 -> 25600x256: x offset 12688 -> [495.6, 504.4) -> [496, 504);
     * y [16, 240) * 10/256 = [0.625, 9.375) -> [1, 9) */
    CHECK(o[3].crop_x == 496 && o[3].crop_w == 8 && o[3].crop_y == 1 && o[3].crop_h == 8);
    CHECK(!o[0].flip_h && !o[0].affine);
    /* CenterCrop alone is exact; larger than the image: clamped (torchvision pads) */
    p.resize_shorter = 0;
    w[0] = 300, h[0] = 200;
    CHECK_STATUS(pf_aug_sample(&p, 0, 0, 0, 1, w, h, o), PF_OK);
    CHECK(o[0].crop_x == 38 && o[0].crop_w == 224 && o[0].crop_y == 0 && o[0].crop_h == 200);
    /* Resize alone: the whole image */
    p.resize_shorter = 256;
    p.center_crop_w = p.center_crop_h = 0;
    CHECK_STATUS(pf_aug_sample(&p, 0, 0, 0, 1, w, h, o), PF_OK);
    CHECK(o[0].crop_x == 0 && o[0].crop_y == 0 && o[0].crop_w == 300 && o[0].crop_h == 200);
    CHECK(o[0].resize_w == 0 && o[0].resize_h == 0);

    /* the torchvision flavour: resize-then-crop, the whole image resized by
     * torchvision's rule and the window at CenterCrop's anchor (the same
     * numbers as above, before the mapping back) */
    p.flavor = PF_RESIZE_TORCHVISION;
    p.center_crop_w = p.center_crop_h = 224;
    w[0] = 500, h[0] = 375;
    CHECK_STATUS(pf_aug_sample(&p, 0, 0, 0, 4, w, h, o), PF_OK);
    CHECK(o[0].crop_x == 0 && o[0].crop_y == 0 && o[0].crop_w == 500 && o[0].crop_h == 375);
    CHECK(o[0].resize_w == 341 && o[0].resize_h == 256 && o[0].window_x == 58 && o[0].window_y == 16);
    CHECK(o[1].resize_w == 256 && o[1].resize_h == 341 && o[1].window_x == 16 && o[1].window_y == 58);
    CHECK(o[2].resize_w == 256 && o[2].resize_h == 256 && o[2].window_x == 16 && o[2].window_y == 16);
    CHECK(o[3].resize_w == 25600 && o[3].resize_h == 256 && o[3].window_x == 12688 && o[3].window_y == 16);
    /* a centre crop larger than the resized image keeps the source rect */
    p.resize_shorter = 0;
    w[0] = 300, h[0] = 200;
    CHECK_STATUS(pf_aug_sample(&p, 0, 0, 0, 1, w, h, o), PF_OK);
    CHECK(o[0].resize_w == 0 && o[0].crop_x == 38 && o[0].crop_w == 224 && o[0].crop_h == 200);
}

/* RandomResizedCrop on a 1000x10 strip never fits (h >= sqrt(800 * 3/4) >
 * 10), so every sample takes the centre fallback: h = 10, w = round(10 *
 * 4/3) = 13, x = (1000 - 13) // 2 = 493. */
static void test_rrc_fallback_and_bounds(void) {
    pf_aug_policy p = full_policy();
    static pf_aug_params o[N];
    int32_t w[N], h[N];
    for (int i = 0; i < N; i++) w[i] = 1000, h[i] = 10;
    CHECK_STATUS(pf_aug_sample(&p, 5, 0, 0, N, w, h, o), PF_OK);
    int fallback = 0;
    for (int i = 0; i < N; i++) fallback += o[i].crop_x == 493 && o[i].crop_y == 0 && o[i].crop_w == 13 && o[i].crop_h == 10;
    CHECK(fallback == N);
    /* random sizes: crops inside the image, factors in range, orders permutations */
    CHECK_STATUS(pf_aug_sample(&p, 6, 1, 0, N, g_w, g_h, o), PF_OK);
    int inside = 0, ranges = 0, perms = 0;
    for (int i = 0; i < N; i++) {
        inside += o[i].crop_x >= 0 && o[i].crop_y >= 0 && o[i].crop_w >= 1 && o[i].crop_h >= 1 &&
                  o[i].crop_x + o[i].crop_w <= g_w[i] && o[i].crop_y + o[i].crop_h <= g_h[i];
        ranges += o[i].brightness >= 0.6f && o[i].brightness <= 1.4f && o[i].contrast >= 0.6f &&
                  o[i].contrast <= 1.4f && o[i].saturation >= 0.6f && o[i].saturation <= 1.4f &&
                  o[i].hue >= -0.1f && o[i].hue <= 0.1f && o[i].angle >= -30.0f && o[i].angle <= 30.0f &&
                  o[i].scale >= 0.8f && o[i].scale <= 1.2f && o[i].shear_x >= -10.0f && o[i].shear_x <= 10.0f &&
                  o[i].shear_y >= -5.0f && o[i].shear_y <= 5.0f && o[i].affine && o[i].gamma == 1.0f &&
                  fabsf(o[i].translate_x) <= 22.4f + 0.5f && fabsf(o[i].translate_y) <= 44.8f + 0.5f &&
                  o[i].translate_x == rintf(o[i].translate_x) && o[i].translate_y == rintf(o[i].translate_y);
        int seen = 0;
        for (int k = 0; k < 4; k++) seen |= 1 << o[i].jitter_order[k];
        perms += seen == 15;
    }
    CHECK(inside == N);
    CHECK(ranges == N);
    CHECK(perms == N);
    /* a 1x1 image: always the whole pixel */
    int32_t one = 1;
    CHECK_STATUS(pf_aug_sample(&p, 6, 1, 0, 1, &one, &one, o), PF_OK);
    CHECK(o[0].crop_x == 0 && o[0].crop_y == 0 && o[0].crop_w == 1 && o[0].crop_h == 1);
    /* disabled jitter ops keep the identity; constant ranges give the constant */
    p.brightness[0] = p.brightness[1] = 1.0f;
    p.hue[0] = p.hue[1] = 0.0f;
    p.contrast[0] = p.contrast[1] = 0.5f;
    CHECK_STATUS(pf_aug_sample(&p, 6, 1, 0, 1, g_w, g_h, o), PF_OK);
    CHECK(o[0].brightness == 1.0f && o[0].hue == 0.0f && o[0].contrast == 0.5f);
}

/* The float exp and log the sampler uses agree with libm within 2 ulp. */
static float ulp_diff(float a, float b) { return fabsf(a - b) / (nextafterf(fabsf(b), FLT_MAX) - fabsf(b)); }

static void test_exp_log(void) {
    float worst_exp = 0, worst_log = 0;
    for (float x = -100.0f; x <= 88.0f; x += 0.0137f) {
        float d = ulp_diff(pfi_aug_exp(x), (float)exp((double)x));
        if (d > worst_exp) worst_exp = d;
    }
    for (float x = 1e-3f; x <= 1e3f; x *= 1.0071f) {
        float d = fabsf(pfk_log_det(x) - (float)log((double)x)) / FLT_EPSILON;
        if (d > worst_log) worst_log = d;
    }
    printf("exp worst %.2f ulp, log worst %.2f eps (abs)\n", (double)worst_exp, (double)worst_log);
    CHECK(worst_exp <= 2.0f);
    CHECK(worst_log <= 16.0f); /* absolute, in units of FLT_EPSILON; |log| <= 7 */
}

int main(void) {
    make_sizes();
    test_defaults();
    test_split_and_repeat();
    test_keys_differ();
    test_keying_layout();
    test_golden();
    test_eval_crop();
    test_rrc_fallback_and_bounds();
    test_exp_log();
    return pft_summary("test_aug_sampler");
}
