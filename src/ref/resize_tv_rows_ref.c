/* Scalar reference row kernels of the torchvision u8 resize flavour: the
 * arithmetic specification. Integer sums, so any grouping gives the same
 * bits; what matters is the rounding half, the arithmetic shift by the
 * axis precision and the clamp of every pass (the buffer is u8, as torch's
 * intermediate image is). */
#include "kernels/resize_math.h"
#include "ref/resize_tv.h"

int pfi_rz_h_tv_u8_ref(const pfi_hrow *r, int x0, int x1) {
    const uint8_t *s = r->src;
    uint8_t *d = r->buf;
    const int32_t *cw = r->e_coef;
    size_t W = (size_t)r->width;
    int k2 = r->ksize / 2;
    for (int e = x0; e < x1; e++) {
        int32_t acc = 1 << (r->shift - 1);
        for (int j = 0; j < k2; j++) {
            int32_t c = cw[(size_t)j * W + (size_t)e];
            int16_t a0 = (int16_t)(c & 0xffff), a1 = (int16_t)((uint32_t)c >> 16);
            acc += s[r->e_off[(size_t)(2 * j) * W + (size_t)e]] * a0 +
                   s[r->e_off[(size_t)(2 * j + 1) * W + (size_t)e]] * a1;
        }
        d[e] = pfk_tv_u8(acc, r->shift);
    }
    return x1;
}

int pfi_rz_v_tv_u8_ref(const pfi_vrow *r, int x0, int x1) {
    uint8_t *d = r->dst;
    for (int x = x0; x < x1; x++) {
        int32_t acc = 1 << (r->shift - 1);
        for (int k = 0; k < r->ksize; k++) acc += ((const uint8_t *)r->rows[k])[x] * r->icoef[k];
        d[x] = pfk_tv_u8(acc, r->shift);
    }
    return x1;
}
