/* Detector heads and masks: pf_yolo_decode (v5 / v8, best class and
 * multi-label) against the composition "candidates by the documented steps
 * -> reference NMS", at every ISA level and thread count; pf_anchor_decode
 * on a hand case; the composite blend formula over every input (the mask
 * row kernels at every level: tests/simd/test_simd_post.c); masks_to_boxes
 * on empty masks; masks_unmap's crop; drawing stays inside the image. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mask_math.h"
#include "post/nms_internal.h"
#include "simd/simd_harness.h"
#include "test_util.h"
#include "pixflow/post.h"

static float frand(uint64_t *r) { return (float)(pft_rand(r) >> 40) / (float)(1 << 24); }

/* ------------------------------------------------------------------ YOLO */

/* The documented steps, written plainly: candidates of one sample. */
static int steps_candidates(const pf_yolo_opts *o, const float *p, int A, int C, int M, float *boxes, float *scores,
                            int32_t *cls, int32_t *anchor) {
    int n = 0;
    for (int a = 0; a < A; a++) {
        float v[4], obj = 1, sc[64];
        int ok = 1;
        if (o->layout == PF_YOLO_V8) {
            for (int k = 0; k < 4; k++) v[k] = p[k * A + a];
            float mx = -INFINITY;
            int nan = 0;
            for (int c = 0; c < C; c++) {
                sc[c] = p[(4 + c) * A + a];
                if (sc[c] != sc[c]) nan = 1;
                if (sc[c] > mx) mx = sc[c];
            }
            ok = !nan && mx > o->conf_threshold;
        } else {
            const float *r = p + a * (5 + C + M);
            for (int k = 0; k < 4; k++) v[k] = r[k];
            obj = r[4];
            ok = obj > o->conf_threshold;
            for (int c = 0; c < C; c++) sc[c] = r[5 + c] * obj;
        }
        if (!ok) continue;
        float b[4] = {v[0] - v[2] / 2, v[1] - v[3] / 2, v[0] + v[2] / 2, v[1] + v[3] / 2};
        if (o->multi_label) {
            for (int c = 0; c < C; c++)
                if (sc[c] > o->conf_threshold) {
                    memcpy(boxes + 4 * n, b, sizeof b);
                    scores[n] = sc[c];
                    cls[n] = c;
                    anchor[n++] = a;
                }
        } else {
            int bi = 0, nan = sc[0] != sc[0];
            for (int c = 1; c < C; c++) {
                if (sc[c] != sc[c]) nan = 1;
                if (sc[c] > sc[bi]) bi = c;
            }
            if (!nan && sc[bi] > o->conf_threshold) {
                memcpy(boxes + 4 * n, b, sizeof b);
                scores[n] = sc[bi];
                cls[n] = bi;
                anchor[n++] = a;
            }
        }
    }
    return n;
}

static void yolo(void) {
    pf_isa levels[4];
    int nlev = simd_levels(levels, "post_heads");
    uint64_t r = 99;
    int cases = 0, dets_total = 0;
    for (int it = 0; it < 200; it++) {
        pf_yolo_opts o = pf_yolo_opts_defaults();
        o.layout = pft_rand(&r) % 2 ? PF_YOLO_V8 : PF_YOLO_V5;
        o.multi_label = pft_rand(&r) % 3 == 0;
        o.conf_threshold = pft_rand(&r) % 2 ? 0.25f : 0.001f;
        o.max_det = 1 + (int)(pft_rand(&r) % 100);
        if (pft_rand(&r) % 3 == 0) o.max_nms = 1 + (int)(pft_rand(&r) % 200);
        o.nms.classes = (pf_nms_classes)(pft_rand(&r) % 3);
        if (o.nms.classes == PF_NMS_CLASS_OFFSET) o.nms.class_offset = 7680.0f;
        int A = 1 + (int)(pft_rand(&r) % 300), C = 1 + (int)(pft_rand(&r) % 12), M = (int)(pft_rand(&r) % 3);
        o.num_masks = M;
        int batch = 1 + (int)(pft_rand(&r) % 3), ch = (o.layout == PF_YOLO_V8 ? 4 : 5) + C + M;
        float *pred = malloc((size_t)batch * A * ch * sizeof(float));
        for (int b = 0; b < batch; b++) {
            float *p = pred + (size_t)b * A * ch;
            for (int a = 0; a < A; a++) {
                float cx = frand(&r) * 600, cy = frand(&r) * 600, w = 10 + frand(&r) * 100, h = 10 + frand(&r) * 100;
                if (a > 0 && pft_rand(&r) % 2) { /* near the previous anchor: suppression */
                    int prev = a - 1;
                    cx = (o.layout == PF_YOLO_V8 ? p[prev] : p[prev * ch]) + frand(&r) * 8;
                }
                float v[4] = {cx, cy, w, h};
                for (int k = 0; k < ch; k++) {
                    float x = k < 4 ? v[k] : (float)(pft_rand(&r) % 8) / 8.0f * frand(&r);
                    if (k >= 4 && pft_rand(&r) % 500 == 0) x = NAN;
                    if (o.layout == PF_YOLO_V8) p[(size_t)k * A + a] = x;
                    else p[(size_t)a * ch + k] = x;
                }
            }
        }
        int64_t cap = (int64_t)batch * o.max_det, off_ref[4];
        pf_detection *ref = malloc((size_t)cap * sizeof *ref), *got = malloc((size_t)cap * sizeof *got);
        /* the composition */
        size_t cn = (size_t)A * C;
        float *cb = malloc(cn * 16), *cs = malloc(cn * 4);
        int32_t *cc = malloc(cn * 4), *ca = malloc(cn * 4), *keep = malloc(cn * 4);
        pf_nms_opts no = o.nms;
        no.pre_nms_top_k = o.max_nms;
        no.max_output = o.max_det;
        off_ref[0] = 0;
        for (int b = 0; b < batch; b++) {
            int n = steps_candidates(&o, pred + (size_t)b * A * ch, A, C, M, cb, cs, cc, ca);
            pf_nms_sample s = {cb, cs, cc, n};
            int64_t off[2];
            CHECK_STATUS(pfi_nms_reference(1, &s, &no, off, keep, n, NULL), PF_OK);
            for (int64_t q = 0; q < off[1]; q++) {
                pf_detection *d = &ref[off_ref[b] + q];
                int k = keep[q];
                d->x1 = cb[4 * k];
                d->y1 = cb[4 * k + 1];
                d->x2 = cb[4 * k + 2];
                d->y2 = cb[4 * k + 3];
                d->score = cs[k];
                d->class_id = cc[k];
                d->anchor = ca[k];
            }
            off_ref[b + 1] = off_ref[b] + off[1];
        }
        for (int l = -1; l < nlev; l++) {
            pf_cpu_set_cap(l < 0 ? PF_ISA_SCALAR : levels[l]);
            for (int th = 1; th <= 2; th++) {
                pf_stream *st = NULL;
                if (th == 2) pf_stream_create_cpu(2, &st);
                int64_t off[4];
                int d1 = o.layout == PF_YOLO_V8 ? ch : A, d2 = o.layout == PF_YOLO_V8 ? A : ch;
                memset(got, 0, (size_t)cap * sizeof *got);
                int ok = pf_yolo_decode(st, &o, pred, batch, d1, d2, off, got, cap) == PF_OK &&
                         memcmp(off, off_ref, (size_t)(batch + 1) * sizeof *off) == 0 &&
                         memcmp(got, ref, (size_t)off_ref[batch] * sizeof *got) == 0;
                if (!ok) fprintf(stderr, "yolo case %d level %d threads %d differs (%s)\n", it, l, th, pf_last_error());
                CHECK(ok);
                pf_stream_destroy(st);
            }
        }
        cases++;
        dets_total += (int)off_ref[batch];
        free(pred);
        free(ref);
        free(got);
        free(cb);
        free(cs);
        free(cc);
        free(ca);
        free(keep);
    }
    pf_cpu_set_cap(PF_ISA_NEON);
    printf("post_heads: %d YOLO batches (%d detections) = candidates + reference NMS at every level\n", cases,
           dets_total);
    /* shape errors */
    pf_yolo_opts o = pf_yolo_opts_defaults();
    float p[84 * 10] = {0};
    int64_t off[2];
    pf_detection d[300];
    CHECK_STATUS(pf_yolo_decode(NULL, &o, p, 1, 84, 10, off, d, 300), PF_OK);
    CHECK(off[1] == 0);
    o.num_classes = 81;
    CHECK_STATUS(pf_yolo_decode(NULL, &o, p, 1, 84, 10, off, d, 300), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("num_classes");
    o = pf_yolo_opts_defaults();
    CHECK_STATUS(pf_yolo_decode(NULL, &o, p, 1, 84, 10, off, d, 299), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("capacity");
}

static void anchors(void) {
    /* one anchor at (0.5, 0.5) 0.2 x 0.4, deltas (1, -1, 0, log 2) with scale (10, 10, 5, 5) */
    float an[8] = {0.5f, 0.5f, 0.2f, 0.4f, 0.1f, 0.1f, 0.1f, 0.1f};
    float dl[8] = {1, -1, 0, 5 * logf(2.0f), 0, 0, 0, 0};
    float sc[4] = {-3, 2, 0, -9}; /* 2 classes: logits */
    pf_anchor_opts o = pf_anchor_opts_defaults();
    o.anchors = an;
    o.scale[0] = o.scale[1] = 10;
    o.scale[2] = o.scale[3] = 5;
    int64_t off[2];
    pf_detection d[100];
    CHECK_STATUS(pf_anchor_decode(NULL, &o, dl, 4, sc, 2, 1, 2, off, d, 100), PF_OK);
    CHECK(off[1] == 1 && d[0].class_id == 1 && d[0].anchor == 0);
    float cx = 1.0f / 10 * 0.2f + 0.5f, w = expf(5 * logf(2.0f) / 5) * 0.4f;
    CHECK(d[0].x1 == cx - 0.2f / 2 && d[0].y2 == (-1.0f / 10 * 0.4f + 0.5f) + w / 2);
    CHECK(d[0].score == 1.0f / (1.0f + expf(-2.0f)));
    o.background_class = 1;
    CHECK_STATUS(pf_anchor_decode(NULL, &o, dl, 4, sc, 2, 1, 2, off, d, 100), PF_OK);
    CHECK(off[1] == 0);
    o.anchors = NULL;
    CHECK_STATUS(pf_anchor_decode(NULL, &o, dl, 4, sc, 2, 1, 2, off, d, 100), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("anchors");
}

/* ----------------------------------------------------------------- masks */

static void blend_formula(void) {
    /* the blend formula over all 2^24 inputs: range, endpoints, and how
     * often CV-CUDA's build would differ if nvcc fused its multiply-add */
    long fused_diff = 0;
    int ok = 1;
    for (int f = 0; f < 256; f++)
        for (int b = 0; b < 256; b++)
            for (int mm = 0; mm < 256; mm++) {
                uint8_t v = pfk_composite_u8((uint8_t)f, (uint8_t)b, (uint8_t)mm);
                if ((mm == 0 && v != b) || (mm == 255 && v != f)) ok = 0;
                float p = (float)((f - b) * mm);
                int fz = (int)(fmaf(p, PFK_INV_255, (float)b) + 0.5f);
                fused_diff += fz != v;
            }
    CHECK(ok);
    printf("post_heads: composite m=0 -> bg, m=255 -> fg; an FMA-contracted build differs in %ld of 16777216 inputs\n",
           fused_diff);
}

static void masks_public(void) {
    /* logits: 2 samples, 3 classes, 5x7 */
    int N = 2, C = 3, H = 5, W = 7;
    float lg[2 * 3 * 5 * 7];
    uint64_t r = 8;
    for (int i = 0; i < N * C * H * W; i++) lg[i] = frand(&r) - 0.5f;
    uint8_t am[2 * 5 * 7], th[2 * 3 * 5 * 7];
    pf_mask_opts mo = pf_mask_opts_defaults();
    pf_stream *s2;
    pf_stream_create_cpu(2, &s2);
    CHECK_STATUS(pf_masks_from_logits(s2, lg, N, C, H, W, am, &mo), PF_OK);
    int ok = 1;
    for (int s = 0; s < N; s++)
        for (int p = 0; p < H * W; p++) {
            int bi = 0;
            for (int c = 1; c < C; c++)
                if (lg[(s * C + c) * H * W + p] > lg[(s * C + bi) * H * W + p]) bi = c;
            if (am[s * H * W + p] != bi) ok = 0;
        }
    CHECK(ok);
    mo.mode = PF_MASK_THRESHOLD;
    mo.value = 7;
    CHECK_STATUS(pf_masks_from_logits(NULL, lg, N, C, H, W, th, &mo), PF_OK);
    ok = 1;
    for (int i = 0; i < N * C * H * W; i++) ok &= th[i] == (lg[i] > 0 ? 7 : 0);
    CHECK(ok);
    mo.mode = PF_MASK_ARGMAX;
    CHECK_STATUS(pf_masks_from_logits(NULL, lg, 1, 300, 1, 1, am, &mo), PF_ERR_INVALID_ARGUMENT);
    pf_stream_destroy(s2);

    /* masks_to_boxes: empty -> zeros, one pixel, a blob */
    uint8_t mk[3][6 * 4];
    memset(mk, 0, sizeof mk);
    mk[1][2 * 6 + 3] = 1;
    mk[2][0 * 6 + 5] = 9;
    mk[2][3 * 6 + 1] = 9;
    pf_image mi[3];
    for (int i = 0; i < 3; i++) mi[i] = pf_image_hwc(mk[i], 6, 4, 1, PF_U8, 0);
    float bx[12];
    CHECK_STATUS(pf_masks_to_boxes(3, mi, bx), PF_OK);
    CHECK(bx[0] == 0 && bx[1] == 0 && bx[2] == 0 && bx[3] == 0);
    CHECK(bx[4] == 3 && bx[5] == 2 && bx[6] == 3 && bx[7] == 2);
    CHECK(bx[8] == 1 && bx[9] == 0 && bx[10] == 5 && bx[11] == 3);

    /* masks_unmap: the letterbox rectangle of a 64x64 mask back onto 120x60 */
    pf_letterbox_info li = {64.0f / 120, 32.0f / 60, 0, 16, 0, 0};
    uint8_t big[64 * 64];
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) big[y * 64 + x] = (y >= 16 && y < 48) ? 255 : 3;
    uint8_t out[120 * 60];
    pf_image sm = pf_image_hwc(big, 64, 64, 1, PF_U8, 0), dm = pf_image_hwc(out, 120, 60, 1, PF_U8, 0);
    CHECK_STATUS(pf_masks_unmap(NULL, 1, &sm, &li, &dm, PF_INTERP_LINEAR), PF_OK);
    ok = 1;
    for (int i = 0; i < 120 * 60; i++) ok &= out[i] == 255;
    CHECK(ok);
    pf_letterbox_info bad = li;
    bad.offset_y = 40;
    CHECK_STATUS(pf_masks_unmap(NULL, 1, &sm, &bad, &dm, PF_INTERP_LINEAR), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("letterbox rectangle");

    /* proto masks: 2 detections, 3 prototypes 8x6, box crop */
    float protos[3 * 6 * 8], coef[6] = {1, -1, 0.5f, -2, 0.25f, 1};
    for (int i = 0; i < 3 * 48; i++) protos[i] = frand(&r) - 0.5f;
    float boxes[8] = {0, 0, 640, 640, 80, 80, 320, 240}; /* input 640: ratio 8/640 */
    uint8_t pm[2][48];
    float pl[2][48];
    pf_image mv[2] = {pf_image_hwc(pm[0], 8, 6, 1, PF_U8, 0), pf_image_hwc(pm[1], 8, 6, 1, PF_U8, 0)};
    pf_image lv[2] = {pf_image_hwc(pl[0], 8, 6, 1, PF_F32, 0), pf_image_hwc(pl[1], 8, 6, 1, PF_F32, 0)};
    pf_proto_opts po = pf_proto_opts_defaults();
    po.input_height = 480;
    CHECK_STATUS(pf_proto_masks(NULL, &po, 2, coef, 3, protos, 6, 8, boxes, mv, lv), PF_OK);
    ok = 1;
    for (int k = 0; k < 2; k++)
        for (int y = 0; y < 6; y++)
            for (int x = 0; x < 8; x++) {
                float s = coef[3 * k] * protos[y * 8 + x];
                s = s + coef[3 * k + 1] * protos[48 + y * 8 + x];
                s = s + coef[3 * k + 2] * protos[96 + y * 8 + x];
                float x1 = boxes[4 * k] * (8.0f / 640), x2 = boxes[4 * k + 2] * (8.0f / 640);
                float y1 = boxes[4 * k + 1] * (6.0f / 480), y2 = boxes[4 * k + 3] * (6.0f / 480);
                int in = (float)x >= x1 && (float)x < x2 && (float)y >= y1 && (float)y < y2;
                float v = in ? s : 0;
                ok &= pl[k][y * 8 + x] == v && pm[k][y * 8 + x] == (v > 0 ? 255 : 0);
            }
    CHECK(ok);
}

static void composite_public(void) {
    int w = 37, h = 5;
    uint8_t fg[37 * 5 * 3], bg[37 * 5 * 3], m[37 * 5], d4[37 * 5 * 4], inplace[37 * 5 * 3];
    uint64_t r = 3;
    for (int i = 0; i < w * h * 3; i++) fg[i] = (uint8_t)pft_rand(&r), bg[i] = (uint8_t)pft_rand(&r);
    for (int i = 0; i < w * h; i++) m[i] = (uint8_t)pft_rand(&r);
    pf_image F = pf_image_hwc(fg, w, h, 3, PF_U8, 0), B = pf_image_hwc(bg, w, h, 3, PF_U8, 0);
    pf_image M = pf_image_hwc(m, w, h, 1, PF_U8, 0), D4 = pf_image_hwc(d4, w, h, 4, PF_U8, 0);
    CHECK_STATUS(pf_composite(NULL, 1, &F, &B, &M, &D4), PF_OK);
    int ok = 1;
    for (int p = 0; p < w * h; p++) {
        for (int c = 0; c < 3; c++) ok &= d4[p * 4 + c] == pfk_composite_u8(fg[p * 3 + c], bg[p * 3 + c], m[p]);
        ok &= d4[p * 4 + 3] == 255;
    }
    CHECK(ok);
    memcpy(inplace, fg, sizeof inplace);
    pf_image I = pf_image_hwc(inplace, w, h, 3, PF_U8, 0);
    CHECK_STATUS(pf_composite(NULL, 1, &I, &B, &M, &I), PF_OK);
    ok = 1;
    for (int p = 0; p < w * h; p++)
        for (int c = 0; c < 3; c++) ok &= inplace[p * 3 + c] == d4[p * 4 + c];
    CHECK(ok);
    pf_image half = pf_image_hwc(fg + 3, w - 1, h, 3, PF_U8, w * 3);
    pf_image Bh = pf_image_hwc(bg, w - 1, h, 3, PF_U8, w * 3), Mh = pf_image_hwc(m, w - 1, h, 1, PF_U8, w);
    pf_image Fh = pf_image_hwc(fg, w - 1, h, 3, PF_U8, w * 3);
    CHECK_STATUS(pf_composite(NULL, 1, &Fh, &Bh, &Mh, &half), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("overlaps");

    /* draw: pixels change only inside box + tab, never outside the image */
    uint8_t img[64 * 48 * 3];
    memset(img, 0, sizeof img);
    pf_image im = pf_image_hwc(img, 64, 48, 3, PF_U8, 0);
    pf_detection det[2] = {{10.4f, 20.6f, 40, 40, 0.9f, 12, 0}, {-50, -50, 1000, 1000, 0.5f, 3, 1}};
    int64_t off[2] = {0, 1};
    pf_draw_opts dop = pf_draw_opts_defaults();
    CHECK_STATUS(pf_draw_detections(1, &im, off, det, &dop), PF_OK);
    int changed = 0, outside = 0;
    for (int y = 0; y < 48; y++)
        for (int x = 0; x < 64; x++)
            if (img[(y * 64 + x) * 3] || img[(y * 64 + x) * 3 + 1] || img[(y * 64 + x) * 3 + 2]) {
                changed++;
                if (x < 10 || x > 40 || y < 21 - 14 || y > 40) outside++;
            }
    CHECK(changed > 0 && outside == 0);
    off[1] = 2;
    CHECK_STATUS(pf_draw_detections(1, &im, off, det, &dop), PF_OK); /* clipped box */
}

int main(void) {
    yolo();
    anchors();
    blend_formula();
    masks_public();
    composite_public();
    return pft_summary("post_heads");
}
