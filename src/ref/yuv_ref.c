/* Scalar 4:2:0 row-pair kernels: the specification of pf_cvt_color_from_yuv
 * and pf_cvt_color_to_yuv (math in src/kernels/yuv_math.h). */
#include "ref/yuv_rows.h"

/* Writes one decoded pixel in the caller's channel order. */
static inline void put_px(uint8_t *d, const uint8_t rgb[3], const pfi_yuv_params *p) {
    d[0] = rgb[p->blue_first ? 2 : 0];
    d[1] = rgb[1];
    d[2] = rgb[p->blue_first ? 0 : 2];
    if (p->cn == 4) d[3] = 255;
}

/* Shared by both layouts: chroma sample i is u[i * step], v[i * step]. */
static void yuv_to_rgb(const uint8_t *y0, const uint8_t *y1, const uint8_t *u, const uint8_t *v,
                       int32_t step, uint8_t *d0, uint8_t *d1, int32_t width,
                       const pfi_yuv_params *p) {
    const int32_t cn = p->cn;
    uint8_t rgb[3];
    for (int32_t i = 0; i < width / 2; i++) {
        pfk_yuv_chroma c = pfk_yuv_chroma_terms(&p->k, u[i * step], v[i * step]);
        for (int32_t dx = 0; dx < 2; dx++) {
            int32_t x = 2 * i + dx;
            pfk_yuv_decode(&p->k, &c, y0[x], rgb);
            put_px(d0 + x * cn, rgb, p);
            pfk_yuv_decode(&p->k, &c, y1[x], rgb);
            put_px(d1 + x * cn, rgb, p);
        }
    }
}

void pfi_yuv_sp_to_rgb_ref(const uint8_t *y0, const uint8_t *y1, const uint8_t *uv, uint8_t *d0,
                           uint8_t *d1, int32_t width, const pfi_yuv_params *p) {
    const uint8_t *u = uv + (p->swap_uv ? 1 : 0), *v = uv + (p->swap_uv ? 0 : 1);
    yuv_to_rgb(y0, y1, u, v, 2, d0, d1, width, p);
}

void pfi_yuv_p_to_rgb_ref(const uint8_t *y0, const uint8_t *y1, const uint8_t *u,
                          const uint8_t *v, uint8_t *d0, uint8_t *d1, int32_t width,
                          const pfi_yuv_params *p) {
    yuv_to_rgb(y0, y1, u, v, 1, d0, d1, width, p);
}

/* Shared encoder: chroma sample i goes to u[i * step], v[i * step]. */
static void rgb_to_yuv(const uint8_t *s0, const uint8_t *s1, uint8_t *y0, uint8_t *y1,
                       uint8_t *u, uint8_t *v, int32_t step, int32_t width,
                       const pfi_yuv_params *p) {
    const int32_t cn = p->cn;
    const int ri = p->blue_first ? 2 : 0, bi = p->blue_first ? 0 : 2;
    for (int32_t x = 0; x < width; x++) {
        const uint8_t *a = s0 + x * cn, *b = s1 + x * cn;
        y0[x] = pfk_yuv_encode_y(&p->k, a[ri], a[1], a[bi]);
        y1[x] = pfk_yuv_encode_y(&p->k, b[ri], b[1], b[bi]);
        if ((x & 1) == 0) { /* chroma from the top-left pixel of the 2x2 block */
            u[x / 2 * step] = pfk_yuv_encode_u(&p->k, a[ri], a[1], a[bi]);
            v[x / 2 * step] = pfk_yuv_encode_v(&p->k, a[ri], a[1], a[bi]);
        }
    }
}

void pfi_rgb_to_yuv_p_ref(const uint8_t *s0, const uint8_t *s1, uint8_t *y0, uint8_t *y1,
                          uint8_t *u, uint8_t *v, int32_t width, const pfi_yuv_params *p) {
    rgb_to_yuv(s0, s1, y0, y1, u, v, 1, width, p);
}

void pfi_rgb_to_yuv_sp_ref(const uint8_t *s0, const uint8_t *s1, uint8_t *y0, uint8_t *y1,
                           uint8_t *uv, int32_t width, const pfi_yuv_params *p) {
    uint8_t *u = uv + (p->swap_uv ? 1 : 0), *v = uv + (p->swap_uv ? 0 : 1);
    rgb_to_yuv(s0, s1, y0, y1, u, v, 2, width, p);
}
