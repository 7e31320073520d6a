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
from . import deps, imaging, models, stages
from .runners import OnnxRunner


def letterbox_desc(size):
    desc, _ = _P.recipe("yolo")
    desc = dict(desc)
    desc["out_width"] = desc["out_height"] = int(size)
    return desc


def _info_tuple(lb):
    return (lb["scale_x"], lb["scale_y"], lb["offset_x"], lb["offset_y"], lb["crop_x"], lb["crop_y"])


class Detector:
    """The model and its post-processing, shared by the app and the tests."""

    def __init__(self, model="yolov8n-nudenet", size=320, conf=0.25, iou=0.7, classes=None, threads=0):
        deps.require("detect")  # before the model fetch
        self.runner = OnnxRunner(models.fetch(model), threads=threads)
        self.size, self.conf, self.iou = int(size), float(conf), float(iou)
        self.desc = letterbox_desc(size)
        self.plan = _P.Plan(self.desc)
        self.classes = classes or (models.NUDENET_CLASSES if model == "yolov8n-nudenet" else None)

    def preprocess(self, images):
        """uint8 RGB HWC images -> (NCHW float32 batch, letterbox infos)."""
        return self.plan.run(list(images), info=True)

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
        (pred,) = self.runner(batch)
        return self.post(pred, infos, [(im.shape[1], im.shape[0]) for im in images])


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
    p.add_argument("--quiet", action="store_true")


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
    det = Detector(args.model, args.size, args.conf, args.iou, threads=args.threads)
    det.runner.check([args.batch, 3, args.size, args.size])
    rec = stages.Recorder(trace=bool(args.trace))
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
               "batches_in_flight": 8}
        video = _P.Video(videos, det.desc, cfg)

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
        with rec.span("inference", items=len(item["frames"]), args={"batch": len(item["frames"])}):
            item["pred"] = det.runner(item.pop("batch"))[0]
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
    if getattr(args, "video", None):
        if not videos:
            raise _P.InvalidArgument("detect: --video needs video inputs")
        writer = imaging.VideoWriter(args.video, args.size, args.size)
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
        rec.extra = {"frames dropped (realtime)": vs["frames_dropped"], "decode errors": vs["decode_errors"]}
        for i in range(len(videos)):
            e = video.stream_error(i)
            if e:
                rec.extra[f"stream {i} error"] = e
        video.close()
        if vs["frames_delivered"] == 0:
            errs = [video_err for video_err in rec.extra if "error" in video_err]
            raise _P.CorruptData(f"detect: no frame could be decoded from {videos} "
                                 f"({'; '.join(str(rec.extra[e]) for e in errs) or 'no frames'})")
    summary = finish(rec, args, "detect")
    return summary


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
