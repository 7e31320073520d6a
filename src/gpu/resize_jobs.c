/* GPU resize jobs (see resize_jobs.h). The tables are the CPU plan's
 * (pfi_resize_plan_build: OpenCV, Pillow and torchvision semantics), copied into the
 * arena unchanged, so the device evaluates exactly the CPU's taps. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/error.h"
#include "gpu/gpu_check.h"
#include "gpu/gpu_jobs.h"
#include "gpu/resize_jobs.h"
#include "plan/resize_plan.h"

/* Taps per output along one axis, an upper bound of what the plan
 * builders use: Pillow's support widened by the downscale factor
 * (antialias), OpenCV's area cells (non-integer AREA downscale), else at
 * most 8 (LANCZOS4). */
static size_t taps_bound(int32_t in, int32_t out, pf_interp interp, bool antialias) {
    double s = (double)in / (double)out;
    if (antialias) {
        double support0 = interp == PF_INTERP_AREA ? 0.5
                          : interp == PF_INTERP_CUBIC ? 2.0
                          : interp == PF_INTERP_LANCZOS4 ? 3.0 : 1.0;
        double k = ceil(support0 * (s < 1.0 ? 1.0 : s)) * 2 + 3; /* +2: float slack */
        double cap = (double)in + 2;
        return (size_t)(k < cap ? k : cap);
    }
    size_t k = 8;
    if (interp == PF_INTERP_AREA) {
        size_t area = (size_t)ceil(s) + 2;
        if (area > k) k = area;
    }
    return k;
}

size_t pfi_gpu_resize_job_bytes(const pf_image *src, int32_t dst_w, int32_t dst_h, const pf_resize_opts *opts) {
    return pfi_gpu_resize_job_bytes_win(src, dst_w, dst_h, dst_w, dst_h, opts);
}

size_t pfi_gpu_resize_job_bytes_win(const pf_image *src, int32_t dst_w, int32_t dst_h, int32_t rw, int32_t rh,
                                    const pf_resize_opts *opts) {
    pf_resize_opts o = opts ? *opts : pf_resize_opts_defaults();
    pfi_resize_canon(&o.flavor, &o.antialias);
    int windowed = rw != dst_w || rh != dst_h;
    if (src->width == dst_w && src->height == dst_h && !windowed) return 0;
    if (o.interp == PF_INTERP_NEAREST || o.interp == PF_INTERP_NEAREST_EXACT || (windowed && src->width == rw &&
                                                                                 src->height == rh))
        return pfi_arena_round((size_t)dst_w * 4) + pfi_arena_round((size_t)dst_h * 4);
    /* per axis: idx (4) + one of int16 / int32 / float weights, and the
     * u8 cubic vertical pass needs int16 and float: 4 takes at most */
    size_t th = (size_t)dst_w * taps_bound(src->width, rw, o.interp, o.antialias);
    size_t tv = (size_t)dst_h * taps_bound(src->height, rh, o.interp, o.antialias);
    return pfi_arena_round(th * 4) + pfi_arena_round(th * 4) + pfi_arena_round(tv * 4) +
           pfi_arena_round(tv * 4) + pfi_arena_round(tv * 2);
}

/* Copies `bytes` of a host table into the arena; *dev gets its device address. */
static pf_status put(pfi_arena *a, const void *table, size_t bytes, const void **dev) {
    void *d = NULL;
    void *h = pfi_arena_take(a, bytes, 16, &d);
    if (h == NULL)
        return pfi_fail(PF_ERR_INTERNAL,
                        "pf_resize: GPU parameter arena too small (%zu of %zu bytes used, %zu more needed); "
                        "this is a pixflow bug",
                        a->used, a->cap, bytes);
    memcpy(h, table, bytes);
    *dev = d;
    return PF_OK;
}

static int32_t type_of(pf_dtype dt) {
    return dt == PF_U8 ? PFK_RZ_T_U8 : dt == PF_U16 ? PFK_RZ_T_U16 : PFK_RZ_T_F32;
}

/* Uploads the tables of one plan axis the kinds read. */
static pf_status put_axis(pfi_arena *a, const pfi_axis *ax, int want_i16, int want_i32, int want_f32,
                          const int32_t **idx, const int16_t **icoef, const int32_t **acoef, const float **fcoef) {
    size_t taps = (size_t)ax->n * (size_t)ax->ksize;
    const void *d = NULL;
    pf_status st = put(a, ax->idx, taps * sizeof(int32_t), &d);
    *idx = d;
    if (st == PF_OK && want_i16) { st = put(a, ax->icoef, taps * sizeof(int16_t), &d); *icoef = d; }
    if (st == PF_OK && want_i32) { st = put(a, ax->acoef, taps * sizeof(int32_t), &d); *acoef = d; }
    if (st == PF_OK && want_f32) { st = put(a, ax->fcoef, taps * sizeof(float), &d); *fcoef = d; }
    return st;
}

/* The source view's fields of a job (everything else is the plan's). */
static void set_src(pfk_resize_job *job, const pf_image *src) {
    job->src = (const uint8_t *)src->data;
    job->src_row = src->row_stride;
    job->src_plane = pfi_gpu_plane_stride(src);
    job->src_aligned = pfi_gpu_view_aligned(src); /* plain typed loads */
}

pf_status pfi_gpu_resize_job_fill(pfi_arena *a, const pf_image *src, int32_t dst_w, int32_t dst_h,
                                  const pf_resize_opts *opts, const pfi_rz_window *win, pfk_resize_job *job) {
    pf_resize_opts o = opts ? *opts : pf_resize_opts_defaults();
    pfi_resize_canon(&o.flavor, &o.antialias);
    memset(job, 0, sizeof *job);
    set_src(job, src);
    job->sw = src->width;
    job->sh = src->height;
    job->dw = dst_w;
    job->dh = dst_h;
    job->planes = pfi_gpu_planes(src);
    job->cn = pfi_gpu_plane_cn(src);
    job->type = type_of(src->dtype);

    pfi_resize_plan p;
    int windowed = win != NULL && win->rw > 0;
    pf_status st = pfi_resize_plan_build(&p, src->width, src->height, windowed ? win->rw : dst_w,
                                         windowed ? win->rh : dst_h, job->cn, src->dtype, o.interp, o.flavor,
                                         o.antialias);
    if (st == PF_OK && windowed) st = pfi_resize_plan_window(&p, win->wx, win->wy, dst_w, dst_h);
    if (st != PF_OK) {
        pfi_resize_plan_free(&p);
        return st;
    }
    job->kind = (int32_t)p.kind;
    job->vsplit = p.vsplit;
    const void *d = NULL;
    switch (p.kind) {
    case PFK_RZ_COPY:
        break;
    case PFK_RZ_NN:
        st = put(a, p.nn_x, (size_t)dst_w * sizeof(int32_t), &d);
        job->nn_x = d;
        if (st == PF_OK) st = put(a, p.nn_y, (size_t)dst_h * sizeof(int32_t), &d);
        job->nn_y = d;
        break;
    case PFK_RZ_AREA_FAST:
        job->afx = p.afx;
        job->afy = p.afy;
        break;
    case PFK_RZ_SEP: {
        job->hk = (int32_t)p.hk;
        job->vk = (int32_t)p.vk;
        job->kh = p.h.ksize;
        job->kv = p.v.ksize;
        job->h_shift = p.h.shift;
        job->v_shift = p.v.shift;
        int h_i16 = p.hk == PFK_H_U8_I32 || p.hk == PFK_H_U8_LIN16 || p.hk == PFK_H_TV_U8;
        st = put_axis(a, &p.h, h_i16, p.hk == PFK_H_AA_U8, p.hk == PFK_H_F32, &job->h_idx, &job->h_icoef,
                      &job->h_acoef, &job->h_fcoef);
        int v_i16 = p.vk == PFK_V_U8_LINEAR || p.vk == PFK_V_U8_FIX22 || p.vk == PFK_V_U8_CUBIC ||
                    p.vk == PFK_V_TV_U8;
        int v_f32 = p.vk == PFK_V_F32 || p.vk == PFK_V_U8_CUBIC;
        if (st == PF_OK)
            st = put_axis(a, &p.v, v_i16, p.vk == PFK_V_AA_U8, v_f32, &job->v_idx, &job->v_icoef, &job->v_acoef,
                          &job->v_fcoef);
        break;
    }
    }
    pfi_resize_plan_free(&p);
    return st;
}

void pfi_gpu_resize_job_set_dst(pfk_resize_job *job, const pf_image *dst) {
    job->dst = (uint8_t *)dst->data;
    job->dst_row = dst->row_stride;
    job->dst_plane = pfi_gpu_plane_stride(dst);
    job->dst_aligned = pfi_gpu_view_aligned(dst);
}

/* How far back a sample looks for one of its shape (bounds the search
 * in long varshape batches). */
#define SHARE_WINDOW 64

/* Same plan and job shape: sizes, dtype, channels, planar or not. */
static int same_plan(const pf_image *s0, const pf_image *d0, const pf_image *s1, const pf_image *d1) {
    int p0 = pfi_gpu_planar(s0), p1 = pfi_gpu_planar(s1);
    return s0->width == s1->width && s0->height == s1->height && d0->width == d1->width &&
           d0->height == d1->height && s0->dtype == s1->dtype && s0->channels == s1->channels && p0 == p1;
}

/* The earlier sample whose tables sample i reuses, or -1. */
static int shared_with(const pf_image src[], const pf_image dst[], int i) {
    for (int k = i - 1; k >= 0 && k >= i - SHARE_WINDOW; k--)
        if (same_plan(&src[k], &dst[k], &src[i], &dst[i])) return k;
    return -1;
}

size_t pfi_gpu_resize_bytes(int count, const pf_image src[], const pf_image dst[], const pf_resize_opts *opts,
                            size_t *scratch_bytes) {
    size_t n = pfi_arena_round(sizeof(pfk_resize_batch)) +
               pfi_arena_round(sizeof(pfk_resize_job) * (size_t)(count > 0 ? count : 0));
    for (int i = 0; i < count; i++)
        if (shared_with(src, dst, i) < 0) n += pfi_gpu_resize_job_bytes(&src[i], dst[i].width, dst[i].height, opts);
    if (scratch_bytes != NULL) *scratch_bytes = 0;
    return n;
}

pf_status pfi_gpu_resize_build(pfi_arena *a, int count, const pf_image src[], const pf_image dst[],
                               const pf_resize_opts *opts, const pfk_resize_batch **dev_batch, pfi_grid *grid) {
    void *batch_dev = NULL, *jobs_dev = NULL;
    pfk_resize_batch *batch = pfi_arena_take(a, sizeof *batch, 16, &batch_dev);
    pfk_resize_job *jobs = pfi_arena_take(a, sizeof *jobs * (size_t)count, 16, &jobs_dev);
    if (batch == NULL || jobs == NULL)
        return pfi_fail(PF_ERR_INTERNAL, "pf_resize: GPU parameter arena too small for %d jobs; this is a pixflow bug",
                        count);
    batch->count = count;
    batch->jobs = jobs_dev;
    pfi_grid g = {0, 0, count};
    for (int i = 0; i < count; i++) {
        /* samples of one shape (the usual fixed-size batch) share the
         * tables of the first: one plan per shape, not per sample */
        int same = shared_with(src, dst, i);
        if (same >= 0) {
            jobs[i] = jobs[same];
            set_src(&jobs[i], &src[i]);
        } else {
            pf_status st = pfi_gpu_resize_job_fill(a, &src[i], dst[i].width, dst[i].height, opts, NULL, &jobs[i]);
            if (st != PF_OK) return st;
        }
        pfi_gpu_resize_job_set_dst(&jobs[i], &dst[i]);
        if (dst[i].width > g.w) g.w = dst[i].width;
        if (dst[i].height > g.h) g.h = dst[i].height;
    }
    *dev_batch = batch_dev;
    *grid = g;
    return PF_OK;
}
