/* Same-process A/B of two libpixflow builds on the fused imagenet-train
 * batch (64 RandomResizedCrop-like crops -> 224x224 NCHW f32, 1 thread),
 * torchvision flavour with antialias against the OpenCV flavour.
 *
 *   cc -O2 bench/ab_fused_flavour.c -Iinclude -ldl -lm -o /tmp/ab_fused
 *   /tmp/ab_fused LIB_A.so LIB_B.so [ROUNDS]
 *   /tmp/ab_fused LIB_A.so LIB_B.so ROUNDS resize
 *
 * Both libraries are dlopen'ed into one process (copy them to two file
 * names first: the loader keys on the file) and their calls alternate, so
 * the machine's load hits both alike; each call is timed in thread CPU
 * time (CLOCK_THREAD_CPUTIME_ID), which drops the other jobs' time slices.
 * Every round draws new crops (a new seed), as a training run does: a
 * cache that only pays on repeated crops does not show here. Prints the
 * median and range of the per-round ratios tv-aa / opencv for A and B,
 * B/A on each flavour, and checks that A's and B's outputs are identical.
 * The images are synthetic (smooth gradients plus noise) 500x375,
 * 375x500 and 333x251 u8 RGB, the bench photos' sizes.
 * `resize`: standalone pf_resize instead (1 thread, the same size every
 * call, so the plan is cached): u8 RGB 500x375, 318x318 and 200x180 ->
 * 224x224, torchvision flavour with antialias and, for 500x375, the OpenCV
 * flavour, then 1-channel 500x375 and 1000x750 (a CHW plane: the
 * windows, and past their ~3x reach the dots) with antialias, 500x375
 * in the OpenCV flavour, both with the OpenCV flavour's antialias
 * (Pillow's), 500x375 OpenCV CUBIC and LANCZOS4, and 600x400 RGB
 * torchvision bilinear and bicubic without antialias;
 * us per call (median of ROUNDS batches of 20 calls). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pixflow/pixflow.h"

#define BATCH 64

typedef struct lib {
    pf_status (*recipe)(const char *, pf_preprocess_desc *, pf_aug_policy *);
    pf_status (*create)(const pf_preprocess_desc *, pf_preprocess_plan **);
    void (*destroy)(pf_preprocess_plan *);
    pf_status (*run)(pf_preprocess_plan *, pf_stream *, int, const pf_image *, const pf_aug_params *,
                     const pf_tensor *, pf_aug_params *);
    pf_aug_params (*identity)(void);
    pf_status (*resize)(pf_stream *, int, const pf_image *, const pf_image *, const pf_resize_opts *);
    pf_resize_opts (*resize_defaults)(void);
    pf_image (*image_hwc)(void *, int32_t, int32_t, int32_t, pf_dtype, ptrdiff_t);
    pf_tensor (*tensor_nchw)(void *, int32_t, int32_t, int32_t, int32_t, pf_dtype);
    pf_preprocess_plan *tv, *cv;
} lib;

static void *sym(void *h, const char *n) {
    void *p = dlsym(h, n);
    if (p == NULL) { fprintf(stderr, "missing %s\n", n); exit(1); }
    return p;
}

static void open_lib(lib *L, const char *path) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) { fprintf(stderr, "dlopen %s: %s\n", path, dlerror()); exit(1); }
    *(void **)&L->recipe = sym(h, "pf_recipe");
    *(void **)&L->create = sym(h, "pf_preprocess_plan_create");
    *(void **)&L->destroy = sym(h, "pf_preprocess_plan_destroy");
    *(void **)&L->run = sym(h, "pf_preprocess_run");
    *(void **)&L->identity = sym(h, "pf_aug_params_identity");
    *(void **)&L->image_hwc = sym(h, "pf_image_hwc");
    *(void **)&L->tensor_nchw = sym(h, "pf_tensor_nchw");
    *(void **)&L->resize = sym(h, "pf_resize");
    *(void **)&L->resize_defaults = sym(h, "pf_resize_opts_defaults");
    pf_preprocess_desc d;
    L->recipe("imagenet-train", &d, NULL);
    if (L->create(&d, &L->cv) != PF_OK) exit(1);
    d.flavor = PF_RESIZE_TORCHVISION;
    d.antialias = true;
    if (L->create(&d, &L->tv) != PF_OK) exit(1);
}

static uint64_t xs(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}
static double unif(uint64_t *s) { return (double)(xs(s) >> 11) / 9007199254740992.0; }

/* bench_preprocess.c's crop generator */
static void make_params(const lib *L, uint64_t *s, int w, int h, pf_aug_params *p) {
    *p = L->identity();
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

static double now_cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double timed(const lib *L, pf_preprocess_plan *pl, const pf_image *src, const pf_aug_params *pr,
                    const pf_tensor *t) {
    double t0 = now_cpu();
    if (L->run(pl, NULL, BATCH, src, pr, t, NULL) != PF_OK) { fprintf(stderr, "run failed\n"); exit(1); }
    return now_cpu() - t0;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static void stats(const char *name, double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    printf("%-28s median %.4f  range %.4f-%.4f  (%d rounds)\n", name, v[n / 2], v[0], v[n - 1], n);
}

/* us per pf_resize call, 20 calls */
static double resize_us(const lib *L, const pf_image *src, const pf_image *dst, const pf_resize_opts *o) {
    double t0 = now_cpu();
    for (int i = 0; i < 20; i++)
        if (L->resize(NULL, 1, src, dst, o) != PF_OK) { fprintf(stderr, "pf_resize failed\n"); exit(1); }
    return (now_cpu() - t0) / 20 * 1e6;
}

static int resize_mode(const lib *A, const lib *B, int rounds) {
    /* width, height, torchvision flavour, channels */
    /* width, height, flavour (1 torchvision antialias, 0 OpenCV LINEAR, 2
     * OpenCV antialias = Pillow's, 3 OpenCV CUBIC, 4 OpenCV LANCZOS4, 5 / 6
     * torchvision bilinear / bicubic without antialias), channels */
    static const int sz[13][4] = {{500, 375, 1, 3}, {318, 318, 1, 3}, {200, 180, 1, 3}, {500, 375, 0, 3},
                                  {500, 375, 1, 1}, {1000, 750, 1, 1}, {500, 375, 0, 1}, {500, 375, 2, 1},
                                  {1000, 750, 2, 1}, {500, 375, 3, 1}, {500, 375, 4, 1}, {600, 400, 5, 3},
                                  {600, 400, 6, 3}};
    uint8_t *px = malloc(1000 * 750), *oa = malloc(224 * 224 * 3), *ob = malloc(224 * 224 * 3);
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 1000 * 750; i++) px[i] = (uint8_t)(i / 7 % 200 + (int)(xs(&s) % 48));
    double *va = malloc(sizeof(double) * (size_t)rounds * 3), *vb = va + rounds, *vr = vb + rounds;
    int same = 1;
    for (int c = 0; c < 13; c++) {
        int cn = sz[c][3];
        pf_resize_opts o = A->resize_defaults();
        int f = sz[c][2];
        o.flavor = f == 1 || f >= 5 ? PF_RESIZE_TORCHVISION : PF_RESIZE_OPENCV;
        o.antialias = f == 1 || f == 2;
        o.interp = f == 3 || f == 6 ? PF_INTERP_CUBIC : f == 4 ? PF_INTERP_LANCZOS4 : PF_INTERP_LINEAR;
        pf_image src = A->image_hwc(px, sz[c][0], sz[c][1], cn, PF_U8, 0);
        pf_image da = A->image_hwc(oa, 224, 224, cn, PF_U8, 0), db = A->image_hwc(ob, 224, 224, cn, PF_U8, 0);
        resize_us(A, &src, &da, &o);
        resize_us(B, &src, &db, &o);
        if (memcmp(oa, ob, 224 * 224 * (size_t)cn) != 0) same = 0;
        for (int r = 0; r < rounds; r++) {
            if (xs(&s) & 1) { va[r] = resize_us(A, &src, &da, &o); vb[r] = resize_us(B, &src, &db, &o); }
            else { vb[r] = resize_us(B, &src, &db, &o); va[r] = resize_us(A, &src, &da, &o); }
            vr[r] = vb[r] / va[r];
        }
        static const char *const fl[7] = {"opencv", "torchvision antialias", "opencv antialias (Pillow)",
                                          "opencv cubic", "opencv lanczos4", "torchvision bilinear",
                                          "torchvision bicubic"};
        printf("%dx%d x%d -> 224x224 %s:\n", sz[c][0], sz[c][1], cn, fl[sz[c][2]]);
        stats("  A us/call", va, rounds);
        stats("  B us/call", vb, rounds);
        stats("  B / A", vr, rounds);
    }
    printf("outputs of A and B: %s\n", same ? "identical" : "DIFFERENT");
    return same ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s LIB_A LIB_B [ROUNDS]\n", argv[0]); return 2; }
    int rounds = argc > 3 ? atoi(argv[3]) : 15;
    if (rounds < 1 || rounds > 1000) rounds = 15;
    lib A, B;
    open_lib(&A, argv[1]);
    open_lib(&B, argv[2]);
    if (argc > 4 && strcmp(argv[4], "resize") == 0) return resize_mode(&A, &B, rounds);
    static const int sz[3][2] = {{500, 375}, {375, 500}, {333, 251}};
    uint8_t *px[3];
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (int k = 0; k < 3; k++) {
        int w = sz[k][0], h = sz[k][1];
        px[k] = malloc((size_t)w * (size_t)h * 3);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                for (int c = 0; c < 3; c++)
                    px[k][((size_t)y * (size_t)w + (size_t)x) * 3 + (size_t)c] =
                        (uint8_t)((x * (c + 1) + y * (3 - c)) / 4 + (int)(xs(&s) % 48));
    }
    pf_image src[BATCH];
    pf_aug_params pr[BATCH];
    for (int i = 0; i < BATCH; i++) src[i] = A.image_hwc(px[i % 3], sz[i % 3][0], sz[i % 3][1], 3, PF_U8, 0);
    size_t n_el = (size_t)BATCH * 3 * 224 * 224;
    float *oa = malloc(n_el * 4), *ob = malloc(n_el * 4);
    pf_tensor ta = A.tensor_nchw(oa, BATCH, 3, 224, 224, PF_F32), tb = A.tensor_nchw(ob, BATCH, 3, 224, 224, PF_F32);
    double *ra = malloc(sizeof(double) * (size_t)rounds * 4), *rb = ra + rounds, *rba = rb + rounds,
           *rbc = rba + rounds;
    double *abs_t = malloc(sizeof(double) * (size_t)rounds * 4);
    int same = 1;
    uint64_t seed = 0x2545F4914F6CDD1Dull;
    for (int r = -1; r < rounds; r++) { /* round -1 warms both up */
        for (int i = 0; i < BATCH; i++) make_params(&A, &seed, sz[i % 3][0], sz[i % 3][1], &pr[i]);
        /* the four calls in a random order each round: a fixed order
         * measured a steady 5% bias between two copies of one build */
        double t[4];
        int ord[4] = {0, 1, 2, 3};
        for (int i = 3; i > 0; i--) {
            int j = (int)(xs(&s) % (uint64_t)(i + 1)), tmp = ord[i];
            ord[i] = ord[j];
            ord[j] = tmp;
        }
        for (int i = 0; i < 4; i++) {
            int c = ord[i];
            const lib *L = c < 2 ? &A : &B;
            t[c] = timed(L, c % 2 == 0 ? L->tv : L->cv, src, pr, c < 2 ? &ta : &tb);
        }
        double atv = t[0], acv = t[1], btv = t[2], bcv = t[3];
        /* every 8th round, untimed: both builds' outputs of each flavour */
        for (int f = 0; f < 2 && r % 8 == 0; f++) {
            timed(&A, f ? A.cv : A.tv, src, pr, &ta);
            timed(&B, f ? B.cv : B.tv, src, pr, &tb);
            if (memcmp(oa, ob, n_el * 4) != 0) same = 0;
        }
        if (r < 0) continue;
        ra[r] = atv / acv;
        rb[r] = btv / bcv;
        rba[r] = btv / atv;
        rbc[r] = bcv / acv;
        abs_t[4 * r] = atv; abs_t[4 * r + 1] = acv; abs_t[4 * r + 2] = btv; abs_t[4 * r + 3] = bcv;
    }
    stats("A tv-aa / opencv flavour", ra, rounds);
    stats("B tv-aa / opencv flavour", rb, rounds);
    stats("B / A (tv-aa time)", rba, rounds);
    stats("B / A (opencv time)", rbc, rounds);
    static const char *const nm[4] = {"A tv-aa ms", "A opencv ms", "B tv-aa ms", "B opencv ms"};
    double *col = malloc(sizeof(double) * (size_t)rounds);
    for (int c = 0; c < 4; c++) {
        for (int r = 0; r < rounds; r++) col[r] = 1e3 * abs_t[4 * r + c];
        stats(nm[c], col, rounds);
    }
    printf("outputs of A and B (both flavours): %s\n", same ? "identical" : "DIFFERENT");
    return same ? 0 : 1;
}
