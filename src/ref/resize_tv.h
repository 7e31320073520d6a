/* torchvision resize flavour (torch's CPU `interpolate` as torchvision
 * 0.29's F.resize calls it): the u8 fixed-point row kernels.
 * plan/resize_tv_tables.c (plan/resize_tv_plan.h) says which taps and
 * weights, resize_tv_rows_ref.c the arithmetic; docs/exactness.md states
 * the match. */
#ifndef PF_REF_RESIZE_TV_H
#define PF_REF_RESIZE_TV_H

#include "plan/resize_plan.h"
#include "ref/resize_rows.h"

/* u8 horizontal pass: source row -> u8 buffer row. e_coef holds int16
 * weight pairs packed in int32 (as PFK_H_U8_I32), r->shift the precision:
 * clamp((2^(shift-1) + sum) >> shift, 0, 255). */
int pfi_rz_h_tv_u8_ref(const pfi_hrow *r, int x0, int x1);
/* u8 vertical pass: ksize u8 buffer rows, int16 weights r->icoef, the
 * same rounding with r->shift. */
int pfi_rz_v_tv_u8_ref(const pfi_vrow *r, int x0, int x1);

#endif
