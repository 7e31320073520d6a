/* Kernel family "preprocess" (see preprocess_exec.h): the scalar
 * reference everywhere, AVX2 (+ FMA + F16C) and AVX-512 (F/BW/VL + FMA +
 * F16C) overrides. */
#include <math.h>
#include <string.h>

#include "cpu/preprocess_exec.h"
#include "kernels/convert_math.h"

static const pfi_kslot slots[] = {
    PFI_KSLOT(pfi_preprocess_kernels, norm[PFI_PP_NORM_F32], "preprocess.norm_u8c3_f32_chw"),
    PFI_KSLOT(pfi_preprocess_kernels, norm[PFI_PP_NORM_F16], "preprocess.norm_u8c3_f16_chw"),
};

float pfi_pp_norm_rcp(float x, float scale, float mean, float stdv, float inv) {
    if (scale != 1.0f) x = x * scale + 0.0f;
    float t = x - mean;
    float q0 = t * inv;
    float r = fmaf(-q0, stdv, t);
    return fmaf(r, inv, q0);
}

int pfi_pp_rcp_exact(float scale, float mean, float stdv, float inv) {
    for (int v = 0; v < 256; v++) {
        float a = pfi_pp_norm_rcp((float)v, scale, mean, stdv, inv);
        float b = pfk_norm_mean_std((float)v, scale, mean, stdv);
        if (pfk_f32_bits(a) != pfk_f32_bits(b)) return 0;
    }
    return 1;
}

static void norm_ref(const uint8_t *px, const int8_t order[3], void *const dst[3], int32_t n,
                     const pfi_pp_norm_k *k, int half) {
    for (int c = 0; c < 3; c++)
        for (int32_t j = 0; j < n; j++) {
            float q = pfi_pp_norm_rcp((float)px[3 * j + order[c]], k->scale, k->mean[c], k->stdv[c], k->inv[c]);
            if (half) ((uint16_t *)dst[c])[j] = pfk_f32_to_f16(q);
            else ((float *)dst[c])[j] = q;
        }
}

void pfi_pp_norm_ref(const uint8_t *px, const int8_t order[3], void *const dst[3], int32_t n,
                     const pfi_pp_norm_k *k) {
    norm_ref(px, order, dst, n, k, 0);
}
static void norm_ref_f16(const uint8_t *px, const int8_t order[3], void *const dst[3], int32_t n,
                         const pfi_pp_norm_k *k) {
    norm_ref(px, order, dst, n, k, 1);
}

static void fill_ref(pfi_preprocess_kernels *k) {
    k->norm[PFI_PP_NORM_F32] = pfi_pp_norm_ref;
    k->norm[PFI_PP_NORM_F16] = norm_ref_f16;
}

PFI_KFAMILY_DEFINE(pfi_preprocess_family, pfi_preprocess_kernels, slots,
                  fill_ref, NULL, PFI_X86(pfi_preprocess_fill_avx2), PFI_X86(pfi_preprocess_fill_avx512), NULL, NULL);
