/* The driver of `pixflow bench <op> --device KIND:N` (bench_device.h):
 * opens the device, runs each case's check (CPU vs device, whole
 * buffers), then times both sides and prints one table row per case. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_device.h"
#include "timing.h"

enum { CANARY = 0xa5 };

static uint64_t g_rng = 0x2545f4914f6cdd1dull;

static uint8_t rnd8(void) {
    g_rng ^= g_rng >> 12;
    g_rng ^= g_rng << 25;
    g_rng ^= g_rng >> 27;
    return (uint8_t)((g_rng * 2685821657736338717ull) >> 56);
}

uint8_t *bd_add(bd_case *c, size_t bytes, int out) {
    if (c->nbuf == BD_MAX_BUFS) {
        fprintf(stderr, "pixflow bench: a case has more than %d buffers\n", BD_MAX_BUFS);
        return NULL;
    }
    bd_buf *b = &c->buf[c->nbuf];
    memset(b, 0, sizeof *b);
    b->host = malloc(bytes);
    if (b->host == NULL) {
        fprintf(stderr, "pixflow bench: out of host memory (%zu bytes)\n", bytes);
        return NULL;
    }
    if (pf_malloc(c->dev, PF_ALLOC_DEVICE, bytes, (void **)&b->dev) != PF_OK) {
        fprintf(stderr, "pixflow bench: device memory (%zu bytes): %s\n", bytes, pf_last_error());
        free(b->host);
        b->host = NULL;
        return NULL;
    }
    b->bytes = bytes;
    b->out = out;
    c->nbuf++;
    /* smooth content (gradient plus noise): timing does not depend on it,
     * but the comparison should not pass on flat images */
    for (size_t i = 0; i < bytes; i++) b->host[i] = out ? CANARY : (uint8_t)((i / 3 + i / 4096) / 4 + (rnd8() & 31));
    return b->host;
}

void *bd_ptr(const bd_case *c, int i, int dev) { return dev ? (void *)c->buf[i].dev : (void *)c->buf[i].host; }

pf_image bd_img(const bd_case *c, int i, int dev, int32_t w, int32_t h, int32_t ch, pf_dtype dt, pf_layout lay) {
    void *p = bd_ptr(c, i, dev);
    pf_image im = lay == PF_CHW ? pf_image_chw(p, w, h, ch, dt, 0, 0) : pf_image_hwc(p, w, h, ch, dt, 0);
    if (dev) {
        im.mem = c->mem;
        im.device = c->index;
    }
    return im;
}

static void free_case(const bd_op *op, bd_case *c) {
    if (op->teardown) op->teardown(c);
    for (int i = 0; i < c->nbuf; i++) {
        free(c->buf[i].host);
        pf_free(c->dev, PF_ALLOC_DEVICE, c->buf[i].dev);
    }
    c->nbuf = 0;
}

/* Copies every input (up) or output (!up) buffer; ms of the whole, or -1. */
static double copy_all(bd_case *c, pf_stream *s, int up, uint8_t **into) {
    double t0 = bench_now_sec();
    for (int i = 0; i < c->nbuf; i++) {
        bd_buf *b = &c->buf[i];
        pf_status st = PF_OK;
        if (up && !b->out) st = pf_memcpy_async(s, b->dev, b->host, b->bytes);
        if (!up && b->out) st = pf_memcpy_async(s, into[i], b->dev, b->bytes);
        if (st != PF_OK) return -1;
    }
    if (pf_stream_synchronize(s) != PF_OK) return -1;
    return (bench_now_sec() - t0) * 1e3;
}

/* copy_all's median of 3 (one copy is too noisy on a shared machine) */
static double copy_median(bd_case *c, pf_stream *s, int up, uint8_t **into) {
    double t[3];
    for (int k = 0; k < 3; k++)
        if ((t[k] = copy_all(c, s, up, into)) < 0) return -1;
    return bench_median(t, 3);
}

/* Median ms per call: calls per round calibrated to ~target_s, a stream
 * synchronize closing each round (so queued device work is counted). */
static double time_side(const bd_op *op, bd_case *c, pf_stream *s, int dev, int rounds, double target_s) {
    int n = 1;
    for (;;) {
        double t0 = bench_now_sec();
        for (int i = 0; i < n; i++)
            if (op->run(c, s, dev) != PF_OK) return -1;
        if (pf_stream_synchronize(s) != PF_OK) return -1;
        if (bench_now_sec() - t0 > target_s || n >= 1 << 14) break;
        n *= 2;
    }
    double t[64];
    if (rounds > 64) rounds = 64;
    for (int r = 0; r < rounds; r++) {
        double t0 = bench_now_sec();
        for (int i = 0; i < n; i++)
            if (op->run(c, s, dev) != PF_OK) return -1;
        if (pf_stream_synchronize(s) != PF_OK) return -1;
        t[r] = (bench_now_sec() - t0) * 1e3 / n;
    }
    return bench_median(t, rounds);
}

/* One case: check, then time. 0 (same bytes), 1 (differs or failed). */
static int run_case(const bd_op *op, bd_case *c, pf_stream *cpu, pf_stream *ds, const char *label, int rounds) {
    char row[80];
    snprintf(row, sizeof row, "%s %s", op->bench, op->name);
    if (op->setup(c) != 0) {
        printf("%-38s setup failed: %s\n", row, pf_last_error());
        free_case(op, c);
        return 1;
    }
    uint8_t *back[BD_MAX_BUFS] = {0};
    int rc = 1;
    double up = copy_median(c, ds, 1, NULL), down = -1;
    for (int i = 0; i < c->nbuf; i++)
        if (c->buf[i].out) {
            back[i] = malloc(c->buf[i].bytes);
            if (back[i] == NULL || pf_memcpy_async(ds, c->buf[i].dev, c->buf[i].host, c->buf[i].bytes) != PF_OK)
                up = -1;
        }
    pf_status st = up < 0 ? PF_ERR_DEVICE : op->run(c, cpu, 0);
    const char *failed = NULL;
    if (st != PF_OK) failed = "cpu";
    if (!failed && (op->run(c, ds, 1) != PF_OK || pf_stream_synchronize(ds) != PF_OK)) failed = label;
    if (!failed && (down = copy_median(c, ds, 0, back)) < 0) failed = "download";
    if (failed) {
        printf("%-38s %-24s %s FAILED: %s\n", row, c->size, failed, pf_last_error());
        goto done;
    }
    size_t diff = 0, total = 0;
    if (op->differs != NULL) {
        diff = op->differs(c, back, &total);
    } else {
        for (int i = 0; i < c->nbuf; i++)
            if (c->buf[i].out) {
                total += c->buf[i].bytes;
                for (size_t k = 0; k < c->buf[i].bytes; k++) diff += back[i][k] != c->buf[i].host[k];
            }
    }
    double tc = time_side(op, c, cpu, 0, rounds, c->quick ? 0.008 : 0.025);
    double td = time_side(op, c, ds, 1, rounds, c->quick ? 0.008 : 0.025);
    if (tc < 0 || td < 0) {
        printf("%-38s %-24s timing FAILED: %s\n", row, c->size, pf_last_error());
        goto done;
    }
    char verdict[64];
    if (diff)
        snprintf(verdict, sizeof verdict, "DIFFERS: %zu of %zu bytes", diff, total);
    else
        snprintf(verdict, sizeof verdict, "bit-exact");
    printf("%-38s %-24s %9.3f %9.3f %7.2fx %8.3f %8.3f  %s\n", row, c->size, tc, td, td / tc, up, down, verdict);
    fflush(stdout);
    rc = diff != 0;
done:
    for (int i = 0; i < BD_MAX_BUFS; i++) free(back[i]);
    free_case(op, c);
    return rc;
}

/* "opencl", "opencl:N", "cuda", "cuda:N"; 0 or -1 (unknown). */
static int parse_device(const char *name, pf_device_kind *kind, int *index) {
    size_t n;
    if (strncmp(name, "opencl", 6) == 0) {
        *kind = PF_DEVICE_OPENCL;
        n = 6;
    } else if (strncmp(name, "cuda", 4) == 0) {
        *kind = PF_DEVICE_CUDA;
        n = 4;
    } else {
        return -1;
    }
    *index = 0;
    if (name[n] == '\0') return 0;
    if (name[n] != ':' || name[n + 1] == '\0') return -1;
    char *end;
    long v = strtol(name + n + 1, &end, 10);
    if (*end != '\0' || v < 0 || v > 63) return -1;
    *index = (int)v;
    return 0;
}

static int has_cases(const char *what) {
    for (int i = 0; i < bd_image_op_count; i++)
        if (strcmp(bd_image_ops[i].bench, what) == 0) return 1;
    for (int i = 0; i < bd_pp_op_count; i++)
        if (strcmp(bd_pp_ops[i].bench, what) == 0) return 1;
    return 0;
}

int bench_device(const char *what, const char *device, int argc, char **argv) {
    pf_device_kind kind;
    int index;
    if (parse_device(device, &kind, &index) != 0) {
        fprintf(stderr, "pixflow bench: --device %s: unknown device; use opencl[:N] or cuda[:N] "
                        "(without --device the benches run on the CPU)\n", device);
        return 2;
    }
    int all = strcmp(what, "all") == 0;
    if (!all && !has_cases(what)) {
        fprintf(stderr, "pixflow bench %s --device %s: no op of this bench runs on a device backend "
                        "(device benches: resize color yuv geom warp convert preprocess post, or all)\n",
                what, device);
        return 2;
    }
    int rounds = 9;
    const char *data = NULL;
    int prc = bench_parse_args(argc, argv, what, &rounds, &data);
    if (prc) return prc;
    int quick = 0;
    for (int i = 1; i < argc; i++) quick |= strcmp(argv[i], "--quick") == 0;
    pf_device *dev = NULL;
    if (pf_device_open(kind, index, &dev) != PF_OK) {
        fprintf(stderr, "pixflow bench: --device %s: %s\n", device, pf_last_error());
        return 2;
    }
    pf_stream *cpu = NULL, *ds = NULL;
    if (pf_stream_create_cpu(2, &cpu) != PF_OK || pf_stream_create(dev, &ds) != PF_OK) {
        fprintf(stderr, "pixflow bench: streams: %s\n", pf_last_error());
        pf_stream_destroy(cpu);
        pf_device_close(dev);
        return 1;
    }
    pf_device_props p;
    if (pf_device_props_get(dev, &p) != PF_OK) memset(&p, 0, sizeof p);
    printf("pixflow %s (%s); isa %s; device %s: %s (%s; %s); median of %d rounds, ms per call%s\n", pf_version(),
           pf_build_info(), pf_isa_name(pf_cpu_active_isa()), device, p.name, p.version, p.driver, rounds,
           quick ? ", --quick sizes" : "");
    printf("cpu: the CPU backend on a 2-thread stream; %s: device-resident inputs and outputs, each round ended "
           "by pf_stream_synchronize; up/down: copying the inputs to / the outputs from the device (median of 3)\n", device);
    printf("%-38s %-24s %9s %9s %8s %8s %8s  %s\n", "op", "size", "cpu ms", "dev ms", "dev/cpu", "up ms", "down ms",
           "output vs cpu");
    const bd_op *tables[2] = {bd_image_ops, bd_pp_ops};
    const int counts[2] = {bd_image_op_count, bd_pp_op_count};
    int rc = 0;
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < counts[t]; i++) {
            const bd_op *op = &tables[t][i];
            if (!all && strcmp(op->bench, what) != 0) continue;
            bd_case c;
            memset(&c, 0, sizeof c);
            c.dev = dev;
            c.mem = kind == PF_DEVICE_OPENCL ? PF_MEM_OPENCL : PF_MEM_CUDA;
            c.index = index;
            c.quick = quick;
            if (run_case(op, &c, cpu, ds, device, rounds)) rc = 1;
        }
    pf_stream_destroy(ds);
    pf_stream_destroy(cpu);
    pf_device_close(dev);
    if (rc) fprintf(stderr, "pixflow bench --device %s: some outputs differ from the CPU backend's or failed\n", device);
    return rc;
}
