"""`python -m pixflow blur-background` (CV-CUDA's example): frames -> selfie
segmentation (LiteRT; pixflow writes the resized [0, 1] RGB tensor straight
into the interpreter's input) -> person mask resized back to the frame
(pixflow.cv.resize) -> blurred frame (pixflow.cv.GaussianBlur) ->
pixflow.post.composite(frame over blurred, by the mask) -> PNG frames."""
import os

import numpy as np

from .. import _pixflow as _P
from . import deps, imaging, models, stages
from .runners import LiteRTRunner

PF_U8, PF_F32, PF_HWC, PF_CHW = 0, 6, 0, 1


def seg_desc(w, h):
    desc, _ = _P.recipe("yolo")
    desc = dict(desc)
    desc.update(out_width=w, out_height=h, letterbox=False, out_layout=PF_HWC, out_dtype=PF_F32,
                scale=1.0 / 255, mean=(0.0, 0.0, 0.0, 0.0), std=(1.0, 1.0, 1.0, 1.0), swap_rb=False)
    return desc


def identity_desc(w, h):
    """Video frames as they are: uint8 RGB HWC at the source size."""
    desc, _ = _P.recipe("yolo")
    desc = dict(desc)
    desc.update(out_width=w, out_height=h, letterbox=False, out_layout=PF_HWC, out_dtype=PF_U8, scale=1.0,
                mean=(0.0, 0.0, 0.0, 0.0), std=(1.0, 1.0, 1.0, 1.0), swap_rb=False)
    return desc


class BackgroundBlur:
    def __init__(self, model="selfie-segmentation", ksize=31, sigma=0.0, threads=None):
        deps.require("blur-background")  # before the model fetch
        self.runner = LiteRTRunner(models.fetch(model), threads=threads)
        n, h, w, c = self.runner.input_shape
        if n != 1 or c != 3:
            raise _P.InvalidArgument(f"blur-background: the model input is {self.runner.input_shape}; "
                                     "a [1, H, W, 3] segmentation model is needed")
        self.plan = _P.Plan(seg_desc(w, h))
        self.ksize = int(ksize) | 1
        self.sigma = float(sigma)

    def mask(self, frame, rec=None):
        """uint8 (H, W) person mask at the frame's size (255 = person)."""
        rec = rec or stages.Recorder()
        with rec.span("preprocess"):
            buf = self.runner.input_buffer()
            self.plan.run([frame], out=buf)   # pixflow writes into the LiteRT input tensor
            del buf
        with rec.span("inference"):
            (prob,) = self.runner()
        from .. import cv

        with rec.span("post-mask"):
            m = (np.clip(prob[0, :, :, 0], 0.0, 1.0) * 255.0 + 0.5).astype(np.uint8)
            return cv.resize(m, (frame.shape[1], frame.shape[0]), interpolation=cv.INTER_LINEAR)

    def __call__(self, frame, rec=None):
        """(composited frame, mask) of a uint8 RGB (H, W, 3) frame."""
        from .. import cv, post

        rec = rec or stages.Recorder()
        m = self.mask(frame, rec)
        with rec.span("post"):
            blurred = cv.GaussianBlur(frame, (self.ksize, self.ksize), self.sigma)
            out = post.composite(frame, blurred, m)
        return out, m


def add_args(p):
    p.add_argument("inputs", nargs="+", help="image files/folders or one video")
    p.add_argument("--model", default="selfie-segmentation", help="a known model name or a .tflite file")
    p.add_argument("--ksize", type=int, default=31, help="Gaussian kernel side (odd)")
    p.add_argument("--max-frames", type=int, default=0)
    p.add_argument("--out", default="blur_out", help="folder for the output PNG frames")
    p.add_argument("--save-mask", action="store_true")
    p.add_argument("--trace")
    p.add_argument("--pin", action="store_true")
    p.add_argument("--quiet", action="store_true")


def run(args):
    from .detect import finish

    inputs = imaging.expand_inputs(args.inputs)
    bb = BackgroundBlur(args.model, args.ksize)
    rec = stages.Recorder(trace=bool(args.trace))
    os.makedirs(args.out, exist_ok=True)
    prog = stages.Progress(not args.quiet)
    limit = args.max_frames or None

    def source():
        n = 0
        for p in inputs:
            if imaging.is_video(p):
                if not hasattr(_P, "Video"):
                    raise _P.Unsupported("blur-background: this pixflow was built without the FFmpeg video source")
                # learn the size from the first frame, then read frames as they are (u8 RGB)
                probe = _P.Video([p], identity_desc(64, 64), {"batch": 1})
                b = probe.next()
                if b is None:
                    raise _P.CorruptData(f"blur-background: {p!r} has no decodable frame "
                                         f"({probe.stream_error(0) or 'empty'})")
                w, h = b.frames[0]["width"], b.frames[0]["height"]
                del b
                probe.close()
                v = _P.Video([p], identity_desc(int(w), int(h)), {"batch": 1, "batches_in_flight": 8})
                while limit is None or n < limit:
                    with rec.span("decode"):
                        b = v.next()
                    if b is None:
                        break
                    frame = np.asarray(b.images)[0]
                    yield {"frame": frame, "name": f"{os.path.splitext(os.path.basename(p))[0]}_"
                                                   f"{int(b.frames[0]['frame_index']):06d}", "keep": b}
                    n += 1
                v.close()
            else:
                if limit is not None and n >= limit:
                    return
                with rec.span("decode"):
                    frame = imaging.load_rgb(p)
                yield {"frame": frame, "name": os.path.splitext(os.path.basename(p))[0]}
                n += 1

    def work(item):
        out, m = bb(item["frame"], rec)
        imaging.save_png(os.path.join(args.out, item["name"] + "_blur.png"), out[..., :3])
        if args.save_mask:
            imaging.save_png(os.path.join(args.out, item["name"] + "_mask.png"), m)
        rec.done(0)
        prog.step()
        return None

    try:
        stages.run_stages(source, [("segment+composite", work)], rec, pin=args.pin)
    finally:
        prog.close()
    return finish(rec, args, "blur-background")
