"""pixflow: image preprocessing for deep learning.

Submodules (imported on first use, so ``import pixflow`` stays cheap):
``pixflow.cv`` (a drop-in for the cv2 functions it covers), ``pixflow.ops``
(batched ops with per-sample parameters), ``pixflow.io`` (decode),
``pixflow.transforms`` (torchvision.transforms.v2 names, fused),
``pixflow.data`` (the Loader), ``pixflow.torch`` (an IterableDataset),
``pixflow.video``, ``pixflow.post`` (NMS, head decoding, masks and regions
after inference) and ``pixflow.ray`` (Ray Data; needs ray).
"""
from ._pixflow import (  # noqa: F401
    Cancelled,
    CorruptData,
    Device,
    DeviceError,
    Error,
    Event,
    InternalError,
    InvalidArgument,
    MemoryPool,
    OutOfMemory,
    Plan,
    PoolBuffer,
    Stream,
    Tensor,
    Timeout,
    Unsupported,
    build_info,
    cuda_device_count,
    current_device,
    devices,
    get_num_threads,
    opencl_device_count,
    set_device,
    set_num_threads,
)
from ._fuse import fuse  # noqa: F401
from ._pixflow import IOError  # noqa: F401,A004  (pixflow.IOError, also an OSError)
from ._pixflow import version as _c_version

__version__ = "0.1.0"
c_version = _c_version()

_SUBMODULES = ("cv", "ops", "io", "transforms", "data", "torch", "video", "post", "ray")

__all__ = [
    "Error", "InvalidArgument", "Unsupported", "OutOfMemory", "CorruptData", "DeviceError",
    "Cancelled", "Timeout", "InternalError", "Tensor", "build_info", "cuda_device_count",
    "opencl_device_count", "get_num_threads", "set_num_threads",
    "Device", "devices", "set_device", "current_device", "Stream", "Event", "MemoryPool", "PoolBuffer",
    "Plan", "fuse", *_SUBMODULES,
]


def __getattr__(name):
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"pixflow.{name}")
    raise AttributeError(f"module 'pixflow' has no attribute {name!r}")
