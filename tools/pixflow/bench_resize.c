/* pixflow bench resize: pf_resize vs OpenCV cv::resize on the bundled
 * photos, in this process, on identical inputs. For each case and thread
 * count, rounds alternate pixflow and OpenCV; the table shows the median
 * time per call of each and the ratio OpenCV / pixflow (> 1: pixflow is
 * faster), plus whether the outputs are bit-identical. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pixflow/pixflow.h"
#include "timing.h"

#ifdef PF_BENCH_OPENCV
#include "opencv_io.h"
#include "opencv_ref.h"

typedef struct bcase {
    const char *file;   /* photo in the data dir */
    int dw, dh;         /* 0,0 = 2x the source */
    pf_interp interp;
    int antialias;      /* pixflow only: OpenCV has no antialias; compared to INTER_AREA */
    const char *label;
} bcase;

static const bcase k_cases[] = {
    {"water_drop_1920x1080.jpg", 224, 224, PF_INTERP_LINEAR, 0, "1080p->224 linear"},
    {"coffee_500x375.jpg", 224, 224, PF_INTERP_LINEAR, 0, "500x375->224 linear"},
    {"coffee_500x375.jpg", 0, 0, PF_INTERP_LINEAR, 0, "500x375 2x up linear"},
    {"water_drop_1920x1080.jpg", 224, 224, PF_INTERP_AREA, 0, "1080p->224 area"},
    {"water_drop_1920x1080.jpg", 960, 540, PF_INTERP_AREA, 0, "1080p->960x540 area 2x"},
    {"coffee_500x375.jpg", 224, 224, PF_INTERP_CUBIC, 0, "500x375->224 cubic"},
    {"coffee_500x375.jpg", 224, 224, PF_INTERP_LANCZOS4, 0, "500x375->224 lanczos4"},
    {"coffee_500x375.jpg", 224, 224, PF_INTERP_NEAREST, 0, "500x375->224 nearest"},
    {"water_drop_1920x1080.jpg", 224, 224, PF_INTERP_LINEAR, 1, "1080p->224 antialias*"},
};

typedef struct timing_pair { double pf_ms, cv_ms; } timing_pair;

static int run_pf(pf_stream *s, const pf_image *src, pf_image *dst, const pf_resize_opts *o) {
    return pf_resize(s, 1, src, dst, o) == PF_OK ? 0 : -1;
}

static timing_pair measure(pf_stream *s, const pf_image *src, pf_image *pdst, uint8_t *cvd,
                           const pf_resize_opts *o, int cv_interp, int rounds) {
    /* calibrate: iterations so one pixflow round takes ~25 ms */
    int n = 1;
    for (;;) {
        double t0 = bench_now_sec();
        for (int i = 0; i < n; i++) run_pf(s, src, pdst, o);
        double dt = bench_now_sec() - t0;
        if (dt > 0.025 || n >= 1 << 16) break;
        n *= 2;
    }
    double pf[64], cv[64];
    if (rounds > 64) rounds = 64;
    int cn = src->channels;
    for (int r = 0; r < rounds; r++) {
        double t0 = bench_now_sec();
        for (int i = 0; i < n; i++) run_pf(s, src, pdst, o);
        double t1 = bench_now_sec();
        for (int i = 0; i < n; i++)
            pfb_cv_resize(src->data, src->width, src->height, src->row_stride, cvd, pdst->width,
                          pdst->height, (ptrdiff_t)pdst->width * cn, cn, 0, cv_interp);
        double t2 = bench_now_sec();
        pf[r] = (t1 - t0) * 1e3 / n;
        cv[r] = (t2 - t1) * 1e3 / n;
    }
    timing_pair tp = {bench_median(pf, rounds), bench_median(cv, rounds)};
    return tp;
}

int bench_resize(int argc, char **argv) {
    const char *data = PF_DATA_DIR;
    int rounds = 9;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) data = argv[++i];
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--quick") == 0) rounds = 3;
        else {
            fprintf(stderr, "usage: pixflow bench resize [--data DIR] [--rounds N] [--quick]\n");
            return 2;
        }
    }
    if (rounds < 1) rounds = 1;
    printf("pixflow %s (%s) vs OpenCV %s; isa %s; median of %d rounds, ms per call\n", pf_version(),
           pf_build_info(), pfb_cv_version(), pf_isa_name(pf_cpu_active_isa()), rounds);
    printf("%-26s %3s %10s %10s %8s  %s\n", "case (u8 RGB)", "thr", "pixflow", "opencv", "ratio", "output");
    pf_stream *s2 = NULL;
    if (pf_stream_create_cpu(2, &s2) != PF_OK) {
        fprintf(stderr, "pixflow bench: %s\n", pf_last_error());
        return 1;
    }
    int rc = 0;
    for (size_t c = 0; c < sizeof k_cases / sizeof k_cases[0]; c++) {
        const bcase *bc = &k_cases[c];
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", data, bc->file);
        uint8_t *px = NULL;
        int w = 0, h = 0;
        if (pfb_cv_load_u8(path, 3, &px, &w, &h) != 0) {
            fprintf(stderr, "pixflow bench: cannot read %s\n", path);
            rc = 1;
            continue;
        }
        int dw = bc->dw ? bc->dw : 2 * w, dh = bc->dh ? bc->dh : 2 * h;
        uint8_t *pd = malloc((size_t)dw * (size_t)dh * 3), *cd = malloc((size_t)dw * (size_t)dh * 3);
        if (pd == NULL || cd == NULL) { free(px); free(pd); free(cd); rc = 1; break; }
        pf_image src = pf_image_hwc(px, w, h, 3, PF_U8, 0);
        pf_image dst = pf_image_hwc(pd, dw, dh, 3, PF_U8, 0);
        pf_resize_opts o = pf_resize_opts_defaults();
        o.interp = bc->interp;
        o.antialias = bc->antialias != 0;
        int cv_interp = bc->antialias ? PF_INTERP_AREA : (int)bc->interp;
        /* correctness of the compared outputs */
        const char *verdict = "n/a";
        if (run_pf(NULL, &src, &dst, &o) != 0 ||
            pfb_cv_resize(px, w, h, (ptrdiff_t)w * 3, cd, dw, dh, (ptrdiff_t)dw * 3, 3, 0, cv_interp) != 0) {
            fprintf(stderr, "pixflow bench: %s failed: %s\n", bc->label, pf_last_error());
            rc = 1;
        } else if (!bc->antialias) {
            verdict = memcmp(pd, cd, (size_t)dw * (size_t)dh * 3) == 0 ? "bit-exact" : "DIFFERENT";
            if (verdict[0] == 'D') rc = 1;
        } else {
            verdict = "(vs INTER_AREA)";
        }
        for (int t = 1; t <= 2; t++) {
            pfb_cv_set_threads(t);
            timing_pair tp = measure(t == 1 ? NULL : s2, &src, &dst, cd, &o, cv_interp, rounds);
            printf("%-26s %3d %10.4f %10.4f %7.2fx  %s\n", bc->label, t, tp.pf_ms, tp.cv_ms,
                   tp.cv_ms / tp.pf_ms, verdict);
            fflush(stdout);
        }
        free(px);
        free(pd);
        free(cd);
    }
    printf("* antialias compares pixflow's Pillow-exact antialiased resize with OpenCV INTER_AREA;\n"
           "  the Pillow comparison is bench/bench_antialias_pillow.py.\n");
    pf_stream_destroy(s2);
    return rc;
}

#else /* !PF_BENCH_OPENCV */

int bench_resize(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "pixflow bench resize: this pixflow was built without OpenCV (the comparison "
                    "oracle); install libopencv-dev and rebuild.\n");
    return 1;
}

#endif
