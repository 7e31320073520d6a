/* pf_resize rejects bad arguments with a status and a message naming the
 * argument, and never writes the output when it does. */
#include <stdlib.h>
#include <string.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

int main(void) {
    static uint8_t a[32 * 32 * 4], b[16 * 16 * 4];
    pf_image src = pf_image_hwc(a, 32, 32, 3, PF_U8, 0), dst = pf_image_hwc(b, 16, 16, 3, PF_U8, 0);
    pf_resize_opts o = pf_resize_opts_defaults();
    CHECK(o.interp == PF_INTERP_LINEAR && !o.antialias);

    CHECK_STATUS(pf_resize(NULL, 1, &src, &dst, NULL), PF_OK);
    CHECK_STATUS(pf_resize(NULL, 0, NULL, NULL, NULL), PF_OK);
    CHECK_STATUS(pf_resize(NULL, -1, &src, &dst, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("count is -1");
    CHECK_STATUS(pf_resize(NULL, 1, NULL, &dst, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src is NULL");
    CHECK_STATUS(pf_resize(NULL, 1, &src, NULL, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst is NULL");

    o.interp = (pf_interp)5;
    CHECK_STATUS(pf_resize(NULL, 1, &src, &dst, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->interp is 5");
    o = pf_resize_opts_defaults();
    CHECK(o.flavor == PF_RESIZE_OPENCV);

    /* the flavour: its range, and the modes torchvision's F.resize lacks */
    o.flavor = (pf_resize_flavor)7;
    CHECK_STATUS(pf_resize(NULL, 1, &src, &dst, &o), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts->flavor is 7");
    o.flavor = PF_RESIZE_TORCHVISION;
    o.interp = PF_INTERP_AREA;
    CHECK_STATUS(pf_resize(NULL, 1, &src, &dst, &o), PF_ERR_UNSUPPORTED);
    CHECK_MSG("AREA with PF_RESIZE_TORCHVISION");
    o.interp = PF_INTERP_LANCZOS4;
    CHECK_STATUS(pf_resize(NULL, 1, &src, &dst, &o), PF_ERR_UNSUPPORTED);
    CHECK_MSG("needs opts->antialias");
    o.antialias = true;
    CHECK_STATUS(pf_resize(NULL, 1, &src, &dst, &o), PF_OK);
    /* PILLOW is always antialiased (the flag is ignored) and is what
     * OPENCV + antialias has always meant */
    for (size_t i = 0; i < sizeof a; i++) a[i] = (uint8_t)(i * 37 + (i >> 7));
    static uint8_t b2[16 * 16 * 4];
    pf_image dst2 = pf_image_hwc(b2, 16, 16, 3, PF_U8, 0);
    o.flavor = PF_RESIZE_PILLOW;
    o.interp = PF_INTERP_CUBIC;
    o.antialias = false;
    CHECK_STATUS(pf_resize(NULL, 1, &src, &dst, &o), PF_OK);
    o.flavor = PF_RESIZE_OPENCV;
    o.antialias = true;
    CHECK_STATUS(pf_resize(NULL, 1, &src, &dst2, &o), PF_OK);
    CHECK(memcmp(b, b2, 16 * 16 * 3) == 0);
    for (size_t i = 0; i < sizeof a; i++) a[i] = 0;
    o = pf_resize_opts_defaults();

    static float fbuf[16 * 16 * 3];
    pf_image d2 = pf_image_hwc(fbuf, 16, 16, 3, PF_F32, 0);
    CHECK_STATUS(pf_resize(NULL, 1, &src, &d2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] is f32");
    d2 = pf_image_hwc(b, 16, 16, 4, PF_U8, 0);
    CHECK_STATUS(pf_resize(NULL, 1, &src, &d2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("channels");
    pf_image s2 = src;
    s2.channels = 5;
    CHECK_STATUS(pf_resize(NULL, 1, &s2, &dst, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0].channels is 5");
    s2 = pf_image_hwc(a, 16, 16, 3, PF_F16, 0);
    d2 = pf_image_hwc(b, 8, 8, 3, PF_F16, 0);
    CHECK_STATUS(pf_resize(NULL, 1, &s2, &d2, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("f16");
    /* host and device views cannot mix in one call (routing names both) */
    s2 = src; s2.mem = PF_MEM_CUDA;
    CHECK_STATUS(pf_resize(NULL, 1, &s2, &dst, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[0] is CUDA device memory but dst[0] is host memory");
    /* a CPU stream cannot run device views (or, built without CUDA, device
     * views are unsupported); either way nothing runs and CUDA is named */
    d2 = dst; d2.mem = PF_MEM_CUDA;
    pf_stream *cpu2 = NULL;
    CHECK_STATUS(pf_stream_create_cpu(2, &cpu2), PF_OK);
    pf_status dev_st = pf_resize(cpu2, 1, &s2, &d2, NULL);
    CHECK(dev_st == PF_ERR_INVALID_ARGUMENT || dev_st == PF_ERR_UNSUPPORTED);
    CHECK_MSG("CUDA");
    pf_stream_destroy(cpu2);
    d2 = dst; d2.width = 0;
    CHECK_STATUS(pf_resize(NULL, 1, &src, &d2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0]");
    /* in place / overlapping */
    pf_image inplace = pf_image_hwc(a, 16, 16, 3, PF_U8, 0);
    CHECK_STATUS(pf_resize(NULL, 1, &src, &inplace, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("overlap");
    /* layout mismatch with several channels */
    d2 = pf_image_chw(b, 16, 16, 3, PF_U8, 0, 0);
    CHECK_STATUS(pf_resize(NULL, 1, &src, &d2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("layout");

    /* a bad sample later in the batch fails the call before any output is written */
    pf_image srcs[2] = {src, src}, dsts[2] = {dst, dst};
    dsts[1].data = NULL;
    memset(b, 0x5a, sizeof b);
    CHECK_STATUS(pf_resize(NULL, 2, srcs, dsts, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[1].data is NULL");
    CHECK(b[0] == 0x5a && b[100] == 0x5a);

    /* huge but valid-looking sizes are rejected, not allocated */
    s2 = pf_image_hwc(a, 1 << 30, 1 << 30, 4, PF_F32, 0);
    CHECK_STATUS(pf_resize(NULL, 1, &s2, &dst, NULL), PF_ERR_INVALID_ARGUMENT);
    return pft_summary("test_resize_args");
}
