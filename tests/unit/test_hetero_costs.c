/* The device dispatcher on the CPU alone (runs on every build): config and
 * argument errors, a batch equal to pf_preprocess_run's, the cost model's
 * JSON (round trip through memory and a file, and every kind of bad
 * input named by its field), and a device failure with no other device. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

#define N 9

static uint8_t pix[N][40 * 30 * 3];
static pf_image imgs[N];

static void make_images(void) {
    uint64_t r = 99;
    for (int i = 0; i < N; ++i) {
        int w = 20 + i * 2, h = 30 - i;
        for (int k = 0; k < w * h * 3; ++k) pix[i][k] = (uint8_t)pft_rand(&r);
        imgs[i] = pf_image_hwc(pix[i], w, h, 3, PF_U8, 0);
    }
}

static void test_config(void) {
    pf_dispatch *d = NULL;
    pf_dispatch_config c = pf_dispatch_config_defaults();
    c.devices = "cpu,gpu";
    CHECK_STATUS(pf_dispatch_open(&c, &d), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("\"gpu\" is not a device");
    CHECK(d == NULL);
    c.devices = "cpu,cpu";
    CHECK_STATUS(pf_dispatch_open(&c, &d), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("names cpu twice");
    c.devices = "cpu,,opencl:0";
    CHECK_STATUS(pf_dispatch_open(&c, &d), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.devices");
    c.devices = "cpu";
    c.ewma_alpha = 0;
    CHECK_STATUS(pf_dispatch_open(&c, &d), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.ewma_alpha");
    c.ewma_alpha = 0.5;
    c.drop_ratio = 1;
    CHECK_STATUS(pf_dispatch_open(&c, &d), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.drop_ratio");
    c.drop_ratio = 10;
    c.cpu_threads = -1;
    CHECK_STATUS(pf_dispatch_open(&c, &d), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.cpu_threads");
    CHECK_STATUS(pf_dispatch_open(&c, NULL), PF_ERR_INVALID_ARGUMENT);
    /* auto always has the CPU first */
    c = pf_dispatch_config_defaults();
    CHECK_STATUS(pf_dispatch_open(&c, &d), PF_OK);
    CHECK(pf_dispatch_device_count(d) >= 1);
    CHECK(strcmp(pf_dispatch_device_name(d, 0), "cpu") == 0);
    CHECK(pf_dispatch_device_name(d, pf_dispatch_device_count(d)) == NULL);
    CHECK_STATUS(pf_dispatch_pin(d, "cuda:7"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("not a device of this dispatcher");
    CHECK_STATUS(pf_dispatch_set_share(d, "cpu", (double)NAN), PF_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(pf_dispatch_test_hooks(d, "cpu", -5, -1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("delay_us");
    pf_dispatch_device_stats ds;
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 99, &ds), PF_ERR_INVALID_ARGUMENT);
    pf_dispatch_close(d);
    pf_dispatch_close(NULL);
}

static void test_run_cpu(void) {
    pf_preprocess_desc desc;
    pf_aug_policy pol;
    CHECK_STATUS(pf_recipe("imagenet-train", &desc, &pol), PF_OK);
    desc.out_width = 16;
    desc.out_height = 12;
    int32_t ws[N], hs[N];
    for (int i = 0; i < N; ++i) {
        ws[i] = imgs[i].width;
        hs[i] = imgs[i].height;
    }
    pf_aug_params prm[N];
    CHECK_STATUS(pf_aug_sample(&pol, 5, 0, 0, N, ws, hs, prm), PF_OK);
    size_t bytes = pf_tensor_packed_size(N, 3, 12, 16, PF_F32);
    float *want = malloc(bytes), *got = malloc(bytes);
    pf_tensor tw = pf_tensor_nchw(want, N, 3, 12, 16, PF_F32), tg = pf_tensor_nchw(got, N, 3, 12, 16, PF_F32);
    pf_preprocess_plan *plan;
    CHECK_STATUS(pf_preprocess_plan_create(&desc, &plan), PF_OK);
    CHECK_STATUS(pf_preprocess_run(plan, NULL, N, imgs, prm, &tw, NULL), PF_OK);
    pf_preprocess_plan_destroy(plan);

    pf_dispatch_config c = pf_dispatch_config_defaults();
    c.devices = "cpu";
    c.cpu_threads = 2;
    pf_dispatch *d;
    CHECK_STATUS(pf_dispatch_open(&c, &d), PF_OK);
    for (int round = 0; round < 3; ++round) {
        memset(got, 0xAB, bytes);
        CHECK_STATUS(pf_dispatch_run(d, &desc, N, imgs, prm, &tg, NULL), PF_OK);
        CHECK(memcmp(want, got, bytes) == 0);
    }
    pf_dispatch_device_stats ds;
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 0, &ds), PF_OK);
    CHECK(ds.samples == 3 * N && ds.last_samples == N && ds.last_share == 1.0 && ds.cost_ms > 0);
    CHECK(ds.upload_bytes == 0 && ds.download_bytes == 0);
    pf_dispatch_stats st;
    CHECK_STATUS(pf_dispatch_stats_get(d, &st), PF_OK);
    CHECK(st.batches == 3 && st.samples == 3 * N && st.overhead_ms >= 0 && st.overhead_ms <= st.wall_ms);
    /* argument errors, named */
    pf_tensor small = tg;
    small.n = N - 1;
    CHECK_STATUS(pf_dispatch_run(d, &desc, N, imgs, prm, &small, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst.n");
    pf_tensor dev = tg;
    dev.mem = PF_MEM_OPENCL;
    CHECK_STATUS(pf_dispatch_run(d, &desc, N, imgs, prm, &dev, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("not a device of this dispatcher");
    pf_image bad[N];
    memcpy(bad, imgs, sizeof bad);
    bad[4].channels = 2;
    CHECK_STATUS(pf_dispatch_run(d, &desc, N, bad, prm, &tg, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[4]");
    /* a crop outside its image: the plan's check, not a device failure */
    pf_aug_params bp[N];
    memcpy(bp, prm, sizeof bp);
    bp[7].crop_x = 1000;
    CHECK_STATUS(pf_dispatch_run(d, &desc, N, imgs, bp, &tg, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 0, &ds), PF_OK);
    CHECK(ds.failures == 0);
    /* the only device fails mid-batch: nothing can re-run it */
    CHECK_STATUS(pf_dispatch_test_hooks(d, "cpu", 0, 2), PF_OK);
    CHECK_STATUS(pf_dispatch_run(d, &desc, N, imgs, prm, &tg, NULL), PF_ERR_DEVICE);
    CHECK_MSG("every device failed");
    CHECK_MSG("test failure hook");
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 0, &ds), PF_OK);
    CHECK(ds.failures == 1 && strstr(ds.reason, "failed") != NULL);
    /* the hook is one-shot: the next batch is whole again */
    memset(got, 0, bytes);
    CHECK_STATUS(pf_dispatch_run(d, &desc, N, imgs, prm, &tg, NULL), PF_OK);
    CHECK(memcmp(want, got, bytes) == 0);
    /* every weight 0 */
    CHECK_STATUS(pf_dispatch_set_share(d, "cpu", 0), PF_OK);
    CHECK_STATUS(pf_dispatch_run(d, &desc, N, imgs, prm, &tg, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("weight 0");
    CHECK_STATUS(pf_dispatch_pin(d, NULL), PF_OK);
    CHECK_STATUS(pf_dispatch_run(d, &desc, 0, NULL, NULL, &tg, NULL), PF_OK);

    /* cost JSON: memory round trip, file round trip */
    char *j1 = NULL, *j2 = NULL;
    CHECK_STATUS(pf_dispatch_costs_json(d, &j1), PF_OK);
    CHECK(j1 != NULL && strstr(j1, "\"device\": \"cpu\"") && strstr(j1, "16x12x3/f32/chw/linear/aa0/opencv/lb0"));
    pf_dispatch *e;
    CHECK_STATUS(pf_dispatch_open(&c, &e), PF_OK);
    CHECK_STATUS(pf_dispatch_costs_parse(e, j1), PF_OK);
    CHECK_STATUS(pf_dispatch_costs_json(e, &j2), PF_OK);
    CHECK(j1 && j2 && strcmp(j1, j2) == 0);
    free(j2);
    j2 = NULL;
    char path[] = "/tmp/pf_hetero_costs_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) {
        FILE *f = fdopen(fd, "w");
        fclose(f);
        CHECK_STATUS(pf_dispatch_save_costs(d, path), PF_OK);
        pf_dispatch *g;
        CHECK_STATUS(pf_dispatch_open(&c, &g), PF_OK);
        CHECK_STATUS(pf_dispatch_load_costs(g, path), PF_OK);
        CHECK_STATUS(pf_dispatch_costs_json(g, &j2), PF_OK);
        CHECK(j1 && j2 && strcmp(j1, j2) == 0);
        free(j2);
        /* a loaded model places at once: no calibration */
        CHECK_STATUS(pf_dispatch_run(g, &desc, N, imgs, prm, &tg, NULL), PF_OK);
        CHECK_STATUS(pf_dispatch_device_stats_get(g, 0, &ds), PF_OK);
        CHECK(strncmp(ds.reason, "cost ", 5) == 0);
        pf_dispatch_close(g);
        remove(path);
    }
    CHECK_STATUS(pf_dispatch_load_costs(e, "/nonexistent/pf_costs.json"), PF_ERR_IO);
    CHECK_MSG("/nonexistent/pf_costs.json");
    CHECK_STATUS(pf_dispatch_save_costs(e, "/nonexistent/dir/pf_costs.json"), PF_ERR_IO);

    /* bad JSON: a status naming the field; the model stays as it was */
    static const struct {
        const char *json, *needle;
    } bad_json[] = {
        {"", "syntax error at byte 0"},
        {"[]", "syntax error"},
        {"{\"version\": 1, \"entries\": []}", "format is missing"},
        {"{\"format\": \"other\", \"version\": 1, \"entries\": []}", "format must be"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"entries\": []}", "version is missing"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"version\": 2, \"entries\": []}", "version must be 1"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"version\": \"1\", \"entries\": []}", "version must be a number"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"version\": 1}", "entries is missing"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"version\": 1, \"entries\": {}}", "entries must be an array"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"version\": 1, \"entries\": [3]}", "entries[0] must be an object"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"version\": 1, \"entries\": [{\"device\": \"cpu\", \"shape\": "
         "\"a/b\"}]}", "entries[0].ms_per_sample is missing"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"version\": 1, \"entries\": [{\"device\": \"cpu\", \"shape\": "
         "\"a/b\", \"ms_per_sample\": 1}, {\"device\": \"tpu:0\", \"shape\": \"a\", \"ms_per_sample\": 1}]}",
         "entries[1].device is not a device name"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"version\": 1, \"entries\": [{\"device\": \"cpu\", \"shape\": "
         "\"a/b\", \"ms_per_sample\": -1}]}", "entries[0].ms_per_sample must be a positive"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"version\": 1, \"entries\": [{\"device\": \"cpu\", \"shape\": "
         "\"a/b\", \"ms_per_sample\": \"fast\"}]}", "entries[0].ms_per_sample must be a number"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"version\": 1, \"entries\": [{\"device\": \"cpu\", \"shape\": "
         "\"a/b\", \"ms_per_sample\": 1, \"samples\": 1.5}]}", "entries[0].samples must be a whole number"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"version\": 1, \"entries\": [{\"device\": \"cpu\", \"shape\": "
         "\"A B\", \"ms_per_sample\": 1}]}", "entries[0].shape is not a shape key"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"version\": 1, \"entries\": [{\"device\": \"cpu\", \"shape\": "
         "\"a\", \"ms_per_sample\": 1}, {\"device\": \"cpu\", \"shape\": \"a\", \"ms_per_sample\": 2}]}",
         "entries[1] repeats"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"version\": 1, \"entries\": []} x", "text after the JSON object"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"version\": 1, \"entries\": [}", "entries[0] must be an object"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"version\": 1, \"entries\": [{\"device\": \"cpu\", \"shape\": "
         "\"a\", \"ms_per_sample\": 1e999}]}", "entries[0].ms_per_sample must be a positive finite"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"version\": 01, \"entries\": []}", "version must be 1"},
        {"{\"format\": \"pixflow-dispatch-costs\", \"version\": 1, \"entries\": [], \"x\": \"\\q\"}", "bad escape"},
    };
    for (size_t i = 0; i < sizeof bad_json / sizeof bad_json[0]; ++i) {
        CHECK_STATUS(pf_dispatch_costs_parse(e, bad_json[i].json), PF_ERR_CORRUPT_DATA);
        CHECK_MSG(bad_json[i].needle);
    }
    CHECK_STATUS(pf_dispatch_costs_json(e, &j2), PF_OK);
    CHECK(j1 && j2 && strcmp(j1, j2) == 0);
    free(j2);
    /* unknown fields are skipped; entries of other devices are kept */
    CHECK_STATUS(pf_dispatch_costs_parse(e, "{\"format\": \"pixflow-dispatch-costs\", \"version\": 1, \"note\": "
                                            "{\"a\": [1, true, null]}, \"entries\": [{\"device\": \"cuda:3\", "
                                            "\"shape\": \"8x8x3/u8/hwc/nearest/aa0/opencv/lb1\", \"ms_per_sample\": "
                                            "0.25, \"samples\": 10, \"extra\": 1}]}"),
                 PF_OK);
    CHECK_STATUS(pf_dispatch_costs_json(e, &j2), PF_OK);
    CHECK(j2 && strstr(j2, "\"cuda:3\"") && strstr(j2, "\"ms_per_sample\": 0.25, \"samples\": 10"));
    free(j2);
    free(j1);
    pf_dispatch_close(e);
    pf_dispatch_close(d);
    free(want);
    free(got);
}

/* config.augment_dispatch needs the CPU device as augment_device */
static void test_pipeline_config(void) {
    pf_dispatch_config dc = pf_dispatch_config_defaults();
    dc.devices = "cpu";
    pf_dispatch *d;
    CHECK_STATUS(pf_dispatch_open(&dc, &d), PF_OK);
    pf_pipeline_config c = pf_pipeline_config_defaults();
    CHECK_STATUS(pf_recipe("imagenet-train", &c.desc, &c.policy), PF_OK);
    c.source.kind = PF_SOURCE_FOLDER;
    c.source.path = "/nonexistent/pixflow-hetero";
    c.augment_dispatch = d;
    pf_pipeline *p = NULL;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.augment_dispatch");
    CHECK(p == NULL);
    pf_dispatch_close(d);
}

int main(void) {
    make_images();
    test_config();
    test_pipeline_config();
    test_run_cpu();
    return pft_summary("hetero_costs");
}
