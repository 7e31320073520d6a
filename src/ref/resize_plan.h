/* Resize plans: everything about a (src size, dst size, dtype, channels,
 * interp, antialias) resize that does not depend on pixel values. Built
 * once per image by the reference code (resize_tables.c: OpenCV semantics;
 * resize_aa_tables.c: Pillow semantics) and consumed by any executor
 * (CPU scalar/SIMD, CUDA). */
#ifndef PF_REF_RESIZE_PLAN_H
#define PF_REF_RESIZE_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "pixflow/ops.h"

typedef enum pfi_rz_kind {
    PFI_RZ_COPY,      /* same size: plain copy (cv::resize does this too) */
    PFI_RZ_NN,        /* nearest / nearest-exact: xofs + yofs lookups */
    PFI_RZ_AREA_FAST, /* OpenCV integer-factor area average */
    PFI_RZ_SEP        /* separable: horizontal taps into a row cache, then vertical taps */
} pfi_rz_kind;

/* Horizontal pass arithmetic (source row -> buffer row). */
typedef enum pfi_h_kind {
    PFI_H_U8_I32,   /* u8 src, int16 coefs, int32 sums (OpenCV fixed point) */
    PFI_H_U8_LIN16, /* u8 LINEAR: as PFI_H_U8_I32 with 2 taps, stored as int16 sum >> 4
                       (the pre-shift of OpenCV's u8 linear vertical step; < 2^15) */
    PFI_H_F32,      /* u8/u16/f32 src, float coefs, float sums left-to-right */
    PFI_H_AA_U8     /* u8 src, int32 22-bit coefs, Pillow clip8 to a u8 buffer */
} pfi_h_kind;

/* Vertical pass arithmetic (ksize buffer rows -> destination row). */
typedef enum pfi_v_kind {
    PFI_V_U8_LINEAR,   /* OpenCV u8 linear on PFI_H_U8_LIN16 rows (mulhi, +2 >>2) */
    PFI_V_U8_FIX22,    /* int sums, (s + 2^21) >> 22 */
    PFI_V_U8_CUBIC,    /* float on [0, split), FIX22 on [split, width) */
    PFI_V_F32,         /* float sums; left-to-right on [split, width), nested
                          (innermost last tap first) on [0, split) */
    PFI_V_AA_U8        /* u8 rows, 22-bit coefs, Pillow clip8 */
} pfi_v_kind;

typedef struct pfi_axis {
    int32_t n;        /* outputs along this axis */
    int32_t ksize;    /* taps per output (padded with zero weights) */
    int32_t *idx;     /* n * ksize source indices (pixels/rows), in range */
    int16_t *icoef;   /* n * ksize, PFI_H_U8_I32 / u8 vertical fixed point */
    int32_t *acoef;   /* n * ksize, Pillow 22-bit (AA u8) */
    float *fcoef;     /* n * ksize, float kinds; also u8 cubic float lanes */
    int32_t *count;   /* n: real taps (<= ksize), the rest are zero-weight pads */
} pfi_axis;

typedef struct pfi_resize_plan {
    pfi_rz_kind kind;
    pf_dtype dtype;
    int32_t cn;                 /* channels per pixel in one pass (1 for CHW planes) */
    int32_t sw, sh, dw, dh;
    /* NN */
    int32_t *nn_x, *nn_y;       /* source pixel column / row per output */
    /* AREA_FAST */
    int32_t afx, afy;           /* integer factors */
    /* SEP */
    pfi_h_kind hk;
    pfi_v_kind vk;
    pfi_axis h, v;
    int32_t vsplit;             /* elements [0, vsplit) of a row use the SIMD-lane formula */
    void *mem;                  /* single allocation backing every table */
} pfi_resize_plan;

/* Builds the plan for one image (cn = channels interleaved per pass).
 * Returns PF_ERR_OUT_OF_MEMORY / PF_ERR_UNSUPPORTED with a message. */
pf_status pfi_resize_plan_build(pfi_resize_plan *p, int32_t sw, int32_t sh, int32_t dw,
                                int32_t dh, int32_t cn, pf_dtype dtype, pf_interp interp,
                                bool antialias);
void pfi_resize_plan_free(pfi_resize_plan *p);

/* Zeroed storage for one axis's arrays (n outputs x ksize taps) in one
 * block, returned for free(); NULL when out of memory. */
void *pfi_axis_alloc(pfi_axis *a, int32_t n, int32_t ksize);

/* Pillow-style antialias tables for one axis (resize_aa_tables.c). */
pf_status pfi_aa_axis_build(pfi_axis *a, int32_t in_size, int32_t out_size, pf_interp interp,
                            bool fixed_point, void **mem);

/* Bytes of one horizontal buffer row for the plan (dw * cn elements). */
size_t pfi_resize_buf_row_bytes(const pfi_resize_plan *p);

#endif
