/* pixflow bench post: post-processing timings on synthetic detector and
 * segmentation outputs. Against OpenCV where it has the same function
 * (cv::dnn::NMSBoxes with pixflow's OpenCV semantics, findContours,
 * connectedComponentsWithStats: outputs compared exactly); pixflow alone
 * elsewhere (torchvision / ultralytics comparisons are bench/python).
 * Exits non-zero when an output differs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pixflow/pixflow.h"
#include "pixflow/post.h"
#include "timing.h"

#ifdef PF_BENCH_OPENCV
#include "opencv_post.h"
#include "opencv_ref.h"
#endif

static uint64_t g_rng = 0x2545f4914f6cdd1dull;
static float frand(void) {
    g_rng ^= g_rng >> 12;
    g_rng ^= g_rng << 25;
    g_rng ^= g_rng >> 27;
    return (float)((g_rng * 2685821657736338717ull) >> 40) / (float)(1 << 24);
}

/* A YOLOv8-like (1, 4 + C, A) output: `objects` objects, each seen by a
 * cluster of anchors with jittered boxes and a high score on its class,
 * every other score small noise (so conf 0.001 keeps thousands). */
static void make_yolov8(float *p, int A, int C, int objects) {
    for (int a = 0; a < A; a++) {
        p[a] = frand() * 640;
        p[A + a] = frand() * 640;
        p[2 * A + a] = 4 + frand() * 60;
        p[3 * A + a] = 4 + frand() * 60;
        for (int c = 0; c < C; c++) p[(size_t)(4 + c) * A + a] = frand() < 0.02f ? frand() * 0.01f : frand() * 0.0005f;
    }
    for (int o = 0; o < objects; o++) {
        float cx = 30 + frand() * 580, cy = 30 + frand() * 580, w = 20 + frand() * 200, h = 20 + frand() * 200;
        int c = (int)(frand() * (float)C) % C, k = 10 + (int)(frand() * 30);
        for (int j = 0; j < k; j++) {
            int a = (int)(frand() * (float)A) % A;
            p[a] = cx + (frand() - 0.5f) * w * 0.1f;
            p[A + a] = cy + (frand() - 0.5f) * h * 0.1f;
            p[2 * A + a] = w * (0.9f + frand() * 0.2f);
            p[3 * A + a] = h * (0.9f + frand() * 0.2f);
            p[(size_t)(4 + c) * A + a] = 0.3f + frand() * 0.65f;
        }
    }
}

typedef struct post_ctx {
    pf_stream *stream;
    /* nms */
    pf_nms_sample smp;
    pf_nms_opts nms;
    int32_t *keep;
    int *cv_keep;
    float *xywh;
    int cv_count;
    /* yolo */
    pf_yolo_opts yo;
    const float *pred;
    int32_t batch, dim1, dim2;
    pf_detection *dets;
    int64_t off[65];
    /* iou */
    const float *a, *b;
    int32_t n, m;
    float *out;
    /* masks */
    const float *logits;
    uint8_t *masks;
    int32_t C, H, W;
    pf_image fg, bg, mk, dst;
    /* regions */
    pf_image bin, lab;
    pf_contours *contours;
    pf_cc_stats *stats;
    int32_t *cv_labels;
    long cv_points;
} post_ctx;

static int run_nms(void *p) {
    post_ctx *c = p;
    int64_t off[2];
    return pf_nms(c->stream, 1, &c->smp, &c->nms, off, c->keep, c->smp.n, NULL) == PF_OK ? 0 : -1;
}
static int run_yolo(void *p) {
    post_ctx *c = p;
    return pf_yolo_decode(c->stream, &c->yo, c->pred, c->batch, c->dim1, c->dim2, c->off, c->dets,
                          (int64_t)c->batch * c->yo.max_det) == PF_OK ? 0 : -1;
}
static int run_iou(void *p) {
    post_ctx *c = p;
    return pf_box_iou(c->stream, PF_IOU, c->n, c->a, c->m, c->b, 1e-7f, c->out) == PF_OK ? 0 : -1;
}
static int run_argmax(void *p) {
    post_ctx *c = p;
    pf_mask_opts o = pf_mask_opts_defaults();
    return pf_masks_from_logits(c->stream, c->logits, 1, c->C, c->H, c->W, c->masks, &o) == PF_OK ? 0 : -1;
}
static int run_composite(void *p) {
    post_ctx *c = p;
    return pf_composite(c->stream, 1, &c->fg, &c->bg, &c->mk, &c->dst) == PF_OK ? 0 : -1;
}
static int run_contours(void *p) {
    post_ctx *c = p;
    return pf_find_contours(&c->bin, PF_RETR_LIST, c->contours) == PF_OK ? 0 : -1;
}
static int run_cc(void *p) {
    post_ctx *c = p;
    int32_t n;
    return pf_connected_components(&c->bin, 8, &c->lab, &n, c->stats, 1 << 20) == PF_OK ? 0 : -1;
}
#ifdef PF_BENCH_OPENCV
static int run_cv_nms(void *p) {
    post_ctx *c = p;
    c->cv_count = pfb_cv_nms_boxes(c->xywh, c->smp.scores, c->smp.n, 0.0f, (float)c->nms.iou_threshold, c->cv_keep);
    return c->cv_count < 0;
}
static int run_cv_contours(void *p) {
    post_ctx *c = p;
    return pfb_cv_find_contours(c->bin.data, c->bin.width, c->bin.height, c->bin.row_stride, 1, &c->cv_points) < 0;
}
static int run_cv_cc(void *p) {
    post_ctx *c = p;
    return pfb_cv_components(c->bin.data, c->bin.width, c->bin.height, c->bin.row_stride, 8, c->cv_labels) < 0;
}
#endif

/* pixflow alone: median ms per call */
static double time_pf(bench_fn fn, void *ctx, int rounds) {
    timing_pair tp = bench_compare(fn, ctx, fn, ctx, rounds);
    return tp.pf_ms;
}

static void row_pf(const char *label, int threads, double ms, const char *note) {
    printf("%-30s %3d %10.4f %10s %8s  %s\n", label, threads, ms, "-", "-", note);
    fflush(stdout);
}

int bench_post(int argc, char **argv) {
    const char *data = PF_DATA_DIR;
    int rounds = 9;
    int prc = bench_parse_args(argc, argv, "post", &rounds, &data);
    if (prc) return prc;
    (void)data;
    int rc = 0;
    pf_stream *s2 = NULL;
    if (pf_stream_create_cpu(2, &s2) != PF_OK) {
        fprintf(stderr, "pixflow bench post: %s\n", pf_last_error());
        return 1;
    }
    printf("pixflow %s; isa %s; median of %d rounds, ms per call\n", pf_version(), pf_isa_name(pf_cpu_active_isa()),
           rounds);
    printf("%-30s %3s %10s %10s %8s  %s\n", "post", "thr", "pixflow", "opencv", "ratio", "output");
    post_ctx c;
    memset(&c, 0, sizeof c);
    const int A = 8400, C = 80;
    float *pred = malloc((size_t)(4 + C) * A * 8 * sizeof(float));
    float *boxes = malloc((size_t)A * 4 * sizeof(float)), *scores = malloc((size_t)A * sizeof(float));
    c.xywh = malloc((size_t)A * 4 * sizeof(float));
    c.keep = malloc((size_t)A * sizeof(int32_t));
    c.cv_keep = malloc((size_t)A * sizeof(int));
    c.dets = malloc((size_t)8 * 300 * sizeof(pf_detection));
    if (!pred || !boxes || !scores || !c.xywh || !c.keep || !c.cv_keep || !c.dets) return 1;
    make_yolov8(pred, A, C, 40);
    for (int b = 1; b < 8; b++) memcpy(pred + (size_t)b * (4 + C) * A, pred, (size_t)(4 + C) * A * sizeof(float));

    /* NMS of 8400 boxes, one class: the anchors' boxes and best scores */
    for (int a = 0; a < A; a++) {
        float cw[4] = {pred[a], pred[A + a], pred[2 * A + a], pred[3 * A + a]};
        pf_box_convert(1, cw, PF_BOX_CXCYWH, boxes + 4 * a, PF_BOX_XYXY);
        pf_box_convert(1, cw, PF_BOX_CXCYWH, c.xywh + 4 * a, PF_BOX_XYWH);
        float best = 0;
        for (int k = 0; k < C; k++) best = fmaxf(best, pred[(size_t)(4 + k) * A + a]);
        scores[a] = best;
    }
    c.smp = (pf_nms_sample){boxes, scores, NULL, A};
    c.nms = pf_nms_opts_defaults();
    c.nms.iou_threshold = 0.7;
    run_nms(&c);
    row_pf("nms 8400 boxes torchvision", 1, time_pf(run_nms, &c, rounds), "");
#ifdef PF_BENCH_OPENCV
    {
        c.nms.semantics = PF_NMS_OPENCV;
        c.nms.box_format = PF_BOX_XYWH;
        c.nms.score_threshold = 0.0f;
        c.smp.boxes = c.xywh;
        int64_t off[2];
        pf_nms(NULL, 1, &c.smp, &c.nms, off, c.keep, A, NULL);
        run_cv_nms(&c);
        int same = c.cv_count == off[1] && memcmp(c.keep, c.cv_keep, (size_t)off[1] * sizeof(int)) == 0;
        if (!same) rc = 1;
        bench_print_row("nms 8400 boxes vs cv NMSBoxes", 1, bench_compare(run_nms, &c, run_cv_nms, &c, rounds),
                        same ? "identical keep list" : "DIFFERENT");
        c.nms = pf_nms_opts_defaults();
        c.nms.iou_threshold = 0.7;
        c.smp.boxes = boxes;
    }
#endif
    /* YOLOv8 decode + per-class NMS */
    static const float confs[2] = {0.25f, 0.001f};
    for (int k = 0; k < 2; k++)
        for (int bt = 0; bt < 2; bt++) {
            c.yo = pf_yolo_opts_defaults();
            c.yo.conf_threshold = confs[k];
            c.pred = pred;
            c.batch = bt ? 8 : 1;
            c.dim1 = 4 + C;
            c.dim2 = A;
            for (int t = 1; t <= 2; t++) {
                c.stream = t == 1 ? NULL : s2;
                if (run_yolo(&c)) {
                    fprintf(stderr, "pixflow bench post: %s\n", pf_last_error());
                    rc = 1;
                }
                char label[64], note[64];
                snprintf(label, sizeof label, "yolov8 (%d,84,8400) conf %g", c.batch, (double)confs[k]);
                snprintf(note, sizeof note, "%lld detections", (long long)c.off[c.batch]);
                row_pf(label, t, time_pf(run_yolo, &c, rounds), note);
                if (c.batch == 1) break;
            }
        }
    c.stream = NULL;
    /* IoU matrix */
    c.a = boxes;
    c.b = boxes + 4 * 1000;
    c.n = c.m = 1000;
    c.out = malloc((size_t)1000 * 1000 * sizeof(float));
    for (int t = 1; t <= 2; t++) {
        c.stream = t == 1 ? NULL : s2;
        row_pf("box_iou 1000 x 1000", t, time_pf(run_iou, &c, rounds), "");
    }
    /* masks: argmax of 21 x 512 x 512 logits, composite of a 1080p frame */
    c.C = 21;
    c.H = c.W = 512;
    float *lg = malloc((size_t)21 * 512 * 512 * sizeof(float));
    c.masks = malloc((size_t)512 * 512);
    for (size_t i = 0; i < (size_t)21 * 512 * 512; i++) lg[i] = frand();
    c.logits = lg;
    for (int t = 1; t <= 2; t++) {
        c.stream = t == 1 ? NULL : s2;
        row_pf("argmax 21x512x512", t, time_pf(run_argmax, &c, rounds), "");
    }
    uint8_t *fg = malloc((size_t)1920 * 1080 * 3), *bg = malloc((size_t)1920 * 1080 * 3), *mk = malloc((size_t)1920 * 1080),
            *ds = malloc((size_t)1920 * 1080 * 3);
    for (size_t i = 0; i < (size_t)1920 * 1080 * 3; i++) fg[i] = (uint8_t)(frand() * 255), bg[i] = (uint8_t)(frand() * 255);
    for (size_t i = 0; i < (size_t)1920 * 1080; i++) mk[i] = (uint8_t)(frand() * 255);
    c.fg = pf_image_hwc(fg, 1920, 1080, 3, PF_U8, 0);
    c.bg = pf_image_hwc(bg, 1920, 1080, 3, PF_U8, 0);
    c.mk = pf_image_hwc(mk, 1920, 1080, 1, PF_U8, 0);
    c.dst = pf_image_hwc(ds, 1920, 1080, 3, PF_U8, 0);
    for (int t = 1; t <= 2; t++) {
        c.stream = t == 1 ? NULL : s2;
        row_pf("composite 1920x1080 rgb", t, time_pf(run_composite, &c, rounds), "");
    }
    c.stream = NULL;
    /* regions: a 640x640 text-detection-like binary map (bars) */
    uint8_t *bin = calloc((size_t)640 * 640, 1);
    int32_t *lab = malloc((size_t)640 * 640 * sizeof(int32_t));
    c.cv_labels = malloc((size_t)640 * 640 * sizeof(int32_t));
    c.stats = malloc(((size_t)1 << 20) * sizeof(pf_cc_stats));
    for (int line = 0; line < 30; line++) {
        int y0 = 10 + line * 20, h = 8 + (int)(frand() * 6);
        for (int x0 = 10; x0 < 600;) {
            int w = 20 + (int)(frand() * 120);
            for (int y = y0; y < y0 + h && y < 640; y++)
                for (int x = x0; x < x0 + w && x < 640; x++) bin[(size_t)y * 640 + x] = frand() < 0.97f ? 255 : 0;
            x0 += w + 8 + (int)(frand() * 20);
        }
    }
    c.bin = pf_image_hwc(bin, 640, 640, 1, PF_U8, 0);
    c.lab = pf_image_hwc(lab, 640, 640, 1, PF_S32, 0);
    pf_contours_create(&c.contours);
    run_contours(&c);
    run_cc(&c);
#ifdef PF_BENCH_OPENCV
    {
        run_cv_contours(&c);
        long pts = 0;
        for (int i = 0; i < pf_contours_count(c.contours); i++) {
            int32_t np;
            pf_contours_points(c.contours, i, &np);
            pts += np;
        }
        int n_cv = pfb_cv_find_contours(bin, 640, 640, 640, 1, &c.cv_points);
        int same = n_cv == pf_contours_count(c.contours) && c.cv_points == pts;
        if (!same) rc = 1;
        char note[96];
        snprintf(note, sizeof note, "%s (%d contours)", same ? "same counts" : "DIFFERENT", n_cv);
        bench_print_row("findContours 640x640 LIST", 1, bench_compare(run_contours, &c, run_cv_contours, &c, rounds),
                        note);
        run_cv_cc(&c);
        same = memcmp(lab, c.cv_labels, (size_t)640 * 640 * 4) == 0;
        if (!same) rc = 1;
        bench_print_row("components 640x640 8-conn", 1, bench_compare(run_cc, &c, run_cv_cc, &c, rounds),
                        same ? "identical labels" : "DIFFERENT");
    }
#else
    row_pf("findContours 640x640 LIST", 1, time_pf(run_contours, &c, rounds), "");
    row_pf("components 640x640 8-conn", 1, time_pf(run_cc, &c, rounds), "");
#endif
    pf_contours_destroy(c.contours);
    pf_stream_destroy(s2);
    free(pred);
    free(boxes);
    free(scores);
    free(c.xywh);
    free(c.keep);
    free(c.cv_keep);
    free(c.dets);
    free(c.out);
    free(lg);
    free(c.masks);
    free(fg);
    free(bg);
    free(mk);
    free(ds);
    free(bin);
    free(lab);
    free(c.cv_labels);
    free(c.stats);
    return rc;
}
