/* The public headers' enum values as module constants: _pixflow.X is
 * PF_X (INTERP_LINEAR = PF_INTERP_LINEAR, BOX_XYXY = PF_BOX_XYXY, U8 =
 * PF_U8, ...). The values come from the C symbols, so the Python modules
 * (ops.py, post.py, transforms/functional.py, cv.py) never type a number
 * the library defines; _pixflow.pyi lists the same names (checked by
 * tests/python/test_stub.py). */
#include "pfpy.h"

typedef struct pfpy_constant {
    const char *name; /* the C name: Python drops its "PF_" */
    long value;
} pfpy_constant;

#define C(sym) {#sym, (long)(sym)}

static const pfpy_constant constants[] = {
    /* pf_dtype (core.h) */
    C(PF_U8), C(PF_U16), C(PF_S16), C(PF_S32), C(PF_F16), C(PF_BF16), C(PF_F32),
    /* pf_layout (core.h) */
    C(PF_HWC), C(PF_CHW),
    /* pf_interp (ops.h) */
    C(PF_INTERP_NEAREST), C(PF_INTERP_LINEAR), C(PF_INTERP_CUBIC), C(PF_INTERP_AREA), C(PF_INTERP_LANCZOS4),
    C(PF_INTERP_NEAREST_EXACT),
    /* pf_resize_flavor (ops.h) */
    C(PF_RESIZE_OPENCV), C(PF_RESIZE_PILLOW), C(PF_RESIZE_TORCHVISION),
    /* pf_color_code (ops.h) */
    C(PF_COLOR_BGR2BGRA), C(PF_COLOR_RGB2RGBA), C(PF_COLOR_BGRA2BGR), C(PF_COLOR_RGBA2RGB),
    C(PF_COLOR_BGR2RGBA), C(PF_COLOR_RGB2BGRA), C(PF_COLOR_RGBA2BGR), C(PF_COLOR_BGRA2RGB), C(PF_COLOR_BGR2RGB),
    C(PF_COLOR_RGB2BGR), C(PF_COLOR_BGRA2RGBA), C(PF_COLOR_RGBA2BGRA), C(PF_COLOR_BGR2GRAY),
    C(PF_COLOR_RGB2GRAY), C(PF_COLOR_GRAY2BGR), C(PF_COLOR_GRAY2RGB), C(PF_COLOR_GRAY2BGRA),
    C(PF_COLOR_GRAY2RGBA), C(PF_COLOR_BGRA2GRAY), C(PF_COLOR_RGBA2GRAY), C(PF_COLOR_BGR2YCrCb),
    C(PF_COLOR_RGB2YCrCb), C(PF_COLOR_YCrCb2BGR), C(PF_COLOR_YCrCb2RGB), C(PF_COLOR_BGR2HSV),
    C(PF_COLOR_RGB2HSV), C(PF_COLOR_HSV2BGR), C(PF_COLOR_HSV2RGB), C(PF_COLOR_BGR2HSV_FULL),
    C(PF_COLOR_RGB2HSV_FULL), C(PF_COLOR_HSV2BGR_FULL), C(PF_COLOR_HSV2RGB_FULL), C(PF_COLOR_YUV2RGB_NV12),
    C(PF_COLOR_YUV2BGR_NV12), C(PF_COLOR_YUV2RGB_NV21), C(PF_COLOR_YUV2BGR_NV21), C(PF_COLOR_YUV2RGBA_NV12),
    C(PF_COLOR_YUV2BGRA_NV12), C(PF_COLOR_YUV2RGBA_NV21), C(PF_COLOR_YUV2BGRA_NV21), C(PF_COLOR_YUV2RGB_YV12),
    C(PF_COLOR_YUV2BGR_YV12), C(PF_COLOR_YUV2RGB_IYUV), C(PF_COLOR_YUV2BGR_IYUV), C(PF_COLOR_YUV2RGB_I420),
    C(PF_COLOR_YUV2BGR_I420), C(PF_COLOR_YUV2RGBA_YV12), C(PF_COLOR_YUV2BGRA_YV12), C(PF_COLOR_YUV2RGBA_IYUV),
    C(PF_COLOR_YUV2BGRA_IYUV), C(PF_COLOR_YUV2RGBA_I420), C(PF_COLOR_YUV2BGRA_I420), C(PF_COLOR_YUV2GRAY_420),
    C(PF_COLOR_RGB2YUV_I420), C(PF_COLOR_BGR2YUV_I420), C(PF_COLOR_RGB2YUV_IYUV), C(PF_COLOR_BGR2YUV_IYUV),
    C(PF_COLOR_RGBA2YUV_I420), C(PF_COLOR_BGRA2YUV_I420), C(PF_COLOR_RGB2YUV_YV12), C(PF_COLOR_BGR2YUV_YV12),
    C(PF_COLOR_RGBA2YUV_YV12), C(PF_COLOR_BGRA2YUV_YV12), C(PF_COLOR_RGB2YUV_NV12), C(PF_COLOR_BGR2YUV_NV12),
    C(PF_COLOR_RGBA2YUV_NV12), C(PF_COLOR_BGRA2YUV_NV12), C(PF_COLOR_RGB2YUV_NV21), C(PF_COLOR_BGR2YUV_NV21),
    C(PF_COLOR_RGBA2YUV_NV21), C(PF_COLOR_BGRA2YUV_NV21),
    /* pf_yuv_matrix (ops.h) */
    C(PF_YUV_BT601), C(PF_YUV_BT709),
    /* pf_yuv_range (ops.h) */
    C(PF_YUV_LIMITED), C(PF_YUV_FULL),
    /* pf_norm_mode (ops.h) */
    C(PF_NORM_MEAN_STD), C(PF_NORM_MINMAX),
    /* pf_border (ops.h) */
    C(PF_BORDER_CONSTANT), C(PF_BORDER_REPLICATE), C(PF_BORDER_REFLECT), C(PF_BORDER_WRAP),
    C(PF_BORDER_REFLECT_101), C(PF_BORDER_TRANSPARENT),
    /* pf_flip_code (ops.h) */
    C(PF_FLIP_BOTH), C(PF_FLIP_VERTICAL), C(PF_FLIP_HORIZONTAL), C(PF_FLIP_NONE),
    /* pf_rotate_code (ops.h) */
    C(PF_ROTATE_90_CLOCKWISE), C(PF_ROTATE_180), C(PF_ROTATE_90_COUNTERCLOCKWISE), C(PF_ROTATE_NONE),
    /* pf_box_format (post.h) */
    C(PF_BOX_XYXY), C(PF_BOX_XYWH), C(PF_BOX_CXCYWH), C(PF_BOX_YXYX),
    /* pf_iou_kind (post.h) */
    C(PF_IOU), C(PF_GIOU), C(PF_DIOU), C(PF_CIOU),
    /* pf_unmap_rounding (post.h) */
    C(PF_UNMAP_EXACT), C(PF_UNMAP_ULTRALYTICS),
    /* pf_nms_semantics (post.h) */
    C(PF_NMS_TORCHVISION), C(PF_NMS_OPENCV), C(PF_NMS_ONNX),
    /* pf_nms_classes (post.h) */
    C(PF_NMS_PER_CLASS), C(PF_NMS_AGNOSTIC), C(PF_NMS_CLASS_OFFSET),
    /* pf_soft_nms (post.h) */
    C(PF_SOFT_NMS_NONE), C(PF_SOFT_NMS_LINEAR), C(PF_SOFT_NMS_GAUSSIAN),
    /* pf_nms_order (post.h) */
    C(PF_NMS_ORDER_SELECTION), C(PF_NMS_ORDER_TORCH_SORT),
    /* pf_yolo_layout (post.h) */
    C(PF_YOLO_V5), C(PF_YOLO_V8),
    /* pf_score_activation (post.h) */
    C(PF_SCORE_RAW), C(PF_SCORE_SIGMOID),
    /* pf_mask_mode (post.h) */
    C(PF_MASK_ARGMAX), C(PF_MASK_THRESHOLD),
    /* pf_contour_mode (post.h) */
    C(PF_RETR_EXTERNAL), C(PF_RETR_LIST),
    /* pf_letterbox_align (augment.h) */
    C(PF_LETTERBOX_CENTER), C(PF_LETTERBOX_TOP_LEFT),
    /* pf_image_format (codec.h) */
    C(PF_FORMAT_UNKNOWN), C(PF_FORMAT_JPEG), C(PF_FORMAT_PNG), C(PF_FORMAT_WEBP),
    /* pf_pixel_format (codec.h) */
    C(PF_PIXEL_RGB), C(PF_PIXEL_BGR), C(PF_PIXEL_GRAY), C(PF_PIXEL_RGBA),
    /* pf_shard_mode (pipeline.h) */
    C(PF_SHARD_PAD), C(PF_SHARD_DROP),
    /* pf_error_policy (pipeline.h) */
    C(PF_ON_ERROR_SKIP), C(PF_ON_ERROR_FAIL),
    /* pf_warp_opts.flags, pf_convert's channel map (ops.h) */
    C(PF_WARP_INVERSE_MAP), C(PF_CHANNEL_FILL),
};

#undef C

int pfpy_constants_init(PyObject *module) {
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++)
        if (PyModule_AddIntConstant(module, constants[i].name + 3, constants[i].value) < 0) return -1;
    return 0;
}
