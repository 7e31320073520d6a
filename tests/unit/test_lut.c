/* pf_lut: bad arguments are rejected with a message naming the argument
 * and leave dst untouched; semantics (shared / per-channel / per-sample
 * tables, CHW, in place, thread-count independence) on known values. */
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

static void test_args(void) {
    static uint8_t a[8 * 4 * 3], b[8 * 4 * 3], t[4 * 256];
    pf_image s = pf_image_hwc(a, 8, 4, 3, PF_U8, 0), d = pf_image_hwc(b, 8, 4, 3, PF_U8, 0);
    pf_lut_opts o = pf_lut_opts_defaults();
    CHECK(o.table_channels == 1 && o.per_sample == 0);
    CHECK_STATUS(pf_lut(NULL, 1, &s, &d, t, NULL), PF_OK);
    CHECK_STATUS(pf_lut(NULL, 0, NULL, NULL, NULL, NULL), PF_OK);
    CHECK_STATUS(pf_lut(NULL, -2, &s, &d, t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("count is -2");
    CHECK_STATUS(pf_lut(NULL, 1, NULL, &d, t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src is NULL");
    CHECK_STATUS(pf_lut(NULL, 1, &s, NULL, t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst is NULL");
    CHECK_STATUS(pf_lut(NULL, 1, &s, &d, NULL, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("tables is NULL");
    o.table_channels = 5;
    CHECK_STATUS(pf_lut(NULL, 1, &s, &d, t, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->table_channels is 5");
    o.table_channels = 2;
    CHECK_STATUS(pf_lut(NULL, 1, &s, &d, t, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("table_channels is 2 but src[0] has 3");
    o = pf_lut_opts_defaults();
    o.per_sample = 7;
    CHECK_STATUS(pf_lut(NULL, 1, &s, &d, t, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->per_sample is 7");
    pf_image f = pf_image_hwc(a, 2, 4, 3, PF_F32, 0);
    CHECK_STATUS(pf_lut(NULL, 1, &f, &d, t, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("src[0].dtype is f32");
    pf_image d2 = pf_image_hwc(b, 7, 4, 3, PF_U8, 0);
    CHECK_STATUS(pf_lut(NULL, 1, &s, &d2, t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] is 7x4x3");
    pf_image dc = pf_image_chw(b, 8, 4, 3, PF_U8, 0, 0);
    CHECK_STATUS(pf_lut(NULL, 1, &s, &dc, t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("differ in layout");
    pf_image shifted = pf_image_hwc(a + 3, 7, 4, 3, PF_U8, 24);
    pf_image s7 = pf_image_hwc(a, 7, 4, 3, PF_U8, 24);
    CHECK_STATUS(pf_lut(NULL, 1, &s7, &shifted, t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("overlap");
    pf_image dev = d;
    dev.mem = PF_MEM_CUDA;
    CHECK_STATUS(pf_lut(NULL, 1, &s, &dev, t, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("dst[0] is device memory");
    /* the whole batch is validated before any output is written */
    pf_image ss[2] = {s, s}, dd[2] = {d, d2};
    memset(b, 0xAB, sizeof b);
    for (int i = 0; i < 256; i++) t[i] = 0;
    CHECK_STATUS(pf_lut(NULL, 2, ss, dd, t, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[1]");
    CHECK(b[0] == 0xAB && b[sizeof b - 1] == 0xAB);
}

static void test_values(pf_stream *stream) {
    enum { W = 300, H = 70 };
    uint8_t *src = malloc(W * H * 4), *dst = malloc(W * H * 4 * 2);
    uint8_t tables[2 * 4 * 256];
    uint64_t rng = 99;
    for (int i = 0; i < W * H * 4; i++) src[i] = (uint8_t)pft_rand(&rng);
    for (int i = 0; i < 2 * 4 * 256; i++) tables[i] = (uint8_t)pft_rand(&rng);
    for (int cn = 1; cn <= 4; cn++) {
        for (int tcn = 1; tcn <= cn; tcn += cn > 1 ? cn - 1 : 1) {
            /* two samples with their own tables, HWC then CHW */
            for (int chw = 0; chw <= (cn > 1); chw++) {
                pf_image s[2], d[2];
                for (int i = 0; i < 2; i++) {
                    s[i] = chw ? pf_image_chw(src, W, H, cn, PF_U8, 0, 0) : pf_image_hwc(src, W, H, cn, PF_U8, 0);
                    uint8_t *o = dst + (size_t)i * W * H * 4;
                    d[i] = chw ? pf_image_chw(o, W, H, cn, PF_U8, 0, 0) : pf_image_hwc(o, W, H, cn, PF_U8, 0);
                }
                pf_lut_opts o = {tcn, 1};
                CHECK_STATUS(pf_lut(stream, 2, s, d, tables, &o), PF_OK);
                int bad = 0;
                for (int i = 0; i < 2; i++)
                    for (int k = 0; k < W * H * cn; k++) {
                        int c = chw ? k / (W * H) : k % cn;
                        const uint8_t *t = tables + (size_t)i * 256 * (size_t)tcn + (tcn == 1 ? 0 : 256 * c);
                        bad += dst[(size_t)i * W * H * 4 + (size_t)k] != t[src[k]];
                    }
                if (bad) fprintf(stderr, "lut values: cn=%d tcn=%d chw=%d: %d wrong\n", cn, tcn, chw, bad);
                CHECK(bad == 0);
            }
        }
    }
    /* in place equals out of place */
    pf_image s = pf_image_hwc(src, W, H, 3, PF_U8, 0), d = pf_image_hwc(dst, W, H, 3, PF_U8, 0);
    pf_lut_opts o = {3, 0};
    CHECK_STATUS(pf_lut(stream, 1, &s, &d, tables, &o), PF_OK);
    CHECK_STATUS(pf_lut(stream, 1, &s, &s, tables, &o), PF_OK);
    CHECK(memcmp(src, dst, W * H * 3) == 0);
    free(src);
    free(dst);
}

int main(void) {
    test_args();
    test_values(NULL);
    pf_stream *s4 = NULL;
    CHECK_STATUS(pf_stream_create_cpu(4, &s4), PF_OK);
    test_values(s4);
    pf_stream_destroy(s4);
    return pft_summary("test_lut");
}
