/* The device dispatcher over the CPU and OpenCL device 0 (PoCL in CI):
 *  - property: random batches, plans, policies and forced splits (random
 *    weights, zero weights, static ranges, work stealing): the output
 *    tensor and info are byte-identical to pf_preprocess_run on the CPU and
 *    to the dispatcher pinned to OpenCL;
 *  - placement: with the delay hook making both devices slow by known
 *    amounts (sleeps that dwarf the real work, so a loaded machine does
 *    not move the ideal split), the measured split is within 10% of the
 *    ideal one after calibration; a device 100x slower is dropped;
 *  - failure: a device failing mid-batch has its samples re-run on the
 *    other, the batch is still byte-identical, the failure is in stats;
 *  - the calibrated model round-trips through JSON. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl/opencl_util.h"
#include "test_util.h"

#define MAXN 48

typedef struct batch {
    int n;
    uint8_t *pix[MAXN];
    pf_image im[MAXN];
    pf_aug_params prm[MAXN];
} batch;

static void batch_make(batch *b, uint64_t *r, int n, int wmin, int wmax) {
    b->n = n;
    for (int i = 0; i < n; ++i) {
        int w = pft_range(r, wmin, wmax), h = pft_range(r, wmin, wmax), c = pft_range(r, 0, 3) == 0 ? 1 : 3;
        int pad = pft_range(r, 0, 5);
        size_t stride = (size_t)(w * c + pad);
        b->pix[i] = malloc(stride * (size_t)h);
        for (size_t k = 0; k < stride * (size_t)h; ++k) b->pix[i][k] = (uint8_t)pft_rand(r);
        b->im[i] = pf_image_hwc(b->pix[i], w, h, c, PF_U8, (ptrdiff_t)stride);
    }
}

static void batch_free(batch *b) {
    for (int i = 0; i < b->n; ++i) free(b->pix[i]);
    b->n = 0;
}

static pf_tensor tensor_for(const pf_preprocess_desc *d, int n, void **buf, size_t *bytes) {
    *bytes = pf_tensor_packed_size(n, d->out_channels, d->out_height, d->out_width, d->out_dtype);
    *buf = malloc(*bytes);
    return d->out_layout == PF_CHW ? pf_tensor_nchw(*buf, n, d->out_channels, d->out_height, d->out_width, d->out_dtype)
                                   : pf_tensor_nhwc(*buf, n, d->out_channels, d->out_height, d->out_width, d->out_dtype);
}

static void random_desc(uint64_t *r, pf_preprocess_desc *d, pf_aug_policy *p) {
    *d = pf_preprocess_desc_defaults();
    *p = pf_aug_policy_defaults();
    d->out_width = pft_range(r, 4, 40);
    d->out_height = pft_range(r, 4, 40);
    d->out_channels = pft_range(r, 0, 4) == 0 ? 1 : 3;
    static const pf_interp interps[] = {PF_INTERP_NEAREST, PF_INTERP_LINEAR, PF_INTERP_CUBIC, PF_INTERP_AREA};
    d->interp = interps[pft_range(r, 0, 3)];
    static const pf_dtype dts[] = {PF_F32, PF_U8, PF_F16, PF_BF16};
    d->out_dtype = dts[pft_range(r, 0, 3)];
    d->out_layout = pft_range(r, 0, 1) ? PF_CHW : PF_HWC;
    d->swap_rb = pft_range(r, 0, 1);
    d->letterbox = pft_range(r, 0, 3) == 0;
    d->pad_value[0] = d->pad_value[1] = d->pad_value[2] = 114;
    if (d->out_dtype != PF_U8) {
        d->mean[0] = 0.485f, d->mean[1] = 0.456f, d->mean[2] = 0.406f;
        d->std[0] = 0.229f, d->std[1] = 0.224f, d->std[2] = 0.225f;
    }
    p->random_resized_crop = !d->letterbox && pft_range(r, 0, 1);
    p->hflip_p = 0.5f;
    p->vflip_p = pft_range(r, 0, 1) ? 0.3f : 0;
    if (pft_range(r, 0, 1)) {
        p->color_jitter = true;
        p->brightness[0] = 0.6f, p->brightness[1] = 1.4f;
        p->contrast[0] = 0.6f, p->contrast[1] = 1.4f;
        p->saturation[0] = 0.6f, p->saturation[1] = 1.4f;
        p->hue[0] = -0.1f, p->hue[1] = 0.1f;
    }
    p->grayscale_p = pft_range(r, 0, 1) ? 0.2f : 0;
    if (!d->letterbox && d->interp != PF_INTERP_AREA && pft_range(r, 0, 3) == 0) {
        p->random_affine = true;
        p->degrees[0] = -20, p->degrees[1] = 20;
        p->scale_range[0] = 0.9f, p->scale_range[1] = 1.1f;
    }
}

static void sample_params(const pf_aug_policy *p, uint64_t seed, batch *b) {
    int32_t ws[MAXN], hs[MAXN];
    for (int i = 0; i < b->n; ++i) ws[i] = b->im[i].width, hs[i] = b->im[i].height;
    pf_status s = pf_aug_sample(p, seed, 0, 0, b->n, ws, hs, b->prm);
    CHECK(s == PF_OK);
}

static pf_dispatch *open_pair(int stealing) {
    pf_dispatch_config c = pf_dispatch_config_defaults();
    c.devices = "cpu,opencl:0";
    c.cpu_threads = 2;
    c.work_stealing = stealing;
    pf_dispatch *d = NULL;
    pf_status s = pf_dispatch_open(&c, &d);
    if (s != PF_OK) fprintf(stderr, "pf_dispatch_open: %s\n", pf_last_error());
    CHECK(s == PF_OK);
    return d;
}

static void test_property(void) {
    pf_dispatch *steal = open_pair(1), *fixed = open_pair(0);
    if (!steal || !fixed) return;
    pf_stream *cpu;
    CHECK_STATUS(pf_stream_create_cpu(2, &cpu), PF_OK);
    uint64_t r = 0x5eed2026;
    int iters = 200, mismatches = 0, hybrid_batches = 0;
    for (int it = 0; it < iters; ++it) {
        pf_preprocess_desc desc;
        pf_aug_policy pol;
        random_desc(&r, &desc, &pol);
        batch b;
        batch_make(&b, &r, pft_range(&r, 1, 12), 6, 64);
        sample_params(&pol, (uint64_t)it, &b);
        void *wbuf, *gbuf, *obuf;
        size_t bytes;
        pf_tensor tw = tensor_for(&desc, b.n, &wbuf, &bytes);
        pf_tensor tg = tensor_for(&desc, b.n, &gbuf, &bytes);
        pf_tensor to = tensor_for(&desc, b.n, &obuf, &bytes);
        pf_letterbox_info iw[MAXN], ig[MAXN], io[MAXN];
        pf_preprocess_plan *plan;
        CHECK_STATUS(pf_preprocess_plan_create(&desc, &plan), PF_OK);
        CHECK_STATUS(pf_preprocess_run(plan, cpu, b.n, b.im, b.prm, &tw, iw), PF_OK);
        pf_preprocess_plan_destroy(plan);
        /* opencl only */
        pf_dispatch *d = it % 2 ? steal : fixed;
        CHECK_STATUS(pf_dispatch_pin(d, "opencl:0"), PF_OK);
        memset(obuf, 0x5A, bytes);
        CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &to, io), PF_OK);
        /* a forced split: random weights, sometimes one of them 0 */
        CHECK_STATUS(pf_dispatch_pin(d, NULL), PF_OK);
        double wc = pft_range(&r, 0, 4) == 0 ? 0 : (double)pft_range(&r, 1, 100);
        double wo = wc == 0 ? 1 : (pft_range(&r, 0, 4) == 0 ? 0 : (double)pft_range(&r, 1, 100));
        CHECK_STATUS(pf_dispatch_set_share(d, "cpu", wc), PF_OK);
        CHECK_STATUS(pf_dispatch_set_share(d, "opencl:0", wo), PF_OK);
        memset(gbuf, 0xA5, bytes);
        CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &tg, ig), PF_OK);
        pf_dispatch_device_stats s0, s1;
        CHECK_STATUS(pf_dispatch_device_stats_get(d, 0, &s0), PF_OK);
        CHECK_STATUS(pf_dispatch_device_stats_get(d, 1, &s1), PF_OK);
        CHECK(s0.last_samples + s1.last_samples == (uint64_t)b.n);
        if (wc == 0) CHECK(s0.last_samples == 0);
        if (wo == 0) CHECK(s1.last_samples == 0);
        hybrid_batches += s0.last_samples > 0 && s1.last_samples > 0;
        int same = memcmp(wbuf, gbuf, bytes) == 0 && memcmp(wbuf, obuf, bytes) == 0 &&
                   memcmp(iw, ig, sizeof(pf_letterbox_info) * (size_t)b.n) == 0 &&
                   memcmp(iw, io, sizeof(pf_letterbox_info) * (size_t)b.n) == 0;
        if (!same && mismatches++ < 5)
            fprintf(stderr, "iteration %d: %d samples, %dx%dx%d dtype %d layout %d: split cpu %llu / opencl %llu differs\n",
                    it, b.n, (int)desc.out_width, (int)desc.out_height, (int)desc.out_channels, (int)desc.out_dtype,
                    (int)desc.out_layout, (unsigned long long)s0.last_samples, (unsigned long long)s1.last_samples);
        CHECK(same);
        free(wbuf);
        free(gbuf);
        free(obuf);
        batch_free(&b);
    }
    printf("property: %d batches, %d split across both devices, %d mismatches\n", iters, hybrid_batches, mismatches);
    CHECK(hybrid_batches >= iters / 5); /* the static half alone splits ~30% */
    pf_stream_destroy(cpu);
    pf_dispatch_close(steal);
    pf_dispatch_close(fixed);
}

/* The delay hook: cpu 4 ms, opencl 12 ms per sample on tiny samples, so
 * the ideal split is 3:1 (opencl 25%). */
static void test_delay_split(void) {
    pf_dispatch *d = open_pair(1);
    if (!d) return;
    pf_preprocess_desc desc = pf_preprocess_desc_defaults();
    desc.out_width = desc.out_height = 8;
    uint64_t r = 42;
    batch b;
    batch_make(&b, &r, MAXN, 8, 12);
    pf_aug_policy pol = pf_aug_policy_defaults();
    sample_params(&pol, 1, &b);
    void *buf;
    size_t bytes;
    pf_tensor t = tensor_for(&desc, b.n, &buf, &bytes);
    const double dc = 4000, dg = 12000, ideal = (1 / dg) / (1 / dc + 1 / dg);
    CHECK_STATUS(pf_dispatch_test_hooks(d, "cpu", (int64_t)dc, -1), PF_OK);
    CHECK_STATUS(pf_dispatch_test_hooks(d, "opencl:0", (int64_t)dg, -1), PF_OK);
    /* calibration + settling */
    for (int i = 0; i < 3; ++i) CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &t, NULL), PF_OK);
    uint64_t total = 0, on_gpu = 0;
    for (int i = 0; i < 4; ++i) {
        CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &t, NULL), PF_OK);
        pf_dispatch_device_stats g;
        CHECK_STATUS(pf_dispatch_device_stats_get(d, 1, &g), PF_OK);
        on_gpu += g.last_samples;
        total += (uint64_t)b.n;
    }
    pf_dispatch_device_stats c, g;
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 0, &c), PF_OK);
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 1, &g), PF_OK);
    double share = (double)on_gpu / (double)total;
    printf("delay split: opencl share %.3f, ideal %.3f; costs cpu %.2f opencl %.2f ms/sample; reasons: cpu \"%s\", "
           "opencl \"%s\"\n", share, ideal, c.cost_ms, g.cost_ms, c.reason, g.reason);
    CHECK(fabs(share - ideal) <= 0.10 * ideal + 1.0 / MAXN); /* 10% of the ideal, plus one sample of granularity */
    /* the costs measure the delays (a loaded machine only adds to them) */
    CHECK(g.cost_ms >= 0.95 * dg / 1e3 && c.cost_ms >= 0.95 * dc / 1e3 && g.cost_ms / c.cost_ms > 2.2 &&
          g.cost_ms / c.cost_ms < 4.2);
    CHECK(g.upload_bytes > 0 && g.download_bytes > 0 && c.upload_bytes == 0);
    CHECK(g.utilization > 0 && g.utilization <= 1.0 && c.utilization > 0 && c.utilization <= 1.0);
    /* calibrated model round-trips through JSON into a new dispatcher,
     * which then places without calibrating */
    char *j1 = NULL, *j2 = NULL;
    CHECK_STATUS(pf_dispatch_costs_json(d, &j1), PF_OK);
    pf_dispatch *e = open_pair(1);
    if (e && j1) {
        CHECK_STATUS(pf_dispatch_costs_parse(e, j1), PF_OK);
        CHECK_STATUS(pf_dispatch_costs_json(e, &j2), PF_OK);
        CHECK(j2 && strcmp(j1, j2) == 0);
        CHECK_STATUS(pf_dispatch_test_hooks(e, "cpu", (int64_t)dc, -1), PF_OK);
        CHECK_STATUS(pf_dispatch_test_hooks(e, "opencl:0", (int64_t)dg, -1), PF_OK);
        CHECK_STATUS(pf_dispatch_run(e, &desc, b.n, b.im, b.prm, &t, NULL), PF_OK);
        CHECK_STATUS(pf_dispatch_device_stats_get(e, 1, &g), PF_OK);
        CHECK(strncmp(g.reason, "cost ", 5) == 0);
        double s1 = (double)g.last_samples / b.n;
        printf("loaded model, first batch: opencl share %.3f\n", s1);
        CHECK(fabs(s1 - ideal) <= 0.10 * ideal + 2.0 / MAXN);
    }
    free(j1);
    free(j2);
    pf_dispatch_close(e);
    /* a useless device: hundreds of times the CPU's cost is dropped, and says so */
    CHECK_STATUS(pf_dispatch_test_hooks(d, "cpu", 500, -1), PF_OK);
    CHECK_STATUS(pf_dispatch_test_hooks(d, "opencl:0", 300000, -1), PF_OK);
    for (int i = 0; i < 3; ++i) CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &t, NULL), PF_OK);
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 1, &g), PF_OK);
    printf("dropped: \"%s\"\n", g.reason);
    CHECK(g.dropped && g.last_samples == 0 && strncmp(g.reason, "dropped", 7) == 0);
    /* an override brings it back */
    CHECK_STATUS(pf_dispatch_test_hooks(d, "opencl:0", 0, -1), PF_OK);
    CHECK_STATUS(pf_dispatch_set_share(d, "opencl:0", 1), PF_OK);
    CHECK_STATUS(pf_dispatch_set_share(d, "cpu", 1), PF_OK);
    CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &t, NULL), PF_OK);
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 1, &g), PF_OK);
    CHECK(!g.dropped && g.last_samples > 0);
    free(buf);
    batch_free(&b);
    pf_dispatch_close(d);
}

/* A device failing mid-batch (each device in turn, both placements). */
static void test_failure(void) {
    pf_preprocess_desc desc;
    pf_aug_policy pol;
    CHECK_STATUS(pf_recipe("imagenet-train", &desc, &pol), PF_OK);
    desc.out_width = desc.out_height = 32;
    uint64_t r = 7;
    batch b;
    batch_make(&b, &r, 20, 24, 80);
    sample_params(&pol, 3, &b);
    void *wbuf, *gbuf;
    size_t bytes;
    pf_tensor tw = tensor_for(&desc, b.n, &wbuf, &bytes), tg = tensor_for(&desc, b.n, &gbuf, &bytes);
    pf_preprocess_plan *plan;
    CHECK_STATUS(pf_preprocess_plan_create(&desc, &plan), PF_OK);
    CHECK_STATUS(pf_preprocess_run(plan, NULL, b.n, b.im, b.prm, &tw, NULL), PF_OK);
    pf_preprocess_plan_destroy(plan);
    for (int stealing = 0; stealing < 2; ++stealing)
        for (int dev = 0; dev < 2; ++dev) {
            pf_dispatch *d = open_pair(stealing);
            if (!d) continue;
            CHECK_STATUS(pf_dispatch_set_share(d, "cpu", 1), PF_OK);
            CHECK_STATUS(pf_dispatch_set_share(d, "opencl:0", 1), PF_OK);
            const char *name = dev ? "opencl:0" : "cpu";
            /* 2 ms per sample on both: the batch lasts long enough that a
             * thread starting late on a loaded machine still gets chunks */
            CHECK_STATUS(pf_dispatch_test_hooks(d, dev ? "cpu" : "opencl:0", 2000, -1), PF_OK);
            CHECK_STATUS(pf_dispatch_test_hooks(d, name, 2000, 2), PF_OK);
            memset(gbuf, 0, bytes);
            CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &tg, NULL), PF_OK);
            CHECK(memcmp(wbuf, gbuf, bytes) == 0);
            pf_dispatch_device_stats f, o;
            CHECK_STATUS(pf_dispatch_device_stats_get(d, dev, &f), PF_OK);
            CHECK_STATUS(pf_dispatch_device_stats_get(d, 1 - dev, &o), PF_OK);
            printf("failure on %s (%s): failed \"%s\"; %s ran %llu samples\n", name,
                   stealing ? "work stealing" : "static", f.reason, o.name, (unsigned long long)o.last_samples);
            CHECK(f.failures == 1 && strstr(f.reason, "failed: ") && strstr(f.reason, "test failure hook"));
            CHECK(f.last_samples + o.last_samples == (uint64_t)b.n && o.last_samples > (uint64_t)b.n / 2);
            /* the next batch has both again */
            memset(gbuf, 0, bytes);
            CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &tg, NULL), PF_OK);
            CHECK(memcmp(wbuf, gbuf, bytes) == 0);
            CHECK_STATUS(pf_dispatch_device_stats_get(d, dev, &f), PF_OK);
            /* static ranges: it has its half again (with stealing, a thread
             * that starts late may find nothing left: timing, not a rule) */
            CHECK(f.failures == 1 && (stealing || f.last_samples == (uint64_t)b.n / 2));
            pf_dispatch_close(d);
        }
    free(wbuf);
    free(gbuf);
    batch_free(&b);
}

/* dst on opencl:0: its own samples in place, the CPU's uploaded; any
 * split gives the CPU's bytes (downloaded to compare). */
static void test_device_dst(pf_device *dev) {
    pf_dispatch *steal = open_pair(1), *fixed = open_pair(0);
    if (!steal || !fixed) return;
    uint64_t r = 0xd57;
    int same_all = 1;
    for (int it = 0; it < 24; ++it) {
        pf_preprocess_desc desc;
        pf_aug_policy pol;
        random_desc(&r, &desc, &pol);
        batch b;
        batch_make(&b, &r, pft_range(&r, 1, 12), 6, 64);
        sample_params(&pol, (uint64_t)it + 1000, &b);
        void *wbuf, *gbuf;
        size_t bytes;
        pf_tensor tw = tensor_for(&desc, b.n, &wbuf, &bytes);
        pf_tensor tg = tensor_for(&desc, b.n, &gbuf, &bytes);
        pf_preprocess_plan *plan;
        CHECK_STATUS(pf_preprocess_plan_create(&desc, &plan), PF_OK);
        CHECK_STATUS(pf_preprocess_run(plan, NULL, b.n, b.im, b.prm, &tw, NULL), PF_OK);
        pf_preprocess_plan_destroy(plan);
        void *dbuf = NULL;
        CHECK_STATUS(pf_malloc(dev, PF_ALLOC_DEVICE, bytes, &dbuf), PF_OK);
        pf_tensor td = tg;
        td.data = dbuf;
        td.mem = PF_MEM_OPENCL;
        td.device = 0;
        pf_dispatch *d = it % 2 ? steal : fixed;
        CHECK_STATUS(pf_dispatch_set_share(d, "cpu", (double)pft_range(&r, 0, 3)), PF_OK);
        CHECK_STATUS(pf_dispatch_set_share(d, "opencl:0", (double)pft_range(&r, 1, 3)), PF_OK);
        CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &td, NULL), PF_OK);
        memset(gbuf, 0x11, bytes);
        CHECK_STATUS(pf_memcpy_async(NULL, gbuf, dbuf, bytes), PF_OK);
        int same = memcmp(wbuf, gbuf, bytes) == 0;
        CHECK(same);
        same_all &= same;
        pf_free(dev, PF_ALLOC_DEVICE, dbuf);
        free(wbuf);
        free(gbuf);
        batch_free(&b);
    }
    pf_dispatch_device_stats c;
    CHECK_STATUS(pf_dispatch_device_stats_get(steal, 0, &c), PF_OK);
    printf("device dst: 24 batches into opencl:0 memory, %s; the cpu uploaded %llu bytes\n",
           same_all ? "all identical" : "MISMATCH", (unsigned long long)c.upload_bytes);
    CHECK(c.upload_bytes > 0);
    pf_dispatch_close(steal);
    pf_dispatch_close(fixed);
}

/* Three devices (ctest hetero_props_three: PoCL with POCL_DEVICES="pthread
 * pthread" lists two): "auto" opens them all; equal delays give equal
 * thirds (the tail rule must leave the last sample to someone); random
 * forced splits over the three give the CPU's bytes. */
static int test_three(void) {
    int n = 0;
    if (pf_device_count(PF_DEVICE_OPENCL, &n) != PF_OK || n < 2) {
        fprintf(stderr, "hetero_props --three: %d OpenCL devices; run it with POCL_DEVICES=\"pthread pthread\"\n", n);
        return 1;
    }
    pf_dispatch_config c = pf_dispatch_config_defaults();
    c.cpu_threads = 2;
    pf_dispatch *d = NULL;
    CHECK_STATUS(pf_dispatch_open(&c, &d), PF_OK); /* auto */
    if (d == NULL) return 1;
    CHECK(pf_dispatch_device_count(d) >= 3);
    pf_dispatch_close(d);
    c.devices = "cpu,opencl:0,opencl:1";
    for (int stealing = 1; stealing >= 0; --stealing) {
        c.work_stealing = stealing;
        CHECK_STATUS(pf_dispatch_open(&c, &d), PF_OK);
        if (d == NULL) return 1;
        uint64_t r = 0x3d3 + (uint64_t)stealing;
        for (int it = 0; it < 40; ++it) {
            pf_preprocess_desc desc;
            pf_aug_policy pol;
            random_desc(&r, &desc, &pol);
            batch b;
            batch_make(&b, &r, pft_range(&r, 1, 12), 6, 48);
            sample_params(&pol, (uint64_t)it + 77, &b);
            void *wbuf, *gbuf;
            size_t bytes;
            pf_tensor tw = tensor_for(&desc, b.n, &wbuf, &bytes), tg = tensor_for(&desc, b.n, &gbuf, &bytes);
            pf_preprocess_plan *plan;
            CHECK_STATUS(pf_preprocess_plan_create(&desc, &plan), PF_OK);
            CHECK_STATUS(pf_preprocess_run(plan, NULL, b.n, b.im, b.prm, &tw, NULL), PF_OK);
            pf_preprocess_plan_destroy(plan);
            CHECK_STATUS(pf_dispatch_set_share(d, "cpu", (double)pft_range(&r, 0, 3)), PF_OK);
            CHECK_STATUS(pf_dispatch_set_share(d, "opencl:0", (double)pft_range(&r, 0, 3)), PF_OK);
            CHECK_STATUS(pf_dispatch_set_share(d, "opencl:1", (double)pft_range(&r, 1, 3)), PF_OK);
            memset(gbuf, 0x77, bytes);
            CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &tg, NULL), PF_OK);
            CHECK(memcmp(wbuf, gbuf, bytes) == 0);
            free(wbuf);
            free(gbuf);
            batch_free(&b);
        }
        /* cost-placed, equal delays: thirds */
        CHECK_STATUS(pf_dispatch_pin(d, NULL), PF_OK);
        pf_preprocess_desc desc = pf_preprocess_desc_defaults();
        desc.out_width = desc.out_height = 8;
        uint64_t r2 = 5;
        batch b;
        batch_make(&b, &r2, MAXN, 8, 12);
        pf_aug_policy pol = pf_aug_policy_defaults();
        sample_params(&pol, 9, &b);
        void *buf;
        size_t bytes;
        pf_tensor t = tensor_for(&desc, b.n, &buf, &bytes);
        const char *names[3] = {"cpu", "opencl:0", "opencl:1"};
        /* 8 ms per sample: a thread that a loaded machine starts late
         * loses little; 6 batches settle calibration and the one probe
         * batch of the best device alone */
        for (int i = 0; i < 3; ++i) CHECK_STATUS(pf_dispatch_test_hooks(d, names[i], 8000, -1), PF_OK);
        for (int i = 0; i < 6; ++i) CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &t, NULL), PF_OK);
        uint64_t got[3] = {0, 0, 0};
        for (int k = 0; k < 4; ++k) {
            CHECK_STATUS(pf_dispatch_run(d, &desc, b.n, b.im, b.prm, &t, NULL), PF_OK);
            for (int i = 0; i < 3; ++i) {
                pf_dispatch_device_stats s;
                CHECK_STATUS(pf_dispatch_device_stats_get(d, i, &s), PF_OK);
                got[i] += s.last_samples;
                if (getenv("PFT_VERBOSE"))
                    printf("  batch %d %s: %llu samples, %llu chunks total, %s\n", k, s.name,
                           (unsigned long long)s.last_samples, (unsigned long long)s.chunks, s.reason);
            }
        }
        double tot = (double)(got[0] + got[1] + got[2]), sh[3];
        for (int i = 0; i < 3; ++i) sh[i] = (double)got[i] / tot;
        printf("three devices (%s): shares %.3f %.3f %.3f (ideal 0.333 each)\n", stealing ? "stealing" : "static",
               sh[0], sh[1], sh[2]);
        for (int i = 0; i < 3; ++i) CHECK(fabs(sh[i] - 1.0 / 3) <= 0.10 / 3 + 1.0 / MAXN);
        free(buf);
        batch_free(&b);
        pf_dispatch_close(d);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--three") == 0) {
        pf_device *dev = pft_opencl_device_or_skip("hetero_props --three");
        int rc = test_three();
        pf_device_close(dev);
        return rc ? rc : pft_summary("hetero_props --three");
    }
    pf_device *dev = pft_opencl_device_or_skip("hetero_props");
    test_property();
    test_delay_split();
    test_failure();
    test_device_dst(dev);
    pf_device_close(dev);
    return pft_summary("hetero_props");
}
