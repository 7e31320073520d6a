/* pf_yuv views of one contiguous 4:2:0 frame buffer (plain views, no
 * pixels touched). Invalid shapes give views with NULL data, which every
 * op rejects with a message naming the plane. */
#include <stdint.h>

#include "pixflow/ops.h"

/* Luma stride (0 = width), or 0 when the shape is unusable. */
static ptrdiff_t luma_stride(int32_t width, int32_t height, ptrdiff_t stride) {
    if (width <= 0 || height <= 0) return 0;
    if (stride == 0) stride = width;
    return stride >= width ? stride : 0;
}

static pf_yuv empty_frame(void) {
    pf_yuv f;
    f.y = pf_image_hwc(NULL, 0, 0, 1, PF_U8, 0);
    f.uv = f.u = f.v = f.y;
    return f;
}

pf_yuv pf_yuv_nv12(void *data, int32_t width, int32_t height, ptrdiff_t stride) {
    ptrdiff_t s = luma_stride(width, height, stride);
    if (data == NULL || s == 0) return empty_frame();
    pf_yuv f = empty_frame();
    uint8_t *p = data;
    f.y = pf_image_hwc(p, width, height, 1, PF_U8, s);
    f.uv = pf_image_hwc(p + s * height, width / 2, height / 2, 2, PF_U8, s);
    return f;
}

/* Planar: Y, then `first` and `second` chroma planes with stride / 2. */
static pf_yuv planar(void *data, int32_t width, int32_t height, ptrdiff_t stride, int yv12) {
    ptrdiff_t s = luma_stride(width, height, stride);
    if (data == NULL || s == 0) return empty_frame();
    pf_yuv f = empty_frame();
    uint8_t *p = data;
    ptrdiff_t cs = s / 2;
    uint8_t *c0 = p + s * height, *c1 = c0 + cs * (height / 2);
    f.y = pf_image_hwc(p, width, height, 1, PF_U8, s);
    f.u = pf_image_hwc(yv12 ? c1 : c0, width / 2, height / 2, 1, PF_U8, cs);
    f.v = pf_image_hwc(yv12 ? c0 : c1, width / 2, height / 2, 1, PF_U8, cs);
    return f;
}

pf_yuv pf_yuv_i420(void *data, int32_t width, int32_t height, ptrdiff_t stride) {
    return planar(data, width, height, stride, 0);
}

pf_yuv pf_yuv_yv12(void *data, int32_t width, int32_t height, ptrdiff_t stride) {
    return planar(data, width, height, stride, 1);
}

size_t pf_yuv_frame_size(int32_t width, int32_t height, ptrdiff_t stride) {
    ptrdiff_t s = luma_stride(width, height, stride);
    if (s == 0) return 0;
    size_t rows = (size_t)height + (size_t)height / 2;
    if ((size_t)s > SIZE_MAX / rows) return 0;
    return (size_t)s * rows;
}
