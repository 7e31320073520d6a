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


def test_per_stream_stats_and_metrics(clips):
    """Each stream's counts are its own (5 and 3 frames) and sum to the source's; the exposition
    carries them as stream="i" series that prometheus_client's parser reads."""
    parser = pytest.importorskip("prometheus_client.parser")  # CI=true turns a skip into a failure
    r = pv.open(clips, batch_size=2)
    for item in r:
        pass
    del item  # the last batch's views hold the source open (close() waits for them)
    v = r._v
    total = v.stats()
    per = [v.stream_stats(i) for i in range(2)]
    assert [s["frames_delivered"] for s in per] == [5, 3]
    assert [s["frames_decoded"] for s in per] == [5, 3]
    assert all(s["ended"] and not s["failed"] for s in per)
    assert all(0 < s["latency_p50_ms"] <= s["latency_p99_ms"] <= s["latency_max_ms"] for s in per)
    assert sum(s["frames_delivered"] for s in per) == total["frames_delivered"] == 8
    with pytest.raises(pixflow.InvalidArgument, match="stream is 2"):
        v.stream_stats(2)
    fams = {f.name: f for f in parser.text_string_to_metric_families(v.metrics_text(name="cam"))}
    got = {s.labels["stream"]: s.value for s in fams["pixflow_video_stream_frames_delivered"].samples}
    assert got == {"0": 5.0, "1": 3.0}
    assert all(s.labels["source"] == "cam" for s in fams["pixflow_video_stream_ended"].samples)
    assert fams["pixflow_video_stream_latency_p99_seconds"].type == "gauge"
    r.close()
    with pytest.raises(pixflow.InvalidArgument, match="closed"):
        v.metrics_text()
