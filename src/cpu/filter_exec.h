/* Filter kernel family (slots) and the per-sample plan the executor runs.
 * pf_gaussian_blur, pf_box_blur, pf_median_blur, pf_filter_2d, pf_erode,
 * pf_dilate and pf_sharpen all reduce to a plan (filter_api.c) executed
 * band by band (filter_run.c). */
#ifndef PF_CPU_FILTER_EXEC_H
#define PF_CPU_FILTER_EXEC_H

#include <stdatomic.h>
#include <stddef.h>

#include "cpu/kfamily.h"
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

typedef enum pfi_filter_kind {
    PFI_FK_COPY, PFI_FK_GAUSS, PFI_FK_BOX, PFI_FK_MEDIAN, PFI_FK_CONV2D, PFI_FK_ERODE, PFI_FK_DILATE,
    PFI_FK_SHARPEN
} pfi_filter_kind;

/* Everything one sample needs. Arrays point into `mem` (one allocation
 * owned by the plan, freed by pfi_filter_plan_free). */
typedef struct pfi_filter_plan {
    pfi_filter_kind kind;
    int32_t kx, ky;     /* window */
    int32_t ax, ay;     /* anchor inside the window */
    int border;         /* pf_border (median: REPLICATE) */
    uint16_t *qx, *qy;  /* Gaussian u8: 8.8 taps (reduced by 2^sx, 2^sy when gshift > 0) */
    int32_t gshift;     /* Gaussian u8: > 0 selects the 16-bit vertical pass with this shift */
    float *fx, *fy;     /* Gaussian f32: taps */
    uint32_t *wx, *wy;  /* Gaussian u16: 16.16 taps; box u16: ones (wx) */
    pfi_taps2d taps;    /* filter_2d: non-zero taps */
    float delta;        /* filter_2d */
    double border_value[4]; /* CONSTANT border value per channel (0 except morphology) */
    float f, g;         /* sharpen: factor and 1 - factor */
    void *mem;
} pfi_filter_plan;

void pfi_filter_plan_free(pfi_filter_plan *p);

/* Runs plans[i] on src[i] -> dst[i] for every sample, row-band parallel.
 * Returns PF_OK or PF_ERR_OUT_OF_MEMORY (scratch rows), naming `op`. */
pf_status pfi_filter_run(pf_stream *stream, const char *op, int count, const pf_image *src, pf_image *dst,
                         const pfi_filter_plan *plans);

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
