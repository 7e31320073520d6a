/* The device dispatcher on the imagenet-train batch (bench/dispatch_bench.sh):
 * batch 64 of the bundled photos (500x375-class JPEGs, decoded once),
 * pf_aug_sample of the imagenet-train policy, 224x224 NCHW f32, through
 * pf_dispatch_run on cpu only, opencl:0 only, cpu+opencl:0 (pinned /
 * cost-placed), a static 50/50 cpu+opencl:0 split, and each sample's
 * chain split by rules (geometry on one device, pointwise on the other,
 * both directions: pf_dispatch_set_rules), in one run, rounds
 * interleaved and 150 ms apart (PoCL's worker threads keep the cores busy
 * for a while after its last kernel, which would slow whatever ran next
 * on the same 2 cores). Prints median samples/s per placement, the split, and the
 * dispatcher's own overhead per batch (pf_dispatch_stats.overhead_ms) as
 * a fraction of the batch time. Public API only. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pixflow/pixflow.h"

#define BATCH 64
#define MAXP 16

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int load(const char *path, pf_image *im) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(buf);
        return -1;
    }
    fclose(f);
    pf_decode_opts o = pf_decode_opts_defaults();
    pf_decode_result r;
    int rc = -1;
    if (pf_decode_query(buf, (size_t)n, &o, &r) == PF_OK && r.channels == 3) {
        void *px = malloc((size_t)r.width * (size_t)r.height * 3);
        *im = pf_image_hwc(px, r.width, r.height, 3, PF_U8, 0);
        if (px && pf_decode(NULL, buf, (size_t)n, &o, im, NULL) == PF_OK) rc = 0;
    }
    free(buf);
    return rc;
}

int main(int argc, char **argv) {
    const char *data = argc > 1 ? argv[1] : "data";
    int rounds = argc > 2 ? atoi(argv[2]) : 9;
    if (rounds < 1 || rounds > 1000) rounds = 9;
    pf_image ph[MAXP];
    int np = 0;
    DIR *dir = opendir(data);
    if (!dir) {
        fprintf(stderr, "dispatch_bench: cannot open %s\n", data);
        return 1;
    }
    char path[4096];
    for (struct dirent *e; (e = readdir(dir)) != NULL && np < MAXP;) {
        const char *n = e->d_name;
        if (!(strstr(n, "500x375.jpg") || strstr(n, "375x500.jpg") || strstr(n, "333x251.jpg"))) continue;
        snprintf(path, sizeof path, "%s/%s", data, n);
        if (load(path, &ph[np]) == 0) np++;
    }
    closedir(dir);
    if (np == 0) {
        fprintf(stderr, "dispatch_bench: no 500x375 / 375x500 / 333x251 JPEGs in %s\n", data);
        return 1;
    }
    pf_preprocess_desc desc;
    pf_aug_policy pol;
    pf_recipe("imagenet-train", &desc, &pol);
    static pf_image src[BATCH];
    static pf_aug_params prm[BATCH];
    int32_t ws[BATCH], hs[BATCH];
    for (int i = 0; i < BATCH; i++) {
        src[i] = ph[i % np];
        ws[i] = src[i].width;
        hs[i] = src[i].height;
    }
    if (pf_aug_sample(&pol, 1, 0, 0, BATCH, ws, hs, prm) != PF_OK) return 1;
    size_t bytes = pf_tensor_packed_size(BATCH, 3, 224, 224, PF_F32);
    void *out = malloc(bytes), *ref = malloc(bytes);
    pf_tensor t = pf_tensor_nchw(out, BATCH, 3, 224, 224, PF_F32);

    pf_dispatch_config c = pf_dispatch_config_defaults();
    c.devices = "cpu,opencl:0";
    pf_dispatch *pin_cpu, *pin_cl, *hyb, *even;
    if (pf_dispatch_open(&c, &pin_cpu) != PF_OK || pf_dispatch_open(&c, &pin_cl) != PF_OK ||
        pf_dispatch_open(&c, &hyb) != PF_OK) {
        fprintf(stderr, "dispatch_bench: %s\n", pf_last_error());
        return 77;
    }
    pf_dispatch_pin(pin_cpu, "cpu");
    pf_dispatch_pin(pin_cl, "opencl:0");
    /* a naive split for comparison: half and half, static, whatever the costs */
    c.work_stealing = false;
    if (pf_dispatch_open(&c, &even) != PF_OK) {
        fprintf(stderr, "dispatch_bench: %s\n", pf_last_error());
        return 77;
    }
    pf_dispatch_set_share(even, "cpu", 1);
    pf_dispatch_set_share(even, "opencl:0", 1);
    /* the chain split by op class: resampling on one device, colour and
     * normalisation on the other, the u8 224x224 image moved between */
    c.work_stealing = true;
    pf_dispatch *geo_cl, *geo_cpu;
    if (pf_dispatch_open(&c, &geo_cl) != PF_OK || pf_dispatch_open(&c, &geo_cpu) != PF_OK ||
        pf_dispatch_set_rules(geo_cl, "geometry=opencl:0,pointwise=cpu") != PF_OK ||
        pf_dispatch_set_rules(geo_cpu, "geometry=cpu,pointwise=opencl:0") != PF_OK) {
        fprintf(stderr, "dispatch_bench: %s\n", pf_last_error());
        return 77;
    }
    enum { NP = 6 };
    pf_dispatch *ds[NP] = {pin_cpu, pin_cl, hyb, even, geo_cl, geo_cpu};
    const char *names[NP] = {"cpu only", "opencl:0 only", "cpu+opencl:0", "static 50/50", "geo cl, pw cpu",
                             "geo cpu, pw cl"};
    double ms[NP][1000], ovh[NP][1000];
    /* warm-up + calibration: 3 batches each */
    for (int k = 0; k < NP; k++)
        for (int r = 0; r < 3; r++)
            if (pf_dispatch_run(ds[k], &desc, BATCH, src, prm, &t, NULL) != PF_OK) {
                fprintf(stderr, "dispatch_bench: %s: %s\n", names[k], pf_last_error());
                return 1;
            }
    memcpy(ref, out, bytes);
    int identical = 1;
    /* rounds interleaved (machine load hits every placement alike), each
     * run 150 ms after the previous one: PoCL's worker threads keep the
     * cores busy for a while after its last kernel */
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < NP; k++) {
            struct timespec pause = {0, 150000000L};
            nanosleep(&pause, NULL);
            memset(out, 0, bytes);
            if (pf_dispatch_run(ds[k], &desc, BATCH, src, prm, &t, NULL) != PF_OK) {
                fprintf(stderr, "dispatch_bench: %s: %s\n", names[k], pf_last_error());
                return 1;
            }
            pf_dispatch_stats st;
            pf_dispatch_stats_get(ds[k], &st);
            ms[k][r] = st.last_wall_ms;
            ovh[k][r] = st.last_overhead_ms;
            identical &= memcmp(ref, out, bytes) == 0;
        }
    pf_device_props p;
    pf_device *cl;
    if (pf_device_open(PF_DEVICE_OPENCL, 0, &cl) == PF_OK) {
        if (pf_device_props_get(cl, &p) == PF_OK)
            printf("opencl:0: %s (%d compute units); cpu: a stream of every core\n", p.name, p.multiprocessors);
        pf_device_close(cl);
    }
    printf("imagenet-train batch %d -> 224x224x3 f32 NCHW, %d photos, median of %d rounds\n", BATCH, np,
           rounds);
    printf("%-16s %10s %12s %14s %10s  %s\n", "placement", "ms/batch", "samples/s", "overhead ms", "overhead",
           "samples per device");
    for (int k = 0; k < NP; k++) {
        double m = median(ms[k], rounds), o = median(ovh[k], rounds);
        char split[160] = "";
        for (int i = 0; i < pf_dispatch_device_count(ds[k]); i++) {
            pf_dispatch_device_stats s;
            pf_dispatch_device_stats_get(ds[k], i, &s);
            size_t l = strlen(split);
            snprintf(split + l, sizeof split - l, "%s%s %.0f%%", i ? ", " : "", s.name, 100.0 * s.last_share);
        }
        printf("%-16s %10.2f %12.1f %14.3f %9.2f%%  %s\n", names[k], m, 1e3 * BATCH / m, o, 100.0 * o / m, split);
    }
    for (int i = 0; i < pf_dispatch_device_count(hyb); i++) {
        pf_dispatch_device_stats s;
        pf_dispatch_device_stats_get(hyb, i, &s);
        printf("cpu+opencl:0 %s: cost %.3f ms/sample, utilization %.1f%%, %s\n", s.name, s.cost_ms,
               100.0 * s.utilization, s.reason);
    }
    for (int k = 4; k < NP; k++) {
        pf_dispatch_stats st;
        pf_dispatch_stats_get(ds[k], &st);
        pf_dispatch_device_stats g, q;
        pf_dispatch_device_stats_get(ds[k], k == 4 ? 1 : 0, &g);
        pf_dispatch_device_stats_get(ds[k], k == 4 ? 0 : 1, &q);
        /* busy: each stage's own time (its device's chunks, copies included), all batches */
        printf("%s: %llu of %llu batches split, %.1f KiB moved per batch; geometry on %s busy %.2f ms/batch, "
               "pointwise on %s busy %.2f ms/batch; \"%s\"\n", names[k], (unsigned long long)st.split_batches,
               (unsigned long long)st.batches, st.batches ? (double)st.moved_bytes / (double)st.batches / 1024.0 : 0.0,
               g.name, g.batches ? g.busy_ms / (double)g.batches : 0.0, q.name,
               q.batches ? q.busy_ms / (double)q.batches : 0.0, g.reason);
    }
    printf("outputs byte-identical across placements: %s\n", identical ? "yes" : "NO");
    for (int k = 0; k < NP; k++) pf_dispatch_close(ds[k]);
    return identical ? 0 : 1;
}
