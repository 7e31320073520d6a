/* Prepared resize: a plan plus the element / per-pixel / byte-permute row
 * tables the CPU kernels read, built once per (sizes, channels, dtype,
 * interp, flavour, antialias, kernel table) and reused through a small per-thread
 * cache (resize_cache.c). Everything in it is read-only once built, so
 * the pool workers of one call share it. */
#ifndef PF_CPU_RESIZE_PREP_H
#define PF_CPU_RESIZE_PREP_H

#include "cpu/resize_exec.h"

typedef struct pfi_resize_key {
    int32_t sw, sh, dw, dh, cn;
    pf_dtype dtype;
    pf_interp interp;
    pf_resize_flavor flavor;       /* canonical (pfi_resize_canon) */
    bool antialias;
    pfi_rz_window win;             /* rw == 0: none; else dw x dh is the window of rw x rh */
    const pfi_resize_kernels *K;   /* tables differ by what the kernels want */
} pfi_resize_key;

typedef struct pfi_resize_prep {
    pfi_resize_key key;
    pfi_resize_plan p;
    /* SEP: element tables (see pfi_hrow) */
    int32_t *e_off;
    void *e_coef;
    int32_t safe_end;
    int32_t *pair_mem;   /* pair_off | pair_n | pair_coef in one block, or NULL */
    int32_t pair_max, pair_safe_end;
    int32_t pair_tail_first, pair_tail_base, pair_tail_len, pair_tail_reach, pair_whole; /* PFK_H_TV_U8 quads (pfi_hrow) */
    pfi_hblock *blk;     /* 64-byte aligned, or NULL */
    int32_t blk_n, blk_win;
    pfi_tvblk *tvb;      /* PFK_H_TV_U8 permute steps, 64-byte aligned, or NULL */
    pfi_tvwin *tvw;      /* their windows (same index) */
    int32_t *tvb_first;  /* blocks + 1 step indices, then blocks shared window bases */
    int32_t tvb_n;
    uint8_t *c1;         /* u8 1-channel groups (pfi_hrow.c1), 32-byte aligned, or NULL */
    int32_t c1_n, c1_stride, c1_chunks;
    /* NN u8 3/4 channels: first output pixel whose 4-byte load could leave the row */
    int32_t nn_safe_end;
    size_t bytes;        /* table memory, for the cache's budget */
} pfi_resize_prep;

/* The row-end copy of a pixel table (pfi_hrow.pair_tail_*): from the last
 * multiple of 4 <= t->pair_safe_end, pixel dx's loads ending at
 * off[dx] + (nq[dx] - 1) * step + load (nq NULL: off[dx] + load); no copy
 * when they would not fit in PFI_ROW_TAIL_MAX bytes. */
void pfi_pixel_tail(pfi_resize_prep *t, int32_t dw, int64_t row_bytes, const int32_t *off, const int32_t *nq,
                    int step, int load);
/* Builds plan and tables (PF_ERR_OUT_OF_MEMORY / PF_ERR_UNSUPPORTED). */
pf_status pfi_resize_prep_build(pfi_resize_prep *r, const pfi_resize_key *k);
/* The PFK_H_TV_U8 tables (resize_tv_prep.c): the 3/4-channel pixel-pair
 * quads in pair_mem and, for tables that want them, the permute steps. */
pf_status pfi_tv_prep_tables(const pfi_resize_plan *p, pfi_resize_prep *t, const pfi_resize_kernels *K);
/* The 1-channel groups of PFK_H_TV_U8, PFK_H_AA_U8, PFK_H_U8_LIN16 and
 * PFK_H_U8_I32 (pfi_hrow.c1; resize_c1_prep.c); t->c1 stays NULL where
 * they do not apply. */
pf_status pfi_c1_prep_tables(const pfi_resize_plan *p, pfi_resize_prep *t);
void pfi_resize_prep_free(pfi_resize_prep *r);

/* The calling thread's cached preparation for k, building it on a miss.
 * The pointer stays valid until this thread's next pfi_resize_prep_get
 * (the cache holds PFI_RESIZE_CACHE_ENTRIES, least recently used out);
 * when *transient is set the caller owns it and must pass it to
 * pfi_resize_prep_release (too big to cache). */
#define PFI_RESIZE_CACHE_ENTRIES 8
pf_status pfi_resize_prep_get(const pfi_resize_key *k, pfi_resize_prep **out, int *transient);
void pfi_resize_prep_release(pfi_resize_prep *r, int transient);
/* Frees the calling thread's cache (also done at thread exit). */
void pfi_resize_cache_clear(void);

#endif
