"""pixflow.video: video files or streams (FFmpeg) -> batches of preprocessed
frames, with per-frame metadata.

    for images, frames in pixflow.video.open(["cam0.mp4", "cam1.mp4"], recipe="yolo", batch_size=8):
        boxes = model(images)                 # NCHW float32, letterboxed 640x640
        frames[0]["stream"], frames[0]["pts"], frames[0]["letterbox"]   # un-map boxes with it

Streams are muxed round-robin (one frame per stream per turn); realtime=True
keeps only each stream's newest frame. The batch's images share the
source's memory and stay valid while referenced (as Loader batches).

convert="swscale" converts each frame to BGR with FFmpeg's libswscale first,
as cv2.VideoCapture does, so the tensors equal the transform run on
cv2.VideoCapture's frames byte for byte (the default "fused" reads the YUV
planes inside the fused pass: one pass less, OpenCV cvtColor's arithmetic)."""
from . import _pixflow as _P

CONVERT = {"fused": 0, "swscale": 1}


def convert_code(convert):
    """The pf_video_convert value of "fused" or "swscale"."""
    if convert not in CONVERT:
        raise _P.InvalidArgument(f"video: convert={convert!r}; use one of {sorted(CONVERT)}")
    return CONVERT[convert]


class VideoReader:
    """Iterates (images, frames) batches; see open()."""

    def __init__(self, paths, transform=None, recipe=None, batch_size=1, realtime=False, pace=False,
                 batch_timeout_ms=-1, threads=1, output="torch", convert="fused"):
        if not hasattr(_P, "Video"):
            raise _P.Unsupported("this pixflow was built without the FFmpeg video source (PIXFLOW_VIDEO=OFF)")
        if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__"):
            paths = [paths]
        if transform is not None:
            desc, _ = transform.pipeline_spec()
        else:
            desc, _ = _P.recipe(recipe or "yolo")
        cfg = {"batch": int(batch_size), "realtime": bool(realtime), "pace": bool(pace),
               "batch_timeout_ms": int(batch_timeout_ms), "threads": int(threads),
               "convert": convert_code(convert)}
        self.output = output
        self._v = _P.Video(list(paths), desc, cfg)

    def __iter__(self):
        while True:
            b = self._v.next()
            if b is None:
                return
            images, frames = b.images, b.frames
            del b
            if self.output == "torch":
                import torch

                images = torch.from_dlpack(images)
            else:
                import numpy as np

                images = np.asarray(images)
            yield images, frames

    def stats(self):
        return self._v.stats()

    def stream_error(self, i):
        return self._v.stream_error(i)

    def close(self):
        self._v.close()


def open(paths, transform=None, recipe=None, batch_size=1, realtime=False, **kwargs):  # noqa: A001
    """Opens video sources (paths or URLs): every source is opened before this returns, so a
    missing file raises pixflow.IOError and an unreadable one CorruptData/Unsupported,
    naming it. transform: a fused pixflow.transforms.Compose (its geometry and normalization)
    or recipe (default "yolo": 640x640 letterbox, /255, NCHW float32). convert: "fused"
    (default) or "swscale" (frames as cv2.VideoCapture gives them; see the module doc)."""
    return VideoReader(paths, transform, recipe, batch_size, realtime, **kwargs)


__all__ = ["open", "VideoReader"]
