/*
 * pixflow post-processing: what turns model outputs back into boxes and
 * masks on the source image.
 *
 *   boxes     format conversion, clipping, small-box removal, IoU matrices
 *             (IoU, GIoU, DIoU, CIoU), un-mapping through pf_letterbox_info
 *   NMS       greedy and soft, class-aware / agnostic / class-offset,
 *             batched over samples, with the exact semantics of
 *             torchvision, OpenCV dnn or ONNX (onnxruntime)
 *   heads     YOLOv5 / YOLOv8-11 output decoding and SSD-style anchor
 *             decoding, followed by NMS, in one call per batch
 *   masks     per-pixel argmax / threshold of logits, letterbox un-mapping,
 *             YOLO-seg prototype masks, masks_to_boxes, connected
 *             components, contours, minAreaRect, boxPoints, polygon fill
 *             and mean score (enough for DBNet text detection)
 *   images    alpha compositing by a u8 mask (CV-CUDA Composite's
 *             rounding), background blur, box drawing for previews
 *
 * Conventions (as everywhere in pixflow): every fallible call returns a
 * pf_status and pf_last_error() names the argument at fault; everything
 * is checked before anything is written; results never depend on the
 * thread count, the SIMD level or (where a GPU path exists) the device.
 * Boxes are float32, 4 per box, in a pf_box_format. Variable-length
 * per-sample results are CSR: offsets[count + 1] (int64) and the items of
 * sample i at [offsets[i], offsets[i + 1]). Indices inside a sample are
 * int32 (n < 2^31 per sample). Exactness per function: docs/exactness.md,
 * "Post-processing".
 *
 * Devices: pf_nms, pf_masks_from_logits and pf_composite also run on CUDA
 * device memory (where the arrays / views live decides; the results are
 * the CPU's bit for bit). Every other function reads host memory only: a
 * device stream is refused with PF_ERR_UNSUPPORTED, a device view with
 * PF_ERR_INVALID_ARGUMENT, each naming the function and the argument.
 */
#ifndef PIXFLOW_POST_H
#define PIXFLOW_POST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pixflow/augment.h"
#include "pixflow/core.h"
#include "pixflow/ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The post kernels' dispatch is listed with every other family's by
 * pf_dispatch_count / pf_dispatch_entry (core.h): slots "post.*". */

/* ================================================================ boxes */

typedef enum pf_box_format {
    PF_BOX_XYXY = 0,   /* x1, y1, x2, y2 (torchvision's default) */
    PF_BOX_XYWH = 1,   /* x, y, w, h (OpenCV Rect2d, COCO) */
    PF_BOX_CXCYWH = 2, /* cx, cy, w, h (YOLO heads, DETR) */
    PF_BOX_YXYX = 3    /* y1, x1, y2, x2 (ONNX / TensorFlow corner boxes) */
} pf_box_format;

/* torchvision.ops.box_convert's arithmetic in float32: xywh -> xyxy is
 * x2 = x + w; cxcywh -> xyxy is cx -/+ 0.5 * w; xyxy -> cxcywh is
 * (x1 + x2) / 2 and x2 - x1; pairs without xyxy go through xyxy (as
 * torchvision does); yxyx swaps. in == out (in place) is allowed; other
 * overlaps are refused. n == 0 is a no-op. */
PF_API pf_status pf_box_convert(int64_t n, const float *in, pf_box_format in_fmt, float *out,
                                pf_box_format out_fmt);

/* torchvision.ops.clip_boxes_to_image: xyxy boxes, x clamped to [0, width],
 * y to [0, height]; NaN stays NaN (torch.clamp). in == out allowed. */
PF_API pf_status pf_clip_boxes(int64_t n, const float *in, int32_t width, int32_t height, float *out);

/* torchvision.ops.remove_small_boxes: indices (ascending) of the xyxy boxes
 * with x2 - x1 >= min_size and y2 - y1 >= min_size (float32 compare).
 * keep must hold n entries; *kept receives the count. */
PF_API pf_status pf_remove_small_boxes(int32_t n, const float *boxes, float min_size, int32_t keep[],
                                       int32_t *kept);

typedef enum pf_iou_kind {
    PF_IOU = 0,  /* torchvision.ops.box_iou */
    PF_GIOU = 1, /* generalized_box_iou */
    PF_DIOU = 2, /* distance_box_iou (eps) */
    PF_CIOU = 3  /* complete_box_iou (eps) */
} pf_iou_kind;

/* out[i * m + j] = kind(a[i], b[j]) for xyxy boxes a[n] and b[m], with
 * torchvision's float32 operations in torchvision's order (max/min
 * propagate NaN like torch.max/min; 0/0 gives NaN like torch). IoU, GIoU
 * and DIoU are bit-identical to torchvision on the CPU; CIoU uses libm
 * atanf where torch uses its own vectorized atan, so it may differ in the
 * last bits (bound in docs/exactness.md). eps is used by DIoU/CIoU
 * (torchvision's default 1e-7). stream: rows of the matrix run in
 * parallel on it (NULL: the calling thread). */
PF_API pf_status pf_box_iou(pf_stream *stream, pf_iou_kind kind, int32_t n, const float *a, int32_t m,
                            const float *b, float eps, float *out);

/* ------------------------------------------------------ box un-mapping */

typedef enum pf_unmap_rounding {
    /* The exact inverse of pixflow's forward mapping:
     * src = (out - offset) / scale + crop, per axis, in double, rounded
     * once to float. */
    PF_UNMAP_EXACT = 0,
    /* ultralytics' scale_boxes(img1_shape=(out_height, out_width), boxes,
     * img0_shape=(src_height, src_width)) bit for bit: gain = min of the
     * two ratios (double, used as float32), pad = round(... - 0.1) per
     * axis (Python round), boxes -= pad and /= gain in float32, then
     * clip_boxes. One gain for both axes (ultralytics' choice): it differs
     * from the resize's per-axis ratio by up to half a pixel of the
     * resized image when round(src * gain) is not exact. XYXY only, no
     * crop, no flip. */
    PF_UNMAP_ULTRALYTICS = 1
} pf_unmap_rounding;

/* One sample's geometry. */
typedef struct pf_unmap_desc {
    pf_letterbox_info info;          /* from pf_preprocess_run / pf_decode_augment */
    int32_t src_width, src_height;   /* the source image: clip bounds (and ultralytics' img0_shape) */
    int32_t crop_width, crop_height; /* the crop the sample was made from; 0 = the whole source */
    bool flip_h, flip_v;             /* the sample was flipped (pf_aug_params.flip_h / flip_v):
                                        the flip is undone first, about the resized crop */
} pf_unmap_desc;

typedef struct pf_unmap_opts {
    pf_unmap_rounding rounding;    /* default PF_UNMAP_EXACT */
    bool clip;                     /* clamp to [0, src_width] x [0, src_height] (default true; XYXY only) */
    int32_t out_width, out_height; /* PF_UNMAP_ULTRALYTICS: the letterboxed tensor size (img1_shape) */
} pf_unmap_opts;

PF_API pf_unmap_opts pf_unmap_opts_defaults(void);

/* Maps the boxes of sample i (boxes[offsets[i] .. offsets[i+1]), in place)
 * from tensor pixels back to source pixels through desc[i] (ndesc == 1:
 * one geometry for all). fmt: XYXY, XYWH or CXCYWH. opts NULL: defaults. */
PF_API pf_status pf_boxes_unmap(int count, const int64_t offsets[], float *boxes, pf_box_format fmt,
                                const pf_unmap_desc desc[], int ndesc, const pf_unmap_opts *opts);

/* ================================================================== NMS */

/* Whose arithmetic, comparisons and tie rules NMS reproduces. All three
 * visit candidates by descending score, equal scores by ascending index,
 * and keep a candidate unless a kept box of the same group suppresses it.
 *  TORCHVISION: torchvision.ops.nms / batched_nms (the CPU kernel): IoU in
 *    float32 as inter / (area_i + area_j - inter) with std::max/min and
 *    widths max(0, x2 - x1); suppressed when (double)IoU > iou_threshold;
 *    NaN scores sort first (torch.sort). legacy_plus_one adds 1 to widths
 *    and heights (Detectron, mmcv offset=1).
 *  OPENCV: cv::dnn::NMSBoxes on Rect2d (x, y, w, h in double): overlap =
 *    1 - (float)(1 - inter / (area_a + area_b - inter)) with cv::Rect's
 *    intersection; kept while overlap <= (float)iou_threshold (so NaN
 *    overlaps suppress); eta shrinks the threshold after each keep while
 *    it is > 0.5; scores need score > (float)score_threshold; NaN scores
 *    are dropped.
 *  ONNX: NonMaxSuppression as onnxruntime's CPU kernel: corners sorted per
 *    axis, early outs on empty intersections and non-positive areas,
 *    suppressed when IoU > (float)iou_threshold (equal is kept);
 *    box_format YXYX (center_point_box = 0) or CXCYWH (= 1); the output
 *    of a sample is ordered by class, then selection order. NaN scores
 *    are dropped (onnxruntime's order for them is undefined). */
typedef enum pf_nms_semantics {
    PF_NMS_TORCHVISION = 0,
    PF_NMS_OPENCV = 1,
    PF_NMS_ONNX = 2
} pf_nms_semantics;

/* Which boxes may suppress each other. */
typedef enum pf_nms_classes {
    PF_NMS_PER_CLASS = 0, /* only boxes of the same class id; each IoU is exact */
    PF_NMS_AGNOSTIC = 1,  /* any two boxes */
    /* The coordinate-offset trick: every box is shifted by
     * class_id * class_offset (float32 for TORCHVISION: ultralytics'
     * max_wh = 7680, torchvision's batched_nms below 1000 boxes; double
     * for OPENCV: NMSBoxesBatched) and NMS runs class-agnostic on the
     * shifted boxes. class_offset 0 = torchvision's / OpenCV's automatic
     * offset (max coordinate + 1). Its IoUs carry the rounding of the
     * shifted coordinates, which is why PER_CLASS exists; use this mode
     * to reproduce those implementations bit for bit. Not with ONNX. */
    PF_NMS_CLASS_OFFSET = 2
} pf_nms_classes;

typedef enum pf_soft_nms {
    PF_SOFT_NMS_NONE = 0,
    PF_SOFT_NMS_LINEAR = 1,  /* score *= 1 - IoU when IoU > iou_threshold */
    PF_SOFT_NMS_GAUSSIAN = 2 /* score *= expf(-(IoU * IoU) / sigma) */
} pf_soft_nms;

/* The order of each sample's keep list. */
typedef enum pf_nms_order {
    /* Selection order: by descending score, equal scores by ascending
     * index (torchvision.ops.nms, batched_nms up to 1000 boxes, OpenCV). */
    PF_NMS_ORDER_SELECTION = 0,
    /* torchvision.ops.batched_nms above 1000 boxes on the CPU (its
     * per-class _batched_nms_vanilla): the kept boxes by ascending index,
     * then reordered as torch's CPU scores.sort(descending=True) does it.
     * That sort is not stable (std::sort: libstdc++'s introsort), so equal
     * scores come out in its order, not by index; pixflow runs the same
     * steps. The same set as SELECTION. TORCHVISION greedy NMS only, on
     * the CPU. */
    PF_NMS_ORDER_TORCH_SORT = 1
} pf_nms_order;

typedef struct pf_nms_opts {
    pf_nms_semantics semantics;   /* default PF_NMS_TORCHVISION */
    pf_box_format box_format;     /* of the input boxes; default PF_BOX_XYXY */
    pf_nms_classes classes;       /* default PF_NMS_PER_CLASS */
    double iou_threshold;         /* default 0.5; a double like torchvision's */
    float score_threshold;        /* candidates need score > score_threshold (soft-NMS:
                                     >=, as OpenCV); default -INFINITY: no filter */
    int32_t pre_nms_top_k;        /* keep only the k best candidates (after the score
                                     filter) per sample; 0 (default): all */
    int32_t max_output;           /* at most this many kept per sample; 0 (default): no cap */
    int32_t max_output_per_class; /* at most this many per class per sample (ONNX's
                                     max_output_boxes_per_class; 0 (default): no cap).
                                     A candidate of a full class is skipped and
                                     suppresses nothing */
    float class_offset;           /* PF_NMS_CLASS_OFFSET: 0 (default) = automatic */
    bool legacy_plus_one;         /* TORCHVISION only: w = x2 - x1 + 1 */
    float eta;                    /* OpenCV's adaptive threshold; 1 (default) = off */
    pf_soft_nms soft;             /* default PF_SOFT_NMS_NONE */
    float sigma;                  /* gaussian soft-NMS; default 0.5 */
    pf_nms_order order;           /* of the keep lists; default PF_NMS_ORDER_SELECTION */
} pf_nms_opts;

PF_API pf_nms_opts pf_nms_opts_defaults(void);

/* One sample's candidates. */
typedef struct pf_nms_sample {
    const float *boxes;     /* n x 4 in opts.box_format */
    const float *scores;    /* n */
    const int32_t *classes; /* n class ids (any int32), or NULL: all 0 */
    int32_t n;              /* >= 0 */
} pf_nms_sample;

/* Greedy (or soft) NMS of every sample. Kept indices (into the sample's
 * arrays) of sample i go to keep[offsets[i] .. offsets[i+1]), in selection
 * order (ONNX: class, then selection order; opts.order may reorder them). updated_scores (soft-NMS:
 * the decayed score of each kept box; else the score) may be NULL.
 * keep_capacity must be >= pf_nms_capacity(...) (the count if every
 * candidate were kept, capped by max_output). Samples run in parallel on
 * the stream; the keep lists do not depend on it. Boxes with NaN or
 * infinite coordinates follow the chosen semantics' arithmetic.
 * Where it runs follows the arrays' memory: all host (stream NULL or a
 * CPU stream) runs on the CPU; all CUDA device memory of one device
 * (boxes, scores, classes, offsets, keep, updated_scores; the samples
 * array itself stays on the host; stream NULL or a stream of that device)
 * runs on the GPU with the same keep lists bit for bit, asynchronously on
 * a given stream. Mixed memory fails naming the first array that
 * differs. On the GPU: no soft-NMS, no PF_NMS_ORDER_TORCH_SORT and no automatic class_offset (give
 * it), PF_ERR_UNSUPPORTED naming the option. The arrays are plain
 * pointers, so pixflow asks the CUDA runtime where each lives; it does
 * so only once a CUDA device was opened in this process (pf_device_open,
 * a CUDA stream): pass a CUDA stream for device memory allocated outside
 * pixflow (the same holds for pf_masks_from_logits). */
PF_API pf_status pf_nms(pf_stream *stream, int count, const pf_nms_sample samples[], const pf_nms_opts *opts,
                        int64_t offsets[], int32_t keep[], int64_t keep_capacity, float updated_scores[]);

/* The keep capacity pf_nms needs for these samples and options. */
PF_API pf_status pf_nms_capacity(int count, const pf_nms_sample samples[], const pf_nms_opts *opts,
                                 int64_t *capacity);

/* ======================================================= detector heads */

/* One detection: an xyxy box in the head's (tensor) pixels, its score, its
 * class and the index of the anchor / prediction row it came from (use it
 * to fetch mask coefficients or keypoints). */
typedef struct pf_detection {
    float x1, y1, x2, y2;
    float score;
    int32_t class_id;
    int32_t anchor;
} pf_detection;

typedef enum pf_yolo_layout {
    /* YOLOv5 / v7: [batch, anchors, 5 + C (+ M)]: cx, cy, w, h, objectness,
     * class scores (score = cls * obj), then M mask coefficients. */
    PF_YOLO_V5 = 0,
    /* YOLOv8 / v11: [batch, 4 + C (+ M), anchors]: cx, cy, w, h, class
     * scores, then M mask coefficients (channel-major). */
    PF_YOLO_V8 = 1
} pf_yolo_layout;

/* ultralytics' non_max_suppression steps: candidates need conf >
 * conf_threshold (v5: objectness first, then cls * obj; v8: the best class
 * score first); best class only (the first maximum) or every class above
 * the threshold (multi_label, rows then classes); the max_nms best by
 * score; NMS (nms.classes: PER_CLASS exact, or CLASS_OFFSET with
 * class_offset 7680 for ultralytics' exact keep lists, or AGNOSTIC); the
 * first max_det. Boxes cx, cy, w, h -> x1 = cx - w / 2 etc. in float32
 * (xywh2xyxy). Unlike ultralytics there is no time limit (the output
 * never depends on timing) and equal scores rank by candidate order. A
 * box with a NaN score in the deciding position is dropped. */
typedef struct pf_yolo_opts {
    pf_yolo_layout layout;  /* default PF_YOLO_V8 */
    int32_t num_classes;    /* C; 0 (default): all channels after the box (and v5's objectness) less num_masks */
    int32_t num_masks;      /* M trailing mask coefficients (YOLO-seg: 32); default 0 */
    float conf_threshold;   /* default 0.25 */
    bool multi_label;       /* default false */
    int32_t max_nms;        /* default 30000 */
    int32_t max_det;        /* default 300; must be >= 1 */
    pf_nms_opts nms;        /* default: TORCHVISION, PER_CLASS, iou 0.7 (score filter,
                               top-k and caps other than max_output_per_class unused) */
} pf_yolo_opts;

PF_API pf_yolo_opts pf_yolo_opts_defaults(void);

/* Decodes and suppresses a whole batch: pred is float32 [batch, dim1,
 * dim2] contiguous (v5: dim1 = anchors, dim2 = 5 + C + M; v8: dim1 =
 * 4 + C + M, dim2 = anchors). Detections of sample i go to
 * dets[offsets[i] .. offsets[i+1]) by descending score; capacity >=
 * batch * max_det. */
PF_API pf_status pf_yolo_decode(pf_stream *stream, const pf_yolo_opts *opts, const float *pred, int32_t batch,
                                int32_t dim1, int32_t dim2, int64_t offsets[], pf_detection dets[],
                                int64_t capacity);

typedef enum pf_score_activation {
    PF_SCORE_RAW = 0,    /* scores are probabilities already */
    PF_SCORE_SIGMOID = 1 /* 1 / (1 + expf(-x)) (after clipping to +-score_clip when > 0) */
} pf_score_activation;

/* SSD / BlazeFace-style heads: per anchor (cx, cy, w, h) and regression
 * row (dx, dy, dw, dh, ...):
 *   cx = dx / scale[0] * anchor_w + anchor_cx, cy likewise,
 *   w = exp_wh ? expf(dw / scale[2]) * anchor_w : dw / scale[2] * anchor_w
 * (the TF Object Detection API / MediaPipe / torchvision BoxCoder form:
 * scale = 1 / variance, e.g. 10, 10, 5, 5), then x1 = cx - w / 2 etc. */
typedef struct pf_anchor_opts {
    const float *anchors;        /* [anchors][4]: cx, cy, w, h (required) */
    float scale[4];              /* default 1, 1, 1, 1 */
    bool exp_wh;                 /* default true (SSD); false: BlazeFace */
    float delta_clip;            /* exp_wh: dw / scale, dh / scale clamped to at most this before
                                    expf (torchvision BoxCoder: log(1000 / 16)); 0 (default): none */
    bool yx;                     /* regression rows are (dy, dx, dh, dw) (TF SSD); default false */
    pf_score_activation activation; /* default PF_SCORE_SIGMOID */
    float score_clip;            /* MediaPipe's score_clipping_thresh; 0 (default): none */
    int32_t background_class;    /* a class index never reported (SSD softmax background); -1 (default): none */
    float conf_threshold;        /* score > conf_threshold; default 0.5 */
    bool multi_label;            /* every class above the threshold, else the best; default false */
    int32_t max_det;             /* default 100; >= 1 */
    pf_nms_opts nms;             /* default: TORCHVISION, PER_CLASS, iou 0.5 */
} pf_anchor_opts;

PF_API pf_anchor_opts pf_anchor_opts_defaults(void);

/* deltas: float32 [batch, anchors, delta_cols] (delta_cols >= 4; extra
 * columns, e.g. keypoints, are skipped), scores: float32 [batch, anchors,
 * classes]. Output as pf_yolo_decode (capacity >= batch * max_det). */
PF_API pf_status pf_anchor_decode(pf_stream *stream, const pf_anchor_opts *opts, const float *deltas,
                                  int32_t delta_cols, const float *scores, int32_t classes, int32_t batch,
                                  int32_t anchors, int64_t offsets[], pf_detection dets[], int64_t capacity);

/* ================================================================ masks */

typedef enum pf_mask_mode {
    PF_MASK_ARGMAX = 0,   /* out = index of the largest channel (the first on ties, NaN is largest
                             like torch.argmax); 1 output channel, C <= 256 */
    PF_MASK_THRESHOLD = 1 /* out[c] = logit[c] > threshold ? value : 0; C output channels */
} pf_mask_mode;

typedef struct pf_mask_opts {
    pf_mask_mode mode; /* default PF_MASK_ARGMAX */
    float threshold;   /* default 0 (a logit; 0.5 for probabilities) */
    uint8_t value;     /* THRESHOLD's foreground value; default 255 */
} pf_mask_opts;

PF_API pf_mask_opts pf_mask_opts_defaults(void);

/* Tensor2Mask: logits float32 [n, channels, height, width] contiguous
 * -> masks u8 [n, out_channels, height, width] contiguous, with
 * out_channels 1 (ARGMAX, channels <= 256) or channels (THRESHOLD). Rows
 * run in parallel on the stream. logits and masks may both be CUDA
 * device memory of one device (stream NULL or of that device): the same
 * bytes, computed on the GPU. */
PF_API pf_status pf_masks_from_logits(pf_stream *stream, const float *logits, int32_t n, int32_t channels,
                                      int32_t height, int32_t width, uint8_t *masks, const pf_mask_opts *opts);

/* Masks at tensor resolution back onto the source: crop the letterbox
 * rectangle (offset_x, offset_y, round(scale_x * dst.width), round(scale_y
 * * dst.height)) of src[i], then pf_resize it to dst[i] (the crop's size
 * in source pixels; view the whole source when there was no crop) with
 * interp (NEAREST for class masks, LINEAR for probabilities; pf_resize's
 * OpenCV-exact semantics, not torch's interpolate). u8 or f32, 1..4
 * channels, HWC. */
PF_API pf_status pf_masks_unmap(pf_stream *stream, int count, const pf_image src[], const pf_letterbox_info info[],
                                pf_image dst[], pf_interp interp);

/* torchvision.ops.masks_to_boxes: per u8 mask (1 channel), the xyxy box
 * (min x, min y, max x, max y) of its nonzero pixels, inclusive, as floats.
 * An empty mask gives (0, 0, 0, 0), as torchvision 0.29 (older versions
 * raised). */
PF_API pf_status pf_masks_to_boxes(int count, const pf_image masks[], float boxes[]);

typedef struct pf_proto_opts {
    int32_t input_width, input_height; /* the model input the boxes are in (640 x 640) */
    bool crop;                         /* zero outside the box (ultralytics crop_mask); default true */
    uint8_t value;                     /* u8 output where the logit > 0; default 255 */
} pf_proto_opts;

PF_API pf_proto_opts pf_proto_opts_defaults(void);

/* YOLO-seg masks at prototype resolution: for detection k, logit(y, x) =
 * sum over m of coeffs[k][m] * protos[m][y][x] (float32, m ascending,
 * multiply then add: no FMA), cropped to the detection's box scaled by
 * proto_w / input_width (ultralytics' crop_mask: x >= x1 && x < x2 ...),
 * then masks[k] = logit > 0 ? value : 0 (u8, 1 channel, proto size) and,
 * when logits is not NULL, the cropped logits (f32 views, 1 channel).
 * The sum's order is fixed, torch's GEMM order is not: pixels with
 * |logit| below ~1e-6 of the terms may differ from ultralytics. */
PF_API pf_status pf_proto_masks(pf_stream *stream, const pf_proto_opts *opts, int count, const float *coeffs,
                                int32_t num_masks, const float *protos, int32_t proto_h, int32_t proto_w,
                                const float *boxes, pf_image masks[], pf_image logits[]);

/* --------------------------------------------------------------- regions */

/* cv::connectedComponentsWithStats statistics of one label. */
typedef struct pf_cc_stats {
    int32_t left, top, width, height, area;
    double cx, cy; /* centroid: (sum of x) / area in double */
} pf_cc_stats;

/* cv::connectedComponentsWithStats(src != 0, connectivity, CV_32S) of a u8
 * 1-channel image: labels (s32, 1 channel, src's size) with 0 the
 * background and 1.. the components, numbered in OpenCV 4.x's order
 * (connectivity 8: by the first 2x2 block in raster order, as its block-
 * based algorithms do; 4: by first pixel), stats per label (label 0
 * included, with OpenCV's values when there is no background pixel).
 * *nlabels receives the count (components + 1); stats may be NULL or
 * hold stats_capacity entries: labels beyond it are counted, not
 * written. */
PF_API pf_status pf_connected_components(const pf_image *src, int connectivity, pf_image *labels,
                                         int32_t *nlabels, pf_cc_stats stats[], int32_t stats_capacity);

typedef enum pf_contour_mode {
    PF_RETR_EXTERNAL = 0, /* cv::RETR_EXTERNAL */
    PF_RETR_LIST = 1      /* cv::RETR_LIST */
} pf_contour_mode;

/* A reusable set of contours (grows, never shrinks, until destroyed). */
typedef struct pf_contours pf_contours;

PF_API pf_status pf_contours_create(pf_contours **out);
PF_API void pf_contours_destroy(pf_contours *contours);
PF_API int32_t pf_contours_count(const pf_contours *contours);
/* Points of contour i as x, y pairs (int32); NULL when i is out of range. */
PF_API const int32_t *pf_contours_points(const pf_contours *contours, int32_t i, int32_t *npoints);

/* cv::findContours(src != 0, mode, CHAIN_APPROX_SIMPLE) of a u8 1-channel
 * image: Suzuki-Abe border following, the same contours, starting points,
 * point order and contour order as OpenCV 4.6 (the last found first). */
PF_API pf_status pf_find_contours(const pf_image *src, pf_contour_mode mode, pf_contours *out);

typedef struct pf_rotated_rect {
    float cx, cy;        /* centre */
    float width, height;
    float angle;         /* degrees, OpenCV 4.6's convention */
} pf_rotated_rect;

/* cv::minAreaRect of integer points (x, y pairs): OpenCV's convex hull
 * (Sklansky) and rotating calipers in the same float arithmetic. */
PF_API pf_status pf_min_area_rect(const int32_t *points, int32_t n, pf_rotated_rect *out);
/* cv::boxPoints: the 4 corners (x, y pairs) in OpenCV's order. */
PF_API pf_status pf_box_points(const pf_rotated_rect *rect, float corners[8]);

/* cv::fillPoly(img, [pts], value) with lineType LINE_8 and shift 0 for one
 * integer polygon, on a u8 1-channel image (clipped to it). */
PF_API pf_status pf_fill_poly(pf_image *img, const int32_t *points, int32_t n, uint8_t value);

/* PaddleOCR's box_score_fast: the mean of the f32 1-channel `score` map
 * over the polygon (float points, floored/ceiled bounding box clipped to
 * the map, the polygon truncated to int32 and filled as pf_fill_poly),
 * as cv2.mean(score[roi], mask)[0] (double). */
PF_API pf_status pf_poly_mean_score(const pf_image *score, const float *points, int32_t n, double *mean);

/* ============================================================ compositing */

/* dst = fg over bg by mask, per channel, CV-CUDA Composite's arithmetic:
 * int((fg - bg) * m * (1.f / 255) + bg + 0.5f) in float32 (the int
 * product times the constant 0.00392156862f, then the adds, truncated),
 * without FMA contraction. fg, bg: u8 HWC with the same size and 1..4
 * channels; mask: u8 1 channel, same size; dst: u8 with fg's channels, or
 * 4 when fg has 3 (alpha 255, as CV-CUDA). dst may be fg or bg. Host
 * views run on the CPU; CUDA views (all four of every sample on one
 * device) on the GPU, with the same bytes. */
PF_API pf_status pf_composite(pf_stream *stream, int count, const pf_image fg[], const pf_image bg[],
                              const pf_image mask[], pf_image dst[]);

/* The background-blur recipe for video calls: masks at tensor resolution
 * (u8 person probability 0..255) -> pf_masks_unmap (LINEAR) onto each
 * frame -> pf_gaussian_blur of the frame (params) -> pf_composite(frame,
 * blurred, mask) into dst. frames u8 HWC 3 channels; dst may be frames. */
PF_API pf_status pf_background_blur(pf_stream *stream, int count, const pf_image frames[], const pf_image masks[],
                                    const pf_letterbox_info info[], const pf_gaussian_params *params,
                                    pf_image dst[]);

typedef struct pf_draw_opts {
    int32_t thickness;    /* pixels, inwards from the box edge; default 2 */
    uint8_t color[4];     /* used when palette is false; default 0, 255, 0, 255 */
    bool palette;         /* colour by class id from a fixed 20-colour palette; default true */
    uint8_t fill_alpha;   /* 0 (default): outline only; else the box interior is blended with
                             the colour at alpha / 255 */
    bool label;           /* draw the class id (digits) in a filled tab above the box; default true */
} pf_draw_opts;

PF_API pf_draw_opts pf_draw_opts_defaults(void);

/* Draws detections (tensor or source pixels, whatever the image is) onto
 * u8 HWC images of 1, 3 or 4 channels in place, for previews: image i gets
 * dets[offsets[i] .. offsets[i+1]). Boxes are rounded to the nearest pixel
 * and clipped to the image. */
PF_API pf_status pf_draw_detections(int count, pf_image images[], const int64_t offsets[],
                                    const pf_detection dets[], const pf_draw_opts *opts);

#ifdef __cplusplus
}
#endif

#endif /* PIXFLOW_POST_H */
