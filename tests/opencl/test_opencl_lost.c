/* A lost OpenCL device (src/opencl/cl_lost.c), simulated with the test
 * hook PIXFLOW_OPENCL_TEST_LOSE_AFTER=N (the command after the N-th one
 * queued on the context fails as a loss would):
 *  - the failing call and every later call on the device (ops on a
 *    stream and on the NULL stream, copies, synchronize, query, malloc,
 *    stream and event creation, event waits) return PF_ERR_DEVICE at once,
 *    naming the device, the cause and what to do;
 *  - the CPU backend keeps working;
 *  - frees and destroys still work (no leak; ctest runs it under the
 *    timeout, so a hang fails too);
 *  - pf_device_open after the loss makes a fresh context: ops run again
 *    and equal the CPU; the NULL stream's per-thread stream is remade;
 *    memory and an explicit stream kept from the lost context are refused
 *    by name, and can still be freed / destroyed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl_util.h"

enum { W = 64, H = 32, BYTES = W * H * 3 };

static pf_image view(void *p, int dev) {
    pf_image im = pf_image_hwc(p, W, H, 3, PF_U8, 0);
    if (dev) im.mem = PF_MEM_OPENCL, im.device = 0;
    return im;
}

static void check_lost_msg(void) {
    CHECK_MSG("OpenCL device 0");
    CHECK_MSG("is lost (simulated by PIXFLOW_OPENCL_TEST_LOSE_AFTER=7)");
    CHECK_MSG("pf_device_open it again");
}

/* Flips host src on the CPU and through device buffers a/b on stream s;
 * 1 when the device result equals the CPU's. */
static int flip_matches(pf_stream *s, uint8_t *a, uint8_t *b, const uint8_t *src) {
    uint8_t cpu[BYTES], back[BYTES];
    pf_image hs = view((void *)src, 0), hd = view(cpu, 0), ds = view(a, 1), dd = view(b, 1);
    pf_flip_code code = PF_FLIP_BOTH;
    CHECK_STATUS(pf_flip(NULL, 1, &hs, &hd, &code, 1), PF_OK);
    CHECK_STATUS(pf_memcpy_async(s, a, src, BYTES), PF_OK);
    CHECK_STATUS(pf_flip(s, 1, &ds, &dd, &code, 1), PF_OK);
    CHECK_STATUS(pf_memcpy_async(s, back, b, BYTES), PF_OK);
    if (s) CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
    return memcmp(cpu, back, BYTES) == 0;
}

int main(void) {
    /* read when the device's context is made, i.e. at the first open */
    setenv("PIXFLOW_OPENCL_TEST_LOSE_AFTER", "7", 1);
    pf_device *d = pft_opencl_device_or_skip("opencl_lost");
    uint8_t src[BYTES];
    uint64_t rng = 99;
    for (int i = 0; i < BYTES; i++) src[i] = (uint8_t)pft_rand(&rng);

    uint8_t *a = NULL, *b = NULL, *kept = NULL;
    pf_stream *s = NULL, *stale = NULL;
    CHECK_STATUS(pf_malloc(d, PF_ALLOC_DEVICE, BYTES, (void **)&a), PF_OK);
    CHECK_STATUS(pf_malloc(d, PF_ALLOC_DEVICE, BYTES, (void **)&b), PF_OK);
    CHECK_STATUS(pf_malloc(d, PF_ALLOC_DEVICE, BYTES, (void **)&kept), PF_OK);
    CHECK_STATUS(pf_stream_create(d, &s), PF_OK);
    CHECK_STATUS(pf_stream_create(d, &stale), PF_OK);
    /* commands 1..6: the NULL stream's flip makes this thread's implicit
     * stream (copy, upload, kernel, copy), then two copies on s */
    CHECK(flip_matches(NULL, a, b, src));
    CHECK_STATUS(pf_memcpy_async(s, a, src, BYTES), PF_OK);
    CHECK_STATUS(pf_memcpy_async(s, kept, src, BYTES), PF_OK);
    /* 7: the flip's parameter upload; 8: its kernel, which is lost */
    pf_image ds = view(a, 1), dd = view(b, 1);
    pf_flip_code code = PF_FLIP_HORIZONTAL;
    CHECK_STATUS(pf_flip(s, 1, &ds, &dd, &code, 1), PF_ERR_DEVICE);
    check_lost_msg();
    CHECK_MSG("pf_flip");

    /* every later call on the device: the same answer, at once */
    uint8_t host[BYTES];
    CHECK_STATUS(pf_flip(s, 1, &ds, &dd, &code, 1), PF_ERR_DEVICE);
    check_lost_msg();
    CHECK_STATUS(pf_flip(NULL, 1, &ds, &dd, &code, 1), PF_ERR_DEVICE);
    check_lost_msg();
    pf_normalize_opts no = pf_normalize_opts_defaults();
    CHECK_STATUS(pf_normalize(s, 1, &ds, &dd, &no), PF_ERR_DEVICE);
    check_lost_msg();
    CHECK_STATUS(pf_memcpy_async(s, host, a, BYTES), PF_ERR_DEVICE);
    check_lost_msg();
    CHECK_STATUS(pf_memcpy_async(NULL, a, src, BYTES), PF_ERR_DEVICE);
    check_lost_msg();
    CHECK_STATUS(pf_stream_synchronize(s), PF_ERR_DEVICE);
    check_lost_msg();
    int done = 0;
    CHECK_STATUS(pf_stream_query(s, &done), PF_ERR_DEVICE);
    CHECK_STATUS(pf_device_synchronize(d), PF_ERR_DEVICE);
    void *more = NULL;
    CHECK_STATUS(pf_malloc(d, PF_ALLOC_DEVICE, 256, &more), PF_ERR_DEVICE);
    check_lost_msg();
    pf_stream *s2 = NULL;
    CHECK_STATUS(pf_stream_create(d, &s2), PF_ERR_DEVICE);
    pf_event *ev = NULL;
    CHECK_STATUS(pf_event_create(d, &ev), PF_ERR_DEVICE);
    check_lost_msg();

    /* the CPU backend is not affected */
    uint8_t h2[BYTES];
    pf_image hs = view(src, 0), hd = view(h2, 0);
    CHECK_STATUS(pf_flip(NULL, 1, &hs, &hd, &code, 1), PF_OK);
    CHECK(h2[0] == src[(W - 1) * 3] && h2[1] == src[(W - 1) * 3 + 1]);

    /* drop what was lost (frees and destroys still work), open again */
    pf_free(d, PF_ALLOC_DEVICE, a);
    pf_free(d, PF_ALLOC_DEVICE, b);
    pf_stream_destroy(s);
    pf_device_close(d);
    unsetenv("PIXFLOW_OPENCL_TEST_LOSE_AFTER");
    pf_device *d2 = NULL;
    CHECK_STATUS(pf_device_open(PF_DEVICE_OPENCL, 0, &d2), PF_OK);
    CHECK(d2 != NULL && pf_opencl_context(d2) != NULL);
    if (d2 == NULL) return pft_summary("opencl_lost");
    a = b = NULL;
    CHECK_STATUS(pf_malloc(d2, PF_ALLOC_DEVICE, BYTES, (void **)&a), PF_OK);
    CHECK_STATUS(pf_malloc(d2, PF_ALLOC_DEVICE, BYTES, (void **)&b), PF_OK);
    CHECK_STATUS(pf_stream_create(d2, &s), PF_OK);
    CHECK(flip_matches(s, a, b, src));
    CHECK(flip_matches(NULL, a, b, src)); /* the implicit stream, remade */
    CHECK_STATUS(pf_event_create(d2, &ev), PF_OK);
    CHECK_STATUS(pf_event_record(ev, s), PF_OK);
    CHECK_STATUS(pf_event_synchronize(ev), PF_OK);
    pf_event_destroy(ev);

    /* what the lost context left: refused by name, still freeable */
    pf_image dk = view(kept, 1), db = view(b, 1);
    CHECK_STATUS(pf_flip(s, 1, &dk, &db, &code, 1), PF_ERR_DEVICE);
    CHECK_MSG("memory of an earlier context of OpenCL device 0");
    CHECK_STATUS(pf_memcpy_async(s, host, kept, BYTES), PF_ERR_DEVICE);
    CHECK_MSG("free it and allocate again");
    pf_image na = view(a, 1);
    CHECK_STATUS(pf_flip(stale, 1, &na, &db, &code, 1), PF_ERR_DEVICE);
    CHECK_MSG("this stream was made on an earlier context");
    pf_stream_destroy(stale);
    pf_free(d2, PF_ALLOC_DEVICE, kept);

    pf_free(d2, PF_ALLOC_DEVICE, a);
    pf_free(d2, PF_ALLOC_DEVICE, b);
    pf_stream_destroy(s);
    pf_device_close(d2);
    return pft_summary("opencl_lost");
}
