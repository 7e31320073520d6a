/* One chunk of a batch on one device: samples [a, b) of the batch, with
 * their own (global) params and info entries, into samples a..b-1 of dst.
 * The CPU runs the preprocess straight into the host tensor; a GPU device
 * uploads the chunk's images into one staging block, runs the preprocess
 * into a packed device tensor and downloads it into dst's samples. With
 * dst on a device, that device writes its samples in place and the others
 * go through a host tensor uploaded into dst. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
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

/* Samples [a, b) on GPU device x into `out` (n = b - a samples): a host
 * tensor (downloaded into), or, direct, a tensor on x itself (written in
 * place). */
static pf_status run_gpu(const pfi_hx_job *j, pfi_hx_dev *x, int a, int b, const pf_tensor *out, int direct) {
    int n = b - a;
    pf_mem mem = x->kind == PF_DEVICE_CUDA ? PF_MEM_CUDA : PF_MEM_OPENCL;
    size_t img_bytes = 0;
    for (int i = a; i < b && i < a + 64; ++i)
        img_bytes += round256((size_t)j->src[i].width * (size_t)j->src[i].height * (size_t)j->src[i].channels);
    pf_status s = grow(x, &x->img_buf, &x->img_cap, img_bytes);
    if (s != PF_OK) return s;
    const pf_tensor *t = &j->dst;
    size_t out_bytes = pf_tensor_packed_size(n, t->channels, t->height, t->width, t->dtype);
    pf_tensor dt;
    if (direct) {
        dt = *out;
    } else {
        s = grow(x, &x->out_buf, &x->out_cap, out_bytes);
        if (s != PF_OK) return s;
        dt = t->layout == PF_CHW ? pf_tensor_nchw(x->out_buf, n, t->channels, t->height, t->width, t->dtype)
                                 : pf_tensor_nhwc(x->out_buf, n, t->channels, t->height, t->width, t->dtype);
        dt.mem = mem;
        dt.device = x->index;
    }
    /* the chunk's device views, in groups of 64 on the stack; a group's
     * staging is reused only once the stream is idle */
    pf_image local[64];
    for (int g = 0; g < n; g += 64) {
        int k = n - g < 64 ? n - g : 64;
        size_t off = 0;
        for (int q = 0; q < k; ++q) {
            const pf_image *si = &j->src[a + g + q];
            size_t sz = (size_t)si->width * (size_t)si->height * (size_t)si->channels;
            local[q] = pf_image_hwc((uint8_t *)x->img_buf + off, si->width, si->height, si->channels, PF_U8, 0);
            local[q].mem = mem;
            local[q].device = x->index;
            off += round256(sz);
            if (off > x->img_cap) return pfi_fail(PF_ERR_INTERNAL, "pf_dispatch_run: staging block too small");
            s = pf_image_copy_async(x->stream, si, &local[q]);
            if (s != PF_OK) return s;
            x->b_up += (uint64_t)sz;
        }
        pf_tensor part = slice_of(&dt, g, k);
        s = pf_preprocess_run(pfi_hx_plan_of(x, j->stage), x->stream, k, local, j->params ? j->params + a + g : NULL,
                              &part, j->info ? j->info + a + g : NULL);
        if (s != PF_OK) return s;
        s = pf_stream_synchronize(x->stream);
        if (s != PF_OK) return s;
    }
    if (direct) return PF_OK;
    s = pf_tensor_copy_async(x->stream, &dt, out);
    if (s != PF_OK) return s;
    s = pf_stream_synchronize(x->stream);
    if (s != PF_OK) return s;
    x->b_down += (uint64_t)out_bytes;
    return PF_OK;
}

/* Into a host tensor `out` of n samples, on any device. */
static pf_status run_to_host(const pfi_hx_job *j, pfi_hx_dev *x, int a, int b, const pf_tensor *out) {
    if (x->kind != PF_DEVICE_CPU) return run_gpu(j, x, a, b, out, 0);
    pf_tensor o = *out;
    return pf_preprocess_run(pfi_hx_plan_of(x, j->stage), x->stream, b - a, j->src + a,
                             j->params ? j->params + a : NULL, &o, j->info ? j->info + a : NULL);
}

static pf_status run_plain(pf_dispatch *d, const pfi_hx_job *j, pfi_hx_dev *x, int a, int b) {
    pf_tensor slice = slice_of(&j->dst, a, b - a);
    if (j->dst_dev < 0) return run_to_host(j, x, a, b, &slice);
    if (&d->dev[j->dst_dev] == x) return run_gpu(j, x, a, b, &slice, 1);
    /* dst is another device's: through a host tensor, uploaded on a
     * stream of that device this worker owns */
    const pf_tensor *t = &j->dst;
    int n = b - a;
    size_t bytes = pf_tensor_packed_size(n, t->channels, t->height, t->width, t->dtype);
    if (x->host_cap < bytes) {
        free(x->host_buf);
        x->host_cap = 0;
        x->host_buf = malloc(bytes + bytes / 4);
        if (x->host_buf == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_dispatch_run: out of host staging");
        x->host_cap = bytes + bytes / 4;
    }
    pf_tensor ht = t->layout == PF_CHW ? pf_tensor_nchw(x->host_buf, n, t->channels, t->height, t->width, t->dtype)
                                       : pf_tensor_nhwc(x->host_buf, n, t->channels, t->height, t->width, t->dtype);
    pf_status s = run_to_host(j, x, a, b, &ht);
    if (s != PF_OK) return s;
    if (x->dst_stream == NULL || x->dst_stream_of != j->dst_dev) {
        pf_stream_destroy(x->dst_stream);
        x->dst_stream = NULL;
        s = pf_stream_create(d->dev[j->dst_dev].dev, &x->dst_stream);
        if (s != PF_OK) return s;
        x->dst_stream_of = j->dst_dev;
    }
    s = pf_tensor_copy_async(x->dst_stream, &ht, &slice);
    if (s == PF_OK) s = pf_stream_synchronize(x->dst_stream);
    if (s == PF_OK) x->b_up += (uint64_t)bytes;
    return s;
}

void pfi_hx_warm_up(pf_dispatch *d, const pfi_hx_job *j, pfi_hx_dev *x) {
    /* sample 0 into the job's dst: whichever device runs it in the batch
     * writes the same bytes over it; a failure here shows again in the
     * batch */
    (void)run_plain(d, j, x, 0, 1);
    pfi_clear_error();
}

pf_preprocess_plan *pfi_hx_plan_of(const pfi_hx_dev *x, int stage) {
    return stage == PFI_HX_STAGE_GEOMETRY    ? x->plan_geo
           : stage == PFI_HX_STAGE_GEOMETRY1 ? x->plan_geo1
           : stage == PFI_HX_STAGE_POINTWISE ? x->plan_pt
                                             : x->plan;
}

pf_status pfi_hx_run_chunk(pf_dispatch *d, pfi_hx_dev *x, int a, int b) { return pfi_hx_run_job(d, &d->job, x, a, b); }

pf_status pfi_hx_run_job(pf_dispatch *d, const pfi_hx_job *j, pfi_hx_dev *x, int a, int b) {
    pfi_clear_error();
    pf_status s = run_plain(d, j, x, a, b);
    if (s == PF_OK && x->fail_after >= 0) {
        x->hook_samples += (uint64_t)(b - a);
        if (x->hook_samples > (uint64_t)x->fail_after) {
            x->fail_after = -1;
            s = pfi_fail(PF_ERR_DEVICE, "test failure hook (pf_dispatch_test_hooks) fired after %llu samples",
                         (unsigned long long)x->hook_samples);
        }
    }
    int64_t stage_us = j->stage == PFI_HX_STAGE_WHOLE       ? x->stage_delay_us[0] + x->stage_delay_us[1]
                       : j->stage == PFI_HX_STAGE_POINTWISE ? x->stage_delay_us[PFI_HX_POINTWISE]
                                                            : x->stage_delay_us[PFI_HX_GEOMETRY];
    if (s == PF_OK && x->delay_us + stage_us > 0) {
        int64_t us = (x->delay_us + stage_us) * (int64_t)(b - a);
        struct timespec ts = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000L};
        while (nanosleep(&ts, &ts) != 0) {
        }
    }
    if (s != PF_OK) {
        x->err = s;
        /* the chunk ran as its own call on src + a, params + a: say so, or
         * "params[0]" in the message would name the batch's first sample */
        snprintf(x->errmsg, sizeof x->errmsg, "samples %d..%d (indices below count from sample %d): %s", a, b - 1,
                 a, pf_last_error());
    }
    return s;
}
