/*
 * End to end: recipe -> sampler -> fused preprocess. The issue's
 * determinism contract: a sample's output bits depend only on (seed,
 * epoch, index) and its image — not on the thread count, the batch size,
 * its position in the batch, or the ISA cap — and different epochs give
 * different crops. Runs the imagenet-train recipe with ColorJitter,
 * grayscale and RandomAffine switched on, so every stage is exercised.
 */
#include <stdlib.h>
#include <string.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

enum { N = 12, OUT = 64 };

static uint8_t *g_pix[N];
static pf_image g_img[N];

static void make_images(void) {
    uint64_t rng = 4242;
    for (int i = 0; i < N; i++) {
        int w = 90 + 17 * i, h = 70 + 11 * (N - i);
        g_pix[i] = malloc((size_t)w * (size_t)h * 3);
        /* smooth gradients plus noise: resize and colour ops see real structure */
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                for (int c = 0; c < 3; c++)
                    g_pix[i][((size_t)y * (size_t)w + (size_t)x) * 3 + (size_t)c] =
                        (uint8_t)((x * (c + 1) + y * (3 - c) + (int)(pft_rand(&rng) % 23)) & 255);
        g_img[i] = pf_image_hwc(g_pix[i], w, h, 3, PF_U8, 0);
    }
}

/* Samples [first, first + n) of an epoch through the recipe, into out
 * (N x 3 x OUT x OUT f32, written at slots [first, first + n)). */
static int run(pf_preprocess_plan *plan, const pf_aug_policy *pol, pf_stream *s, uint64_t epoch, int first,
               int n, float *out) {
    int32_t w[N], h[N];
    pf_aug_params p[N];
    for (int i = 0; i < n; i++) {
        w[i] = g_img[first + i].width;
        h[i] = g_img[first + i].height;
    }
    if (pf_aug_sample(pol, 1234, epoch, (uint64_t)first, n, w, h, p) != PF_OK) return -1;
    pf_tensor t = pf_tensor_nchw(out + (size_t)first * 3 * OUT * OUT, n, 3, OUT, OUT, PF_F32);
    return pf_preprocess_run(plan, s, n, &g_img[first], p, &t, NULL) == PF_OK ? 0 : -1;
}

int main(void) {
    make_images();
    pf_preprocess_desc d;
    pf_aug_policy pol;
    CHECK_STATUS(pf_recipe("imagenet-train", &d, &pol), PF_OK);
    d.out_width = d.out_height = OUT;
    pol.color_jitter = true;
    pol.grayscale_p = 0.2f;
    pol.random_affine = true;
    pol.degrees[0] = -20.0f;
    pol.degrees[1] = 10.0f;
    pol.translate[0] = pol.translate[1] = 0.1f;
    pol.affine_width = pol.affine_height = OUT;
    pf_preprocess_plan *plan = NULL;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_OK);
    size_t bytes = (size_t)N * 3 * OUT * OUT * sizeof(float);
    float *ref = malloc(bytes), *got = malloc(bytes), *ep1 = malloc(bytes);
    pf_stream *s3 = NULL;
    CHECK_STATUS(pf_stream_create_cpu(3, &s3), PF_OK);

    CHECK(run(plan, &pol, NULL, 0, 0, N, ref) == 0);
    /* thread count */
    memset(got, 0, bytes);
    CHECK(run(plan, &pol, s3, 0, 0, N, got) == 0);
    CHECK(memcmp(ref, got, bytes) == 0);
    /* batch size and position: odd splits of the same epoch */
    memset(got, 0, bytes);
    CHECK(run(plan, &pol, NULL, 0, 0, 5, got) == 0 && run(plan, &pol, s3, 0, 5, 1, got) == 0 &&
          run(plan, &pol, NULL, 0, 6, N - 6, got) == 0);
    CHECK(memcmp(ref, got, bytes) == 0);
    /* ISA cap: the scalar reference kernels give the same bits */
    pf_cpu_set_cap(PF_ISA_SCALAR);
    pf_preprocess_plan *plan_s = NULL;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan_s), PF_OK);
    memset(got, 0, bytes);
    CHECK(run(plan_s, &pol, NULL, 0, 0, N, got) == 0);
    int same_scalar = memcmp(ref, got, bytes) == 0;
    if (!same_scalar) fprintf(stderr, "scalar cap gave different bits\n");
    CHECK(same_scalar);
    pf_preprocess_plan_destroy(plan_s);
    pf_cpu_set_cap(PF_ISA_NEON); /* uncapped */
    /* another epoch: other crops, so (almost surely) every sample differs */
    CHECK(run(plan, &pol, NULL, 1, 0, N, ep1) == 0);
    int differing = 0;
    for (int i = 0; i < N; i++)
        differing += memcmp(ref + (size_t)i * 3 * OUT * OUT, ep1 + (size_t)i * 3 * OUT * OUT,
                            3 * OUT * OUT * sizeof(float)) != 0;
    CHECK(differing == N);
    /* and the same epoch again is the same */
    CHECK(run(plan, &pol, s3, 0, 0, N, got) == 0);
    CHECK(memcmp(ref, got, bytes) == 0);

    pf_stream_destroy(s3);
    pf_preprocess_plan_destroy(plan);
    free(ref);
    free(got);
    free(ep1);
    for (int i = 0; i < N; i++) free(g_pix[i]);
    return pft_summary("test_augment_e2e");
}
