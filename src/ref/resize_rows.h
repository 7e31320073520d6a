/* Resize row kernels: the per-row work units of a plan and their scalar
 * reference (the per-ISA table of them is cpu/resize_exec.h's).
 *
 * Every kernel processes outputs [x0, x1) of one row and returns the first
 * output it did NOT process. The scalar reference always returns x1; SIMD
 * kernels process whole vector widths only and return early, and the one
 * shared wrapper (pfi_rz_run_*) finishes the tail with the reference. */
#ifndef PF_REF_RESIZE_ROWS_H
#define PF_REF_RESIZE_ROWS_H

#include "plan/resize_plan.h"

/* The x86 pixel kernels' row-end window (pfi_hrow.pair_tail_*): every
 * load of the pixels it serves fits in it. */
#define PFI_ROW_TAIL_MAX 192

/* Horizontal: source row -> buffer row. Outputs are elements (dx*cn + c).
 * `e_off` holds, per tap and element, the source element offset
 * (idx * cn + c); `e_coef` the tap weight replicated per element, in the
 * plan's coefficient type (int16 pairs packed in int32 for PFK_H_U8_I32,
 * int32 for PFK_H_AA_U8, float for PFK_H_F32). Both are tap-major:
 * entry (tap k, element e) is at [k * width + e], so that SIMD kernels load
 * the offsets of consecutive elements contiguously; PFK_H_U8_I32 has
 * ksize/2 coefficient planes (tap pairs). `safe_end` is the first element
 * whose taps could read within 8 bytes of the row end (gathers of 4 bytes
 * and 8-byte pixel-pair loads stop there). */
typedef struct pfi_hrow {
    const void *src;       /* source row, element 0 */
    void *buf;             /* int32 / float / u8 buffer row */
    const int32_t *e_off;
    const void *e_coef;
    int32_t ksize;
    int32_t width;         /* elements per row = stride between tap planes */
    int32_t cn;            /* channels per pixel */
    int32_t safe_end;
    int32_t shift;         /* torchvision u8 kinds: fraction bits of the weights */
    /* Optional per-pixel tap-pair tables for PFK_H_AA_U8 with 3/4 channels
     * (NULL when absent). Pixel dx reads its taps as pairs from byte
     * pair_off[dx] on; pair j's weights are split into hi = w >> 11 and
     * lo = w & 2047 (w = hi * 2048 + lo exactly), stored as 8 int32:
     * 4 x (hi_2j | hi_2j+1 << 16) then 4 x (lo_2j | lo_2j+1 << 16), so one
     * pmaddwd over duplicated pixel pairs yields both partial sums. Integer
     * sums are exact in any grouping, so the result equals the reference.
     * For PFK_H_U8_I32 with 2 taps (LINEAR) and 3/4 channels the same
     * fields hold one pair per pixel: pair_coef is [dx][4] x (a0 | a1 << 16),
     * so two consecutive pixels' weights are one 32-byte load (a pixel
     * whose two taps are one source pixel, the right border's clamp, is
     * stored as adjacent taps weighted (a0 + a1, 0)), and pair_safe_end is
     * the first pixel whose taps are not adjacent or whose 8-byte load
     * could leave the row.
     * For PFK_H_TV_U8 with 3/4 channels: pixels are taken in pairs (2m,
     * 2m+1); pair_off[dx] is the byte offset of pixel dx's first tap,
     * pair_n[dx] the number of 4-tap quads of its pair (the larger of the
     * two), pair_coef [m][pair_max][16] = pixel 2m's (w0 | w1 << 16) x4,
     * pixel 2m+1's x4, then the same for (w2, w3) (zero past a pixel's
     * taps), and pair_safe_end the first pixel (even) whose pair's 16-byte
     * quad loads could leave the row. */
    const int32_t *pair_off;   /* byte offset of the first tap of each pixel */
    const int32_t *pair_n;     /* number of tap pairs per pixel */
    const int32_t *pair_coef;  /* AA: [dx][pair_max][8]; LINEAR: [dx][4] */
    int32_t pair_max;
    int32_t pair_safe_end;     /* first pixel whose 16-byte loads could leave the row */
    /* PFK_H_TV_U8 quads and PFK_H_U8_LIN16 pixel tables: the pixels from
     * pair_tail_first (a multiple of 4 <= pair_safe_end) on read their
     * taps from a zero-padded copy of row bytes [pair_tail_base, row end)
     * (the first such pixel's first tap; pair_tail_len bytes); their loads
     * end within pair_tail_reach bytes of its start (at most
     * PFI_ROW_TAIL_MAX). With no copy (pair_tail_len 0), pair_tail_first =
     * pair_safe_end and the kernels stop there. pair_whole: the x86 pixel
     * kernels finish every pixel of the row (the executor then passes the
     * whole row, and the element tables are not built). */
    int32_t pair_tail_first, pair_tail_base, pair_tail_len, pair_tail_reach;
    int32_t pair_whole;
    /* Optional byte-permute blocks for PFK_H_U8_LIN16 (NULL when absent;
     * built only for kernel tables that set want_hblocks): block b covers
     * elements [16b, 16b + 16); blk_n leading blocks are valid. */
    const struct pfi_hblock *blk;
    int32_t blk_n;
    int32_t blk_win;           /* windows every block uses (1..PFI_HBLOCK_WIN) */
    /* Optional second row (src2 -> buf2) over the same elements, only for
     * kernels with byte-permute blocks, torchvision permute steps or
     * whole-row torchvision quads (pair_whole, on tables that set
     * tv_quads_two_rows): both rows' blocks interleave (two independent
     * memory streams for strong downscales where no row is reused; the
     * torchvision steps' index and weight vectors, or the quads' offsets
     * and weights, loaded once for two rows). NULL otherwise. */
    const void *src2;
    void *buf2;
    /* Optional permute steps for PFK_H_TV_U8 (NULL when absent; built only
     * for kernel tables that set want_tvblocks): block b covers elements
     * [16b, 16b + 16) (the row's last block may be partial: the kernel
     * stores only the row) with steps tvb[tvb_first[b] .. tvb_first[b + 1]);
     * tvb_n leading blocks are valid. */
    const struct pfi_tvblk *tvb;
    const struct pfi_tvwin *tvw; /* the windows of each step (blocks without a shared one) */
    const int32_t *tvb_first;
    /* Optional 1-channel groups for PFK_H_TV_U8, PFK_H_AA_U8 and
     * PFK_H_U8_LIN16 (NULL when absent; built
     * only for kernel tables that set c1_groups): group g covers output
     * pixels [8g, 8g + 8) (the row's last group may be partial: the kernel
     * stores only the row); the c1_n groups cover the row, each
     * c1_stride bytes, 32-byte aligned, in one of two kinds:
     *  - c1_chunks 0, windows: two lanes of 4 pixels whose taps lie in
     *    one 16-byte window of the row each; int32 {window 0, window 1,
     *    tap pairs np, 0 x 5}, then 32 pshufb index bytes for tap pair 0
     *    (pixel i of a lane: its first tap, 0x80, the next tap, 0x80;
     *    pair j adds 2j to every byte), then np x 8 int32 weight pairs
     *    (w2j | w2j+1 << 16, zero past a pixel's taps);
     *  - c1_chunks c > 0, dots: int32 lo[8], the byte each pixel's c
     *    16-byte loads start at, then per pixel c x 16 int16 weights of
     *    those bytes (zero off its taps).
     * PFK_H_AA_U8's 22-bit weights are split, w = hi * 2048 + lo (lo in
     * [0, 2047]): each weight set above is there twice, hi's then lo's
     * (per tap pair for the windows, per chunk for the dots). */
    const uint8_t *c1;
    int32_t c1_n, c1_stride, c1_chunks;
    const int32_t *tvb_base;   /* per block: the first of the windows inside the row
                                  every step of the block uses, or -1 (each step has
                                  its own); then per block its size: 0 = 64 bytes,
                                  1 = 128, 2 = 256 (two 128-byte windows) */
    int32_t tvb_n;
} pfi_hrow;

/* One step of a PFK_H_TV_U8 block: one tap pair (2j, 2j+1) of 16
 * consecutive elements. Bytes 4i and 4i+2 of idx are the offsets of
 * element i's two taps inside a source window (odd bytes stay zero after
 * the permute, so the permuted vector is the u16 pairs a pmaddwd with the
 * pair weights coef needs). When the block has one shared window, idx is
 * relative to it; else to the step's own windows (pfi_tvwin). Only idx
 * and coef are read per step in the common case: 128 bytes. */
typedef struct pfi_tvblk {
    uint8_t idx[64];
    int32_t coef[16];
} pfi_tvblk;

/* A step's own windows: one or two 128-byte windows (two 64-byte halves at
 * row byte offset base[w], loaded with lmask[w]: the bytes inside the
 * row); pmask[w] has the bits of the permuted bytes that come from window
 * w. inrow is set when every window lies inside the row (plain loads). */
typedef struct pfi_tvwin {
    uint64_t pmask[2];
    uint64_t lmask[2][2];
    int32_t base[2];
    int32_t nwin;
    int32_t inrow;
} pfi_tvwin;

/* One 16-element block of the LINEAR u8 horizontal pass as byte permutes:
 * up to PFI_HBLOCK_WIN 64-byte source windows (row byte offsets `base`,
 * each inside the row) and one index vector. Lane pair (4i, 4i+2) of the
 * 64-byte index holds the window-relative byte offsets of element i's
 * two taps; mask[w] has the bits of the bytes taken from window w (odd
 * bytes stay zero, so the permuted vector is the u16 pairs a pmaddwd
 * with the element's weight pair needs). Unused windows have mask 0. */
#define PFI_HBLOCK_WIN 4
typedef struct pfi_hblock {
    uint8_t idx[64];
    uint64_t mask[PFI_HBLOCK_WIN];
    int32_t base[PFI_HBLOCK_WIN];
    int32_t pad[4];
} pfi_hblock;

/* Vertical: ksize buffer rows -> destination row, over elements. */
typedef struct pfi_vrow {
    const void *const *rows;  /* ksize buffer rows */
    void *dst;
    const int16_t *icoef;     /* ksize weights of this output row */
    const int32_t *acoef;
    const float *fcoef;
    int32_t ksize;
    int32_t vsplit;           /* see pfk_v_kind */
    int32_t shift;            /* torchvision u8 kinds: fraction bits of icoef */
} pfi_vrow;

/* Nearest, u8 3/4 channels: dst pixel x = src pixel nn_x[x]. Pixels from
 * safe_end on could read past the row with a 4-byte load. */
typedef struct pfi_nnrow {
    const uint8_t *src;
    uint8_t *dst;
    const int32_t *nn_x;
    int32_t cn;
    int32_t safe_end;
} pfi_nnrow;

typedef int (*pfi_h_fn)(const pfi_hrow *r, int x0, int x1);
typedef int (*pfi_v_fn)(const pfi_vrow *r, int x0, int x1);
/* Output pixels [x0, x1) of the u8 2x2 area-fast row from source rows r0
 * and r1 (full cells only); returns the first pixel not processed. */
typedef int (*pfi_area2_fn)(const uint8_t *r0, const uint8_t *r1, uint8_t *dst, int cn, int x0, int x1);
typedef int (*pfi_nn_fn)(const pfi_nnrow *r, int x0, int x1);

/* The int32 sum of element e of a u8 horizontal pass with int16 weight
 * pairs (PFK_H_U8_I32's and PFK_H_TV_U8's tables): exact in any order. */
static inline int32_t pfi_rz_u8_pair_sum(const pfi_hrow *r, int e) {
    const uint8_t *s = r->src;
    const int32_t *cw = r->e_coef;
    size_t W = (size_t)r->width;
    int32_t sum = 0;
    for (int j = 0; j < r->ksize / 2; j++) {
        int32_t c = cw[(size_t)j * W + (size_t)e];
        int16_t a0 = (int16_t)(c & 0xffff), a1 = (int16_t)((uint32_t)c >> 16);
        sum += s[r->e_off[(size_t)(2 * j) * W + (size_t)e]] * a0 + s[r->e_off[(size_t)(2 * j + 1) * W + (size_t)e]] * a1;
    }
    return sum;
}

/* Scalar reference kernels (the specification). */
int pfi_rz_h_u8_i32_ref(const pfi_hrow *r, int x0, int x1);
int pfi_rz_h_u8_lin16_ref(const pfi_hrow *r, int x0, int x1);
int pfi_rz_h_f32_u8_ref(const pfi_hrow *r, int x0, int x1);
int pfi_rz_h_f32_u16_ref(const pfi_hrow *r, int x0, int x1);
int pfi_rz_h_f32_f32_ref(const pfi_hrow *r, int x0, int x1);
int pfi_rz_h_aa_u8_ref(const pfi_hrow *r, int x0, int x1);
int pfi_rz_v_u8_linear_ref(const pfi_vrow *r, int x0, int x1);
int pfi_rz_v_u8_fix22_ref(const pfi_vrow *r, int x0, int x1);
int pfi_rz_v_u8_cubic_ref(const pfi_vrow *r, int x0, int x1);
int pfi_rz_v_f32_u8_ref(const pfi_vrow *r, int x0, int x1);
int pfi_rz_v_f32_u16_ref(const pfi_vrow *r, int x0, int x1);
int pfi_rz_v_f32_f32_ref(const pfi_vrow *r, int x0, int x1);
int pfi_rz_v_aa_u8_ref(const pfi_vrow *r, int x0, int x1);
int pfi_rz_area2_u8_ref(const uint8_t *r0, const uint8_t *r1, uint8_t *dst, int cn, int x0, int x1);
int pfi_rz_nn_u8_ref(const pfi_nnrow *r, int x0, int x1);

/* Whole-row NN / area-fast / copy (not dispatched: memory bound). */
void pfi_rz_nn_row(const pfi_resize_plan *p, const void *src_row, void *dst_row, size_t pix_bytes);
/* area2 runs the u8 2x2 full cells (NULL: the reference). */
void pfi_rz_area_fast_row(const pfi_resize_plan *p, const void *const *src_rows, int rows_avail,
                          void *dst_row, pfi_area2_fn area2);

#endif
