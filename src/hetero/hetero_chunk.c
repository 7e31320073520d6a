/* One chunk of a batch on one device: samples [a, b) of the batch, with
 * their own (global) params and info entries, into samples a..b-1 of dst.
 * The CPU runs the preprocess straight into the host tensor; a GPU device
 * uploads the chunk's images into one staging block, runs the preprocess
 * into a packed device tensor and downloads it into dst's samples. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "hetero/hetero.h"

double pfi_hx_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static pf_tensor slice_of(const pf_tensor *dst, int a, int n) {
    pf_tensor s = *dst;
    s.data = (uint8_t *)dst->data + (ptrdiff_t)a * dst->sample_stride;
    s.n = n;
    return s;
}

/* Grows a device staging buffer (the stream is idle between chunks). */
static pf_status grow(pfi_hx_dev *x, void **buf, size_t *cap, size_t need) {
    if (*cap >= need) return PF_OK;
    pf_free(x->dev, PF_ALLOC_DEVICE, *buf);
    *buf = NULL;
    *cap = 0;
    size_t want = need + need / 4;
    pf_status s = pf_malloc(x->dev, PF_ALLOC_DEVICE, want, buf);
    if (s != PF_OK) return s;
    *cap = want;
    return PF_OK;
}

static size_t round256(size_t v) { return (v + 255) & ~(size_t)255; }

static pf_status run_gpu(pf_dispatch *d, pfi_hx_dev *x, int a, int b) {
    int n = b - a;
    pf_mem mem = x->kind == PF_DEVICE_CUDA ? PF_MEM_CUDA : PF_MEM_OPENCL;
    size_t img_bytes = 0;
    for (int i = a; i < b; ++i)
        img_bytes += round256((size_t)d->src[i].width * (size_t)d->src[i].height * (size_t)d->src[i].channels);
    pf_status s = grow(x, &x->img_buf, &x->img_cap, img_bytes);
    if (s != PF_OK) return s;
    const pf_tensor *t = &d->dst;
    size_t out_bytes = pf_tensor_packed_size(n, t->channels, t->height, t->width, t->dtype);
    s = grow(x, &x->out_buf, &x->out_cap, out_bytes);
    if (s != PF_OK) return s;
    pf_image local[64];
    size_t off = 0;
    /* The chunk's device views, in groups of 64 on the stack. */
    pf_tensor dt = t->layout == PF_CHW
                       ? pf_tensor_nchw(x->out_buf, n, t->channels, t->height, t->width, t->dtype)
                       : pf_tensor_nhwc(x->out_buf, n, t->channels, t->height, t->width, t->dtype);
    dt.mem = mem;
    dt.device = x->index;
    for (int g = 0; g < n; g += 64) {
        int k = n - g < 64 ? n - g : 64;
        for (int j = 0; j < k; ++j) {
            const pf_image *si = &d->src[a + g + j];
            local[j] = pf_image_hwc((uint8_t *)x->img_buf + off, si->width, si->height, si->channels, PF_U8, 0);
            local[j].mem = mem;
            local[j].device = x->index;
            off += round256((size_t)si->width * (size_t)si->height * (size_t)si->channels);
            s = pf_image_copy_async(x->stream, si, &local[j]);
            if (s != PF_OK) return s;
            x->b_up += (uint64_t)si->width * (uint64_t)si->height * (uint64_t)si->channels;
        }
        pf_tensor part = slice_of(&dt, g, k);
        s = pf_preprocess_run(x->plan, x->stream, k, local, d->params ? d->params + a + g : NULL, &part,
                              d->info ? d->info + a + g : NULL);
        if (s != PF_OK) return s;
        /* the staging of this group is reused only after the stream is idle */
        s = pf_stream_synchronize(x->stream);
        if (s != PF_OK) return s;
        off = 0;
    }
    pf_tensor host = slice_of(t, a, n);
    s = pf_tensor_copy_async(x->stream, &dt, &host);
    if (s != PF_OK) return s;
    s = pf_stream_synchronize(x->stream);
    if (s != PF_OK) return s;
    x->b_down += (uint64_t)out_bytes;
    return PF_OK;
}

static pf_status run_plain(pf_dispatch *d, pfi_hx_dev *x, int a, int b) {
    if (x->kind != PF_DEVICE_CPU) return run_gpu(d, x, a, b);
    pf_tensor slice = slice_of(&d->dst, a, b - a);
    return pf_preprocess_run(x->plan, x->stream, b - a, d->src + a, d->params ? d->params + a : NULL, &slice,
                             d->info ? d->info + a : NULL);
}

void pfi_hx_warm_up(pf_dispatch *d, pfi_hx_dev *x) {
    /* sample 0 into dst: whichever device runs it in the batch writes the
     * same bytes over it; a failure here shows again in the batch */
    (void)run_plain(d, x, 0, 1);
    pfi_clear_error();
}

pf_status pfi_hx_run_chunk(pf_dispatch *d, pfi_hx_dev *x, int a, int b) {
    pfi_clear_error();
    pf_status s = run_plain(d, x, a, b);
    if (s == PF_OK && x->fail_after >= 0) {
        x->hook_samples += (uint64_t)(b - a);
        if (x->hook_samples > (uint64_t)x->fail_after) {
            x->fail_after = -1;
            s = pfi_fail(PF_ERR_DEVICE, "test failure hook (pf_dispatch_test_hooks) fired after %llu samples",
                         (unsigned long long)x->hook_samples);
        }
    }
    if (s == PF_OK && x->delay_us > 0) {
        int64_t us = x->delay_us * (int64_t)(b - a);
        struct timespec ts = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000L};
        while (nanosleep(&ts, &ts) != 0) {
        }
    }
    if (s != PF_OK) {
        x->err = s;
        snprintf(x->errmsg, sizeof x->errmsg, "samples %d..%d: %s", a, b - 1, pf_last_error());
    }
    return s;
}
