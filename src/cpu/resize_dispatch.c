/* Resize kernel family (kfamily.h): the reference rows of src/ref
 * everywhere; SSE4.1, AVX2, AVX-512 and AVX-512 VBMI on x86,
 * NEON on Arm override the slots they accelerate. */
#include "dispatch/kfamily.h"
#include "cpu/resize_exec.h"
#include "ref/resize_tv.h"

const pfi_resize_kernels pfi_resize_kernels_ref = {
    .h_u8_i32 = pfi_rz_h_u8_i32_ref,
    .h_u8_lin16 = pfi_rz_h_u8_lin16_ref,
    .h_f32 = {pfi_rz_h_f32_u8_ref, pfi_rz_h_f32_u16_ref, pfi_rz_h_f32_f32_ref},
    .h_aa_u8 = pfi_rz_h_aa_u8_ref,
    .h_tv_u8 = pfi_rz_h_tv_u8_ref,
    .v_u8_linear = pfi_rz_v_u8_linear_ref,
    .v_u8_fix22 = pfi_rz_v_u8_fix22_ref,
    .v_u8_cubic = pfi_rz_v_u8_cubic_ref,
    .v_f32 = {pfi_rz_v_f32_u8_ref, pfi_rz_v_f32_u16_ref, pfi_rz_v_f32_f32_ref},
    .v_aa_u8 = pfi_rz_v_aa_u8_ref,
    .v_tv_u8 = pfi_rz_v_tv_u8_ref,
    .area2_u8 = pfi_rz_area2_u8_ref,
    .nn_u8 = pfi_rz_nn_u8_ref,
};

static const pfi_kslot slots[] = {
    PFI_KSLOT(pfi_resize_kernels, h_u8_i32, "resize.h_u8_i32"),
    PFI_KSLOT(pfi_resize_kernels, h_f32[PFK_RZ_T_U8], "resize.h_f32<u8>"),
    PFI_KSLOT(pfi_resize_kernels, h_f32[PFK_RZ_T_U16], "resize.h_f32<u16>"),
    PFI_KSLOT(pfi_resize_kernels, h_f32[PFK_RZ_T_F32], "resize.h_f32<f32>"),
    PFI_KSLOT(pfi_resize_kernels, h_aa_u8, "resize.h_aa_u8"),
    PFI_KSLOT(pfi_resize_kernels, v_u8_linear, "resize.v_u8_linear"),
    PFI_KSLOT(pfi_resize_kernels, v_u8_fix22, "resize.v_u8_fix22"),
    PFI_KSLOT(pfi_resize_kernels, v_u8_cubic, "resize.v_u8_cubic"),
    PFI_KSLOT(pfi_resize_kernels, v_f32[PFK_RZ_T_U8], "resize.v_f32<u8>"),
    PFI_KSLOT(pfi_resize_kernels, v_f32[PFK_RZ_T_U16], "resize.v_f32<u16>"),
    PFI_KSLOT(pfi_resize_kernels, v_f32[PFK_RZ_T_F32], "resize.v_f32<f32>"),
    PFI_KSLOT(pfi_resize_kernels, v_aa_u8, "resize.v_aa_u8"),
    PFI_KSLOT(pfi_resize_kernels, h_u8_lin16, "resize.h_u8_lin16"),
    PFI_KSLOT(pfi_resize_kernels, area2_u8, "resize.area2_u8"),
    PFI_KSLOT(pfi_resize_kernels, nn_u8, "resize.nn_u8"),
    PFI_KSLOT(pfi_resize_kernels, h_tv_u8, "resize.h_tv_u8"),
    PFI_KSLOT(pfi_resize_kernels, v_tv_u8, "resize.v_tv_u8"),
};

static void fill_ref(pfi_resize_kernels *k) { *k = pfi_resize_kernels_ref; }

PFI_KFAMILY_DEFINE(pfi_resize_family, pfi_resize_kernels, slots,
                  fill_ref, PFI_X86(pfi_resize_fill_sse4), PFI_X86(pfi_resize_fill_avx2),
                  PFI_X86(pfi_resize_fill_avx512), PFI_X86(pfi_resize_fill_avx512vbmi),
                  PFI_NEON(pfi_resize_fill_neon));

const pfi_resize_kernels *pfi_resize_kernels_for(pf_isa isa) { return pfi_kfamily_table(&pfi_resize_family, isa); }
