"""What each app needs beyond numpy, checked before the app starts.

The apps' runtimes and geometry libraries are optional dependencies of
pixflow (``pip install 'pixflow[apps]'``, pyproject.toml): without this
check an app would fetch its model first and then end in a raw
ModuleNotFoundError traceback, one missing package at a time. ``require``
imports every module the app needs and raises one pixflow.Unsupported
that names all the missing ones and the pip command that installs them.
The pins are scripts/python_venv.sh's (the versions the tests run)."""
import importlib

from .. import _pixflow as _P

# import name -> pip requirement (keep equal to pyproject's [apps] extra)
PACKAGES = {
    "onnxruntime": "onnxruntime==1.31.1",
    "ai_edge_litert": "ai-edge-litert==2.3.0",
    "pyclipper": "pyclipper==1.3.0.post6",
    "shapely": "shapely==2.0.6",
    "onnx": "onnx==1.16.2",
    "onnxconverter_common": "onnxconverter-common==1.16.0",
}

# app -> the modules it imports (the runtime of its default model first)
NEEDS = {
    "detect": ("onnxruntime",),
    "classify": ("onnxruntime",),
    "ocr-det": ("onnxruntime", "pyclipper", "shapely"),
    "blur-background": ("ai_edge_litert",),
}


def missing(modules):
    """The modules of `modules` that cannot be imported (not installed, or broken)."""
    out = []
    for m in modules:
        try:
            importlib.import_module(m)
        except ImportError:
            out.append(m)
    return out


def message(absent):
    """'needs X, Y, which are not installed: pip install X==.. Y==..' (one line)."""
    reqs = " ".join(PACKAGES[m] for m in absent)
    names = ", ".join(PACKAGES[m].split("==")[0] for m in absent)
    return (f"needs {names}, which {'is' if len(absent) == 1 else 'are'} not installed: "
            f"pip install {reqs}  (or pip install 'pixflow[apps]')")


def require(what, modules=None):
    """Raises pixflow.Unsupported naming every missing package of `what` (an app name, or a
    function with its modules given) and its pip command; returns None when all import."""
    absent = missing(NEEDS[what] if modules is None else modules)
    if absent:
        raise _P.Unsupported(f"{what} {message(absent)}")
