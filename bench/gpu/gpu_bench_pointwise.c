/* GPU benchmarks of the pointwise ops (issue 8), public API only. Inputs
 * already on the GPU; each row is the median of ITERS CUDA-event timings of
 * one call, with the bytes the op must move (read + written) per second
 * and that as a share of the device's peak bandwidth (these ops are
 * memory-bound: the share is the figure of merit). Every configuration is
 * first checked bit for bit against the CPU op on the same input, so a
 * fast wrong kernel cannot report a number. Exits 77 without a GPU. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pixflow/pixflow.h"

#define ITERS 30
enum { MAXN = 64 };

static pf_device *g_gpu;
static pf_stream *g_s;
static double g_peak; /* GB/s */

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;
static uint8_t rnd8(void) {
    g_rng ^= g_rng >> 12;
    g_rng ^= g_rng << 25;
    g_rng ^= g_rng >> 27;
    return (uint8_t)((g_rng * 2685821657736338717ull) >> 56);
}

static int cmp_f(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* One side of a case: count packed images, host and device copies. */
typedef struct side {
    int n;
    pf_image h[MAXN], d[MAXN];
    uint8_t *hbuf;
    void *dbuf;
    size_t bytes; /* all images */
} side;

static pf_status side_make(side *s, int n, int32_t w, int32_t h, int32_t c, pf_dtype dt, pf_layout lay) {
    memset(s, 0, sizeof *s);
    s->n = n;
    size_t one = (size_t)w * (size_t)h * (size_t)c * pf_dtype_size(dt);
    s->bytes = one * (size_t)n;
    s->hbuf = malloc(s->bytes);
    if (s->hbuf == NULL) return PF_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < s->bytes; i++) s->hbuf[i] = (uint8_t)(rnd8() & (dt == PF_F32 ? 0x3f : 0xff));
    pf_status st = pf_malloc(g_gpu, PF_ALLOC_DEVICE, s->bytes, &s->dbuf);
    if (st != PF_OK) return st;
    if ((st = pf_memcpy_async(g_s, s->dbuf, s->hbuf, s->bytes)) != PF_OK) return st;
    for (int i = 0; i < n; i++) {
        uint8_t *hp = s->hbuf + one * (size_t)i, *dp = (uint8_t *)s->dbuf + one * (size_t)i;
        s->h[i] = lay == PF_CHW ? pf_image_chw(hp, w, h, c, dt, 0, 0) : pf_image_hwc(hp, w, h, c, dt, 0);
        s->d[i] = s->h[i];
        s->d[i].data = dp;
        s->d[i].mem = PF_MEM_CUDA;
        s->d[i].device = 0;
    }
    return PF_OK;
}

static void side_free(side *s) {
    free(s->hbuf);
    pf_free(g_gpu, PF_ALLOC_DEVICE, s->dbuf);
}

typedef pf_status (*op_fn)(pf_stream *s, int n, const pf_image *src, pf_image *dst);

/* One configuration: `call` runs the op on the host views (dev == 0, CPU)
 * or on the device views on g_s (dev == 1); its output is dst. */
typedef pf_status (*call_fn)(void *ctx, int dev);

/* Checks the device op against the CPU op, then times it. */
static void run_case(const char *label, call_fn call, void *ctx, side *dst, size_t moved) {
    float ms[ITERS];
    pf_event *e0 = NULL, *e1 = NULL;
    uint8_t *cpu = malloc(dst->bytes), *gpu = malloc(dst->bytes);
    const char *why = NULL;
    if (cpu == NULL || gpu == NULL) why = "out of host memory";
    if (!why && call(ctx, 0) != PF_OK) why = pf_last_error();
    if (!why) memcpy(cpu, dst->hbuf, dst->bytes);
    if (!why && call(ctx, 1) != PF_OK) why = pf_last_error();
    if (!why && (pf_memcpy_async(g_s, gpu, dst->dbuf, dst->bytes) != PF_OK || pf_stream_synchronize(g_s) != PF_OK))
        why = pf_last_error();
    if (!why && memcmp(cpu, gpu, dst->bytes) != 0) why = "GPU output differs from the CPU op";
    if (!why && (pf_event_create(g_gpu, &e0) != PF_OK || pf_event_create(g_gpu, &e1) != PF_OK)) why = pf_last_error();
    for (int it = -3; !why && it < ITERS; it++) {
        if (pf_event_record(e0, g_s) != PF_OK || call(ctx, 1) != PF_OK || pf_event_record(e1, g_s) != PF_OK ||
            pf_event_synchronize(e1) != PF_OK)
            why = pf_last_error();
        else if (it >= 0 && pf_event_elapsed_ms(e0, e1, &ms[it]) != PF_OK)
            why = pf_last_error();
    }
    if (why) {
        printf("| %s | failed: %s | | | |\n", label, why);
    } else {
        qsort(ms, ITERS, sizeof ms[0], cmp_f);
        double med = (double)ms[ITERS / 2], gbs = (double)moved / (med * 1e6);
        printf("| %s | %.3f | %.1f | %.0f%% | bit-exact |\n", label, med, gbs, g_peak > 0 ? 100.0 * gbs / g_peak : 0.0);
    }
    pf_event_destroy(e0);
    pf_event_destroy(e1);
    free(cpu);
    free(gpu);
}

typedef struct image_case {
    op_fn op;
    side *src, *dst;
} image_case;

static pf_status call_image(void *ctx, int dev) {
    image_case *c = ctx;
    return dev ? c->op(g_s, c->src->n, c->src->d, c->dst->d) : c->op(NULL, c->src->n, c->src->h, c->dst->h);
}

/* ---- the ops, with fixed parameters ---- */
static pf_color_code g_code;
static pf_status op_color(pf_stream *s, int n, const pf_image *src, pf_image *dst) {
    return pf_cvt_color(s, n, src, dst, g_code, NULL);
}
static pf_status op_flip(pf_stream *s, int n, const pf_image *src, pf_image *dst) {
    pf_flip_code c = PF_FLIP_HORIZONTAL;
    return pf_flip(s, n, src, dst, &c, 1);
}
static pf_status op_u8_f32(pf_stream *s, int n, const pf_image *src, pf_image *dst) {
    pf_convert_opts o = pf_convert_opts_defaults();
    o.alpha = 1.0 / 255.0;
    return pf_convert(s, n, src, dst, &o);
}
static pf_status op_reformat(pf_stream *s, int n, const pf_image *src, pf_image *dst) {
    static const int8_t bgr2rgb[4] = {2, 1, 0, 3};
    return pf_reformat(s, n, src, dst, bgr2rgb, 0);
}
static pf_status op_imagenet(pf_stream *s, int n, const pf_image *src, pf_image *dst) {
    pf_normalize_opts o = pf_normalize_opts_defaults();
    const float mean[3] = {0.485f, 0.456f, 0.406f}, sd[3] = {0.229f, 0.224f, 0.225f};
    o.scale = 1.0f / 255.0f;
    for (int c = 0; c < 3; c++) o.params.mean[c] = mean[c], o.params.std[c] = sd[c], o.order[c] = (int8_t)(2 - c);
    return pf_normalize(s, n, src, dst, &o);
}
static pf_status op_minmax(pf_stream *s, int n, const pf_image *src, pf_image *dst) {
    pf_normalize_opts o = pf_normalize_opts_defaults();
    o.mode = PF_NORM_MINMAX;
    return pf_normalize(s, n, src, dst, &o);
}

static void one(const char *label, op_fn op, int n, int32_t w, int32_t h, int32_t sc, pf_dtype sdt, pf_layout sl,
                int32_t dc, pf_dtype ddt, pf_layout dl) {
    side a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    if (side_make(&a, n, w, h, sc, sdt, sl) != PF_OK || side_make(&b, n, w, h, dc, ddt, dl) != PF_OK) {
        printf("| %s | failed: %s | | | |\n", label, pf_last_error());
    } else {
        image_case c = {op, &a, &b};
        run_case(label, call_image, &c, &b, a.bytes + b.bytes);
    }
    side_free(&a);
    side_free(&b);
}

typedef struct yuv_case {
    pf_yuv hf, df;
    side *dst;
} yuv_case;

static pf_status call_yuv(void *ctx, int dev) {
    yuv_case *c = ctx;
    return dev ? pf_cvt_color_from_yuv(g_s, 1, &c->df, c->dst->d, PF_COLOR_YUV2RGB_NV12, NULL)
               : pf_cvt_color_from_yuv(NULL, 1, &c->hf, c->dst->h, PF_COLOR_YUV2RGB_NV12, NULL);
}

static void bench_yuv(void) {
    enum { W = 1920, H = 1080 };
    const char *label = "cvt_color_from_yuv NV12 1080p -> RGB u8";
    side f, d;
    memset(&f, 0, sizeof f);
    memset(&d, 0, sizeof d);
    if (side_make(&f, 1, W, H * 3 / 2, 1, PF_U8, PF_HWC) != PF_OK || side_make(&d, 1, W, H, 3, PF_U8, PF_HWC) != PF_OK) {
        printf("| %s | failed: %s | | | |\n", label, pf_last_error());
    } else {
        yuv_case c;
        c.hf = pf_yuv_nv12(f.hbuf, W, H, 0);
        c.df = pf_yuv_nv12(f.dbuf, W, H, 0);
        c.df.y.mem = c.df.uv.mem = PF_MEM_CUDA;
        c.dst = &d;
        run_case(label, call_yuv, &c, &d, f.bytes + d.bytes);
    }
    side_free(&f);
    side_free(&d);
}

int main(void) {
    int n = 0;
    if (pf_device_count(PF_DEVICE_CUDA, &n) != PF_OK || n == 0) {
        printf("pointwise GPU benchmark: no CUDA device, skipped\n");
        return 77;
    }
    pf_device_props p;
    if (pf_device_open(PF_DEVICE_CUDA, 0, &g_gpu) != PF_OK || pf_stream_create(g_gpu, &g_s) != PF_OK ||
        pf_device_props_get(g_gpu, &p) != PF_OK) {
        printf("pointwise GPU benchmark: %s\n", pf_last_error());
        return 1;
    }
    g_peak = p.peak_bandwidth_gbs;
    printf("pointwise ops on %s (peak %.0f GB/s; CUDA event medians of %d; GB/s = bytes read + written / time)\n\n",
           p.name, g_peak, ITERS);
    printf("| op | median ms | GB/s | of peak | check |\n| --- | --- | --- | --- | --- |\n");
    bench_yuv();
    g_code = PF_COLOR_BGR2RGB;
    one("cvt_color BGR2RGB 1080p u8", op_color, 1, 1920, 1080, 3, PF_U8, PF_HWC, 3, PF_U8, PF_HWC);
    g_code = PF_COLOR_BGR2GRAY;
    one("cvt_color BGR2GRAY 1080p u8", op_color, 1, 1920, 1080, 3, PF_U8, PF_HWC, 1, PF_U8, PF_HWC);
    g_code = PF_COLOR_BGR2HSV;
    one("cvt_color BGR2HSV 1080p u8", op_color, 1, 1920, 1080, 3, PF_U8, PF_HWC, 3, PF_U8, PF_HWC);
    one("flip horizontal 1080p u8 x3", op_flip, 1, 1920, 1080, 3, PF_U8, PF_HWC, 3, PF_U8, PF_HWC);
    one("flip horizontal b64 224x224 f32 x3 CHW", op_flip, 64, 224, 224, 3, PF_F32, PF_CHW, 3, PF_F32, PF_CHW);
    one("convert u8 -> f32 /255 1080p x3", op_u8_f32, 1, 1920, 1080, 3, PF_U8, PF_HWC, 3, PF_F32, PF_HWC);
    one("reformat HWC -> CHW BGR->RGB b64 224x224 u8", op_reformat, 64, 224, 224, 3, PF_U8, PF_HWC, 3, PF_U8, PF_CHW);
    one("normalize ImageNet b64 224x224 u8 HWC -> f32 CHW", op_imagenet, 64, 224, 224, 3, PF_U8, PF_HWC, 3, PF_F32,
        PF_CHW);
    one("normalize ImageNet b64 224x224 u8 HWC -> f16 CHW", op_imagenet, 64, 224, 224, 3, PF_U8, PF_HWC, 3, PF_F16,
        PF_CHW);
    one("normalize MINMAX 1080p u8 x3 -> f32", op_minmax, 1, 1920, 1080, 3, PF_U8, PF_HWC, 3, PF_F32, PF_HWC);
    pf_stream_destroy(g_s);
    pf_device_close(g_gpu);
    return 0;
}
