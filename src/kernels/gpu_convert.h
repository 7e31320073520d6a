/* GPU kernel body of the element map behind pf_convert, pf_reformat and
 * pf_normalize (PF_NORM_MEAN_STD): thread (x, y) of sample n writes the
 * dcn elements of output pixel (x, y), dst channel c from src channel
 * (image pointer + byte steps: HWC, CHW, channel reorder and fill are all
 * pointers and steps, as in the CPU engine src/ref/convert_rows.h), with
 * the reference's arithmetic (src/ref/convert_ref.c pfi_cvt_row_ref and
 * the shared loads/stores of src/kernels/convert_math.h): fmaf for
 * convertTo, fma in double for s32 -> s32, a true f32 division for
 * mean/std. Same bits as the CPU path, NaNs included (pfk_nan_as_x86). */
#ifndef PF_KERNELS_GPU_CONVERT_H
#define PF_KERNELS_GPU_CONVERT_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/convert_math.h"

/* The transform of one sample (the fields of pfi_cvt_xform). */
typedef struct pfk_cvt_xf {
    int32_t kind;
    pf_dtype sdt, ddt;
    int32_t noscale, dbl;
    float alpha, beta;
    double alpha_d, beta_d;
    float scale;
    float mean[4], stdv[4];
    uint8_t fill[4][4]; /* PF_CHANNEL_FILL values in the dst dtype */
} pfk_cvt_xf;

typedef struct pfk_cvt_job {
    /* dst channel c of pixel (x, y): dst[c] + y * dst_stride[c] + x * dst_step[c],
     * read from src[c] likewise (src[c] == NULL: the fill value) */
    const PF_GLOBAL uint8_t *src[4];
    PF_GLOBAL uint8_t *dst[4];
    ptrdiff_t src_stride[4], dst_stride[4];
    int32_t src_step[4], dst_step[4];
    int32_t dcn, width, height;
    pfk_cvt_xf xf;
} pfk_cvt_job;

typedef struct pfk_cvt_batch {
    int32_t count;
    const PF_GLOBAL pfk_cvt_job *jobs;
} pfk_cvt_batch;

PF_HD void pfk_cvt_copy(PF_GLOBAL uint8_t *d, const PF_GLOBAL uint8_t *s, int32_t es) {
    switch (es) {
    case 1: d[0] = s[0]; break;
    case 2:
        *(PF_GLOBAL uint16_t *)(PF_GLOBAL void *)d = *(const PF_GLOBAL uint16_t *)(const PF_GLOBAL void *)s;
        break;
    default:
        *(PF_GLOBAL uint32_t *)(PF_GLOBAL void *)d = *(const PF_GLOBAL uint32_t *)(const PF_GLOBAL void *)s;
        break;
    }
}

/* One element of dst channel c (pfi_cvt_row_ref's loop body). */
PF_HD void pfk_cvt_elem(const PF_GLOBAL pfk_cvt_xf *x, int c, const PF_GLOBAL uint8_t *s, PF_GLOBAL uint8_t *d,
                         int32_t des) {
    if (s == NULL) {
        pfk_cvt_copy(d, x->fill[c], des);
    } else if (x->kind == PFK_CVT_COPY) {
        pfk_cvt_copy(d, s, des);
    } else if (x->kind == PFK_CVT_NORM) {
        float v = pfk_cvt_load_f32(s, x->sdt, 0);
        pfk_cvt_store_f32(d, x->ddt, 0, pfk_nan_as_x86(pfk_norm_mean_std(v, x->scale, x->mean[c], x->stdv[c]), v));
    } else if (x->noscale) {
        if (pfk_dtype_is_int(x->sdt) && pfk_dtype_is_int(x->ddt))
            pfk_cvt_store_int(d, x->ddt, 0, pfk_cvt_load_int(s, x->sdt, 0));
        else
            pfk_cvt_store_f32(d, x->ddt, 0, pfk_cvt_load_f32(s, x->sdt, 0));
    } else if (x->dbl) { /* s32 -> s32 */
        *(PF_GLOBAL int32_t *)(PF_GLOBAL void *)d =
            pfk_cvround_d(fma((double)pfk_cvt_load_int(s, x->sdt, 0), x->alpha_d, x->beta_d));
    } else {
        float v = pfk_cvt_load_f32(s, x->sdt, 0);
        pfk_cvt_store_f32(d, x->ddt, 0, pfk_nan_as_x86(fmaf(v, x->alpha, x->beta), v));
    }
}

PF_HD int32_t pfk_dtype_bytes(pf_dtype dt) {
    return dt == PF_U8 ? 1 : (dt == PF_S32 || dt == PF_F32) ? 4 : 2;
}

PF_HD void pfk_cvt_at(const PF_GLOBAL pfk_cvt_batch *b, int32_t n, int32_t x, int32_t y) {
    const PF_GLOBAL pfk_cvt_job *j = &b->jobs[n];
    if (x >= j->width || y >= j->height) return;
    const int32_t des = pfk_dtype_bytes(j->xf.ddt);
    for (int c = 0; c < j->dcn; c++) {
        PF_GLOBAL uint8_t *d = j->dst[c] + (ptrdiff_t)y * j->dst_stride[c] + (ptrdiff_t)x * j->dst_step[c];
        const PF_GLOBAL uint8_t *s =
            j->src[c] ? j->src[c] + (ptrdiff_t)y * j->src_stride[c] + (ptrdiff_t)x * j->src_step[c] : NULL;
        pfk_cvt_elem(&j->xf, c, s, d, des);
    }
}

#endif
