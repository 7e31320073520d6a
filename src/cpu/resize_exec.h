/* CPU execution of resize plans and the per-ISA kernel tables. */
#ifndef PF_CPU_RESIZE_EXEC_H
#define PF_CPU_RESIZE_EXEC_H

#include "cpu/kfamily.h"
#include "ref/resize_rows.h"

/* Resizes src into dst (host views already validated, same dtype and
 * channels; CHW views are processed plane by plane). The plan and row
 * tables come from the calling thread's cache (resize_prep.h). win: NULL,
 * or resize-then-crop (src resized to win->rw x win->rh, dst the window at
 * (win->wx, win->wy) of it). */
pf_status pfi_resize_image(pf_stream *s, const pfi_resize_kernels *K, const pf_image *src, const pf_image *dst,
                           pf_interp interp, pf_resize_flavor flavor, bool antialias, const pfi_rz_window *win);

/* Kernel table for an ISA level (the resize family of kfamily.h). */
const pfi_resize_kernels *pfi_resize_kernels_for(pf_isa isa);

/* Per-ISA fills, compiled in only with that ISA. Each fills only the
 * slots it accelerates, the rest stay at the lower level's kernels. */
void pfi_resize_fill_sse4(pfi_resize_kernels *k);
void pfi_resize_fill_avx2(pfi_resize_kernels *k);
void pfi_resize_fill_avx512(pfi_resize_kernels *k);
void pfi_resize_fill_avx512vbmi(pfi_resize_kernels *k);
void pfi_resize_fill_neon(pfi_resize_kernels *k);

/* The AVX-512 LINEAR u8 horizontal kernel (resize_avx512.c), where the
 * VBMI kernel's byte-permute blocks stop. */
int pfi_rz_h_u8_lin16_avx512(const pfi_hrow *r, int x0, int x1);
/* The AVX-512 torchvision u8 horizontal kernel, where the VBMI permute
 * steps stop. */
int pfi_rz_h_tv_u8_avx512(const pfi_hrow *r, int x0, int x1);

extern pfi_kfamily pfi_resize_family;

#endif
