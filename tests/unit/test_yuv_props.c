/* Properties of the 4:2:0 conversions for every matrix and range:
 *   - decode and encode agree with the real-valued ITU / JFIF formulas to
 *     within 1 (the fixed-point tables are those formulas scaled by 2^20;
 *     BT.601 limited uses OpenCV's 3-digit coefficients, so it is checked
 *     against exactly those);
 *   - grey (R = G = B) encodes to neutral chroma (128);
 *   - RGB -> I420/NV12 -> RGB round trip on images whose 2x2 blocks are
 *     uniform (so subsampling loses nothing) stays within the documented
 *     bound (docs/exactness.md): the error is quantization only. */
#include <math.h>
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

typedef struct nominal { double kr, kb, ys, cs; int yoff; } nominal;

/* Real-valued decode of one pixel; y' = max(0, Y - yoff) as OpenCV does. */
static void ref_decode(const nominal *n, int m, int y, int u, int v, double out[3]) {
    double yy = y - n->yoff < 0 ? 0 : y - n->yoff, uu = u - 128, vv = v - 128;
    if (m == 0 && n->yoff == 16) { /* OpenCV's own rounded BT.601 coefficients */
        out[0] = 1.164 * yy + 1.596 * vv;
        out[1] = 1.164 * yy - 0.813 * vv - 0.391 * uu;
        out[2] = 1.164 * yy + 2.018 * uu;
        return;
    }
    double kg = 1 - n->kr - n->kb;
    out[0] = yy / n->ys + 2 * (1 - n->kr) / n->cs * vv;
    out[1] = yy / n->ys - 2 * (1 - n->kb) * n->kb / kg / n->cs * uu - 2 * (1 - n->kr) * n->kr / kg / n->cs * vv;
    out[2] = yy / n->ys + 2 * (1 - n->kb) / n->cs * uu;
}

static int clamp_round(double v) {
    double r = floor(v + 0.5);
    return r < 0 ? 0 : r > 255 ? 255 : (int)r;
}

static const nominal k_nom[2][2] = {
    {{0.299, 0.114, 219.0 / 255, 224.0 / 255, 16}, {0.299, 0.114, 1, 1, 0}},
    {{0.2126, 0.0722, 219.0 / 255, 224.0 / 255, 16}, {0.2126, 0.0722, 1, 1, 0}}};

/* Every Y against a grid of (U, V): max |pf - real formula|. */
static int decode_vs_float(int m, int range) {
    enum { W = 512, H = 2 };
    static uint8_t yb[W * H], uv[W], rgb[W * H * 3];
    for (int x = 0; x < W; x++) yb[x] = yb[W + x] = (uint8_t)(x / 2);
    pf_color_opts o = {(pf_yuv_matrix)m, (pf_yuv_range)range};
    int worst = 0;
    for (int u = 0; u < 256; u += 5)
        for (int v = 0; v < 256; v += 5) {
            for (int i = 0; i < W / 2; i++) uv[2 * i] = (uint8_t)u, uv[2 * i + 1] = (uint8_t)v;
            pf_yuv f;
            memset(&f, 0, sizeof f);
            f.y = pf_image_hwc(yb, W, H, 1, PF_U8, 0);
            f.uv = pf_image_hwc(uv, W / 2, H / 2, 2, PF_U8, 0);
            pf_image d = pf_image_hwc(rgb, W, H, 3, PF_U8, 0);
            if (pf_cvt_color_from_yuv(NULL, 1, &f, &d, PF_COLOR_YUV2RGB_NV12, &o) != PF_OK) return 999;
            for (int x = 0; x < W; x++) {
                double want[3];
                ref_decode(&k_nom[m][range], m, x / 2, u, v, want);
                for (int c = 0; c < 3; c++) {
                    int e = abs((int)rgb[x * 3 + c] - clamp_round(want[c]));
                    if (e > worst) worst = e;
                }
            }
        }
    return worst;
}

/* Random RGB against the real encode formula (Y, and U/V of top-left pixels). */
static int encode_vs_float(int m, int range, uint64_t *rng) {
    enum { W = 256, H = 64 };
    static uint8_t rgb[W * H * 3], out[W * H * 3 / 2];
    for (size_t i = 0; i < sizeof rgb; i++) rgb[i] = (uint8_t)pft_rand(rng);
    pf_color_opts o = {(pf_yuv_matrix)m, (pf_yuv_range)range};
    pf_image s = pf_image_hwc(rgb, W, H, 3, PF_U8, 0);
    pf_yuv f = pf_yuv_i420(out, W, H, 0);
    if (pf_cvt_color_to_yuv(NULL, 1, &s, &f, PF_COLOR_RGB2YUV_I420, &o) != PF_OK) return 999;
    const nominal *n = &k_nom[m][range];
    double kg = 1 - n->kr - n->kb;
    int worst = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *p = rgb + (y * W + x) * 3;
            double yl = n->kr * p[0] + kg * p[1] + n->kb * p[2];
            int e = abs(out[y * W + x] - clamp_round(n->yoff + n->ys * yl));
            if (e > worst) worst = e;
            if ((x | y) & 1) continue;
            double cb = 128 + n->cs * (p[2] - yl) / (2 * (1 - n->kb));
            double cr = 128 + n->cs * (p[0] - yl) / (2 * (1 - n->kr));
            int k = (y / 2) * (W / 2) + x / 2;
            e = abs(out[W * H + k] - clamp_round(cb));
            if (e > worst) worst = e;
            e = abs(out[W * H + W * H / 4 + k] - clamp_round(cr));
            if (e > worst) worst = e;
        }
    return worst;
}

/* Round trip on 2x2-uniform random images; returns max |diff|. */
static int round_trip(int m, int range, int nv12, uint64_t *rng) {
    enum { W = 128, H = 64 };
    static uint8_t rgb[W * H * 3], back[W * H * 3], yuv[W * H * 3 / 2];
    for (int y = 0; y < H; y += 2)
        for (int x = 0; x < W; x += 2)
            for (int c = 0; c < 3; c++) {
                uint8_t v = (uint8_t)pft_rand(rng);
                rgb[(y * W + x) * 3 + c] = rgb[(y * W + x + 1) * 3 + c] = v;
                rgb[((y + 1) * W + x) * 3 + c] = rgb[((y + 1) * W + x + 1) * 3 + c] = v;
            }
    pf_color_opts o = {(pf_yuv_matrix)m, (pf_yuv_range)range};
    pf_image s = pf_image_hwc(rgb, W, H, 3, PF_U8, 0), d = pf_image_hwc(back, W, H, 3, PF_U8, 0);
    pf_yuv f = nv12 ? pf_yuv_nv12(yuv, W, H, 0) : pf_yuv_i420(yuv, W, H, 0);
    if (pf_cvt_color_to_yuv(NULL, 1, &s, &f, nv12 ? PF_COLOR_RGB2YUV_NV12 : PF_COLOR_RGB2YUV_I420, &o) != PF_OK ||
        pf_cvt_color_from_yuv(NULL, 1, &f, &d, nv12 ? PF_COLOR_YUV2RGB_NV12 : PF_COLOR_YUV2RGB_I420, &o) != PF_OK)
        return 999;
    int worst = 0;
    for (size_t i = 0; i < sizeof rgb; i++) {
        int e = abs((int)rgb[i] - (int)back[i]);
        if (e > worst) worst = e;
    }
    return worst;
}

/* Grey encodes to U = V = 128 exactly. */
static int grey_is_neutral(int m, int range) {
    enum { W = 256, H = 2 };
    static uint8_t rgb[W * H * 3], yuv[W * H * 3 / 2];
    for (int x = 0; x < W * H; x++) rgb[3 * x] = rgb[3 * x + 1] = rgb[3 * x + 2] = (uint8_t)(x / 2);
    pf_color_opts o = {(pf_yuv_matrix)m, (pf_yuv_range)range};
    pf_image s = pf_image_hwc(rgb, W, H, 3, PF_U8, 0);
    pf_yuv f = pf_yuv_i420(yuv, W, H, 0);
    if (pf_cvt_color_to_yuv(NULL, 1, &s, &f, PF_COLOR_RGB2YUV_I420, &o) != PF_OK) return 0;
    for (int i = W * H; i < W * H * 3 / 2; i++)
        if (yuv[i] != 128) return 0;
    return 1;
}

int main(void) {
    /* documented round-trip bounds (docs/exactness.md), [matrix][range] */
    static const int k_trip_bound[2][2] = {{2, 1}, {2, 1}};
    static const char *const names[2][2] = {{"BT.601 limited", "BT.601 full"}, {"BT.709 limited", "BT.709 full"}};
    uint64_t rng = 0x5eedull;
    for (int m = 0; m < 2; m++)
        for (int r = 0; r < 2; r++) {
            int dec = decode_vs_float(m, r), enc = encode_vs_float(m, r, &rng);
            int t0 = round_trip(m, r, 0, &rng), t1 = round_trip(m, r, 1, &rng);
            printf("%-15s decode vs real formula %d, encode vs real formula %d, round trip I420 %d NV12 %d\n",
                   names[m][r], dec, enc, t0, t1);
            CHECK(dec <= 1);
            CHECK(enc <= 1);
            CHECK(t0 <= k_trip_bound[m][r]);
            CHECK(t1 <= k_trip_bound[m][r]);
            CHECK(grey_is_neutral(m, r));
        }
    return pft_summary("yuv_props");
}
