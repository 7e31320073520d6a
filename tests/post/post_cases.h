/* Random NMS inputs shared by the post tests: clusters of jittered boxes
 * (so suppression happens), quantized scores (ties), NaN / inf scores,
 * zero-area, inverted, huge and integer boxes; random options. */
#ifndef PF_TESTS_POST_CASES_H
#define PF_TESTS_POST_CASES_H

#include <math.h>
#include <string.h>

#include "test_util.h"
#include "pixflow/post.h"

static inline float frand(uint64_t *r) { return (float)(pft_rand(r) >> 40) / (float)(1 << 24); }

/* Clusters of jittered boxes (so suppression happens), scores quantized
 * (ties), sometimes NaN / inf scores, degenerate and huge boxes. */
static inline void make_sample(uint64_t *r, int n, int nclass, pf_box_format fmt, float *boxes, float *scores,
                        int32_t *cls) {
    int clusters = 1 + (int)(pft_rand(r) % 12);
    float cx[12], cy[12], cw[12], ch[12];
    for (int k = 0; k < clusters; k++) {
        cx[k] = frand(r) * 600;
        cy[k] = frand(r) * 600;
        cw[k] = 4 + frand(r) * 120;
        ch[k] = 4 + frand(r) * 120;
    }
    for (int i = 0; i < n; i++) {
        int k = (int)(pft_rand(r) % (uint64_t)clusters);
        float x1 = cx[k] + (frand(r) - 0.5f) * cw[k] * 0.4f, y1 = cy[k] + (frand(r) - 0.5f) * ch[k] * 0.4f;
        float w = cw[k] * (0.7f + frand(r) * 0.6f), h = ch[k] * (0.7f + frand(r) * 0.6f);
        int odd = (int)(pft_rand(r) % 64);
        if (odd == 0) w = 0;                 /* zero area */
        if (odd == 1) { x1 = 1e30f; w = 1e30f; } /* huge */
        if (odd == 2) w = -w;                /* inverted */
        if (odd == 3) x1 = (float)(int)x1;  /* integer coordinates (exact ties in IoU) */
        float xyxy[4] = {x1, y1, x1 + w, y1 + h}, *o = boxes + 4 * i;
        switch (fmt) {
        case PF_BOX_XYWH: o[0] = x1; o[1] = y1; o[2] = w; o[3] = h; break;
        case PF_BOX_CXCYWH: o[0] = x1 + w / 2; o[1] = y1 + h / 2; o[2] = w; o[3] = h; break;
        case PF_BOX_YXYX: o[0] = y1; o[1] = x1; o[2] = y1 + h; o[3] = x1 + w; break;
        default: memcpy(o, xyxy, sizeof xyxy); break;
        }
        int q = (int)(pft_rand(r) % 3);
        scores[i] = q == 0 ? (float)(pft_rand(r) % 16) / 16.0f : frand(r);
        if (pft_rand(r) % 97 == 0) scores[i] = NAN;
        if (pft_rand(r) % 101 == 0) scores[i] = -INFINITY;
        cls[i] = (int32_t)(pft_rand(r) % (uint64_t)nclass);
    }
}

static inline pf_nms_opts random_opts(uint64_t *r) {
    pf_nms_opts o = pf_nms_opts_defaults();
    o.semantics = (pf_nms_semantics)(pft_rand(r) % 3);
    o.box_format = (pf_box_format)(pft_rand(r) % 4);
    o.classes = (pf_nms_classes)(pft_rand(r) % 3);
    if (o.semantics == PF_NMS_ONNX && o.classes == PF_NMS_CLASS_OFFSET) o.classes = PF_NMS_PER_CLASS;
    static const double thr[] = {0.0, 0.3, 0.45, 0.5, 0.7, 0.9, 1.0, 0.65};
    o.iou_threshold = thr[pft_rand(r) % 8];
    if (pft_rand(r) % 3 == 0) o.score_threshold = frand(r) * 0.5f;
    if (pft_rand(r) % 4 == 0) o.pre_nms_top_k = 1 + (int32_t)(pft_rand(r) % 50);
    if (pft_rand(r) % 4 == 0) o.max_output = 1 + (int32_t)(pft_rand(r) % 20);
    if (pft_rand(r) % 4 == 0) o.max_output_per_class = 1 + (int32_t)(pft_rand(r) % 5);
    if (o.classes == PF_NMS_CLASS_OFFSET && pft_rand(r) % 2) o.class_offset = 7680.0f;
    if (o.semantics == PF_NMS_TORCHVISION && pft_rand(r) % 5 == 0) o.legacy_plus_one = true;
    if (o.semantics == PF_NMS_OPENCV && pft_rand(r) % 4 == 0) o.eta = 0.9f;
    if (o.semantics != PF_NMS_ONNX && o.eta == 1.0f && pft_rand(r) % 6 == 0)
        o.soft = pft_rand(r) % 2 ? PF_SOFT_NMS_LINEAR : PF_SOFT_NMS_GAUSSIAN;
    return o;
}

#endif
