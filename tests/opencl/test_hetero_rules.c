/* The dispatcher's op-class rules over the CPU and OpenCL device 0 (PoCL
 * in CI):
 *  - property: random batches and descs (tests/unit/pp_random.h: every
 *    flavour, interpolation, antialias, letterbox, affine, jitter, dtype,
 *    layout, channel count), under rules geometry=opencl:0,pointwise=cpu,
 *    the reverse, and both on cpu: tensor and info byte-identical to
 *    pf_preprocess_run on the CPU; every batch the split accepts runs
 *    split (stats.split_batches), the others say "not split";
 *  - stats: moved bytes, the devices' transfer bytes and the reasons of a
 *    split batch; a refused one's reason; a pin over the rules;
 *  - a stage failing mid-batch: the batch re-runs whole on the other
 *    device, same bytes, the failure in stats;
 *  - dst in opencl:0 memory under split rules;
 *  - config.measure_split: the split chosen where it was measured faster
 *    (stage delays), not chosen where slower, never when off. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl/opencl_util.h"
#include "test_util.h"
#include "unit/pp_random.h"

#define MAXN 12

typedef struct batch {
    int n;
    uint8_t *pix[MAXN];
    pf_image im[MAXN];
    pf_aug_params prm[MAXN];
} batch;

static void batch_make(batch *b, uint64_t *r, const pf_preprocess_desc *d, int n) {
    b->n = n;
    for (int i = 0; i < n; ++i) {
        int w = pft_range(r, 1, 56), h = pft_range(r, 1, 56), c = pft_range(r, 0, 2) == 0 ? 1 : 3;
        b->pix[i] = malloc((size_t)(w * h * c));
        for (int k = 0; k < w * h * c; ++k) b->pix[i][k] = (uint8_t)pft_rand(r);
        b->im[i] = pf_image_hwc(b->pix[i], w, h, c, PF_U8, 0);
        pprand_params(r, d, &b->im[i], &b->prm[i]);
    }
}

static void batch_free(batch *b) {
    for (int i = 0; i < b->n; ++i) free(b->pix[i]);
}

static pf_dispatch *open_pair(void) {
    pf_dispatch_config c = pf_dispatch_config_defaults();
    c.devices = "cpu,opencl:0";
    c.cpu_threads = 2;
    pf_dispatch *d = NULL;
    CHECK_STATUS(pf_dispatch_open(&c, &d), PF_OK);
    return d;
}

/* The CPU's bytes and info for b. */
static void *reference(const pf_preprocess_desc *desc, const batch *b, size_t *bytes, pf_letterbox_info *info) {
    *bytes = pf_tensor_packed_size(b->n, desc->out_channels, desc->out_height, desc->out_width, desc->out_dtype);
    void *buf = malloc(*bytes);
    pf_tensor t = pprand_tensor(desc, b->n, buf);
    pf_preprocess_plan *plan;
    CHECK_STATUS(pf_preprocess_plan_create(desc, &plan), PF_OK);
    CHECK_STATUS(pf_preprocess_run(plan, NULL, b->n, b->im, b->prm, &t, info), PF_OK);
    pf_preprocess_plan_destroy(plan);
    return buf;
}

static void test_property(void) {
    pf_dispatch *d = open_pair();
    if (!d) return;
    static const char *rules[3] = {"geometry=opencl:0,pointwise=cpu", "geometry=cpu,pointwise=opencl:0",
                                   "geometry=cpu,pointwise=cpu"};
    uint64_t r = 0x7a1e5ull;
    int iters = 150, mismatches = 0, split = 0, refused = 0;
    for (int it = 0; it < iters; ++it) {
        int k = it % 3;
        CHECK_STATUS(pf_dispatch_set_rules(d, rules[k]), PF_OK);
        pf_preprocess_desc desc;
        pprand_desc(&r, &desc);
        batch b;
        batch_make(&b, &r, &desc, pft_range(&r, 1, MAXN));
        size_t bytes;
        pf_letterbox_info iw[MAXN], ig[MAXN];
        memset(iw, 0, sizeof iw);
        memset(ig, 0, sizeof ig);
        void *want = reference(&desc, &b, &bytes, iw), *got = malloc(bytes);
        memset(got, 0xA5, bytes);
        pf_tensor t = pprand_tensor(&desc, b.n, got);
        pf_dispatch_stats before, after;
        CHECK_STATUS(pf_dispatch_stats_get(d, &before), PF_OK);
        pf_status s = pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &t, ig);
        if (s != PF_OK) fprintf(stderr, "iteration %d (%s): %s\n", it, rules[k], pf_last_error());
        CHECK(s == PF_OK);
        CHECK_STATUS(pf_dispatch_stats_get(d, &after), PF_OK);
        pf_dispatch_device_stats ds[2];
        for (int i = 0; i < 2; ++i) CHECK_STATUS(pf_dispatch_device_stats_get(d, i, &ds[i]), PF_OK);
        int was_split = after.split_batches == before.split_batches + 1;
        if (k < 2) {
            int g = k == 0 ? 1 : 0; /* the geometry device's index */
            if (was_split) {
                split++;
                uint64_t moved = 0;
                for (int i = 0; i < b.n; ++i)
                    moved += (uint64_t)b.im[i].channels * (uint64_t)desc.out_width * (uint64_t)desc.out_height;
                CHECK(after.moved_bytes - before.moved_bytes == moved);
                CHECK(strstr(ds[g].reason, "rule: geometry -> ") && strstr(ds[g].reason, "(split chain, "));
                CHECK(strstr(ds[1 - g].reason, "rule: pointwise -> ") != NULL);
                CHECK(ds[0].last_samples == (uint64_t)b.n && ds[1].last_samples == (uint64_t)b.n);
            } else {
                refused++;
                CHECK(desc.letterbox && strstr(ds[g].reason, "not split: letterbox") != NULL);
                CHECK(ds[g].last_samples == (uint64_t)b.n && ds[1 - g].last_samples == 0);
            }
        } else {
            CHECK(!was_split && strstr(ds[0].reason, "rule: geometry, pointwise -> cpu (chain whole)") != NULL);
        }
        int same = memcmp(want, got, bytes) == 0 && memcmp(iw, ig, sizeof(pf_letterbox_info) * (size_t)b.n) == 0;
        if (!same && mismatches++ < 5)
            fprintf(stderr, "iteration %d (%s, split %d): %dx%dx%d interp %d flavor %d lb %d dtype %d differs\n", it,
                    rules[k], was_split, (int)desc.out_width, (int)desc.out_height, (int)desc.out_channels,
                    (int)desc.interp, (int)desc.flavor, (int)desc.letterbox, (int)desc.out_dtype);
        CHECK(same);
        free(want);
        free(got);
        batch_free(&b);
    }
    printf("rules property: %d batches (3 rule sets), %d split, %d not split (letterbox), %d mismatches\n", iters,
           split, refused, mismatches);
    CHECK(split >= iters / 3);
    pf_dispatch_close(d);
}

/* One fixed batch: the transfer bytes and reasons of a split, a refused
 * split, a pin over rules, a failing stage, dst on the device. */
static void test_stats_and_failure(pf_device *dev) {
    pf_dispatch *d = open_pair();
    if (!d) return;
    pf_preprocess_desc desc;
    pf_aug_policy pol;
    CHECK_STATUS(pf_recipe("imagenet-train", &desc, &pol), PF_OK);
    desc.out_width = desc.out_height = 32;
    uint64_t r = 11;
    batch b;
    batch_make(&b, &r, &desc, MAXN);
    for (int i = 0; i < b.n; ++i) {
        b.prm[i].brightness = 1.2f; /* colour work on every sample */
    }
    /* 1-channel sources move 1 byte a pixel */
    uint64_t moved = 0;
    for (int i = 0; i < b.n; ++i) moved += (uint64_t)(b.im[i].channels * 32 * 32);
    CHECK(moved < 32u * 32u * 3u * (uint64_t)b.n); /* the batch has some */
    size_t bytes;
    pf_letterbox_info iw[MAXN];
    void *want = reference(&desc, &b, &bytes, iw), *got = malloc(bytes);
    pf_tensor t = pprand_tensor(&desc, b.n, got);
    const uint64_t per = 32u * 32u * 3u;

    CHECK_STATUS(pf_dispatch_set_rules(d, "geometry=opencl:0,pointwise=cpu"), PF_OK);
    CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &t, NULL), PF_OK);
    CHECK(memcmp(want, got, bytes) == 0);
    pf_dispatch_device_stats c0, g0, c1, g1;
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 0, &c0), PF_OK);
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 1, &g0), PF_OK);
    printf("split: opencl:0 \"%s\" (down %llu B), cpu \"%s\"\n", g0.reason, (unsigned long long)g0.download_bytes,
           c0.reason);
    char want_reason[96];
    snprintf(want_reason, sizeof want_reason, "rule: geometry -> opencl:0 (split chain, %llu B/sample moved)",
             (unsigned long long)per);
    CHECK(strcmp(g0.reason, want_reason) == 0);
    CHECK(strstr(c0.reason, "rule: pointwise -> cpu (split chain") != NULL);
    CHECK(g0.download_bytes >= moved); /* the warm-up's sample too */
    memset(got, 0, bytes);
    CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &t, NULL), PF_OK);
    CHECK(memcmp(want, got, bytes) == 0);
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 1, &g1), PF_OK);
    CHECK(g1.download_bytes - g0.download_bytes == moved); /* stage 1's u8 images, nothing else */
    pf_dispatch_stats st;
    CHECK_STATUS(pf_dispatch_stats_get(d, &st), PF_OK);
    CHECK(st.split_batches == 2 && st.moved_bytes == 2 * moved);

    /* the reverse: opencl:0 uploads the u8 images (plus nothing of the sources) */
    CHECK_STATUS(pf_dispatch_set_rules(d, "geometry=cpu,pointwise=opencl:0"), PF_OK);
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 1, &g0), PF_OK);
    CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &t, NULL), PF_OK);
    CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &t, NULL), PF_OK);
    CHECK(memcmp(want, got, bytes) == 0);
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 1, &g1), PF_OK);
    CHECK(g1.upload_bytes - g0.upload_bytes >= 2 * moved);
    CHECK(g1.upload_bytes - g0.upload_bytes <= 2 * moved + per); /* + the warm-up's sample */

    /* a pin wins over the rules */
    CHECK_STATUS(pf_dispatch_pin(d, "cpu"), PF_OK);
    CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &t, NULL), PF_OK);
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 0, &c1), PF_OK);
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 1, &g1), PF_OK);
    CHECK(strncmp(c1.reason, "pinned", 6) == 0 && c1.last_samples == (uint64_t)b.n && g1.last_samples == 0);
    CHECK_STATUS(pf_dispatch_pin(d, NULL), PF_OK);

    /* one class ruled: the chain whole there */
    CHECK_STATUS(pf_dispatch_set_rules(d, "pointwise=opencl:0"), PF_OK);
    CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &t, NULL), PF_OK);
    CHECK(memcmp(want, got, bytes) == 0);
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 1, &g1), PF_OK);
    CHECK(strstr(g1.reason, "rule: pointwise -> opencl:0 (chain whole)") && g1.last_samples == (uint64_t)b.n);

    /* a stage fails after 4 samples: the batch again whole on the other */
    for (int k = 0; k < 2; ++k) {
        CHECK_STATUS(pf_dispatch_set_rules(d, k ? "geometry=cpu,pointwise=opencl:0" : "geometry=opencl:0,pointwise=cpu"),
                     PF_OK);
        CHECK_STATUS(pf_dispatch_test_hooks(d, "opencl:0", 0, 4), PF_OK);
        memset(got, 0, bytes);
        CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &t, NULL), PF_OK);
        CHECK(memcmp(want, got, bytes) == 0);
        CHECK_STATUS(pf_dispatch_device_stats_get(d, 0, &c1), PF_OK);
        CHECK_STATUS(pf_dispatch_device_stats_get(d, 1, &g1), PF_OK);
        printf("failing %s stage: opencl:0 \"%s\"\n", k ? "pointwise" : "geometry", g1.reason);
        CHECK(g1.failures == (uint64_t)k + 1 && strstr(g1.reason, "; failed: ") && strstr(g1.reason, "test failure hook"));
        CHECK(c1.last_samples >= (uint64_t)b.n);
    }
    CHECK_STATUS(pf_dispatch_test_hooks(d, "opencl:0", 0, -1), PF_OK);

    /* dst in opencl:0 memory, both directions of the split */
    void *dbuf = NULL;
    CHECK_STATUS(pf_malloc(dev, PF_ALLOC_DEVICE, bytes, &dbuf), PF_OK);
    pf_tensor td = t;
    td.data = dbuf;
    td.mem = PF_MEM_OPENCL;
    td.device = 0;
    for (int k = 0; k < 2 && dbuf; ++k) {
        CHECK_STATUS(pf_dispatch_set_rules(d, k ? "geometry=cpu,pointwise=opencl:0" : "geometry=opencl:0,pointwise=cpu"),
                     PF_OK);
        CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &td, NULL), PF_OK);
        memset(got, 0x11, bytes);
        CHECK_STATUS(pf_memcpy_async(NULL, got, dbuf, bytes), PF_OK);
        CHECK(memcmp(want, got, bytes) == 0);
    }
    pf_free(dev, PF_ALLOC_DEVICE, dbuf);

    /* letterbox + colour: not split, the chain whole on the geometry device */
    desc.letterbox = true;
    free(want);
    want = reference(&desc, &b, &bytes, iw);
    CHECK_STATUS(pf_dispatch_set_rules(d, "geometry=opencl:0,pointwise=cpu"), PF_OK);
    CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &t, NULL), PF_OK);
    CHECK(memcmp(want, got, bytes) == 0);
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 1, &g1), PF_OK);
    printf("refused: opencl:0 \"%s\"\n", g1.reason);
    CHECK(strstr(g1.reason, "not split: letterbox pad is not colour-adjusted and sample 0 has colour ops") != NULL);
    CHECK(g1.last_samples == (uint64_t)b.n);
    free(want);
    free(got);
    batch_free(&b);
    pf_dispatch_close(d);
}

/* config.measure_split: a case where the split wins (stage delays make
 * each device slow at one class: cpu at geometry, opencl:0 at pointwise,
 * so the whole chain costs 3 ms/sample anywhere and geometry on opencl:0
 * + pointwise on cpu almost nothing) and the split is chosen after its
 * two probes; with the delays off and PoCL next to the CPU it shares,
 * the split is measured slower and not chosen (or, on a machine where
 * it wins, chosen: both are legal outcomes, so only the bookkeeping is
 * checked there); off by default. Every batch byte-identical. */
static void test_measured_split(void) {
    pf_preprocess_desc desc = pf_preprocess_desc_defaults();
    desc.out_width = desc.out_height = 8;
    uint64_t r = 21;
    batch b;
    batch_make(&b, &r, &desc, MAXN);
    for (int i = 0; i < b.n; ++i) b.prm[i].contrast = 1.3f;
    size_t bytes;
    pf_letterbox_info iw[MAXN];
    void *want = reference(&desc, &b, &bytes, iw), *got = malloc(bytes);
    pf_tensor t = pprand_tensor(&desc, b.n, got);
    for (int on = 0; on < 2; ++on) {
        pf_dispatch_config c = pf_dispatch_config_defaults();
        CHECK(!c.measure_split);
        c.devices = "cpu,opencl:0";
        c.cpu_threads = 2;
        c.measure_split = on;
        pf_dispatch *d = NULL;
        CHECK_STATUS(pf_dispatch_open(&c, &d), PF_OK);
        if (!d) continue;
        CHECK_STATUS(pf_dispatch_test_stage_delay(d, "cpu", "geometry", 3000), PF_OK);
        CHECK_STATUS(pf_dispatch_test_stage_delay(d, "opencl:0", "pointwise", 3000), PF_OK);
        int last_split = 0;
        pf_dispatch_device_stats cs, gs;
        for (int k = 0; k < 8; ++k) {
            memset(got, 0, bytes);
            pf_dispatch_stats a, z;
            CHECK_STATUS(pf_dispatch_stats_get(d, &a), PF_OK);
            CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &t, NULL), PF_OK);
            CHECK(memcmp(want, got, bytes) == 0);
            CHECK_STATUS(pf_dispatch_stats_get(d, &z), PF_OK);
            last_split = z.split_batches > a.split_batches;
            CHECK_STATUS(pf_dispatch_device_stats_get(d, 0, &cs), PF_OK);
            CHECK_STATUS(pf_dispatch_device_stats_get(d, 1, &gs), PF_OK);
            if (getenv("PFT_VERBOSE")) printf("  batch %d: split %d; cpu \"%s\"; opencl:0 \"%s\"\n", k, last_split,
                                              cs.reason, gs.reason);
        }
        pf_dispatch_stats st;
        CHECK_STATUS(pf_dispatch_stats_get(d, &st), PF_OK);
        printf("measure_split %s, stage delays: %llu of 8 batches split; last: opencl:0 \"%s\"\n", on ? "on" : "off",
               (unsigned long long)st.split_batches, gs.reason);
        if (!on) {
            CHECK(st.split_batches == 0);
        } else {
            /* batch 0 calibrates, 1 and 2 run whole (together, then the best
             * device alone), 3 and 4 probe both directions, 5..7 split the
             * faster way */
            CHECK(st.split_batches == 5 && last_split);
            CHECK(strstr(gs.reason, "measured split: geometry here, pointwise on cpu (") != NULL);
            CHECK(strstr(cs.reason, "measured split: pointwise here, geometry on opencl:0 (") != NULL);
        }
        /* no delays: PoCL and the CPU as they are */
        CHECK_STATUS(pf_dispatch_test_stage_delay(d, "cpu", "geometry", 0), PF_OK);
        CHECK_STATUS(pf_dispatch_test_stage_delay(d, "opencl:0", "pointwise", 0), PF_OK);
        desc.out_width = 16; /* a new shape: measured afresh */
        free(want);
        free(got);
        want = reference(&desc, &b, &bytes, iw);
        got = malloc(bytes);
        t = pprand_tensor(&desc, b.n, got);
        pf_dispatch_stats a;
        CHECK_STATUS(pf_dispatch_stats_get(d, &a), PF_OK);
        for (int k = 0; k < 12; ++k) {
            memset(got, 0, bytes);
            CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &t, NULL), PF_OK);
            CHECK(memcmp(want, got, bytes) == 0);
        }
        CHECK_STATUS(pf_dispatch_stats_get(d, &st), PF_OK);
        CHECK_STATUS(pf_dispatch_device_stats_get(d, 0, &cs), PF_OK);
        CHECK_STATUS(pf_dispatch_device_stats_get(d, 1, &gs), PF_OK);
        uint64_t splits = st.split_batches - a.split_batches;
        printf("measure_split %s, no delays: %llu of 12 batches split; last: cpu \"%s\"\n", on ? "on" : "off",
               (unsigned long long)splits, cs.reason);
        /* the outcome here is the machine's (and when calibration ends:
         * the CPU may take every sample of a calibration batch before
         * PoCL's thread takes one, so it can last several batches); what
         * holds: a batch that ran whole after the probes did so because
         * the split was measured slower */
        double ms_split = 0, ms_whole = 0;
        const char *m = strstr(cs.reason, "; split chain measured ");
        if (!on) CHECK(splits == 0);
        if (m != NULL) {
            CHECK(sscanf(m, "; split chain measured %lf ms/sample, whole %lf", &ms_split, &ms_whole) == 2);
            CHECK(ms_split >= ms_whole && splits >= 2);
        }
        desc.out_width = 8;
        free(want);
        free(got);
        want = reference(&desc, &b, &bytes, iw);
        got = malloc(bytes);
        t = pprand_tensor(&desc, b.n, got);
        pf_dispatch_close(d);
    }
    CHECK_STATUS(pf_dispatch_test_stage_delay(NULL, "cpu", "geometry", 1), PF_ERR_INVALID_ARGUMENT);
    free(want);
    free(got);
    batch_free(&b);
}

int main(void) {
    pf_device *dev = pft_opencl_device_or_skip("hetero_rules");
    test_property();
    test_stats_and_failure(dev);
    test_measured_split();
    pf_device_close(dev);
    return pft_summary("hetero_rules");
}
