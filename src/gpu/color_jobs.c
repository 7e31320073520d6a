/* pf_cvt_color GPU jobs: the decoded code (shared with the CPU path,
 * src/ops/color_code.c), OpenCV's u8 HSV tables (the CPU reference's, copied into
 * the arena) and one job per sample. */
#include "gpu/color_jobs.h"

#include <string.h>

#include "core/error.h"
#include "gpu/gpu_jobs.h"
#include "ops/color_code.h"
#include "plan/hsv_tables.h"
#include "ref/color_rows.h"

size_t pfi_gpu_color_bytes(int count, size_t *scratch_bytes) {
    *scratch_bytes = 0;
    return pfi_arena_round(sizeof(pfk_color_batch)) + pfi_arena_round(2 * 256 * sizeof(int32_t)) +
           pfi_arena_round((size_t)count * sizeof(pfk_color_job));
}

pf_status pfi_gpu_color_build(pfi_arena *a, int count, const pf_image src[], const pf_image dst[],
                              pf_color_code code, const pfk_color_batch **dev_batch, pfi_grid *grid) {
    pfi_color_code_info ci;
    if (count < 1 || !pfi_color_decode((int)code, &ci))
        return pfi_fail(PF_ERR_INTERNAL, "pf_cvt_color: GPU job builder got code %d", (int)code);
    void *dev_b, *dev_j, *dev_t;
    pfk_color_batch *b = pfi_arena_take(a, sizeof *b, 16, &dev_b);
    int32_t *tables = pfi_arena_take(a, 2 * 256 * sizeof(int32_t), 16, &dev_t);
    pfk_color_job *jobs = pfi_arena_take(a, (size_t)count * sizeof *jobs, 16, &dev_j);
    if (b == NULL || tables == NULL || jobs == NULL)
        return pfi_fail(PF_ERR_INTERNAL, "pf_cvt_color: GPU parameter arena too small for %d samples", count);
    pf_dtype dt = src[0].dtype; /* validated: u8, u16 or f32, the same on both sides */
    memset(b, 0, sizeof *b);
    b->kind = (int32_t)ci.kind;
    b->dtype = dt;
    b->bidx = ci.bidx;
    b->swap = ci.swap;
    b->hrange = dt == PF_F32 ? 360 : ci.hrange_u8;
    /* the CPU reference's expressions (color_ref.c rgb2hsv / hsv2rgb) */
    b->hscale = ci.kind == PFK_COLOR_RGB2HSV ? (float)b->hrange * (1.f / 360.f) : 6.0f / (float)b->hrange;
    b->esize = (int32_t)pf_dtype_size(dt);
    /* the alpha element's bytes first (little-endian: the low bytes) */
    if (dt == PF_U8) {
        b->alpha = 255;
    } else if (dt == PF_U16) {
        b->alpha = 65535;
    } else {
        float v = 1.0f;
        memcpy(&b->alpha, &v, sizeof v);
    }
    const pfi_hsv_tables *t = pfi_hsv_tables_get();
    memcpy(tables, t->sdiv, 256 * sizeof(int32_t));
    memcpy(tables + 256, b->hrange == 180 ? t->hdiv180 : t->hdiv256, 256 * sizeof(int32_t));
    b->sdiv = dev_t;
    b->hdiv = (const int32_t *)dev_t + 256;
    b->count = count;
    b->jobs = dev_j;
    pfi_grid_begin(grid, count);
    for (int i = 0; i < count; i++) {
        pfk_color_job *j = &jobs[i];
        j->src = src[i].data;
        j->dst = dst[i].data;
        j->src_stride = src[i].row_stride;
        j->dst_stride = dst[i].row_stride;
        j->width = src[i].width;
        j->height = src[i].height;
        j->scn = src[i].channels;
        j->dcn = dst[i].channels;
        j->hsv_trunc_px = pfi_hsv2rgb_trunc_px(j->width);
        pfi_grid_cover(grid, j->width, j->height);
    }
    *dev_batch = dev_b;
    return PF_OK;
}
