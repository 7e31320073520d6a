"""The device / stream / pool / fuse API (issue 26 section 3): pixflow.Device, devices(),
set_device(); Stream as a context manager (ops inside run on it; on a device they return device
tensors), events; MemoryPool (cap -> OutOfMemory naming the pool, stats); fuse() == Compose's
plan; Loader(devices=[...]) through the dispatcher, byte-identical to devices=["cpu"]. Every
device test runs on the CPU and on OpenCL device 0 (PoCL in CI); Stream.from_torch on CUDA."""
import os
import threading

import numpy as np
import pytest

import pixflow
import pixflow.cv as cv
import pixflow.data as D
import pixflow.transforms as T
from conftest import cuda, opencl_skip_reason


DEVICES = ["cpu", pytest.param("opencl:0", id="opencl")]


@pytest.fixture(params=DEVICES)
def dev(request):
    if request.param != "cpu":
        why = opencl_skip_reason()
        if why is not None:
            pytest.skip(why)
    return request.param


@pytest.fixture(autouse=True)
def _reset_current_device():
    yield
    pixflow.set_device("cpu")


def _host(x):
    return np.asarray(x.to_host()) if isinstance(x, pixflow.Tensor) else np.asarray(x)


# ------------------------------------------------------------------ Device

def test_device_names_kind_index_and_equality(dev):
    d = pixflow.Device(dev)
    kind = dev.split(":")[0]
    assert d.kind == kind and d.index == 0
    assert str(d) == dev and repr(d) == f"pixflow.Device('{dev}')"
    assert isinstance(d.name, str) and d.name
    assert d == pixflow.Device(dev) and d == dev and hash(d) == hash(pixflow.Device(dev))
    assert pixflow.Device(d) == d
    other = "opencl:0" if dev == "cpu" else "cpu"
    assert d != other and d != pixflow.Device(other) and d != "opencl:5"
    assert len({pixflow.Device(dev), pixflow.Device(dev)}) == 1
    d.synchronize()


def test_devices_lists_cpu_first_and_every_opencl_device():
    ds = pixflow.devices()
    assert ds[0] == "cpu" and all(isinstance(d, pixflow.Device) for d in ds)
    ocl = [d for d in ds if d.kind == "opencl"]
    assert len(ocl) == (pixflow.opencl_device_count() if opencl_skip_reason() is None else 0)
    assert len([d for d in ds if d.kind == "cuda"]) == pixflow.cuda_device_count()


@pytest.mark.parametrize("bad", ["gpu", "opencl:", "cuda:x", "cpu:1", "opencl:-1", "", "cpu0"])
def test_bad_device_strings_raise_naming_the_argument(bad):
    with pytest.raises(pixflow.InvalidArgument, match=r"device = '") as e:
        pixflow.Device(bad)
    assert isinstance(e.value, pixflow.Error)
    with pytest.raises(pixflow.InvalidArgument, match=r"^device"):
        pixflow.Stream(bad)
    with pytest.raises(pixflow.InvalidArgument, match=r"device must be a string"):
        pixflow.Device(3)


def test_a_device_that_is_not_there_raises():
    with pytest.raises(pixflow.Error):
        pixflow.Device("opencl:7")


def test_set_device_is_the_default_of_stream_and_pool(dev):
    assert pixflow.current_device() == "cpu"
    pixflow.set_device(dev)
    assert pixflow.current_device() == dev
    assert pixflow.Stream().device == dev
    assert pixflow.MemoryPool(None, 1 << 16).device == dev
    pixflow.set_device(pixflow.Device("cpu"))
    assert pixflow.current_device() == "cpu"
    with pytest.raises(pixflow.InvalidArgument, match="device = 'nope'"):
        pixflow.set_device("nope")


# ------------------------------------------------------------------ Stream

def test_ops_inside_a_stream_run_on_it(dev, rng):
    img = rng.integers(0, 256, (37, 53, 3), dtype=np.uint8)
    want_rgb = cv.cvtColor(img, cv.COLOR_BGR2RGB)
    want = cv.resize(want_rgb, (20, 30))
    s = pixflow.Stream(dev)
    assert s.device == dev
    with s as entered:
        assert entered is s
        rgb = cv.cvtColor(img, cv.COLOR_BGR2RGB)
        out = cv.resize(rgb, (20, 30))  # a device tensor feeds the next op on the device
    if dev == "cpu":
        assert isinstance(out, np.ndarray)
    else:
        assert isinstance(out, pixflow.Tensor) and out.device == dev and out.shape == (30, 20, 3)
        assert isinstance(rgb, pixflow.Tensor) and rgb.device == dev
    s.synchronize()
    assert s.query()
    assert np.array_equal(_host(out), want) and np.array_equal(_host(rgb), want_rgb)
    # outside the block ops run where their arrays are again
    assert isinstance(cv.resize(img, (20, 30)), np.ndarray)


def test_batches_inside_a_device_stream(dev, rng):
    imgs = [rng.integers(0, 256, (int(h), int(w), 3), dtype=np.uint8) for h, w in ((20, 31), (44, 17), (9, 9))]
    want = pixflow.ops.resize(imgs, (16, 12))
    with pixflow.Stream(dev) as s:
        got = pixflow.ops.resize(imgs, (16, 12))
    s.synchronize()
    assert isinstance(got, list) and len(got) == 3
    for g, w in zip(got, want):
        assert np.array_equal(_host(g), w)


def test_device_results_reuse_the_streams_cache_in_stream_order(dev, rng):
    """Dropped results go back to the stream's pool without a wait and are reused by the next
    ops on the stream while earlier queued ops may still read them: every output must still
    equal the CPU's bytes."""
    imgs = [rng.integers(0, 256, (40 + i, 50 + 2 * i, 3), dtype=np.uint8) for i in range(12)]
    want = [cv.cvtColor(cv.resize(im, (32, 24)), cv.COLOR_BGR2RGB) for im in imgs]
    s = pixflow.Stream(dev)
    assert s.memory_stats()["allocs"] == 0
    outs = []
    with s:
        for im in imgs:
            small = cv.resize(im, (32, 24))
            outs.append(cv.cvtColor(small, cv.COLOR_BGR2RGB))  # queued; reads `small`
            del small  # freed while the cvtColor may still be queued
    s.synchronize()
    for g, w in zip(outs, want):
        assert np.array_equal(_host(g), w)
    st = s.memory_stats()
    if dev == "cpu":  # results are numpy arrays: the cache is never used
        assert st["allocs"] == 0 and st["reserved"] == 0
        return
    # per image: the upload, `small` and the output; the uploads and `small`s are reused
    assert st["allocs"] == 3 * len(imgs), st
    assert st["reuses"] >= len(imgs), st
    assert st["backend_allocs"] < st["allocs"], st
    assert st["in_use"] >= sum(o.nbytes for o in outs) > 0, st  # blocks are rounded to size classes
    assert st["peak_in_use"] >= st["in_use"] and st["reserved"] >= st["in_use"]
    del outs, g  # g: the loop above holds the last output
    assert s.memory_stats()["in_use"] == 0
    s.empty_cache()
    assert s.memory_stats()["reserved"] == 0


def test_streams_nest_per_thread(dev, rng):
    a, b = pixflow.Stream(dev), pixflow.Stream("cpu")
    img = rng.integers(0, 256, (10, 12, 3), dtype=np.uint8)
    seen = {}

    def other():
        seen["other"] = type(cv.flip(img, 1))  # not inside this thread's `with`

    with a:
        with b:
            assert isinstance(cv.flip(img, 1), np.ndarray)  # the innermost stream (the CPU)
        inner = cv.flip(img, 1)
        t = threading.Thread(target=other)
        t.start()
        t.join()
    a.synchronize()
    assert seen["other"] is np.ndarray
    assert isinstance(inner, np.ndarray if dev == "cpu" else pixflow.Tensor)
    assert np.array_equal(_host(inner), img[:, ::-1])
    with pytest.raises(pixflow.InvalidArgument, match="not the innermost"):
        with a:
            b.__exit__(None, None, None)


def test_events_order_two_streams(dev, rng):
    s1, s2 = pixflow.Stream(dev), pixflow.Stream(dev)
    img = rng.integers(0, 256, (64, 80, 3), dtype=np.uint8)
    with s1:
        x = cv.resize(img, (40, 32))
    ev = s1.record_event()
    assert isinstance(ev, pixflow.Event)
    s2.wait_event(ev)
    with s2:
        y = cv.flip(x, 0)
    mine = pixflow.Event(dev)
    assert s2.record_event(mine) is mine
    mine.synchronize()
    ev.synchronize()
    assert ev.query() and mine.query()
    assert np.array_equal(_host(y), cv.resize(img, (40, 32))[::-1])


def test_host_destinations_on_a_stream(dev, rng):
    img = rng.integers(0, 256, (8, 8, 3), dtype=np.uint8)
    dst = np.zeros((4, 4, 3), np.uint8)
    with pixflow.Stream(dev) as s:
        if dev == "cpu":  # a CPU stream writes host destinations
            assert cv.resize(img, (4, 4), dst) is dst
        else:  # a device stream uploads the source, and a host destination cannot be mixed in
            with pytest.raises(pixflow.InvalidArgument):
                cv.resize(img, (4, 4), dst)
    s.synchronize()
    if dev == "cpu":
        assert np.array_equal(dst, cv.resize(img, (4, 4)))


@cuda
def test_stream_from_torch_queues_on_torchs_stream():
    import torch

    ts = torch.cuda.Stream()
    s = pixflow.Stream.from_torch(ts)
    assert s.device == "cuda:0" and s.cuda_stream == ts.cuda_stream
    x = torch.randint(0, 255, (48, 64, 3), dtype=torch.uint8, device="cuda")
    out = torch.empty_like(x)
    torch.cuda.current_stream().synchronize()  # x is ready before ts reads it
    with s:
        pixflow.ops.flip(x, 1, dst=out)
        host_src = np.ascontiguousarray(x.cpu().numpy())
        r = cv.resize(host_src, (32, 24))  # a host source: uploaded, a CUDA result
    ev = s.record_event()
    ev.synchronize()
    ts.synchronize()
    assert torch.equal(out, x.flip(1))
    assert isinstance(r, pixflow.Tensor) and r.device == "cuda:0"
    assert np.array_equal(torch.from_dlpack(r).cpu().numpy(), cv.resize(host_src, (32, 24)))
    with pytest.raises(pixflow.InvalidArgument, match="cuda_stream"):
        pixflow.Stream.from_torch(object())


def test_from_torch_needs_a_cuda_stream():
    with pytest.raises(pixflow.InvalidArgument, match="torch_stream has no cuda_stream"):
        pixflow.Stream.from_torch(object())


# --------------------------------------------------------------- MemoryPool

def test_pool_cap_raises_out_of_memory_naming_the_pool(dev):
    pool = pixflow.MemoryPool(dev, 1 << 20, name="staging-test")
    with pool.allocate(600 << 10) as buf:
        assert buf.ptr != 0 and buf.nbytes == 600 << 10 and not buf.freed
        with pytest.raises(pixflow.OutOfMemory, match="staging-test.*cap") as e:
            pool.allocate(600 << 10)
        assert isinstance(e.value, pixflow.Error) and isinstance(e.value, MemoryError)
        st = pool.stats()
        assert st["in_use"] >= 600 << 10 and st["cap"] == 1 << 20
    assert buf.freed and buf.ptr == 0
    st = pool.stats()
    assert st["in_use"] == 0 and st["peak_in_use"] >= 600 << 10 and st["peak_reserved"] >= 600 << 10
    assert st["fragmentation"] == pytest.approx(1.0)  # everything reserved is idle now
    # the freed block is reused, and then everything fits again
    with pool.allocate(600 << 10):
        assert pool.stats()["reuses"] >= 1 and pool.stats()["fragmentation"] == pytest.approx(0.0, abs=0.25)
    pool.trim()
    assert pool.stats()["reserved"] == 0
    with pytest.raises(pixflow.OutOfMemory, match=r"MemoryPool\(" + dev.split(":")[0]):
        pixflow.MemoryPool(dev, 4096).allocate(1 << 20)


def test_pool_arguments_are_checked(dev):
    with pytest.raises(pixflow.InvalidArgument, match="size = 0"):
        pixflow.MemoryPool(dev, 0)
    with pytest.raises(pixflow.InvalidArgument, match="nbytes = 0"):
        pixflow.MemoryPool(dev, 4096).allocate(0)
    b = pixflow.MemoryPool(dev, 4096).allocate(100)
    b.free()
    b.free()  # idempotent
    with pytest.raises(pixflow.InvalidArgument, match="already freed"):
        with b:
            pass


# -------------------------------------------------------------------- fuse

MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]


def test_fuse_gives_the_composes_plan(rng):
    plan = pixflow.fuse().resize(256, 256).normalize(MEAN, STD).convert_to("float32").compile()
    comp = T.Compose([T.Resize((256, 256)), T.ToDtype("float32", scale=True), T.Normalize(MEAN, STD)])
    assert isinstance(plan, pixflow.Plan)
    assert plan == comp._plan and plan.desc == comp._plan.desc
    imgs = [rng.integers(0, 256, (int(h), int(w), 3), dtype=np.uint8) for h, w in ((300, 200), (97, 411))]
    a, b = np.asarray(plan.run(imgs)), np.asarray(comp._plan.run(imgs))
    assert a.dtype == np.float32 and a.shape == b.shape and a.tobytes() == b.tobytes()
    # and the Compose's own call (torch, CHW) gives the same floats
    import torch

    out = comp([torch.from_numpy(i).permute(2, 0, 1) for i in imgs])
    assert np.array_equal(np.stack([o.numpy() for o in out]), a)


def test_fuse_other_chains_and_refusals():
    p = pixflow.fuse().resize(256).center_crop(224).random_horizontal_flip(0.5).convert_to("uint8")
    c = T.Compose([T.Resize(256), T.CenterCrop(224), T.RandomHorizontalFlip(0.5), T.ToDtype("uint8")])
    # the crop and the flip are per-sample parameters (the Compose's policy), not the plan's
    with pytest.raises(pixflow.Unsupported, match=r"per-sample parameters.*compose\(\)"):
        p.compile()
    c2 = p.compose(seed=3)
    assert c2.pipeline_spec() == T.Compose(c.transforms, seed=3).pipeline_spec()
    assert c2._plan == c._plan
    assert pixflow.fuse().resize(224, 224).compile() != pixflow.fuse().resize(224, 200).compile()
    with pytest.raises(pixflow.InvalidArgument, match="normalize needs convert_to"):
        pixflow.fuse().resize(8, 8).normalize(MEAN, STD).compile()
    with pytest.raises(pixflow.InvalidArgument, match="convert_to: dtype = 'float16'"):
        pixflow.fuse().convert_to("float16")
    with pytest.raises(pixflow.Unsupported, match="no fused plan"):
        pixflow.fuse().convert_to("float32").compile()
    with pytest.raises(pixflow.InvalidArgument, match="given twice"):
        pixflow.fuse().resize(8, 8).resize(4, 4)


# ------------------------------------------------------------ Loader devices

@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("dev_ds")
    rng = np.random.default_rng(3)
    for i in range(14):
        d = root / f"c{i % 3}"
        d.mkdir(exist_ok=True)
        h, w = int(rng.integers(20, 90)), int(rng.integers(20, 90))
        px = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        (d / f"img{i:02d}.ppm").write_bytes(b"P6\n%d %d\n255\n" % (w, h) + px.tobytes())
    return root


def _batches(folder, stats=None, **kw):
    L = D.Loader(folder, recipe="imagenet-train", batch_size=4, workers=2, output="numpy", seed=11, **kw)
    out = []
    for e in range(2):
        L.set_epoch(e)
        out += [(np.array(x), np.array(y)) for x, y in L]
    if stats is not None:
        stats.update(L.stats())
    L.close()
    return out


def test_loader_devices_bytes_equal_cpu_only(folder, dev):
    ref = _batches(folder, devices=["cpu"])
    assert len(ref) == 8
    devs = ["cpu"] if dev == "cpu" else ["cpu", pixflow.Device(dev)]
    st = {}
    got = _batches(folder, st, devices=devs)
    disp = st["dispatch"]
    assert [d["name"] for d in disp["devices"]] == [str(d) for d in devs]
    # (the pipeline fills the next epoch's batches ahead: at least the 2 epochs consumed)
    assert sum(d["samples"] for d in disp["devices"]) >= 14 * 2 and disp["samples"] >= 14 * 2
    if dev != "cpu":  # calibration runs samples on every device: the OpenCL device ran some
        ocl = disp["devices"][1]
        assert ocl["samples"] >= 1 and ocl["upload_bytes"] > 0 and ocl["reason"]
    alone = _batches(folder, devices=[dev])
    plain_stats = {}
    plain = _batches(folder, plain_stats)
    assert "dispatch" not in plain_stats
    for r, g, a, p in zip(ref, got, alone, plain):
        assert r[0].tobytes() == g[0].tobytes() == a[0].tobytes() == p[0].tobytes()
        assert np.array_equal(r[1], g[1]) and np.array_equal(r[1], p[1])


def test_loader_devices_refusals(folder):
    with pytest.raises(pixflow.InvalidArgument, match="devices = .* with device"):
        D.Loader(folder, devices=["cpu"], device="cpu")
    with pytest.raises(pixflow.InvalidArgument, match="devices = 3"):
        D.Loader(folder, devices=3)
    with pytest.raises(pixflow.Error, match="devices = 'cpu,bogus'"):
        next(iter(D.Loader(folder, devices=["cpu", "bogus"], batch_size=4, workers=1)))


@pytest.mark.parametrize("rules", [{"geometry": "opencl:0", "pointwise": "cpu"},
                                   {"geometry": "cpu", "pointwise": "opencl:0"}, "pointwise=opencl:0"])
def test_loader_rules_bytes_equal_cpu_only(folder, rules):
    """Loader(devices=, rules=): split chains (both classes on different devices) or the chain
    whole on one device, byte-identical to devices=["cpu"]; the stats say how."""
    why = opencl_skip_reason()
    if why is not None:
        pytest.skip(why)
    ref = _batches(folder, devices=["cpu"])
    st = {}
    got = _batches(folder, st, devices=["cpu", "opencl:0"], rules=rules)
    disp = st["dispatch"]
    split = isinstance(rules, dict)
    want = ",".join(f"{k}={v}" for k, v in rules.items()) if split else rules
    assert disp["rules"] == want
    if split:  # imagenet-train: every batch splits, 3 bytes per pixel of 224 x 224 move
        assert disp["split_batches"] == disp["batches"] >= 7
        assert disp["moved_bytes"] == disp["samples"] * 224 * 224 * 3
        g = [d for d in disp["devices"] if d["name"] == rules["geometry"]][0]
        assert g["reason"] == "rule: geometry -> %s (split chain, 150528 B/sample moved)" % g["name"]
    else:
        assert disp["split_batches"] == 0 and disp["moved_bytes"] == 0
        assert disp["devices"][1]["reason"].startswith("rule: pointwise -> opencl:0 (chain whole)")
        assert disp["devices"][0]["samples"] == 0
    assert len(got) == len(ref) == 8
    for r, g in zip(ref, got):
        assert r[0].tobytes() == g[0].tobytes() and np.array_equal(r[1], g[1])


def test_loader_rules_refusals(folder):
    with pytest.raises(pixflow.InvalidArgument, match="rules = .* without devices"):
        D.Loader(folder, rules={"geometry": "cpu"})
    with pytest.raises(pixflow.InvalidArgument, match="rules = 7"):
        D.Loader(folder, devices=["cpu"], rules=7)
    with pytest.raises(pixflow.InvalidArgument, match="token \"colour=cpu\": op class \"colour\""):
        next(iter(D.Loader(folder, devices=["cpu"], rules={"colour": "cpu"}, batch_size=4, workers=1)))
    with pytest.raises(pixflow.InvalidArgument, match="\"opencl:3\" is not a device of this dispatcher"):
        next(iter(D.Loader(folder, devices=["cpu"], rules={"geometry": "opencl:3"}, batch_size=4, workers=1)))
    with pytest.raises(pixflow.InvalidArgument, match="token \"geometry\" is not class=device"):
        next(iter(D.Loader(folder, devices=["cpu"], rules="geometry", batch_size=4, workers=1)))


def test_stub_lists_the_api():
    stub = open(os.path.join(os.path.dirname(pixflow._pixflow.__file__), "_pixflow.pyi")).read()
    for name in ("class Device", "class Stream", "class Event", "class MemoryPool", "def devices"):
        assert name in stub
    for name in ("Device", "devices", "set_device", "current_device", "Stream", "Event", "MemoryPool", "fuse"):
        assert name in pixflow.__all__ and hasattr(pixflow, name)
