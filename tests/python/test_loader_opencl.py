"""pixflow.data.Loader(device="opencl:0") on an OpenCL device (PoCL in CI): the pipeline's
device stage augments in OpenCL memory and the Loader yields pixflow.Tensor batches there.
Their bytes (images.to_host()) equal Loader(device="cpu") and the default placement's, for a
recipe and a fused Compose with colour jitter, over two epochs; the tensor reports DLPack
device (kDLOpenCL = 4, 0); a kDLOpenCL capsule is imported only when its memory is pixflow's
own SVM; "opencl:7" and output="torch" with an OpenCL device raise naming the problem.

Without an OpenCL build or device these tests skip, naming why; under CI=true (where PoCL is
installed and test_python.sh builds with PIXFLOW_OPENCL=ON) conftest.py turns any such skip
into a failure: only CUDA tests may skip there."""
import ctypes

import numpy as np
import pytest

import pixflow
import pixflow.data as D
import pixflow.transforms as T
from conftest import DATA, opencl_skip_reason

N = 19
KDL_OPENCL = 4


@pytest.fixture(autouse=True)
def _need_opencl():
    why = opencl_skip_reason()
    if why is not None:
        pytest.skip(why)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """N small PPM images in 3 class folders, plus 4 JPEG photos of data/ (ROI decode)."""
    root = tmp_path_factory.mktemp("ocl_ds")
    rng = np.random.default_rng(3)
    for i in range(N):
        d = root / f"c{i % 3}"
        d.mkdir(exist_ok=True)
        h, w = int(rng.integers(20, 70)), int(rng.integers(20, 70))
        px = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        (d / f"img{i:02d}.ppm").write_bytes(b"P6\n%d %d\n255\n" % (w, h) + px.tobytes())
    for name in ("astronaut_500x375.jpg", "chelsea_333x251.jpg", "ladybird_375x500.jpg",
                 "camera_gray_512x512.jpg"):
        (root / "c0" / name).symlink_to(DATA / name)
    return root


def _epochs(loader, epochs=2):
    """Every batch of `epochs` epochs as (host images, labels), copied out of the lent buffers."""
    out = []
    for e in range(epochs):
        loader.set_epoch(e)
        for images, labels in loader:
            host = images.to_host() if isinstance(images, pixflow.Tensor) else images
            out.append((np.array(host, copy=True), np.array(labels, copy=True)))
    loader.close()
    return out


def _same(a, b):
    assert len(a) == len(b) > 0
    for (xa, ya), (xb, yb) in zip(a, b):
        assert xa.dtype == xb.dtype and xa.shape == xb.shape
        assert np.array_equal(ya, yb)
        assert xa.tobytes() == xb.tobytes()  # byte for byte, NaN-safe


def _jitter_compose():
    return T.Compose([T.RandomResizedCrop(40), T.RandomHorizontalFlip(),
                      T.ColorJitter(0.4, 0.4, 0.4, 0.1), T.ToDtype("float32", scale=True),
                      T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])


@pytest.mark.parametrize("spec", ["imagenet-train", "imagenet-eval", "jitter"])
def test_batches_equal_cpu_byte_for_byte(folder, spec):
    def loader(**kw):
        args = dict(batch_size=4, workers=2, seed=11)
        if spec == "jitter":
            args["transform"] = _jitter_compose()
        else:
            args["recipe"] = spec
        args.update(kw)
        return D.Loader(folder, **args)

    ocl = _epochs(loader(device="opencl:0"))
    _same(ocl, _epochs(loader(device="cpu", output="numpy")))
    _same(ocl, _epochs(loader(output="numpy")))
    _same(ocl, _epochs(loader(output="tensor")))  # host pixflow.Tensor batches, through to_host()


def test_tensor_is_opencl_memory(folder):
    L = D.Loader(folder, recipe="imagenet-eval", batch_size=4, workers=2, device="opencl:0")
    assert L.output == "tensor"
    images, labels = next(iter(L))
    assert isinstance(images, pixflow.Tensor) and images.device == "opencl:0"
    assert images.__dlpack_device__() == (KDL_OPENCL, 0)
    assert images.shape == (4, 3, 224, 224) and images.dtype == "float32"
    assert labels.dtype == np.int64 and labels.shape == (4,)
    assert "device=opencl" in repr(images)
    # the host cannot read SVM directly: the buffer protocol and numpy() say what to do instead
    with pytest.raises(pixflow.InvalidArgument, match="OpenCL memory of device 0.*to_host"):
        memoryview(images)
    with pytest.raises(pixflow.InvalidArgument, match="OpenCL memory of device 0.*to_host"):
        images.numpy()
    with pytest.raises(AttributeError, match="OpenCL memory"):
        images.__cuda_array_interface__
    # a capsule says kDLOpenCL, device 0
    with pytest.raises(pixflow.Unsupported, match=r"dl_device \(1, 0\) is not the tensor's device \(4, 0\)"):
        images.__dlpack__(dl_device=(1, 0))
    host = images.to_host()
    assert host.device == "cpu" and host.shape == images.shape and host.__dlpack_device__() == (1, 0)
    L.close()


# ctypes views of the DLPack structs (python/src/dlpack_abi.h), to edit a capsule's device
class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", ctypes.c_uint32), ("shape", ctypes.c_void_p), ("strides", ctypes.c_void_p),
                ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64), ("dl_tensor", _DLTensor)]


_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


class _Producer:
    """A DLPack producer handing out `source`'s versioned capsules with their device edited and,
    with first=True, narrowed to the first sample (one HWC image)."""

    def __init__(self, source, device_type, device_id, first=False):
        self.source, self.device, self.first = source, (device_type, device_id), first

    def __dlpack__(self, max_version=None, **kw):
        cap = self.source.__dlpack__(max_version=(1, 1))
        m = _DLManagedTensorVersioned.from_address(_get_pointer(cap, b"dltensor_versioned"))
        m.dl_tensor.device.device_type, m.dl_tensor.device.device_id = self.device
        if self.first:  # the export's shape/strides arrays, from their second entry
            m.dl_tensor.ndim -= 1
            m.dl_tensor.shape += 8
            m.dl_tensor.strides += 8
        return cap


class _HwcU8:
    """A pipeline_spec (what a fused Compose hands the Loader): small uint8 NHWC batches."""

    def pipeline_spec(self):
        desc, policy = pixflow._pixflow.recipe("imagenet-eval")
        desc.update(out_layout=pixflow._pixflow.HWC, out_dtype=pixflow._pixflow.U8, out_width=40, out_height=32)
        policy.update(resize_shorter=48, center_crop_w=40, center_crop_h=32)
        return desc, policy


def test_dlpack_import_only_pixflow_svm(folder):
    L = D.Loader(folder, transform=_HwcU8(), batch_size=4, workers=1, device="opencl:0", shuffle=False)
    it = iter(L)
    a, _ = next(it)
    b, _ = next(it)
    assert a.shape == (4, 32, 40, 3) and a.dtype == "uint8" and a.data_ptr() != b.data_ptr()
    # host memory labelled kDLOpenCL: refused by name, nothing read
    with pytest.raises(pixflow.InvalidArgument,
                       match=r"src is DLPack device \(kDLOpenCL, 0\), but its memory is not shared virtual memory"):
        pixflow.ops.flip(_Producer(a.to_host(), KDL_OPENCL, 0, first=True), 1)
    # pixflow's own SVM but labelled as another device: refused as well
    with pytest.raises(pixflow.InvalidArgument, match=r"kDLOpenCL, 3\).*OpenCL device 3"):
        pixflow.ops.flip(_Producer(a, KDL_OPENCL, 3, first=True), 1)
    # pixflow's own SVM of device 0: imported, and an op runs on the device between two imports
    # (on the NULL stream: with one thread the binding passes no CPU stream)
    before = np.asarray(a.to_host()).copy()
    threads = pixflow.get_num_threads()
    pixflow.set_num_threads(1)
    try:
        pixflow.ops.flip(_Producer(a, KDL_OPENCL, 0, first=True), pixflow.ops.FLIP_HORIZONTAL,
                         dst=_Producer(b, KDL_OPENCL, 0, first=True))
    finally:
        pixflow.set_num_threads(threads)
    after = np.asarray(b.to_host())
    assert np.array_equal(after[0], before[0][:, ::-1])
    del it, a, b
    L.close()


def test_errors_name_the_problem(folder):
    with pytest.raises(pixflow.InvalidArgument, match="index 7 but there are [0-9]+ OpenCL devices"):
        next(iter(D.Loader(folder, batch_size=4, device="opencl:7")))
    with pytest.raises(pixflow.InvalidArgument, match="use 'cpu', 'cuda', 'cuda:N', 'opencl' or 'opencl:N'"):
        next(iter(D.Loader(folder, batch_size=4, device="opencl:x")))
    with pytest.raises(pixflow.InvalidArgument, match="output = 'torch' with device = 'opencl:0'.*output='tensor'"):
        D.Loader(folder, device="opencl:0", output="torch")
    with pytest.raises(pixflow.InvalidArgument, match="output = 'numpy' with device = 'opencl:0'"):
        D.Loader(folder, device="opencl:0", output="numpy")
