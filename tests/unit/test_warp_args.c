/* pf_warp_affine / pf_warp_perspective / pf_remap and the matrix helpers:
 * bad arguments (each rejected with a message naming the argument, before
 * any output is written) and properties: the identity matrix copies for
 * every interp, a quarter turn about the centre of an odd square equals
 * pf_rotate (NEAREST), results do not depend on the thread count, and a
 * batch with per-sample matrices equals one call per sample. */
#include <math.h>
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

static uint8_t g_src[64 * 48 * 4], g_dst[64 * 48 * 4], g_dst2[64 * 48 * 4];
static float g_map[40 * 30 * 2];

static void bad_args(void) {
    pf_image s = pf_image_hwc(g_src, 64, 48, 3, PF_U8, 0), d = pf_image_hwc(g_dst, 40, 30, 3, PF_U8, 0);
    pf_image s2[2] = {s, s}, d2[2] = {d, pf_image_hwc(g_dst2, 40, 30, 3, PF_U8, 0)};
    double id[12] = {1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0};
    double p9[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    pf_warp_opts o = pf_warp_opts_defaults();
    CHECK(o.interp == PF_INTERP_LINEAR && o.border == PF_BORDER_CONSTANT && o.flags == 0);
    CHECK_STATUS(pf_warp_affine(NULL, 0, NULL, NULL, NULL, 0, NULL), PF_OK);
    CHECK_STATUS(pf_warp_affine(NULL, -1, &s, &d, id, 1, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("count");
    CHECK_STATUS(pf_warp_affine(NULL, 1, NULL, &d, id, 1, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src");
    CHECK_STATUS(pf_warp_affine(NULL, 1, &s, &d, NULL, 1, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("matrices");
    CHECK_STATUS(pf_warp_affine(NULL, 2, s2, d2, id, 3, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("nmatrices");
    CHECK_STATUS(pf_warp_affine(NULL, 2, s2, d2, id, 0, NULL), PF_ERR_INVALID_ARGUMENT);
    /* singular, NaN, inf */
    double sing[6] = {1, 2, 0, 2, 4, 0};
    CHECK_STATUS(pf_warp_affine(NULL, 1, &s, &d, sing, 1, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("singular");
    o.flags = PF_WARP_INVERSE_MAP; /* a singular dst -> src map is fine: nothing to invert */
    CHECK_STATUS(pf_warp_affine(NULL, 1, &s, &d, sing, 1, &o), PF_OK);
    o.flags = 0;
    double p_sing[9] = {1, 2, 3, 2, 4, 6, 0, 0, 1};
    CHECK_STATUS(pf_warp_perspective(NULL, 1, &s, &d, p_sing, 1, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("singular");
    double nanm[12] = {1, 0, 0, 0, 1, 0, 1, 0, (double)NAN, 0, 1, 0};
    memset(g_dst, 0x11, sizeof g_dst);
    CHECK_STATUS(pf_warp_affine(NULL, 2, s2, d2, nanm, 2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("matrices[1] entry 2");
    CHECK(g_dst[0] == 0x11); /* sample 0 untouched: the batch is validated first */
    double infm[9] = {1, 0, 0, 0, 1, 0, 0, (double)INFINITY, 1};
    CHECK_STATUS(pf_warp_perspective(NULL, 1, &s, &d, infm, 1, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("not finite");
    /* interp / border / flags */
    o.interp = PF_INTERP_AREA;
    CHECK_STATUS(pf_warp_affine(NULL, 1, &s, &d, id, 1, &o), PF_ERR_UNSUPPORTED);
    CHECK_MSG("interp");
    o.interp = (pf_interp)9;
    CHECK_STATUS(pf_warp_perspective(NULL, 1, &s, &d, p9, 1, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("interp");
    o = pf_warp_opts_defaults();
    o.border = (pf_border)6;
    CHECK_STATUS(pf_warp_affine(NULL, 1, &s, &d, id, 1, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("border");
    o.border = (pf_border)-1;
    CHECK_STATUS(pf_warp_affine(NULL, 1, &s, &d, id, 1, &o), PF_ERR_INVALID_ARGUMENT);
    o = pf_warp_opts_defaults();
    o.flags = 1;
    CHECK_STATUS(pf_warp_affine(NULL, 1, &s, &d, id, 1, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("flags");
    /* images */
    pf_image bad = pf_image_hwc(g_dst, 40, 30, 3, PF_U16, 0);
    CHECK_STATUS(pf_warp_affine(NULL, 1, &s, &bad, id, 1, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0]");
    bad = pf_image_hwc(g_dst, 40, 30, 4, PF_U8, 0);
    CHECK_STATUS(pf_warp_affine(NULL, 1, &s, &bad, id, 1, NULL), PF_ERR_INVALID_ARGUMENT);
    pf_image s16 = pf_image_hwc(g_src, 64, 48, 1, PF_S16, 0), d16 = pf_image_hwc(g_dst, 40, 30, 1, PF_S16, 0);
    CHECK_STATUS(pf_warp_affine(NULL, 1, &s16, &d16, id, 1, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("s16");
    pf_image huge = pf_image_hwc(g_src, 40000, 1, 1, PF_U8, 0);
    pf_image d1 = pf_image_hwc(g_dst, 40, 30, 1, PF_U8, 0);
    CHECK_STATUS(pf_warp_affine(NULL, 1, &huge, &d1, id, 1, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("32767");
    pf_image ov = pf_image_hwc(g_src + 30, 40, 30, 3, PF_U8, 0);
    CHECK_STATUS(pf_warp_affine(NULL, 1, &s, &ov, id, 1, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("overlap");
    pf_image chw = pf_image_chw(g_dst, 40, 30, 3, PF_U8, 0, 0);
    CHECK_STATUS(pf_warp_affine(NULL, 1, &s, &chw, id, 1, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("layout");
    /* remap maps */
    pf_image mx = pf_image_hwc(g_map, 40, 30, 1, PF_F32, 0), my = pf_image_hwc(g_map + 1200, 40, 30, 1, PF_F32, 0);
    CHECK_STATUS(pf_remap(NULL, 1, &s, &d, &mx, &my, NULL), PF_OK);
    CHECK_STATUS(pf_remap(NULL, 1, &s, &d, NULL, &my, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("map_x");
    pf_image mbad = pf_image_hwc(g_map, 39, 30, 1, PF_F32, 0);
    CHECK_STATUS(pf_remap(NULL, 1, &s, &d, &mx, &mbad, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("map_y[0]");
    mbad = pf_image_hwc(g_map, 40, 30, 2, PF_F32, 0);
    CHECK_STATUS(pf_remap(NULL, 1, &s, &d, &mbad, &my, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("1-channel f32");
    pf_image dmap = pf_image_hwc(g_map, 40, 30, 1, PF_F32, 0), sf = pf_image_hwc(g_src, 64, 48, 1, PF_F32, 0);
    CHECK_STATUS(pf_remap(NULL, 1, &sf, &dmap, &mx, &my, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("overlap");
    o = pf_warp_opts_defaults();
    o.flags = PF_WARP_INVERSE_MAP;
    CHECK_STATUS(pf_remap(NULL, 1, &s, &d, &mx, &my, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("flags");
    /* helpers */
    double m[9];
    float col[6] = {0, 0, 1, 1, 2, 2}, pts[6] = {0, 0, 10, 0, 0, 10};
    CHECK_STATUS(pf_affine_from_points(col, pts, m), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("collinear");
    CHECK_STATUS(pf_affine_from_points(pts, pts, m), PF_OK);
    CHECK(m[0] == 1 && m[1] == 0 && m[2] == 0 && m[3] == 0 && m[4] == 1 && m[5] == 0);
    float q[8] = {0, 0, 10, 0, 10, 10, 0, 10}, qbad[8] = {0, 0, 5, 5, 10, 10, 0, 10};
    CHECK_STATUS(pf_perspective_from_points(qbad, q, m), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("degenerate");
    CHECK_STATUS(pf_perspective_from_points(q, q, m), PF_OK);
    CHECK(fabs(m[0] - 1) < 1e-12 && fabs(m[4] - 1) < 1e-12 && fabs(m[6]) < 1e-12 && m[8] == 1);
    CHECK_STATUS(pf_perspective_from_points(q, NULL, m), PF_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(pf_invert_affine(sing, m), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("singular");
    double rot[6], inv[6];
    CHECK_STATUS(pf_rotation_matrix_2d(10.f, 20.f, 30, 2, rot), PF_OK);
    CHECK_STATUS(pf_invert_affine(rot, inv), PF_OK);
    CHECK(fabs(inv[0] * rot[0] + inv[1] * rot[3] - 1) < 1e-12);
    CHECK_STATUS(pf_rotation_matrix_2d(0.f, 0.f, (double)NAN, 1, rot), PF_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(pf_rotation_matrix_2d(0.f, 0.f, 0, 1, NULL), PF_ERR_INVALID_ARGUMENT);
}

static void fill(void *p, size_t n, uint64_t seed) {
    uint8_t *b = p;
    for (size_t i = 0; i < n; i++) b[i] = (uint8_t)pft_rand(&seed);
}

/* The identity copies, for every dtype, interp and border. */
static void identity(void) {
    static float fs[37 * 23 * 3], fd[37 * 23 * 3];
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) fs[i] = (float)i * 0.37f - 50.f;
    fill(g_src, sizeof g_src, 3);
    const pf_dtype dts[3] = {PF_U8, PF_U16, PF_F32};
    double id6[6] = {1, 0, 0, 0, 1, 0}, id9[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (int t = 0; t < 3; t++)
        for (int interp = 0; interp <= 2; interp++)
            for (int border = 0; border <= 5; border++)
                for (int op = 0; op < 2; op++) {
                    void *sp = dts[t] == PF_F32 ? (void *)fs : (void *)g_src;
                    void *dp = dts[t] == PF_F32 ? (void *)fd : (void *)g_dst;
                    pf_image s = pf_image_hwc(sp, 37, 23, 3, dts[t], 0), d = pf_image_hwc(dp, 37, 23, 3, dts[t], 0);
                    pf_warp_opts o = pf_warp_opts_defaults();
                    o.interp = (pf_interp)interp;
                    o.border = (pf_border)border;
                    o.border_value[0] = 0;
                    memset(dp, 0, 37 * 23 * 3 * pf_dtype_size(dts[t]));
                    CHECK_STATUS(op ? pf_warp_perspective(NULL, 1, &s, &d, id9, 1, &o)
                                    : pf_warp_affine(NULL, 1, &s, &d, id6, 1, &o),
                                 PF_OK);
                    /* LINEAR + TRANSPARENT writes only pixels whose 2x2 neighbourhood is
                     * inside (OpenCV): the last row and column keep their zeros */
                    size_t es = pf_dtype_size(dts[t]), rowb = 37 * 3 * es;
                    int edge = interp == PF_INTERP_LINEAR && border == 5;
                    int ok = 1;
                    for (int y = 0; y < 23 - edge; y++)
                        ok &= memcmp((char *)sp + y * rowb, (char *)dp + y * rowb, rowb - (size_t)edge * 3 * es) == 0;
                    if (!ok) fprintf(stderr, "identity differs: %s interp %d border %d op %d\n", pf_dtype_name(dts[t]), interp, border, op);
                    CHECK(ok);
                }
}

/* A +-90 degree rotation about the centre of an odd square is pf_rotate. */
static void quarter_turns(void) {
    for (int n = 1; n <= 31; n += 6)
        for (int cn = 1; cn <= 4; cn++)
            for (int dir = 0; dir < 2; dir++) {
                fill(g_src, sizeof g_src, (uint64_t)(n * 10 + cn));
                pf_image s = pf_image_hwc(g_src, n, n, cn, PF_U8, 0);
                pf_image a = pf_image_hwc(g_dst, n, n, cn, PF_U8, 0), b = pf_image_hwc(g_dst2, n, n, cn, PF_U8, 0);
                double m[6];
                float c = (float)(n - 1) * 0.5f;
                CHECK_STATUS(pf_rotation_matrix_2d(c, c, dir ? 90 : -90, 1, m), PF_OK);
                pf_warp_opts o = pf_warp_opts_defaults();
                o.interp = PF_INTERP_NEAREST;
                CHECK_STATUS(pf_warp_affine(NULL, 1, &s, &a, m, 1, &o), PF_OK);
                pf_rotate_code rc = dir ? PF_ROTATE_90_COUNTERCLOCKWISE : PF_ROTATE_90_CLOCKWISE;
                CHECK_STATUS(pf_rotate(NULL, 1, &s, &b, &rc, 1), PF_OK);
                int ok = memcmp(g_dst, g_dst2, (size_t)(n * n * cn)) == 0;
                if (!ok) fprintf(stderr, "quarter turn differs: n=%d cn=%d dir=%d\n", n, cn, dir);
                CHECK(ok);
            }
}

/* Same bytes for 1 and 3 threads; a batch equals per-sample calls. */
static void threads_and_batches(void) {
    enum { W = 300, H = 200 };
    uint8_t *src = malloc(W * H * 3), *a = malloc(W * H * 3 * 2), *b = malloc(W * H * 3 * 2);
    fill(src, W * H * 3, 9);
    pf_stream *s3 = NULL;
    CHECK_STATUS(pf_stream_create_cpu(3, &s3), PF_OK);
    pf_image s[2] = {pf_image_hwc(src, W, H, 3, PF_U8, 0), pf_image_hwc(src, W / 2, H, 3, PF_U8, W * 3)};
    double m[18] = {0.9, 0.2, -5, -0.15, 1.1, 7, 0.0004, -0.0003, 1, 1.2, -0.1, 3, 0.05, 0.8, -2, -0.001, 0.0002, 1.1};
    for (int interp = 0; interp <= 2; interp++)
        for (int op = 0; op < 2; op++) {
            pf_image da[2] = {pf_image_hwc(a, W, H, 3, PF_U8, 0), pf_image_hwc(a + W * H * 3, W - 7, H - 3, 3, PF_U8, 0)};
            pf_image db[2] = {pf_image_hwc(b, W, H, 3, PF_U8, 0), pf_image_hwc(b + W * H * 3, W - 7, H - 3, 3, PF_U8, 0)};
            memset(a, 0, W * H * 6);
            memset(b, 0, W * H * 6);
            pf_warp_opts o = pf_warp_opts_defaults();
            o.interp = (pf_interp)interp;
            o.border = PF_BORDER_REFLECT;
            if (op) CHECK_STATUS(pf_warp_perspective(s3, 2, s, da, m, 2, &o), PF_OK);
            else CHECK_STATUS(pf_warp_affine(s3, 2, s, da, m, 2, &o), PF_OK);
            for (int i = 0; i < 2; i++) {
                const double *mi = op ? m + 9 * i : m + 6 * i;
                if (op) CHECK_STATUS(pf_warp_perspective(NULL, 1, &s[i], &db[i], mi, 1, &o), PF_OK);
                else CHECK_STATUS(pf_warp_affine(NULL, 1, &s[i], &db[i], mi, 1, &o), PF_OK);
            }
            CHECK(memcmp(a, b, W * H * 6) == 0);
        }
    pf_stream_destroy(s3);
    free(src);
    free(a);
    free(b);
}

int main(void) {
    bad_args();
    identity();
    quarter_turns();
    threads_and_batches();
    return pft_summary("test_warp_args");
}
