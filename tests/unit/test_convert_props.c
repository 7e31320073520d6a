/*
 * Properties of the conversion engine through the public API:
 * HWC -> CHW -> HWC is the identity for every dtype and channel count,
 * split then merge is the identity, f16 and bf16 narrowing edge cases
 * (+-0, subnormals, inf, NaN, ties to even, max finite overflowing to inf),
 * exhaustive 16-bit -> f32 -> 16-bit round trips, and pf_convert's fill
 * and channel selection.
 */
#include <math.h>
#include <stdlib.h>

#include "pixflow/ops.h"
#include "test_util.h"

static const pf_dtype k_all[] = {PF_U8, PF_U16, PF_S16, PF_S32, PF_F16, PF_BF16, PF_F32};

static void test_layout_roundtrip(void) {
    uint64_t s = 7;
    for (int t = 0; t < 7; t++)
        for (int cn = 1; cn <= 4; cn++) {
            int w = pft_range(&s, 1, 77), h = pft_range(&s, 1, 9);
            size_t esz = pf_dtype_size(k_all[t]), n = (size_t)w * (size_t)h * (size_t)cn * esz;
            uint8_t *a = malloc(n), *b = malloc(n), *c = malloc(n);
            for (size_t i = 0; i < n; i++) a[i] = (uint8_t)pft_rand(&s);
            pf_image hwc = pf_image_hwc(a, w, h, cn, k_all[t], 0);
            pf_image chw = pf_image_chw(b, w, h, cn, k_all[t], 0, 0);
            pf_image back = pf_image_hwc(c, w, h, cn, k_all[t], 0);
            CHECK_STATUS(pf_reformat(NULL, 1, &hwc, &chw, NULL, 0), PF_OK);
            CHECK_STATUS(pf_reformat(NULL, 1, &chw, &back, NULL, 0), PF_OK);
            CHECK(memcmp(a, c, n) == 0);
            /* element (x=1 or 0, y=0) channel cn-1 lands in plane cn-1 */
            int x = w > 1 ? 1 : 0;
            CHECK(memcmp(b + (size_t)(cn - 1) * (size_t)w * (size_t)h * esz + (size_t)x * esz,
                         a + ((size_t)x * (size_t)cn + (size_t)(cn - 1)) * esz, esz) == 0);
            /* split then merge */
            pf_image planes[4];
            uint8_t *pb[4];
            for (int k = 0; k < cn; k++) {
                pb[k] = malloc(n / (size_t)cn);
                planes[k] = pf_image_hwc(pb[k], w, h, 1, k_all[t], 0);
            }
            memset(c, 0, n);
            CHECK_STATUS(pf_split(NULL, 1, &hwc, planes), PF_OK);
            CHECK_STATUS(pf_merge(NULL, 1, cn, planes, &back), PF_OK);
            CHECK(memcmp(a, c, n) == 0);
            CHECK(memcmp(pb[cn - 1], b + (size_t)(cn - 1) * (size_t)w * (size_t)h * esz, n / (size_t)cn) == 0);
            for (int k = 0; k < cn; k++) free(pb[k]);
            free(a);
            free(b);
            free(c);
        }
}

static uint16_t to16(float v, pf_dtype dt) {
    uint16_t out = 0xdead;
    pf_image s = pf_image_hwc(&v, 1, 1, 1, PF_F32, 0), d = pf_image_hwc(&out, 1, 1, 1, dt, 0);
    CHECK_STATUS(pf_convert(NULL, 1, &s, &d, NULL), PF_OK);
    return out;
}

static float bitsf(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void test_f16_edges(void) {
    CHECK(to16(0.0f, PF_F16) == 0x0000);
    CHECK(to16(-0.0f, PF_F16) == 0x8000);
    CHECK(to16(65504.0f, PF_F16) == 0x7bff);
    CHECK(to16(65519.996f, PF_F16) == 0x7bff);
    CHECK(to16(65520.0f, PF_F16) == 0x7c00); /* max finite + half ulp ties to inf */
    CHECK(to16(-1e9f, PF_F16) == 0xfc00);
    CHECK(to16(INFINITY, PF_F16) == 0x7c00);
    CHECK(to16(-INFINITY, PF_F16) == 0xfc00);
    uint16_t n = to16(NAN, PF_F16);
    CHECK((n & 0x7c00) == 0x7c00 && (n & 0x3ff) != 0);
    CHECK((to16(bitsf(0x7f800001u), PF_F16) & 0x7fff) > 0x7c00); /* signalling NaN stays NaN */
    CHECK(to16(ldexpf(1, -24), PF_F16) == 0x0001);        /* smallest subnormal */
    CHECK(to16(ldexpf(1, -25), PF_F16) == 0x0000);        /* tie -> even (0) */
    CHECK(to16(ldexpf(1.5f, -24), PF_F16) == 0x0002);     /* tie -> even (2) */
    CHECK(to16(ldexpf(2.5f, -24), PF_F16) == 0x0002);     /* tie -> even (2) */
    CHECK(to16(ldexpf(1.0f, -14), PF_F16) == 0x0400);     /* smallest normal */
    CHECK(to16(ldexpf(1023.5f, -24), PF_F16) == 0x0400);  /* rounds up into the normals */
    CHECK(to16(1.0f + ldexpf(1, -11), PF_F16) == 0x3c00); /* tie -> even */
    CHECK(to16(1.0f + 3 * ldexpf(1, -11), PF_F16) == 0x3c02);
    CHECK(to16(-2.0f, PF_F16) == 0xc000);
}

static void test_bf16_edges(void) {
    CHECK(to16(0.0f, PF_BF16) == 0x0000);
    CHECK(to16(-0.0f, PF_BF16) == 0x8000);
    CHECK(to16(1.0f + ldexpf(1, -8), PF_BF16) == 0x3f80); /* tie -> even */
    CHECK(to16(1.0f + 3 * ldexpf(1, -8), PF_BF16) == 0x3f82);
    CHECK(to16(bitsf(0x7f7fffffu), PF_BF16) == 0x7f80);   /* FLT_MAX rounds to inf */
    CHECK(to16(bitsf(0x7f7f7fffu), PF_BF16) == 0x7f7f);   /* below the tie: max finite */
    CHECK(to16(bitsf(0x00000001u), PF_BF16) == 0x0000);   /* tiny subnormal */
    CHECK(to16(bitsf(0x00018000u), PF_BF16) == 0x0002);   /* subnormal tie -> even */
    CHECK(to16(INFINITY, PF_BF16) == 0x7f80);
    uint16_t n = to16(bitsf(0x7f800001u), PF_BF16);
    CHECK((n & 0x7f80) == 0x7f80 && (n & 0x7f) != 0);     /* NaN kept NaN */
    CHECK(to16(bitsf(0xffc00000u), PF_BF16) == 0xffc0);
}

/* Every 16-bit pattern -> f32 -> the same pattern (NaN -> a NaN). */
static void test_exhaustive(pf_dtype dt) {
    uint16_t *a = malloc(65536 * 2), *c = malloc(65536 * 2);
    float *b = malloc(65536 * 4);
    for (int i = 0; i < 65536; i++) a[i] = (uint16_t)i;
    pf_image s = pf_image_hwc(a, 256, 256, 1, dt, 0), f = pf_image_hwc(b, 256, 256, 1, PF_F32, 0),
             d = pf_image_hwc(c, 256, 256, 1, dt, 0);
    CHECK_STATUS(pf_convert(NULL, 1, &s, &f, NULL), PF_OK);
    CHECK_STATUS(pf_convert(NULL, 1, &f, &d, NULL), PF_OK);
    int bad = 0;
    uint16_t expo = dt == PF_F16 ? 0x7c00 : 0x7f80;
    for (int i = 0; i < 65536; i++) {
        int nan = (a[i] & expo) == expo && (a[i] & (uint16_t)~(expo | 0x8000)) != 0;
        if (nan ? !isnan(b[i]) || (c[i] & expo) != expo || (c[i] & (uint16_t)~(expo | 0x8000)) == 0
                : c[i] != a[i])
            bad++;
    }
    CHECK(bad == 0);
    /* widening is exact: spot values */
    CHECK(b[dt == PF_F16 ? 0x3c00 : 0x3f80] == 1.0f);
    CHECK(b[1] == (dt == PF_F16 ? ldexpf(1, -24) : bitsf(0x00010000u)));
    free(a);
    free(b);
    free(c);
}

/* Channel selection and PF_CHANNEL_FILL: BGR u8 -> RGBA f32 with alpha 1. */
static void test_order_fill(void) {
    uint8_t src[2 * 3] = {1, 2, 3, 4, 5, 6};
    float dst[2 * 4];
    pf_image s = pf_image_hwc(src, 2, 1, 3, PF_U8, 0), d = pf_image_hwc(dst, 2, 1, 4, PF_F32, 0);
    pf_convert_opts o = pf_convert_opts_defaults();
    o.alpha = 0.5;
    int8_t ord[4] = {2, 1, 0, PF_CHANNEL_FILL};
    memcpy(o.order, ord, 4);
    o.fill = 1.0;
    CHECK_STATUS(pf_convert(NULL, 1, &s, &d, &o), PF_OK);
    CHECK(dst[0] == 1.5f && dst[1] == 1.0f && dst[2] == 0.5f && dst[3] == 1.0f);
    CHECK(dst[4] == 3.0f && dst[7] == 1.0f);
    /* fill saturates to the dst dtype; selecting one channel */
    uint8_t one[2];
    pf_image d1 = pf_image_hwc(one, 2, 1, 1, PF_U8, 0);
    int8_t sel[4] = {1, 0, 0, 0};
    CHECK_STATUS(pf_reformat(NULL, 1, &s, &d1, sel, 0), PF_OK);
    CHECK(one[0] == 2 && one[1] == 5);
    int8_t f1[4] = {PF_CHANNEL_FILL, 0, 0, 0};
    CHECK_STATUS(pf_reformat(NULL, 1, &s, &d1, f1, 300.0), PF_OK);
    CHECK(one[0] == 255 && one[1] == 255);
    /* in place on the same view (u8 -> u8 with a scale) */
    pf_convert_opts o2 = pf_convert_opts_defaults();
    o2.alpha = 2;
    CHECK_STATUS(pf_convert(NULL, 1, &s, &s, &o2), PF_OK);
    CHECK(src[0] == 2 && src[5] == 12);
}

int main(void) {
    test_layout_roundtrip();
    test_f16_edges();
    test_bf16_edges();
    test_exhaustive(PF_F16);
    test_exhaustive(PF_BF16);
    test_order_fill();
    return pft_summary("test_convert_props");
}
