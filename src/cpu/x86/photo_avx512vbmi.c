/* AVX-512 VBMI photometric row kernels: the AVX-512 kernels again (same
 * source, photo_simd_impl.h) with byte-permute RGB u8 loads and stores,
 * which need fewer shuffles. The family's AVX-512 level installs them
 * over the RGB u8 slots when the CPU has VBMI. */
#include <immintrin.h>

#include "cpu/photo_exec.h"
#include "kernels/philox.h"
#include "kernels/photo_math.h"
#include "pixflow/core.h"

#define PFS(name) name##_avx512vbmi
#define PF_PHOTO_VBMI 1
#include "cpu/x86/photo_avx512_vocab.h"
#include "cpu/x86/photo_simd_impl.h"

void pfi_photo_fill_avx512vbmi(pfi_photo_kernels *k) {
    pfi_photo_kernels all;
    PFS(fill)(&all);
    static const int u8_rgb[] = {PFI_PHOTO_SAT_U8, PFI_PHOTO_HUE_U8, PFI_PHOTO_TWIST_U8, PFI_PHOTO_GRAY3_U8,
                                 PFI_PHOTO_GRAY1_U8};
    for (size_t i = 0; i < sizeof u8_rgb / sizeof u8_rgb[0]; i++) k->px[u8_rgb[i]] = all.px[u8_rgb[i]];
    k->graysum_u8 = all.graysum_u8;
}
