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
#include "bench_common.h"
#include "opencv_io.h"
#include "opencv_ref.h"

typedef struct bcase {
    const char *file;   /* photo in the data dir */
    int dw, dh;         /* 0,0 = 2x the source */
    pf_interp interp;
    int antialias;      /* pixflow only: OpenCV has no antialias; compared to INTER_AREA */
    const char *label;
    pf_resize_flavor flavor; /* TORCHVISION rows: compared with the same cv::resize mode (timing only) */
} bcase;

static const bcase k_cases[] = {
    {"water_drop_1920x1080.jpg", 224, 224, PF_INTERP_LINEAR, 0, "1080p->224 linear", PF_RESIZE_OPENCV},
    {"coffee_500x375.jpg", 224, 224, PF_INTERP_LINEAR, 0, "500x375->224 linear", PF_RESIZE_OPENCV},
    {"coffee_500x375.jpg", 0, 0, PF_INTERP_LINEAR, 0, "500x375 2x up linear", PF_RESIZE_OPENCV},
    {"water_drop_1920x1080.jpg", 224, 224, PF_INTERP_AREA, 0, "1080p->224 area", PF_RESIZE_OPENCV},
    {"water_drop_1920x1080.jpg", 960, 540, PF_INTERP_AREA, 0, "1080p->960x540 area 2x", PF_RESIZE_OPENCV},
    {"coffee_500x375.jpg", 224, 224, PF_INTERP_CUBIC, 0, "500x375->224 cubic", PF_RESIZE_OPENCV},
    {"coffee_500x375.jpg", 224, 224, PF_INTERP_LANCZOS4, 0, "500x375->224 lanczos4", PF_RESIZE_OPENCV},
    {"coffee_500x375.jpg", 224, 224, PF_INTERP_NEAREST, 0, "500x375->224 nearest", PF_RESIZE_OPENCV},
    {"water_drop_1920x1080.jpg", 224, 224, PF_INTERP_LINEAR, 1, "1080p->224 antialias*", PF_RESIZE_OPENCV},
    {"coffee_500x375.jpg", 224, 224, PF_INTERP_LINEAR, 0, "500x375->224 tv bilinear+", PF_RESIZE_TORCHVISION},
    {"coffee_500x375.jpg", 224, 224, PF_INTERP_LINEAR, 1, "500x375->224 tv bilinear aa+", PF_RESIZE_TORCHVISION},
    {"coffee_500x375.jpg", 224, 224, PF_INTERP_CUBIC, 1, "500x375->224 tv bicubic aa+", PF_RESIZE_TORCHVISION},
    {"water_drop_1920x1080.jpg", 224, 224, PF_INTERP_LINEAR, 1, "1080p->224 tv bilinear aa+", PF_RESIZE_TORCHVISION},
};

typedef struct rz_ctx {
    pf_stream *stream;
    const pf_image *src;
    pf_image *dst;
    const pf_resize_opts *opts;
    uint8_t *cv_dst;
    int cv_interp;
} rz_ctx;

static int run_pf(void *p) {
    const rz_ctx *c = p;
    return pf_resize(c->stream, 1, c->src, c->dst, c->opts) == PF_OK ? 0 : -1;
}

static int run_cv(void *p) {
    const rz_ctx *c = p;
    const pf_image *s = c->src, *d = c->dst;
    int cn = s->channels;
    return pfb_cv_resize(s->data, s->width, s->height, s->row_stride, c->cv_dst, d->width, d->height,
                         (ptrdiff_t)d->width * cn, cn, 0, c->cv_interp);
}

int bench_resize(int argc, char **argv) {
    const char *data = PF_DATA_DIR;
    int rounds = 9;
    int prc = bench_parse_args(argc, argv, "resize", &rounds, &data);
    if (prc) return prc;
    bench_print_banner(rounds);
    bench_print_header("resize (u8 RGB)");
    pf_stream *s2 = NULL;
    if (pf_stream_create_cpu(2, &s2) != PF_OK) {
        fprintf(stderr, "pixflow bench: %s\n", pf_last_error());
        return 1;
    }
    int rc = 0;
    for (size_t c = 0; c < sizeof k_cases / sizeof k_cases[0]; c++) {
        const bcase *bc = &k_cases[c];
        uint8_t *px = NULL;
        int w = 0, h = 0;
        if (bench_load_rgb("resize", data, bc->file, &px, &w, &h)) {
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
        o.flavor = bc->flavor;
        int tv = bc->flavor == PF_RESIZE_TORCHVISION;
        int cv_interp = bc->antialias ? PF_INTERP_AREA : (int)bc->interp;
        /* correctness of the compared outputs */
        const char *verdict = "n/a";
        rz_ctx ctx = {NULL, &src, &dst, &o, cd, cv_interp};
        if (run_pf(&ctx) != 0 ||
            pfb_cv_resize(px, w, h, (ptrdiff_t)w * 3, cd, dw, dh, (ptrdiff_t)dw * 3, 3, 0, cv_interp) != 0) {
            fprintf(stderr, "pixflow bench: %s failed: %s\n", bc->label, pf_last_error());
            rc = 1;
        } else if (tv) {
            verdict = "(torchvision semantics)";
        } else if (!bc->antialias) {
            verdict = memcmp(pd, cd, (size_t)dw * (size_t)dh * 3) == 0 ? "bit-exact" : "DIFFERENT";
            if (verdict[0] == 'D') rc = 1;
        } else {
            verdict = "(vs INTER_AREA)";
        }
        bench_rows_1_2(bc->label, s2, &ctx.stream, run_pf, run_cv, &ctx, rounds, verdict);
        free(px);
        free(pd);
        free(cd);
    }
    printf("* antialias compares pixflow's Pillow-exact antialiased resize with OpenCV INTER_AREA;\n"
           "  the Pillow comparison is bench/bench_antialias_pillow.py.\n"
           "+ tv: PF_RESIZE_TORCHVISION (torch's CPU interpolate, bit-exact with torchvision 0.29's F.resize)\n"
           "  timed against OpenCV's closest mode (INTER_LINEAR / INTER_AREA for antialias); the torch\n"
           "  comparison is bench/python/bench_resize_torchvision.py.\n");
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
