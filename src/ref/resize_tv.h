/* torchvision resize flavour (torch's CPU `interpolate` as torchvision
 * 0.29's F.resize calls it): tables and the u8 fixed-point row kernels.
 * resize_tv_tables.c says which taps and weights, resize_tv_rows_ref.c
 * the arithmetic; docs/exactness.md states the match. */
#ifndef PF_REF_RESIZE_TV_H
#define PF_REF_RESIZE_TV_H

#include "ref/resize_plan.h"
#include "ref/resize_rows.h"

/* Tables of one axis for LINEAR (torch bilinear), CUBIC (bicubic) or
 * LANCZOS4 (torch lanczos: Lanczos-3, antialias only, else
 * PF_ERR_UNSUPPORTED):
 * fixed_point (u8) fills idx/count, icoef/acoef (torch's int16 weights)
 * and a->shift (their precision); otherwise fcoef with torch's float
 * weights. ksize is even (zero-weight pads), taps stay inside the image.
 * Returns PF_ERR_OUT_OF_MEMORY with a message. */
pf_status pfi_tv_axis_build(pfi_axis *a, int32_t in, int32_t out, pf_interp interp, bool antialias,
                            bool fixed_point, void **mem);

/* Nearest source index per output (NEAREST, or NEAREST_EXACT when exact)
 * with torch's float formulas. */
void pfi_tv_nn_build(int32_t *map, int32_t in, int32_t out, bool exact);

/* u8 horizontal pass: source row -> u8 buffer row. e_coef holds int16
 * weight pairs packed in int32 (as PFK_H_U8_I32), r->shift the precision:
 * clamp((2^(shift-1) + sum) >> shift, 0, 255). */
int pfi_rz_h_tv_u8_ref(const pfi_hrow *r, int x0, int x1);
/* u8 vertical pass: ksize u8 buffer rows, int16 weights r->icoef, the
 * same rounding with r->shift. */
int pfi_rz_v_tv_u8_ref(const pfi_vrow *r, int x0, int x1);

#endif
