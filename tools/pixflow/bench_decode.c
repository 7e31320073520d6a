/* pixflow bench decode: JPEG bytes in memory -> 224x224 CHW f32
 * imagenet-train sample (RandomResizedCrop + flip, ImageNet mean/std), on
 * the 500x375 and 1080p photos of data/, in one process:
 *   pixflow  pf_decode_augment: probe, sample, ROI (+ DCT-scaled) decode,
 *            fused preprocess; with DCT scaling (the training default) and
 *            without (ROI only: bit-identical to the full chain);
 *   (a)      cv::imdecode + the plain OpenCV chain (crop+resize, flip,
 *            convertTo, subtract, divide, split);
 *   (b)      full libjpeg-turbo decode (pf_decode) + pf_preprocess_run.
 * Each row compares one pixflow variant with (a); 1 and 2 threads (the
 * samples of a batch spread over the threads on both sides). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "pixflow/pixflow.h"
#include "timing.h"

#if defined(PF_BENCH_OPENCV) && defined(PF_HAVE_CODEC)
#include "opencv_decode.h"
#include "opencv_ref.h"

#define MAXB 32
#define OUT 224

typedef struct dec_ctx {
    int n;
    const void *data[MAXB];
    size_t size[MAXB];
    pf_stream *stream;           /* NULL (1 thread) or the 2-thread stream */
    int threads;
    pf_decode_augmenter *aug;    /* the variant being timed */
    pf_tensor tensor;
    /* (b) */
    pf_decoder *dec[2];
    pf_preprocess_plan *plan;
    uint8_t *img[MAXB];
    pf_image view[MAXB];
    pf_aug_params params[MAXB];
    int mode;                    /* 0: pixflow decode_augment, 1: (b) */
    /* (a) */
    pfb_cv_dec_sample cs[MAXB];
    pfb_cv_dec_job job;
} dec_ctx;

typedef struct half_job { dec_ctx *c; int first, last, d; int rc; } half_job;

static void *decode_range(void *p) {
    half_job *h = p;
    h->rc = 0;
    for (int i = h->first; i < h->last && h->rc == 0; i++)
        h->rc = pf_decode(h->c->dec[h->d], h->c->data[i], h->c->size[i], NULL, &h->c->view[i], NULL) != PF_OK;
    return NULL;
}

static int run_pf(void *p) {
    dec_ctx *c = p;
    if (c->mode == 0)
        return pf_decode_augment(c->aug, c->stream, c->n, c->data, c->size, 42, 0, 0, &c->tensor, NULL) == PF_OK ? 0
                                                                                                              : -1;
    /* (b): decode the batch (split over the threads), then the fused preprocess */
    half_job a = {c, 0, c->threads == 2 ? c->n / 2 : c->n, 0, 0}, b = {c, c->n / 2, c->n, 1, 0};
    pthread_t t;
    if (c->threads == 2 && pthread_create(&t, NULL, decode_range, &b) != 0) return -1;
    decode_range(&a);
    if (c->threads == 2) pthread_join(t, NULL);
    if (a.rc || (c->threads == 2 && b.rc)) return -1;
    return pf_preprocess_run(c->plan, c->stream, c->n, c->view, c->params, &c->tensor, NULL) == PF_OK ? 0 : -1;
}

static int run_cv(void *p) { return pfb_cv_decode_pre(&((dec_ctx *)p)->job); }

static double cpu_sec(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Process CPU ms per image of run_pf: on a shared machine where wall-clock
 * scaling cannot be seen, equal CPU per image at 1 and 2 threads says the
 * second thread adds no work (the speedup on a free core is then ~2x). */
static double cpu_ms_per_image(dec_ctx *c, int reps) {
    double t0 = cpu_sec();
    for (int r = 0; r < reps; r++)
        if (run_pf(c) != 0) return -1;
    return (cpu_sec() - t0) * 1e3 / reps / c->n;
}

static unsigned char *load(const char *dir, const char *name, size_t *n) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(len > 0 ? (size_t)len : 1);
    *n = b && len > 0 ? fread(b, 1, (size_t)len, f) : 0;
    fclose(f);
    return b;
}

static void diff_stats(const float *a, const float *b, size_t n, double *maxd, double *mean) {
    double m = 0, s = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)a[i] - (double)b[i]);
        s += d;
        if (d > m || d != d) m = d;
    }
    *maxd = m;
    *mean = s / (double)n;
}

/* One photo set: the rows, and the measured pixflow (DCT) medians for the
 * scaling line. Returns 0 when every check passed. */
static int run_set(const char *label, const char *data, const char *const files[], int nfiles, int batch,
                   int rounds, pf_stream *s2) {
    static dec_ctx c;
    memset(&c, 0, sizeof c);
    c.n = batch;
    unsigned char *bytes[8];
    size_t nbytes[8];
    for (int k = 0; k < nfiles; k++) {
        bytes[k] = load(data, files[k], &nbytes[k]);
        if (bytes[k] == NULL) {
            fprintf(stderr, "pixflow bench decode: cannot read %s/%s\n", data, files[k]);
            return 1;
        }
    }
    pf_preprocess_desc desc;
    pf_aug_policy pol;
    pf_recipe("imagenet-train", &desc, &pol);
    int32_t w[MAXB], h[MAXB];
    for (int i = 0; i < batch; i++) {
        c.data[i] = bytes[i % nfiles];
        c.size[i] = nbytes[i % nfiles];
        pf_image_info info;
        if (pf_image_probe(c.data[i], c.size[i], &info) != PF_OK) return 1;
        w[i] = info.width;
        h[i] = info.height;
        c.img[i] = malloc((size_t)w[i] * (size_t)h[i] * 3);
        c.view[i] = pf_image_hwc(c.img[i], w[i], h[i], 3, PF_U8, 0);
    }
    /* the same params pf_decode_augment draws: (seed 42, epoch 0, index i) */
    if (pf_aug_sample(&pol, 42, 0, 0, batch, w, h, c.params) != PF_OK) return 1;
    for (int i = 0; i < batch; i++) {
        pfb_cv_dec_sample s = {c.data[i], c.size[i], c.params[i].crop_x, c.params[i].crop_y, c.params[i].crop_w,
                               c.params[i].crop_h, c.params[i].flip_h};
        c.cs[i] = s;
    }
    size_t n_el = (size_t)batch * 3 * OUT * OUT;
    float *pf_out = malloc(n_el * 4), *cv_out = malloc(n_el * 4);
    c.tensor = pf_tensor_nchw(pf_out, batch, 3, OUT, OUT, PF_F32);
    pfb_cv_dec_job job = {c.cs, batch, OUT, OUT, desc.scale, {desc.mean[0], desc.mean[1], desc.mean[2]},
                          {desc.std[0], desc.std[1], desc.std[2]}, cv_out, 0};
    c.job = job;
    pf_decode_aug_opts on, off = pf_decode_aug_opts_defaults();
    pf_decode_aug_opts_for_recipe("imagenet-train", &on);
    pf_decode_aug_opts m2 = on;
    m2.dct_margin = 2.0f;
    pf_decode_augmenter *aug_on = NULL, *aug_off = NULL, *aug_m2 = NULL;
    if (pf_decode_augmenter_create(&desc, &pol, &on, &aug_on) != PF_OK ||
        pf_decode_augmenter_create(&desc, &pol, &m2, &aug_m2) != PF_OK ||
        pf_decode_augmenter_create(&desc, &pol, &off, &aug_off) != PF_OK ||
        pf_preprocess_plan_create(&desc, &c.plan) != PF_OK || pf_decoder_create(&c.dec[0]) != PF_OK ||
        pf_decoder_create(&c.dec[1]) != PF_OK) {
        fprintf(stderr, "pixflow bench decode: setup failed: %s\n", pf_last_error());
        return 1;
    }
    pfb_cv_set_threads(1);
    if (run_cv(&c) != 0) {
        fprintf(stderr, "pixflow bench decode: OpenCV chain failed\n");
        return 1;
    }
    int rc = 0;
    double pf1[4] = {0}, pf2[4] = {0}, cpu1[4] = {0}, cpu2[4] = {0};
    const char *names[4] = {"decode_augment DCT+ROI", "decode_augment ROI only", "(b) full decode + fused",
                            "decode_augment DCT margin 2"};
    for (int v = 0; v < 4; v++) {
        c.mode = v == 2;
        c.aug = v == 0 ? aug_on : v == 3 ? aug_m2 : aug_off;
        c.stream = NULL;
        c.threads = 1;
        memset(pf_out, 0, n_el * 4);
        if (run_pf(&c) != 0) {
            fprintf(stderr, "pixflow bench decode: %s failed: %s\n", names[v], pf_last_error());
            return 1;
        }
        char verdict[96];
        if (memcmp(pf_out, cv_out, n_el * 4) == 0) {
            snprintf(verdict, sizeof verdict, "bit-exact");
            if (v == 0 || v == 3) snprintf(verdict, sizeof verdict, "bit-exact (no sample DCT-scaled)");
        } else {
            double m, mean;
            diff_stats(pf_out, cv_out, n_el, &m, &mean);
            snprintf(verdict, sizeof verdict, "DCT: max %.3f mean %.4f", m, mean);
            if ((v != 0 && v != 3) || !(mean < 0.1)) {
                rc = 1;
                snprintf(verdict, sizeof verdict, "DIFFERENT (max %.3g)", m);
            }
        }
        char row[96];
        snprintf(row, sizeof row, "%s %s", label, names[v]);
        for (int t = 1; t <= 2; t++) {
            pfb_cv_set_threads(t);
            c.stream = t == 1 ? NULL : s2;
            c.threads = t;
            c.job.parallel = t > 1;
            timing_pair tp = bench_compare(run_pf, &c, run_cv, &c, rounds);
            (t == 1 ? pf1 : pf2)[v] = tp.pf_ms;
            (t == 1 ? cpu1 : cpu2)[v] = cpu_ms_per_image(&c, rounds < 3 ? 1 : 3);
            printf("%-40s %3d %10.3f %10.3f %7.2fx  %s\n", row, t, tp.pf_ms, tp.cv_ms, tp.cv_ms / tp.pf_ms, verdict);
            fflush(stdout);
        }
    }
    printf("%s scaling 1 -> 2 threads: DCT+ROI %.2fx, ROI only %.2fx, (b) %.2fx, DCT margin 2 %.2fx\n"
           "%s per image, 1 thread: DCT+ROI %.3f, ROI only %.3f, (b) %.3f, DCT margin 2 %.3f ms\n",
           label, pf1[0] / pf2[0], pf1[1] / pf2[1], pf1[2] / pf2[2], pf1[3] / pf2[3], label, pf1[0] / batch,
           pf1[1] / batch, pf1[2] / batch, pf1[3] / batch);
    printf("%s process CPU ms per image, 1 -> 2 threads: DCT+ROI %.3f -> %.3f, ROI only %.3f -> %.3f, "
           "(b) %.3f -> %.3f, DCT margin 2 %.3f -> %.3f\n\n",
           label, cpu1[0], cpu2[0], cpu1[1], cpu2[1], cpu1[2], cpu2[2], cpu1[3], cpu2[3]);
    pf_decode_augmenter_destroy(aug_on);
    pf_decode_augmenter_destroy(aug_m2);
    pf_decode_augmenter_destroy(aug_off);
    pf_preprocess_plan_destroy(c.plan);
    pf_decoder_destroy(c.dec[0]);
    pf_decoder_destroy(c.dec[1]);
    for (int i = 0; i < batch; i++) free(c.img[i]);
    for (int k = 0; k < nfiles; k++) free(bytes[k]);
    free(pf_out);
    free(cv_out);
    return rc;
}

int bench_decode(int argc, char **argv) {
    const char *data = PF_DATA_DIR;
    int rounds = 9;
    int prc = bench_parse_args(argc, argv, "decode", &rounds, &data);
    if (prc) return prc;
    pf_stream *s2 = NULL;
    if (pf_stream_create_cpu(2, &s2) != PF_OK) return 1;
    printf("pixflow %s vs OpenCV %s; isa %s; median of %d rounds, ms per batch\n", pf_version(), pfb_cv_version(),
           pf_isa_name(pf_cpu_active_isa()), rounds);
    printf("JPEG bytes -> 224x224 CHW f32 imagenet-train samples (seed 42, epoch 0); opencv = (a) cv::imdecode + "
           "plain chain;\n2 threads: pixflow stream of 2 / OpenCV cv::setNumThreads(2) + parallel_for_ over the "
           "batch\n\n");
    printf("%-40s %3s %10s %10s %8s  %s\n", "case", "thr", "pixflow", "opencv", "ratio", "output vs (a)");
    static const char *const small[] = {"astronaut_500x375.jpg", "coffee_500x375.jpg", "rocket_500x375.jpg",
                                        "yellow_flower_500x375.jpg"};
    static const char *const big[] = {"green_leaf_1920x1080.jpg", "storm_road_1920x1080.jpg",
                                      "water_drop_1920x1080.jpg"};
    int rc = run_set("500x375 b32", data, small, 4, 32, rounds, s2);
    rc |= run_set("1080p b12", data, big, 3, 12, rounds, s2);
    pf_stream_destroy(s2);
    return rc;
}

#else /* no OpenCV oracle or no codec */

int bench_decode(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "pixflow bench decode: built without OpenCV (the comparison oracle)\n");
    return 1;
}

#endif
