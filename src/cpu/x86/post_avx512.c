/* AVX-512 (F, BW, VL) build of the post family kernels (post_simd_impl.h). */
#define PFI_POST_AVX512 1
#include "cpu/x86/post_simd_impl.h"
