/* NEON resize row kernels (aarch64). NEON has no gather; the horizontal
 * passes stay on the reference, and the vertical passes are vectorized. */
#include <arm_neon.h>

#include "cpu/resize_exec.h"
#include "kernels/resize_math.h"

static int v_u8_linear_neon(const pfi_vrow *r, int x0, int x1) {
    const int32_t *s0 = r->rows[0], *s1 = r->rows[1];
    uint8_t *d = r->dst;
    int32x4_t b0 = vdupq_n_s32(r->icoef[0]), b1 = vdupq_n_s32(r->icoef[1]), two = vdupq_n_s32(2);
    int x = x0;
    for (; x + 8 <= x1; x += 8) {
        int32x4_t v[2];
        for (int h = 0; h < 2; h++) {
            int32x4_t a = vshrq_n_s32(vmulq_s32(b0, vshrq_n_s32(vld1q_s32(s0 + x + 4 * h), 4)), 16);
            int32x4_t b = vshrq_n_s32(vmulq_s32(b1, vshrq_n_s32(vld1q_s32(s1 + x + 4 * h), 4)), 16);
            v[h] = vshrq_n_s32(vaddq_s32(vaddq_s32(a, b), two), 2);
        }
        int16x8_t w = vcombine_s16(vqmovn_s32(v[0]), vqmovn_s32(v[1]));
        vst1_u8(d + x, vqmovun_s16(w));
    }
    return x;
}

static int v_f32_f32_neon(const pfi_vrow *r, int x0, int x1) {
    const float *const *S = (const float *const *)r->rows;
    float *d = r->dst;
    int k = r->ksize, x = x0;
    for (; x + 4 <= x1 && x + 4 <= r->vsplit; x += 4) {
        float32x4_t v = vmulq_n_f32(vld1q_f32(S[k - 1] + x), r->fcoef[k - 1]);
        for (int j = k - 2; j >= 0; j--) v = vaddq_f32(vmulq_n_f32(vld1q_f32(S[j] + x), r->fcoef[j]), v);
        vst1q_f32(d + x, v);
    }
    if (x < r->vsplit) return x;
    for (; x + 4 <= x1; x += 4) {
        float32x4_t v = vmulq_n_f32(vld1q_f32(S[0] + x), r->fcoef[0]);
        for (int j = 1; j < k; j++) v = vaddq_f32(v, vmulq_n_f32(vld1q_f32(S[j] + x), r->fcoef[j]));
        vst1q_f32(d + x, v);
    }
    return x;
}

void pfi_resize_fill_neon(pfi_resize_kernels *k) {
    k->v_u8_linear = v_u8_linear_neon;
    k->v_f32[PFI_T_F32] = v_f32_f32_neon;
}
