/* 4:2:0 YUV kernel family: the reference everywhere; on x86 the SSE4 and
 * AVX2 levels take the kernels of src/cpu/yuv_simd_impl.h (yuv_sse4.c,
 * yuv_avx2.c), and the AVX-512 level the VBMI kernels when the CPU has
 * VBMI (otherwise it keeps the AVX2 ones). Every slot is accelerated at
 * every x86 level. */
#include "cpu/yuv_exec.h"

static const char *const k_names[PFI_YUV_SLOTS] = {"yuv.nv12_to_rgb_u8", "yuv.i420_to_rgb_u8",
                                                   "yuv.rgb_to_i420_u8", "yuv.rgb_to_nv12_u8"};

static void fill_ref(pfi_kfn *slots) {
    slots[PFI_YUV_NV12_TO_RGB] = (pfi_kfn)pfi_yuv_sp_to_rgb_ref;
    slots[PFI_YUV_I420_TO_RGB] = (pfi_kfn)pfi_yuv_p_to_rgb_ref;
    slots[PFI_YUV_RGB_TO_I420] = (pfi_kfn)pfi_rgb_to_yuv_p_ref;
    slots[PFI_YUV_RGB_TO_NV12] = (pfi_kfn)pfi_rgb_to_yuv_sp_ref;
}

pfi_kfamily pfi_yuv_family = PFI_KFAMILY_INIT(k_names, PFI_YUV_SLOTS, fill_ref,
                                              PFI_X86(pfi_yuv_fill_sse4),
                                              PFI_X86(pfi_yuv_fill_avx2), NULL,
                                              PFI_X86(pfi_yuv_fill_avx512vbmi), NULL);
