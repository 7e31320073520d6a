/* CPU execution of resize plans and the per-ISA kernel tables. */
#ifndef PF_CPU_RESIZE_EXEC_H
#define PF_CPU_RESIZE_EXEC_H

#include "dispatch/kfamily.h"
#include "ref/resize_rows.h"

/* One implementation of each row kernel (ref/resize_rows.h) per ISA
 * level. */
typedef struct pfi_resize_kernels {
    pfi_h_fn h_u8_i32;                  /* PFK_H_U8_I32, even ksize */
    pfi_h_fn h_u8_lin16;                /* PFK_H_U8_LIN16 */
    pfi_h_fn h_f32[PFK_RZ_T_COUNT];        /* PFK_H_F32 by source type */
    pfi_h_fn h_aa_u8;                   /* PFK_H_AA_U8 */
    pfi_h_fn h_tv_u8;                   /* PFK_H_TV_U8 */
    pfi_v_fn v_u8_linear;
    pfi_v_fn v_u8_fix22;
    pfi_v_fn v_u8_cubic;
    pfi_v_fn v_f32[PFK_RZ_T_COUNT];        /* PFK_V_F32 by destination type */
    pfi_v_fn v_aa_u8;
    pfi_v_fn v_tv_u8;
    pfi_area2_fn area2_u8;              /* u8 2x2 area-fast cells, 1/3/4 channels */
    pfi_nn_fn nn_u8;                    /* u8 nearest, 3/4 channels */
    int want_hblocks;                   /* h_u8_lin16 reads pfi_hrow.blk and src2/buf2: the
                                           executor builds blocks (and passes two rows)
                                           only for tables that set this */
    int want_tvblocks;                  /* h_tv_u8 reads pfi_hrow.tvb and src2/buf2: built (and
                                           two rows passed) only for these */
    int tv_quads_whole;                 /* h_tv_u8 finishes a 3/4-channel row from its quad
                                           tables and their tail copy (pfi_hrow.pair_whole):
                                           those rows need no element tables */
    int tv_quads_two_rows;              /* ... and takes two rows per call (src2/buf2) there */
    int c1_groups;                      /* h_tv_u8, h_aa_u8, h_u8_lin16 and h_u8_i32 read pfi_hrow.c1 (1-channel rows) */
    int lin16_pixels_whole;             /* h_u8_lin16 finishes a 3/4-channel row from its pixel
                                           tables and their tail copy (pair_whole) */
} pfi_resize_kernels;

/* The scalar reference kernels of ref/resize_rows_ref.c as a table
 * (resize_dispatch.c): the scalar level, and the tail every SIMD kernel
 * leaves. */
extern const pfi_resize_kernels pfi_resize_kernels_ref;

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
/* The AVX-512 torchvision u8 vertical kernel, for the VBMI one's row ends
 * (and rows of more than 16 taps). */
int pfi_rz_v_tv_u8_avx512(const pfi_vrow *r, int x0, int x1);

extern pfi_kfamily pfi_resize_family;

#endif
