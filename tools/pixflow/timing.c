/* Monotonic clock, medians and the side-by-side comparator for benchmarks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pixflow/pixflow.h"
#include "timing.h"

double bench_now_sec(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bench_median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

timing_pair bench_compare(bench_fn pf, void *pf_ctx, bench_fn cv, void *cv_ctx, int rounds) {
    int n = 1;
    for (;;) {
        double t0 = bench_now_sec();
        for (int i = 0; i < n; i++) pf(pf_ctx);
        if (bench_now_sec() - t0 > 0.025 || n >= 1 << 16) break;
        n *= 2;
    }
    double tp[64], tc[64];
    if (rounds > 64) rounds = 64;
    if (rounds < 1) rounds = 1;
    for (int r = 0; r < rounds; r++) {
        double t0 = bench_now_sec();
        for (int i = 0; i < n; i++) pf(pf_ctx);
        double t1 = bench_now_sec();
        for (int i = 0; i < n; i++) cv(cv_ctx);
        double t2 = bench_now_sec();
        tp[r] = (t1 - t0) * 1e3 / n;
        tc[r] = (t2 - t1) * 1e3 / n;
    }
    timing_pair res = {bench_median(tp, rounds), bench_median(tc, rounds)};
    return res;
}

void bench_print_header(const char *what) {
    printf("%-30s %3s %10s %10s %8s  %s\n", what, "thr", "pixflow", "opencv", "ratio", "output");
}

void bench_print_row(const char *label, int threads, timing_pair tp, const char *verdict) {
    printf("%-30s %3d %10.4f %10.4f %7.2fx  %s\n", label, threads, tp.pf_ms, tp.cv_ms,
           tp.cv_ms / tp.pf_ms, verdict);
    fflush(stdout);
}

int bench_parse_args(int argc, char **argv, const char *name, int *rounds, const char **data) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) *data = argv[++i];
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) *rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--quick") == 0) *rounds = 3;
        else {
            fprintf(stderr, "usage: pixflow bench %s [--data DIR] [--rounds N] [--quick]\n", name);
            return 2;
        }
    }
    if (*rounds < 1) *rounds = 1;
    return 0;
}
