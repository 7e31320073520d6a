/*
 * Job builder of the GPU fused preprocess. Each sample's geometry (crop,
 * letterbox rectangle, composed affine matrix), sampler and colour chain
 * are the plan's decisions (pfi_pp_sample_of, augment/preprocess_plan.h),
 * which the CPU backend executes too; the warp's border values and the
 * normalization tables are the plan's (pfi_pp_warp_opts, plan->lut); the
 * brightness and gamma tables are the per-value functions the CPU ops'
 * u8 tables are made of (kernels/photo_math.h) on the 256 u8 values, so
 * device and host compute the same function by construction.
 */
#include <string.h>

#include "core/error.h"
#include "augment/preprocess_plan.h"
#include "gpu/preprocess_jobs.h"
#include "gpu/resize_jobs.h"
#include "gpu/warp_jobs.h"
#include "kernels/photo_math.h"

#define OP PFI_PP_OP

static pf_aug_params params_at(const pf_aug_params params[], int i) {
    return params ? params[i] : pf_aug_params_identity();
}

static pf_resize_opts resize_opts(const pf_preprocess_plan *plan) {
    pf_resize_opts ro = pf_resize_opts_defaults();
    ro.interp = plan->d.interp;
    ro.antialias = plan->d.antialias;
    ro.flavor = plan->d.flavor;
    return ro;
}

size_t pfi_gpu_preprocess_batch_bytes(const pf_preprocess_plan *plan, int count) {
    return pfi_arena_round(sizeof(pfk_pp_batch)) + pfi_arena_round(sizeof plan->lut) +
           pfi_arena_round((size_t)count * sizeof(pfk_pp_job));
}

size_t pfi_gpu_preprocess_sample_bytes(const pf_preprocess_plan *plan, const pf_image *src, const pf_aug_params *p) {
    /* brightness + gamma tables, the contrast sum */
    size_t b = 2 * pfi_arena_round(256) + pfi_arena_round(sizeof(uint64_t));
    if (p->affine) return b; /* the warp stages nothing */
    pfi_pp_geom g;
    pfi_pp_geometry(plan, src, p, &g);
    pf_image crop = *src;
    crop.width = g.cw;
    crop.height = g.ch;
    pf_resize_opts ro = resize_opts(plan);
    if (g.win.rw > 0) /* the window's tables; the scale is the full resize's */
        return b + pfi_gpu_resize_job_bytes_win(&crop, g.rw, g.rh, g.win.rw, g.win.rh, &ro);
    return b + pfi_gpu_resize_job_bytes(&crop, g.rw, g.rh, &ro);
}

size_t pfi_gpu_preprocess_bytes(const pf_preprocess_plan *plan, int count, const pf_image src[],
                                const pf_aug_params params[], size_t *scratch_bytes) {
    size_t b = pfi_gpu_preprocess_batch_bytes(plan, count);
    for (int i = 0; i < count; i++) {
        pf_aug_params p = params_at(params, i);
        b += pfi_gpu_preprocess_sample_bytes(plan, &src[i], &p);
    }
    *scratch_bytes = 0;
    return b;
}

/* A 256-entry u8 -> u8 table of a channel-wise op with parameter v. */
typedef void (*table_fill)(uint8_t t[256], double v);

/* pf_adjust_brightness(factor v) and pf_adjust_gamma(gamma v, no gain) on
 * u8, as the CPU op converts its parameter (cpu/photo_lut_cpu.c). */
static void bright_fill(uint8_t t[256], double v) {
    float f = (float)v;
    for (int k = 0; k < 256; k++) t[k] = pfk_brightness_u8((uint8_t)k, f);
}
static void gamma_fill(uint8_t t[256], double v) {
    for (int k = 0; k < 256; k++) t[k] = pfk_unit_to_u8(pfk_gamma_unit(pfk_u8_to_unit((uint8_t)k), v, 0, 1.0f));
}

static pf_status op_table(pfi_arena *a, table_fill fill, double v, const uint8_t **dev) {
    void *d;
    uint8_t *h = pfi_arena_take(a, 256, 64, &d);
    if (h == NULL) return pfi_fail(PF_ERR_INTERNAL, OP ": GPU parameter arena too small (table)");
    fill(h, v);
    *dev = d;
    return PF_OK;
}

/* Fills sample i's canvas sampler, as s chose it. */
static pf_status fill_sampler(pfi_arena *a, const pf_preprocess_plan *plan, const pf_image *src,
                              const pfi_pp_sample *s, pfk_pp_job *j) {
    const pfi_pp_geom *g = &s->g;
    pf_image roi;
    pf_status st = pf_image_roi(src, g->cx, g->cy, g->cw, g->ch, &roi);
    if (st != PF_OK) return st;
    j->sampler = s->sampler;
    if (s->sampler == PFK_PP_COPY) {
        j->src = roi.data;
        j->src_stride = roi.row_stride;
        return PF_OK;
    }
    if (s->sampler == PFK_PP_WARP) { /* crop -> the whole output through the composed inverse matrix */
        pf_warp_opts wo = pfi_pp_warp_opts(plan, src->channels);
        return pfi_gpu_warp_job_fill(a, &roi, g->rw, g->rh, g->m, 0, &wo, &j->geo.warp);
    }
    pf_resize_opts ro = resize_opts(plan);
    return pfi_gpu_resize_job_fill(a, &roi, g->rw, g->rh, &ro, g->win.rw > 0 ? &g->win : NULL, &j->geo.resize);
}

/* Sample i's colour chain, as s decided it. */
static pf_status fill_colour(pfi_arena *a, const pfi_pp_sample *s, const pf_aug_params *p, pfk_pp_job *j) {
    pf_status st;
    j->swap_first = s->swap_first;
    j->contrast_at = -1;
    for (int k = 0; k < 4; k++) {
        j->ops[k] = s->ops[k];
        if (s->ops[k] == PF_JITTER_CONTRAST) j->contrast_at = k;
    }
    if (p->brightness != 1.0f && (st = op_table(a, bright_fill, (double)p->brightness, &j->bright_lut)) != PF_OK)
        return st;
    if (s->gamma && (st = op_table(a, gamma_fill, (double)p->gamma, &j->gamma_lut)) != PF_OK) return st;
    /* the CPU ops' factor conversions: ratio = (float)f, alpha = (float)(1 - f) */
    double f = (double)p->contrast;
    j->con_ratio = (float)f;
    j->con_alpha = (float)(1.0 - f);
    f = (double)p->saturation;
    j->sat_ratio = (float)f;
    j->sat_alpha = (float)(1.0 - f);
    j->hue = (float)(double)p->hue;
    if (j->contrast_at >= 0) {
        void *d;
        uint64_t *h = pfi_arena_take(a, sizeof *h, 8, &d);
        if (h == NULL) return pfi_fail(PF_ERR_INTERNAL, OP ": GPU parameter arena too small (sums)");
        *h = 0;
        j->con_sum = d;
    }
    j->gray3 = s->gray3;
    j->gray1 = s->gray1;
    j->cc = s->cc;
    for (int c = 0; c < 4; c++) j->order[c] = s->order[c];
    return PF_OK;
}

static void fill_output(const pf_preprocess_plan *plan, const pf_tensor *dst, int i, pfk_pp_job *j) {
    pf_image o;
    pf_tensor_views(dst, i, 1, &o); /* validated */
    ptrdiff_t es = (ptrdiff_t)plan->esize;
    j->out = o.data;
    j->out_row = o.row_stride;
    j->out_plane = o.layout == PF_CHW ? o.plane_stride : es;
    j->out_px = o.layout == PF_CHW ? es : es * o.channels;
}

int pfi_gpu_pp_yuv_on_the_fly(const pf_preprocess_plan *plan, const pf_aug_params *p) {
    pf_interp ip = plan->d.interp;
    /* only OpenCV's kinds (the two-tap LINEAR) are read on the fly */
    return !p->affine && !plan->d.antialias && plan->d.flavor == PF_RESIZE_OPENCV &&
           (ip == PF_INTERP_NEAREST || ip == PF_INTERP_NEAREST_EXACT || ip == PF_INTERP_LINEAR);
}

/* Makes sample j read its 4:2:0 frame on the fly; g: its geometry (the
 * crop's origin inside the rectangle). */
static pf_status set_yuv_source(const pfk_yuv_crop_job *f, const pfi_pp_geom *g, int i, pfk_pp_job *j) {
    const pfk_resize_job *r = &j->geo.resize;
    int ok = j->sampler == PFK_PP_COPY ||
             (j->sampler == PFK_PP_RESIZE && r->planes == 1 &&
              (r->kind == PFK_RZ_COPY || r->kind == PFK_RZ_NN ||
               (r->kind == PFK_RZ_SEP && r->vk == PFK_V_U8_LINEAR) ||
               (r->kind == PFK_RZ_AREA_FAST && r->afx == 2 && r->afy == 2)));
    if (!ok)
        return pfi_fail(PF_ERR_INTERNAL, "pf_preprocess_run_yuv: sample %d: sampler %d (resize kind %d) cannot convert "
                        "4:2:0 on the fly", i, (int)j->sampler, (int)r->kind);
    j->yuv_src = 1;
    j->yuv = *f;
    j->yuv.x0 += g->cx;
    j->yuv.y0 += g->cy;
    j->src = NULL; /* nothing reads the (absent) converted rectangle */
    if (j->sampler == PFK_PP_RESIZE) j->geo.resize.src = NULL;
    return PF_OK;
}

pf_status pfi_gpu_preprocess_build(pfi_arena *a, const pf_preprocess_plan *plan, int count, const pf_image src[],
                                   const pf_aug_params params[], const pf_tensor *dst, pf_letterbox_info info[],
                                   const pfk_pp_batch **dev_batch, pfi_grid *grid, pfi_grid *sum_grid, int *cheap) {
    pf_status st = pfi_gpu_preprocess_build_yuv(a, plan, count, src, params, dst, NULL, dev_batch, grid, sum_grid,
                                                cheap);
    if (st == PF_OK && info) /* only once the whole batch is built */
        for (int i = 0; i < count; i++) {
            pf_aug_params p = params_at(params, i);
            pfi_pp_geom g;
            pfi_pp_geometry(plan, &src[i], &p, &g);
            info[i] = g.info;
        }
    return st;
}

pf_status pfi_gpu_preprocess_build_yuv(pfi_arena *a, const pf_preprocess_plan *plan, int count, const pf_image src[],
                                       const pf_aug_params params[], const pf_tensor *dst,
                                       const pfk_yuv_crop_job *const yuv[], const pfk_pp_batch **dev_batch,
                                       pfi_grid *grid, pfi_grid *sum_grid, int *cheap) {
    void *dbatch, *djobs, *dlut;
    pfk_pp_batch *b = pfi_arena_take(a, sizeof *b, 64, &dbatch);
    uint8_t *lut = pfi_arena_take(a, sizeof plan->lut, 64, &dlut);
    pfk_pp_job *jobs = pfi_arena_take(a, (size_t)count * sizeof *jobs, 64, &djobs);
    if (b == NULL || lut == NULL || jobs == NULL)
        return pfi_fail(PF_ERR_INTERNAL, OP ": GPU parameter arena too small (%d samples)", count);
    memset(b, 0, sizeof *b);
    memset(jobs, 0, (size_t)count * sizeof *jobs);
    memcpy(lut, plan->lut, sizeof plan->lut);
    b->count = count;
    b->jobs = djobs;
    b->out_w = plan->d.out_width;
    b->out_h = plan->d.out_height;
    b->out_c = plan->d.out_channels;
    b->esize = (int32_t)plan->esize;
    b->lut = dlut;
    b->lut_row = (int32_t)sizeof plan->lut[0];
    memcpy(b->pad_u8, plan->pad_u8, sizeof b->pad_u8);
    ptrdiff_t es = (ptrdiff_t)plan->esize;
    b->aligned = (uintptr_t)dst->data % (uintptr_t)es == 0 && dst->row_stride % es == 0 &&
                 dst->plane_stride % es == 0 && dst->sample_stride % es == 0;
    sum_grid->w = sum_grid->h = sum_grid->n = 0;
    b->cheap = 1;
    for (int i = 0; i < count; i++) {
        pf_aug_params p = params_at(params, i);
        pfi_pp_sample smp;
        pfi_pp_sample_of(plan, &src[i], &p, &smp);
        const pfi_pp_geom g = smp.g;
        pfk_pp_job *j = &jobs[i];
        j->sc = src[i].channels;
        j->rw = g.rw;
        j->rh = g.rh;
        j->left = g.left;
        j->top = g.top;
        j->flip_h = p.flip_h;
        j->flip_v = p.flip_v;
        pf_status st = fill_sampler(a, plan, &src[i], &smp, j);
        if (st == PF_OK && yuv && yuv[i]) st = set_yuv_source(yuv[i], &g, i, j);
        if (st == PF_OK) st = fill_colour(a, &smp, &p, j);
        if (st != PF_OK) return st;
        b->cheap = b->cheap && pfk_pp_job_cheap(j);
        fill_output(plan, dst, i, j);
        if (j->contrast_at >= 0) {
            sum_grid->n = count;
            if (g.rw > sum_grid->w) sum_grid->w = g.rw;
            if (g.rh > sum_grid->h) sum_grid->h = g.rh;
        }
    }
    if (cheap) *cheap = b->cheap;
    grid->w = plan->d.out_width;
    grid->h = plan->d.out_height;
    grid->n = count;
    *dev_batch = dbatch;
    return PF_OK;
}
