#!/usr/bin/python3
"""Generates the seed corpus of tests/fuzz/corpus/: small valid JPEG / PNG /
WebP files of every kind the decoders handle, and broken ones (truncated,
corrupt entropy data, wrong magic, zero and enormous dimensions, CMYK
without an Adobe marker, ...). Deterministic; run it from anywhere:
    /usr/bin/python3 tests/fuzz/make_corpus.py
The unit test test_codec_bad expects the statuses of the bad_* files; fz_*
files are small inputs picked from the libFuzzer runs' evolved corpora
(regression seeds, not generated here)."""
import io, os, struct, subprocess, zlib
import cv2
import numpy as np
from PIL import Image

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
rng = np.random.default_rng(6)


def photo(w, h, mode="RGB"):
    y, x = np.mgrid[0:h, 0:w]
    a = np.stack([(x * 255 // max(w - 1, 1)), (y * 255 // max(h - 1, 1)), ((x + y) * 7) % 256], -1)
    a = (a + rng.integers(0, 24, a.shape)).clip(0, 255).astype(np.uint8)
    im = Image.fromarray(a, "RGB")
    im = im.convert(mode) if mode != "RGB" else im
    if mode in ("RGBA", "LA"):  # a real alpha ramp (an opaque one is dropped by WebP)
        im.putalpha(Image.fromarray(((x * 255) // max(w - 1, 1)).astype(np.uint8), "L"))
    return im


def save(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def enc(im, fmt, **kw):
    b = io.BytesIO()
    im.save(b, fmt, **kw)
    return b.getvalue()


def cv_jpeg(im, quality, restart_mcus, sampling=None):
    """A JPEG from OpenCV's encoder with a restart marker every restart_mcus MCUs."""
    a = np.asarray(im)
    a = a[:, :, ::-1] if a.ndim == 3 else a  # OpenCV takes BGR
    params = [cv2.IMWRITE_JPEG_QUALITY, quality, cv2.IMWRITE_JPEG_RST_INTERVAL, restart_mcus]
    if sampling is not None:
        params += [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, sampling]
    ok, b = cv2.imencode(".jpg", np.ascontiguousarray(a), params)
    assert ok
    return b.tobytes()


def cjpeg(im, quality, restart_mcus, sample):
    """A JPEG from libjpeg-turbo's cjpeg with luma sampling `sample` (1x1: 4:4:4)."""
    ppm = b"P6 %d %d 255\n" % im.size + im.tobytes()
    r = subprocess.run(["cjpeg", "-quality", str(quality), "-restart", f"{restart_mcus}B", "-sample", sample],
                       input=ppm, capture_output=True, check=True)
    return r.stdout


def png_chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)


def png_adam7(a):
    """An interlaced 8-bit RGB PNG (Pillow writes none)."""
    h, w, _ = a.shape
    raw = b""
    for x0, y0, dx, dy in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]:
        sub = a[y0::dy, x0::dx]
        if sub.size == 0:
            continue
        for row in sub:
            raw += b"\0" + row.tobytes()
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 1)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b"")


def exif_orientation(v):
    tiff = b"MM\0*" + struct.pack(">I", 8) + struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, v, 0) + b"\0\0\0\0"
    return b"Exif\0\0" + tiff


def sof_patch(jpg, w, h):
    i = jpg.index(b"\xff\xc0") if b"\xff\xc0" in jpg else jpg.index(b"\xff\xc2")
    return jpg[: i + 5] + struct.pack(">HH", h, w) + jpg[i + 9 :]


def strip_app14(jpg):
    i = jpg.index(b"\xff\xee")
    n = struct.unpack(">H", jpg[i + 2 : i + 4])[0]
    return jpg[:i] + jpg[i + 2 + n :]


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):  # fz_* are inputs the fuzzers evolved: kept
        if f.startswith(("ok_", "bad_")):
            os.remove(os.path.join(OUT, f))
    im = photo(61, 45)
    j420 = enc(im, "JPEG", quality=85)
    save("ok_420.jpg", j420)
    save("ok_444.jpg", enc(im, "JPEG", quality=90, subsampling=0))
    save("ok_422.jpg", enc(im, "JPEG", quality=90, subsampling=1))
    save("ok_progressive.jpg", enc(photo(70, 52), "JPEG", quality=80, progressive=True))
    save("ok_gray.jpg", enc(photo(50, 33, "L"), "JPEG", quality=85))
    cmyk = enc(photo(40, 30, "CMYK"), "JPEG", quality=90)
    save("ok_cmyk_adobe.jpg", cmyk)
    photo(64, 48)  # drawn, so the files below keep their random numbers; ok_restart.jpg is written last
    for o in (3, 6, 8):
        save(f"ok_exif_orient{o}.jpg", enc(photo(48, 32), "JPEG", quality=85, exif=exif_orientation(o)))
    save("ok_rgb8.png", enc(photo(33, 21), "PNG"))
    save("ok_rgba8.png", enc(photo(30, 20, "RGBA"), "PNG"))
    save("ok_gray8.png", enc(photo(31, 17, "L"), "PNG"))
    save("ok_gray1.png", enc(photo(29, 13, "1"), "PNG"))
    g16 = Image.fromarray((np.arange(27 * 15, dtype=np.uint16).reshape(15, 27) * 157), "I;16")
    save("ok_gray16.png", enc(g16, "PNG"))
    pal = photo(26, 19).convert("P", palette=Image.ADAPTIVE, colors=16)
    save("ok_palette.png", enc(pal, "PNG"))
    save("ok_palette_trns.png", enc(pal, "PNG", transparency=3))
    save("ok_la.png", enc(photo(22, 14, "LA"), "PNG"))
    save("ok_interlaced.png", png_adam7(np.asarray(photo(35, 23))))
    # 16-bit RGB written by hand (Pillow has no 16-bit RGB mode)
    a16 = (np.asarray(photo(19, 11)).astype(np.uint16) * 257 + 3).astype(">u2")
    raw = b"".join(b"\0" + r.tobytes() for r in a16)
    save("ok_rgb16.png", b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 19, 11, 16, 2, 0, 0, 0))
         + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b""))
    save("ok_lossy.webp", enc(photo(41, 27), "WEBP", quality=80))
    save("ok_lossless.webp", enc(photo(23, 19), "WEBP", lossless=True))
    save("ok_alpha.webp", enc(photo(24, 18, "RGBA"), "WEBP", quality=80))
    # ---- broken (expected status in test_codec_bad.c)
    save("bad_truncated.jpg", j420[: len(j420) * 2 // 3])
    save("bad_header_only.jpg", j420[:40])
    sos = j420.index(b"\xff\xda")
    hl = struct.unpack(">H", j420[sos + 2 : sos + 4])[0]
    # a run of 1 bits (FF 00 is a stuffed FF) in the entropy data: the
    # all-ones 16-bit code is invalid in every Huffman table
    k = sos + 2 + hl + 200
    save("bad_huffman.jpg", j420[:k] + b"\xff\x00" * 12 + j420[k + 24 :])
    save("bad_magic.jpg", b"\xff\xd9" + j420[2:])
    save("bad_zero_height.jpg", sof_patch(j420, 61, 0))
    save("bad_zero_width.jpg", sof_patch(j420, 0, 45))
    save("bad_huge.jpg", sof_patch(j420, 65000, 65000))
    save("bad_cmyk_no_adobe.jpg", strip_app14(cmyk))
    p = enc(photo(33, 21), "PNG")
    save("bad_truncated.png", p[: len(p) * 2 // 3])
    bad_crc = bytearray(p)
    bad_crc[29] ^= 1  # IHDR CRC
    save("bad_crc.png", bytes(bad_crc))
    save("bad_huge.png", p[:16] + struct.pack(">II", 100000, 100000) + p[24:29] +
         struct.pack(">I", zlib.crc32(b"IHDR" + struct.pack(">II", 100000, 100000) + p[24:29]) & 0xFFFFFFFF) + p[33:])
    save("bad_zero.png", p[:16] + struct.pack(">II", 0, 21) + p[24:])
    w = enc(photo(41, 27), "WEBP", quality=80)
    save("bad_truncated.webp", w[: len(w) // 2])
    save("bad_gif.gif", enc(photo(8, 8).convert("P"), "GIF"))
    save("bad_empty.bin", b"")
    save("bad_text.txt", b"this is not an image\n")
    # Restart markers (Pillow 9.4 cannot write them: it ignores
    # restart_marker_blocks; OpenCV's encoder and libjpeg-turbo's cjpeg
    # (libjpeg-turbo-progs) can, the interval in MCUs): every MCU; every 3
    # MCUs of a 61-wide 4:2:0 image (4 MCUs a row: not a divisor, so the
    # decoder cannot cut columns); every two MCU rows; 4:4:4 and 4:2:2 every
    # 2 MCUs; a gray image with 7 MCUs a row. Last, so the photos above keep
    # their random numbers.
    save("ok_restart.jpg", cv_jpeg(photo(64, 48), 75, 1))
    save("ok_restart_3.jpg", cv_jpeg(photo(61, 45), 90, 3))
    save("ok_restart_rows.jpg", cv_jpeg(photo(70, 52), 85, 10))
    save("ok_restart_444.jpg", cjpeg(photo(53, 37), 90, 2, "1x1"))
    save("ok_restart_422.jpg", cjpeg(photo(75, 29), 90, 2, "2x1"))
    save("ok_restart_gray.jpg", cv_jpeg(photo(50, 33, "L"), 85, 7))


if __name__ == "__main__":
    main()
