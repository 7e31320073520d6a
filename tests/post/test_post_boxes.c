/* Boxes: box_convert (round trips, in place), clip (NaN, -0), remove small,
 * the IoU matrices (NaN and degenerate boxes, thread counts, the
 * per-element functions; the row kernels at every ISA level are compared
 * with the reference in tests/simd/test_simd_post.c), and un-mapping (exact inverse of the
 * letterbox geometry incl. flips and crops; ultralytics' scale_boxes on
 * the 1920x1080 -> 640 case). torchvision itself is the oracle in
 * tests/python/test_post_boxes.py. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/box_math.h"
#include "test_util.h"
#include "pixflow/post.h"

static float frand(uint64_t *r) { return (float)(pft_rand(r) >> 40) / (float)(1 << 24); }

static void random_boxes(uint64_t *r, int n, float *b) {
    for (int i = 0; i < n; i++) {
        float x = frand(r) * 100 - 10, y = frand(r) * 100 - 10, w = frand(r) * 60, h = frand(r) * 60;
        int odd = (int)(pft_rand(r) % 40);
        if (odd == 0) w = 0;
        if (odd == 1) x = NAN;
        if (odd == 2) w = -w;
        if (odd == 3) { x = (float)(int)x; w = (float)(int)w; }
        if (odd == 4) h = INFINITY;
        b[4 * i] = x;
        b[4 * i + 1] = y;
        b[4 * i + 2] = x + w;
        b[4 * i + 3] = y + h;
    }
}

static int same_bits(const float *a, const float *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (isnan(a[i]) && isnan(b[i])) continue;
        if (memcmp(&a[i], &b[i], 4) != 0) return 0;
    }
    return 1;
}

static void convert_clip_small(void) {
    float b[8] = {1, 2, 5, 10, -3, 4, 1, 4}, o[8], back[8];
    CHECK_STATUS(pf_box_convert(2, b, PF_BOX_XYXY, o, PF_BOX_XYWH), PF_OK);
    CHECK(o[0] == 1 && o[1] == 2 && o[2] == 4 && o[3] == 8);
    CHECK_STATUS(pf_box_convert(2, b, PF_BOX_XYXY, o, PF_BOX_CXCYWH), PF_OK);
    CHECK(o[0] == 3 && o[1] == 6 && o[2] == 4 && o[3] == 8);
    CHECK_STATUS(pf_box_convert(2, o, PF_BOX_CXCYWH, back, PF_BOX_XYXY), PF_OK);
    CHECK(memcmp(back, b, sizeof b) == 0);
    CHECK_STATUS(pf_box_convert(2, b, PF_BOX_XYXY, o, PF_BOX_YXYX), PF_OK);
    CHECK(o[0] == 2 && o[1] == 1 && o[2] == 10 && o[3] == 5);
    memcpy(o, b, sizeof b); /* in place */
    CHECK_STATUS(pf_box_convert(2, o, PF_BOX_XYXY, o, PF_BOX_XYWH), PF_OK);
    CHECK(o[2] == 4 && o[6] == 4);
    CHECK_STATUS(pf_box_convert(2, b, PF_BOX_XYXY, b + 1, PF_BOX_XYWH), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("overlap");
    CHECK_STATUS(pf_box_convert(1, b, (pf_box_format)9, o, PF_BOX_XYWH), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("in_fmt");
    CHECK_STATUS(pf_box_convert(0, NULL, PF_BOX_XYXY, NULL, PF_BOX_XYWH), PF_OK);
    /* the torchvision pair xywh -> cxcywh goes through xyxy */
    float xywh[4] = {0.1f, 0.2f, 0.3f, 0.7f}, cx[4];
    CHECK_STATUS(pf_box_convert(1, xywh, PF_BOX_XYWH, cx, PF_BOX_CXCYWH), PF_OK);
    CHECK(cx[0] == (0.1f + (0.1f + 0.3f)) / 2 && cx[2] == (0.1f + 0.3f) - 0.1f);

    float c[12] = {-5, 3, 700, -0.0f, NAN, 2, 3, 900, 1, 1, 2, 2}, co[12];
    CHECK_STATUS(pf_clip_boxes(3, c, 640, 480, co), PF_OK);
    CHECK(co[0] == 0 && co[1] == 3 && co[2] == 640 && co[3] == 0 && signbit(co[3]));
    CHECK(isnan(co[4]) && co[7] == 480);
    CHECK_STATUS(pf_clip_boxes(1, c, -1, 5, co), PF_ERR_INVALID_ARGUMENT);

    float s[12] = {0, 0, 2, 2, 0, 0, 1, 5, 0, 0, NAN, 9};
    int32_t keep[3], kept = -1;
    CHECK_STATUS(pf_remove_small_boxes(3, s, 2.0f, keep, &kept), PF_OK);
    CHECK(kept == 1 && keep[0] == 0);
    CHECK_STATUS(pf_remove_small_boxes(3, s, 1.0f, keep, &kept), PF_OK);
    CHECK(kept == 2 && keep[1] == 1);
}

static void iou_matrix(void) {
    uint64_t r = 4242;
    /* the public matrix: every kind, 1 vs 2 threads vs the per-element functions */
    int n = 37, m = 53;
    float *a = malloc((size_t)n * 16), *b = malloc((size_t)m * 16);
    float *o1 = malloc((size_t)n * m * 4), *o2 = malloc((size_t)n * m * 4), *oe = malloc((size_t)n * m * 4);
    random_boxes(&r, n, a);
    random_boxes(&r, m, b);
    pf_stream *s2;
    CHECK_STATUS(pf_stream_create_cpu(2, &s2), PF_OK);
    for (int kind = 0; kind < 4; kind++) {
        CHECK_STATUS(pf_box_iou(NULL, (pf_iou_kind)kind, n, a, m, b, 1e-7f, o1), PF_OK);
        CHECK_STATUS(pf_box_iou(s2, (pf_iou_kind)kind, n, a, m, b, 1e-7f, o2), PF_OK);
        CHECK(memcmp(o1, o2, (size_t)n * m * 4) == 0);
        if (kind == PF_CIOU) continue;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) {
                pfk_iou_box x = pfk_iou_box_of(a + 4 * i), y = pfk_iou_box_of(b + 4 * j);
                float u, iou;
                oe[i * m + j] = kind == PF_IOU ? pfk_box_iou(&x, &y, &u)
                                : kind == PF_GIOU ? pfk_box_giou(&x, &y)
                                                  : pfk_box_diou(&x, &y, 1e-7f, &iou);
            }
        CHECK(same_bits(o1, oe, (size_t)n * m));
    }
    /* CIoU of identical boxes is 1 (v = 0) */
    float one[4] = {1, 2, 5, 9}, ci;
    CHECK_STATUS(pf_box_iou(NULL, PF_CIOU, 1, one, 1, one, 1e-7f, &ci), PF_OK);
    CHECK(ci == 1.0f);
    CHECK_STATUS(pf_box_iou(NULL, (pf_iou_kind)5, 1, one, 1, one, 0, &ci), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("kind");
    pf_stream_destroy(s2);
    free(a);
    free(b);
    free(o1);
    free(o2);
    free(oe);
}

static void unmap(void) {
    /* a 1920x1080 frame letterboxed into 640x640: r = 1/3, 640x360 at y 140 */
    pf_preprocess_desc d = pf_preprocess_desc_defaults();
    d.out_width = d.out_height = 640;
    d.letterbox = true;
    pf_preprocess_plan *plan;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_OK);
    uint8_t *frame = calloc(1920 * 1080 * 3, 1);
    float *t = malloc(3 * 640 * 640 * sizeof(float));
    pf_image img = pf_image_hwc(frame, 1920, 1080, 3, PF_U8, 0);
    pf_tensor ten = pf_tensor_nchw(t, 1, 3, 640, 640, PF_F32);
    pf_letterbox_info li;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 1, &img, NULL, &ten, &li), PF_OK);
    CHECK(li.offset_y == 140 && li.offset_x == 0);
    pf_unmap_desc ud = {li, 1920, 1080, 0, 0, false, false};
    float b[8] = {10, 150, 630, 490, -5, 100, 700, 600};
    int64_t off[2] = {0, 2};
    float ex[8];
    memcpy(ex, b, sizeof b);
    CHECK_STATUS(pf_boxes_unmap(1, off, ex, PF_BOX_XYXY, &ud, 1, NULL), PF_OK);
    CHECK(ex[0] == 30 && ex[1] == 30 && ex[2] == 1890 && ex[3] == 1050);
    CHECK(ex[4] == 0 && ex[5] == 0 && ex[6] == 1920 && ex[7] == 1080); /* clipped */
    /* ultralytics: gain 1/3 as float32, pad (0, 140), (x - pad) / gain */
    pf_unmap_opts uo = pf_unmap_opts_defaults();
    uo.rounding = PF_UNMAP_ULTRALYTICS;
    uo.out_width = uo.out_height = 640;
    float ul[8];
    memcpy(ul, b, sizeof b);
    CHECK_STATUS(pf_boxes_unmap(1, off, ul, PF_BOX_XYXY, &ud, 1, &uo), PF_OK);
    float g = (float)(1.0 / 3.0);
    CHECK(ul[0] == (10.0f - 0.0f) / g && ul[1] == (150.0f - 140.0f) / g && ul[3] == (490.0f - 140.0f) / g);
    CHECK_STATUS(pf_boxes_unmap(1, off, ul, PF_BOX_XYWH, &ud, 1, &uo), PF_ERR_UNSUPPORTED);
    /* flips: a box mapped forward through a flipped, cropped sample comes back */
    pf_aug_params p = pf_aug_params_identity();
    p.crop_x = 100;
    p.crop_y = 50;
    p.crop_w = 1001;
    p.crop_h = 701;
    p.flip_h = p.flip_v = true;
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 1, &img, &p, &ten, &li), PF_OK);
    double rw = rint((double)li.scale_x * 1001), rh = rint((double)li.scale_y * 701);
    float src[4] = {300, 200, 500, 420}; /* source pixels, inside the crop */
    double s0 = (double)src[0], s1 = (double)src[1], s2 = (double)src[2], s3 = (double)src[3];
    double ox = (double)li.offset_x, oy = (double)li.offset_y, sx = (double)li.scale_x, sy = (double)li.scale_y;
    float fw[4] = {(float)(ox + rw - (s2 - 100) * sx), (float)(oy + rh - (s3 - 50) * sy),
                   (float)(ox + rw - (s0 - 100) * sx), (float)(oy + rh - (s1 - 50) * sy)};
    pf_unmap_desc fd = {li, 1920, 1080, 1001, 701, true, true};
    int64_t off1[2] = {0, 1};
    CHECK_STATUS(pf_boxes_unmap(1, off1, fw, PF_BOX_XYXY, &fd, 1, NULL), PF_OK);
    for (int k = 0; k < 4; k++) CHECK(fabsf(fw[k] - src[k]) < 1e-3f);
    /* the same in xywh and cxcywh */
    float xywh[4] = {0, 0, 0, 0};
    CHECK_STATUS(pf_boxes_unmap(1, off1, xywh, PF_BOX_XYWH, &fd, 1, NULL), PF_OK);
    CHECK(xywh[2] == 0.0f);
    pf_unmap_desc bad = ud;
    bad.info.scale_x = 0;
    CHECK_STATUS(pf_boxes_unmap(1, off, ex, PF_BOX_XYXY, &bad, 1, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("desc[0].info");
    CHECK_STATUS(pf_boxes_unmap(1, off, ex, PF_BOX_YXYX, &ud, 1, NULL), PF_ERR_INVALID_ARGUMENT);
    pf_preprocess_plan_destroy(plan);
    free(frame);
    free(t);
}

int main(void) {
    convert_clip_small();
    iou_matrix();
    unmap();
    return pft_summary("post_boxes");
}
