/* Shared pieces of the OpenCV comparison benches (see bench_common.h);
 * only built with the OpenCV oracle. */
#ifdef PF_BENCH_OPENCV
#include <stdio.h>

#include "bench_common.h"
#include "opencv_io.h"
#include "opencv_ref.h"

int bench_load_rgb(const char *bench, const char *data, const char *file, uint8_t **px, int *w, int *h) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", data, file);
    if (pfb_cv_load_u8(path, 3, px, w, h) != 0) {
        fprintf(stderr, "pixflow bench %s: cannot read %s\n", bench, path);
        return 1;
    }
    return 0;
}

void bench_print_banner(int rounds) {
    printf("pixflow %s (%s) vs OpenCV %s; isa %s; median of %d rounds, ms per call\n", pf_version(),
           pf_build_info(), pfb_cv_version(), pf_isa_name(pf_cpu_active_isa()), rounds);
}

void bench_rows_1_2(const char *label, pf_stream *s2, pf_stream **stream_slot, bench_fn pf, bench_fn cv,
                    void *ctx, int rounds, const char *verdict) {
    for (int t = 1; t <= 2; t++) {
        pfb_cv_set_threads(t);
        *stream_slot = t == 1 ? NULL : s2;
        bench_print_row(label, t, bench_compare(pf, ctx, cv, ctx, rounds), verdict);
    }
}

#else
typedef int pfb_bench_common_unused; /* ISO C forbids an empty unit */
#endif
