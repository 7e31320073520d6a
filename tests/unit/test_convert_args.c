/*
 * Bad arguments of pf_convert, pf_reformat, pf_normalize, pf_split and
 * pf_merge: each returns the right status, names the argument in
 * pf_last_error(), and writes nothing (the whole batch is validated first).
 */
#include <math.h>

#include "pixflow/ops.h"
#include "test_util.h"

static uint8_t sbuf[8 * 6 * 4 * 4], dbuf[8 * 6 * 4 * 4], pbuf[4][8 * 6 * 4];

static pf_image img(uint8_t *p, int cn, pf_dtype dt) { return pf_image_hwc(p, 8, 6, cn, dt, 0); }

static void test_convert(void) {
    pf_image s = img(sbuf, 3, PF_U8), d = img(dbuf, 3, PF_F32);
    CHECK_STATUS(pf_convert(NULL, -1, &s, &d, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("count is -1");
    CHECK_STATUS(pf_convert(NULL, 0, NULL, NULL, NULL), PF_OK);
    CHECK_STATUS(pf_convert(NULL, 1, NULL, &d, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src is NULL");
    CHECK_STATUS(pf_convert(NULL, 1, &s, NULL, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst is NULL");
    pf_image bad = s;
    bad.data = NULL;
    CHECK_STATUS(pf_convert(NULL, 1, &bad, &d, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0].data");
    bad = d;
    bad.dtype = (pf_dtype)42;
    CHECK_STATUS(pf_convert(NULL, 1, &s, &bad, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0].dtype");
    bad = d;
    bad.width = 7;
    CHECK_STATUS(pf_convert(NULL, 1, &s, &bad, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("sizes must match");
    bad = d;
    bad.mem = PF_MEM_CUDA; /* host src, device dst: one call sees one memory */
    CHECK_STATUS(pf_convert(NULL, 1, &s, &bad, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] is CUDA device memory");
    pf_convert_opts o = pf_convert_opts_defaults();
    o.alpha = (double)NAN;
    CHECK_STATUS(pf_convert(NULL, 1, &s, &d, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->alpha");
    o = pf_convert_opts_defaults();
    o.beta = (double)INFINITY;
    CHECK_STATUS(pf_convert(NULL, 1, &s, &d, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->beta");
    o = pf_convert_opts_defaults();
    o.order[1] = 3; /* src has 3 channels */
    CHECK_STATUS(pf_convert(NULL, 1, &s, &d, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->order[1] is 3");
    o.order[1] = -2;
    CHECK_STATUS(pf_convert(NULL, 1, &s, &d, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->order[1] is -2");
    /* identity order but more dst than src channels */
    pf_image d4 = img(dbuf, 4, PF_F32);
    CHECK_STATUS(pf_convert(NULL, 1, &s, &d4, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->order[3] is 3");
    o = pf_convert_opts_defaults();
    o.order[0] = PF_CHANNEL_FILL;
    o.fill = (double)NAN;
    pf_image du8 = img(dbuf, 3, PF_U8);
    CHECK_STATUS(pf_convert(NULL, 1, &s, &du8, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("fill is NaN");
    /* overlap: a shifted view of the same buffer */
    pf_image sh = img(sbuf + 3, 3, PF_U8);
    sh.width = 7;
    pf_image s7 = s;
    s7.width = 7;
    CHECK_STATUS(pf_convert(NULL, 1, &s7, &sh, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("overlap");
    /* in place with a channel swap is refused */
    o = pf_convert_opts_defaults();
    o.order[0] = 2;
    o.order[2] = 0;
    CHECK_STATUS(pf_convert(NULL, 1, &s, &s, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("in place");
    /* in place u8 -> s16 (different element size) is refused */
    pf_image s16 = img(sbuf, 3, PF_S16);
    CHECK_STATUS(pf_convert(NULL, 1, &s, &s16, NULL), PF_ERR_INVALID_ARGUMENT);
    /* batch: the bad sample 1 stops everything before sample 0 is written */
    memset(dbuf, 0x5a, sizeof dbuf);
    memset(sbuf, 1, sizeof sbuf);
    pf_image ss[2] = {s, s}, dd[2] = {du8, du8};
    dd[1].height = 5;
    CHECK_STATUS(pf_convert(NULL, 2, ss, dd, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[1]");
    CHECK(dbuf[0] == 0x5a);
}

static void test_reformat(void) {
    pf_image s = img(sbuf, 3, PF_U8), d = pf_image_chw(dbuf, 8, 6, 3, PF_U16, 0, 0);
    CHECK_STATUS(pf_reformat(NULL, 1, &s, &d, NULL, 0), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("does not change values");
    d.dtype = PF_U8;
    d.row_stride = 8;
    d.plane_stride = 48;
    int8_t ord[4] = {0, 5, 1, 0};
    CHECK_STATUS(pf_reformat(NULL, 1, &s, &d, ord, 0), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("order[1] is 5");
    CHECK_STATUS(pf_reformat(NULL, -3, &s, &d, NULL, 0), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("count is -3");
    CHECK_STATUS(pf_reformat(NULL, 1, &s, &d, NULL, 0), PF_OK);
}

static void test_normalize(void) {
    pf_image s = img(sbuf, 3, PF_U8), d = pf_image_chw(dbuf, 8, 6, 3, PF_F32, 0, 0);
    pf_normalize_opts o = pf_normalize_opts_defaults();
    o.params.std[1] = 0;
    CHECK_STATUS(pf_normalize(NULL, 1, &s, &d, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->params.std[1] is 0");
    o.params.std[1] = INFINITY;
    CHECK_STATUS(pf_normalize(NULL, 1, &s, &d, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("std[1] is inf");
    o = pf_normalize_opts_defaults();
    o.params.mean[2] = NAN;
    CHECK_STATUS(pf_normalize(NULL, 1, &s, &d, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("mean[2]");
    o = pf_normalize_opts_defaults();
    o.scale = INFINITY;
    CHECK_STATUS(pf_normalize(NULL, 1, &s, &d, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->scale");
    o = pf_normalize_opts_defaults();
    o.mode = (pf_norm_mode)7;
    CHECK_STATUS(pf_normalize(NULL, 1, &s, &d, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->mode is 7");
    o = pf_normalize_opts_defaults();
    o.mode = PF_NORM_MINMAX;
    o.hi = (double)NAN;
    CHECK_STATUS(pf_normalize(NULL, 1, &s, &d, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->hi");
    pf_image s16 = img(sbuf, 3, PF_S16);
    CHECK_STATUS(pf_normalize(NULL, 1, &s16, &d, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("src[0].dtype is s16");
    pf_image ds32 = pf_image_chw(dbuf, 8, 6, 3, PF_S32, 0, 0);
    CHECK_STATUS(pf_normalize(NULL, 1, &s, &ds32, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("dst[0].dtype is s32");
    o = pf_normalize_opts_defaults();
    o.order[0] = PF_CHANNEL_FILL;
    CHECK_STATUS(pf_normalize(NULL, 1, &s, &d, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("no fill value");
    o = pf_normalize_opts_defaults();
    o.order[2] = 4;
    CHECK_STATUS(pf_normalize(NULL, 1, &s, &d, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->order[2] is 4");
    /* per-sample params are checked per sample */
    pf_norm_params ps[2] = {{{0, 0, 0, 0}, {1, 1, 1, 1}}, {{0, 0, 0, 0}, {1, 1, 0, 1}}};
    o = pf_normalize_opts_defaults();
    o.per_sample = ps;
    pf_image ss[2] = {s, s}, dd[2] = {d, d};
    CHECK_STATUS(pf_normalize(NULL, 2, ss, dd, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->per_sample[1].std[2]");
    pf_image small = pf_image_chw(dbuf, 8, 5, 3, PF_F32, 0, 0);
    CHECK_STATUS(pf_normalize(NULL, 1, &s, &small, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("sizes must match");
}

static void test_split_merge(void) {
    pf_image s = img(sbuf, 3, PF_U8), p[4];
    for (int c = 0; c < 4; c++) p[c] = img(pbuf[c], 1, PF_U8);
    CHECK_STATUS(pf_split(NULL, 1, &s, p), PF_OK);
    CHECK_STATUS(pf_split(NULL, -1, &s, p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("count is -1");
    pf_image q[3] = {p[0], p[1], p[2]};
    q[1] = pf_image_hwc(pbuf[1], 8, 6, 1, PF_U16, 0);
    CHECK_STATUS(pf_split(NULL, 1, &s, q), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[1].dtype is u16");
    q[1] = img(pbuf[1], 2, PF_U8);
    CHECK_STATUS(pf_split(NULL, 1, &s, q), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[1].channels is 2");
    q[1] = p[0]; /* two planes in one buffer */
    CHECK_STATUS(pf_split(NULL, 1, &s, q), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[1] overlaps dst[0]");
    q[1] = img(sbuf, 1, PF_U8);
    CHECK_STATUS(pf_split(NULL, 1, &s, q), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("overlaps src[0]");
    q[1] = p[1];
    q[2].height = 3;
    CHECK_STATUS(pf_split(NULL, 1, &s, q), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("sizes must match");

    pf_image d = img(dbuf, 3, PF_U8);
    CHECK_STATUS(pf_merge(NULL, 1, 3, p, &d), PF_OK);
    CHECK_STATUS(pf_merge(NULL, 1, 5, p, &d), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("channels is 5");
    CHECK_STATUS(pf_merge(NULL, 1, 2, p, &d), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0].channels is 3 but channels is 2");
    pf_image r[3] = {p[0], p[1], p[2]};
    r[2].data = NULL;
    CHECK_STATUS(pf_merge(NULL, 1, 3, r, &d), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[2].data");
    CHECK_STATUS(pf_merge(NULL, 1, 3, NULL, &d), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src is NULL");
}

int main(void) {
    test_convert();
    test_reformat();
    test_normalize();
    test_split_merge();
    return pft_summary("test_convert_args");
}
