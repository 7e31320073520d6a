"""Type stubs of the C extension. tests/python/test_stub.py checks them against the module:
the same names, and every function's parameters as the C function accepts them."""
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import ArrayLike

# One image (a numpy array, torch tensor, PIL image or DLPack array) or a list of them.
_Images = Union[ArrayLike, Sequence[ArrayLike]]
# An op's result: an array for one image, a list for a list.
_Out = Union[np.ndarray, List[np.ndarray]]
# dst=: arrays the result is written into (checked against its shape and dtype).
_Dst = Optional[_Images]
# Per-sample parameters: one value for every sample or one per sample.
_Floats = Union[float, Sequence[float]]
_Ints = Union[int, Sequence[int]]
_Size = Union[Tuple[int, int], Sequence[Tuple[int, int]]]
_Scalar4 = Union[float, Sequence[float]]
_Fields = Dict[str, object]  # a C options struct as a dict of its fields

# The public headers' enums: _pixflow.X is the C library's PF_X (python/src/constants.c).
# pf_dtype (core.h)
U8: int
U16: int
S16: int
S32: int
F16: int
BF16: int
F32: int
# pf_layout (core.h)
HWC: int
CHW: int
# pf_interp (ops.h)
INTERP_NEAREST: int
INTERP_LINEAR: int
INTERP_CUBIC: int
INTERP_AREA: int
INTERP_LANCZOS4: int
INTERP_NEAREST_EXACT: int
# pf_resize_flavor (ops.h)
RESIZE_OPENCV: int
RESIZE_PILLOW: int
RESIZE_TORCHVISION: int
# pf_color_code (ops.h)
COLOR_BGR2BGRA: int
COLOR_RGB2RGBA: int
COLOR_BGRA2BGR: int
COLOR_RGBA2RGB: int
COLOR_BGR2RGBA: int
COLOR_RGB2BGRA: int
COLOR_RGBA2BGR: int
COLOR_BGRA2RGB: int
COLOR_BGR2RGB: int
COLOR_RGB2BGR: int
COLOR_BGRA2RGBA: int
COLOR_RGBA2BGRA: int
COLOR_BGR2GRAY: int
COLOR_RGB2GRAY: int
COLOR_GRAY2BGR: int
COLOR_GRAY2RGB: int
COLOR_GRAY2BGRA: int
COLOR_GRAY2RGBA: int
COLOR_BGRA2GRAY: int
COLOR_RGBA2GRAY: int
COLOR_BGR2YCrCb: int
COLOR_RGB2YCrCb: int
COLOR_YCrCb2BGR: int
COLOR_YCrCb2RGB: int
COLOR_BGR2HSV: int
COLOR_RGB2HSV: int
COLOR_HSV2BGR: int
COLOR_HSV2RGB: int
COLOR_BGR2HSV_FULL: int
COLOR_RGB2HSV_FULL: int
COLOR_HSV2BGR_FULL: int
COLOR_HSV2RGB_FULL: int
COLOR_YUV2RGB_NV12: int
COLOR_YUV2BGR_NV12: int
COLOR_YUV2RGB_NV21: int
COLOR_YUV2BGR_NV21: int
COLOR_YUV2RGBA_NV12: int
COLOR_YUV2BGRA_NV12: int
COLOR_YUV2RGBA_NV21: int
COLOR_YUV2BGRA_NV21: int
COLOR_YUV2RGB_YV12: int
COLOR_YUV2BGR_YV12: int
COLOR_YUV2RGB_IYUV: int
COLOR_YUV2BGR_IYUV: int
COLOR_YUV2RGB_I420: int
COLOR_YUV2BGR_I420: int
COLOR_YUV2RGBA_YV12: int
COLOR_YUV2BGRA_YV12: int
COLOR_YUV2RGBA_IYUV: int
COLOR_YUV2BGRA_IYUV: int
COLOR_YUV2RGBA_I420: int
COLOR_YUV2BGRA_I420: int
COLOR_YUV2GRAY_420: int
COLOR_RGB2YUV_I420: int
COLOR_BGR2YUV_I420: int
COLOR_RGB2YUV_IYUV: int
COLOR_BGR2YUV_IYUV: int
COLOR_RGBA2YUV_I420: int
COLOR_BGRA2YUV_I420: int
COLOR_RGB2YUV_YV12: int
COLOR_BGR2YUV_YV12: int
COLOR_RGBA2YUV_YV12: int
COLOR_BGRA2YUV_YV12: int
COLOR_RGB2YUV_NV12: int
COLOR_BGR2YUV_NV12: int
COLOR_RGBA2YUV_NV12: int
COLOR_BGRA2YUV_NV12: int
COLOR_RGB2YUV_NV21: int
COLOR_BGR2YUV_NV21: int
COLOR_RGBA2YUV_NV21: int
COLOR_BGRA2YUV_NV21: int
# pf_yuv_matrix (ops.h)
YUV_BT601: int
YUV_BT709: int
# pf_yuv_range (ops.h)
YUV_LIMITED: int
YUV_FULL: int
# pf_norm_mode (ops.h)
NORM_MEAN_STD: int
NORM_MINMAX: int
# pf_border (ops.h)
BORDER_CONSTANT: int
BORDER_REPLICATE: int
BORDER_REFLECT: int
BORDER_WRAP: int
BORDER_REFLECT_101: int
BORDER_TRANSPARENT: int
# pf_flip_code (ops.h)
FLIP_BOTH: int
FLIP_VERTICAL: int
FLIP_HORIZONTAL: int
FLIP_NONE: int
# pf_rotate_code (ops.h)
ROTATE_90_CLOCKWISE: int
ROTATE_180: int
ROTATE_90_COUNTERCLOCKWISE: int
ROTATE_NONE: int
# pf_box_format (post.h)
BOX_XYXY: int
BOX_XYWH: int
BOX_CXCYWH: int
BOX_YXYX: int
# pf_iou_kind (post.h)
IOU: int
GIOU: int
DIOU: int
CIOU: int
# pf_unmap_rounding (post.h)
UNMAP_EXACT: int
UNMAP_ULTRALYTICS: int
# pf_nms_semantics (post.h)
NMS_TORCHVISION: int
NMS_OPENCV: int
NMS_ONNX: int
# pf_nms_classes (post.h)
NMS_PER_CLASS: int
NMS_AGNOSTIC: int
NMS_CLASS_OFFSET: int
# pf_soft_nms (post.h)
SOFT_NMS_NONE: int
SOFT_NMS_LINEAR: int
SOFT_NMS_GAUSSIAN: int
# pf_nms_order (post.h)
NMS_ORDER_SELECTION: int
NMS_ORDER_TORCH_SORT: int
# pf_yolo_layout (post.h)
YOLO_V5: int
YOLO_V8: int
# pf_score_activation (post.h)
SCORE_RAW: int
SCORE_SIGMOID: int
# pf_mask_mode (post.h)
MASK_ARGMAX: int
MASK_THRESHOLD: int
# pf_contour_mode (post.h)
RETR_EXTERNAL: int
RETR_LIST: int
# pf_letterbox_align (augment.h)
LETTERBOX_CENTER: int
LETTERBOX_TOP_LEFT: int
# pf_image_format (codec.h)
FORMAT_UNKNOWN: int
FORMAT_JPEG: int
FORMAT_PNG: int
FORMAT_WEBP: int
# pf_pixel_format (codec.h)
PIXEL_RGB: int
PIXEL_BGR: int
PIXEL_GRAY: int
PIXEL_RGBA: int
# pf_shard_mode (pipeline.h)
SHARD_PAD: int
SHARD_DROP: int
# pf_error_policy (pipeline.h)
ON_ERROR_SKIP: int
ON_ERROR_FAIL: int
# pf_warp_opts.flags, pf_convert's channel map (ops.h)
WARP_INVERSE_MAP: int
CHANNEL_FILL: int

class Error(Exception):
    status: str

class InvalidArgument(Error, ValueError): ...
class Unsupported(Error): ...
class OutOfMemory(Error, MemoryError): ...
class CorruptData(Error): ...
class IOError(Error, OSError): ...
class DeviceError(Error): ...
class Cancelled(Error): ...
class Timeout(Error, TimeoutError): ...
class InternalError(Error): ...

class Tensor:
    @property
    def __cuda_array_interface__(self) -> Dict[str, object]: ...
    def __dlpack__(self, *, stream: Optional[int] = ..., max_version: Optional[Tuple[int, int]] = ...,
                   dl_device: Optional[Tuple[int, int]] = ..., copy: Optional[bool] = ...) -> object: ...
    def __dlpack_device__(self) -> Tuple[int, int]: ...
    def __len__(self) -> int: ...
    def data_ptr(self) -> int: ...
    @property
    def device(self) -> str: ...
    @property
    def dtype(self) -> str: ...
    @property
    def nbytes(self) -> int: ...
    @property
    def ndim(self) -> int: ...
    def numpy(self) -> np.ndarray: ...
    @property
    def readonly(self) -> bool: ...
    @property
    def shape(self) -> Tuple[int, ...]: ...
    @property
    def strides(self) -> Tuple[int, ...]: ...
    def torch(self) -> object: ...

class Plan:
    def __init__(self, desc: _Fields) -> None: ...
    @property
    def desc(self) -> _Fields: ...
    def run(self, images: _Images, params: Optional[Union[_Fields, Sequence[_Fields]]] = ...,
            out: Optional[ArrayLike] = ..., info: bool = ...
            ) -> Union[Tensor, np.ndarray, Tuple[Union[Tensor, np.ndarray], List[_Fields]]]: ...

class Batch:
    @property
    def batch_index(self) -> int: ...
    @property
    def count(self) -> int: ...
    @property
    def epoch(self) -> int: ...
    @property
    def images(self) -> Tensor: ...
    @property
    def labels(self) -> Tensor: ...
    @property
    def meta(self) -> List[_Fields]: ...
    @property
    def next_epoch(self) -> int: ...
    @property
    def next_position(self) -> int: ...
    @property
    def skipped(self) -> int: ...

class Pipeline:
    def __init__(self, source: _Fields, desc: Optional[_Fields] = ..., policy: Optional[_Fields] = ...,
                 config: Optional[_Fields] = ..., device: Optional[str] = ..., pin: Optional[str] = ...) -> None: ...
    @property
    def buffers(self) -> int: ...
    def close(self) -> None: ...
    def errors(self) -> List[_Fields]: ...
    @property
    def live_batches(self) -> int: ...
    def metrics_text(self, device: Optional[str] = ...) -> str: ...
    def next(self, timeout: float = ...) -> Optional[Batch]: ...
    @property
    def pinned(self) -> Dict[str, int]: ...
    def state(self) -> str: ...
    def stats(self) -> _Fields: ...

class VideoBatch:
    @property
    def count(self) -> int: ...
    @property
    def frames(self) -> List[_Fields]: ...
    @property
    def images(self) -> Tensor: ...

class Video:
    def __init__(self, sources: Sequence[_Fields], desc: Optional[_Fields] = ...,
                 config: Optional[_Fields] = ...) -> None: ...
    def close(self) -> None: ...
    def next(self, timeout: float = ...) -> Optional[VideoBatch]: ...
    def stats(self) -> _Fields: ...
    def stream_error(self, i: int, /) -> Optional[str]: ...

# ------------------------------------------------------------------ core
def version() -> str: ...
def build_info() -> str: ...
def cuda_device_count() -> int: ...
def set_num_threads(n: int, /) -> None: ...
def get_num_threads() -> int: ...

# ------------------------------------------------------------ geometry
def resize(src: _Images, size: Optional[_Size] = ..., dst: _Dst = ..., interp: int = ..., antialias: bool = ...,
           flavor: int = ...) -> _Out: ...
def flip(src: _Images, codes: _Ints, dst: _Dst = ...) -> _Out: ...
def rotate(src: _Images, codes: _Ints, dst: _Dst = ...) -> _Out: ...
def transpose(src: _Images, dst: _Dst = ...) -> _Out: ...
def copy_make_border(src: _Images, top: _Ints, bottom: _Ints, left: _Ints, right: _Ints, border: int = ...,
                     value: Optional[_Scalar4] = ..., dst: _Dst = ...) -> _Out: ...
def warp_affine(src: _Images, matrices: ArrayLike, size: Optional[_Size] = ..., dst: _Dst = ..., interp: int = ...,
                border: int = ..., border_value: Optional[_Scalar4] = ..., inverse: bool = ...) -> _Out: ...
def warp_perspective(src: _Images, matrices: ArrayLike, size: Optional[_Size] = ..., dst: _Dst = ...,
                     interp: int = ..., border: int = ..., border_value: Optional[_Scalar4] = ...,
                     inverse: bool = ...) -> _Out: ...
def remap(src: _Images, map_x: _Images, map_y: _Images, dst: _Dst = ..., interp: int = ..., border: int = ...,
          border_value: Optional[_Scalar4] = ...) -> _Out: ...
def rotation_matrix_2d(center: Tuple[float, float], angle: float, scale: float, /) -> Tuple[float, ...]: ...
def affine_from_points(src: ArrayLike, dst: ArrayLike, /) -> Tuple[float, ...]: ...
def perspective_from_points(src: ArrayLike, dst: ArrayLike, /) -> Tuple[float, ...]: ...
def invert_affine(m: ArrayLike, /) -> Tuple[float, ...]: ...

# ------------------------------------------------------ colour, convert
def cvt_color(src: _Images, code: int, dst: _Dst = ..., dst_channels: int = ..., yuv_matrix: int = ...,
              yuv_range: int = ...) -> _Out: ...
def convert(src: _Images, dtype: int, alpha: float = ..., beta: float = ..., order: Optional[Sequence[int]] = ...,
            channels: int = ..., fill: float = ..., layout: int = ..., dst: _Dst = ...) -> _Out: ...
def normalize(src: _Images, dtype: int = ..., mean: Optional[_Scalar4] = ..., std: Optional[_Scalar4] = ...,
              scale: float = ..., mode: int = ..., lo: float = ..., hi: float = ...,
              order: Optional[Sequence[int]] = ..., layout: int = ..., dst: _Dst = ...) -> _Out: ...
def lut(src: _Images, table: ArrayLike, dst: _Dst = ..., table_channels: int = ..., per_sample: bool = ...) -> _Out: ...
def split(src: ArrayLike, /) -> List[np.ndarray]: ...
def merge(planes: Sequence[ArrayLike], dst: Optional[ArrayLike] = ...) -> np.ndarray: ...

# -------------------------------------------------------------- filters
def gaussian_blur(src: _Images, ksize: Union[int, Tuple[int, int]], sigma: float = ..., sigma_y: float = ...,
                  border: int = ..., dst: _Dst = ...) -> _Out: ...
def box_blur(src: _Images, ksize: Union[int, Tuple[int, int]], anchor: Optional[Tuple[int, int]] = ...,
             border: int = ..., dst: _Dst = ...) -> _Out: ...
def median_blur(src: _Images, ksize: int, dst: _Dst = ...) -> _Out: ...
def filter_2d(src: _Images, kernel: ArrayLike, ksize: Tuple[int, int], anchor: Optional[Tuple[int, int]] = ...,
              delta: float = ..., border: int = ..., dst: _Dst = ...) -> _Out: ...
def erode(src: _Images, ksize: Tuple[int, int] = ..., anchor: Optional[Tuple[int, int]] = ..., iterations: int = ...,
          border: int = ..., border_value: Optional[_Scalar4] = ..., dst: _Dst = ...) -> _Out: ...
def dilate(src: _Images, ksize: Tuple[int, int] = ..., anchor: Optional[Tuple[int, int]] = ..., iterations: int = ...,
           border: int = ..., border_value: Optional[_Scalar4] = ..., dst: _Dst = ...) -> _Out: ...
def sharpen(src: _Images, factors: _Floats, dst: _Dst = ...) -> _Out: ...

# ---------------------------------------------------------- photometric
def adjust_brightness(src: _Images, factors: _Floats, dst: _Dst = ...) -> _Out: ...
def adjust_contrast(src: _Images, factors: _Floats, dst: _Dst = ...) -> _Out: ...
def adjust_saturation(src: _Images, factors: _Floats, dst: _Dst = ...) -> _Out: ...
def adjust_hue(src: _Images, factors: _Floats, dst: _Dst = ...) -> _Out: ...
def adjust_gamma(src: _Images, gammas: _Floats, gains: Optional[_Floats] = ..., dst: _Dst = ...) -> _Out: ...
def rgb_to_grayscale(src: _Images, channels: int = ..., dst: _Dst = ...) -> _Out: ...
def invert(src: _Images, dst: _Dst = ...) -> _Out: ...
def solarize(src: _Images, thresholds: _Floats, dst: _Dst = ...) -> _Out: ...
def posterize(src: _Images, bits: _Ints, dst: _Dst = ...) -> _Out: ...
def autocontrast(src: _Images, dst: _Dst = ...) -> _Out: ...
def equalize(src: _Images, dst: _Dst = ...) -> _Out: ...
def color_twist(src: _Images, matrices: ArrayLike, dst: _Dst = ...) -> _Out: ...
def gaussian_noise(src: _Images, means: _Floats, sigmas: _Floats, seed: int = ..., clip: bool = ...,
                   sample_ids: Optional[Sequence[int]] = ..., dst: _Dst = ...) -> _Out: ...
def erase(src: _Images, rects: Union[Tuple[int, int, int, int], Sequence[Sequence[Tuple[int, int, int, int]]]],
          value: _Scalar4 = ..., dst: _Dst = ...) -> _Out: ...

# ---------------------------------------------------------------- codec
def probe(data: Union[bytes, ArrayLike], /) -> _Fields: ...
def decode(data: Union[bytes, ArrayLike], mode: int = ..., roi: Optional[Tuple[int, int, int, int]] = ...,
           scale_num: int = ..., apply_orientation: bool = ..., max_pixels: int = ..., warnings_are_errors: bool = ...,
           dst: Optional[ArrayLike] = ..., with_info: bool = ...) -> Union[np.ndarray, Tuple[np.ndarray, _Fields]]: ...
def decode_query(data: Union[bytes, ArrayLike], mode: int = ..., roi: Optional[Tuple[int, int, int, int]] = ...,
                 scale_num: int = ..., apply_orientation: bool = ...) -> _Fields: ...

# ------------------------------------------------ augment and the loader
def recipe(name: str, /) -> Tuple[_Fields, _Fields]: ...
def defaults() -> Tuple[_Fields, _Fields, _Fields]: ...
def aug_sample(policy: _Fields, seed: int, epoch: int, first_index: int, widths: Sequence[int],
               heights: Sequence[int]) -> List[_Fields]: ...
def epoch_order(n: int, seed: int, epoch: int, shuffle: bool, rank: int, world_size: int,
                shard_mode: int = ...) -> np.ndarray: ...
# (name, label, None) for a file; (name, label, (shard path, offset, size)) for a tar member,
# (name, label, (pack path, offset, size)) for a packed sample
_SourceEntry = Tuple[str, int, Optional[Tuple[str, int, int]]]
def source_index(source: Dict[str, object], /) -> List[_SourceEntry]: ...
def pack(source: Dict[str, object], out: str, max_side: int = ..., quality: int = ..., raw_below: int = ...,
         threads: int = ..., chunk_kib: int = ..., progress: Optional[Callable[[int, int], object]] = ...) -> Dict[str, int]: ...

# ------------------------------------------------------- post-processing
_NmsSample = Tuple[np.ndarray, np.ndarray, Optional[np.ndarray]]
def post_nms(samples: Sequence[_NmsSample], /, **opts: float) -> Tuple[np.ndarray, np.ndarray, np.ndarray]: ...
def post_box_convert(boxes: np.ndarray, in_fmt: int, out_fmt: int, /) -> np.ndarray: ...
def post_clip_boxes(boxes: np.ndarray, width: int, height: int, /) -> np.ndarray: ...
def post_remove_small_boxes(boxes: np.ndarray, min_size: float, /) -> Tuple[np.ndarray, int]: ...
def post_box_iou(kind: int, boxes1: np.ndarray, boxes2: np.ndarray, eps: float, /) -> np.ndarray: ...
def post_boxes_unmap(boxes: np.ndarray, offsets: Sequence[int], fmt: int, descs: Sequence[Tuple[float, ...]],
                     clip: bool, rounding: int, out_width: int, out_height: int, /) -> None: ...
_Detections = Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
def post_yolo_decode(pred: np.ndarray, layout: int, num_classes: int, num_masks: int, conf: float, multi_label: bool,
                     max_nms: int, max_det: int, /, **nms_opts: float) -> _Detections: ...
def post_anchor_decode(deltas: np.ndarray, scores: np.ndarray, anchors: np.ndarray,
                       scale: Tuple[float, float, float, float], exp_wh: bool, yx: bool, activation: int,
                       score_clip: float, delta_clip: float, background_class: int, conf: float, multi_label: bool,
                       max_det: int, /, **nms_opts: float) -> _Detections: ...
def post_masks_from_logits(logits: np.ndarray, mode: int, threshold: float, value: int, /) -> np.ndarray: ...
def post_masks_to_boxes(masks: np.ndarray, /) -> np.ndarray: ...
def post_proto_masks(coeffs: np.ndarray, protos: np.ndarray, boxes: np.ndarray, input_width: int, input_height: int,
                     crop: bool, value: int, /) -> Tuple[np.ndarray, np.ndarray]: ...
def post_connected_components(image: np.ndarray, connectivity: int, /
                              ) -> Tuple[int, np.ndarray, np.ndarray, np.ndarray]: ...
def post_find_contours(image: np.ndarray, mode: int, /) -> List[np.ndarray]: ...
def post_min_area_rect(points: np.ndarray, /) -> Tuple[Tuple[float, float], Tuple[float, float], float]: ...
def post_box_points(rect: Tuple[Tuple[float, float], Tuple[float, float], float], /) -> np.ndarray: ...
def post_fill_poly(image: np.ndarray, points: np.ndarray, value: int, /) -> None: ...
def post_poly_mean_score(score: np.ndarray, points: np.ndarray, /) -> float: ...
_LetterboxInfo = Tuple[float, ...]
def post_composite(fg: np.ndarray, bg: np.ndarray, mask: np.ndarray, dst: np.ndarray, /) -> np.ndarray: ...
def post_masks_unmap(masks: _Images, infos: Sequence[_LetterboxInfo], sizes: Sequence[Tuple[int, int]], interp: int,
                     dst: _Dst = ..., /) -> _Out: ...
def post_background_blur(frames: _Images, masks: _Images, infos: Sequence[_LetterboxInfo], ksize_x: int, ksize_y: int,
                         sigma_x: float, sigma_y: float, border: int, dst: _Dst = ..., /) -> _Out: ...
def post_draw_detections(image: np.ndarray, boxes: np.ndarray, classes: np.ndarray, thickness: int,
                         color: Tuple[int, int, int, int], palette: bool, fill_alpha: int, label: bool, /) -> None: ...
