/*
 * Job builder of the GPU fused preprocess of 4:2:0 frames. Everything
 * geometric is the CPU path's: the plan's geometry of the frame-sized
 * shape, the even-widened rectangle (pfi_pp_yuv_rect), the crop shifted
 * into it (as src/cpu/preprocess_yuv_cpu.c's `local` geometry), the
 * code's meaning (pfi_yuv_decode_code) and the coefficient tables
 * (pfi_yuv_coeffs).
 * Per sample: cheap samplers (pfi_gpu_pp_yuv_on_the_fly) convert their
 * taps inside the preprocess kernel (no scratch, no conversion pass); the
 * others get their rectangle converted into scratch first. A batch of
 * only cheap samples is one launch (two with contrast).
 */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "augment/preprocess_plan.h"
#include "ops/yuv_code.h"
#include "plan/yuv_coeffs.h"
#include "gpu/preprocess_jobs.h"
#include "gpu/preprocess_yuv_jobs.h"

#define OP "pf_preprocess_run_yuv"

/* Sample i as the image path sees it: the decoded rectangle (w x h x cn at
 * `pixels`, a device address; NULL while sizing) and the params with the
 * crop made explicit and relative to it. */
typedef struct yuv_sample {
    pfi_yuv_code code;
    int32_t x0, y0, w, h;
    pf_image img;
    pf_aug_params p;
    pf_letterbox_info info;
} yuv_sample;

static void sample_of(const pf_preprocess_plan *plan, const pf_yuv *f, pf_color_code code,
                      const pf_aug_params *params, int i, yuv_sample *s) {
    pfi_yuv_decode_code(code, &s->code); /* validated */
    int32_t W = f->y.width, H = f->y.height;
    pf_image shape = pf_image_hwc(f->y.data, W, H, s->code.cn, PF_U8, 0);
    s->p = params ? params[i] : pf_aug_params_identity();
    pfi_pp_geom g;
    pfi_pp_geometry(plan, &shape, &s->p, &g);
    s->info = g.info;
    int32_t x1, y1;
    pfi_pp_yuv_rect(&g, &s->x0, &s->y0, &x1, &y1);
    s->w = x1 - s->x0;
    s->h = y1 - s->y0;
    s->p.crop_x = g.cx - s->x0;
    s->p.crop_y = g.cy - s->y0;
    s->p.crop_w = g.cw;
    s->p.crop_h = g.ch;
    s->img = pf_image_hwc(NULL, s->w, s->h, s->code.cn, PF_U8, 0);
}

size_t pfi_gpu_preprocess_yuv_bytes(const pf_preprocess_plan *plan, int count, const pf_yuv src[],
                                    const pf_color_code codes[], const pf_aug_params params[],
                                    size_t *scratch_bytes) {
    size_t b = pfi_arena_round(sizeof(pfk_yuv_crop_batch)) +
               pfi_arena_round((size_t)count * sizeof(pfk_yuv_crop_job)) +
               pfi_gpu_preprocess_batch_bytes(plan, count);
    size_t sb = 0;
    for (int i = 0; i < count; i++) {
        yuv_sample s;
        sample_of(plan, &src[i], codes[i], params, i, &s);
        if (!pfi_gpu_pp_yuv_on_the_fly(plan, &s.p)) sb += pfi_arena_round((size_t)s.w * (size_t)s.h * (size_t)s.code.cn);
        b += pfi_gpu_preprocess_sample_bytes(plan, &s.img, &s.p);
    }
    *scratch_bytes = sb;
    return b;
}

pf_status pfi_gpu_preprocess_yuv_build(pfi_arena *a, const pf_preprocess_plan *plan, int count, const pf_yuv src[],
                                       const pf_color_code codes[], const pf_color_opts opts[],
                                       const pf_aug_params params[], const pf_tensor *dst, pf_letterbox_info info[],
                                       const pfk_yuv_crop_batch **yuv_batch, pfi_grid *yuv_grid,
                                       const pfk_pp_batch **pp_batch, pfi_grid *grid, pfi_grid *sum_grid,
                                       int *cheap) {
    void *dbatch, *djobs;
    pfk_yuv_crop_batch *b = pfi_arena_take(a, sizeof *b, 64, &dbatch);
    pfk_yuv_crop_job *jobs = pfi_arena_take(a, (size_t)count * sizeof *jobs, 64, &djobs);
    if (b == NULL || jobs == NULL)
        return pfi_fail(PF_ERR_INTERNAL, OP ": GPU parameter arena too small (%d samples)", count);
    memset(jobs, 0, (size_t)count * sizeof *jobs);
    b->count = count;
    b->jobs = djobs;
    yuv_sample *ss = malloc((size_t)count * sizeof *ss);
    pf_image *imgs = malloc((size_t)count * sizeof *imgs);
    pf_aug_params *ps = malloc((size_t)count * sizeof *ps);
    const pfk_yuv_crop_job **otf = malloc((size_t)count * sizeof *otf);
    pf_status st = PF_OK;
    if (ss == NULL || imgs == NULL || ps == NULL || otf == NULL) {
        st = pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": out of memory for %d samples", count);
        goto done;
    }
    yuv_grid->w = yuv_grid->h = 0;
    yuv_grid->n = count;
    for (int i = 0; i < count; i++) {
        yuv_sample *s = &ss[i];
        const pf_yuv *f = &src[i];
        sample_of(plan, f, codes[i], params, i, s);
        int on_the_fly = pfi_gpu_pp_yuv_on_the_fly(plan, &s->p);
        uint8_t *px = NULL;
        if (on_the_fly) {
            /* no converted rectangle: the preprocess converts its taps. The
             * view only carries the shape; its address (the luma plane's)
             * goes into no job (pfi_gpu_preprocess_build_yuv clears it). */
            px = (uint8_t *)f->y.data;
            s->img.row_stride = f->y.row_stride > (ptrdiff_t)s->w * s->code.cn ? f->y.row_stride
                                                                                 : (ptrdiff_t)s->w * s->code.cn;
        } else if ((px = pfi_arena_scratch(a, (size_t)s->w * (size_t)s->h * (size_t)s->code.cn, 256)) == NULL) {
            st = pfi_fail(PF_ERR_INTERNAL, OP ": GPU scratch too small (sample %d)", i);
            goto done;
        }
        s->img.data = px;
        s->img.mem = f->y.mem;
        s->img.device = f->y.device;
        imgs[i] = s->img;
        ps[i] = s->p;
        pfk_yuv_crop_job *j = &jobs[i];
        j->kind = (int32_t)s->code.kind;
        j->blue_first = s->code.blue_first;
        j->swap_uv = s->code.swap_uv;
        j->x0 = s->x0;
        j->y0 = s->y0;
        j->w = on_the_fly ? 0 : s->w; /* 0: the conversion pass skips it */
        j->h = on_the_fly ? 0 : s->h;
        j->y = f->y.data;
        j->ys = f->y.row_stride;
        if (j->kind == PFK_YUV_FRAME_SP) {
            j->c0 = f->uv.data;
            j->c0s = f->uv.row_stride;
        } else if (j->kind == PFK_YUV_FRAME_PLANAR) {
            j->c0 = f->u.data;
            j->c0s = f->u.row_stride;
            j->c1 = f->v.data;
            j->c1s = f->v.row_stride;
        }
        j->out = px;
        j->out_stride = (ptrdiff_t)s->w * s->code.cn;
        const pf_color_opts *o = opts ? &opts[i] : NULL;
        j->k = *pfi_yuv_coeffs(o ? (int)o->yuv_matrix : (int)PF_YUV_BT601, o ? (int)o->yuv_range : (int)PF_YUV_LIMITED);
        otf[i] = on_the_fly ? j : NULL; /* the preprocess job copies the frame description */
        if (j->w > yuv_grid->w) yuv_grid->w = j->w;
        if (j->h > yuv_grid->h) yuv_grid->h = j->h;
    }
    st = pfi_gpu_preprocess_build_yuv(a, plan, count, imgs, ps, dst, otf, pp_batch, grid, sum_grid, cheap);
    if (st == PF_OK) {
        *yuv_batch = dbatch;
        if (info)
            for (int i = 0; i < count; i++) info[i] = ss[i].info;
    }
done:
    free(ss);
    free(imgs);
    free(ps);
    free(otf);
    return st;
}
