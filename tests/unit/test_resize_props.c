/* Properties of pf_resize that hold for every mode, dtype and layout:
 *  - results do not depend on the thread count (NULL stream, 2, 3 threads);
 *  - a constant image stays constant (for every interpolation);
 *  - same size is a copy;
 *  - CHW equals resizing each plane on its own;
 *  - negative-stride and ROI views give the same pixels as packed copies;
 *  - a batch equals the samples one by one. */
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

static const pf_interp k_interps[] = {PF_INTERP_NEAREST, PF_INTERP_LINEAR, PF_INTERP_CUBIC,
                                      PF_INTERP_AREA, PF_INTERP_LANCZOS4, PF_INTERP_NEAREST_EXACT};
static const pf_dtype k_types[] = {PF_U8, PF_U16, PF_F32};

static void fill(void *p, size_t n, pf_dtype dt, uint64_t *rng) {
    for (size_t i = 0; i < n; i++) {
        uint64_t r = pft_rand(rng);
        if (dt == PF_U8) ((uint8_t *)p)[i] = (uint8_t)r;
        else if (dt == PF_U16) ((uint16_t *)p)[i] = (uint16_t)r;
        else ((float *)p)[i] = (float)(r % 100000) / 1000.f;
    }
}

int main(void) {
    uint64_t rng = 0x1234567ull;
    pf_stream *s2 = NULL, *s3 = NULL;
    CHECK_STATUS(pf_stream_create_cpu(2, &s2), PF_OK);
    CHECK_STATUS(pf_stream_create_cpu(3, &s3), PF_OK);
    for (int iter = 0; iter < 72; iter++) {
        pf_dtype dt = k_types[iter % 3];
        pf_interp ip = k_interps[(iter / 3) % 6];
        int aa = (iter / 18) % 2;
        int cn = 1 + iter % 4;
        int sw = pft_range(&rng, 1, 300), sh = pft_range(&rng, 1, 200);
        int dw = pft_range(&rng, 1, 300), dh = pft_range(&rng, 1, 200);
        if (iter >= 60) {
            /* calls big enough for the executor to split into bands (it
             * runs calls under ~4M element-taps on the calling thread):
             * >= 500 * 3 * (400 + 300) * 6 */
            cn = 3 + iter % 2;
            sw = pft_range(&rng, 600, 900), sh = pft_range(&rng, 400, 600);
            dw = pft_range(&rng, 500, 800), dh = pft_range(&rng, 300, 500);
        }
        size_t es = pf_dtype_size(dt);
        size_t sn = (size_t)sw * sh * cn, dn = (size_t)dw * dh * cn;
        char *src = malloc(sn * es), *d0 = malloc(dn * es), *d1 = malloc(dn * es), *d2 = malloc(dn * es);
        fill(src, sn, dt, &rng);
        pf_image si = pf_image_hwc(src, sw, sh, cn, dt, 0);
        pf_image o0 = pf_image_hwc(d0, dw, dh, cn, dt, 0), o1 = pf_image_hwc(d1, dw, dh, cn, dt, 0),
                 o2 = pf_image_hwc(d2, dw, dh, cn, dt, 0);
        pf_resize_opts o = {ip, aa != 0, PF_RESIZE_OPENCV};
        CHECK_STATUS(pf_resize(NULL, 1, &si, &o0, &o), PF_OK);
        CHECK_STATUS(pf_resize(s2, 1, &si, &o1, &o), PF_OK);
        CHECK_STATUS(pf_resize(s3, 1, &si, &o2, &o), PF_OK);
        CHECK(memcmp(d0, d1, dn * es) == 0);
        CHECK(memcmp(d0, d2, dn * es) == 0);

        /* negative stride: rows stored bottom-up give the same output */
        char *flip = malloc(sn * es);
        size_t row = (size_t)sw * cn * es;
        for (int y = 0; y < sh; y++) memcpy(flip + (size_t)(sh - 1 - y) * row, src + (size_t)y * row, row);
        pf_image fi = pf_image_hwc(flip + (size_t)(sh - 1) * row, sw, sh, cn, dt, -(ptrdiff_t)row);
        CHECK_STATUS(pf_resize(s2, 1, &fi, &o1, &o), PF_OK);
        CHECK(memcmp(d0, d1, dn * es) == 0);

        /* ROI inside a larger, padded buffer */
        int pad = 3;
        size_t brow = (size_t)(sw + 2 * pad) * cn * es;
        char *big = calloc((size_t)(sh + 2 * pad), brow);
        for (int y = 0; y < sh; y++) memcpy(big + (size_t)(y + pad) * brow + (size_t)pad * cn * es, src + (size_t)y * row, row);
        pf_image bi = pf_image_hwc(big, sw + 2 * pad, sh + 2 * pad, cn, dt, (ptrdiff_t)brow), ri;
        CHECK_STATUS(pf_image_roi(&bi, pad, pad, sw, sh, &ri), PF_OK);
        CHECK_STATUS(pf_resize(NULL, 1, &ri, &o1, &o), PF_OK);
        CHECK(memcmp(d0, d1, dn * es) == 0);

        /* CHW == each plane alone */
        if (cn > 1) {
            char *ps = malloc(sn * es), *pd = malloc(dn * es), *plane = malloc(dn / cn * es);
            for (size_t i = 0; i < (size_t)sw * sh; i++)
                for (int c = 0; c < cn; c++) memcpy(ps + ((size_t)c * sw * sh + i) * es, src + (i * cn + c) * es, es);
            pf_image pci = pf_image_chw(ps, sw, sh, cn, dt, 0, 0), pco = pf_image_chw(pd, dw, dh, cn, dt, 0, 0);
            CHECK_STATUS(pf_resize(s3, 1, &pci, &pco, &o), PF_OK);
            int same = 1;
            for (int c = 0; c < cn; c++) {
                pf_image one_s = pf_image_hwc(ps + (size_t)c * sw * sh * es, sw, sh, 1, dt, 0);
                pf_image one_d = pf_image_hwc(plane, dw, dh, 1, dt, 0);
                CHECK_STATUS(pf_resize(NULL, 1, &one_s, &one_d, &o), PF_OK);
                if (memcmp(plane, pd + (size_t)c * dw * dh * es, (size_t)dw * dh * es) != 0) same = 0;
            }
            CHECK(same);
            free(ps); free(pd); free(plane);
        }

        /* batch of two (the second sample of another size) == one by one */
        pf_image bs[2] = {si, pf_image_hwc(src, sw > 1 ? sw - 1 : 1, sh, cn, dt, (ptrdiff_t)row)};
        pf_image bd[2] = {o1, o2};
        CHECK_STATUS(pf_resize(s2, 2, bs, bd, &o), PF_OK);
        CHECK(memcmp(d0, d1, dn * es) == 0);
        CHECK_STATUS(pf_resize(NULL, 1, &bs[1], &o0, &o), PF_OK);
        CHECK(memcmp(d0, d2, dn * es) == 0);

        free(src); free(d0); free(d1); free(d2); free(flip); free(big);
    }

    /* constant images stay constant; same size is a copy */
    for (int t = 0; t < 3; t++)
        for (int i = 0; i < 6; i++)
            for (int aa = 0; aa < 2; aa++) {
                pf_dtype dt = k_types[t];
                size_t es = pf_dtype_size(dt);
                int sw = 37, sh = 23, dw = 61, dh = 9, cn = 3;
                char *src = malloc((size_t)sw * sh * cn * es), *dst = malloc((size_t)sw * sh * cn * es); /* >= dw*dh */
                for (int k = 0; k < sw * sh * cn; k++) {
                    if (dt == PF_U8) ((uint8_t *)src)[k] = 200;
                    else if (dt == PF_U16) ((uint16_t *)(void *)src)[k] = 40000;
                    else ((float *)(void *)src)[k] = 0.5f;
                }
                pf_image si = pf_image_hwc(src, sw, sh, cn, dt, 0), di = pf_image_hwc(dst, dw, dh, cn, dt, 0);
                pf_resize_opts o = {k_interps[i], aa != 0, PF_RESIZE_OPENCV};
                CHECK_STATUS(pf_resize(NULL, 1, &si, &di, &o), PF_OK);
                int constant = 1;
                for (int k = 0; k < dw * dh * cn; k++) {
                    double v = dt == PF_U8 ? ((uint8_t *)dst)[k] : dt == PF_U16 ? ((uint16_t *)(void *)dst)[k] : (double)((float *)(void *)dst)[k];
                    double want = dt == PF_U8 ? 200 : dt == PF_U16 ? 40000 : 0.5;
                    if (dt == PF_F32 ? (v - want > 1e-5 || want - v > 1e-5) : v != want) constant = 0;
                }
                if (!constant) fprintf(stderr, "not constant: dtype %s interp %d aa %d\n", pf_dtype_name(dt), (int)k_interps[i], aa);
                CHECK(constant);
                pf_image same = pf_image_hwc(dst, sw, sh, cn, dt, 0);
                CHECK_STATUS(pf_resize(NULL, 1, &si, &same, &o), PF_OK);
                CHECK(memcmp(src, dst, (size_t)sw * sh * cn * es) == 0);
                free(src); free(dst);
            }
    pf_stream_destroy(s2);
    pf_stream_destroy(s3);
    return pft_summary("test_resize_props");
}
