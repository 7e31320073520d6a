/* pixflow bench preprocess: the fused preprocess (imagenet-train geometry,
 * batch 64 of the bundled 500x375-class photos -> 224x224 NCHW f32/f16)
 * against the plain OpenCV chain and a hand-tuned OpenCV chain, 1 and 2
 * threads, plus the yolo letterbox recipe on a 1080p photo; output GB/s
 * as a fraction of this machine's memset bandwidth measured in the run. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pixflow/pixflow.h"
#include "timing.h"

#ifdef PF_BENCH_OPENCV
#include "opencv_io.h"
#include "opencv_preprocess.h"
#include "opencv_ref.h"

#define BATCH 64
#define MAX_PHOTOS 16

typedef struct pre_ctx {
    pf_preprocess_plan *plan;
    pf_stream *stream;
    pf_image src[BATCH];
    pf_aug_params params[BATCH];
    pf_tensor tensor;
    pfb_cv_pre_job job;
    int tuned;
} pre_ctx;

static int run_pf(void *p) {
    pre_ctx *c = p;
    return pf_preprocess_run(c->plan, c->stream, BATCH, c->src, c->params, &c->tensor, NULL) == PF_OK ? 0 : -1;
}
static int run_cv(void *p) {
    pre_ctx *c = p;
    return c->tuned ? pfb_cv_pre_tuned(&c->job) : pfb_cv_pre_plain(&c->job);
}

/* yolo: one 1080p frame; OpenCV uses its internal threading. */
typedef struct yolo_ctx {
    pf_preprocess_plan *plan;
    pf_stream *stream;
    pf_image *frame;
    pf_tensor *tensor;
    const uint8_t *px;
    int w, h, rw, rh, top, left;
    float scale;
    float *cv_out;
} yolo_ctx;

static int run_pf_yolo(void *p) {
    yolo_ctx *c = p;
    return pf_preprocess_run(c->plan, c->stream, 1, c->frame, NULL, c->tensor, NULL) == PF_OK ? 0 : -1;
}
static int run_cv_yolo(void *p) {
    yolo_ctx *c = p;
    return pfb_cv_letterbox(c->px, c->w, c->h, c->rw, c->rh, c->top, c->left, 640, 640, 114.0, c->scale, c->cv_out);
}

static uint64_t xs(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}
static double unif(uint64_t *s) { return (double)(xs(s) >> 11) / 9007199254740992.0; }

/* A RandomResizedCrop-like rectangle (area 8%..100%, log-uniform aspect
 * 3/4..4/3, clamped) and a coin-flip mirror, from a fixed xorshift. */
static void make_params(uint64_t *s, int w, int h, pf_aug_params *p) {
    *p = pf_aug_params_identity();
    double area = (0.08 + 0.92 * unif(s)) * w * h;
    double ratio = exp(log(0.75) + (log(4.0 / 3.0) - log(0.75)) * unif(s));
    int cw = (int)lround(sqrt(area * ratio)), ch = (int)lround(sqrt(area / ratio));
    cw = cw < 1 ? 1 : cw > w ? w : cw;
    ch = ch < 1 ? 1 : ch > h ? h : ch;
    p->crop_w = cw;
    p->crop_h = ch;
    p->crop_x = (int)(unif(s) * (w - cw + 1));
    p->crop_y = (int)(unif(s) * (h - ch + 1));
    if (p->crop_x > w - cw) p->crop_x = w - cw;
    if (p->crop_y > h - ch) p->crop_y = h - ch;
    p->flip_h = (xs(s) >> 32) & 1;
}

static int is_bench_photo(const char *n) {
    size_t l = strlen(n);
    static const char *const sfx[] = {"_500x375.jpg", "_375x500.jpg", "_333x251.jpg"};
    for (int k = 0; k < 3; k++) {
        size_t m = strlen(sfx[k]);
        if (l > m && strcmp(n + l - m, sfx[k]) == 0) return 1;
    }
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Max |a - b| over n f32 (or f16 when half) elements. */
static double max_diff(const void *a, const void *b, size_t n, int half) {
    double m = 0;
    for (size_t i = 0; i < n; i++) {
        double x, y;
        if (half) {
            pf_image s1 = pf_image_hwc((void *)((const uint16_t *)a + i), 1, 1, 1, PF_F16, 0);
            pf_image s2 = pf_image_hwc((void *)((const uint16_t *)b + i), 1, 1, 1, PF_F16, 0);
            float f1, f2;
            pf_image d1 = pf_image_hwc(&f1, 1, 1, 1, PF_F32, 0), d2 = pf_image_hwc(&f2, 1, 1, 1, PF_F32, 0);
            pf_convert(NULL, 1, &s1, &d1, NULL);
            pf_convert(NULL, 1, &s2, &d2, NULL);
            x = (double)f1;
            y = (double)f2;
        } else {
            x = (double)((const float *)a)[i];
            y = (double)((const float *)b)[i];
        }
        double d = fabs(x - y);
        if (d > m || d != d) m = d;
    }
    return m;
}

static double g_memset_gbs;

static void print_row(const char *label, int threads, timing_pair tp, int images, double bytes, const char *verdict) {
    double pf_ips = images / (tp.pf_ms / 1e3), cv_ips = images / (tp.cv_ms / 1e3);
    double gbs = bytes / (tp.pf_ms / 1e3) / 1e9;
    printf("%-34s %2d %9.3f %9.3f %6.2fx %9.0f %9.0f %6.2f %5.0f%%  %s\n", label, threads, tp.pf_ms, tp.cv_ms,
           tp.cv_ms / tp.pf_ms, pf_ips, cv_ips, gbs, 100.0 * gbs / g_memset_gbs, verdict);
}

static double measure_memset(void *buf, size_t bytes, int rounds) {
    double t[64];
    if (rounds > 64) rounds = 64;
    memset(buf, 1, bytes);
    for (int r = 0; r < rounds; r++) {
        double t0 = bench_now_sec();
        memset(buf, r & 0xff, bytes);
        __asm__ __volatile__("" ::"r"(buf) : "memory");
        t[r] = bench_now_sec() - t0;
    }
    return (double)bytes / bench_median(t, rounds) / 1e9;
}

int bench_preprocess(int argc, char **argv) {
    const char *data = PF_DATA_DIR;
    int rounds = 9;
    int prc = bench_parse_args(argc, argv, "preprocess", &rounds, &data);
    if (prc) return prc;
    /* the photos */
    char *names[MAX_PHOTOS];
    int nphotos = 0;
    DIR *dir = opendir(data);
    if (dir == NULL) {
        fprintf(stderr, "pixflow bench preprocess: cannot open %s\n", data);
        return 1;
    }
    for (struct dirent *e; (e = readdir(dir)) != NULL && nphotos < MAX_PHOTOS;)
        if (is_bench_photo(e->d_name)) names[nphotos++] = strdup(e->d_name);
    closedir(dir);
    qsort(names, (size_t)nphotos, sizeof names[0], cmp_str);
    uint8_t *px[MAX_PHOTOS];
    int pw[MAX_PHOTOS], ph[MAX_PHOTOS];
    char path[4096];
    for (int k = 0; k < nphotos; k++) {
        snprintf(path, sizeof path, "%s/%s", data, names[k]);
        if (pfb_cv_load_u8(path, 3, &px[k], &pw[k], &ph[k]) != 0) {
            fprintf(stderr, "pixflow bench preprocess: cannot read %s\n", path);
            return 1;
        }
    }
    if (nphotos == 0) {
        fprintf(stderr, "pixflow bench preprocess: no 500x375 / 375x500 / 333x251 photos in %s\n", data);
        return 1;
    }
    pf_preprocess_desc desc;
    pf_recipe("imagenet-train", &desc, NULL);
    static pre_ctx ctx;
    pfb_cv_sample cs[BATCH];
    uint64_t seed = 0x2545F4914F6CDD1Dull;
    for (int i = 0; i < BATCH; i++) {
        int k = i % nphotos;
        ctx.src[i] = pf_image_hwc(px[k], pw[k], ph[k], 3, PF_U8, 0);
        make_params(&seed, pw[k], ph[k], &ctx.params[i]);
        pfb_cv_sample s = {px[k], pw[k], ph[k], ctx.params[i].crop_x, ctx.params[i].crop_y,
                           ctx.params[i].crop_w, ctx.params[i].crop_h, ctx.params[i].flip_h};
        cs[i] = s;
    }
    size_t n_el = (size_t)BATCH * 3 * 224 * 224;
    void *pf_out = malloc(n_el * 4), *cv_out = malloc(n_el * 4);
    pf_stream *s2 = NULL;
    if (pf_out == NULL || cv_out == NULL || pf_stream_create_cpu(2, &s2) != PF_OK) {
        fprintf(stderr, "pixflow bench preprocess: setup failed\n");
        return 1;
    }
    g_memset_gbs = measure_memset(pf_out, n_el * 4, rounds * 3);
    printf("pixflow %s vs OpenCV %s; isa %s; median of %d rounds, ms per call\n", pf_version(), pfb_cv_version(),
           pf_isa_name(pf_cpu_active_isa()), rounds);
    printf("photos: %d (", nphotos);
    for (int k = 0; k < nphotos; k++) printf("%s%s", names[k], k + 1 < nphotos ? ", " : ")\n");
    printf("memset write bandwidth (1 thread, %.1f MB): %.2f GB/s\n", (double)n_el * 4 / 1e6, g_memset_gbs);
    printf("OpenCV 2 threads: cv::setNumThreads(2) and the loop over images in cv::parallel_for_\n\n");
    printf("%-34s %2s %9s %9s %7s %9s %9s %6s %6s  %s\n", "case (batch 64 unless noted)", "t", "pixflow", "opencv",
           "ratio", "pf img/s", "cv img/s", "GB/s", "memset", "check");
    int rc = 0;
    for (int variant = 0; variant < 3; variant++) { /* plain f32, tuned f32, plain f16 */
        int half = variant == 2;
        pf_preprocess_desc d = desc;
        d.out_dtype = half ? PF_F16 : PF_F32;
        pf_preprocess_plan_destroy(ctx.plan);
        if (pf_preprocess_plan_create(&d, &ctx.plan) != PF_OK) return 1;
        ctx.tensor = pf_tensor_nchw(pf_out, BATCH, 3, 224, 224, d.out_dtype);
        pfb_cv_pre_job job = {cs, BATCH, 224, 224, d.scale, {d.mean[0], d.mean[1], d.mean[2]},
                              {d.std[0], d.std[1], d.std[2]}, half, cv_out, 0};
        ctx.job = job;
        ctx.tuned = variant == 1;
        ctx.stream = NULL;
        pfb_cv_set_threads(1);
        if (run_pf(&ctx) || run_cv(&ctx)) {
            fprintf(stderr, "pixflow bench preprocess: run failed: %s\n", pf_last_error());
            return 1;
        }
        char verdict[64];
        size_t bytes = n_el * (half ? 2 : 4);
        if (memcmp(pf_out, cv_out, bytes) == 0) {
            snprintf(verdict, sizeof verdict, "bit-exact");
        } else {
            double m = max_diff(pf_out, cv_out, n_el, half);
            snprintf(verdict, sizeof verdict, "max |diff| %.2g", m);
            if (!(m <= (half ? 2e-3 : 1e-5))) rc = 1;
        }
        const char *label = variant == 0 ? "imagenet-train f32 vs plain chain"
                          : variant == 1 ? "imagenet-train f32 vs hand-tuned"
                                         : "imagenet-train f16 vs plain chain";
        for (int t = 1; t <= 2; t++) {
            pfb_cv_set_threads(t);
            ctx.stream = t == 1 ? NULL : s2;
            ctx.job.parallel = t > 1;
            print_row(label, t, bench_compare(run_pf, &ctx, run_cv, &ctx, rounds), BATCH, (double)bytes, verdict);
        }
    }
    /* The torchvision flavour (bilinear as the recipe, then with
     * RandomResizedCrop's default antialias=True; the same colour-free
     * chain) against pixflow's own OpenCV flavour on
     * the same crops: the "opencv" column is pixflow PF_RESIZE_OPENCV here,
     * and the check is the 15% budget the flavour promises. */
    static pre_ctx tv;
    tv = ctx;
    tv.plan = NULL; /* its own plan below */
    for (int row = 0; row < 4; row++) {
        int t = 1 + row % 2, aa = row / 2; /* antialias off (the recipe's), then on (torchvision's default) */
        pf_preprocess_desc dv = desc, dt = desc;
        dt.flavor = PF_RESIZE_TORCHVISION;
        dt.antialias = aa != 0;
        pf_preprocess_plan_destroy(ctx.plan);
        pf_preprocess_plan_destroy(tv.plan);
        ctx.plan = tv.plan = NULL;
        if (pf_preprocess_plan_create(&dv, &ctx.plan) != PF_OK || pf_preprocess_plan_create(&dt, &tv.plan) != PF_OK)
            return 1;
        ctx.tensor = tv.tensor = pf_tensor_nchw(pf_out, BATCH, 3, 224, 224, PF_F32);
        ctx.stream = tv.stream = t == 1 ? NULL : s2;
        if (run_pf(&ctx) || run_pf(&tv)) {
            fprintf(stderr, "pixflow bench preprocess: run failed: %s\n", pf_last_error());
            return 1;
        }
        timing_pair tp = bench_compare(run_pf, &tv, run_pf, &ctx, rounds);
        char verdict[64];
        double over = tp.pf_ms / tp.cv_ms - 1.0;
        snprintf(verdict, sizeof verdict, "%+.0f%% vs opencv flavour (budget +15%%)", 100.0 * over);
        print_row(aa ? "imagenet-train f32 torchvision-aa" : "imagenet-train f32 torchvision", t, tp, BATCH,
                  (double)n_el * 4, verdict);
    }
    pf_preprocess_plan_destroy(tv.plan);
    /* yolo letterbox on a 1080p frame, batch 1 */
    uint8_t *fp = NULL;
    int fw = 0, fh = 0;
    snprintf(path, sizeof path, "%s/%s", data, "water_drop_1920x1080.jpg");
    if (pfb_cv_load_u8(path, 3, &fp, &fw, &fh) != 0) {
        fprintf(stderr, "pixflow bench preprocess: cannot read %s\n", path);
        return 1;
    }
    pf_preprocess_desc yd;
    pf_recipe("yolo", &yd, NULL);
    pf_preprocess_plan_destroy(ctx.plan);
    if (pf_preprocess_plan_create(&yd, &ctx.plan) != PF_OK) return 1;
    pf_letterbox_info li;
    pf_image frame = pf_image_hwc(fp, fw, fh, 3, PF_U8, 0);
    pf_tensor yt = pf_tensor_nchw(pf_out, 1, 3, 640, 640, PF_F32);
    if (pf_preprocess_run(ctx.plan, NULL, 1, &frame, NULL, &yt, &li) != PF_OK) return 1;
    int rw = (int)lround((double)li.scale_x * fw), rh = (int)lround((double)li.scale_y * fh);
    yolo_ctx y = {ctx.plan, NULL, &frame, &yt, fp, fw, fh, rw, rh, (int)li.offset_y, (int)li.offset_x, yd.scale,
                  cv_out};
    if (run_cv_yolo(&y) != 0) return 1;
    size_t ybytes = (size_t)3 * 640 * 640 * 4;
    const char *yv = memcmp(pf_out, cv_out, ybytes) == 0 ? "bit-exact" : "DIFFERENT";
    if (strcmp(yv, "bit-exact") != 0) rc = 1;
    for (int t = 1; t <= 2; t++) {
        pfb_cv_set_threads(t);
        y.stream = t == 1 ? NULL : s2;
        print_row("yolo 1080p -> 640 letterbox (b 1)", t, bench_compare(run_pf_yolo, &y, run_cv_yolo, &y, rounds), 1,
                  (double)ybytes, yv);
    }
    pf_preprocess_plan_destroy(ctx.plan);
    pf_stream_destroy(s2);
    free(pf_out);
    free(cv_out);
    free(fp);
    for (int k = 0; k < nphotos; k++) {
        free(px[k]);
        free(names[k]);
    }
    return rc;
}

#else /* !PF_BENCH_OPENCV */

int bench_preprocess(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "pixflow bench preprocess: built without OpenCV (the comparison oracle)\n");
    return 1;
}

#endif
