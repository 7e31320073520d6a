/* Filter kernel family (slots) and the executor's internals.
 * pf_gaussian_blur, pf_box_blur, pf_median_blur, pf_filter_2d, pf_erode,
 * pf_dilate and pf_sharpen all reduce to a plan (src/ops/filter_plan.h)
 * executed band by band (filter_run.c). */
#ifndef PF_CPU_FILTER_EXEC_H
#define PF_CPU_FILTER_EXEC_H

#include <stdatomic.h>
#include <stddef.h>

#include "cpu/kfamily.h"
#include "ops/filter_plan.h"
#include "pixflow/ops.h"
#include "ref/filter_rows.h"

enum {
    PFI_FILTER_HSUM_U8 = 0, PFI_FILTER_VGAUSS_U8, PFI_FILTER_VBOX_U8,
    PFI_FILTER_HMIN_U8, PFI_FILTER_HMAX_U8, PFI_FILTER_VMIN_U8, PFI_FILTER_VMAX_U8,
    PFI_FILTER_HCONV_F32, PFI_FILTER_VCONV_F32, PFI_FILTER_CONV2D_U8,
    PFI_FILTER_MEDIAN3_U8, PFI_FILTER_MEDIAN5_U8, PFI_FILTER_SHARPEN_U8, PFI_FILTER_VGAUSS16_U8,
    PFI_FILTER_HMIN_U16, PFI_FILTER_HMAX_U16, PFI_FILTER_VMIN_U16, PFI_FILTER_VMAX_U16,
    PFI_FILTER_HMIN_F32, PFI_FILTER_HMAX_F32, PFI_FILTER_VMIN_F32, PFI_FILTER_VMAX_F32,
    PFI_FILTER_HSUM_F32_F64, PFI_FILTER_VBOX_F64_F32, PFI_FILTER_CONV2D_F32, PFI_FILTER_SHARPEN_F32,
    PFI_FILTER_HSUM_U16, PFI_FILTER_VGAUSS_U16,
    PFI_FILTER_SLOTS
};

extern pfi_kfamily pfi_filter_family;

void pfi_filter_fill_avx2(pfi_kfn *slots);
void pfi_filter_fill_avx512(pfi_kfn *slots);

/* The executor is pfi_cpu_filter (cpu_kernels.h). */

/* ---- executor internals shared by filter_run.c and filter_morph.c ---- */

typedef struct pfi_filter_job {
    const pf_image *src;
    pf_image *dst;
    const pfi_filter_plan *plans;
    const pfi_ktable *k;
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
