/* Scalar reference row kernels of the torchvision u8 resize flavour: the
 * arithmetic specification. Integer sums, so any grouping gives the same
 * bits; what matters is the rounding half, the arithmetic shift by the
 * axis precision and the clamp of every pass (the buffer is u8, as torch's
 * intermediate image is). */
#include "kernels/resize_math.h"
#include "ref/resize_tv.h"

int pfi_rz_h_tv_u8_ref(const pfi_hrow *r, int x0, int x1) {
    uint8_t *d = r->buf;
    for (int e = x0; e < x1; e++) d[e] = pfk_tv_u8((1 << (r->shift - 1)) + pfi_rz_u8_pair_sum(r, e), r->shift);
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
