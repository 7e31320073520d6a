"""`python -m pixflow detect`: video files or image folders (1..16 streams) ->
letterbox (pixflow, fused with decode for video) -> YOLOv8 (ONNX Runtime) ->
pixflow.post.yolo_decode (decode + NMS) -> boxes in source coordinates ->
JSON lines + annotated PNG previews. Stage threads joined by bounded queues."""
import json
import os
import sys
import time

import numpy as np

from .. import _pixflow as _P
from .. import video as pixflow_video
from . import deps, imaging, models, stages
from .runners import OnnxRunner


def letterbox_desc(size, hw=None):
    """The yolo recipe (letterbox, pad 114, /255, NCHW f32) into size x size, or into hw = (h, w)
    (a rect letterbox's padded size)."""
    desc, _ = _P.recipe("yolo")
    desc = dict(desc)
    h, w = (int(size), int(size)) if hw is None else (int(hw[0]), int(hw[1]))
    desc["out_width"], desc["out_height"] = w, h
    return desc


def _info_tuple(lb):
    return (lb["scale_x"], lb["scale_y"], lb["offset_x"], lb["offset_y"], lb["crop_x"], lb["crop_y"])


# test-only hook: PIXFLOW_TEST_INFER_DELAY="MS:N" sleeps MS ms in each of the first N inference batches
# (the ladder test's injected load; never set in normal runs)
def _test_delay():
    v = os.environ.get("PIXFLOW_TEST_INFER_DELAY")
    if not v:
        return None
    ms, n = v.split(":")
    return float(ms) / 1000.0, int(n)


class Detector:
    """The model and its post-processing, shared by the app and the tests.

    auto=True: rect letterbox (ultralytics' rect inference, pixflow.transforms.Letterbox(auto=True)):
    each batch is letterboxed into the smallest stride multiple that holds its images at the square's
    scale, one fused plan per shape. It needs a model with dynamic H/W input axes: the known models
    are re-exported with them at fetch time (pixflow.apps.variants); a model file of fixed H/W is an
    error, or runs the square letterbox with allow_square=True (self.square_why says why).
    precision: fp32 / fp16 / int8, the variants built at fetch time (pixflow.apps.variants); a variant
    outside the accuracy contract is refused (pixflow.Unsupported naming the measured numbers)."""

    def __init__(self, model="yolov8n-nudenet", size=320, conf=0.25, iou=0.7, classes=None, threads=0,
                 auto=False, stride=32, allow_square=False, precision="fp32", build_variants=False):
        deps.require("detect")  # before the model fetch
        self.size, self.conf, self.iou = int(size), float(conf), float(iou)
        self.stride, self.threads = int(stride), threads
        if self.stride < 1:
            raise _P.InvalidArgument(f"detect: stride {stride}; it must be >= 1")
        path = models.fetch(model)
        self.report = None
        self.paths = {"fp32": path}
        if precision != "fp32" or build_variants or (auto and model in models.MODELS):
            from . import variants

            if precision not in variants.PRECISIONS:
                raise _P.InvalidArgument(f"detect: precision {precision!r}; one of {list(variants.PRECISIONS)}")
            self.report = variants.build(path, self.size, self.stride)
            for p in variants.PRECISIONS:
                vp, _ = variants.usable(self.report, p)
                if vp:
                    self.paths[p] = vp
            vp, why = variants.usable(self.report, precision)
            if vp is None:
                raise _P.Unsupported(f"detect: {why}")
        self.square_why = None
        if auto:
            dyn = self.report["dynamic"] if self.report else None
            dims = variants_input_dims(self.paths["fp32"])
            fixed = dyn is not None and not dyn["ok"] or (dyn is None and any(isinstance(d, int) and d > 0
                                                                                 for d in dims[2:]))
            if fixed:
                why = (dyn["why"] if dyn else f"its input is fixed at {dims}") + \
                      " (re-export it with dynamic H/W axes)"
                msg = f"detect: rect letterbox (auto=True) needs a model with dynamic H/W axes; {model}: {why}"
                if not allow_square:
                    raise _P.Unsupported(msg + "; allow_square=True / --allow-square runs the square letterbox")
                self.square_why, auto = why, False
        self.auto = bool(auto)
        self.precision = precision
        self.runners = {}
        self.runner = self.runner_for(precision)
        self.desc = letterbox_desc(size)
        self.plan = _P.Plan(self.desc)
        self._plans = {(self.size, self.size): self.plan}
        self.classes = classes or (models.NUDENET_CLASSES if model == "yolov8n-nudenet" else None)
        self._delay, self._batches = _test_delay(), 0

    def runner_for(self, precision):
        if precision not in self.runners:
            if precision not in self.paths:
                raise _P.Unsupported(f"detect: no usable {precision} variant of the model")
            self.runners[precision] = OnnxRunner(self.paths[precision], threads=self.threads)
        return self.runners[precision]

    def warm(self, precisions, shape, rounds=3):
        """Loads each variant's session and runs it once on zeros of shape (ONNX Runtime's first run at a
        shape allocates and plans: ~2-5x a steady batch), so that the ladder's switches do not stall; then
        times `rounds` more runs of each, interleaved, and returns {precision: fastest ms per frame}: the
        ladder's costs (which rungs buy speed on this provider, and its predicted steps). The fastest run,
        not the median: the first runs after a session's creation are still slow, and on a shared machine
        other jobs only ever add time, so the minimum is the closest to each rung's own cost."""
        import time

        z = np.zeros(shape, np.float32)
        for p in precisions:
            self.runner_for(p)(z)
        ms = {p: [] for p in precisions}
        for _ in range(int(rounds)):
            for p in precisions:
                t = time.perf_counter()
                self.runner_for(p)(z)
                ms[p].append((time.perf_counter() - t) * 1e3 / max(int(shape[0]), 1))
        return {p: float(min(v)) for p, v in ms.items()}

    def use(self, precision):
        """The runner of the next batches."""
        self.runner = self.runner_for(precision)
        self.precision = precision

    def shape_for(self, sizes):
        """(h, w) of the letterboxed batch of images of sizes [(w, h)]: the square, or the rect letterbox's
        smallest stride multiple holding every image at the square's scale."""
        if not self.auto:
            return (self.size, self.size)
        from ..transforms._transforms import rect_size

        hw = [rect_size(w, h, self.size, self.stride) for w, h in sizes]
        return (max(h for h, _ in hw), max(w for _, w in hw))

    def plan_for(self, hw):
        if hw not in self._plans:
            self._plans[hw] = _P.Plan(letterbox_desc(self.size, hw))
        return self._plans[hw]

    def preprocess(self, images):
        """uint8 RGB HWC images -> (NCHW float32 batch, letterbox infos)."""
        images = list(images)
        hw = self.shape_for([(im.shape[1], im.shape[0]) for im in images])
        return self.plan_for(hw).run(images, info=True)

    def infer(self, batch):
        """The current variant on one batch (and the test-only injected delay)."""
        if self._delay is not None and self._batches < self._delay[1]:
            import time

            time.sleep(self._delay[0])
        self._batches += 1
        return self.runner(batch)

    def post(self, pred, infos, sizes):
        """Raw (B, 4 + C, A) -> per sample list of dicts in source coordinates."""
        out = []
        for (boxes, scores, cls, _), lb, (w, h) in zip(_yolo(pred, self.conf, self.iou), infos, sizes):
            src = _unmap(boxes, lb, (w, h))
            out.append([{"class": int(c), "name": self.name(c), "score": round(float(s), 4),
                         "box": [round(float(v), 2) for v in b]} for b, s, c in zip(src, scores, cls)])
        return out

    def name(self, c):
        return self.classes[int(c)] if self.classes and 0 <= int(c) < len(self.classes) else str(int(c))

    def __call__(self, images):
        """Detections of uint8 RGB images, in source coordinates."""
        batch, infos = self.preprocess(images)
        (pred,) = self.infer(batch)
        return self.post(pred, infos, [(im.shape[1], im.shape[0]) for im in images])


def variants_input_dims(path):
    from . import variants

    deps.require("variants", ["onnx"])
    return variants.input_dims(path)


def _yolo(pred, conf, iou):
    from .. import post

    return post.yolo_decode(pred, conf_threshold=conf, iou_threshold=iou)


def _unmap(boxes, lb, size):
    from .. import post

    if len(boxes) == 0:
        return np.zeros((0, 4), np.float32)
    return post.unmap_boxes(boxes, _info_tuple(lb), size)


def to_tensor_coords(box, lb):
    """A source-pixel box back onto the letterboxed tensor (tensor = source * scale + offset)."""
    x0, y0, x1, y1 = box
    return [x0 * lb["scale_x"] + lb["offset_x"], y0 * lb["scale_y"] + lb["offset_y"],
            x1 * lb["scale_x"] + lb["offset_x"], y1 * lb["scale_y"] + lb["offset_y"]]


def tensor_to_u8(t):
    """One CHW float [0, 1] letterboxed tensor -> uint8 HWC (for previews of video frames)."""
    return np.ascontiguousarray((np.clip(np.asarray(t).transpose(1, 2, 0), 0, 1) * 255 + 0.5).astype(np.uint8))


def add_args(p):
    p.add_argument("inputs", nargs="+", help="video files/URLs or image files/folders; each one is a stream (1..16)")
    p.add_argument("--model", default="yolov8n-nudenet", help="a known model name or an .onnx YOLOv8 file")
    p.add_argument("--size", type=int, default=320, help="letterbox side (the model's input)")
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--conf", type=float, default=0.25)
    p.add_argument("--iou", type=float, default=0.7)
    p.add_argument("--realtime", action="store_true", help="video: keep only each stream's newest frame")
    p.add_argument("--max-frames", type=int, default=0, help="stop after this many frames (0: all)")
    p.add_argument("--threads", type=int, default=0, help="inference threads (0: onnxruntime's default)")
    p.add_argument("--decode-threads", type=int, default=0, help="FFmpeg threads per decoder (0: FFmpeg's choice, 1 per decoder with several streams)")
    p.add_argument("--out", default="detect_out", help="folder for detections.jsonl and preview PNGs")
    p.add_argument("--preview-every", type=int, default=0, help="a preview PNG every N frames per stream "
                   "(0: the first frame of each stream only)")
    p.add_argument("--video", help="also write stream 0's annotated (letterboxed) frames as an H.264 video "
                   "(needs the ffmpeg program)")
    p.add_argument("--trace", help="write Chrome trace events here")
    p.add_argument("--pin", action="store_true", help="pin each stage thread to its own core")
    p.add_argument("--metrics", metavar="[HOST:]PORT",
                   help="serve Prometheus metrics (video source per stream, stage table) while it runs; "
                        "loopback when HOST is left out, port 0 picks one (printed)")
    p.add_argument("--metrics-linger", type=float, default=0.0, metavar="S",
                   help="keep serving the final values S seconds after the run (a last scrape)")
    p.add_argument("--convert", choices=["fused", "swscale"], default="fused",
                   help="video YUV -> RGB: fused into the letterbox pass (default), or FFmpeg's libswscale "
                        "first as cv2.VideoCapture does (the usual app's exact pixels, so its exact boxes)")
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--rect", action="store_true", help="rect letterbox (ultralytics auto=True): pad only to the "
                   "next --stride multiple, not to the square (needs a model with dynamic H/W axes)")
    p.add_argument("--stride", type=int, default=32, help="--rect: the model's largest stride")
    p.add_argument("--allow-square", action="store_true", help="--rect with a fixed-shape model: run the square "
                   "letterbox instead of failing")
    p.add_argument("--precision", choices=["fp32", "fp16", "int8"], help="pin the model variant (built at fetch "
                   "time; one outside the accuracy contract is refused). Default fp32, or the ladder's choice")
    p.add_argument("--latency-budget", type=float, metavar="MS", help="per-frame inference budget: the ladder "
                   "moves between the usable variants on the p90 of the last --ladder-window batches")
    p.add_argument("--ladder-window", type=int, default=8, help="batches per ladder decision")
    p.add_argument("--ladder-min-gain", type=float, default=0.1, metavar="F",
                   help="the ladder drops a rung not at least F (0.1 = 10%%) faster per frame than the rung above "
                        "it, as timed at the start (e.g. FP16 on a CPU); a negative F keeps every rung")


def run(args):
    inputs = imaging.expand_inputs(args.inputs)
    videos = [p for p in inputs if imaging.is_video(p)]
    images = [p for p in inputs if not imaging.is_video(p)]
    if videos and images:
        raise _P.InvalidArgument("detect: give either videos or images, not both in one run")
    # a folder is one stream of images; every video is a stream
    n_streams = len(videos) if videos else len(args.inputs)
    if not 1 <= n_streams <= 16:
        raise _P.InvalidArgument(f"detect: {n_streams} streams; 1..16 are supported")
    budget = getattr(args, "latency_budget", None)
    if budget is not None and not budget > 0:
        raise _P.InvalidArgument(f"detect: --latency-budget {budget}: the budget must be > 0 ms")
    if budget is not None and args.precision:
        raise _P.InvalidArgument("detect: --precision pins the variant; --latency-budget moves it: give one")
    det = Detector(args.model, args.size, args.conf, args.iou, threads=args.threads, auto=args.rect,
                   stride=args.stride, allow_square=args.allow_square,
                   precision=args.precision or "fp32", build_variants=budget is not None)
    rec = stages.Recorder(trace=bool(args.trace))
    rec.extra = {}
    if det.square_why:
        print(f"detect: --rect: {det.square_why}; running the square letterbox (--allow-square)", file=sys.stderr)
        rec.extra["rect letterbox"] = f"off: {det.square_why}"
    lad = None
    if budget is not None:
        from . import variants
        from .ladder import Ladder

        rungs = [p for p in variants.PRECISIONS if p in det.paths]
        for p in variants.PRECISIONS:
            if p not in det.paths:
                rec.extra[f"ladder: {p}"] = variants.usable(det.report, p)[1]
        lad = Ladder(rungs, budget, window=args.ladder_window, min_gain=getattr(args, "ladder_min_gain", 0.1))
        for p in rungs:   # every session loaded up front (videos also run each once at their shape, below)
            det.runner_for(p)
        if not videos:    # images: the rungs' costs at the square input (videos: at their shape, below)
            _calibrate_ladder(lad, det, rec, (args.batch, 3, args.size, args.size))
        det.use(lad.rung)
    det.runner.check([args.batch, 3, args.size, args.size] if not det.auto else [args.batch, 3, "h", "w"])
    os.makedirs(args.out, exist_ok=True)
    jl = open(os.path.join(args.out, "detections.jsonl"), "w")
    prog = stages.Progress(not args.quiet)
    seen = {}
    limit = args.max_frames or None
    video = None

    if videos:
        if not hasattr(_P, "Video"):
            raise _P.Unsupported("detect: this pixflow was built without the FFmpeg video source (PIXFLOW_VIDEO=OFF)")
        # batches in flight: the queues between the stages (2 x depth 2) + one in each stage thread
        cfg = {"batch": args.batch, "realtime": bool(args.realtime), "decode_threads": args.decode_threads,
               "batches_in_flight": 8, "convert": pixflow_video.convert_code(getattr(args, "convert", "fused"))}
        desc = det.desc
        if det.auto:   # one tensor shape for every stream: the rect holding each stream's first frame
            hw = det.shape_for([_frame_size(v, det.desc) for v in videos])
            desc = letterbox_desc(args.size, hw)
            rec.extra["rect letterbox"] = f"{hw[0]}x{hw[1]} (square {args.size}x{args.size})"
        out_hw = (desc["out_height"], desc["out_width"])
        if lad is not None:   # every rung run at the batch shape (a switch does not stall), and timed
            _calibrate_ladder(lad, det, rec, (args.batch, 3) + out_hw)
            det.use(lad.rung)
        video = _P.Video(videos, desc, cfg)

        def source():
            n = 0
            while limit is None or n < limit:
                with rec.span("source-wait") as sp:
                    b = video.next()
                if b is None:
                    return
                imgs, frames = b.images, b.frames
                del b
                n += len(frames)
                # the C source's per-frame latency: capture -> decoded -> letterboxed -> in a batch
                rec.add_ms("decode+preprocess latency", [float(fr["latency_ms"]) for fr in frames])
                yield {"batch": imgs, "frames": frames, "t": sp.t}
    else:
        streams = []
        for si, p in enumerate(args.inputs):
            files = imaging.expand_inputs([p])
            streams.append([(si, f) for f in files])
        # round robin over the streams, one frame of each per turn (as the video mux)
        order = [st[k] for k in range(max(map(len, streams))) for st in streams if k < len(st)]
        if limit:
            order = order[:limit]

        def source():
            for i in range(0, len(order), args.batch):
                chunk = order[i:i + args.batch]
                pics, frames = [], []
                for si, f in chunk:
                    with rec.span("decode", args={"file": f}):
                        im = imaging.load_rgb(f)
                    pics.append(im)
                    frames.append({"stream": si, "frame_index": seen.setdefault(("src", si), 0), "pts": None,
                                   "width": im.shape[1], "height": im.shape[0], "file": f})
                    seen[("src", si)] += 1
                with rec.span("preprocess", items=len(pics)):
                    batch, infos = det.preprocess(pics)
                for fr, lb in zip(frames, infos):
                    fr["letterbox"] = lb
                yield {"batch": batch, "frames": frames, "pics": pics}

    def infer(item):
        n = len(item["frames"])
        shape = list(np.asarray(item["batch"]).shape[2:])
        prec = det.precision
        with rec.span("inference", items=n, args={"batch": n, "variant": prec, "shape": shape}) as sp:
            item["pred"] = det.infer(item.pop("batch"))[0]
        ms = (stages.now_us() - sp.t) / 1000.0 / max(n, 1)
        rec.add_ms(f"inference {prec}", [ms] * n)
        if lad is not None:
            nxt = lad.observe(ms)
            if nxt != prec:
                b, frm, to, why = lad.switches[-1]
                rec.instant("ladder switch", {"batch": b, "from": frm, "to": to, "why": why})
                det.use(nxt)
        return item

    def post(item):
        frames = item["frames"]
        previews = []
        with rec.span("post", items=len(frames)):
            sizes = [(int(fr["width"]), int(fr["height"])) for fr in frames]
            dets = det.post(item["pred"], [fr["letterbox"] for fr in frames], sizes)
            for k, (fr, d) in enumerate(zip(frames, dets)):
                rec_line = {"stream": int(fr["stream"]), "frame": int(fr["frame_index"]),
                            "pts": fr.get("pts_seconds"), "source": fr.get("file") or videos[int(fr["stream"])],
                            "size": list(sizes[k]), "detections": d}
                jl.write(json.dumps(rec_line) + "\n")
                s = int(fr["stream"])
                cnt = seen.get(s, 0)
                seen[s] = cnt + 1
                if cnt == 0 or (args.preview_every and cnt % args.preview_every == 0):
                    if "pics" in item:
                        canvas = item["pics"][k].copy()
                        boxes = [x["box"] for x in d]
                    else:   # video: draw on the letterboxed frame (tensor coordinates)
                        canvas = tensor_to_u8(item["pred_src"][k]) if k in item.get("pred_src", {}) else None
                        boxes = [to_tensor_coords(x["box"], fr["letterbox"]) for x in d]
                    if canvas is not None:
                        previews.append((canvas, boxes, [x["class"] for x in d],
                                         os.path.join(args.out, f"preview_s{s}_f{int(fr['frame_index'])}.png")))
                if writer is not None and s == 0 and k in item.get("pred_src", {}):
                    canvas = tensor_to_u8(item["pred_src"][k])
                    imaging.draw_boxes(canvas, [to_tensor_coords(x["box"], fr["letterbox"]) for x in d],
                                       [x["class"] for x in d])
                    writer.write(canvas)
                rec.done(s)
        if previews:
            with rec.span("preview-png", items=len(previews)):
                for canvas, boxes, cls, path in previews:
                    imaging.save_png(path, imaging.draw_boxes(canvas, boxes, cls))
        prog.step(len(frames))
        return None

    def infer_keep(item):
        # video previews need the letterboxed tensor after inference; keep the frames that get one
        if videos:
            want = []
            for k, fr in enumerate(item["frames"]):
                s, idx = int(fr["stream"]), int(fr["frame_index"])
                if idx == 0 or (args.preview_every and idx % args.preview_every == 0) or (writer and s == 0):
                    want.append(k)
            if want:
                arr = np.asarray(item["batch"])
                item["pred_src"] = {k: arr[k].copy() for k in want}
        return infer(item)

    writer = None
    out_hw = (args.size, args.size) if not videos else out_hw
    if getattr(args, "video", None):
        if not videos:
            raise _P.InvalidArgument("detect: --video needs video inputs")
        writer = imaging.VideoWriter(args.video, out_hw[1], out_hw[0])
    server = _serve_metrics(args, rec, video)
    try:
        stages.run_stages(source, [("inference", infer_keep), ("post", post)], rec, pin=args.pin)
    finally:
        prog.close()
        jl.close()
        if writer is not None:
            writer.close()
        if server is not None:
            if args.metrics_linger > 0:
                time.sleep(args.metrics_linger)
            server.close()   # before the video closes: no scrape sees a closed source
    if video is not None:
        vs = video.stats()
        n = max(vs["frames_delivered"], 1)
        rec.means["decode"] = vs["decode_ms"] / n
        rec.means["preprocess"] = vs["preprocess_ms"] / n
        rec.extra.update({"frames dropped (realtime)": vs["frames_dropped"], "decode errors": vs["decode_errors"]})
        for i in range(len(videos)):
            e = video.stream_error(i)
            if e:
                rec.extra[f"stream {i} error"] = e
        video.close()
        if vs["frames_delivered"] == 0:
            errs = [video_err for video_err in rec.extra if "error" in video_err]
            raise _P.CorruptData(f"detect: no frame could be decoded from {videos} "
                                 f"({'; '.join(str(rec.extra[e]) for e in errs) or 'no frames'})")
    if lad is not None:
        rec.extra["ladder"] = (f"budget {lad.budget:g} ms/frame, rungs {' > '.join(lad.rungs)}, window {lad.window}, "
                               f"{len(lad.switches)} switch(es), last rung {lad.rung}")
        for k, (b, frm, to, why) in enumerate(lad.switches):
            rec.extra[f"ladder switch {k + 1}"] = f"batch {b}: {frm} -> {to} ({why})"
    elif det.report is not None or det.auto:
        rec.extra["variant"] = det.precision
    summary = finish(rec, args, "detect")
    summary["switches"] = list(lad.switches) if lad is not None else []
    return summary


def _calibrate_ladder(lad, det, rec, shape):
    """Times every rung at shape (Detector.warm) and gives the costs to the ladder, which drops the
    rungs that buy no speed; the stage table names the costs and every dropped rung."""
    costs = det.warm(lad.rungs, shape)
    lad.calibrate(costs)
    rec.extra["ladder costs"] = ", ".join(f"{p} {c:.2f}" for p, c in costs.items()) + \
        f" ms/frame (warm-up at {'x'.join(map(str, shape[2:]))}, fastest of 3)"
    for p, why in lad.dropped.items():
        rec.extra[f"ladder: {p}"] = why


def _serve_metrics(args, rec, video):
    """--metrics: a prometheus_client server over the video source's C snapshot and the stage
    table (pixflow.metrics), or None."""
    if not args.metrics:
        return None
    from pixflow import metrics as M

    try:
        host, port = M.parse_address(args.metrics)
    except ValueError as e:
        raise _P.InvalidArgument(f"detect: {e}") from None
    sources = [lambda: M.app_text(rec, "detect")]
    if video is not None:
        sources.insert(0, video)
    try:
        server = M.serve(*sources, port=port, addr=host)
    except OSError as e:   # a port in use: the app's one-line error, naming the address
        raise _P.IOError(f"detect: --metrics {args.metrics}: {e.strerror or e}") from None
    print(f"metrics: {server.url}", file=sys.stderr, flush=True)
    return server


def _frame_size(path, desc):
    """(width, height) of a video's first frame (a one-frame decode)."""
    v = _P.Video([path], desc, {"batch": 1})
    try:
        b = v.next()
        if b is None:
            raise _P.CorruptData(f"detect: no frame could be decoded from {path}")
        fr = b.frames[0]
        return int(fr["width"]), int(fr["height"])
    finally:
        v.close()


def finish(rec, args, app):
    out = sys.stderr
    s = rec.summary() if args.quiet else rec.print_table(out, title=f"pixflow {app}")
    extra = getattr(rec, "extra", {})
    if not args.quiet:
        for k, v in extra.items():
            print(f"{k}: {v}", file=out)
    s["extra"] = extra
    if args.trace:
        rec.write_trace(args.trace)
        if not args.quiet:
            print(f"trace: {args.trace} ({len(rec.events)} events; open in https://ui.perfetto.dev)", file=out)
    return s
