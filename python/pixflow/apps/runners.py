"""Model runners fed from pixflow batches without copies.

``OnnxRunner`` binds the batch's memory to ONNX Runtime as it is (an
io_binding over the buffer's pointer: a pixflow.Tensor, numpy array or
DLPack/CUDA tensor is read in place), ``LiteRTRunner`` lets pixflow write
the preprocessed image straight into the interpreter's input tensor
(``input_buffer()``), so no stage copies the tensor on the way in.

Errors are pixflow errors: a missing model file is pixflow.IOError, a file
that is not a model of that runtime pixflow.CorruptData, a batch of the
wrong shape or dtype pixflow.InvalidArgument naming the expected shape."""
import os

import numpy as np

from .. import _pixflow as _P
from . import deps


def _check_file(path, kind):
    if not os.path.isfile(path):
        raise _P.IOError(f"{kind} model {path!r}: no such file")


def _shape_ok(want, got):
    return len(want) == len(got) and all(not isinstance(w, int) or w is None or w == g for w, g in zip(want, got))


class OnnxRunner:
    """An onnxruntime.InferenceSession over one model (inputs[0] -> outputs)."""

    def __init__(self, path, providers=None, threads=0):
        deps.require("OnnxRunner", ["onnxruntime"])
        import onnxruntime as ort
        _check_file(path, "ONNX")
        so = ort.SessionOptions()
        if threads:
            so.intra_op_num_threads = int(threads)
            so.inter_op_num_threads = 1
        so.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(path, so, providers=providers or ["CPUExecutionProvider"])
        except Exception as e:  # onnxruntime raises its own InvalidProtobuf / Fail classes
            raise _P.CorruptData(f"ONNX model {path!r} cannot be loaded: {str(e).strip()[:300]}") from None
        self.path = path
        i = self.session.get_inputs()[0]
        self.input_name, self.input_shape = i.name, list(i.shape)
        if i.type != "tensor(float)":
            raise _P.Unsupported(f"ONNX model {path!r}: input {i.name} is {i.type}; only float32 inputs are fed")
        self.output_names = [o.name for o in self.session.get_outputs()]
        self._binding = self.session.io_binding()

    def check(self, shape):
        if not _shape_ok(self.input_shape, shape):
            raise _P.InvalidArgument(f"model {os.path.basename(self.path)} expects input {self.input_name} of shape "
                                     f"{self.input_shape}; the batch is {list(shape)}")

    def __call__(self, batch):
        """batch: float32 NCHW (pixflow.Tensor, numpy, or anything with the buffer protocol; CUDA tensors
        via __cuda_array_interface__ on a CUDA provider). Returns the outputs as numpy arrays."""
        cai = getattr(batch, "__cuda_array_interface__", None)
        if cai is not None:
            shape, ptr, dev = tuple(cai["shape"]), cai["data"][0], "cuda"
            if cai.get("strides") not in (None,) or np.dtype(cai["typestr"]) != np.float32:
                raise _P.InvalidArgument("the CUDA batch must be C-contiguous float32")
            keep = batch
        else:
            a = np.asarray(batch)   # zero-copy for a pixflow.Tensor (buffer protocol) or numpy
            if a.dtype != np.float32:
                raise _P.InvalidArgument(f"the batch is {a.dtype}; model {os.path.basename(self.path)} takes float32")
            if not a.flags.c_contiguous:
                raise _P.InvalidArgument("the batch must be C-contiguous (an NCHW tensor)")
            shape, ptr, dev, keep = a.shape, a.ctypes.data, "cpu", a
        self.check(shape)
        b = self._binding
        b.clear_binding_inputs()
        b.clear_binding_outputs()
        b.bind_input(self.input_name, dev, 0, np.float32, list(shape), ptr)
        for n in self.output_names:
            b.bind_output(n, "cpu")
        self.session.run_with_iobinding(b)
        del keep
        return b.copy_outputs_to_cpu()


class LiteRTRunner:
    """An ai_edge_litert Interpreter over one .tflite model with one float32 input."""

    def __init__(self, path, threads=None):
        deps.require("LiteRTRunner", ["ai_edge_litert"])
        from ai_edge_litert.interpreter import Interpreter
        _check_file(path, "TFLite")
        try:
            self.interp = Interpreter(model_path=path, num_threads=threads)
            self.interp.allocate_tensors()
        except Exception as e:
            raise _P.CorruptData(f"TFLite model {path!r} cannot be loaded: {str(e).strip()[:300]}") from None
        self.path = path
        d = self.interp.get_input_details()[0]
        self._in = d["index"]
        self.input_shape = [int(v) for v in d["shape"]]
        if d["dtype"] != np.float32:
            raise _P.Unsupported(f"TFLite model {path!r}: input is {d['dtype']}; only float32 inputs are fed")
        self._out = [o["index"] for o in self.interp.get_output_details()]

    def check(self, shape):
        if list(shape) != self.input_shape:
            raise _P.InvalidArgument(f"model {os.path.basename(self.path)} expects input of shape "
                                     f"{self.input_shape}; the batch is {list(shape)}")

    def input_buffer(self):
        """A numpy view of the interpreter's input tensor: write the batch here (pixflow Plan.run(out=...))
        and call run() with no argument. Drop the view before run() (LiteRT refuses to invoke while
        views of its buffers are alive)."""
        return self.interp.tensor(self._in)()

    def __call__(self, batch=None):
        if batch is not None:
            a = np.asarray(batch)
            if a.dtype != np.float32:
                raise _P.InvalidArgument(f"the batch is {a.dtype}; model {os.path.basename(self.path)} takes float32")
            self.check(a.shape)
            self.interp.set_tensor(self._in, a)
        self.interp.invoke()
        return [self.interp.get_tensor(i) for i in self._out]


def open_runner(path, **kw):
    """OnnxRunner for .onnx, LiteRTRunner for .tflite."""
    ext = os.path.splitext(str(path))[1].lower()
    if ext == ".onnx":
        return OnnxRunner(path, **kw)
    if ext == ".tflite":
        return LiteRTRunner(path, **kw)
    raise _P.InvalidArgument(f"model {path!r}: unknown model format {ext!r} (.onnx or .tflite)")
