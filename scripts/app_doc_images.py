"""Makes the small pictures of docs/apps.md and the README (docs/img/app_*.png) with the apps'
own code on scikit-image's sample images:  python scripts/app_doc_images.py"""
import os
import sys

import numpy as np

import pixflow.cv as cv
from pixflow.apps import imaging, models
from pixflow.apps.blur import BackgroundBlur
from pixflow.apps.classify import Orientation
from pixflow.apps.detect import Detector
from pixflow.apps.ocr import TextDetector

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "img")
os.makedirs(out, exist_ok=True)


def small(img, w):
    h = int(round(img.shape[0] * w / img.shape[1]))
    return cv.resize(np.ascontiguousarray(img), (w, h), interpolation=cv.INTER_AREA)


astro = imaging.load_rgb(models.sample_image("astronaut"))
page = imaging.load_rgb(models.sample_image("page"))

(dets,) = Detector()([astro])
a = astro.copy()
imaging.draw_boxes(a, [d["box"] for d in dets], [d["class"] for d in dets], thickness=4)
imaging.save_png(os.path.join(out, "app_detect.png"), small(a, 200))

composite, mask = BackgroundBlur()(astro)
side = np.concatenate([small(composite[..., :3], 180), small(np.repeat(mask[:, :, None], 3, 2), 180)], 1)
imaging.save_png(os.path.join(out, "app_blur_background.png"), side)

boxes, _ = TextDetector(box_thresh=0.3)(page)
p = page.copy()
imaging.draw_polygons(p, boxes)
imaging.save_png(os.path.join(out, "app_ocr_det.png"), p)

clf = Orientation()
rots = [np.ascontiguousarray(np.rot90(page, k)) for k in range(4)]
labels = [lab for lab, _ in clf(rots)]
tiles = []
for im in rots:
    t = small(im, 128) if im.shape[1] >= im.shape[0] else small(im, int(128 * im.shape[1] / im.shape[0]))
    canvas = np.full((128, 128, 3), 255, np.uint8)
    canvas[(128 - t.shape[0]) // 2:(128 - t.shape[0]) // 2 + t.shape[0],
           (128 - t.shape[1]) // 2:(128 - t.shape[1]) // 2 + t.shape[1]] = t
    tiles.append(canvas)
imaging.save_png(os.path.join(out, "app_classify.png"), np.concatenate(tiles, 1))
print("classify labels of the 4 tiles:", labels, file=sys.stderr)
print("wrote", sorted(f for f in os.listdir(out) if f.startswith("app_")), file=sys.stderr)
