/* Geometry kernel family: reference flips and tiles everywhere; SSE4
 * (pshufb) reverses 2- and 3-byte pixels; AVX2
 * reverses 1- and 4-byte pixels with permutes and transposes 8x8 tiles; AVX-512 VBMI reverses 1..4-byte pixels with
 * one vpermb per 64 bytes. */
#include "cpu/geom_exec.h"

static const pfi_kslot slots[] = {
    PFI_KSLOT(pfi_geom_kernels, flip[0], "geom.flip_px1"),
    PFI_KSLOT(pfi_geom_kernels, flip[1], "geom.flip_px2"),
    PFI_KSLOT(pfi_geom_kernels, flip[2], "geom.flip_px3"),
    PFI_KSLOT(pfi_geom_kernels, flip[3], "geom.flip_px4"),
    PFI_KSLOT(pfi_geom_kernels, tile8[0], "geom.tile8_px1"),
    PFI_KSLOT(pfi_geom_kernels, tile8[1], "geom.tile8_px2"),
    PFI_KSLOT(pfi_geom_kernels, tile8[2], "geom.tile8_px3"),
    PFI_KSLOT(pfi_geom_kernels, tile8[3], "geom.tile8_px4"),
};

static void flip1(const uint8_t *s, uint8_t *d, int32_t n) { pfi_flip_row_ref(s, d, n, 1); }
static void flip2(const uint8_t *s, uint8_t *d, int32_t n) { pfi_flip_row_ref(s, d, n, 2); }
static void flip3(const uint8_t *s, uint8_t *d, int32_t n) { pfi_flip_row_ref(s, d, n, 3); }
static void flip4(const uint8_t *s, uint8_t *d, int32_t n) { pfi_flip_row_ref(s, d, n, 4); }

/* Reference tile: the same gather the non-tiled path uses, row by row. */
#define REF_TILE(P)                                                                           \
    static void tile##P(const uint8_t *s, ptrdiff_t rstep, uint8_t *d, ptrdiff_t dstep) {     \
        for (int k = 0; k < 8; k++) pfi_gather_row_ref(s + k * P, rstep, d + k * dstep, 8, P); \
    }
REF_TILE(1)
REF_TILE(2)
REF_TILE(3)
REF_TILE(4)

static void fill_ref(pfi_geom_kernels *k) {
    k->tile8[0] = tile1;
    k->tile8[1] = tile2;
    k->tile8[2] = tile3;
    k->tile8[3] = tile4;
    k->flip[0] = flip1;
    k->flip[1] = flip2;
    k->flip[2] = flip3;
    k->flip[3] = flip4;
}

PFI_KFAMILY_DEFINE(pfi_geom_family, pfi_geom_kernels, slots,
                  fill_ref, PFI_X86(pfi_geom_fill_sse4), PFI_X86(pfi_geom_fill_avx2), NULL, PFI_X86(pfi_geom_fill_avx512vbmi), NULL);

void pfi_flip_row(const pfi_geom_kernels *k, const uint8_t *src, uint8_t *dst, int32_t n, int32_t px) {
    if (px >= 1 && px <= 4) k->flip[px - 1](src, dst, n);
    else pfi_flip_row_ref(src, dst, n, px);
}

pfi_tile8_fn pfi_tile8(const pfi_geom_kernels *k, int32_t px) { return px >= 1 && px <= 4 ? k->tile8[px - 1] : NULL; }
