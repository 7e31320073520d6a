/* pf_pipeline with the device placement (config.augment_device), run on
 * the CPU device: batches bit-identical to the default placement (tensor
 * bytes, labels, meta, order, skipped samples) for several worker counts,
 * RRC and letterbox recipes, PPM and JPEG data, folder and tar sources,
 * sharding and resume, skip/fail policies, a
 * consumer stream; staging memory stays under its cap over several
 * epochs; a cap too small for one batch stops with an error naming
 * config.staging_bytes; destroy mid-epoch; config errors name the field.
 * With a GPU (and a device preprocess) the CUDA case is compared too. */
#include <dirent.h>
#include <time.h>

#include "pipeline_device_compare.h"

#define N_FILES 37

static char g_dir[2000];
static pf_device *g_cpu;

static void test_identical_ppm(void) {
    pf_pipeline_config c = folder_config(g_dir);
    compare(c, g_cpu, NULL, "RRC + jitter, NCHW f32");
    /* letterbox, NHWC u8, a partial last batch */
    c = folder_config(g_dir);
    c.desc.letterbox = true;
    c.desc.pad_value[0] = c.desc.pad_value[1] = c.desc.pad_value[2] = 114;
    c.desc.out_layout = PF_HWC;
    c.desc.out_dtype = PF_U8;
    c.policy = pf_aug_policy_defaults();
    c.policy.hflip_p = 0.5f;
    c.batch_size = 4;
    c.epochs = 1;
    compare(c, g_cpu, NULL, "letterbox, NHWC u8");
    /* eval-style, gray output, drop_last, no shuffle */
    c = folder_config(g_dir);
    pf_recipe("imagenet-eval", &c.desc, &c.policy);
    c.desc.out_width = c.desc.out_height = 24;
    c.policy.resize_shorter = 28;
    c.policy.center_crop_w = c.policy.center_crop_h = 24;
    c.desc.out_channels = 1;
    c.desc.out_dtype = PF_F16;
    c.drop_last = true;
    c.shuffle = false;
    compare(c, g_cpu, NULL, "eval, gray f16, drop_last");
}

/* With a consumer stream (a CPU stream of the CPU device). */
static void test_consumer_stream(void) {
    pf_stream *s;
    CHECK_STATUS(pf_stream_create(g_cpu, &s), PF_OK);
    compare(folder_config(g_dir), g_cpu, s, "consumer stream");
    pf_stream_destroy(s);
}

/* JPEG samples: the ROI decode of the crop, mapped back in meta. */
static void test_identical_jpeg(void) {
    if (strstr(pf_build_info(), "codec=off") != NULL) {
        printf("test_pipeline_device: built without the codec, JPEG samples not compared\n");
        return;
    }
    char dir[2100], path[4300], src[4300];
    snprintf(dir, sizeof dir, "%s_jpeg", g_dir);
    mkdir(dir, 0755);
    const char *names[] = {"astronaut_500x375.jpg", "chelsea_333x251.jpg", "coffee_500x375.jpg",
                           "ladybird_375x500.jpg", "rocket_500x375.jpg", "hubble_640x480_progressive.jpg",
                           "camera_gray_512x512.jpg"};
    for (int i = 0; i < 14; i++) {
        snprintf(src, sizeof src, "%s/%s", PF_DATA_DIR, names[i % 7]);
        snprintf(path, sizeof path, "%s/img_%02d.jpg", dir, i);
        if (symlink(src, path) != 0) perror(path);
    }
    pf_pipeline_config c = folder_config(dir);
    c.desc.out_width = 64;
    c.desc.out_height = 48;
    c.batch_size = 4;
    compare(c, g_cpu, NULL, "JPEG, RRC");
    c.desc.letterbox = true;
    c.policy.random_resized_crop = false;
    c.epochs = 1;
    compare(c, g_cpu, NULL, "JPEG, letterbox");
    fx_rm_rf(dir);
}

/* Tar shards, sharded over 2 ranks, resumed mid-epoch. */
static void test_tar_and_resume(void) {
    char dir[2100];
    static char paths[3][4096];
    snprintf(dir, sizeof dir, "%s_tar", g_dir);
    fx_make_tars(dir, 3, 9, paths);
    const char *shards[3] = {paths[0], paths[1], paths[2]};
    pf_pipeline_config c = fx_config();
    c.source.kind = PF_SOURCE_TAR;
    c.source.shards = shards;
    c.source.shard_count = 3;
    c.shuffle_buffer = 7;
    compare(c, g_cpu, NULL, "tar");
    c.source.kind = PF_SOURCE_FOLDER;
    c.source.path = g_dir;
    c.source.shards = NULL;
    c.source.shard_count = 0;
    c.world_size = 2;
    c.rank = 1;
    c.start_epoch = 0;
    c.start_position = 7;
    compare(c, g_cpu, NULL, "rank 1 of 2, resumed at position 7");
    fx_rm_rf(dir);
}

static void test_errors(void) {
    char dir[2100];
    snprintf(dir, sizeof dir, "%s_bad", g_dir);
    fx_make_folder(dir, 23, 3);
    fx_add_broken(dir);
    pf_pipeline_config c = folder_config(dir);
    compare(c, g_cpu, NULL, "skip errors");
    c.on_error = PF_ON_ERROR_FAIL;
    compare(c, g_cpu, NULL, "fail errors");
    fx_rm_rf(dir);
}

/* Peak staging stays under a small cap over several epochs, results
 * unchanged; a cap below one batch stops with an error naming the field. */
static void test_memory_cap(void) {
    pf_pipeline_config c = folder_config(g_dir);
    c.epochs = 4;
    c.workers = 2;
    dev_batch *ref = calloc(MAXB, sizeof *ref), *got = calloc(MAXB, sizeof *got);
    run_result rr, rg;
    run(&c, ref, MAXB, &rr);
    c.augment_device = g_cpu;
    c.staging_bytes = 96 * 1024; /* images here are <= 70x64x3 = 13 KiB: about 2 batches of 5 */
    run(&c, got, MAXB, &rg);
    CHECK(same(ref, &rr, got, &rg));
    CHECK(rg.stats.staging_pinned.cap == 96 * 1024 && rg.stats.staging_pinned.peak_reserved <= 96 * 1024);
    CHECK(rg.stats.staging_device.peak_reserved <= 96 * 1024);
    CHECK(rg.stats.staging_pinned.peak_reserved > 0 && rg.stats.staging_pinned.in_use == 0);
    /* default cap: batch_size x 1 MiB x (prefetch + 2), at least 64 MiB */
    c.staging_bytes = 0;
    run(&c, got, 2, &rg);
    CHECK(rg.stats.staging_pinned.cap == (size_t)64 << 20);

    /* 12 KiB cannot hold a batch of 5 images of ~2..13 KiB */
    c.staging_bytes = 12 * 1024;
    c.epochs = 1;
    pf_pipeline *p;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
    pf_status st = PF_OK;
    const pf_batch *b;
    for (int i = 0; i < 100 && st == PF_OK; i++) {
        st = pf_pipeline_next(p, &b, 20000);
        if (st == PF_OK && b == NULL) break;
        if (st == PF_OK) pf_batch_release(p, b);
    }
    CHECK(st == PF_ERR_OUT_OF_MEMORY);
    if (getenv("PFT_VERBOSE")) printf("too small a cap: %s\n", pf_last_error());
    CHECK_MSG("config.staging_bytes");
    /* terminal: the state says so, and every later call repeats the cause */
    pf_status cause = PF_OK;
    CHECK(pf_pipeline_state_get(p, &cause) == PF_PIPELINE_FAILED && cause == PF_ERR_OUT_OF_MEMORY);
    for (int i = 0; i < 3; i++) {
        CHECK_STATUS(pf_pipeline_next(p, &b, 0), PF_ERR_OUT_OF_MEMORY);
        CHECK_MSG("config.staging_bytes");
    }
    pf_pipeline_destroy(p);
    free(ref);
    free(got);
}

/* An image larger than the whole cap fails that sample only; the others
 * (batch 1: one image per batch) go through a cap that holds ~1 of them. */
static void test_image_over_cap(void) {
    pf_pipeline_config c = folder_config(g_dir);
    c.augment_device = g_cpu;
    c.batch_size = 1;
    c.epochs = 1;
    c.staging_bytes = 8192;
    pf_pipeline *p;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
    const pf_batch *b;
    int n = 0;
    while (pf_pipeline_next(p, &b, 20000) == PF_OK && b) {
        n++;
        pf_batch_release(p, b);
    }
    pf_pipeline_stats st;
    pf_pipeline_stats_get(p, &st);
    pf_sample_error e[64];
    int ne = pf_pipeline_errors(p, e, 64);
    CHECK(st.skipped > 0 && n + (int)st.skipped == N_FILES && ne == (int)st.skipped);
    CHECK(ne > 0 && e[0].status == PF_ERR_OUT_OF_MEMORY && strstr(e[0].reason, "config.staging_bytes") != NULL);
    CHECK(st.staging_pinned.peak_reserved <= 8192);
    pf_pipeline_destroy(p);
}

static void test_destroy_mid_epoch(void) {
    pf_pipeline_config c = folder_config(g_dir);
    c.augment_device = g_cpu;
    c.epochs = 0; /* endless */
    for (int k = 0; k < 3; k++) {
        pf_pipeline *p;
        CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
        const pf_batch *b1 = NULL, *b2 = NULL;
        if (k >= 1) CHECK_STATUS(pf_pipeline_next(p, &b1, 20000), PF_OK);
        if (k >= 2) {
            pf_batch_release(p, b1);
            CHECK_STATUS(pf_pipeline_next(p, &b1, 20000), PF_OK);
            CHECK_STATUS(pf_pipeline_next(p, &b2, 20000), PF_OK); /* two held */
            CHECK(b1 && b2 && b1->tensor.data != b2->tensor.data);
        }
        pf_pipeline_destroy(p); /* k = 0: right after create; held batches are dropped */
    }
    /* with a tight cap: workers wait for staging turns and memory while
     * the consumer holds every device tensor, then destroy */
    c.staging_bytes = 96 * 1024; /* holds any batch of these images (test_memory_cap) */
    c.workers = 4;
    for (int k = 0; k < 3; k++) {
        pf_pipeline *p;
        CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
        const pf_batch *held[3];
        for (int i = 0; i < 3; i++) CHECK_STATUS(pf_pipeline_next(p, &held[i], 20000), PF_OK);
        if (k == 1) pf_batch_release(p, held[0]);
        if (k == 2) {
            struct timespec ts = {0, 20 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        pf_pipeline_destroy(p);
    }
}

static pf_status custom_process(void *ctx, void *state, const pf_sample_input *in, pf_tensor *slot,
                                pf_sample_meta *meta) {
    (void)ctx, (void)state, (void)in, (void)slot, (void)meta;
    return PF_OK;
}

static void *my_alloc(void *ctx, size_t bytes) { (void)ctx; return aligned_alloc(64, bytes); }
static void my_free(void *ctx, void *ptr, size_t bytes) { (void)ctx, (void)bytes; free(ptr); }

static void test_config_errors(void) {
    pf_pipeline *p = NULL;
    pf_stream *s;
    CHECK_STATUS(pf_stream_create(g_cpu, &s), PF_OK);
    pf_pipeline_config c = folder_config(g_dir);
    c.consumer_stream = s;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.consumer_stream");
    c = folder_config(g_dir);
    c.staging_bytes = 1 << 20;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.staging_bytes");
    c = folder_config(g_dir);
    c.augment_device = g_cpu;
    c.sample_fn.process = custom_process;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_ERR_UNSUPPORTED);
    CHECK_MSG("config.sample_fn");
    c = folder_config(g_dir);
    c.augment_device = g_cpu;
    c.allocator.alloc = my_alloc;
    c.allocator.free = my_free;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.allocator");
    c = folder_config(g_dir);
    c.augment_device = g_cpu;
    c.staging_bytes = 100;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.staging_bytes");
    /* a bad policy fails at create, as with the default placement */
    c = folder_config(g_dir);
    c.augment_device = g_cpu;
    c.policy.hflip_p = 2.0f;
    CHECK(pf_pipeline_create(&c, &p) == PF_ERR_INVALID_ARGUMENT);
    CHECK(p == NULL);
    pf_stream_destroy(s);
    /* a consumer stream of another device: a CUDA stream with the CPU
     * device (only where a GPU is present) */
    int ncuda = 0;
    pf_device_count(PF_DEVICE_CUDA, &ncuda);
    if (ncuda > 0) {
        pf_device *gpu;
        CHECK_STATUS(pf_device_open(PF_DEVICE_CUDA, 0, &gpu), PF_OK);
        CHECK_STATUS(pf_stream_create(gpu, &s), PF_OK);
        c = folder_config(g_dir);
        c.augment_device = g_cpu;
        c.consumer_stream = s;
        CHECK_STATUS(pf_pipeline_create(&c, &p), PF_ERR_INVALID_ARGUMENT);
        CHECK_MSG("config.consumer_stream");
        pf_stream_destroy(s);
        pf_device_close(gpu);
    }
}

/* The CUDA placement, where a GPU is present: device tensors, compared
 * with the default placement. */
static void test_cuda(void) {
    int ncuda = 0;
    pf_device_count(PF_DEVICE_CUDA, &ncuda);
    if (ncuda == 0) {
        printf("test_pipeline_device: no CUDA device, the CUDA placement is not run\n");
        return;
    }
    pf_device *gpu;
    CHECK_STATUS(pf_device_open(PF_DEVICE_CUDA, 0, &gpu), PF_OK);
    pf_stream *s;
    CHECK_STATUS(pf_stream_create(gpu, &s), PF_OK);
    pf_pipeline_config c = folder_config(g_dir);
    c.augment_device = gpu;
    c.consumer_stream = s;
    pf_pipeline *p;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
    const pf_batch *b;
    pf_status st = pf_pipeline_next(p, &b, 20000);
    CHECK_STATUS(st, PF_OK);
    CHECK(st == PF_OK && b != NULL && b->tensor.mem == PF_MEM_CUDA && b->tensor.device == 0);
    if (st == PF_OK && b) pf_batch_release(p, b);
    pf_pipeline_destroy(p);
    compare(folder_config(g_dir), gpu, s, "CUDA");
    pf_stream_destroy(s);
    pf_device_close(gpu);
}

int main(void) {
    fx_tmpdir(g_dir, sizeof g_dir, "pipeline_device");
    fx_make_folder(g_dir, N_FILES, 3);
    if (pf_device_open(PF_DEVICE_CPU, 0, &g_cpu) != PF_OK) {
        fprintf(stderr, "cannot open the CPU device: %s\n", pf_last_error());
        return 1;
    }
    test_identical_ppm();
    test_consumer_stream();
    test_identical_jpeg();
    test_tar_and_resume();
    test_errors();
    test_memory_cap();
    test_image_over_cap();
    test_destroy_mid_epoch();
    test_config_errors();
    test_cuda();
    pf_device_close(g_cpu);
    fx_rm_rf(g_dir);
    return pft_summary("test_pipeline_device");
}
