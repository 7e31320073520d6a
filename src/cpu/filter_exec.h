/* Filter kernel family (slots) and the executor's internals.
 * pf_gaussian_blur, pf_box_blur, pf_median_blur, pf_filter_2d, pf_erode,
 * pf_dilate and pf_sharpen all reduce to a plan (src/ops/filter_plan.h)
 * executed band by band (filter_run.c). */
#ifndef PF_CPU_FILTER_EXEC_H
#define PF_CPU_FILTER_EXEC_H

#include <stdatomic.h>
#include <stddef.h>

#include "dispatch/kfamily.h"
#include "ops/filter_plan.h"
#include "pixflow/ops.h"
#include "ref/filter_rows.h"

typedef struct pfi_filter_kernels {
    pfi_hsum_u8_fn hsum_u8;
    pfi_vgauss_u8_fn vgauss_u8;
    pfi_vbox_u8_fn vbox_u8;
    pfi_hmorph_u8_fn hmin_u8, hmax_u8;
    pfi_vmorph_u8_fn vmin_u8, vmax_u8;
    pfi_hconv_f32_fn hconv_f32;
    pfi_vconv_f32_fn vconv_f32;
    pfi_conv2d_u8_fn conv2d_u8;
    pfi_median_u8_fn median3_u8, median5_u8;
    pfi_sharpen_u8_fn sharpen_u8;
    pfi_vgauss16_u8_fn vgauss16_u8;
    pfi_hmorph_u16_fn hmin_u16, hmax_u16;
    pfi_vmorph_u16_fn vmin_u16, vmax_u16;
    pfi_hmorph_f32_fn hmin_f32, hmax_f32;
    pfi_vmorph_f32_fn vmin_f32, vmax_f32;
    pfi_hsum_f32_f64_fn hsum_f32_f64;
    pfi_vbox_f64_f32_fn vbox_f64_f32;
    pfi_conv2d_f32_fn conv2d_f32;
    pfi_sharpen_f32_fn sharpen_f32;
    pfi_hsum_u16_fn hsum_u16;
    pfi_vgauss_u16_fn vgauss_u16;
} pfi_filter_kernels;

extern pfi_kfamily pfi_filter_family;

void pfi_filter_fill_avx2(pfi_filter_kernels *k);
void pfi_filter_fill_avx512(pfi_filter_kernels *k);

/* The executor is pfi_cpu_filter (cpu_kernels.h). */

/* ---- executor internals shared by filter_run.c and filter_morph.c ---- */

typedef struct pfi_filter_job {
    const pf_image *src;
    pf_image *dst;
    const pfi_filter_plan *plans;
    const pfi_filter_kernels *k;
    atomic_int oom; /* a band could not get scratch memory */
} pfi_filter_job;

/* Geometry of one plane of one sample. */
typedef struct pfi_plane_geo {
    int32_t W, H;
    int32_t cn;   /* elements per pixel in a row of this plane */
    int32_t n;    /* elements per row: W * cn */
    size_t esz;   /* element bytes */
    int is_u8;
    pf_dtype dt;
} pfi_plane_geo;

/* The constant border pixel of plane `plane` as dtype bytes (cn elements). */
void pfi_filter_border_pixel(const pfi_filter_plan *p, const pfi_plane_geo *g, int plane, uint8_t *px);

/* Erode / dilate of integer images (u8, u16) on rows [y0, y1): vertical
 * min / max straight from the source rows first, then horizontal on that
 * one padded row (min / max are associative, so the order does not change
 * results). No ring, no copy of the source. Returns 0, or -1 when scratch
 * memory is missing. */
int pfi_filter_morph_band(const pfi_filter_job *j, const pfi_filter_plan *p, const pfi_plane_geo *g,
                          const pf_image *s, const pf_image *d, int planes, int32_t y0, int32_t y1);

#endif
