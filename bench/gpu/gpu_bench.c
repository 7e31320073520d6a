/* pixflow_gpu_bench: device throughput of the CUDA ops through the public
 * API only (pixflow/runtime.h, ops.h, augment.h). Each case runs 5
 * warm-up iterations, then 50 timed ones, each bracketed by pf_events on
 * one stream; the table reports the median kernel time, the bytes the op
 * must move (every source byte read once, every destination byte written
 * once) per second, and that as a fraction of the device's theoretical
 * peak (pf_device_props.peak_bandwidth_gbs). Sources are distinct
 * buffers per sample, so a batch does not re-read one image from L2.
 * Each timed case is also checked: sample 0's device output against the
 * CPU op on the same input, bit for bit ("check" column), so a fast wrong
 * kernel cannot report a number.
 *
 *   pixflow_gpu_bench            markdown table on stdout
 *   pixflow_gpu_bench --cpu      the same harness on the CPU device (a dry
 *                                run of the harness where there is no GPU)
 * Exit 77 with "SKIP: no CUDA device" where there is no GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pixflow/augment.h"
#include "pixflow/ops.h"
#include "pixflow/runtime.h"

#define WARMUP 5
#define ITERS 50
#define BATCH 64
#define MAXB BATCH

enum op_kind { OP_CONVERT, OP_NORMALIZE, OP_REFORMAT, OP_FLIP, OP_WARP, OP_RESIZE };

typedef struct bench_case {
    const char *name;
    enum op_kind op;
    int count;
    pf_image src[MAXB], dst[MAXB];
    double bytes; /* moved per iteration */
    unsigned char *host_src0; /* sample 0's source pixels, for the check */
} bench_case;

static pf_device *g_gpu;
static pf_mem g_mem = PF_MEM_CUDA;
static void *g_allocs[4 * MAXB + 16];
static int g_nallocs;

static void *dev_alloc(size_t bytes) {
    void *p = NULL;
    if (g_nallocs >= (int)(sizeof g_allocs / sizeof g_allocs[0])) return NULL;
    if (pf_malloc(g_gpu, PF_ALLOC_DEVICE, bytes, &p) != PF_OK) return NULL;
    g_allocs[g_nallocs++] = p;
    return p;
}

/* A device image with deterministic contents (uploaded once). */
static int dev_image(pf_stream *s, int w, int h, int c, pf_dtype dt, pf_layout lay, pf_image *out,
                     unsigned char **keep_host) {
    size_t bytes = (size_t)w * (size_t)h * (size_t)c * pf_dtype_size(dt);
    void *p = dev_alloc(bytes);
    if (p == NULL) return -1;
    unsigned char *host = malloc(bytes);
    if (host == NULL) return -1;
    uint32_t x = 2463534242u ^ (uint32_t)bytes;
    for (size_t i = 0; i < bytes; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        host[i] = (unsigned char)(dt == PF_F32 ? (i % 4 == 3 ? 0x3f : x) : x); /* f32: finite values */
    }
    pf_status st = pf_memcpy_async(s, p, host, bytes);
    if (st == PF_OK) st = pf_stream_synchronize(s);
    if (keep_host != NULL && st == PF_OK) *keep_host = host;
    else free(host);
    if (st != PF_OK) return -1;
    *out = lay == PF_CHW ? pf_image_chw(p, w, h, c, dt, 0, 0) : pf_image_hwc(p, w, h, c, dt, 0);
    out->mem = g_mem;
    out->device = 0;
    return 0;
}

static double image_bytes(const pf_image *im) {
    return (double)im->width * im->height * im->channels * (double)pf_dtype_size(im->dtype);
}

static pf_status run_op(pf_stream *s, bench_case *b) {
    switch (b->op) {
    case OP_CONVERT: {
        pf_convert_opts o = pf_convert_opts_defaults();
        return pf_convert(s, b->count, b->src, b->dst, &o);
    }
    case OP_NORMALIZE: {
        pf_normalize_opts o = pf_normalize_opts_defaults();
        const float mean[3] = {0.485f, 0.456f, 0.406f}, stdv[3] = {0.229f, 0.224f, 0.225f};
        o.scale = 1.f / 255.f;
        for (int c = 0; c < 3; c++) o.params.mean[c] = mean[c], o.params.std[c] = stdv[c];
        o.order[0] = 2, o.order[1] = 1, o.order[2] = 0; /* BGR -> RGB */
        return pf_normalize(s, b->count, b->src, b->dst, &o);
    }
    case OP_REFORMAT:
        return pf_reformat(s, b->count, b->src, b->dst, NULL, 0);
    case OP_FLIP: {
        pf_flip_code code = PF_FLIP_HORIZONTAL;
        return pf_flip(s, b->count, b->src, b->dst, &code, 1);
    }
    case OP_WARP: {
        double m[6];
        pf_status st = pf_rotation_matrix_2d((float)b->src[0].width / 2, (float)b->src[0].height / 2, 15, 0.9, m);
        if (st != PF_OK) return st;
        pf_warp_opts o = pf_warp_opts_defaults();
        return pf_warp_affine(s, b->count, b->src, b->dst, m, 1, &o);
    }
    case OP_RESIZE: {
        pf_resize_opts o = pf_resize_opts_defaults();
        o.interp = PF_INTERP_LINEAR;
        return pf_resize(s, b->count, b->src, b->dst, &o);
    }
    }
    return PF_ERR_INVALID_ARGUMENT;
}

static int cmp_float(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* Median milliseconds of ITERS timed runs, or a negative value with the
 * failing status in *st. */
static double time_case(pf_stream *s, pf_event *e0, pf_event *e1, bench_case *b, pf_status *st) {
    float ms[ITERS];
    for (int i = 0; i < WARMUP; i++)
        if ((*st = run_op(s, b)) != PF_OK) return -1;
    if ((*st = pf_stream_synchronize(s)) != PF_OK) return -1;
    for (int i = 0; i < ITERS; i++) {
        if ((*st = pf_event_record(e0, s)) != PF_OK || (*st = run_op(s, b)) != PF_OK ||
            (*st = pf_event_record(e1, s)) != PF_OK || (*st = pf_event_synchronize(e1)) != PF_OK ||
            (*st = pf_event_elapsed_ms(e0, e1, &ms[i])) != PF_OK)
            return -1;
    }
    qsort(ms, ITERS, sizeof ms[0], cmp_float);
    return (double)(ms[ITERS / 2 - 1] + ms[ITERS / 2]) / 2;
}

/* count samples of w x h x 3 (HWC u8 unless stated) -> dst of the given
 * dtype / layout / size. */
static int setup(pf_stream *s, bench_case *b, const char *name, enum op_kind op, int count, int w, int h,
                 pf_dtype sdt, pf_dtype ddt, pf_layout dlay, int dw, int dh) {
    memset(b, 0, sizeof *b);
    b->name = name;
    b->op = op;
    b->count = count;
    for (int i = 0; i < count; i++) {
        if (dev_image(s, w, h, 3, sdt, PF_HWC, &b->src[i], i == 0 ? &b->host_src0 : NULL) != 0 ||
            dev_image(s, dw, dh, 3, ddt, dlay, &b->dst[i], NULL) != 0)
            return -1;
        b->bytes += image_bytes(&b->src[i]) + image_bytes(&b->dst[i]);
    }
    return 0;
}

/* Sample 0 on the device vs the CPU op on the same input: "bit-exact",
 * "DIFFERS (n bytes)" or why it could not be checked. */
static const char *check_case(pf_stream *s, const bench_case *b, char *buf, size_t n) {
    static bench_case host;
    size_t bytes = (size_t)image_bytes(&b->dst[0]);
    unsigned char *want = malloc(bytes), *got = malloc(bytes);
    const char *res = buf;
    snprintf(buf, n, "not checked (out of memory)");
    if (want != NULL && got != NULL) {
        host = *b;
        host.count = 1;
        host.src[0].data = b->host_src0, host.src[0].mem = PF_MEM_HOST;
        host.dst[0].data = want, host.dst[0].mem = PF_MEM_HOST;
        pf_status st = run_op(NULL, &host);
        if (st == PF_OK) st = pf_memcpy_async(s, got, b->dst[0].data, bytes);
        if (st == PF_OK) st = pf_stream_synchronize(s);
        if (st != PF_OK) {
            snprintf(buf, n, "not checked (%s)", pf_status_str(st));
        } else {
            size_t diff = 0;
            for (size_t i = 0; i < bytes; i++) diff += want[i] != got[i];
            if (diff == 0) res = "bit-exact";
            else snprintf(buf, n, "DIFFERS (%zu of %zu bytes)", diff, bytes);
        }
    }
    free(want);
    free(got);
    return res;
}

int main(int argc, char **argv) {
    int ndev = 0;
    pf_device_kind kind = argc > 1 && strcmp(argv[1], "--cpu") == 0 ? PF_DEVICE_CPU : PF_DEVICE_CUDA;
    if (kind == PF_DEVICE_CPU) g_mem = PF_MEM_HOST;
    if (pf_device_count(kind, &ndev) != PF_OK || ndev == 0) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    pf_device_props props;
    pf_stream *s = NULL;
    pf_event *e0 = NULL, *e1 = NULL;
    if (pf_device_open(kind, 0, &g_gpu) != PF_OK || pf_device_props_get(g_gpu, &props) != PF_OK ||
        pf_stream_create(g_gpu, &s) != PF_OK || pf_event_create(g_gpu, &e0) != PF_OK ||
        pf_event_create(g_gpu, &e1) != PF_OK) {
        fprintf(stderr, "pixflow_gpu_bench: %s\n", pf_last_error());
        return 1;
    }
    if (kind == PF_DEVICE_CPU)
        printf("device: %s (CPU dry run of the harness, %d cores)", props.name, props.multiprocessors);
    else
        printf("device: %s (sm_%d%d, %d SMs, peak %.0f GB/s)", props.name, props.compute_major, props.compute_minor,
               props.multiprocessors, props.peak_bandwidth_gbs);
    printf("; median of %d runs after %d warm-up, event-timed\n\n", ITERS, WARMUP);
    printf("| case | median ms | GB/s | of peak | check |\n|---|---:|---:|---:|---|\n");
    static bench_case b;
    struct {
        const char *name;
        enum op_kind op;
        int count, w, h;
        pf_dtype sdt, ddt;
        pf_layout dlay;
        int dw, dh;
    } cases[] = {
        {"convert u8->f32 1080p x3", OP_CONVERT, 1, 1920, 1080, PF_U8, PF_F32, PF_HWC, 1920, 1080},
        {"convert u8->f32 64x224x224x3", OP_CONVERT, BATCH, 224, 224, PF_U8, PF_F32, PF_HWC, 224, 224},
        {"normalize u8 HWC->f32 CHW 1080p", OP_NORMALIZE, 1, 1920, 1080, PF_U8, PF_F32, PF_CHW, 1920, 1080},
        {"normalize u8 HWC->f32 CHW 64x224", OP_NORMALIZE, BATCH, 224, 224, PF_U8, PF_F32, PF_CHW, 224, 224},
        {"reformat u8 HWC->CHW 1080p", OP_REFORMAT, 1, 1920, 1080, PF_U8, PF_U8, PF_CHW, 1920, 1080},
        {"reformat u8 HWC->CHW 64x224", OP_REFORMAT, BATCH, 224, 224, PF_U8, PF_U8, PF_CHW, 224, 224},
        {"flip horizontal u8 1080p x3", OP_FLIP, 1, 1920, 1080, PF_U8, PF_U8, PF_HWC, 1920, 1080},
        {"flip horizontal u8 64x224x224x3", OP_FLIP, BATCH, 224, 224, PF_U8, PF_U8, PF_HWC, 224, 224},
        {"warp_affine u8 LINEAR 1080p x3", OP_WARP, 1, 1920, 1080, PF_U8, PF_U8, PF_HWC, 1920, 1080},
        {"resize u8 LINEAR 1080p->224 x64", OP_RESIZE, BATCH, 1920, 1080, PF_U8, PF_U8, PF_HWC, 224, 224},
    };
    int failed = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int base = g_nallocs;
        if (setup(s, &b, cases[k].name, cases[k].op, cases[k].count, cases[k].w, cases[k].h, cases[k].sdt,
                  cases[k].ddt, cases[k].dlay, cases[k].dw, cases[k].dh) != 0) {
            fprintf(stderr, "pixflow_gpu_bench: %s: setup failed: %s\n", cases[k].name, pf_last_error());
            return 1;
        }
        pf_status st = PF_OK;
        double ms = time_case(s, e0, e1, &b, &st);
        if (ms < 0) {
            printf("| %s | %s | | | |\n", b.name, pf_status_str(st));
            fprintf(stderr, "  %s: %s\n", b.name, pf_last_error());
            if (st != PF_ERR_UNSUPPORTED) failed = 1;
            pf_stream_synchronize(s);
        } else {
            char buf[96];
            const char *check = check_case(s, &b, buf, sizeof buf);
            if (strcmp(check, "bit-exact") != 0) failed = 1;
            double gbs = b.bytes / (ms * 1e-3) / 1e9;
            char peak[32] = "n/a";
            if (props.peak_bandwidth_gbs > 0) snprintf(peak, sizeof peak, "%.0f%%", 100 * gbs / props.peak_bandwidth_gbs);
            printf("| %s | %.3f | %.0f | %s | %s |\n", b.name, ms, gbs, peak, check);
        }
        free(b.host_src0);
        while (g_nallocs > base) pf_free(g_gpu, PF_ALLOC_DEVICE, g_allocs[--g_nallocs]);
    }
    printf("\nbytes = every source byte read once + every destination byte written once\n");
    pf_event_destroy(e0);
    pf_event_destroy(e1);
    pf_stream_destroy(s);
    pf_device_close(g_gpu);
    return failed;
}
