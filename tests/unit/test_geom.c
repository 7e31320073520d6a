/* Geometry ops (flip, rotate, transpose, copy_make_border): bad arguments
 * name the argument and write nothing; properties: flip twice, rotate four
 * quarter turns, transpose twice and CW-then-CCW are identities; per-sample
 * codes in one batch; results independent of the thread count. */
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

static void test_args(void) {
    static uint8_t a[6 * 4 * 3], b[6 * 4 * 3];
    pf_image s = pf_image_hwc(a, 6, 4, 3, PF_U8, 0), d = pf_image_hwc(b, 6, 4, 3, PF_U8, 0);
    pf_image dt = pf_image_hwc(b, 4, 6, 3, PF_U8, 0);
    pf_flip_code f = PF_FLIP_HORIZONTAL;
    pf_rotate_code r = PF_ROTATE_90_CLOCKWISE;
    CHECK_STATUS(pf_flip(NULL, 1, &s, &d, &f, 1), PF_OK);
    CHECK_STATUS(pf_flip(NULL, 0, NULL, NULL, NULL, 0), PF_OK);
    CHECK_STATUS(pf_flip(NULL, -1, &s, &d, &f, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("pf_flip: count is -1");
    CHECK_STATUS(pf_flip(NULL, 1, &s, &d, NULL, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("codes is NULL");
    CHECK_STATUS(pf_flip(NULL, 1, &s, &d, &f, 2), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("ncodes is 2");
    pf_flip_code bad = (pf_flip_code)7;
    CHECK_STATUS(pf_flip(NULL, 1, &s, &d, &bad, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("codes[0] is 7");
    CHECK_STATUS(pf_flip(NULL, 1, &s, &dt, &f, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] is 4x6; it must be 6x4");
    CHECK_STATUS(pf_flip(NULL, 1, &s, &s, &f, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("overlap");
    pf_image d16 = pf_image_hwc(b, 3, 4, 3, PF_U16, 0);
    CHECK_STATUS(pf_flip(NULL, 1, &s, &d16, &f, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0] is u8 but dst[0] is u16");
    CHECK_STATUS(pf_rotate(NULL, 1, &s, &dt, &r, 1), PF_OK);
    CHECK_STATUS(pf_rotate(NULL, 1, &s, &d, &r, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] is 6x4; it must be 4x6");
    pf_rotate_code rbad = (pf_rotate_code)-3;
    CHECK_STATUS(pf_rotate(NULL, 1, &s, &dt, &rbad, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("codes[0] is -3");
    CHECK_STATUS(pf_transpose(NULL, 1, &s, &dt), PF_OK);
    CHECK_STATUS(pf_transpose(NULL, 1, &s, &d), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("pf_transpose: dst[0]");
    CHECK_STATUS(pf_transpose(NULL, 1, NULL, &d), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src is NULL");

    static uint8_t big[10 * 9 * 3];
    pf_image pd = pf_image_hwc(big, 10, 9, 3, PF_U8, 0);
    pf_border_params bp = {2, 1, PF_BORDER_REFLECT_101, {0, 0, 0, 0}};
    CHECK_STATUS(pf_copy_make_border(NULL, 1, &s, &pd, &bp, 1), PF_OK);
    CHECK_STATUS(pf_copy_make_border(NULL, 1, &s, &pd, NULL, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params is NULL");
    CHECK_STATUS(pf_copy_make_border(NULL, 1, &s, &pd, &bp, 0), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("nparams is 0");
    bp.mode = (pf_border)9;
    CHECK_STATUS(pf_copy_make_border(NULL, 1, &s, &pd, &bp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("params[0].mode is 9");
    bp.mode = PF_BORDER_WRAP;
    bp.top = -1;
    CHECK_STATUS(pf_copy_make_border(NULL, 1, &s, &pd, &bp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("top -1");
    bp.top = 6;
    CHECK_STATUS(pf_copy_make_border(NULL, 1, &s, &pd, &bp, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] is 10x9, too small");
    static uint16_t hb[10 * 9 * 3], hs[6 * 4 * 3];
    pf_image h16 = pf_image_hwc(hs, 6, 4, 3, PF_F16, 0), h16d = pf_image_hwc(hb, 10, 9, 3, PF_F16, 0);
    pf_border_params cb = {1, 1, PF_BORDER_CONSTANT, {1, 2, 3, 4}};
    CHECK_STATUS(pf_copy_make_border(NULL, 1, &h16, &h16d, &cb, 1), PF_ERR_UNSUPPORTED);
    CHECK_MSG("src[0] is f16");
    /* validation of the whole batch before writing */
    memset(big, 0x5A, sizeof big);
    pf_image ss[2] = {s, s}, dd[2] = {pd, d};
    pf_border_params ok = {1, 1, PF_BORDER_REPLICATE, {0, 0, 0, 0}};
    CHECK_STATUS(pf_copy_make_border(NULL, 2, ss, dd, &ok, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[1]");
    CHECK(big[0] == 0x5A && big[sizeof big - 1] == 0x5A);
}

static int same(const pf_image *a, const pf_image *b) {
    size_t rb = (size_t)a->width * (size_t)a->channels * pf_dtype_size(a->dtype);
    for (int y = 0; y < a->height; y++)
        if (memcmp((char *)a->data + y * a->row_stride, (char *)b->data + y * b->row_stride, rb)) return 0;
    return 1;
}

static void test_props(pf_stream *st) {
    enum { W = 301, H = 173 };
    uint64_t rng = 5;
    for (int px = 0; px < 4; px++) {
        pf_dtype dt = px == 2 ? PF_U16 : px == 3 ? PF_F32 : PF_U8;
        int cn = (int[]){3, 1, 2, 4}[px];
        size_t n = (size_t)W * H * (size_t)cn * pf_dtype_size(dt);
        char *a = malloc(n), *b = malloc(n), *c = malloc(n);
        for (size_t i = 0; i < n; i++) a[i] = (char)pft_rand(&rng);
        pf_image A = pf_image_hwc(a, W, H, cn, dt, 0), B = pf_image_hwc(b, W, H, cn, dt, 0),
                 C = pf_image_hwc(c, W, H, cn, dt, 0);
        pf_image Bt = pf_image_hwc(b, H, W, cn, dt, 0);
        for (int code = -1; code <= 2; code++) {
            pf_flip_code f = (pf_flip_code)code;
            CHECK_STATUS(pf_flip(st, 1, &A, &B, &f, 1), PF_OK);
            CHECK_STATUS(pf_flip(st, 1, &B, &C, &f, 1), PF_OK);
            CHECK(same(&A, &C));
        }
        pf_rotate_code cw = PF_ROTATE_90_CLOCKWISE, ccw = PF_ROTATE_90_COUNTERCLOCKWISE;
        CHECK_STATUS(pf_rotate(st, 1, &A, &Bt, &cw, 1), PF_OK);
        CHECK_STATUS(pf_rotate(st, 1, &Bt, &C, &ccw, 1), PF_OK);
        CHECK(same(&A, &C));
        CHECK_STATUS(pf_transpose(st, 1, &A, &Bt), PF_OK);
        CHECK_STATUS(pf_transpose(st, 1, &Bt, &C), PF_OK);
        CHECK(same(&A, &C));
        /* four clockwise quarter turns */
        CHECK_STATUS(pf_rotate(st, 1, &A, &Bt, &cw, 1), PF_OK);
        CHECK_STATUS(pf_rotate(st, 1, &Bt, &C, &cw, 1), PF_OK);
        CHECK_STATUS(pf_rotate(st, 1, &C, &Bt, &cw, 1), PF_OK);
        CHECK_STATUS(pf_rotate(st, 1, &Bt, &C, &cw, 1), PF_OK);
        CHECK(same(&A, &C));
        /* rotate 180 == flip both */
        pf_rotate_code r180 = PF_ROTATE_180;
        pf_flip_code both = PF_FLIP_BOTH;
        CHECK_STATUS(pf_rotate(st, 1, &A, &B, &r180, 1), PF_OK);
        CHECK_STATUS(pf_flip(st, 1, &A, &C, &both, 1), PF_OK);
        CHECK(same(&B, &C));
        free(a); free(b); free(c);
    }
    /* per-sample codes in one batch */
    uint8_t px[2 * 3] = {1, 2, 3, 4, 5, 6}, out[2][6];
    pf_image s[2] = {pf_image_hwc(px, 3, 2, 1, PF_U8, 0), pf_image_hwc(px, 3, 2, 1, PF_U8, 0)};
    pf_image d[2] = {pf_image_hwc(out[0], 3, 2, 1, PF_U8, 0), pf_image_hwc(out[1], 3, 2, 1, PF_U8, 0)};
    pf_flip_code codes[2] = {PF_FLIP_HORIZONTAL, PF_FLIP_NONE};
    CHECK_STATUS(pf_flip(st, 2, s, d, codes, 2), PF_OK);
    CHECK(out[0][0] == 3 && out[0][2] == 1 && out[0][3] == 6 && memcmp(out[1], px, 6) == 0);
}

int main(void) {
    test_args();
    test_props(NULL);
    pf_stream *s3 = NULL;
    CHECK_STATUS(pf_stream_create_cpu(3, &s3), PF_OK);
    test_props(s3);
    pf_stream_destroy(s3);
    return pft_summary("test_geom");
}
