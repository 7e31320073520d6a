/* 4:2:0 YUV kernel family: the reference everywhere; on x86 the SSE4 and
 * AVX2 levels take the kernels of src/cpu/x86/yuv_simd_impl.h (yuv_sse4.c,
 * yuv_avx2.c), and the avx512vbmi level those of yuv_avx512vbmi.c. There
 * is no plain AVX-512 YUV kernel: the avx512 level keeps the AVX2 ones.
 * Every slot is accelerated at every x86 level. */
#include "cpu/yuv_exec.h"

static const pfi_kslot slots[] = {
    PFI_KSLOT(pfi_yuv_kernels, sp_to_rgb, "yuv.nv12_to_rgb_u8"),
    PFI_KSLOT(pfi_yuv_kernels, p_to_rgb, "yuv.i420_to_rgb_u8"),
    PFI_KSLOT(pfi_yuv_kernels, rgb_to_p, "yuv.rgb_to_i420_u8"),
    PFI_KSLOT(pfi_yuv_kernels, rgb_to_sp, "yuv.rgb_to_nv12_u8"),
};

static void fill_ref(pfi_yuv_kernels *k) {
    k->sp_to_rgb = pfi_yuv_sp_to_rgb_ref;
    k->p_to_rgb = pfi_yuv_p_to_rgb_ref;
    k->rgb_to_p = pfi_rgb_to_yuv_p_ref;
    k->rgb_to_sp = pfi_rgb_to_yuv_sp_ref;
}

PFI_KFAMILY_DEFINE(pfi_yuv_family, pfi_yuv_kernels, slots,
                  fill_ref, PFI_X86(pfi_yuv_fill_sse4), PFI_X86(pfi_yuv_fill_avx2), NULL,
                  PFI_X86(pfi_yuv_fill_avx512vbmi), NULL);
