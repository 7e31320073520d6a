"""`python -m pixflow ocr-det`: a page -> DBNet (PP-OCRv4 det, ONNX Runtime;
pixflow resizes to sides that are multiples of 32, swaps to BGR and
normalizes (x/255 - 0.5)/0.5 into NCHW in one pass) -> pixflow.post.db_boxes
(RapidOCR's DBPostProcess) -> text polygons drawn on the page."""
import json
import os

from .. import _pixflow as _P
from . import deps, imaging, models, stages
from .runners import OnnxRunner

PF_F32, PF_CHW = 6, 1


def det_size(w, h, limit_side_len=736):
    """RapidOCR 1.4.4's DetPreProcess (limit_type 'min'): the shorter side up to limit_side_len,
    then both sides rounded to multiples of 32."""
    ratio = 1.0
    if min(h, w) < limit_side_len:
        ratio = float(limit_side_len) / (h if h < w else w)
    rh, rw = int(h * ratio), int(w * ratio)
    return max(int(round(rw / 32) * 32), 32), max(int(round(rh / 32) * 32), 32)


class TextDetector:
    def __init__(self, model="dbnet-ppocrv4", limit_side_len=736, thresh=0.3, box_thresh=0.5, unclip_ratio=1.6,
                 threads=0):
        deps.require("ocr-det")  # before the model fetch (db_boxes needs pyclipper and shapely)
        self.runner = OnnxRunner(models.fetch(model), threads=threads)
        self.limit, self.thresh, self.box_thresh, self.unclip = limit_side_len, thresh, box_thresh, unclip_ratio
        self._plans = {}

    def plan(self, w, h):
        if (w, h) not in self._plans:
            desc, _ = _P.recipe("yolo")
            desc = dict(desc)
            desc.update(out_width=w, out_height=h, letterbox=False, swap_rb=True, scale=1.0 / 255,
                        mean=(0.5, 0.5, 0.5, 0.0), std=(0.5, 0.5, 0.5, 1.0), out_dtype=PF_F32, out_layout=PF_CHW,
                        antialias=False)
            self._plans[(w, h)] = _P.Plan(desc)
        return self._plans[(w, h)]

    def __call__(self, page, rec=None):
        """(polygons int32 (n, 4, 2) in page pixels, scores) of a uint8 RGB page."""
        from .. import post

        rec = rec or stages.Recorder()
        h, w = page.shape[:2]
        tw, th = det_size(w, h, self.limit)
        with rec.span("preprocess"):
            batch = self.plan(tw, th).run([page])
        with rec.span("inference"):
            (prob,) = self.runner(batch)
        with rec.span("post"):
            boxes, scores = post.db_boxes(prob[0, 0], (w, h), thresh=self.thresh, box_thresh=self.box_thresh,
                                          unclip_ratio=self.unclip)
        return boxes, scores


def add_args(p):
    p.add_argument("inputs", nargs="+", help="page images or folders")
    p.add_argument("--model", default="dbnet-ppocrv4")
    p.add_argument("--box-thresh", type=float, default=0.5,
                   help="minimum mean probability of a text box (RapidOCR's 0.5; 0.3 keeps faint lines)")
    p.add_argument("--limit-side-len", type=int, default=736, help="the shorter side is scaled up to this")
    p.add_argument("--out", default="ocr_out", help="folder for text_boxes.jsonl and the drawn pages")
    p.add_argument("--trace")
    p.add_argument("--pin", action="store_true")
    p.add_argument("--quiet", action="store_true")


def run(args):
    from .detect import finish

    inputs = imaging.expand_inputs(args.inputs)
    td = TextDetector(args.model, limit_side_len=args.limit_side_len, box_thresh=args.box_thresh)
    rec = stages.Recorder(trace=bool(args.trace))
    os.makedirs(args.out, exist_ok=True)
    jl = open(os.path.join(args.out, "text_boxes.jsonl"), "w")

    def source():
        for p in inputs:
            with rec.span("decode"):
                page = imaging.load_rgb(p)
            yield {"page": page, "path": p}

    def work(item):
        boxes, scores = td(item["page"], rec)
        jl.write(json.dumps({"source": item["path"], "lines": len(boxes),
                             "polygons": boxes.tolist(), "scores": [round(float(s), 4) for s in scores]}) + "\n")
        canvas = item["page"].copy()
        imaging.draw_polygons(canvas, boxes)
        imaging.save_png(os.path.join(args.out, os.path.splitext(os.path.basename(item["path"]))[0] + "_text.png"),
                         canvas)
        if not args.quiet:
            print(f"{item['path']}: {len(boxes)} text lines", flush=True)
        rec.done(0)

    try:
        stages.run_stages(source, [("ocr-det", work)], rec, pin=args.pin)
    finally:
        jl.close()
    return finish(rec, args, "ocr-det")
