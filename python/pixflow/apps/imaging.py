"""Small image helpers for the apps: inputs (image files, folders, videos),
a dependency-free PNG writer and preview drawing on uint8 HWC arrays."""
import os
import struct
import zlib

import numpy as np

from .. import _pixflow as _P

IMAGE_EXT = (".png", ".jpg", ".jpeg", ".webp")
VIDEO_EXT = (".mp4", ".mkv", ".avi", ".mov", ".webm", ".ts", ".h264", ".264", ".y4m")


def is_video(path):
    return str(path).lower().endswith(VIDEO_EXT) or "://" in str(path)


def expand_inputs(inputs):
    """Folders become their sorted image files; files and URLs stay. Missing paths raise pixflow.IOError."""
    out = []
    for p in inputs:
        if "://" in p:
            out.append(p)
        elif os.path.isdir(p):
            files = sorted(os.path.join(p, f) for f in os.listdir(p) if f.lower().endswith(IMAGE_EXT + VIDEO_EXT))
            if not files:
                raise _P.IOError(f"input folder {p!r} has no image or video files")
            out.extend(files)
        elif os.path.isfile(p):
            out.append(p)
        else:
            raise _P.IOError(f"input {p!r}: no such file or folder")
    return out


def load_rgb(path):
    """uint8 (H, W, 3) RGB (gray and RGBA files are converted)."""
    from .. import io

    return io.decode(path, mode="RGB")


def save_png(path, img):
    """Writes uint8 (H, W) or (H, W, 1|3|4) as PNG (zlib; no codec library needed)."""
    a = np.ascontiguousarray(img, np.uint8)
    if a.ndim == 2:
        a = a[:, :, None]
    h, w, c = a.shape
    ctype = {1: 0, 3: 2, 4: 6}[c]
    raw = np.concatenate([np.zeros((h, 1), np.uint8), a.reshape(h, w * c)], axis=1).tobytes()

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, ctype, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    with open(path, "wb") as f:
        f.write(png)


PALETTE = np.array([(255, 56, 56), (255, 157, 151), (255, 112, 31), (255, 178, 29), (207, 210, 49), (72, 249, 10),
                    (146, 204, 23), (61, 219, 134), (26, 147, 52), (0, 212, 187), (44, 153, 168), (0, 194, 255),
                    (52, 69, 147), (100, 115, 255), (0, 24, 236), (132, 56, 255), (82, 0, 133), (203, 56, 255),
                    (255, 149, 200), (255, 55, 199)], np.uint8)


def draw_boxes(img, boxes, classes, thickness=2):
    """Box outlines (xyxy, any float) on img (H, W, 3) uint8 in place, coloured by class."""
    h, w = img.shape[:2]
    for b, c in zip(np.asarray(boxes).reshape(-1, 4), np.asarray(classes).reshape(-1)):
        x0, y0, x1, y1 = (int(round(float(v))) for v in b)
        x0, x1 = max(0, min(x0, w - 1)), max(0, min(x1, w - 1))
        y0, y1 = max(0, min(y0, h - 1)), max(0, min(y1, h - 1))
        if x1 < x0 or y1 < y0:
            continue
        col = PALETTE[int(c) % len(PALETTE)]
        t = thickness
        img[y0:min(y0 + t, y1 + 1), x0:x1 + 1] = col
        img[max(y1 - t + 1, y0):y1 + 1, x0:x1 + 1] = col
        img[y0:y1 + 1, x0:min(x0 + t, x1 + 1)] = col
        img[y0:y1 + 1, max(x1 - t + 1, x0):x1 + 1] = col
    return img


def draw_polygons(img, polys, color=(255, 0, 0), alpha=96, thickness=2):
    """Text polygons (n, k, 2) on img (H, W, 3) uint8 in place: a translucent fill (pixflow.post.fill_poly
    masks, pixflow.post.composite) and an outline (the fill minus the fill of the polygon shrunk)."""
    from .. import post

    h, w = img.shape[:2]
    fill = np.zeros((h, w), np.uint8)
    for p in polys:
        post.fill_poly(fill, np.asarray(p, np.int32), 255)
    solid = np.empty_like(img)
    solid[:] = np.asarray(color, np.uint8)
    tinted = post.composite(solid, img, (fill.astype(np.uint16) * alpha // 255).astype(np.uint8))[..., :3]
    # outline: mask pixels with a non-mask neighbour within `thickness`
    m = fill > 0
    inner = m.copy()
    for _ in range(thickness):
        inner[1:] &= inner[:-1].copy()
        inner[:-1] &= inner[1:].copy()
        inner[:, 1:] &= inner[:, :-1].copy()
        inner[:, :-1] &= inner[:, 1:].copy()
    edge = m & ~inner
    out = np.ascontiguousarray(tinted)
    out[edge] = np.asarray(color, np.uint8)
    img[...] = out
    return img


class VideoWriter:
    """uint8 RGB frames of one size -> an H.264 file through the ffmpeg program (stdin rawvideo)."""

    def __init__(self, path, width, height, fps=30):
        import shutil
        import subprocess

        ff = shutil.which("ffmpeg")
        if ff is None:
            raise _P.Unsupported("writing a video needs the ffmpeg program on PATH")
        self.size = (int(height), int(width))
        self.p = subprocess.Popen([ff, "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s",
                                   f"{int(width)}x{int(height)}", "-r", str(fps), "-i", "-", "-c:v", "libx264",
                                   "-pix_fmt", "yuv420p", str(path)], stdin=subprocess.PIPE)
        self.path = path

    def write(self, frame):
        if frame.shape[:2] != self.size:
            raise _P.InvalidArgument(f"VideoWriter: frame {frame.shape[:2]}; the video is {self.size}")
        self.p.stdin.write(np.ascontiguousarray(frame[..., :3], np.uint8).tobytes())

    def close(self):
        self.p.stdin.close()
        if self.p.wait() != 0:
            raise _P.IOError(f"ffmpeg could not write {self.path!r}")
