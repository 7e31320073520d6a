/*
 * Kernel family "preprocess": the emit pass's normalize of 3-channel u8
 * rows into NCHW f32/f16 planes with the division by std done as
 *   q0 = t * inv; r = fma(-q0, std, t); q = fma(r, inv, q0)
 * (t = x * scale + 0 - mean, inv = float(1 / std)): one Newton/Markstein
 * correction step, which equals the correctly rounded t / std for almost
 * every t. The inputs are u8, so each plan checks all 256 values of every
 * channel at creation (pfi_pp_rcp_exact) and uses these kernels only when
 * every one matches the division bit for bit; otherwise the convert
 * family's dividing kernels run. Same outputs as pf_normalize either way.
 */
#ifndef PF_CPU_PREPROCESS_EXEC_H
#define PF_CPU_PREPROCESS_EXEC_H

#include <stdint.h>

#include "dispatch/kfamily.h"

enum { PFI_PP_NORM_F32 = 0, PFI_PP_NORM_F16, PFI_PP_SLOTS };

typedef struct pfi_pp_norm_k {
    float scale;
    float mean[3], stdv[3], inv[3]; /* per OUTPUT channel */
} pfi_pp_norm_k;

/* n pixels (a multiple of 16) of interleaved 3-channel u8 at px; output
 * channel c reads pixel channel order[c] and writes n elements at dst[c]. */
typedef void (*pfi_pp_norm_fn)(const uint8_t *px, const int8_t order[3], void *const dst[3], int32_t n,
                               const pfi_pp_norm_k *k);

/* The scalar specification (also the reference slot). */
float pfi_pp_norm_rcp(float x, float scale, float mean, float stdv, float inv);
void pfi_pp_norm_ref(const uint8_t *px, const int8_t order[3], void *const dst[3], int32_t n,
                     const pfi_pp_norm_k *k);

/* 1 when pfi_pp_norm_rcp equals pfk_norm_mean_std for every u8 value. */
int pfi_pp_rcp_exact(float scale, float mean, float stdv, float inv);

/* norm[PFI_PP_NORM_F32], norm[PFI_PP_NORM_F16]. */
typedef struct pfi_preprocess_kernels {
    pfi_pp_norm_fn norm[PFI_PP_SLOTS];
} pfi_preprocess_kernels;

extern pfi_kfamily pfi_preprocess_family;

/* In an ISA file that defines
 *   static inline void norm(px, order, dst, n, k, int half)
 * (half: f16 output), defines the f32 / f16 slot functions and the level's
 * fill function FILL that installs them. */
#define PFI_PP_DEFINE_FILL(FILL)                                                                        \
    static void norm_f32(const uint8_t *px, const int8_t order[3], void *const dst[3], int32_t n,     \
                         const pfi_pp_norm_k *k) {                                                    \
        norm(px, order, dst, n, k, 0);                                                                \
    }                                                                                                 \
    static void norm_f16(const uint8_t *px, const int8_t order[3], void *const dst[3], int32_t n,     \
                         const pfi_pp_norm_k *k) {                                                    \
        norm(px, order, dst, n, k, 1);                                                                \
    }                                                                                                 \
    void FILL(pfi_preprocess_kernels *k) {                                                            \
        k->norm[PFI_PP_NORM_F32] = norm_f32;                                                          \
        k->norm[PFI_PP_NORM_F16] = norm_f16;                                                          \
    }

void pfi_preprocess_fill_avx2(pfi_preprocess_kernels *k);
void pfi_preprocess_fill_avx512(pfi_preprocess_kernels *k);

#endif
