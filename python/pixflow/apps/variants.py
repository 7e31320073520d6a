"""Variants of a fetched ONNX detector, built once beside it in the model cache.

``build(path)`` makes, next to the fetched model (``<dir>/variants/<stem>/``):

* ``fp32.onnx``: the model with dynamic H/W input axes (the ``onnx`` package
  rewrites a fixed H/W input to named dims and drops the stale value_info);
  ``dynamic.json`` says whether the graph really runs at a second shape
  (ONNX Runtime at ``size x (size - 2 stride)``) and, if it does not, why.
  nudenet's 320n.onnx was exported with ``dynamic=True`` (its anchors come
  from Shape/Range, not constants), so it is dynamic as fetched.
* ``int8.onnx``: ``onnxruntime.quantization.quantize_static`` (QDQ, per
  channel s8 weights, 7-bit on x86 CPUs without VNNI (int8_reduce_range),
  u8 activations, MinMax) of every op but the head's
  decode, calibrated on scikit-image's sample photos from its wheel (the
  apps' sample images) letterboxed square and rect. The decode (DFL
  softmax, anchors, stride multiply) and the convs feeding it stay float:
  output0 holds boxes in pixels (0..320) next to scores (0..1) in one
  tensor, and one u8 scale over both would leave scores in 1.25-unit steps.
* ``fp16.onnx``: onnxconverter-common's float16 conversion with float32 I/O;
  the anchor subgraph (Cast / Range / ConstantOfShape / Expand) is kept
  float32, because the converter retypes a Cast's output but not its ``to``.
  ONNX Runtime's CPU provider has FP16 kernels for few ops; it inserts casts
  around the rest, so on CPU FP16 is slower than FP32 (docs/performance.md).

Then ``accuracy.json``: each variant against FP32 on a fixed frame set
(CONTRACT_IMAGES, square and 16:9 rect), and whether it is within BOUND.
Every file is written to a temporary name and renamed, and a stamp of the
inputs (model size/mtime, package versions, BUILD_VERSION) makes a stale
cache rebuild itself."""
import json
import os

import numpy as np

from .. import _pixflow as _P

PRECISIONS = ("fp32", "fp16", "int8")
BUILD_VERSION = 5
# the calibration / contract frames: scikit-image sample photos (its wheel, fetched like the models)
CALIB_IMAGES = ("astronaut", "chelsea", "coffee", "rocket", "motorcycle_left", "hubble_deep_field")
# (the one photo of a person among them, astronaut, also mirrored, halved and twice side by side: the
# detector's classes are faces and body parts, so without those the set would hold two boxes)
CONTRACT_IMAGES = ("astronaut", "astronaut@mirror", "astronaut@half", "astronaut@pair", "chelsea", "coffee",
                   "rocket", "motorcycle_right", "immunohistochemistry")
# the accuracy contract of a variant against FP32 (per frame set; see match()):
BOUND = {"min_mean_iou": 0.85, "max_score_delta": 0.15, "max_lost_gained_frac": 0.15}
SLACK = 0.1   # the other side is decoded at conf - SLACK, so a box sliding across the threshold is no loss


def _write_atomic(path, write):
    tmp = f"{path}.{os.getpid()}.part"
    write(tmp)
    os.replace(tmp, path)


def vdir(model_path):
    stem = os.path.splitext(os.path.basename(model_path))[0]
    return os.path.join(os.path.dirname(os.path.abspath(model_path)), "variants", stem)


def int8_reduce_range():
    """Whether the INT8 weights are quantized to 7 bits (quantize_static's reduce_range). ONNX Runtime's
    x86 INT8 convolution without VNNI multiplies u8 activations by s8 weights with vpmaddubsw, whose
    int16 pair sums saturate for 8-bit weights; on such a CPU (an AVX2-only AMD EPYC here) the full-range
    variant moved scores by up to 0.233 on the contract set (bound 0.15), 7-bit weights do not saturate.
    With VNNI (avx512_vnni / avx_vnni) or off x86 the full 8 bits are kept."""
    import platform

    if platform.machine().lower() not in ("x86_64", "amd64", "i386", "i686"):
        return False
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), [])
    except OSError:
        return True  # unknown x86: the 7-bit weights are safe on every x86 CPU
    return not ({"avx512_vnni", "avx_vnni"} & set(flags))


def _stamp(model_path):
    import onnx
    import onnxruntime

    st = os.stat(model_path)
    try:
        import onnxconverter_common as occ
        occ_v = occ.__version__
    except ImportError:
        occ_v = None
    return {"build": BUILD_VERSION, "size": st.st_size, "mtime": int(st.st_mtime), "onnx": onnx.__version__,
            "onnxruntime": onnxruntime.__version__, "onnxconverter_common": occ_v,
            "int8_reduce_range": int8_reduce_range()}


def input_dims(path):
    """The first input's dims: ints, or names (str) for dynamic axes."""
    import onnx

    m = onnx.load(path, load_external_data=False)
    return [d.dim_param or d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim]


def make_dynamic(src, dst, size, stride=32):
    """dst: src with named H/W input axes. Returns (ok, why): ok when ONNX Runtime runs dst at a
    second shape and its output follows; why says what failed otherwise."""
    import onnx
    import onnxruntime as ort

    m = onnx.load(src)
    dims = m.graph.input[0].type.tensor_type.shape.dim
    if len(dims) != 4:
        return False, f"input {m.graph.input[0].name} has {len(dims)} dims, not NCHW"
    changed = False
    for d, name in ((dims[0], "batch"), (dims[2], "height"), (dims[3], "width")):
        if not d.dim_param:
            d.dim_param = name     # setting the name clears dim_value (a oneof)
            changed = True
    if changed:
        # the inferred shapes of the fixed export would contradict the new axes
        del m.graph.value_info[:]
        for o in m.graph.output:
            for d in o.type.tensor_type.shape.dim:
                if d.dim_value:
                    d.dim_param = f"{o.name}_d"
    _write_atomic(dst, lambda t: onnx.save(m, t))
    so = ort.SessionOptions()
    so.log_severity_level = 3
    h2 = max(stride, size - 2 * stride)
    try:
        s = ort.InferenceSession(dst, so, providers=["CPUExecutionProvider"])
        outs = [s.run(None, {s.get_inputs()[0].name: np.zeros((1, 3, h, size), np.float32)})[0].shape
                for h in (size, h2)]
    except Exception as e:   # a Reshape to constants of the export shape, fixed anchors, ...
        return False, f"the graph does not run at {h2}x{size}: {str(e).strip().splitlines()[0][:240]}"
    if outs[0] == outs[1] and outs[0][-1] > 1:
        return False, (f"the output does not follow the input (both {list(outs[0])}): the anchors are constants "
                       "of the export shape")
    return True, "already dynamic as exported" if not changed else "H/W axes renamed; runs at a second shape"


def _calib_frames(size, stride, names):
    """Letterboxed (1, 3, H, W) float32 batches: each photo square and rect, plus a 16:9 canvas of it."""
    from . import imaging, models
    from .detect import letterbox_desc
    from ..transforms._transforms import rect_size

    out = []
    for n in names:
        base, _, how = n.partition("@")
        im = imaging.load_rgb(models.sample_image(base))
        if im.ndim == 2:
            im = np.repeat(im[..., None], 3, axis=2)
        im = _derive(np.ascontiguousarray(im[..., :3]), how)
        wide = widen(im)
        for pic, rect in ((im, False), (wide, True)):
            h, w = (size, size) if not rect else rect_size(pic.shape[1], pic.shape[0], size, stride)
            plan = _P.Plan(letterbox_desc(size, (h, w)))
            out.append((n, rect, pic, np.ascontiguousarray(np.asarray(plan.run([pic]))), plan))
    return out


def _derive(im, how):
    if how == "mirror":
        return np.ascontiguousarray(im[:, ::-1])
    if how == "half":   # every second pixel: a smaller face
        return np.ascontiguousarray(im[::2, ::2])
    if how == "pair":
        return np.ascontiguousarray(np.concatenate([im, im[:, ::-1]], axis=1))
    return im


def widen(im):
    """im on a (nearly) 16:9 grey (114) canvas of even sides (H.264 yuv420p), centred: a frame of a 16:9
    video with the photo in it."""
    h, w = im.shape[:2]
    W = max(w, (h * 16 + 8) // 9)
    W += W % 2
    H = max((W * 9 // 16) // 2 * 2, h + h % 2)
    c = np.full((H, W, 3), 114, np.uint8)
    y, x = (H - h) // 2, (W - w) // 2
    c[y:y + h, x:x + w] = im
    return c


def _int8(src, dst, size, stride):
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    import onnx

    frames = [f[3] for f in _calib_frames(size, stride, CALIB_IMAGES)]
    name = onnx.load(src, load_external_data=False).graph.input[0].name

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.it = iter(frames)

        def get_next(self):
            x = next(self.it, None)
            return None if x is None else {name: x}

    pre = dst + ".pre.onnx"
    # the symbolic shape pass cannot finish on the dynamic anchors; onnx's own inference is enough here
    quant_pre_process(src, pre, skip_symbolic_shape=True)
    m = onnx.load(pre)
    # float: the head's decode (everything of model.22 outside its cv2 / cv3 conv branches: DFL, anchors,
    # strides, the output concat) and the branches' last 1x1 convs (box distances and class logits), whose
    # outputs go straight into it; with those convs in INT8 scores moved by up to 0.153 on the contract set
    skip = [n.name for n in m.graph.node if _decode(n.name) or (n.op_type == "Conv" and _head_out(n.name))]
    rr = int8_reduce_range()
    try:
        _write_atomic(dst, lambda t: quantize_static(pre, t, Reader(), quant_format=QuantFormat.QDQ,
                                                     activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                                                     per_channel=True, reduce_range=rr, nodes_to_exclude=skip))
    finally:
        if os.path.exists(pre):
            os.remove(pre)
    return ("static QDQ (all but the head's decode and last convs), %s weights, calibrated on %d frames (%s, "
            "square + 16:9 rect)" % ("7-bit (no VNNI)" if rr else "8-bit", len(frames), ", ".join(CALIB_IMAGES)))


def _decode(name):
    return name.startswith("/model.22/") and not name.startswith(("/model.22/cv2", "/model.22/cv3"))


def _head_out(name):
    # ultralytics' Detect head: cv2.i.2 (box) and cv3.i.2 (class) are the last convs of each level
    parts = name.split("/")
    return len(parts) > 3 and parts[1] == "model.22" and parts[3].endswith(".2") and parts[2][:3] in ("cv2", "cv3")


def _fp16(src, dst):
    from onnxconverter_common import float16

    import onnx

    m = onnx.load(src)
    # by node name: the op_block_list form of the same list took minutes on this graph
    block = [n.name for n in m.graph.node if n.op_type in ("Cast", "Range", "ConstantOfShape", "Expand")]
    m16 = float16.convert_float_to_float16(m, keep_io_types=True, node_block_list=block)
    _write_atomic(dst, lambda t: onnx.save(m16, t))
    return "onnxconverter-common float16, float32 I/O, anchor subgraph float32"


def match(ref, cand, iou_min=0.5):
    """Greedy same-class matching by IoU (ref in score order). Returns (ious, score deltas, unmatched ref
    indices, matched cand indices)."""
    from .. import post

    ious, dscore, lost, used = [], [], [], set()
    for i in sorted(range(len(ref)), key=lambda k: -ref[k]["score"]):
        r = ref[i]
        best, bj = 0.0, -1
        for j, c in enumerate(cand):
            if j in used or c["class"] != r["class"]:
                continue
            v = float(post.box_iou(np.array([r["box"]], np.float32), np.array([c["box"]], np.float32))[0, 0])
            if v > best:
                best, bj = v, j
        if bj >= 0 and best >= iou_min:
            used.add(bj)
            ious.append(best)
            dscore.append(abs(cand[bj]["score"] - r["score"]))
        else:
            lost.append(i)
    return ious, dscore, lost, used


def compare(ref_dets, ref_low, cand_dets, cand_low):
    """The contract's numbers over a frame set: per frame the FP32 detections at conf (ref_dets) and
    conf - SLACK (ref_low), the variant's likewise. A box is lost when FP32 has it at conf and the variant
    has no match even at conf - SLACK; gained the other way round."""
    ious, ds, lost, gained, n = [], [], 0, 0, 0
    for r, rl, c, cl in zip(ref_dets, ref_low, cand_dets, cand_low):
        i, d, lo, _ = match(r, cl)
        ious += i
        ds += d
        lost += len(lo)
        gained += len(match(c, rl)[2])
        n += len(r)
    return {"frames": len(ref_dets), "fp32_boxes": n, "matched": len(ious),
            "mean_iou": float(np.mean(ious)) if ious else 0.0, "min_iou": float(np.min(ious)) if ious else 0.0,
            "max_score_delta": float(np.max(ds)) if ds else 0.0,
            "mean_score_delta": float(np.mean(ds)) if ds else 0.0, "lost": lost, "gained": gained}


def within(m, bound=BOUND):
    """(ok, why) of one variant's measured numbers against the bound."""
    bad = []
    if m["fp32_boxes"] and m["mean_iou"] < bound["min_mean_iou"]:
        bad.append(f"mean matched IoU {m['mean_iou']:.3f} < {bound['min_mean_iou']}")
    if m["max_score_delta"] > bound["max_score_delta"]:
        bad.append(f"score delta {m['max_score_delta']:.3f} > {bound['max_score_delta']}")
    frac = (m["lost"] + m["gained"]) / max(m["fp32_boxes"], 1)
    if frac > bound["max_lost_gained_frac"]:
        bad.append(f"{m['lost']} lost + {m['gained']} gained of {m['fp32_boxes']} boxes "
                   f"({frac:.0%} > {bound['max_lost_gained_frac']:.0%})")
    return not bad, "; ".join(bad) or "within the bound"


def _accuracy(paths, size, stride, conf=0.25, iou=0.7):
    from .detect import Detector

    frames = _calib_frames(size, stride, CONTRACT_IMAGES)
    dets = {}
    for p, path in paths.items():
        d = Detector(path, size=size, conf=conf, iou=iou)
        low = Detector(path, size=size, conf=conf - SLACK, iou=iou)
        hi_all, lo_all = [], []
        for _, _, pic, batch, plan in frames:
            (pred,) = d.runner(batch)
            _, infos = plan.run([pic], info=True)
            sz = [(pic.shape[1], pic.shape[0])]
            hi_all += d.post(pred, infos, sz)
            lo_all += low.post(pred, infos, sz)
        dets[p] = (hi_all, lo_all)
    out = {"frames": [f"{n} ({'16:9 rect' if r else 'square'})" for n, r, *_ in frames], "bound": BOUND,
           "slack": SLACK, "conf": conf, "variants": {}}
    for p in paths:
        m = compare(dets["fp32"][0], dets["fp32"][1], dets[p][0], dets[p][1])
        ok, why = within(m)
        out["variants"][p] = dict(m, ok=ok, why=why)
    return out


def build(model_path, size=320, stride=32):
    """Builds (once) and returns the variants' report: {"dir", "dynamic": {ok, why}, "variants": {precision:
    {"path", "how"} or {"error"}}, "accuracy": {...}}. Needs onnx (and onnxconverter-common for FP16: without
    it the FP16 variant is reported as not built, with the pip command)."""
    from . import deps

    deps.require("variants", ["onnx", "onnxruntime"])
    d = vdir(model_path)
    os.makedirs(d, exist_ok=True)
    rep_path = os.path.join(d, "variants.json")
    stamp = dict(_stamp(model_path), model_size=int(size), stride=int(stride))
    if os.path.isfile(rep_path):
        with open(rep_path) as f:
            rep = json.load(f)
        if rep.get("stamp") == stamp and all(os.path.isfile(v["path"]) for v in rep["variants"].values()
                                             if "path" in v):
            return rep
    fp32 = os.path.join(d, "fp32.onnx")
    ok, why = make_dynamic(model_path, fp32, size, stride)
    variants = {"fp32": {"path": fp32, "how": "the fetched model" + (", dynamic H/W" if ok else "")}}
    for prec, fn in (("int8", lambda dst: _int8(fp32, dst, size, stride)), ("fp16", lambda dst: _fp16(fp32, dst))):
        dst = os.path.join(d, f"{prec}.onnx")
        try:
            variants[prec] = {"path": dst, "how": fn(dst)}
        except ImportError as e:
            variants[prec] = {"error": f"not built: {e.name} is not installed "
                                       f"(pip install {deps.PACKAGES.get(e.name, e.name)})"}
        except Exception as e:  # noqa: BLE001  (reported per variant; the others stay usable)
            variants[prec] = {"error": f"not built: {type(e).__name__}: {str(e).strip()[:240]}"}
    acc = _accuracy({p: v["path"] for p, v in variants.items() if "path" in v}, size, stride)
    rep = {"dir": d, "stamp": stamp, "dynamic": {"ok": ok, "why": why}, "variants": variants, "accuracy": acc}
    def dump(t):
        with open(t, "w") as f:
            json.dump(rep, f, indent=1)

    _write_atomic(rep_path, dump)
    return rep


def usable(rep, precision):
    """(path, None) of a built variant within the contract, or (None, why not)."""
    v = rep["variants"].get(precision)
    if v is None:
        return None, f"precision {precision!r}; one of {list(PRECISIONS)}"
    if "path" not in v:
        return None, f"the {precision} variant was {v['error']}"
    a = rep["accuracy"]["variants"].get(precision)
    if precision != "fp32" and (a is None or not a["ok"]):
        return None, (f"the {precision} variant exceeds the accuracy bound against FP32 "
                      f"({a['why'] if a else 'not measured'}); refused")
    return v["path"], None
