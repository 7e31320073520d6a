/* CUDA runtime on a real GPU (skips without one): streams and events order
 * work across streams, pools stay under their cap while reusing blocks in
 * stream order, copies round-trip, errors surface with names, and several
 * streams run concurrently with correct results. */
#include <stdlib.h>
#include <string.h>

#include "cuda_skip.h"
#include "test_util.h"

enum { MB = 1 << 20 };

static void fill(uint8_t *p, size_t n, uint64_t seed) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(pft_rand(&seed) >> 56);
}

static void test_props_streams(pf_device *gpu) {
    pf_device_props p;
    CHECK_STATUS(pf_device_props_get(gpu, &p), PF_OK);
    CHECK(p.kind == PF_DEVICE_CUDA && p.total_memory > 0 && p.multiprocessors > 0 && p.compute_major >= 5);
    pf_stream *s = NULL, *w = NULL;
    CHECK_STATUS(pf_stream_create(gpu, &s), PF_OK);
    CHECK(pf_stream_cuda_handle(s) != NULL);
    CHECK(pf_stream_device(s) == gpu);
    /* wrap the caller's handle: pixflow uses it, never destroys it */
    CHECK_STATUS(pf_stream_wrap_cuda(gpu, pf_stream_cuda_handle(s), &w), PF_OK);
    CHECK(pf_stream_cuda_handle(w) == pf_stream_cuda_handle(s));
    pf_stream_destroy(w);
    int done = 0;
    CHECK_STATUS(pf_stream_query(s, &done), PF_OK); /* the handle still works */
    CHECK(done == 1);
    pf_stream_destroy(s);
}

/* s1 fills a device buffer with a long chain of copies; s2 waits on an
 * event recorded after the chain and copies the result out: it must see
 * the final data, never an intermediate. */
static void test_event_ordering(pf_device *gpu) {
    const size_t n = 64 * MB;
    uint8_t *h0, *h1, *hout, *d0, *d1;
    CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_PINNED, n, (void **)&h0), PF_OK);
    CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_PINNED, n, (void **)&h1), PF_OK);
    CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_PINNED, n, (void **)&hout), PF_OK);
    CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_DEVICE, n, (void **)&d0), PF_OK);
    CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_DEVICE, n, (void **)&d1), PF_OK);
    fill(h0, n, 1);
    fill(h1, n, 2);
    pf_stream *s1, *s2;
    CHECK_STATUS(pf_stream_create(gpu, &s1), PF_OK);
    CHECK_STATUS(pf_stream_create(gpu, &s2), PF_OK);
    pf_event *ev, *t0, *t1;
    CHECK_STATUS(pf_event_create(gpu, &ev), PF_OK);
    CHECK_STATUS(pf_event_create(gpu, &t0), PF_OK);
    CHECK_STATUS(pf_event_create(gpu, &t1), PF_OK);
    int rounds_ok = 0;
    for (int round = 0; round < 8; round++) {
        CHECK_STATUS(pf_event_record(t0, s1), PF_OK);
        for (int k = 0; k < 6; k++) CHECK_STATUS(pf_memcpy_async(s1, d0, (k & 1) ? h0 : h1, n), PF_OK);
        CHECK_STATUS(pf_memcpy_async(s1, d1, d0, n), PF_OK); /* last copy of d0 came from h0 */
        CHECK_STATUS(pf_event_record(ev, s1), PF_OK);
        CHECK_STATUS(pf_event_record(t1, s1), PF_OK);
        CHECK_STATUS(pf_stream_wait_event(s2, ev), PF_OK);
        CHECK_STATUS(pf_memcpy_async(s2, hout, d1, n), PF_OK);
        CHECK_STATUS(pf_stream_synchronize(s2), PF_OK);
        rounds_ok += memcmp(hout, h0, n) == 0;
        memset(hout, 0, n);
    }
    CHECK(rounds_ok == 8);
    float ms = 0;
    CHECK_STATUS(pf_event_synchronize(t1), PF_OK);
    CHECK_STATUS(pf_event_elapsed_ms(t0, t1, &ms), PF_OK);
    CHECK(ms > 0.0f);
    printf("7 x 64 MiB copies: %.3f ms (%.0f GB/s host->device)\n", (double)ms, 7.0 * (double)n / ((double)ms * 1e6));
    int done = 0;
    CHECK_STATUS(pf_event_query(ev, &done), PF_OK);
    CHECK(done == 1);
    pf_event_destroy(ev);
    pf_event_destroy(t0);
    pf_event_destroy(t1);
    pf_stream_destroy(s1);
    pf_stream_destroy(s2);
    pf_free(gpu, PF_ALLOC_PINNED, h0);
    pf_free(gpu, PF_ALLOC_PINNED, h1);
    pf_free(gpu, PF_ALLOC_PINNED, hout);
    pf_free(gpu, PF_ALLOC_DEVICE, d0);
    pf_free(gpu, PF_ALLOC_DEVICE, d1);
}

/* Device pool churn over two streams: the reserved bytes never pass the
 * cap, blocks are reused, and a block freed on s1 while s1 still writes
 * it is not handed to s2 before that write has finished (the data s2
 * reads back is what s1 wrote last, then what s2 wrote). */
static void test_pool_churn(pf_device *gpu) {
    const size_t cap = 256 * MB;
    pf_pool *pool;
    CHECK_STATUS(pf_pool_create(gpu, PF_ALLOC_DEVICE, cap, &pool), PF_OK);
    pf_stream *s[2];
    CHECK_STATUS(pf_stream_create(gpu, &s[0]), PF_OK);
    CHECK_STATUS(pf_stream_create(gpu, &s[1]), PF_OK);
    const size_t big = 16 * MB;
    uint8_t *src, *back;
    CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_PINNED, big, (void **)&src), PF_OK);
    CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_PINNED, big, (void **)&back), PF_OK);
    uint64_t seed = 7;
    int ordered_ok = 0, ordered_runs = 0;
    for (int round = 0; round < 300; round++) {
        int a = round & 1, b = a ^ 1;
        size_t want = (size_t)pft_range(&seed, 1, (int)big);
        void *p = NULL;
        CHECK_STATUS(pf_pool_alloc(pool, want, s[a], &p), PF_OK);
        if (p == NULL) break;
        fill(src, want, (uint64_t)round);
        CHECK_STATUS(pf_memcpy_async(s[a], p, src, want), PF_OK);
        CHECK_STATUS(pf_pool_free(pool, p, s[a]), PF_OK);
        /* s[b] takes a block of the same class; if it is p, it must wait
         * for s[a]'s copy: copy it back on s[b] and compare */
        void *q = NULL;
        CHECK_STATUS(pf_pool_alloc(pool, want, s[b], &q), PF_OK);
        if (q == p) {
            ordered_runs++;
            CHECK_STATUS(pf_memcpy_async(s[b], back, q, want), PF_OK);
            CHECK_STATUS(pf_stream_synchronize(s[b]), PF_OK);
            ordered_ok += memcmp(back, src, want) == 0;
        }
        CHECK_STATUS(pf_pool_free(pool, q, s[b]), PF_OK);
        pf_pool_stats ps;
        CHECK_STATUS(pf_pool_stats_get(pool, &ps), PF_OK);
        if (ps.reserved > cap) CHECK(ps.reserved <= cap);
    }
    CHECK(ordered_ok == ordered_runs);
    pf_pool_stats ps;
    CHECK_STATUS(pf_pool_stats_get(pool, &ps), PF_OK);
    printf("device pool: %llu allocs, %llu reuses, %llu cudaMalloc, peak %zu MiB of %zu; %d cross-stream reuses "
           "checked\n",
           (unsigned long long)ps.allocs, (unsigned long long)ps.reuses, (unsigned long long)ps.backend_allocs,
           ps.peak_reserved / MB, cap / MB, ordered_runs);
    CHECK(ps.peak_reserved <= cap);
    CHECK(ps.reuses > 0);
    pf_stream_destroy(s[0]);
    pf_stream_destroy(s[1]);
    pf_pool_destroy(pool);
    pf_free(gpu, PF_ALLOC_PINNED, src);
    pf_free(gpu, PF_ALLOC_PINNED, back);
}

static int g_cb;
static void on_done(void *user, pf_status st) {
    if (st == PF_OK) g_cb += *(int *)user;
}

/* Four streams, each round-tripping its own data through the device with
 * a callback at the end: all results right, all callbacks run. */
static void test_multi_stream(pf_device *gpu) {
    enum { NS = 4 };
    const size_t n = 8 * MB;
    pf_stream *s[NS];
    uint8_t *h[NS], *o[NS], *d[NS];
    int one = 1;
    for (int i = 0; i < NS; i++) {
        CHECK_STATUS(pf_stream_create(gpu, &s[i]), PF_OK);
        CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_PINNED, n, (void **)&h[i]), PF_OK);
        CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_PINNED, n, (void **)&o[i]), PF_OK);
        CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_DEVICE, n, (void **)&d[i]), PF_OK);
        fill(h[i], n, 100 + (uint64_t)i);
    }
    for (int i = 0; i < NS; i++) {
        CHECK_STATUS(pf_memcpy_async(s[i], d[i], h[i], n), PF_OK);
        CHECK_STATUS(pf_memcpy2d_async(s[i], o[i], 4096, d[i], 4096, 4096, n / 4096), PF_OK);
        CHECK_STATUS(pf_stream_add_callback(s[i], on_done, &one), PF_OK);
    }
    for (int i = 0; i < NS; i++) {
        CHECK_STATUS(pf_stream_synchronize(s[i]), PF_OK);
        CHECK(memcmp(h[i], o[i], n) == 0);
    }
    CHECK(g_cb == NS);
    for (int i = 0; i < NS; i++) {
        pf_stream_destroy(s[i]);
        pf_free(gpu, PF_ALLOC_PINNED, h[i]);
        pf_free(gpu, PF_ALLOC_PINNED, o[i]);
        pf_free(gpu, PF_ALLOC_DEVICE, d[i]);
    }
}

/* Images and tensors through the device and back, pitched on the device. */
static void test_image_copies(pf_device *gpu) {
    pf_stream *s;
    CHECK_STATUS(pf_stream_create(gpu, &s), PF_OK);
    enum { W = 333, H = 77, C = 3 };
    uint8_t host[W * H * C], back[W * H * C];
    fill(host, sizeof host, 9);
    void *dev;
    const ptrdiff_t pitch = 1024;
    CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_DEVICE, (size_t)pitch * H, &dev), PF_OK);
    pf_image hi = pf_image_hwc(host, W, H, C, PF_U8, 0), bi = pf_image_hwc(back, W, H, C, PF_U8, 0);
    pf_image di = pf_image_hwc(dev, W, H, C, PF_U8, pitch);
    di.mem = PF_MEM_CUDA;
    CHECK_STATUS(pf_image_copy_async(s, &hi, &di), PF_OK);
    CHECK_STATUS(pf_image_copy_async(s, &di, &bi), PF_OK);
    CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
    CHECK(memcmp(host, back, sizeof host) == 0);
    /* errors name the call and the CUDA error */
    CHECK_STATUS(pf_memcpy_async(s, (void *)(uintptr_t)16, host, 64), PF_ERR_DEVICE);
    CHECK_MSG("pf_memcpy_async");
    printf("bad pointer: %s\n", pf_last_error());
    (void)pf_stream_synchronize(s);
    pf_free(gpu, PF_ALLOC_DEVICE, dev);
    pf_stream_destroy(s);
}

/* NULL-stream copies run synchronously on the device that owns the memory
 * (host-host copies never touch CUDA), negative row strides included. */
static void test_null_stream_copies(pf_device *gpu) {
    enum { W = 61, H = 19, C = 3, N = W * H * C };
    uint8_t host[N], back[N], flipped[N];
    fill(host, sizeof host, 21);
    void *dev;
    CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_DEVICE, N, &dev), PF_OK);
    CHECK_STATUS(pf_memcpy_async(NULL, dev, host, N), PF_OK);
    memset(back, 0, sizeof back);
    CHECK_STATUS(pf_memcpy_async(NULL, back, dev, N), PF_OK); /* ready on return */
    CHECK(memcmp(host, back, N) == 0);
    memset(back, 0, sizeof back);
    CHECK_STATUS(pf_memcpy_async(NULL, back, host, N), PF_OK);
    CHECK(memcmp(host, back, N) == 0);
    /* a bottom-up device view: rows come back in reverse order */
    pf_image di = pf_image_hwc((uint8_t *)dev + (ptrdiff_t)(H - 1) * W * C, W, H, C, PF_U8, -(ptrdiff_t)W * C);
    di.mem = PF_MEM_CUDA;
    pf_image fi = pf_image_hwc(flipped, W, H, C, PF_U8, 0);
    CHECK_STATUS(pf_image_copy_async(NULL, &di, &fi), PF_OK);
    int rows_ok = 1;
    for (int y = 0; y < H; y++) rows_ok &= memcmp(flipped + y * W * C, host + (H - 1 - y) * W * C, W * C) == 0;
    CHECK(rows_ok);
    pf_free(gpu, PF_ALLOC_DEVICE, dev);
    /* backend errors name the pixflow call */
    pf_event *a, *b;
    CHECK_STATUS(pf_event_create(gpu, &a), PF_OK);
    CHECK_STATUS(pf_event_create(gpu, &b), PF_OK);
    float ms = 0;
    CHECK_STATUS(pf_event_elapsed_ms(a, b, &ms), PF_ERR_DEVICE); /* never recorded */
    CHECK_MSG("pf_event_elapsed_ms: cudaEventElapsedTime");
    pf_event_destroy(a);
    pf_event_destroy(b);
}

int main(void) {
    pf_device *gpu = pft_cuda_device_or_skip("cuda_runtime");
    test_props_streams(gpu);
    test_event_ordering(gpu);
    test_pool_churn(gpu);
    test_multi_stream(gpu);
    test_image_copies(gpu);
    test_null_stream_copies(gpu);
    pf_device_close(gpu);
    return pft_summary("cuda_runtime");
}
