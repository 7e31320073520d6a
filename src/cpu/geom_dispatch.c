/* Geometry kernel family: reference flips and tiles everywhere; AVX2
 * reverses 1- and 4-byte pixels with permutes and transposes 8x8 tiles; AVX-512 VBMI reverses 1..4-byte pixels with
 * one vpermb per 64 bytes. */
#include "cpu/geom_exec.h"

static const char *const k_names[PFI_GEOM_SLOTS] = {
    "geom.flip_px1", "geom.flip_px2", "geom.flip_px3", "geom.flip_px4",
    "geom.tile8_px1", "geom.tile8_px2", "geom.tile8_px3", "geom.tile8_px4"};

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

static void fill_ref(pfi_kfn *slots) {
    slots[PFI_GEOM_TILE_PX1] = (pfi_kfn)tile1;
    slots[PFI_GEOM_TILE_PX2] = (pfi_kfn)tile2;
    slots[PFI_GEOM_TILE_PX3] = (pfi_kfn)tile3;
    slots[PFI_GEOM_TILE_PX4] = (pfi_kfn)tile4;
    slots[PFI_GEOM_FLIP_PX1] = (pfi_kfn)flip1;
    slots[PFI_GEOM_FLIP_PX2] = (pfi_kfn)flip2;
    slots[PFI_GEOM_FLIP_PX3] = (pfi_kfn)flip3;
    slots[PFI_GEOM_FLIP_PX4] = (pfi_kfn)flip4;
}

pfi_kfamily pfi_geom_family = PFI_KFAMILY_INIT(k_names, PFI_GEOM_SLOTS, fill_ref, NULL,
                                               PFI_X86(pfi_geom_fill_avx2), NULL,
                                               PFI_X86(pfi_geom_fill_avx512vbmi), NULL);

void pfi_flip_row(const pfi_ktable *k, const uint8_t *src, uint8_t *dst, int32_t n, int32_t px) {
    if (px >= 1 && px <= 4) ((pfi_flip_row_fn)k->fn[PFI_GEOM_FLIP_PX1 + px - 1])(src, dst, n);
    else pfi_flip_row_ref(src, dst, n, px);
}

pfi_tile8_fn pfi_tile8(const pfi_ktable *k, int32_t px) {
    return px >= 1 && px <= 4 ? (pfi_tile8_fn)k->fn[PFI_GEOM_TILE_PX1 + px - 1] : NULL;
}
