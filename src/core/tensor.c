/* pf_tensor: a uniform batch in one buffer, and its per-sample views. */
#include <stdio.h>

#include "core/error.h"

size_t pf_tensor_packed_size(int32_t n, int32_t channels, int32_t height, int32_t width,
                             pf_dtype dtype) {
    if (n <= 0) return 0;
    size_t one = pf_image_packed_size(width, height, channels, dtype);
    if (one == 0 || (size_t)n > SIZE_MAX / one) return 0;
    return one * (size_t)n;
}

static pf_tensor packed(void *data, int32_t n, int32_t c, int32_t h, int32_t w, pf_dtype dt,
                        pf_layout layout) {
    pf_tensor t;
    size_t es = pf_dtype_size(dt);
    t.data = data;
    t.n = n;
    t.channels = c;
    t.height = h;
    t.width = w;
    t.dtype = dt;
    t.layout = layout;
    t.row_stride = (ptrdiff_t)((size_t)w * es * (layout == PF_HWC ? (size_t)c : 1u));
    t.plane_stride = layout == PF_CHW ? t.row_stride * h : 0;
    t.sample_stride = layout == PF_CHW ? t.plane_stride * c : t.row_stride * h;
    t.mem = PF_MEM_HOST;
    t.device = 0;
    return t;
}

pf_tensor pf_tensor_nchw(void *data, int32_t n, int32_t channels, int32_t height, int32_t width,
                         pf_dtype dtype) {
    return packed(data, n, channels, height, width, dtype, PF_CHW);
}

pf_tensor pf_tensor_nhwc(void *data, int32_t n, int32_t channels, int32_t height, int32_t width,
                         pf_dtype dtype) {
    return packed(data, n, channels, height, width, dtype, PF_HWC);
}

static pf_image sample_view(const pf_tensor *t, int i) {
    pf_image im;
    im.data = (char *)t->data + (ptrdiff_t)i * t->sample_stride;
    im.width = t->width;
    im.height = t->height;
    im.channels = t->channels;
    im.dtype = t->dtype;
    im.layout = t->layout;
    im.row_stride = t->row_stride;
    im.plane_stride = t->layout == PF_CHW ? t->plane_stride : 0;
    im.mem = t->mem;
    im.device = t->device;
    return im;
}

static size_t abs_pd(ptrdiff_t v) { return v < 0 ? (size_t)0 - (size_t)v : (size_t)v; }

pf_status pf_tensor_validate(const pf_tensor *t, const char *name) {
    if (name == NULL) name = "tensor";
    if (t == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s is NULL", name);
    if (t->n <= 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s.n is %d; it must be >= 1", name, (int)t->n);
    char sname[96];
    snprintf(sname, sizeof sname, "%s (one sample)", name);
    pf_image one = sample_view(t, 0);
    pf_status st = pf_image_validate(&one, sname);
    if (st != PF_OK) return st;
    if (t->n == 1) return PF_OK;
    /* Samples must not overlap: the stride has to clear one sample's extent. */
    size_t es = pf_dtype_size(t->dtype);
    size_t row_bytes = (size_t)t->width * es * (t->layout == PF_HWC ? (size_t)t->channels : 1u);
    size_t extent = abs_pd(t->row_stride) * (size_t)(t->height - 1) + row_bytes;
    if (t->layout == PF_CHW && t->channels > 1) {
        size_t ps = abs_pd(t->plane_stride);
        size_t planes = ps * (size_t)(t->channels - 1) + extent;
        size_t rows = abs_pd(t->row_stride) * (size_t)(t->height - 1) + ps * (size_t)(t->channels - 1) + row_bytes;
        extent = planes > rows ? planes : rows;
    }
    size_t ss = abs_pd(t->sample_stride);
    if (ss < extent)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s.sample_stride is %td bytes; a sample spans %zu, so samples would overlap",
                        name, t->sample_stride, extent);
    if ((size_t)(t->n - 1) > SIZE_MAX / ss || (size_t)(t->n - 1) * ss > SIZE_MAX - extent)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: n x sample_stride overflows", name);
    return PF_OK;
}

pf_status pf_tensor_views(const pf_tensor *t, int first, int count, pf_image out[]) {
    pfi_clear_error();
    pf_status st = pf_tensor_validate(t, "pf_tensor_views: t");
    if (st != PF_OK) return st;
    if (out == NULL && count > 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_tensor_views: out is NULL");
    if (first < 0 || count < 0 || first > t->n || count > t->n - first)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_tensor_views: samples [%d, %d + %d) are outside the tensor's 0..%d", first,
                        first, count, (int)t->n);
    for (int i = 0; i < count; i++) out[i] = sample_view(t, first + i);
    return PF_OK;
}
