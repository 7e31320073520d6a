/* pf_malloc / pf_free and the copies (1D, 2D, whole images and tensors).
 * Copies go through the backend of the stream; a NULL stream copies
 * synchronously (through the backend of the device that owns the memory,
 * when either pointer is CUDA or OpenCL device memory). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/device.h"
#include "core/error.h"
#include "core/stream.h"

static pf_status check_kind(const char *fn, pf_alloc_kind kind) {
    if (kind != PF_ALLOC_DEVICE && kind != PF_ALLOC_PINNED && kind != PF_ALLOC_MANAGED)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: kind is %d; use PF_ALLOC_DEVICE, PF_ALLOC_PINNED or PF_ALLOC_MANAGED", fn, (int)kind);
    return PF_OK;
}

pf_status pf_malloc(pf_device *device, pf_alloc_kind kind, size_t bytes, void **out) {
    pfi_clear_error();
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_malloc: out is NULL");
    *out = NULL;
    if (device == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_malloc: device is NULL");
    pf_status st = check_kind("pf_malloc", kind);
    if (st != PF_OK) return st;
    if (bytes == 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_malloc: bytes is 0");
    st = device->be->mem_alloc(device->index, kind, bytes, out);
    return pfi_fail_in("pf_malloc", st);
}

void pf_free(pf_device *device, pf_alloc_kind kind, void *ptr) {
    if (device == NULL || ptr == NULL || check_kind("pf_free", kind) != PF_OK) return;
    device->be->mem_free(device->index, kind, ptr);
}

/* The owner of one address: the first device backend in use that claims
 * it (as copy_backend and pfi_route_ptrs ask), else host memory. */
static void owner_of(const void *p, pf_mem *mem, int32_t *device) {
    *mem = PF_MEM_HOST;
    *device = 0;
    for (int k = PF_DEVICE_CUDA; k < PFI_DEVICE_KINDS; k++) {
        const pfi_backend *b = pfi_backend_get((pf_device_kind)k);
        if (b == NULL || b->ptr_device == NULL || !pfi_kind_in_use((pf_device_kind)k)) continue;
        int d = b->ptr_device(p);
        if (d >= 0) {
            *mem = pfi_mem_of_kind((pf_device_kind)k);
            *device = d;
            return;
        }
    }
}

pf_status pf_pointer_memory(const void *ptr, size_t bytes, pf_mem *mem, int32_t *device) {
    pfi_clear_error();
    if (ptr == NULL || mem == NULL || device == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pointer_memory: %s is NULL",
                        ptr == NULL ? "ptr" : mem == NULL ? "mem" : "device");
    if (bytes > UINTPTR_MAX - (uintptr_t)ptr)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pointer_memory: ptr + bytes (%zu) wraps around", bytes);
    owner_of(ptr, mem, device);
    if (bytes > 1) {
        pf_mem lm;
        int32_t ld;
        owner_of((const char *)ptr + bytes - 1, &lm, &ld);
        if (lm != *mem || ld != *device)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "pf_pointer_memory: the %zu bytes at ptr are not memory of one owner (the first is %s "
                            "device %d, the last %s device %d)",
                            bytes, pfi_kind_label(pfi_kind_of_mem(*mem)), (int)*device,
                            pfi_kind_label(pfi_kind_of_mem(lm)), (int)ld);
    }
    return PF_OK;
}

/* Backend and stream handle for a copy on stream s. */
static void copy_backend(pf_stream *s, void *dst, const void *src, const pfi_backend **be, int *dev, void **impl,
                         bool *sync) {
    *sync = false;
    if (s != NULL && s->be != NULL && s->kind != PF_DEVICE_CPU) {
        *be = s->be;
        *dev = s->device;
        *impl = s->impl;
        return;
    }
    /* NULL or CPU stream: synchronous. Plain memory copies unless a pointer
     * is device memory; then the legacy default stream of THAT pointer's
     * device, and a wait (device 0 regardless would create a context on a
     * GPU the caller may not use, and make it the thread's current one) */
    *impl = NULL;
    *dev = 0;
    *be = pfi_backend_get(PF_DEVICE_CPU);
    for (int k = PF_DEVICE_CUDA; k < PFI_DEVICE_KINDS; k++) {
        const pfi_backend *dbe = pfi_backend_get((pf_device_kind)k);
        if (!pfi_kind_in_use((pf_device_kind)k) || dbe == NULL || dbe->ptr_device == NULL) continue;
        int d = dbe->ptr_device(dst);
        if (d < 0) d = dbe->ptr_device(src);
        if (d >= 0) {
            *be = dbe;
            *dev = d;
            *sync = true;
            return;
        }
    }
}

static pf_status copy2d(const char *fn, pf_stream *s, void *dst, size_t dpitch, const void *src, size_t spitch,
                        size_t wb, size_t h) {
    const pfi_backend *be;
    int dev;
    void *impl;
    bool sync;
    copy_backend(s, dst, src, &be, &dev, &impl, &sync);
    pf_status st = be->copy_2d(dev, impl, dst, dpitch, src, spitch, wb, h);
    if (st == PF_OK && sync) st = be->stream_synchronize(dev, impl);
    if (st != PF_OK) return pfi_fail_in(fn, st);
    if (s != NULL) pfi_stream_note_op(s, fn);
    return PF_OK;
}

pf_status pf_memcpy_async(pf_stream *s, void *dst, const void *src, size_t bytes) {
    pfi_clear_error();
    if (bytes == 0) return PF_OK;
    if (dst == NULL || src == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_memcpy_async: %s is NULL", dst ? "src" : "dst");
    return copy2d("pf_memcpy_async", s, dst, bytes, src, bytes, bytes, 1);
}

pf_status pf_memcpy2d_async(pf_stream *s, void *dst, size_t dst_pitch, const void *src, size_t src_pitch,
                            size_t width_bytes, size_t height) {
    pfi_clear_error();
    if (width_bytes == 0 || height == 0) return PF_OK;
    if (dst == NULL || src == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_memcpy2d_async: %s is NULL", dst ? "src" : "dst");
    if (dst_pitch < width_bytes || src_pitch < width_bytes)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_memcpy2d_async: %s (%zu) is smaller than width_bytes (%zu)",
                        dst_pitch < width_bytes ? "dst_pitch" : "src_pitch",
                        dst_pitch < width_bytes ? dst_pitch : src_pitch, width_bytes);
    return copy2d("pf_memcpy2d_async", s, dst, dst_pitch, src, src_pitch, width_bytes, height);
}

/* One 2D copy per plane; negative row strides are copied row by row (a 2D
 * copy needs positive pitches). */
static pf_status copy_plane(const char *fn, pf_stream *s, char *d, ptrdiff_t ds, const char *p, ptrdiff_t ps,
                            size_t wb, int32_t h) {
    if (ds > 0 && ps > 0) return copy2d(fn, s, d, (size_t)ds, p, (size_t)ps, wb, (size_t)h);
    for (int32_t y = 0; y < h; y++) {
        pf_status st = copy2d(fn, s, d + (ptrdiff_t)y * ds, wb, p + (ptrdiff_t)y * ps, wb, wb, 1);
        if (st != PF_OK) return st;
    }
    return PF_OK;
}

pf_status pf_image_copy_async(pf_stream *s, const pf_image *src, const pf_image *dst) {
    pfi_clear_error();
    const char *fn = "pf_image_copy_async";
    if (src == NULL || dst == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, src ? "dst" : "src");
    pf_status st = pf_image_validate(src, "src");
    if (st == PF_OK) st = pf_image_validate(dst, "dst");
    if (st != PF_OK) return st;
    if (src->width != dst->width || src->height != dst->height || src->channels != dst->channels ||
        src->dtype != dst->dtype || src->layout != dst->layout)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: dst (%dx%d, %d ch, %s) differs from src (%dx%d, %d ch, %s) in shape, dtype or layout",
                        fn, dst->width, dst->height, dst->channels, pf_dtype_name(dst->dtype), src->width,
                        src->height, src->channels, pf_dtype_name(src->dtype));
    size_t es = pf_dtype_size(src->dtype);
    int planes = src->layout == PF_CHW ? src->channels : 1;
    size_t wb = (size_t)src->width * es * (size_t)(src->layout == PF_CHW ? 1 : src->channels);
    for (int c = 0; c < planes; c++) {
        st = copy_plane(fn, s, (char *)dst->data + (ptrdiff_t)c * dst->plane_stride, dst->row_stride,
                        (const char *)src->data + (ptrdiff_t)c * src->plane_stride, src->row_stride, wb, src->height);
        if (st != PF_OK) return st;
    }
    return PF_OK;
}

pf_status pf_tensor_copy_async(pf_stream *s, const pf_tensor *src, const pf_tensor *dst) {
    pfi_clear_error();
    const char *fn = "pf_tensor_copy_async";
    if (src == NULL || dst == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, src ? "dst" : "src");
    pf_status st = pf_tensor_validate(src, "src");
    if (st == PF_OK) st = pf_tensor_validate(dst, "dst");
    if (st != PF_OK) return st;
    if (src->n != dst->n || src->channels != dst->channels || src->height != dst->height ||
        src->width != dst->width || src->dtype != dst->dtype || src->layout != dst->layout)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst differs from src in shape, dtype or layout", fn);
    size_t es = pf_dtype_size(src->dtype);
    /* whole tensor in one copy when both are packed the same way */
    size_t packed = pf_tensor_packed_size(src->n, src->channels, src->height, src->width, src->dtype);
    if (src->sample_stride == dst->sample_stride && src->row_stride == dst->row_stride &&
        src->plane_stride == dst->plane_stride && src->sample_stride > 0 &&
        (size_t)src->sample_stride * (size_t)src->n == packed)
        return copy2d(fn, s, dst->data, packed, src->data, packed, packed, 1);
    size_t wb = (size_t)src->width * es * (size_t)(src->layout == PF_CHW ? 1 : src->channels);
    int planes = src->layout == PF_CHW ? src->channels : 1;
    for (int32_t n = 0; n < src->n; n++)
        for (int c = 0; c < planes; c++) {
            ptrdiff_t so = (ptrdiff_t)n * src->sample_stride + (ptrdiff_t)c * src->plane_stride;
            ptrdiff_t d0 = (ptrdiff_t)n * dst->sample_stride + (ptrdiff_t)c * dst->plane_stride;
            st = copy_plane(fn, s, (char *)dst->data + d0, dst->row_stride, (const char *)src->data + so,
                            src->row_stride, wb, src->height);
            if (st != PF_OK) return st;
        }
    return PF_OK;
}
