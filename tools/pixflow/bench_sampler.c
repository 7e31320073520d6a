/* pixflow bench sampler: pf_aug_sample throughput (parameters per second)
 * for the policies of the common recipes, batches of 256 samples with
 * ImageNet-like source sizes, one thread (the sampler is a plain
 * single-threaded function; callers sample per batch on their own
 * threads). There is no OpenCV counterpart, so pixflow is reported alone. */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "pixflow/pixflow.h"
#include "timing.h"

enum { BATCH = 256 };

typedef struct sampler_case {
    const char *name;
    pf_aug_policy policy;
} sampler_case;

static pf_aug_policy train_policy(int jitter, int affine) {
    pf_aug_policy p = pf_aug_policy_defaults();
    p.random_resized_crop = true; /* scale 0.08-1, ratio 3/4-4/3 (defaults) */
    p.hflip_p = 0.5f;
    if (jitter) {
        p.color_jitter = true;
        p.brightness[0] = p.contrast[0] = p.saturation[0] = 0.6f;
        p.brightness[1] = p.contrast[1] = p.saturation[1] = 1.4f;
        p.hue[0] = -0.1f;
        p.hue[1] = 0.1f;
        p.grayscale_p = 0.1f;
    }
    if (affine) {
        p.random_affine = true;
        p.degrees[0] = -15.0f;
        p.degrees[1] = 15.0f;
        p.translate[0] = p.translate[1] = 0.1f;
        p.scale_range[0] = 0.9f;
        p.scale_range[1] = 1.1f;
        p.affine_width = p.affine_height = 224;
    }
    return p;
}

int bench_sampler(int argc, char **argv) {
    const char *data = NULL;
    int rounds = 9;
    int prc = bench_parse_args(argc, argv, "sampler", &rounds, &data);
    if (prc) return prc;
    if (rounds > 64) rounds = 64;
    if (rounds < 1) rounds = 1;
    sampler_case cases[4];
    cases[0].name = "imagenet-train (RRC + hflip)";
    cases[0].policy = train_policy(0, 0);
    cases[1].name = "  + ColorJitter 0.4/0.4/0.4/0.1 + gray";
    cases[1].policy = train_policy(1, 0);
    cases[2].name = "  + RandomAffine";
    cases[2].policy = train_policy(1, 1);
    cases[3].name = "imagenet-eval (resize 256 + crop 224)";
    cases[3].policy = pf_aug_policy_defaults();
    cases[3].policy.resize_shorter = 256;
    cases[3].policy.center_crop_w = cases[3].policy.center_crop_h = 224;

    /* source sizes: ImageNet's common 500x375 / 375x500 plus a spread */
    int32_t w[BATCH], h[BATCH];
    uint64_t s = 88172645463325252ull;
    for (int i = 0; i < BATCH; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        int kind = (int)(s % 4);
        w[i] = kind == 0 ? 500 : kind == 1 ? 375 : 200 + (int32_t)((s >> 20) % 1800);
        h[i] = kind == 0 ? 375 : kind == 1 ? 500 : 200 + (int32_t)((s >> 40) % 1200);
    }
    pf_aug_params *out = malloc(sizeof *out * BATCH);
    if (!out) return 1;
    printf("pixflow %s pf_aug_sample, batches of %d, 1 thread; median of %d rounds (no OpenCV counterpart)\n",
           pf_version(), BATCH, rounds);
    printf("%-40s %12s %12s %14s\n", "policy", "us/batch", "ns/sample", "samples/s");
    int rc = 0;
    uint64_t first = 0;
    for (int c = 0; c < 4; c++) {
        const pf_aug_policy *p = &cases[c].policy;
        int n = 1;
        for (;;) { /* calibrate: one round ~25 ms */
            double t0 = bench_now_sec();
            for (int i = 0; i < n; i++, first += BATCH) rc |= pf_aug_sample(p, 7, 1, first, BATCH, w, h, out) != PF_OK;
            if (bench_now_sec() - t0 > 0.025 || n >= 1 << 16) break;
            n *= 2;
        }
        double t[64];
        for (int r = 0; r < rounds; r++) {
            double t0 = bench_now_sec();
            for (int i = 0; i < n; i++, first += BATCH) rc |= pf_aug_sample(p, 7, 1, first, BATCH, w, h, out) != PF_OK;
            t[r] = (bench_now_sec() - t0) / n;
        }
        double sec = bench_median(t, rounds);
        printf("%-40s %12.2f %12.1f %14.0f\n", cases[c].name, sec * 1e6, sec * 1e9 / BATCH, BATCH / sec);
    }
    if (rc) fprintf(stderr, "pixflow bench sampler: pf_aug_sample failed: %s\n", pf_last_error());
    free(out);
    return rc;
}
