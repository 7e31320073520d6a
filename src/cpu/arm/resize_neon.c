/* NEON resize row kernels (aarch64). NEON has no gather; the horizontal
 * passes stay on the reference, and the vertical passes are vectorized. */
#include <arm_neon.h>

#include "cpu/resize_exec.h"
#include "kernels/resize_math.h"

/* int16 rows (sum >> 4, PFK_H_U8_LIN16): the widening product's high
 * half is (b * t) >> 16 exactly, as pmulhw on x86. */
static int v_u8_linear_neon(const pfi_vrow *r, int x0, int x1) {
    const int16_t *s0 = r->rows[0], *s1 = r->rows[1];
    uint8_t *d = r->dst;
    int16x4_t b0 = vdup_n_s16(r->icoef[0]), b1 = vdup_n_s16(r->icoef[1]);
    int32x4_t two = vdupq_n_s32(2);
    int x = x0;
    for (; x + 8 <= x1; x += 8) {
        int16x8_t t0 = vld1q_s16(s0 + x), t1 = vld1q_s16(s1 + x);
        int32x4_t lo = vaddq_s32(vaddq_s32(vshrq_n_s32(vmull_s16(b0, vget_low_s16(t0)), 16),
                                           vshrq_n_s32(vmull_s16(b1, vget_low_s16(t1)), 16)), two);
        int32x4_t hi = vaddq_s32(vaddq_s32(vshrq_n_s32(vmull_s16(b0, vget_high_s16(t0)), 16),
                                           vshrq_n_s32(vmull_s16(b1, vget_high_s16(t1)), 16)), two);
        int16x8_t w = vcombine_s16(vqmovn_s32(vshrq_n_s32(lo, 2)), vqmovn_s32(vshrq_n_s32(hi, 2)));
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
    k->v_f32[PFK_RZ_T_F32] = v_f32_f32_neon;
}
