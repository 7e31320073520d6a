/* Image view constructors, ROI and validation. */
#include <stdint.h>

#include "core/error.h"
#include "core/image_util.h"

pf_image pf_image_hwc(void *data, int32_t width, int32_t height, int32_t channels,
                      pf_dtype dtype, ptrdiff_t row_stride) {
    pf_image im = {0};
    im.data = data;
    im.width = width;
    im.height = height;
    im.channels = channels;
    im.dtype = dtype;
    im.layout = PF_HWC;
    im.row_stride = row_stride != 0 ? row_stride
                                    : (ptrdiff_t)width * channels * (ptrdiff_t)pf_dtype_size(dtype);
    im.plane_stride = 0;
    im.mem = PF_MEM_HOST;
    im.device = 0;
    return im;
}

pf_image pf_image_chw(void *data, int32_t width, int32_t height, int32_t channels,
                      pf_dtype dtype, ptrdiff_t row_stride, ptrdiff_t plane_stride) {
    pf_image im = {0};
    im.data = data;
    im.width = width;
    im.height = height;
    im.channels = channels;
    im.dtype = dtype;
    im.layout = PF_CHW;
    im.row_stride = row_stride != 0 ? row_stride : (ptrdiff_t)width * (ptrdiff_t)pf_dtype_size(dtype);
    im.plane_stride = plane_stride != 0 ? plane_stride : im.row_stride * height;
    im.mem = PF_MEM_HOST;
    im.device = 0;
    return im;
}

size_t pf_image_packed_size(int32_t width, int32_t height, int32_t channels, pf_dtype dtype) {
    size_t es = pf_dtype_size(dtype);
    if (width <= 0 || height <= 0 || channels <= 0 || es == 0) return 0;
    size_t n = (size_t)width;
    if (n > SIZE_MAX / (size_t)height) return 0;
    n *= (size_t)height;
    if (n > SIZE_MAX / (size_t)channels) return 0;
    n *= (size_t)channels;
    if (n > SIZE_MAX / es) return 0;
    return n * es;
}

static size_t abs_pd(ptrdiff_t v) { return v < 0 ? (size_t)0 - (size_t)v : (size_t)v; }

/* Bytes one row of one plane (CHW) or of all channels (HWC) occupies. */
static size_t row_bytes(const pf_image *im) {
    size_t per = (size_t)im->width * pf_dtype_size(im->dtype);
    return im->layout == PF_HWC ? per * (size_t)im->channels : per;
}

pf_status pf_image_validate(const pf_image *img, const char *name) {
    if (name == NULL) name = "image";
    if (img == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s is NULL", name);
    if (img->data == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s.data is NULL", name);
    if (img->width <= 0 || img->height <= 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s is %dx%d; width and height must be >= 1",
                        name, (int)img->width, (int)img->height);
    if (img->channels < 1 || img->channels > 4)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s.channels is %d; it must be 1..4", name,
                        (int)img->channels);
    if (pf_dtype_size(img->dtype) == 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s.dtype is %d, not a pf_dtype", name, (int)img->dtype);
    if (img->layout != PF_HWC && img->layout != PF_CHW)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s.layout is %d; it must be PF_HWC or PF_CHW", name,
                        (int)img->layout);
    if (img->mem != PF_MEM_HOST && img->mem != PF_MEM_CUDA && img->mem != PF_MEM_OPENCL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s.mem is %d, not a pf_mem", name, (int)img->mem);
    if (pf_image_packed_size(img->width, img->height, img->channels, img->dtype) == 0 ||
        (uint64_t)img->width * (uint64_t)img->channels > (uint64_t)INT32_MAX)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %dx%dx%d %s overflows the addressable size",
                        name, (int)img->width, (int)img->height, (int)img->channels,
                        pf_dtype_name(img->dtype));
    size_t rb = row_bytes(img);
    size_t rs = abs_pd(img->row_stride);
    if (img->height > 1 && rs < rb)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s.row_stride is %td bytes; a row needs at least %zu", name,
                        img->row_stride, rb);
    if (rs != 0 && (size_t)(img->height - 1) > SIZE_MAX / rs)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: row_stride %td x height %d overflows", name,
                        img->row_stride, (int)img->height);
    if (img->layout == PF_CHW && img->channels > 1) {
        size_t ps = abs_pd(img->plane_stride);
        size_t plane_extent = rs * (size_t)(img->height - 1) + rb;
        /* Planes either follow one another, or interleave row by row
         * (row_stride >= channels * plane_stride); anything else overlaps. */
        int stacked = ps >= plane_extent;
        int row_interleaved = ps >= rb && rs >= ps * (size_t)img->channels;
        if (!stacked && !row_interleaved)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "%s.plane_stride is %td bytes; planes of %zu bytes would overlap", name,
                            img->plane_stride, plane_extent);
        if ((size_t)(img->channels - 1) > SIZE_MAX / (ps ? ps : 1))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: plane_stride overflows", name);
    }
    return PF_OK;
}

pf_status pf_image_roi(const pf_image *img, int32_t x, int32_t y, int32_t width, int32_t height,
                       pf_image *out) {
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_image_roi: out is NULL");
    pf_status st = pf_image_validate(img, "pf_image_roi: img");
    if (st != PF_OK) return st;
    if (width <= 0 || height <= 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_image_roi: roi size %dx%d must be >= 1x1",
                        (int)width, (int)height);
    if (x < 0 || y < 0 || x > img->width - width || y > img->height - height)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_image_roi: rectangle (x=%d, y=%d, %dx%d) leaves the %dx%d image", (int)x,
                        (int)y, (int)width, (int)height, (int)img->width, (int)img->height);
    *out = *img;
    ptrdiff_t px = (ptrdiff_t)pf_dtype_size(img->dtype) * (img->layout == PF_HWC ? img->channels : 1);
    out->data = (char *)img->data + (ptrdiff_t)y * img->row_stride + (ptrdiff_t)x * px;
    out->width = width;
    out->height = height;
    return PF_OK;
}

void pfi_image_extent(const pf_image *im, const char **lo, const char **hi) {
    const char *base = (const char *)im->data;
    ptrdiff_t lo_off = 0, hi_off = (ptrdiff_t)row_bytes(im);
    ptrdiff_t last_row = im->row_stride * (im->height - 1);
    if (last_row < 0) lo_off += last_row; else hi_off += last_row;
    if (im->layout == PF_CHW && im->channels > 1) {
        ptrdiff_t last_plane = im->plane_stride * (im->channels - 1);
        if (last_plane < 0) lo_off += last_plane; else hi_off += last_plane;
    }
    *lo = base + lo_off;
    *hi = base + hi_off;
}

int pfi_images_overlap(const pf_image *a, const pf_image *b) {
    const char *alo, *ahi, *blo, *bhi;
    pfi_image_extent(a, &alo, &ahi);
    pfi_image_extent(b, &blo, &bhi);
    return alo < bhi && blo < ahi;
}
