/* torchvision resize flavour (torch's CPU `interpolate` as torchvision
 * 0.29's F.resize calls it): which taps and weights (resize_tv_tables.c);
 * the u8 arithmetic is ref/resize_tv_rows_ref.c. */
#ifndef PF_PLAN_RESIZE_TV_PLAN_H
#define PF_PLAN_RESIZE_TV_PLAN_H

#include "plan/resize_plan.h"

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

#endif
