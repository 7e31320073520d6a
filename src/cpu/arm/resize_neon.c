/* NEON resize row kernels (aarch64). NEON has no gather; the horizontal
 * passes stay on the reference except the torchvision u8 one for 3/4
 * channels (per pixel, its taps are consecutive pixels), and the vertical
 * passes are vectorized. */
#include <arm_neon.h>
#include <string.h>

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

/* torchvision u8 vertical, 16 elements per step: u8 widened to u16
 * (values <= 255, so also valid int16), vmlal by the int16 weight into
 * int32: the reference's exact sum; then the rounding half, the shift by
 * the precision (vshl by -shift is arithmetic on int32) and saturating
 * narrows (the clamp). */
static int v_tv_u8_neon(const pfi_vrow *r, int x0, int x1) {
    uint8_t *d = r->dst;
    const int32x4_t half = vdupq_n_s32(1 << (r->shift - 1)), nsh = vdupq_n_s32(-r->shift);
    int x = x0;
    for (; x + 16 <= x1; x += 16) {
        int32x4_t a0 = half, a1 = half, a2 = half, a3 = half;
        for (int k = 0; k < r->ksize; k++) {
            uint8x16_t v = vld1q_u8((const uint8_t *)r->rows[k] + x);
            int16x8_t lo = vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(v)));
            int16x8_t hi = vreinterpretq_s16_u16(vmovl_u8(vget_high_u8(v)));
            int16_t w = r->icoef[k];
            a0 = vmlal_n_s16(a0, vget_low_s16(lo), w);
            a1 = vmlal_n_s16(a1, vget_high_s16(lo), w);
            a2 = vmlal_n_s16(a2, vget_low_s16(hi), w);
            a3 = vmlal_n_s16(a3, vget_high_s16(hi), w);
        }
        int16x8_t l = vcombine_s16(vqmovn_s32(vshlq_s32(a0, nsh)), vqmovn_s32(vshlq_s32(a1, nsh)));
        int16x8_t h = vcombine_s16(vqmovn_s32(vshlq_s32(a2, nsh)), vqmovn_s32(vshlq_s32(a3, nsh)));
        vst1q_u8(d + x, vcombine_u8(vqmovun_s16(l), vqmovun_s16(h)));
    }
    return x;
}

/* torchvision u8 horizontal, 3/4 channels, one pixel per step over the
 * quad tables (resize_tv_prep.c): per tap, the pixel's channels (a 4-byte
 * load, inside the quad's 16 bytes) widened and multiplied by the tap's
 * int16 weight, accumulated in int32. */
static int h_tv_u8_neon(const pfi_hrow *r, int x0, int x1) {
    int cn = r->cn;
    if (r->pair_off == NULL || (cn != 3 && cn != 4) || x0 % cn != 0) return x0;
    const uint8_t *s = r->src;
    uint8_t *d = r->buf;
    const int32x4_t half = vdupq_n_s32(1 << (r->shift - 1)), nsh = vdupq_n_s32(-r->shift);
    int dx = x0 / cn, end = r->pair_safe_end, e = x0;
    for (; dx < end && e + 4 <= x1; dx++, e += cn) {
        const uint8_t *px = s + r->pair_off[dx];
        const int32_t *c = r->pair_coef + (size_t)(dx / 2) * (size_t)r->pair_max * 16 + (size_t)(dx & 1) * 4;
        int32x4_t acc = half;
        for (int q = 0; q < r->pair_n[dx]; q++)
            for (int t = 0; t < 4; t++) {
                uint32_t v;
                memcpy(&v, px + (4 * q + t) * cn, 4);
                int16x4_t p = vreinterpret_s16_u16(vget_low_u16(vmovl_u8(vcreate_u8((uint64_t)v))));
                int32_t cw = c[16 * q + (t < 2 ? 0 : 8)];
                int16_t w = (int16_t)(t % 2 ? (uint32_t)cw >> 16 : (uint32_t)cw & 0xffff);
                acc = vmlal_n_s16(acc, p, w);
            }
        int16x4_t n16 = vqmovn_s32(vshlq_s32(acc, nsh));
        uint8x8_t o8 = vqmovun_s16(vcombine_s16(n16, n16));
        uint32_t o = vget_lane_u32(vreinterpret_u32_u8(o8), 0);
        memcpy(d + e, &o, 4);
    }
    return e;
}

void pfi_resize_fill_neon(pfi_resize_kernels *k) {
    k->v_tv_u8 = v_tv_u8_neon;
    k->h_tv_u8 = h_tv_u8_neon;
    k->v_u8_linear = v_u8_linear_neon;
    k->v_f32[PFK_RZ_T_F32] = v_f32_f32_neon;
}
