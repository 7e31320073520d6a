/* pf_flip on OpenCL device views (the shared body src/kernels/gpu_flip.h
 * compiled as OpenCL C) against the CPU backend, byte for byte over whole
 * buffers (padding bytes are canaries): every dtype, 1..4 channels, HWC
 * and CHW, padded and negative strides, odd addresses, batches of 1..6,
 * shared and per-sample codes, on a NULL stream and on a created stream.
 * Then the program cache: first build from source, a cached start-up from
 * disk, a poisoned disk entry rebuilt (never trusted), and an injected
 * build failure (PIXFLOW_OPENCL_TEST_BUILD_OPTIONS) whose message carries
 * the compiler's log. Prints the build and cached start-up times
 * (docs/performance.md). */
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "opencl/cl_internal.h"
#include "opencl_util.h"

enum { MAXB = 6 };
static pf_device *g_dev;
static pf_stream *g_stream;
static int g_reported;

static int run_case(uint64_t seed) {
    uint64_t rng = seed;
    pf_dtype dt = (pf_dtype)pft_range(&rng, 0, 6);
    int cn = pft_range(&rng, 1, 4);
    pf_layout lay = pft_rand(&rng) & 1 ? PF_CHW : PF_HWC;
    int count = pft_range(&rng, 1, MAXB);
    int ncodes = pft_rand(&rng) & 1 ? 1 : count;
    pf_flip_code codes[MAXB];
    for (int i = 0; i < ncodes; i++) codes[i] = (pf_flip_code)pft_range(&rng, -1, 2);
    pft_img simg[MAXB], dcpu[MAXB], dout[MAXB];
    pft_dimg ds[MAXB], dd[MAXB];
    pf_image s[MAXB], dc[MAXB], dsv[MAXB], ddv[MAXB];
    int ok = 1;
    for (int i = 0; i < count; i++) {
        int32_t w = pft_range(&rng, 1, 90), h = pft_range(&rng, 1, 24);
        pft_img_make(&simg[i], w, h, cn, dt, lay, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        pft_img_make(&dcpu[i], w, h, cn, dt, lay, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        if (dt == PF_U8 && pft_range(&rng, 0, 3) == 0) dcpu[i].im.data = (uint8_t *)dcpu[i].im.data + 1;
        pft_img_clone(&dout[i], &dcpu[i]);
        s[i] = simg[i].im;
        dc[i] = dcpu[i].im;
        ok &= pft_dimg_make(g_dev, &ds[i], &simg[i]) && pft_dimg_make(g_dev, &dd[i], &dcpu[i]);
        dsv[i] = ds[i].im;
        ddv[i] = dd[i].im;
    }
    CHECK(ok);
    CHECK_STATUS(pf_flip(NULL, count, s, dc, codes, ncodes), PF_OK);
    pf_stream *st = seed & 1 ? g_stream : NULL;
    CHECK_STATUS(pf_flip(st, count, dsv, ddv, codes, ncodes), PF_OK);
    if (st) CHECK_STATUS(pf_stream_synchronize(st), PF_OK);
    for (int i = 0; i < count; i++) {
        CHECK(pft_dimg_fetch(&dd[i], &dout[i]));
        long at = pft_img_diff(&dcpu[i], &dout[i]);
        if (at >= 0) ok = 0;
        if (at >= 0 && ++g_reported <= 10)
            fprintf(stderr, "flip seed %llu: %s %dch %s code %d sample %d (%dx%d) differs at byte %ld\n",
                    (unsigned long long)seed, pf_dtype_name(dt), cn, lay == PF_CHW ? "CHW" : "HWC",
                    (int)codes[ncodes == 1 ? 0 : i], i, (int)s[i].width, (int)s[i].height, at);
        pft_dimg_free(g_dev, &ds[i]);
        pft_dimg_free(g_dev, &dd[i]);
        pft_img_free(&simg[i]), pft_img_free(&dcpu[i]), pft_img_free(&dout[i]);
    }
    CHECK(ok);
    return ok;
}

/* One small flip on the device: PF_OK and the right pixels, or the status. */
static pf_status flip_once(void) {
    uint8_t host[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, back[12] = {0};
    uint8_t *a = NULL, *b = NULL;
    if (pf_malloc(g_dev, PF_ALLOC_DEVICE, 12, (void **)&a) != PF_OK ||
        pf_malloc(g_dev, PF_ALLOC_DEVICE, 12, (void **)&b) != PF_OK)
        return PF_ERR_OUT_OF_MEMORY;
    pf_image s = pf_image_hwc(a, 4, 3, 1, PF_U8, 4), d = pf_image_hwc(b, 4, 3, 1, PF_U8, 4);
    s.mem = d.mem = PF_MEM_OPENCL;
    pf_flip_code code = PF_FLIP_BOTH;
    pf_status st = pf_memcpy_async(NULL, a, host, 12);
    if (st == PF_OK) st = pf_flip(NULL, 1, &s, &d, &code, 1);
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", pf_last_error());
    if (st == PF_OK) st = pf_memcpy_async(NULL, back, b, 12);
    pf_free(g_dev, PF_ALLOC_DEVICE, a);
    pf_free(g_dev, PF_ALLOC_DEVICE, b);
    if (st == PF_OK) CHECK(back[0] == 12 && back[11] == 1 && back[4] == 8);
    if (st != PF_OK) pfi_fail(st, "%s", msg);
    return st;
}

static void poison(const char *path, long at) {
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (f == NULL) return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    if (at < 0) at = size / 2;
    fseek(f, at, SEEK_SET);
    int c = fgetc(f);
    fseek(f, at, SEEK_SET);
    fputc(c ^ 0x5a, f);
    fclose(f);
}

static double wall_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void program_cache(void) {
    double ms = 0;
    /* main() pointed XDG_CACHE_HOME at an empty directory: a build from source */
    double t0 = wall_ms();
    CHECK_STATUS(flip_once(), PF_OK);
    double first = wall_ms() - t0;
    CHECK(pfi_cl_program_origin(0, PFI_CL_PROG_POINTWISE, &ms) == PFI_CL_FROM_SOURCE);
    printf("opencl program 'pointwise': first use built from source in %.1f ms (first pf_flip call %.1f ms)\n", ms,
           first);
    char path[1024];
    CHECK_STATUS(pfi_cl_program_cache_path(0, PFI_CL_PROG_POINTWISE, path, sizeof path), PF_OK);
    struct stat sb;
    CHECK(path[0] != '\0' && stat(path, &sb) == 0 && sb.st_size > 32);
    /* a new process would find it on disk */
    pfi_cl_program_forget(0);
    t0 = wall_ms();
    CHECK_STATUS(flip_once(), PF_OK);
    first = wall_ms() - t0;
    CHECK(pfi_cl_program_origin(0, PFI_CL_PROG_POINTWISE, &ms) == PFI_CL_FROM_DISK);
    printf("opencl program 'pointwise': cached start-up (disk) in %.1f ms (first pf_flip call %.1f ms)\n", ms,
           first);
    /* a poisoned payload, then a poisoned header: rebuilt, never trusted */
    long spots[2] = {-1, 9};
    for (int k = 0; k < 2; k++) {
        poison(path, spots[k]);
        pfi_cl_program_forget(0);
        CHECK_STATUS(flip_once(), PF_OK);
        CHECK(pfi_cl_program_origin(0, PFI_CL_PROG_POINTWISE, NULL) == PFI_CL_FROM_SOURCE);
        pfi_cl_program_forget(0);
        CHECK_STATUS(flip_once(), PF_OK); /* and the rewritten entry is good */
        CHECK(pfi_cl_program_origin(0, PFI_CL_PROG_POINTWISE, NULL) == PFI_CL_FROM_DISK);
    }
    /* a truncated entry */
    CHECK(truncate(path, 20) == 0);
    pfi_cl_program_forget(0);
    CHECK_STATUS(flip_once(), PF_OK);
    CHECK(pfi_cl_program_origin(0, PFI_CL_PROG_POINTWISE, NULL) == PFI_CL_FROM_SOURCE);
    /* an injected build failure: PF_ERR_DEVICE with the compiler's log */
    setenv("PIXFLOW_OPENCL_TEST_BUILD_OPTIONS", "-DPFT_BROKEN=1 -cl-no-such-option", 1);
    CHECK_STATUS(flip_once(), PF_ERR_DEVICE);
    CHECK_MSG("failed to build");
    CHECK_MSG("-cl-no-such-option");
    CHECK_MSG("compiler log");
    printf("injected build failure: %.300s\n", pf_last_error());
    /* and a compile error in the source: the compiler's own diagnostics */
    setenv("PIXFLOW_OPENCL_TEST_BUILD_OPTIONS", "-Dpfk_flip_at=", 1);
    CHECK_STATUS(flip_once(), PF_ERR_DEVICE);
    CHECK_MSG("compiler log");
    CHECK_MSG("error");
    printf("injected compile error: %.400s\n", pf_last_error());
    unsetenv("PIXFLOW_OPENCL_TEST_BUILD_OPTIONS");
    CHECK_STATUS(flip_once(), PF_OK);
}

int main(int argc, char **argv) {
    char dir[] = "/tmp/pixflow-opencl-cache-XXXXXX";
    if (mkdtemp(dir) == NULL) return 1;
    setenv("XDG_CACHE_HOME", dir, 1);
    g_dev = pft_opencl_device_or_skip("opencl_flip");
    if (argc == 1) program_cache();
    CHECK_STATUS(pf_stream_create(g_dev, &g_stream), PF_OK);
    int rc = pft_seeded_main(argc, argv, "opencl_flip", run_case, 25000, 240);
    pf_stream_destroy(g_stream);
    pf_device_close(g_dev);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return rc;
}
