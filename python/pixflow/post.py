"""pixflow.post: model outputs back into boxes and masks (include/pixflow/post.h).

torchvision.ops names and signatures where torchvision has the function
(``nms``, ``batched_nms``, ``box_iou``, ``generalized_box_iou``,
``distance_box_iou``, ``complete_box_iou``, ``box_convert``,
``clip_boxes_to_image``, ``remove_small_boxes``, ``masks_to_boxes``): they
take numpy arrays or torch CPU tensors and return the same kind, with
torchvision's results (see docs/exactness.md, "Post-processing", for the
bounds). cv2 names for the OpenCV ones (``nms_boxes`` = cv2.dnn.NMSBoxes,
``soft_nms_boxes``, ``find_contours``, ``min_area_rect``, ``box_points``,
``connected_components_with_stats``, ``fill_poly``), ``onnx_nms`` with the
ONNX NonMaxSuppression operator's inputs and output, and the batched,
pixflow-only ones: ``nms_batch`` (every option of pf_nms, many samples in
one call), ``yolo_decode``, ``anchor_decode``, ``masks_from_logits``,
``proto_masks``, ``unmap_boxes``, ``masks_unmap``, ``composite``, ``background_blur``,
``draw_detections``, ``box_score_fast`` and
``db_boxes`` (DBNet text boxes as PaddleOCR / RapidOCR compute them; needs
pyclipper and shapely for the unclip).

    import pixflow.post as post
    keep = post.nms(boxes, scores, 0.7)                      # torchvision.ops.nms
    dets = post.yolo_decode(pred, conf_threshold=0.25)       # (1, 84, 8400) -> per-sample detections
"""
import numpy as _np

from . import _pixflow as _P

# The post.h enums, as the extension exports them from the header (python/src/constants.c)
TORCHVISION, OPENCV, ONNX = _P.NMS_TORCHVISION, _P.NMS_OPENCV, _P.NMS_ONNX  # pf_nms_semantics
XYXY, XYWH, CXCYWH, YXYX = _P.BOX_XYXY, _P.BOX_XYWH, _P.BOX_CXCYWH, _P.BOX_YXYX  # pf_box_format
PER_CLASS, AGNOSTIC, CLASS_OFFSET = _P.NMS_PER_CLASS, _P.NMS_AGNOSTIC, _P.NMS_CLASS_OFFSET  # pf_nms_classes
SOFT_NONE, SOFT_LINEAR, SOFT_GAUSSIAN = _P.SOFT_NMS_NONE, _P.SOFT_NMS_LINEAR, _P.SOFT_NMS_GAUSSIAN  # pf_soft_nms
ORDER_SELECTION, ORDER_TORCH_SORT = _P.NMS_ORDER_SELECTION, _P.NMS_ORDER_TORCH_SORT  # pf_nms_order
RETR_EXTERNAL, RETR_LIST = _P.RETR_EXTERNAL, _P.RETR_LIST  # pf_contour_mode (cv2's values)

_FORMATS = {"xyxy": XYXY, "xywh": XYWH, "cxcywh": CXCYWH, "yxyx": YXYX}


def _is_torch(x):
    return type(x).__module__.split(".")[0] == "torch"


def _arr(x, dtype, name, shape_tail=None):
    # a contiguous array of the dtype the extension takes; an empty one of
    # any shape becomes (0, *shape_tail). The shape itself is checked in one
    # layer, the extension (python/src/post_*.c), whose messages name the
    # argument: here it would be a second copy of that check.
    if _is_torch(x):
        x = x.detach().cpu().numpy()
    a = _np.ascontiguousarray(x, dtype=dtype)
    if shape_tail is not None and a.size == 0 and (a.ndim != 1 + len(shape_tail) or tuple(a.shape[1:]) != shape_tail):
        return a.reshape((0,) + shape_tail)
    return a


def _like(a, ref):
    if _is_torch(ref):
        import torch

        return torch.from_numpy(a)
    return a


def _fmt(f):
    if isinstance(f, int):
        return f
    try:
        return _FORMATS[f]
    except KeyError:
        raise _P.InvalidArgument(f"box format {f!r}; one of {sorted(_FORMATS)}") from None


# --------------------------------------------------------------- NMS


def nms_batch(samples, iou_threshold=0.5, semantics=TORCHVISION, box_format=XYXY, classes=PER_CLASS,
              score_threshold=float("-inf"), pre_nms_top_k=0, max_output=0, max_output_per_class=0,
              class_offset=0.0, legacy_plus_one=False, eta=1.0, soft=SOFT_NONE, sigma=0.5, order=ORDER_SELECTION):
    """pf_nms of many samples in one call. samples: a list of (boxes (n, 4), scores (n,)[, classes (n,)]).
    Returns a list of (keep int64 indices, scores float32) per sample, in pf_nms's output order
    (order=ORDER_TORCH_SORT: torchvision batched_nms's per-class order, see pf_nms_order)."""
    prepared = []
    for s in samples:
        b = _arr(s[0], _np.float32, "boxes", (4,))
        sc = _arr(s[1], _np.float32, "scores").reshape(-1)
        c = None if len(s) < 3 or s[2] is None else _arr(s[2], _np.int32, "classes").reshape(-1)
        prepared.append((b, sc, c))
    off, keep, kept_scores = _P.post_nms(
        prepared, semantics=semantics, box_format=_fmt(box_format), classes=classes, iou_threshold=iou_threshold,
        score_threshold=score_threshold, pre_nms_top_k=pre_nms_top_k, max_output=max_output,
        max_output_per_class=max_output_per_class, class_offset=class_offset, legacy_plus_one=int(legacy_plus_one),
        eta=eta, soft=soft, sigma=sigma, order=order)
    return [(keep[off[i]:off[i + 1]].astype(_np.int64), kept_scores[off[i]:off[i + 1]]) for i in range(len(prepared))]


def _one(boxes, scores, class_ids=None, **kw):
    return nms_batch([(boxes, scores, class_ids)], **kw)[0]


def nms(boxes, scores, iou_threshold):
    """torchvision.ops.nms: indices (int64) of the kept xyxy boxes, by decreasing score."""
    return _like(_one(boxes, scores, iou_threshold=float(iou_threshold))[0], boxes)


def batched_nms(boxes, scores, idxs, iou_threshold):
    """torchvision.ops.batched_nms, including its choice: the coordinate-offset trick for at most 1000
    boxes (boxes.numel() <= 4000, the CPU rule; equal scores by index), exact per-class NMS above, in
    the order torchvision's final scores[keep].sort(descending=True) leaves equal scores (torch's
    unstable CPU sort: pf_nms_order PF_NMS_ORDER_TORCH_SORT)."""
    b = _arr(boxes, _np.float32, "boxes", (4,))
    small = b.size <= 4000
    return _like(_one(b, scores, _arr(idxs, _np.int64, "idxs").reshape(-1).astype(_np.int32),
                      iou_threshold=float(iou_threshold), classes=CLASS_OFFSET if small else PER_CLASS,
                      order=ORDER_SELECTION if small else ORDER_TORCH_SORT)[0], boxes)


def nms_boxes(bboxes, scores, score_threshold, nms_threshold, eta=1.0, top_k=0):
    """cv2.dnn.NMSBoxes on (x, y, w, h) boxes (Rect2d): int32 indices of the kept boxes."""
    keep, _ = _one(bboxes, scores, semantics=OPENCV, box_format=XYWH, classes=AGNOSTIC,
                   iou_threshold=float(nms_threshold), score_threshold=float(score_threshold), eta=float(eta),
                   pre_nms_top_k=int(top_k))
    return keep.astype(_np.int32)


def nms_boxes_batched(bboxes, scores, class_ids, score_threshold, nms_threshold, eta=1.0, top_k=0):
    """cv2.dnn.NMSBoxesBatched (OpenCV >= 4.7): the offset trick in double, max coordinate + 1."""
    keep, _ = _one(bboxes, scores, _arr(class_ids, _np.int32, "class_ids").reshape(-1), semantics=OPENCV,
                   box_format=XYWH, classes=CLASS_OFFSET, iou_threshold=float(nms_threshold),
                   score_threshold=float(score_threshold), eta=float(eta), pre_nms_top_k=int(top_k))
    return keep.astype(_np.int32)


def soft_nms_boxes(bboxes, scores, score_threshold, nms_threshold, top_k=0, sigma=0.5, method=SOFT_GAUSSIAN):
    """cv2.dnn.softNMSBoxes on (x, y, w, h) boxes: (updated_scores, indices)."""
    keep, sc = _one(bboxes, scores, semantics=OPENCV, box_format=XYWH, classes=AGNOSTIC,
                    iou_threshold=float(nms_threshold), score_threshold=float(score_threshold),
                    max_output=int(top_k), soft=int(method), sigma=float(sigma))
    return sc, keep.astype(_np.int32)


def onnx_nms(boxes, scores, max_output_boxes_per_class=0, iou_threshold=0.0, score_threshold=None,
             center_point_box=0):
    """The ONNX NonMaxSuppression operator as onnxruntime computes it: boxes (B, N, 4), scores
    (B, C, N); returns selected_indices int64 (K, 3) of (batch, class, box)."""
    b = _np.ascontiguousarray(boxes, _np.float32)
    s = _np.ascontiguousarray(scores, _np.float32)
    B, C, N = s.shape
    if int(max_output_boxes_per_class) <= 0:
        return _np.zeros((0, 3), _np.int64)
    samples = []
    for i in range(B):
        samples.append((_np.tile(b[i], (C, 1)), s[i].reshape(-1), _np.repeat(_np.arange(C, dtype=_np.int32), N)))
    res = nms_batch(samples, semantics=ONNX, box_format=CXCYWH if center_point_box else YXYX,
                    iou_threshold=float(iou_threshold),
                    score_threshold=float("-inf") if score_threshold is None else float(score_threshold),
                    max_output_per_class=int(max_output_boxes_per_class))
    rows = [_np.stack([_np.full(len(k), i, _np.int64), k // N, k % N], 1) for i, (k, _) in enumerate(res) if len(k)]
    return _np.concatenate(rows) if rows else _np.zeros((0, 3), _np.int64)


# ------------------------------------------------------------- boxes


def box_convert(boxes, in_fmt, out_fmt):
    """torchvision.ops.box_convert between 'xyxy', 'xywh' and 'cxcywh' (and 'yxyx')."""
    b = _arr(boxes, _np.float32, "boxes", (4,))
    return _like(_P.post_box_convert(b, _fmt(in_fmt), _fmt(out_fmt)), boxes)


def clip_boxes_to_image(boxes, size):
    """torchvision.ops.clip_boxes_to_image: size is (height, width)."""
    h, w = size
    return _like(_P.post_clip_boxes(_arr(boxes, _np.float32, "boxes", (4,)), int(w), int(h)), boxes)


def remove_small_boxes(boxes, min_size):
    """torchvision.ops.remove_small_boxes: int64 indices of boxes with both sides >= min_size."""
    idx, n = _P.post_remove_small_boxes(_arr(boxes, _np.float32, "boxes", (4,)), float(min_size))
    return _like(idx[:n].astype(_np.int64), boxes)


def _iou(kind, boxes1, boxes2, eps=1e-7):
    return _like(_P.post_box_iou(kind, _arr(boxes1, _np.float32, "boxes1", (4,)),
                                 _arr(boxes2, _np.float32, "boxes2", (4,)), float(eps)), boxes1)


def box_iou(boxes1, boxes2, fmt="xyxy"):
    """torchvision.ops.box_iou: the (N, M) IoU matrix of xyxy boxes. torchvision 0.29 also takes
    fmt 'xywh' / 'cxcywh' (its own arithmetic on those, not the xyxy one after a conversion) and
    rotated formats: those raise pixflow.Unsupported rather than differ."""
    if fmt != "xyxy":
        raise _P.Unsupported(f"box_iou: fmt {fmt!r}; pixflow computes torchvision's xyxy IoU only "
                             "(box_convert the boxes first for the xyxy arithmetic)")
    return _iou(_P.IOU, boxes1, boxes2)


def generalized_box_iou(boxes1, boxes2):
    """torchvision.ops.generalized_box_iou."""
    return _iou(_P.GIOU, boxes1, boxes2)


def distance_box_iou(boxes1, boxes2, eps=1e-7):
    """torchvision.ops.distance_box_iou."""
    return _iou(_P.DIOU, boxes1, boxes2, eps)


def complete_box_iou(boxes1, boxes2, eps=1e-7):
    """torchvision.ops.complete_box_iou (libm atan: within a few ulp of torch's, see docs)."""
    return _iou(_P.CIOU, boxes1, boxes2, eps)


def unmap_boxes(boxes, info, src_size, crop_size=None, flip_h=False, flip_v=False, fmt="xyxy", rounding="exact",
                clip=True, out_size=None):
    """pf_boxes_unmap of one sample's boxes (a new float32 array): info is the (scale_x, scale_y,
    offset_x, offset_y, crop_x, crop_y) of pf_letterbox_info, src_size and crop_size (width, height);
    rounding 'exact' or 'ultralytics' (scale_boxes; needs out_size, the tensor's (width, height))."""
    b = _arr(boxes, _np.float32, "boxes", (4,)).copy()
    cw, ch = crop_size if crop_size is not None else (0, 0)
    desc = (float(info[0]), float(info[1]), float(info[2]), float(info[3]), int(info[4]), int(info[5]),
            int(src_size[0]), int(src_size[1]), int(cw), int(ch), bool(flip_h), bool(flip_v))
    ow, oh = out_size if out_size is not None else (0, 0)
    modes = {"exact": _P.UNMAP_EXACT, "ultralytics": _P.UNMAP_ULTRALYTICS}
    if rounding not in modes:
        raise _P.InvalidArgument(f"rounding {rounding!r}; one of {sorted(modes)}")
    _P.post_boxes_unmap(b, [0, len(b)], _fmt(fmt), [desc], bool(clip), modes[rounding], int(ow), int(oh))
    return _like(b, boxes)


# ------------------------------------------------------------- heads


def _nms_kw(iou_threshold, semantics, classes, class_offset, max_output_per_class):
    return dict(iou_threshold=float(iou_threshold), semantics=semantics, classes=classes,
                class_offset=float(class_offset), max_output_per_class=int(max_output_per_class))


def _dets(res):
    off, boxes, scores, classes, anchors = res
    return [(boxes[off[i]:off[i + 1]], scores[off[i]:off[i + 1]], classes[off[i]:off[i + 1]],
             anchors[off[i]:off[i + 1]]) for i in range(len(off) - 1)]


def yolo_decode(pred, conf_threshold=0.25, iou_threshold=0.7, multi_label=False, agnostic=False, max_nms=30000,
                max_det=300, layout="v8", num_classes=0, num_masks=0, class_offset=None):
    """pf_yolo_decode: YOLOv8/11 (B, 4 + C + M, A) or YOLOv5 (B, A, 5 + C + M) outputs -> per sample
    (boxes xyxy, scores, classes, anchor indices). class_offset None: exact per-class NMS; 7680:
    ultralytics' offset trick (its exact keep lists)."""
    p = _np.ascontiguousarray(pred.detach().cpu().numpy() if _is_torch(pred) else pred, _np.float32)
    if p.ndim == 2:
        p = p[None]
    if agnostic:
        cls_mode, off = AGNOSTIC, 0.0
    elif class_offset is None:
        cls_mode, off = PER_CLASS, 0.0
    else:
        cls_mode, off = CLASS_OFFSET, float(class_offset)
    lay = {"v8": _P.YOLO_V8, "v5": _P.YOLO_V5}[layout]
    res = _P.post_yolo_decode(p, lay, int(num_classes), int(num_masks), float(conf_threshold), bool(multi_label),
                              int(max_nms), int(max_det), **_nms_kw(iou_threshold, TORCHVISION, cls_mode, off, 0))
    return _dets(res)


def anchor_decode(deltas, scores, anchors, scale=(1.0, 1.0, 1.0, 1.0), exp_wh=True, yx=False, sigmoid=True,
                  score_clip=0.0, delta_clip=0.0, background_class=-1, conf_threshold=0.5, multi_label=False,
                  max_det=100, iou_threshold=0.5, agnostic=False):
    """pf_anchor_decode: SSD / BlazeFace heads. deltas (B, A, k>=4), scores (B, A, C), anchors (A, 4)
    as (cx, cy, w, h); returns per sample (boxes, scores, classes, anchor indices)."""
    d = _np.ascontiguousarray(deltas, _np.float32)
    s = _np.ascontiguousarray(scores, _np.float32)
    if d.ndim == 2:
        d, s = d[None], s[None]
    a = _np.ascontiguousarray(anchors, _np.float32)
    act = _P.SCORE_SIGMOID if sigmoid else _P.SCORE_RAW
    res = _P.post_anchor_decode(d, s, a, tuple(float(v) for v in scale), bool(exp_wh), bool(yx), act, float(score_clip),
                                float(delta_clip), int(background_class), float(conf_threshold), bool(multi_label),
                                int(max_det),
                                **_nms_kw(iou_threshold, TORCHVISION, AGNOSTIC if agnostic else PER_CLASS, 0.0, 0))
    return _dets(res)


# ------------------------------------------------------------- masks


def masks_from_logits(logits, mode="argmax", threshold=0.0, value=255):
    """pf_masks_from_logits (Tensor2Mask): logits (N, C, H, W) -> uint8 (N, 1, H, W) class indices
    ('argmax') or (N, C, H, W) of value where logit > threshold ('threshold')."""
    lg = _np.ascontiguousarray(logits.detach().cpu().numpy() if _is_torch(logits) else logits, _np.float32)
    m = {"argmax": _P.MASK_ARGMAX, "threshold": _P.MASK_THRESHOLD}[mode]
    return _like(_P.post_masks_from_logits(lg, m, float(threshold), int(value)), logits)


def masks_to_boxes(masks):
    """torchvision.ops.masks_to_boxes; an empty mask gives (0, 0, 0, 0) (as torchvision 0.29)."""
    m = masks.detach().cpu().numpy() if _is_torch(masks) else _np.asarray(masks)
    if m.size == 0 and m.ndim == 3 and m.shape[0] == 0:
        return _like(_np.zeros((0, 4), _np.float32), masks)
    u8 = _np.ascontiguousarray(m != 0, dtype=_np.uint8)
    return _like(_P.post_masks_to_boxes(u8), masks)


def proto_masks(coeffs, protos, boxes, input_size=(640, 640), crop=True, value=255):
    """pf_proto_masks (YOLO-seg): coeffs (K, M), protos (M, H, W), boxes (K, 4) xyxy in the model input
    of input_size (width, height). Returns (masks uint8 (K, H, W), cropped logits float32)."""
    c = _np.ascontiguousarray(coeffs, _np.float32).reshape(-1, _np.shape(protos)[0])
    return _P.post_proto_masks(c, _np.ascontiguousarray(protos, _np.float32), _arr(boxes, _np.float32, "boxes", (4,)),
                               int(input_size[0]), int(input_size[1]), bool(crop), int(value))


def composite(fg, bg, mask, dst=None):
    """pf_composite: fg over bg by a uint8 mask (CV-CUDA Composite's rounding); dst may be fg."""
    fg = _np.asarray(fg)
    if dst is None:
        dst = _np.empty_like(fg)
    return _P.post_composite(fg, _np.asarray(bg), _np.asarray(mask), dst)


# pf_interp values the mask functions take
_INTERP = {"nearest": _P.INTERP_NEAREST, "linear": _P.INTERP_LINEAR, "cubic": _P.INTERP_CUBIC, "area": _P.INTERP_AREA,
           "lanczos4": _P.INTERP_LANCZOS4, "nearest-exact": _P.INTERP_NEAREST_EXACT}
_INFO_KEYS = ("scale_x", "scale_y", "offset_x", "offset_y", "crop_x", "crop_y")


def _info(info):
    """A pf_letterbox_info tuple from (scale_x, scale_y, offset_x, offset_y[, crop_x, crop_y]) or the
    dict Plan.run(info=True) gives."""
    if isinstance(info, dict):
        return tuple(float(info[k]) if k[0] != "c" else int(info.get(k, 0)) for k in _INFO_KEYS)
    t = tuple(info)
    if len(t) not in (4, 6):
        raise _P.InvalidArgument(f"info must be (scale_x, scale_y, offset_x, offset_y[, crop_x, crop_y]); got {t!r}")
    return tuple(float(v) for v in t[:4]) + tuple(int(v) for v in t[4:])


def _per_sample(v, n, one):
    """A list of n per-sample values: v is one value (one(v) true) or a list of n."""
    if one(v):
        return [v] * n
    v = list(v)
    if len(v) != n:
        raise _P.InvalidArgument(f"{len(v)} per-sample values for {n} samples")
    return v


def _interp(interp):
    if isinstance(interp, int):
        return interp
    try:
        return _INTERP[interp]
    except KeyError:
        raise _P.InvalidArgument(f"interp {interp!r}; one of {sorted(_INTERP)}") from None


def _is_info(v):
    return isinstance(v, dict) or (len(v) in (4, 6) and all(isinstance(x, (int, float, _np.number)) for x in v))


def _is_size(v):
    return len(v) == 2 and all(isinstance(x, (int, _np.integer)) for x in v)


def masks_unmap(masks, info, size, interp="linear", dst=None):
    """pf_masks_unmap: masks at tensor resolution (uint8 or float32 (H, W[, C]), or a list) back onto
    the source. Crops the letterbox rectangle (offset_x, offset_y, round(scale_x * width),
    round(scale_y * height)) of each mask and resizes it to size = (width, height), the crop in
    source pixels, with cv2.resize's arithmetic (interp 'nearest' for class masks, 'linear' for
    probabilities). info: the letterbox info (a dict from Plan.run(info=True) or a tuple), one for
    every mask or one per mask; size likewise."""
    batch = isinstance(masks, (list, tuple))
    ms = [_np.asarray(m) for m in masks] if batch else _np.asarray(masks)
    n = len(ms) if batch else 1
    infos = [_info(i) for i in _per_sample(info, n, _is_info)]
    sizes = [(int(w), int(h)) for w, h in _per_sample(size, n, _is_size)]
    return _P.post_masks_unmap(ms, infos, sizes, _interp(interp), dst)


def background_blur(frames, masks, info, ksize=31, sigma=0.0, sigma_y=0.0, border=_P.BORDER_REFLECT_101, dst=None):
    """pf_background_blur (the video-call recipe): each uint8 RGB (H, W, 3) frame over its own
    Gaussian blur, by its person mask. masks: uint8 probabilities (0..255) at tensor resolution,
    unmapped onto the frame as masks_unmap(mask, info, (W, H), 'linear') does; then
    cv2.GaussianBlur(frame, ksize, sigma, sigma_y, border) and composite(frame, blurred, mask).
    One frame or a list (then masks and info one per frame, or info one for all); dst may be the
    frames (in place)."""
    batch = isinstance(frames, (list, tuple))
    fs = [_np.asarray(f) for f in frames] if batch else _np.asarray(frames)
    n = len(fs) if batch else 1
    ms = [_np.asarray(m) for m in masks] if batch else _np.asarray(masks)
    infos = [_info(i) for i in _per_sample(info, n, _is_info)]
    kx, ky = (ksize, ksize) if isinstance(ksize, (int, _np.integer)) else ksize
    return _P.post_background_blur(fs, ms, infos, int(kx), int(ky), float(sigma), float(sigma_y), int(border), dst)


def draw_detections(image, boxes, classes=None, thickness=2, color=(0, 255, 0), palette=None, fill_alpha=0,
                    label=None):
    """pf_draw_detections onto a uint8 (H, W[, C]) image in place (returned): xyxy boxes rounded
    to the nearest pixel and clipped, outlines `thickness` pixels wide drawn inwards (a box is
    cv2.rectangle(img, (x1, y1), (x2, y2), color, 1) repeated inwards `thickness` times), an
    optional translucent fill (fill_alpha / 255) and, with label, the class id in a tab above
    the box. color (RGB[A]) is used unless palette colours by class id; palette and label
    default to True when classes are given (pf_draw_opts' defaults), False without."""
    img = image if isinstance(image, _np.ndarray) else _np.asarray(image)
    b = _arr(boxes, _np.float32, "boxes", (4,))
    c = _np.zeros(len(b), _np.int32) if classes is None else _arr(classes, _np.int32, "classes").reshape(-1)
    col = tuple(int(v) for v in color) + (255,) * (4 - len(tuple(color)))
    if palette is None:
        palette = classes is not None
    if label is None:
        label = classes is not None
    _P.post_draw_detections(img, b, c, int(thickness), col[:4], bool(palette), int(fill_alpha), bool(label))
    return image


# ----------------------------------------------------------- regions


def connected_components_with_stats(image, connectivity=8):
    """cv2.connectedComponentsWithStats(image != 0, connectivity, CV_32S): (n, labels, stats, centroids)."""
    u8 = _np.ascontiguousarray(_np.asarray(image) != 0, _np.uint8)
    return _P.post_connected_components(u8, int(connectivity))


def find_contours(image, mode=RETR_LIST):
    """cv2.findContours(image != 0, mode, CHAIN_APPROX_SIMPLE)[0]: a list of (k, 1, 2) int32 arrays
    (RETR_LIST or RETR_EXTERNAL; no hierarchy)."""
    u8 = _np.ascontiguousarray(_np.asarray(image) != 0, _np.uint8)
    return _P.post_find_contours(u8, int(mode))


def min_area_rect(points):
    """cv2.minAreaRect of integer points: ((cx, cy), (w, h), angle)."""
    return _P.post_min_area_rect(_np.ascontiguousarray(points, _np.int32).reshape(-1, 2))


def box_points(rect):
    """cv2.boxPoints: the 4 corners (4, 2) float32."""
    (cx, cy), (w, h), a = rect
    return _P.post_box_points(((float(cx), float(cy)), (float(w), float(h)), float(a)))


def fill_poly(image, points, value=1):
    """cv2.fillPoly(image, [points], value) on a uint8 (H, W) array, in place; returns image."""
    _P.post_fill_poly(image, _np.ascontiguousarray(points, _np.int32).reshape(-1, 2), int(value))
    return image


def box_score_fast(score_map, points):
    """PaddleOCR's box_score_fast: the mean of score_map over the polygon (float points)."""
    return _P.post_poly_mean_score(_np.ascontiguousarray(score_map, _np.float32),
                                   _np.ascontiguousarray(points, _np.float32).reshape(-1, 2))


def _mini_box(contour):
    rect = min_area_rect(contour)
    pts = sorted(list(box_points(rect)), key=lambda x: x[0])
    i1, i4 = (0, 1) if pts[1][1] > pts[0][1] else (1, 0)
    i2, i3 = (2, 3) if pts[3][1] > pts[2][1] else (3, 2)
    return _np.array([pts[i1], pts[i2], pts[i3], pts[i4]]), min(rect[1])


def db_boxes(pred, dest_size, thresh=0.3, box_thresh=0.7, unclip_ratio=1.6, max_candidates=1000, min_size=3):
    """DBNet text boxes from a (H, W) probability map, as PaddleOCR's / RapidOCR's DBPostProcess
    (score_mode 'fast'): threshold, contours (RETR_LIST), mini boxes, box score, unclip by polygon
    offsetting (pyclipper, shapely: not pixflow dependencies, imported here), mini boxes again,
    scaled to dest_size (width, height). Returns (int32 boxes (n, 4, 2), scores)."""
    from .apps import deps

    deps.require("db_boxes", ["pyclipper", "shapely"])
    import pyclipper
    from shapely.geometry import Polygon

    pred = _np.ascontiguousarray(pred, _np.float32)
    height, width = pred.shape
    dest_w, dest_h = dest_size
    contours = find_contours(pred > thresh, RETR_LIST)
    boxes, scores = [], []
    for contour in contours[:max_candidates]:
        points, sside = _mini_box(contour)
        if sside < min_size:
            continue
        score = box_score_fast(pred, points)
        if box_thresh > score:
            continue
        poly = Polygon(points)
        distance = poly.area * unclip_ratio / poly.length
        offset = pyclipper.PyclipperOffset()
        offset.AddPath(points, pyclipper.JT_ROUND, pyclipper.ET_CLOSEDPOLYGON)
        expanded = _np.array(offset.Execute(distance))
        if expanded.size == 0:
            continue
        box, sside = _mini_box(expanded.reshape(-1, 2))
        if sside < min_size + 2:
            continue
        box[:, 0] = _np.clip(_np.round(box[:, 0] / width * dest_w), 0, dest_w)
        box[:, 1] = _np.clip(_np.round(box[:, 1] / height * dest_h), 0, dest_h)
        boxes.append(box.astype(_np.int32))
        scores.append(score)
    return _np.array(boxes, dtype=_np.int32).reshape(-1, 4, 2), scores


__all__ = [n for n in dir() if not n.startswith("_")]
