"""pixflow.video on clips made with the ffmpeg CLI (skipped without it)."""
import shutil
import subprocess

import pytest
import torch

import pixflow
import pixflow.video as pv

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs the ffmpeg CLI to make clips")


@pytest.fixture(scope="module")
def clips(tmp_path_factory):
    d = tmp_path_factory.mktemp("clips")
    out = []
    for i, n in enumerate((5, 3)):
        p = d / f"c{i}.mp4"
        subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", f"testsrc=size=160x120:rate=10",
                        "-frames:v", str(n), "-pix_fmt", "yuv420p", str(p)], check=True)
        out.append(str(p))
    return out


def test_batches_and_metadata(clips):
    seen = []
    for images, frames in pv.open(clips, batch_size=2):
        assert images.shape[1:] == (3, 640, 640) and images.dtype == torch.float32
        assert images.shape[0] == len(frames)
        seen += [(f["stream"], f["frame_index"]) for f in frames]
        assert frames[0]["letterbox"]["scale_x"] == pytest.approx(4.0)
    # round-robin, one frame per stream per turn, ended streams drop out
    assert seen == [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (0, 4)]


def test_missing_file_names_it(tmp_path):
    with pytest.raises(pixflow.IOError, match="nope.mp4"):
        pv.open([str(tmp_path / "nope.mp4")])
