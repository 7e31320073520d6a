/*
 * pf_decode_augment: bytes + recipe + (seed, epoch, index) -> tensor slot.
 *  - DCT scaling off: bit-identical to pf_decode (whole image) +
 *    pf_aug_sample + pf_preprocess_run, for every data/ photo, a PNG and a
 *    WebP, with the plain imagenet-train recipe and with ColorJitter,
 *    grayscale and RandomAffine on, inline and on 2 threads;
 *  - DCT scaling on: max / mean abs difference to that reference in
 *    normalized units, printed per margin (docs/exactness.md "Decoding"),
 *    bounded;
 *  - EXIF orientation, broken samples (skip_bad or fail), argument checks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pixflow/pixflow.h"
#include "test_util.h"
#include "unit/codec_test_io.h"

enum { OUT = 224, NMAX = 16 };

static const char *k_files[] = {"astronaut_500x375.jpg", "camera_gray_512x512.jpg", "chelsea_333x251.jpg",
                                "coffee_500x375.jpg", "green_leaf_1920x1080.jpg", "hubble_640x480_progressive.jpg",
                                "ladybird_375x500.jpg", "rocket_500x375.jpg", "storm_road_1920x1080.jpg",
                                "water_drop_1920x1080.jpg", "yellow_flower_500x375.jpg", "chelsea_rgba_320x240.png",
                                "ok_lossy.webp", "ok_cmyk_adobe.jpg"};
enum { NF = sizeof k_files / sizeof k_files[0] };
static unsigned char *g_data[NF];
static size_t g_size[NF];

static size_t sample_floats(void) { return (size_t)3 * OUT * OUT; }

/* The op-by-op reference: full decode, sample on its size, preprocess. */
static pf_letterbox_info g_ref_info[NF];

static int reference(const pf_preprocess_desc *d, const pf_aug_policy *pol, int orient, uint64_t seed,
                     uint64_t epoch, float *out) {
    pf_preprocess_plan *plan = NULL;
    if (pf_preprocess_plan_create(d, &plan) != PF_OK) return -1;
    for (int i = 0; i < NF; i++) {
        pf_decode_opts o = pf_decode_opts_defaults();
        o.apply_orientation = orient != 0;
        pf_decode_result r;
        if (pf_decode_query(g_data[i], g_size[i], &o, &r) != PF_OK) return -1;
        unsigned char *px = malloc((size_t)r.width * (size_t)r.height * 3);
        pf_image img = pf_image_hwc(px, r.width, r.height, 3, PF_U8, 0);
        pf_aug_params p;
        pf_tensor t = pf_tensor_nchw(out + (size_t)i * sample_floats(), 1, 3, OUT, OUT, PF_F32);
        int ok = pf_decode(NULL, g_data[i], g_size[i], &o, &img, &r) == PF_OK &&
                 pf_aug_sample(pol, seed, epoch, (uint64_t)i, 1, &img.width, &img.height, &p) == PF_OK &&
                 pf_preprocess_run(plan, NULL, 1, &img, &p, &t, &g_ref_info[i]) == PF_OK;
        free(px);
        if (!ok) {
            fprintf(stderr, "reference sample %d: %s\n", i, pf_last_error());
            return -1;
        }
    }
    pf_preprocess_plan_destroy(plan);
    return 0;
}

static int fused(const pf_preprocess_desc *d, const pf_aug_policy *pol, const pf_decode_aug_opts *o,
                 pf_stream *s, uint64_t seed, uint64_t epoch, float *out, pf_decode_aug_result *res) {
    pf_decode_augmenter *aug = NULL;
    if (pf_decode_augmenter_create(d, pol, o, &aug) != PF_OK) return -1;
    pf_tensor t = pf_tensor_nchw(out, NF, 3, OUT, OUT, PF_F32);
    const void *data[NF];
    for (int i = 0; i < NF; i++) data[i] = g_data[i];
    pf_status st = pf_decode_augment(aug, s, NF, data, g_size, seed, epoch, 0, &t, res);
    if (st != PF_OK) fprintf(stderr, "pf_decode_augment: %s\n", pf_last_error());
    pf_decode_augmenter_destroy(aug);
    return st == PF_OK ? 0 : -1;
}

static void exact_case(const char *what, const pf_preprocess_desc *d, const pf_aug_policy *pol, pf_stream *s2) {
    size_t bytes = NF * sample_floats() * sizeof(float);
    float *ref = malloc(bytes), *got = malloc(bytes);
    for (uint64_t epoch = 0; epoch < 3; epoch++) {
        CHECK(reference(d, pol, 0, 99, epoch, ref) == 0);
        pf_decode_aug_opts o = pf_decode_aug_opts_defaults();
        memset(got, 0xff, bytes);
        pf_decode_aug_result res[NF];
        CHECK(fused(d, pol, &o, NULL, 99, epoch, got, res) == 0);
        int same = memcmp(ref, got, bytes) == 0;
        for (int i = 0; i < NF; i++) /* box mapping back to the original image */
            CHECK(res[i].info.crop_x == g_ref_info[i].crop_x && res[i].info.crop_y == g_ref_info[i].crop_y &&
                  res[i].info.scale_x == g_ref_info[i].scale_x && res[i].info.offset_x == g_ref_info[i].offset_x &&
                  res[i].info.scale_y == g_ref_info[i].scale_y && res[i].info.offset_y == g_ref_info[i].offset_y &&
                  res[i].scale_num == 8 && res[i].status == PF_OK);
        memset(got, 0xff, bytes);
        CHECK(fused(d, pol, &o, s2, 99, epoch, got, NULL) == 0);
        same &= memcmp(ref, got, bytes) == 0;
        if (!same) fprintf(stderr, "%s epoch %d: decode_augment differs from decode + preprocess\n", what, (int)epoch);
        CHECK(same);
    }
    free(ref);
    free(got);
}

/* DCT scaling on: difference to the exact path, normalized units. */
static void dct_bound(const pf_preprocess_desc *d, const pf_aug_policy *pol, pf_stream *s2) {
    size_t bytes = NF * sample_floats() * sizeof(float);
    float *ref = malloc(bytes), *got = malloc(bytes);
    const float margins[] = {1.0f, 1.25f, 1.5f, 2.0f};
    CHECK(pf_decode_aug_opts_defaults().dct_margin == 1.0f);
    pf_decode_aug_result res[NF];
    for (int k = 0; k < 4; k++) {
        double maxd = 0, sum = 0;
        size_t cnt = 0;
        int scaled = 0, total = 0;
        for (uint64_t epoch = 0; epoch < 4; epoch++) {
            CHECK(reference(d, pol, 0, 7, epoch, ref) == 0);
            pf_decode_aug_opts o = pf_decode_aug_opts_defaults();
            o.dct_scale = true;
            o.dct_margin = margins[k];
            CHECK(fused(d, pol, &o, s2, 7, epoch, got, res) == 0);
            for (int i = 0; i < NF; i++) {
                scaled += res[i].scale_num < 8;
                total++;
            }
            for (int i = 0; i < NF; i++) {
                /* the reported mapping agrees with the exact path's within
                 * the crop rounding (half a scaled pixel = 4/m source px) */
                const pf_letterbox_info *a = &res[i].info, *b = &g_ref_info[i];
                for (int corner = 0; corner <= OUT; corner += OUT) {
                    double ax = (corner - (double)a->offset_x) / (double)a->scale_x + a->crop_x;
                    double bx = (corner - (double)b->offset_x) / (double)b->scale_x + b->crop_x;
                    double ay = (corner - (double)a->offset_y) / (double)a->scale_y + a->crop_y;
                    double by = (corner - (double)b->offset_y) / (double)b->scale_y + b->crop_y;
                    double tol = 4.0 / res[i].scale_num + 1e-3;
                    if (!(fabs(ax - bx) <= tol && fabs(ay - by) <= tol))
                        fprintf(stderr, "sample %d m=%d: corner %d maps to (%.3f, %.3f), exact path (%.3f, %.3f)\n", i,
                                (int)res[i].scale_num, corner, ax, ay, bx, by);
                    CHECK(fabs(ax - bx) <= tol && fabs(ay - by) <= tol);
                }
                if (res[i].scale_num == 8) { /* not scaled: must be exact */
                    CHECK(memcmp(ref + (size_t)i * sample_floats(), got + (size_t)i * sample_floats(),
                                 sample_floats() * sizeof(float)) == 0);
                    continue;
                }
                for (size_t e = (size_t)i * sample_floats(); e < (size_t)(i + 1) * sample_floats(); e++) {
                    double dv = fabs((double)ref[e] - (double)got[e]);
                    sum += dv;
                    cnt++;
                    if (dv > maxd) maxd = dv;
                }
            }
        }
        double mean = cnt ? sum / (double)cnt : 0.0;
        printf("DCT scaling, margin %.2f: %d/%d samples scaled; scaled samples vs full decode: max %.4f, mean %.5f "
               "(normalized units; 1 u8 step = %.4f)\n",
               (double)margins[k], scaled, total, maxd, mean, 1.0 / 255 / 0.225);
        CHECK(mean < 0.1 && maxd < 3.0 && scaled > 0);
    }
    free(ref);
    free(got);
}

static void orientation_case(const pf_preprocess_desc *d, const pf_aug_policy *pol) {
    size_t n;
    unsigned char *b = pft_load(PF_CORPUS_DIR, "ok_exif_orient6.jpg", &n);
    pf_decode_opts o = pf_decode_opts_defaults();
    o.apply_orientation = true;
    pf_decode_result r;
    CHECK_STATUS(pf_decode_query(b, n, &o, &r), PF_OK);
    CHECK(r.width == 32 && r.height == 48);
    unsigned char *px = malloc((size_t)r.width * (size_t)r.height * 3);
    pf_image img = pf_image_hwc(px, r.width, r.height, 3, PF_U8, 0);
    pf_aug_params p;
    float *ref = malloc(sample_floats() * sizeof(float)), *got = malloc(sample_floats() * sizeof(float));
    pf_tensor tr = pf_tensor_nchw(ref, 1, 3, OUT, OUT, PF_F32), tg = pf_tensor_nchw(got, 1, 3, OUT, OUT, PF_F32);
    pf_preprocess_plan *plan = NULL;
    CHECK_STATUS(pf_preprocess_plan_create(d, &plan), PF_OK);
    CHECK_STATUS(pf_decode(NULL, b, n, &o, &img, &r), PF_OK);
    CHECK_STATUS(pf_aug_sample(pol, 5, 1, 3, 1, &img.width, &img.height, &p), PF_OK);
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 1, &img, &p, &tr, NULL), PF_OK);
    pf_decode_aug_opts ao = pf_decode_aug_opts_defaults();
    ao.apply_orientation = true;
    ao.dct_scale = true; /* ignored for oriented samples */
    pf_decode_augmenter *aug = NULL;
    CHECK_STATUS(pf_decode_augmenter_create(d, pol, &ao, &aug), PF_OK);
    const void *data[1] = {b};
    pf_decode_aug_result res;
    CHECK_STATUS(pf_decode_augment(aug, NULL, 1, data, &n, 5, 1, 3, &tg, &res), PF_OK);
    CHECK(res.width == 32 && res.height == 48 && res.scale_num == 8);
    CHECK(memcmp(ref, got, sample_floats() * sizeof(float)) == 0);
    pf_decode_augmenter_destroy(aug);
    pf_preprocess_plan_destroy(plan);
    free(px);
    free(ref);
    free(got);
    free(b);
}

static void bad_and_args(const pf_preprocess_desc *d, const pf_aug_policy *pol, pf_stream *s2) {
    size_t n_bad;
    unsigned char *bad = pft_load(PF_CORPUS_DIR, "bad_truncated.jpg", &n_bad);
    const void *data[3] = {g_data[2], bad, g_data[0]};
    size_t size[3] = {g_size[2], n_bad, g_size[0]};
    float *out = malloc(3 * sample_floats() * sizeof(float));
    pf_tensor t = pf_tensor_nchw(out, 3, 3, OUT, OUT, PF_F32);
    pf_decode_augmenter *aug = NULL;
    pf_decode_aug_opts o = pf_decode_aug_opts_defaults();
    CHECK_STATUS(pf_decode_augmenter_create(d, pol, &o, &aug), PF_OK);
    CHECK_STATUS(pf_decode_augment(aug, s2, 3, data, size, 1, 0, 10, &t, NULL), PF_ERR_CORRUPT_DATA);
    CHECK_MSG("sample 1 (index 11)");
    CHECK_MSG("truncated");
    pf_decode_augmenter_destroy(aug);
    o.skip_bad = true;
    CHECK_STATUS(pf_decode_augmenter_create(d, pol, &o, &aug), PF_OK);
    pf_decode_aug_result res[3];
    for (size_t i = 0; i < 3 * sample_floats(); i++) out[i] = 1.0f;
    CHECK_STATUS(pf_decode_augment(aug, s2, 3, data, size, 1, 0, 10, &t, res), PF_OK);
    CHECK(res[0].status == PF_OK && res[1].status == PF_ERR_CORRUPT_DATA && res[2].status == PF_OK);
    int zero = 1;
    for (size_t i = sample_floats(); i < 2 * sample_floats(); i++) zero &= out[i] == 0.0f;
    CHECK(zero && out[0] != 1.0f);
    /* arguments */
    CHECK_STATUS(pf_decode_augment(NULL, NULL, 1, data, size, 1, 0, 0, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("aug");
    CHECK_STATUS(pf_decode_augment(aug, NULL, -1, data, size, 1, 0, 0, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("count");
    CHECK_STATUS(pf_decode_augment(aug, NULL, 0, NULL, NULL, 1, 0, 0, NULL, NULL), PF_OK);
    const void *nulls[2] = {g_data[0], NULL};
    CHECK_STATUS(pf_decode_augment(aug, NULL, 2, nulls, size, 1, 0, 0, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("data[1]");
    const void *data4[4] = {g_data[0], g_data[0], g_data[0], g_data[0]};
    size_t size4[4] = {g_size[0], g_size[0], g_size[0], g_size[0]};
    CHECK_STATUS(pf_decode_augment(aug, NULL, 4, data4, size4, 1, 0, 0, &t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("n >= 4");
    pf_tensor small = pf_tensor_nchw(out, 3, 3, OUT - 1, OUT, PF_F32);
    CHECK_STATUS(pf_decode_augment(aug, NULL, 3, data, size, 1, 0, 0, &small, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst");
    pf_decode_augmenter_destroy(aug);
    pf_decode_augmenter_destroy(NULL);
    o.dct_margin = 0.5f;
    CHECK_STATUS(pf_decode_augmenter_create(d, pol, &o, &aug), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts.dct_margin");
    CHECK_STATUS(pf_decode_augmenter_create(NULL, pol, NULL, &aug), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("desc");
    pf_aug_policy badpol = *pol;
    badpol.hflip_p = 2.0f;
    CHECK_STATUS(pf_decode_augmenter_create(d, &badpol, NULL, &aug), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("hflip_p");
    CHECK_STATUS(pf_decode_aug_opts_for_recipe("imagenet-train", &o), PF_OK);
    CHECK(o.dct_scale);
    CHECK_STATUS(pf_decode_aug_opts_for_recipe("imagenet-eval", &o), PF_OK);
    CHECK(!o.dct_scale);
    CHECK_STATUS(pf_decode_aug_opts_for_recipe("nope", &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("imagenet-train");
    free(out);
    free(bad);
}

int main(void) {
    for (int i = 0; i < NF; i++) {
        const char *dir = strncmp(k_files[i], "ok_", 3) == 0 ? PF_CORPUS_DIR : PF_DATA_DIR;
        g_data[i] = pft_load(dir, k_files[i], &g_size[i]);
    }
    pf_stream *s2 = NULL;
    CHECK_STATUS(pf_stream_create_cpu(2, &s2), PF_OK);
    pf_preprocess_desc d;
    pf_aug_policy pol;
    CHECK_STATUS(pf_recipe("imagenet-train", &d, &pol), PF_OK);
    exact_case("imagenet-train", &d, &pol, s2);
    pf_aug_policy all = pol;
    all.color_jitter = true;
    all.grayscale_p = 0.3f;
    all.vflip_p = 0.3f;
    all.random_affine = true;
    all.degrees[0] = -25.0f;
    all.degrees[1] = 15.0f;
    all.translate[0] = all.translate[1] = 0.1f;
    all.scale_range[0] = 0.8f;
    all.scale_range[1] = 1.2f;
    all.affine_width = all.affine_height = OUT;
    exact_case("imagenet-train + jitter/gray/affine", &d, &all, s2);
    pf_preprocess_desc de;
    pf_aug_policy pe;
    CHECK_STATUS(pf_recipe("imagenet-eval", &de, &pe), PF_OK);
    exact_case("imagenet-eval", &de, &pe, s2);
    pf_preprocess_desc dy;
    pf_aug_policy py;
    CHECK_STATUS(pf_recipe("yolo", &dy, &py), PF_OK);
    dy.out_width = dy.out_height = OUT; /* the tensor size of this test */
    exact_case("yolo (letterbox)", &dy, &py, s2);
    dct_bound(&d, &pol, s2);
    orientation_case(&d, &pol);
    bad_and_args(&d, &pol, s2);
    pf_stream_destroy(s2);
    for (int i = 0; i < NF; i++) free(g_data[i]);
    return pft_summary("test_decode_augment");
}
