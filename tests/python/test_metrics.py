"""pixflow.metrics and Loader(metrics_port=...): the C snapshot's exposition
(Pipeline.metrics_text) parsed by prometheus_client's own parser, served by
prometheus_client's server through a collector over that snapshot (no
Python-side counters): the served sample counter equals what the loop
consumed; a port in use raises naming the address."""
import socket
import urllib.request

import numpy as np
import pytest

import pixflow.data as D

prometheus_client = pytest.importorskip("prometheus_client")  # CI=true turns a skip into a failure
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402

N, BROKEN = 19, 2


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("mds")
    rng = np.random.default_rng(3)
    for i in range(N):
        d = root / f"c{i % 3}"
        d.mkdir(exist_ok=True)
        h, w = int(rng.integers(20, 50)), int(rng.integers(20, 50))
        px = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        (d / f"i{i:02d}.ppm").write_bytes(b"P6\n%d %d\n255\n" % (w, h) + px.tobytes())
    for j in range(BROKEN):
        (root / "c0" / f"bad{j}.ppm").write_bytes(b"not an image")
    return root


def families(text):
    return {f.name: f for f in text_string_to_metric_families(text)}


def one_value(fams, name, sample_name=None, **labels):
    vals = [s.value for s in fams[name].samples
            if (sample_name is None or s.name == sample_name) and all(s.labels.get(k) == v for k, v in labels.items())]
    assert len(vals) == 1, (name, labels, fams[name].samples)
    return vals[0]


def scrape(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        assert r.status == 200
        return r.read().decode()


def test_exposition_parses_and_counts(folder):
    L = D.Loader(folder, recipe="imagenet-eval", batch_size=4, workers=2, output="numpy", metrics_port=0)
    try:
        assert L.metrics.address == "127.0.0.1" and L.metrics.port > 0
        seen = 0
        for i, (x, _) in enumerate(L):
            seen += x.shape[0]
            if i == 1:  # mid-epoch: the live snapshot parses and is behind or at the loop
                mid = families(scrape(L.metrics.url))
                assert 0 < one_value(mid, "pixflow_samples", device="cpu") <= N
        assert seen == N
        text = L._pipe.metrics_text()  # the C text itself, straight through the parser
        fams = families(text)
        assert fams["pixflow_samples"].type == "counter"
        assert one_value(fams, "pixflow_samples", device="cpu") == N
        # the Loader's pipeline runs on into the next epoch (its workers read ahead), so the
        # stage counters may be past one epoch; the delivered count is exact
        assert one_value(fams, "pixflow_skipped_samples", device="cpu") >= BROKEN
        hist = fams["pixflow_stage_latency_seconds"]
        assert hist.type == "histogram"
        count = one_value(fams, "pixflow_stage_latency_seconds", "pixflow_stage_latency_seconds_count",
                          stage="decode_augment")
        assert count >= N + BROKEN
        buckets = [s for s in hist.samples if s.name.endswith("_bucket") and s.labels["stage"] == "decode_augment"]
        assert buckets[-1].labels["le"] == "+Inf" and buckets[-1].value == count
        assert all(a.value <= b.value for a, b in zip(buckets, buckets[1:]))
        assert all(name.startswith("pixflow_") for name in fams)
        # what the server hands out is the same snapshot's families, re-exposed by prometheus_client
        served = families(scrape(L.metrics.url))
        assert one_value(served, "pixflow_samples", device="cpu") == N
        assert set(fams) == set(served)
    finally:
        L.close()
    assert L.metrics is None


def test_port_in_use_names_the_address(folder):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    port = s.getsockname()[1]
    try:
        with pytest.raises(OSError, match=f"127.0.0.1:{port}"):
            D.Loader(folder, recipe="imagenet-eval", batch_size=4, workers=1, output="numpy", metrics_port=port)
    finally:
        s.close()
