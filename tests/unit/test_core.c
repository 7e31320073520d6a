/* Core: status names, errors, dtypes, views, validation, CPU caps, streams. */
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

static void test_status(void) {
    CHECK(strcmp(pf_status_str(PF_OK), "PF_OK") == 0);
    CHECK(strcmp(pf_status_str(PF_ERR_INVALID_ARGUMENT), "PF_ERR_INVALID_ARGUMENT") == 0);
    CHECK(strcmp(pf_status_str(PF_ERR_INTERNAL), "PF_ERR_INTERNAL") == 0);
    CHECK(strcmp(pf_status_str((pf_status)99), "PF_ERR_UNKNOWN") == 0);
    CHECK(strcmp(pf_version(), "0.1.0") == 0);
    CHECK(strlen(pf_build_info()) > 0);
}

static void test_dtypes(void) {
    CHECK(pf_dtype_size(PF_U8) == 1 && pf_dtype_size(PF_U16) == 2 && pf_dtype_size(PF_S16) == 2);
    CHECK(pf_dtype_size(PF_S32) == 4 && pf_dtype_size(PF_F16) == 2 && pf_dtype_size(PF_BF16) == 2);
    CHECK(pf_dtype_size(PF_F32) == 4 && pf_dtype_size((pf_dtype)42) == 0);
    CHECK(strcmp(pf_dtype_name(PF_BF16), "bf16") == 0 && strcmp(pf_dtype_name((pf_dtype)42), "?") == 0);
}

static void test_views(void) {
    static uint8_t buf[64 * 48 * 3];
    pf_image im = pf_image_hwc(buf, 64, 48, 3, PF_U8, 0);
    CHECK(im.row_stride == 192 && im.layout == PF_HWC && im.mem == PF_MEM_HOST);
    CHECK_STATUS(pf_image_validate(&im, "im"), PF_OK);

    pf_image roi;
    CHECK_STATUS(pf_image_roi(&im, 10, 5, 20, 7, &roi), PF_OK);
    CHECK((uint8_t *)roi.data == buf + 5 * 192 + 10 * 3 && roi.width == 20 && roi.height == 7);
    CHECK_STATUS(pf_image_roi(&im, 50, 5, 20, 7, &roi), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("leaves the 64x48 image");
    CHECK_STATUS(pf_image_roi(&im, 0, 0, 0, 7, &roi), PF_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(pf_image_roi(&im, 0, 0, 1, 1, NULL), PF_ERR_INVALID_ARGUMENT);

    pf_image bad = im;
    bad.data = NULL;
    CHECK_STATUS(pf_image_validate(&bad, "src[1]"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[1].data is NULL");
    bad = im; bad.width = 0;
    CHECK_STATUS(pf_image_validate(&bad, "x"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("width and height");
    bad = im; bad.channels = 5;
    CHECK_STATUS(pf_image_validate(&bad, "x"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("channels is 5");
    bad = im; bad.row_stride = 100;
    CHECK_STATUS(pf_image_validate(&bad, "x"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("row_stride is 100");
    bad = im; bad.dtype = (pf_dtype)17;
    CHECK_STATUS(pf_image_validate(&bad, "x"), PF_ERR_INVALID_ARGUMENT);
    bad = im; bad.layout = (pf_layout)7;
    CHECK_STATUS(pf_image_validate(&bad, "x"), PF_ERR_INVALID_ARGUMENT);
    bad = im; bad.width = INT32_MAX; bad.height = INT32_MAX; bad.row_stride = PTRDIFF_MAX;
    CHECK_STATUS(pf_image_validate(&bad, "x"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("overflow");
    CHECK_STATUS(pf_image_validate(NULL, "x"), PF_ERR_INVALID_ARGUMENT);

    /* negative row stride: data points at the last row */
    pf_image flip = pf_image_hwc(buf + 47 * 192, 64, 48, 3, PF_U8, -192);
    CHECK_STATUS(pf_image_validate(&flip, "flip"), PF_OK);

    /* planar */
    static float pl[3 * 10 * 8];
    pf_image chw = pf_image_chw(pl, 10, 8, 3, PF_F32, 0, 0);
    CHECK(chw.row_stride == 40 && chw.plane_stride == 320);
    CHECK_STATUS(pf_image_validate(&chw, "chw"), PF_OK);
    chw.plane_stride = 100; /* planes of 320 bytes would overlap */
    CHECK_STATUS(pf_image_validate(&chw, "chw"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("plane_stride");
    CHECK(pf_image_packed_size(10, 8, 3, PF_F32) == 960);
    CHECK(pf_image_packed_size(-1, 8, 3, PF_F32) == 0);
}

static void test_cpu(void) {
    pf_isa initial = pf_cpu_cap();
    CHECK_STATUS(pf_cpu_set_cap(PF_ISA_SCALAR), PF_OK);
    CHECK(pf_cpu_active_isa() == PF_ISA_SCALAR);
    for (int i = 0; i < pf_dispatch_count(); i++) {
        const char *name = NULL;
        pf_isa isa = PF_ISA_AVX512;
        CHECK_STATUS(pf_dispatch_entry(i, &name, &isa), PF_OK);
        CHECK(name != NULL && isa == PF_ISA_SCALAR);
    }
    CHECK_STATUS(pf_dispatch_entry(pf_dispatch_count(), NULL, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(pf_cpu_set_cap((pf_isa)12), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("cap 12");
    CHECK_STATUS(pf_cpu_set_cap(PF_ISA_AVX512), PF_OK);
    unsigned f = pf_cpu_features();
    if (f & PF_CPU_AVX2) CHECK(pf_cpu_active_isa() >= PF_ISA_AVX2);
    CHECK(pf_cpu_active_isa() <= PF_ISA_AVX512);
    CHECK_STATUS(pf_cpu_set_cap(PF_ISA_AVX512VBMI), PF_OK);
    CHECK(pf_cpu_cap() == PF_ISA_AVX512VBMI && pf_cpu_active_isa() <= PF_ISA_AVX512VBMI);
    CHECK_STATUS(pf_cpu_set_cap((pf_isa)(PF_ISA_NEON + 1)), PF_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(pf_cpu_set_cap((pf_isa)-1), PF_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(pf_isa_name(PF_ISA_AVX2), "avx2") == 0);
    CHECK(strcmp(pf_isa_name(PF_ISA_AVX512), "avx512") == 0);
    CHECK(strcmp(pf_isa_name(PF_ISA_AVX512VBMI), "avx512vbmi") == 0);
    pf_cpu_set_cap(initial);
}

static void test_stream(void) {
    pf_stream *s = NULL;
    CHECK_STATUS(pf_stream_create_cpu(-1, &s), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("threads is -1");
    CHECK_STATUS(pf_stream_create_cpu(2, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(pf_stream_create_cpu(3, &s), PF_OK);
    CHECK(pf_stream_threads(s) == 3);
    CHECK(pf_stream_isa(s) == pf_cpu_active_isa());
    CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
    pf_stream_destroy(s);
    CHECK_STATUS(pf_stream_create_cpu(0, &s), PF_OK);
    CHECK(pf_stream_threads(s) >= 1);
    pf_stream_destroy(s);
    pf_stream_destroy(NULL); /* no-op */
    CHECK(pf_stream_threads(NULL) == 1);
}

int main(void) {
    test_status();
    test_dtypes();
    test_views();
    test_cpu();
    test_stream();
    return pft_summary("test_core");
}
