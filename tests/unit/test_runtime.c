/* Runtime on the CPU backend (every machine): devices, streams, events,
 * memory, copies, pools, callbacks, and where ops are routed. The CUDA
 * side of the same API is tests/cuda/test_cuda_runtime.c; here we check
 * that a machine without a GPU (or a build without CUDA) answers with
 * clear errors. */
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "pixflow/pixflow.h"
#include "test_util.h"

static void test_devices(void) {
    int n = -1;
    CHECK_STATUS(pf_device_count(PF_DEVICE_CPU, &n), PF_OK);
    CHECK(n == 1);
    CHECK_STATUS(pf_device_count((pf_device_kind)7, &n), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("kind");
    CHECK_STATUS(pf_device_count(PF_DEVICE_CPU, NULL), PF_ERR_INVALID_ARGUMENT);
    pf_device *a = NULL, *b = NULL;
    CHECK_STATUS(pf_device_open(PF_DEVICE_CPU, 0, &a), PF_OK);
    CHECK_STATUS(pf_device_open(PF_DEVICE_CPU, 0, &b), PF_OK);
    CHECK(a != NULL && a == b); /* one shared handle per device */
    pf_device_props p;
    CHECK_STATUS(pf_device_props_get(a, &p), PF_OK);
    CHECK(p.kind == PF_DEVICE_CPU && p.multiprocessors >= 1 && p.total_memory > 0 && p.name[0] != '\0');
    CHECK_STATUS(pf_device_synchronize(a), PF_OK);
    pf_device_close(b);
    pf_device_close(a);
    pf_device_close(NULL);
    pf_device *c = NULL;
    CHECK_STATUS(pf_device_open(PF_DEVICE_CPU, 1, &c), PF_ERR_INVALID_ARGUMENT);
    CHECK(c == NULL);
    CHECK_MSG("index");

    /* no GPU on CI: zero CUDA devices and a clear error on open */
    int ncuda = -1;
    CHECK_STATUS(pf_device_count(PF_DEVICE_CUDA, &ncuda), PF_OK);
    CHECK(ncuda >= 0);
    if (ncuda == 0) {
        pf_status st = pf_device_open(PF_DEVICE_CUDA, 0, &c);
        CHECK(st == PF_ERR_UNSUPPORTED || st == PF_ERR_DEVICE || st == PF_ERR_INVALID_ARGUMENT);
        CHECK(c == NULL);
        CHECK_MSG("pf_device_open");
        printf("no CUDA device: pf_device_open says: %s\n", pf_last_error());
    }
}

static void test_streams_events(void) {
    pf_device *cpu;
    CHECK_STATUS(pf_device_open(PF_DEVICE_CPU, 0, &cpu), PF_OK);
    pf_stream *s = NULL;
    CHECK_STATUS(pf_stream_create(cpu, &s), PF_OK);
    CHECK(pf_stream_device(s) == cpu);
    CHECK(pf_stream_device(NULL) == cpu);
    CHECK(pf_stream_cuda_handle(s) == NULL);
    CHECK(pf_stream_threads(s) >= 1);
    int done = 0;
    CHECK_STATUS(pf_stream_query(s, &done), PF_OK);
    CHECK(done == 1);
    pf_stream *w = (pf_stream *)1;
    CHECK_STATUS(pf_stream_wrap_cuda(cpu, NULL, &w), PF_ERR_INVALID_ARGUMENT);
    CHECK(w == NULL); /* out is cleared on failure */

    pf_event *e0, *e1;
    CHECK_STATUS(pf_event_create(cpu, &e0), PF_OK);
    CHECK_STATUS(pf_event_create(cpu, &e1), PF_OK);
    float ms = -1;
    CHECK_STATUS(pf_event_elapsed_ms(e0, e1, &ms), PF_ERR_INVALID_ARGUMENT); /* never recorded */
    CHECK_MSG("pf_event_elapsed_ms: start was never recorded"); /* backend errors name the public call */
    CHECK_STATUS(pf_event_record(e0, s), PF_OK);
    volatile double x = 0;
    for (int i = 0; i < 2000000; i++) x = x + i;
    CHECK(x > 0.0);
    CHECK_STATUS(pf_event_record(e1, NULL), PF_OK);
    CHECK_STATUS(pf_event_elapsed_ms(e0, e1, &ms), PF_OK);
    CHECK(ms >= 0.0f && ms < 10000.0f);
    CHECK_STATUS(pf_event_query(e1, &done), PF_OK);
    CHECK(done == 1);
    CHECK_STATUS(pf_event_synchronize(e1), PF_OK);
    CHECK_STATUS(pf_stream_wait_event(s, e0), PF_OK);
    CHECK_STATUS(pf_event_record(NULL, s), PF_ERR_INVALID_ARGUMENT);
    pf_event_destroy(e0);
    pf_event_destroy(e1);
    pf_event_destroy(NULL);
    pf_stream_destroy(s);
    pf_device_close(cpu);
}

static int g_calls;
static pf_status g_cb_status = PF_ERR_INTERNAL;
static void on_done(void *user, pf_status st) {
    g_calls += *(int *)user;
    g_cb_status = st;
}

static void test_callbacks(void) {
    int add = 3;
    pf_stream *s;
    CHECK_STATUS(pf_stream_create_cpu(2, &s), PF_OK);
    CHECK_STATUS(pf_stream_add_callback(s, on_done, &add), PF_OK);
    CHECK(g_calls == 3 && g_cb_status == PF_OK);
    CHECK_STATUS(pf_stream_add_callback(NULL, on_done, &add), PF_OK);
    CHECK(g_calls == 6);
    CHECK_STATUS(pf_stream_add_callback(s, NULL, &add), PF_ERR_INVALID_ARGUMENT);
    pf_stream_destroy(s);
}

static void test_memory_copies(void) {
    pf_device *cpu;
    CHECK_STATUS(pf_device_open(PF_DEVICE_CPU, 0, &cpu), PF_OK);
    void *p = NULL;
    CHECK_STATUS(pf_malloc(cpu, PF_ALLOC_DEVICE, 0, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("bytes");
    CHECK_STATUS(pf_malloc(cpu, (pf_alloc_kind)9, 16, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("kind");
    CHECK_STATUS(pf_malloc(NULL, PF_ALLOC_DEVICE, 16, &p), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("device");
    uint8_t *a, *b;
    CHECK_STATUS(pf_malloc(cpu, PF_ALLOC_PINNED, 4096, (void **)&a), PF_OK);
    CHECK_STATUS(pf_malloc(cpu, PF_ALLOC_DEVICE, 4096, (void **)&b), PF_OK);
    CHECK(((uintptr_t)a & 255) == 0 && ((uintptr_t)b & 255) == 0);
    for (int i = 0; i < 4096; i++) a[i] = (uint8_t)(i * 7);
    CHECK_STATUS(pf_memcpy_async(NULL, b, a, 4096), PF_OK);
    CHECK(memcmp(a, b, 4096) == 0);
    memset(b, 0, 4096);
    /* 2D: 10 rows of 30 bytes, pitches 64 -> 32 */
    CHECK_STATUS(pf_memcpy2d_async(NULL, b, 32, a, 64, 30, 10), PF_OK);
    int ok = 1;
    for (int r = 0; r < 10; r++) ok &= memcmp(b + r * 32, a + r * 64, 30) == 0;
    CHECK(ok);
    CHECK_STATUS(pf_memcpy2d_async(NULL, b, 16, a, 64, 30, 10), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst_pitch");
    CHECK_STATUS(pf_memcpy_async(NULL, NULL, a, 4), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst");

    /* images: CHW with a negative row stride -> packed CHW */
    uint8_t srcbuf[3 * 5 * 4], dstbuf[3 * 5 * 4];
    for (int i = 0; i < (int)sizeof srcbuf; i++) srcbuf[i] = (uint8_t)i;
    pf_image src = pf_image_chw(srcbuf + 4 * 4, 4, 5, 3, PF_U8, -4, 20); /* rows bottom-up */
    pf_image dst = pf_image_chw(dstbuf, 4, 5, 3, PF_U8, 0, 0);
    CHECK_STATUS(pf_image_copy_async(NULL, &src, &dst), PF_OK);
    ok = 1;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < 5; y++)
            for (int x = 0; x < 4; x++) ok &= dstbuf[c * 20 + y * 4 + x] == srcbuf[c * 20 + (4 - y) * 4 + x];
    CHECK(ok);
    pf_image bad = dst;
    bad.width = 3;
    CHECK_STATUS(pf_image_copy_async(NULL, &src, &bad), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst");

    /* tensors: pitched NCHW -> packed */
    float tin[2 * 2 * 3 * 8], tout[2 * 2 * 3 * 4];
    for (int i = 0; i < 2 * 2 * 3 * 8; i++) tin[i] = (float)i;
    pf_tensor ts = pf_tensor_nchw(tin, 2, 2, 3, 4, PF_F32);
    ts.row_stride = 8 * 4;
    ts.plane_stride = 3 * 8 * 4;
    ts.sample_stride = 2 * 3 * 8 * 4;
    pf_tensor td = pf_tensor_nchw(tout, 2, 2, 3, 4, PF_F32);
    CHECK_STATUS(pf_tensor_copy_async(NULL, &ts, &td), PF_OK);
    CHECK(tout[0] == 0.0f && tout[4] == 8.0f && tout[12] == 24.0f && tout[24] == 48.0f && tout[47] == 91.0f);
    pf_free(cpu, PF_ALLOC_PINNED, a);
    pf_free(cpu, PF_ALLOC_DEVICE, b);
    pf_free(cpu, PF_ALLOC_DEVICE, NULL);
    pf_device_close(cpu);
}

static void test_pool(void) {
    pf_device *cpu;
    CHECK_STATUS(pf_device_open(PF_DEVICE_CPU, 0, &cpu), PF_OK);
    pf_pool *pool = NULL;
    CHECK_STATUS(pf_pool_create(cpu, PF_ALLOC_DEVICE, 100, &pool), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("cap_bytes");
    const size_t cap = 1u << 20;
    CHECK_STATUS(pf_pool_create(cpu, PF_ALLOC_DEVICE, cap, &pool), PF_OK);
    void *p = NULL, *q = NULL;
    CHECK_STATUS(pf_pool_alloc(pool, 1000, NULL, &p), PF_OK);
    CHECK_STATUS(pf_pool_free(pool, p, NULL), PF_OK);
    CHECK_STATUS(pf_pool_alloc(pool, 900, NULL, &q), PF_OK); /* same class: reused */
    CHECK(p == q);
    CHECK_STATUS(pf_pool_free(pool, q, NULL), PF_OK);
    CHECK_STATUS(pf_pool_free(pool, q, NULL), PF_ERR_INVALID_ARGUMENT); /* double free */
    CHECK_MSG("already free");
    int local;
    CHECK_STATUS(pf_pool_free(pool, &local, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("not allocated");
    CHECK_STATUS(pf_pool_alloc(pool, cap + 1, NULL, &p), PF_ERR_OUT_OF_MEMORY);
    CHECK_MSG("cap");

    /* churn: random sizes, random lifetimes; reserved never passes the cap
     * and the block set stabilises (no growth after the first rounds) */
    uint64_t seed = 12345;
    void *live[32] = {0};
    size_t peak_after_warmup = 0;
    for (int round = 0; round < 4000; round++) {
        int k = pft_range(&seed, 0, 31);
        if (live[k]) {
            CHECK_STATUS(pf_pool_free(pool, live[k], NULL), PF_OK);
            live[k] = NULL;
        } else {
            size_t want = (size_t)pft_range(&seed, 1, 40000);
            pf_status st = pf_pool_alloc(pool, want, NULL, &live[k]);
            if (st != PF_OK) {
                CHECK(st == PF_ERR_OUT_OF_MEMORY); /* only when live blocks fill the cap */
                live[k] = NULL;
            }
        }
        pf_pool_stats ps;
        CHECK_STATUS(pf_pool_stats_get(pool, &ps), PF_OK);
        if (ps.reserved > cap) CHECK(ps.reserved <= cap);
        if (round == 1000) peak_after_warmup = ps.peak_reserved;
    }
    pf_pool_stats ps;
    CHECK_STATUS(pf_pool_stats_get(pool, &ps), PF_OK);
    CHECK(ps.peak_reserved <= cap);
    CHECK(ps.reuses > ps.backend_allocs); /* the point of a pool */
    printf("pool churn: %llu allocs, %llu reuses, %llu backend allocs, peak %zu (after warm-up %zu) of cap %zu\n",
           (unsigned long long)ps.allocs, (unsigned long long)ps.reuses, (unsigned long long)ps.backend_allocs,
           ps.peak_reserved, peak_after_warmup, cap);
    for (int k = 0; k < 32; k++)
        if (live[k]) CHECK_STATUS(pf_pool_free(pool, live[k], NULL), PF_OK);
    CHECK_STATUS(pf_pool_stats_get(pool, &ps), PF_OK);
    CHECK(ps.in_use == 0);
    CHECK_STATUS(pf_pool_trim(pool), PF_OK);
    CHECK_STATUS(pf_pool_stats_get(pool, &ps), PF_OK);
    CHECK(ps.reserved == 0);

    /* the cap is met by evicting idle cached blocks of other classes */
    CHECK_STATUS(pf_pool_alloc(pool, cap / 2, NULL, &p), PF_OK);
    CHECK_STATUS(pf_pool_free(pool, p, NULL), PF_OK);
    CHECK_STATUS(pf_pool_alloc(pool, cap / 2 + cap / 4, NULL, &q), PF_OK);
    CHECK_STATUS(pf_pool_stats_get(pool, &ps), PF_OK);
    CHECK(ps.reserved <= cap && ps.in_use > 0);
    /* a block never freed is returned by destroy (ASan would flag a leak) */
    pf_pool_destroy(pool);
    pf_pool_destroy(NULL);
    pf_device_close(cpu);
}

static void test_routing(void) {
    uint8_t buf[64 * 3], out[16 * 3];
    pf_image h = pf_image_hwc(buf, 8, 8, 3, PF_U8, 0);
    pf_image hs = pf_image_hwc(out, 4, 4, 3, PF_U8, 0);
    pf_image d = h, ds = hs;
    d.mem = ds.mem = PF_MEM_CUDA;
    const pfi_backend *be = (const pfi_backend *)1;
    pf_stream *use = (pf_stream *)1;
    /* all host, NULL or CPU stream: the host path */
    CHECK_STATUS(pfi_route_images("op", NULL, 1, &h, &hs, &be, &use), PF_OK);
    CHECK(be == NULL && use == NULL);
    pf_stream *cs;
    CHECK_STATUS(pf_stream_create_cpu(1, &cs), PF_OK);
    CHECK_STATUS(pfi_route_images("op", cs, 1, &h, &hs, &be, &use), PF_OK);
    CHECK(be == NULL && use == cs);
    /* mixing host and device views names the offender */
    CHECK_STATUS(pfi_route_images("pf_resize", NULL, 1, &h, &ds, &be, &use), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] is CUDA device memory");
    pf_image two_src[2] = {h, d}, two_dst[2] = {hs, hs};
    CHECK_STATUS(pfi_route_images("pf_resize", NULL, 2, two_src, two_dst, &be, &use), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("src[1]");
    /* views on two devices */
    pf_image d1 = ds;
    d1.device = 1;
    CHECK_STATUS(pfi_route_images("pf_resize", NULL, 1, &d, &d1, &be, &use), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("device");
    /* unknown memory kind */
    pf_image weird = hs;
    weird.mem = (pf_mem)5;
    CHECK_STATUS(pfi_route_images("pf_resize", NULL, 1, &h, &weird, &be, &use), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0].mem");
    /* device views with a CPU stream */
    pf_status st = pfi_route_images("pf_resize", cs, 1, &d, &ds, &be, &use);
    CHECK(st == PF_ERR_INVALID_ARGUMENT || st == PF_ERR_UNSUPPORTED); /* UNSUPPORTED: no CUDA in this build */
    CHECK_MSG("pf_resize");
    /* device views, NULL stream, no GPU here: a clear error, not a crash */
    int ncuda = 0;
    CHECK_STATUS(pf_device_count(PF_DEVICE_CUDA, &ncuda), PF_OK);
    if (ncuda == 0) {
        st = pfi_route_images("pf_resize", NULL, 1, &d, &ds, &be, &use);
        CHECK(st == PF_ERR_UNSUPPORTED || st == PF_ERR_DEVICE);
        CHECK_MSG("pf_resize");
        printf("device views without a GPU: %s\n", pf_last_error());
    }
    pf_stream_destroy(cs);
}

int main(void) {
    test_devices();
    test_streams_events();
    test_callbacks();
    test_memory_copies();
    test_pool();
    test_routing();
    return pft_summary("runtime");
}
