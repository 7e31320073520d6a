/* AVX-512 (F+BW+VL, FMA) photometric row kernels: the 16-lane vocabulary
 * (photo_avx512_vocab.h), then the shared kernel source photo_simd_impl.h
 * (the AVX2 kernels are the same source at 8 lanes). Installed only when
 * the CPU has FMA too; photo_avx512vbmi.c overrides the RGB u8 slots. */
#include <immintrin.h>

#include "cpu/photo_exec.h"
#include "kernels/philox.h"
#include "kernels/photo_math.h"
#include "pixflow/core.h"

#define PFS(name) name##_avx512
#define PF_PHOTO_VBMI 0
#include "cpu/x86/photo_avx512_vocab.h"

#include "cpu/x86/photo_simd_impl.h"

void pfi_photo_fill_avx512(pfi_photo_kernels *k) { PFS(fill)(k); }
