"""The apps without their optional dependencies: a real, small venv made from the system Python
(``python3 -m venv --system-site-packages``: Debian's numpy / cv2 / PIL, but no onnxruntime,
ai-edge-litert, pyclipper or shapely) with only the pixflow package on PYTHONPATH. Every app,
from ``python -m pixflow`` and from its Python class, must stop before it fetches a model and say
in one line which packages are missing and the pip command that installs them (exit 2), never a
ModuleNotFoundError traceback. And the pins it prints are pyproject's ``pixflow[apps]`` extra and
scripts/python_venv.sh's."""
import os
import re
import subprocess
import sys

import pytest

import pixflow
from pixflow.apps import deps

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGE = os.path.join(ROOT, "data", "chelsea_333x251.jpg")


def _base_python():
    """The interpreter this venv was made from (the extension is built for its version)."""
    exe = getattr(sys, "_base_executable", None) or sys.executable
    return exe if os.path.exists(exe) else "/usr/bin/python3"


@pytest.fixture(scope="module")
def bare(tmp_path_factory):
    """(python, env, missing modules) of a venv without the apps' packages."""
    root = tmp_path_factory.mktemp("bare")
    venv = root / "venv"
    r = subprocess.run([_base_python(), "-m", "venv", "--system-site-packages", "--without-pip", str(venv)],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        pytest.skip(f"cannot make a venv with {_base_python()} -m venv: {r.stderr.strip()[-300:]}")
    py = str(venv / "bin" / "python")
    # only pixflow on the path: its parent folder may be a site-packages that has the packages
    path = root / "path"
    path.mkdir()
    os.symlink(os.path.dirname(os.path.abspath(pixflow.__file__)), path / "pixflow")
    cache = root / "models"
    cache.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(PYTHONPATH=str(path), PIXFLOW_MODEL_CACHE=str(cache), PYTHONNOUSERSITE="1")
    probe = subprocess.run([py, "-c", "import pixflow, pixflow.apps.deps as d; "
                            "print(pixflow.__file__); print(' '.join(d.missing(d.PACKAGES)))"],
                           capture_output=True, text=True, env=env, timeout=120)
    assert probe.returncode == 0, probe.stderr
    where, absent = probe.stdout.splitlines()[0], probe.stdout.splitlines()[1].split()
    assert where.startswith(str(path)), f"the bare venv imported another pixflow: {where}"
    if not absent:
        pytest.skip(f"{_base_python()}'s system site-packages have every app package: nothing to test")
    return py, env, set(absent), cache


def _expect(app, absent):
    """The packages (pip names) the app must name, and its pip requirements."""
    need = [m for m in deps.NEEDS[app] if m in absent]
    return [deps.PACKAGES[m].split("==")[0] for m in need], [deps.PACKAGES[m] for m in need]


@pytest.mark.parametrize("app", sorted(deps.NEEDS))
def test_cli_names_missing_packages_in_one_line(bare, app, tmp_path):
    py, env, absent, cache = bare
    names, reqs = _expect(app, absent)
    if not names:
        pytest.skip(f"the system Python has every package {app} needs")
    r = subprocess.run([py, "-m", "pixflow", app, PAGE, "--out", str(tmp_path / "out")], capture_output=True,
                       text=True, env=env, timeout=120)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    err = r.stderr.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert err.startswith(f"pixflow {app}: "), err
    for n in names:
        assert n in err, err
    # every missing one in the same line, with the command that installs them all
    assert f"pip install {' '.join(reqs)}" in err, err
    assert "pixflow[apps]" in err, err
    assert os.listdir(cache) == [], "a model fetch started before the check"
    assert not (tmp_path / "out").exists(), "the app started before the check"


def test_python_api_raises_before_fetching(bare):
    py, env, absent, cache = bare
    script = r"""
import numpy as np
import pixflow, pixflow.post
from pixflow.apps.blur import BackgroundBlur
from pixflow.apps.classify import Orientation
from pixflow.apps.detect import Detector
from pixflow.apps.ocr import TextDetector
from pixflow.apps.runners import LiteRTRunner, OnnxRunner
cases = [("detect", Detector), ("classify", Orientation), ("ocr-det", TextDetector),
         ("blur-background", BackgroundBlur), ("OnnxRunner", lambda: OnnxRunner("no-such.onnx")),
         ("LiteRTRunner", lambda: LiteRTRunner("no-such.tflite")),
         ("db_boxes", lambda: pixflow.post.db_boxes(np.zeros((64, 64), np.float32), (64, 64)))]
for name, make in cases:
    try:
        make()
        print(name, "OK")
    except pixflow.Unsupported as e:
        print(name, "Unsupported", str(e).replace("\n", " "))
"""
    r = subprocess.run([py, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    got = {ln.split(" ", 1)[0]: ln.split(" ", 1)[1] for ln in r.stdout.splitlines()}
    needs = dict(deps.NEEDS, OnnxRunner=("onnxruntime",), LiteRTRunner=("ai_edge_litert",),
                 db_boxes=("pyclipper", "shapely"))
    for name, mods in needs.items():
        miss = [m for m in mods if m in absent]
        if not miss:
            continue
        line = got[name]
        assert line.startswith("Unsupported "), (name, line)
        assert f"pip install {' '.join(deps.PACKAGES[m] for m in miss)}" in line, (name, line)
    assert os.listdir(cache) == [], "a model fetch started before the check"


def test_pins_are_the_extra_and_the_venv_script():
    tomllib = pytest.importorskip("tomllib")

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        extra = tomllib.load(f)["project"]["optional-dependencies"]["apps"]
    assert sorted(extra) == sorted(deps.PACKAGES.values())
    with open(os.path.join(ROOT, "scripts", "python_venv.sh")) as f:
        script = f.read()
    pinned = set(re.findall(r"[A-Za-z0-9_.\-\[\]]+==[A-Za-z0-9_.]+", script))
    for req in deps.PACKAGES.values():
        assert req in pinned, f"{req} is not what scripts/python_venv.sh installs"
    for app, mods in deps.NEEDS.items():
        assert all(m in deps.PACKAGES for m in mods), app
