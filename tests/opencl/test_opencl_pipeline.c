/* pf_pipeline with the device placement on an OpenCL device (PoCL in CI):
 * config.augment_device = OpenCL device 0, so the device stage uploads the
 * decoded crops into SVM, runs the fused pf_preprocess_run on the OpenCL
 * compute queue and hands out OpenCL batch tensors. Everything the
 * consumer sees (tensor bytes, downloaded; labels, meta, order, resume
 * points, skipped samples) must equal the default placement's, for 1, 2
 * and 4 workers: RRC + flip + colour jitter (contrast's pre-pass too),
 * letterbox u8 NHWC, eval gray f16, JPEG photos (ROI decode), skip and
 * fail policies, a consumer queue of the device, a staging cap that makes
 * workers wait. Also: the batch tensor is OpenCL memory of device 0
 * (pf_pointer_memory), a consumer stream of another device is refused
 * naming the field, destroy with batches held. The harness is the CPU
 * device test's (tests/pipeline/pipeline_device_compare.h). */
#include "../pipeline/pipeline_device_compare.h"
#include "opencl_util.h"

#define N_FILES 23

static char g_dir[2000];
static pf_device *g_cl;

static void test_identical_ppm(void) {
    pf_pipeline_config c = folder_config(g_dir);
    compare(c, g_cl, NULL, "OpenCL: RRC + flip + jitter, NCHW f32");
    c = folder_config(g_dir);
    c.desc.letterbox = true;
    c.desc.pad_value[0] = c.desc.pad_value[1] = c.desc.pad_value[2] = 114;
    c.desc.out_layout = PF_HWC;
    c.desc.out_dtype = PF_U8;
    c.policy = pf_aug_policy_defaults();
    c.policy.hflip_p = 0.5f;
    c.batch_size = 4;
    c.epochs = 1;
    compare(c, g_cl, NULL, "OpenCL: letterbox, NHWC u8");
    c = folder_config(g_dir);
    pf_recipe("imagenet-eval", &c.desc, &c.policy);
    c.desc.out_width = c.desc.out_height = 24;
    c.policy.resize_shorter = 28;
    c.policy.center_crop_w = c.policy.center_crop_h = 24;
    c.desc.out_channels = 1;
    c.desc.out_dtype = PF_F16;
    c.drop_last = true;
    c.shuffle = false;
    c.epochs = 1;
    compare(c, g_cl, NULL, "OpenCL: eval, gray f16, drop_last");
}

/* The consumer's own queue of the device: pf_pipeline_next orders it
 * after the batch (no host wait), the release is recorded on it. */
static void test_consumer_stream(void) {
    pf_stream *s;
    CHECK_STATUS(pf_stream_create(g_cl, &s), PF_OK);
    pf_pipeline_config c = folder_config(g_dir);
    c.epochs = 1;
    compare(c, g_cl, s, "OpenCL: consumer stream");
    pf_stream_destroy(s);
}

/* The photos of data/ with the imagenet-train recipe (224 x 224, RRC, flip,
 * colour jitter): what `pixflow run data --device opencl:0` runs. */
static void test_identical_jpeg(void) {
#ifdef PF_DATA_DIR
    char dir[2100], path[4300], src[4300];
    snprintf(dir, sizeof dir, "%s_jpeg", g_dir);
    mkdir(dir, 0755);
    const char *names[] = {"astronaut_500x375.jpg", "chelsea_333x251.jpg", "coffee_500x375.jpg",
                           "ladybird_375x500.jpg", "rocket_500x375.jpg", "hubble_640x480_progressive.jpg",
                           "camera_gray_512x512.jpg"};
    for (int i = 0; i < 7; i++) {
        snprintf(src, sizeof src, "%s/%s", PF_DATA_DIR, names[i]);
        snprintf(path, sizeof path, "%s/img_%02d.jpg", dir, i);
        if (symlink(src, path) != 0) perror(path);
    }
    pf_pipeline_config c = folder_config(dir);
    CHECK_STATUS(pf_recipe("imagenet-train", &c.desc, &c.policy), PF_OK);
    c.policy.color_jitter = true;
    c.batch_size = 4;
    c.epochs = 1;
    compare(c, g_cl, NULL, "OpenCL: JPEG, imagenet-train + jitter");
    fx_rm_rf(dir);
#else
    printf("test_opencl_pipeline: built without the codec, JPEG samples not compared\n");
#endif
}

static void test_errors(void) {
    char dir[2100];
    snprintf(dir, sizeof dir, "%s_bad", g_dir);
    fx_make_folder(dir, 13, 3);
    fx_add_broken(dir);
    pf_pipeline_config c = folder_config(dir);
    c.epochs = 1;
    compare(c, g_cl, NULL, "OpenCL: skip errors");
    c.on_error = PF_ON_ERROR_FAIL;
    compare(c, g_cl, NULL, "OpenCL: fail errors");
    fx_rm_rf(dir);
}

/* A staging cap of about two batches: workers wait for pinned memory of
 * the OpenCL device, results unchanged, peaks under the cap. */
static void test_memory_cap(void) {
    pf_pipeline_config c = folder_config(g_dir);
    c.workers = 2;
    dev_batch *ref = calloc(MAXB, sizeof *ref), *got = calloc(MAXB, sizeof *got);
    run_result rr, rg;
    run(&c, ref, MAXB, &rr);
    c.augment_device = g_cl;
    c.staging_bytes = 96 * 1024;
    run(&c, got, MAXB, &rg);
    CHECK(same(ref, &rr, got, &rg));
    CHECK(rg.stats.staging_pinned.cap == 96 * 1024 && rg.stats.staging_pinned.peak_reserved <= 96 * 1024);
    CHECK(rg.stats.staging_device.peak_reserved <= 96 * 1024);
    CHECK(rg.stats.staging_pinned.peak_reserved > 0 && rg.stats.staging_pinned.in_use == 0);
    free(ref);
    free(got);
}

/* The batches are OpenCL device tensors: mem, device, and the memory
 * itself (pf_pointer_memory: SVM pixflow allocated on device 0); the
 * host sees none of it without a copy. */
static void test_device_tensors(void) {
    pf_pipeline_config c = folder_config(g_dir);
    c.augment_device = g_cl;
    c.epochs = 1;
    pf_pipeline *p;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
    const pf_batch *b = NULL;
    CHECK_STATUS(pf_pipeline_next(p, &b, 20000), PF_OK);
    CHECK(b != NULL && b->tensor.mem == PF_MEM_OPENCL && b->tensor.device == 0);
    if (b) {
        size_t bytes = (size_t)b->count * (size_t)b->tensor.sample_stride;
        pf_mem m = PF_MEM_HOST;
        int32_t d = -1;
        CHECK_STATUS(pf_pointer_memory(b->tensor.data, bytes, &m, &d), PF_OK);
        CHECK(m == PF_MEM_OPENCL && d == 0);
        pf_batch_release(p, b);
    }
    pf_pipeline_stats st;
    pf_pipeline_stats_get(p, &st);
    CHECK(st.stage[3].threads == 1 && st.device_tensors == 3);
    pf_pipeline_destroy(p);

    /* pf_pointer_memory on its own: an allocation, its last byte, host
     * memory, and a range from SVM into memory that is not */
    void *svm = NULL;
    CHECK_STATUS(pf_malloc(g_cl, PF_ALLOC_DEVICE, 4096, &svm), PF_OK);
    pf_mem m = PF_MEM_HOST;
    int32_t d = -1;
    CHECK_STATUS(pf_pointer_memory(svm, 4096, &m, &d), PF_OK);
    CHECK(m == PF_MEM_OPENCL && d == 0);
    CHECK_STATUS(pf_pointer_memory((char *)svm + 4095, 1, &m, &d), PF_OK);
    CHECK(m == PF_MEM_OPENCL && d == 0);
    /* 8 MiB past the end: outside it (allocations are far smaller) */
    CHECK_STATUS(pf_pointer_memory(svm, (size_t)8 << 20, &m, &d), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("not memory of one owner");
    char host[64];
    CHECK_STATUS(pf_pointer_memory(host, sizeof host, &m, &d), PF_OK);
    CHECK(m == PF_MEM_HOST && d == 0);
    void *pinned = NULL;
    CHECK_STATUS(pf_malloc(g_cl, PF_ALLOC_PINNED, 4096, &pinned), PF_OK);
    CHECK_STATUS(pf_pointer_memory(pinned, 4096, &m, &d), PF_OK);
    CHECK(m == PF_MEM_HOST); /* pinned memory is host memory */
    CHECK_STATUS(pf_pointer_memory(NULL, 1, &m, &d), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("ptr is NULL");
    pf_free(g_cl, PF_ALLOC_PINNED, pinned);
    pf_free(g_cl, PF_ALLOC_DEVICE, svm);
}

/* A consumer stream of the CPU device with an OpenCL augment device, and
 * destroy while the consumer holds every device tensor. */
static void test_config_and_destroy(void) {
    pf_device *cpu;
    CHECK_STATUS(pf_device_open(PF_DEVICE_CPU, 0, &cpu), PF_OK);
    pf_stream *s;
    CHECK_STATUS(pf_stream_create(cpu, &s), PF_OK);
    pf_pipeline_config c = folder_config(g_dir);
    c.augment_device = g_cl;
    c.consumer_stream = s;
    pf_pipeline *p = NULL;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config.consumer_stream");
    CHECK(p == NULL);
    pf_stream_destroy(s);
    pf_device_close(cpu);

    c = folder_config(g_dir);
    c.augment_device = g_cl;
    c.epochs = 0; /* endless */
    c.workers = 4;
    for (int k = 0; k < 2; k++) {
        CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
        const pf_batch *held[3];
        for (int i = 0; i < 3; i++) CHECK_STATUS(pf_pipeline_next(p, &held[i], 20000), PF_OK);
        if (k == 1) pf_batch_release(p, held[0]);
        pf_pipeline_destroy(p); /* held batches are dropped with it */
    }
}

int main(void) {
    g_cl = pft_opencl_device_or_skip("test_opencl_pipeline");
    fx_tmpdir(g_dir, sizeof g_dir, "opencl_pipeline");
    fx_make_folder(g_dir, N_FILES, 3);
    test_device_tensors();
    test_identical_ppm();
    test_consumer_stream();
    test_identical_jpeg();
    test_errors();
    test_memory_cap();
    test_config_and_destroy();
    pf_device_close(g_cl);
    fx_rm_rf(g_dir);
    return pft_summary("test_opencl_pipeline");
}
