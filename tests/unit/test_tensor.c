/* pf_tensor: packed constructors, validation of strides, and the
 * per-sample views that every op accepts. */
#include "pixflow/pixflow.h"
#include "test_util.h"

int main(void) {
    static float buf[2 * 3 * 4 * 5];
    pf_tensor t = pf_tensor_nchw(buf, 2, 3, 4, 5, PF_F32);
    CHECK(t.row_stride == 20 && t.plane_stride == 80 && t.sample_stride == 240);
    CHECK(pf_tensor_packed_size(2, 3, 4, 5, PF_F32) == sizeof buf);
    CHECK(pf_tensor_packed_size(0, 3, 4, 5, PF_F32) == 0);
    CHECK(pf_tensor_packed_size(1 << 30, 4, 1 << 16, 1 << 16, PF_F32) == 0);
    CHECK_STATUS(pf_tensor_validate(&t, "t"), PF_OK);
    pf_image v[2];
    CHECK_STATUS(pf_tensor_views(&t, 0, 2, v), PF_OK);
    CHECK(v[1].data == (char *)buf + 240 && v[1].layout == PF_CHW && v[1].plane_stride == 80);
    CHECK(v[0].width == 5 && v[0].height == 4 && v[0].channels == 3);
    CHECK_STATUS(pf_image_validate(&v[1], "v"), PF_OK);

    pf_tensor h = pf_tensor_nhwc(buf, 2, 3, 4, 5, PF_F32);
    CHECK(h.row_stride == 60 && h.sample_stride == 240 && h.layout == PF_HWC);
    CHECK_STATUS(pf_tensor_views(&h, 1, 1, v), PF_OK);
    CHECK(v[0].data == (char *)buf + 240 && v[0].row_stride == 60);

    /* pitched: padded rows and samples are fine */
    pf_tensor p = h;
    p.row_stride = 64;
    p.sample_stride = 64 * 4;
    CHECK_STATUS(pf_tensor_validate(&p, "p"), PF_OK);
    /* overlapping samples are not */
    p.sample_stride = 100;
    CHECK_STATUS(pf_tensor_validate(&p, "p"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("p.sample_stride is 100");
    pf_tensor c = t;
    c.sample_stride = 200; /* less than 3 planes of 80 */
    CHECK_STATUS(pf_tensor_validate(&c, "c"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("c.sample_stride");
    c = t;
    c.n = 0;
    CHECK_STATUS(pf_tensor_validate(&c, "c"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("c.n is 0");
    c = t;
    c.plane_stride = 10;
    CHECK_STATUS(pf_tensor_validate(&c, "c"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("plane_stride");
    CHECK_STATUS(pf_tensor_validate(NULL, "nil"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("nil is NULL");
    CHECK_STATUS(pf_tensor_views(&t, 1, 2, v), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("outside");
    CHECK_STATUS(pf_tensor_views(&t, -1, 1, v), PF_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(pf_tensor_views(&t, 0, 1, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("out is NULL");
    /* a tensor's views go straight into an op: LUT over a u8 NHWC batch */
    static uint8_t px[3 * 2 * 2 * 3], table[256];
    for (int i = 0; i < 256; i++) table[i] = (uint8_t)(255 - i);
    for (int i = 0; i < (int)sizeof px; i++) px[i] = (uint8_t)i;
    pf_tensor u = pf_tensor_nhwc(px, 3, 3, 2, 2, PF_U8);
    pf_image uv[3];
    CHECK_STATUS(pf_tensor_views(&u, 0, 3, uv), PF_OK);
    CHECK_STATUS(pf_lut(NULL, 3, uv, uv, table, NULL), PF_OK);
    int ok = 1;
    for (int i = 0; i < (int)sizeof px; i++) ok &= px[i] == 255 - i;
    CHECK(ok);
    return pft_summary("test_tensor");
}
