/* The OpenCL runtime on a real OpenCL implementation (PoCL in CI): device
 * properties, SVM and pinned memory, 1D/2D/image copies, work ordered
 * across two queues with events, host callbacks in order, a wrapped
 * caller queue used and never released, pool caps, an allocation above
 * the device's maximum, and views that mix memories.
 * `test_opencl_runtime --no-icd` (ctest opencl_no_icd, run with
 * OCL_ICD_VENDORS pointing nowhere) checks the "no device" answer. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <time.h>

#include "opencl_util.h"

static void no_icd(void) {
    int n = -1;
    CHECK_STATUS(pf_device_count(PF_DEVICE_OPENCL, &n), PF_OK);
    CHECK(n == 0);
    pf_device *d = NULL;
    CHECK_STATUS(pf_device_open(PF_DEVICE_OPENCL, 0, &d), PF_ERR_DEVICE);
    CHECK_MSG("no OpenCL device (install an ICD such as pocl-opencl-icd)");
    printf("without an ICD: %s\n", pf_last_error());
}

static void memory_and_copies(pf_device *d) {
    enum { N = 1 << 16 };
    uint8_t *host = malloc(N), *back = malloc(N), *dev = NULL, *pin = NULL, *dev2 = NULL;
    for (int i = 0; i < N; i++) host[i] = (uint8_t)(i * 7 + 3);
    CHECK_STATUS(pf_malloc(d, PF_ALLOC_DEVICE, N, (void **)&dev), PF_OK);
    CHECK_STATUS(pf_malloc(d, PF_ALLOC_DEVICE, N, (void **)&dev2), PF_OK);
    CHECK_STATUS(pf_malloc(d, PF_ALLOC_PINNED, N, (void **)&pin), PF_OK);
    CHECK(((uintptr_t)dev & 255u) == 0);
    pf_stream *s = NULL;
    CHECK_STATUS(pf_stream_create(d, &s), PF_OK);
    /* host -> device (NULL stream), device -> device, device -> pinned (stream) */
    CHECK_STATUS(pf_memcpy_async(NULL, dev, host, N), PF_OK);
    CHECK_STATUS(pf_memcpy_async(s, dev2, dev, N), PF_OK);
    CHECK_STATUS(pf_memcpy_async(s, pin, dev2, N), PF_OK);
    CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
    CHECK(memcmp(pin, host, N) == 0);
    /* 2D: 100 rows of 300 bytes at pitch 512 -> pitch 301 */
    memset(back, 0, N);
    CHECK_STATUS(pf_memcpy2d_async(s, dev2, 301, dev, 512, 300, 100), PF_OK);
    CHECK_STATUS(pf_memcpy2d_async(s, back, 301, dev2, 301, 300, 100), PF_OK);
    int ok = 1;
    for (int y = 0; y < 100; y++) ok &= memcmp(back + y * 301, host + y * 512, 300) == 0;
    CHECK(ok);
    /* an image with padded rows, copied to a packed device image and back */
    pf_image hs = pf_image_hwc(host, 50, 40, 3, PF_U8, 160), dd = pf_image_hwc(dev2, 50, 40, 3, PF_U8, 150);
    dd.mem = PF_MEM_OPENCL;
    pf_image hb = pf_image_hwc(back, 50, 40, 3, PF_U8, 170);
    memset(back, 0, N);
    CHECK_STATUS(pf_image_copy_async(s, &hs, &dd), PF_OK);
    CHECK_STATUS(pf_image_copy_async(s, &dd, &hb), PF_OK);
    CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
    ok = 1;
    for (int y = 0; y < 40; y++) ok &= memcmp(back + y * 170, host + y * 160, 150) == 0;
    CHECK(ok);
    /* the event timer */
    pf_event *e0 = NULL, *e1 = NULL;
    CHECK_STATUS(pf_event_create(d, &e0), PF_OK);
    CHECK_STATUS(pf_event_create(d, &e1), PF_OK);
    CHECK_STATUS(pf_event_record(e0, s), PF_OK);
    CHECK_STATUS(pf_memcpy_async(s, dev2, dev, N), PF_OK);
    CHECK_STATUS(pf_event_record(e1, s), PF_OK);
    CHECK_STATUS(pf_event_synchronize(e1), PF_OK);
    float ms = -1;
    CHECK_STATUS(pf_event_elapsed_ms(e0, e1, &ms), PF_OK);
    CHECK(ms >= 0);
    pf_event_destroy(e0);
    pf_event_destroy(e1);
    /* managed memory is fine-grained SVM where the device has it (PoCL does) */
    void *m = NULL;
    pf_status st = pf_malloc(d, PF_ALLOC_MANAGED, 4096, &m);
    CHECK(st == PF_OK || st == PF_ERR_UNSUPPORTED);
    if (st == PF_ERR_UNSUPPORTED) CHECK_MSG("CL_DEVICE_SVM_FINE_GRAIN_BUFFER");
    pf_free(d, PF_ALLOC_MANAGED, m);
    pf_stream_destroy(s);
    pf_free(d, PF_ALLOC_DEVICE, dev);
    pf_free(d, PF_ALLOC_DEVICE, dev2);
    pf_free(d, PF_ALLOC_PINNED, pin);
    free(host);
    free(back);
}

/* Stream B waits (on the device) for an event recorded on stream A after a
 * chain of copies; B's read must see A's last write. */
static void two_queues(pf_device *d) {
    enum { N = 1 << 22 };
    uint8_t *host = malloc(N), *out = malloc(N), *a = NULL, *b = NULL;
    CHECK_STATUS(pf_malloc(d, PF_ALLOC_DEVICE, N, (void **)&a), PF_OK);
    CHECK_STATUS(pf_malloc(d, PF_ALLOC_DEVICE, N, (void **)&b), PF_OK);
    pf_stream *sa = NULL, *sb = NULL;
    CHECK_STATUS(pf_stream_create(d, &sa), PF_OK);
    CHECK_STATUS(pf_stream_create(d, &sb), PF_OK);
    pf_event *ev = NULL;
    CHECK_STATUS(pf_event_create(d, &ev), PF_OK);
    int ok = 1;
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < N; i++) host[i] = (uint8_t)(i + round * 31);
        CHECK_STATUS(pf_memcpy_async(sa, a, host, N), PF_OK);
        for (int k = 0; k < 6; k++) { /* ping-pong: the last write is to b */
            CHECK_STATUS(pf_memcpy_async(sa, b, a, N), PF_OK);
            CHECK_STATUS(pf_memcpy_async(sa, a, b, N), PF_OK);
        }
        CHECK_STATUS(pf_memcpy_async(sa, b, a, N), PF_OK);
        CHECK_STATUS(pf_event_record(ev, sa), PF_OK);
        CHECK_STATUS(pf_stream_wait_event(sb, ev), PF_OK);
        CHECK_STATUS(pf_memcpy_async(sb, out, b, N), PF_OK);
        CHECK_STATUS(pf_stream_synchronize(sb), PF_OK);
        ok &= memcmp(out, host, N) == 0;
    }
    CHECK(ok);
    int done = 0;
    CHECK_STATUS(pf_event_query(ev, &done), PF_OK);
    CHECK(done == 1);
    pf_event_destroy(ev);
    pf_stream_destroy(sa);
    pf_stream_destroy(sb);
    pf_free(d, PF_ALLOC_DEVICE, a);
    pf_free(d, PF_ALLOC_DEVICE, b);
    free(host);
    free(out);
}

enum { NCB = 300 };
static pthread_mutex_t g_cb_lock = PTHREAD_MUTEX_INITIALIZER;
static int g_cb_order[NCB], g_cb_n, g_cb_bad;
static void on_done(void *user, pf_status st) {
    pthread_mutex_lock(&g_cb_lock);
    if (st != PF_OK) g_cb_bad++;
    if (g_cb_n < NCB) g_cb_order[g_cb_n++] = (int)(intptr_t)user;
    pthread_mutex_unlock(&g_cb_lock);
}

static void callbacks_in_order(pf_device *d) {
    enum { N = 1 << 16 };
    uint8_t *host = calloc(1, N), *dev = NULL;
    CHECK_STATUS(pf_malloc(d, PF_ALLOC_DEVICE, N, (void **)&dev), PF_OK);
    pf_stream *s = NULL;
    CHECK_STATUS(pf_stream_create(d, &s), PF_OK);
    for (int i = 0; i < NCB; i++) {
        if (i % 3 == 0) CHECK_STATUS(pf_memcpy_async(s, dev, dev + N / 2, N / 2), PF_OK);
        CHECK_STATUS(pf_stream_add_callback(s, on_done, (void *)(intptr_t)i), PF_OK);
    }
    CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
    int ordered = g_cb_n == NCB && g_cb_bad == 0;
    for (int i = 0; i < g_cb_n; i++) ordered &= g_cb_order[i] == i;
    CHECK(ordered);
    int done = 0;
    CHECK_STATUS(pf_stream_query(s, &done), PF_OK);
    CHECK(done == 1);
    pf_stream_destroy(s);
    pf_free(d, PF_ALLOC_DEVICE, dev);
    free(host);
}

/* A caller's queue is the one pixflow queues on: a barrier on a user event
 * holds it, so pixflow's copy cannot finish before the caller releases it;
 * after pf_stream_destroy the queue is still the caller's. */
static void wrapped_queue(pf_device *d) {
    cl_context ctx = pf_opencl_context(d);
    CHECK(ctx != NULL);
    cl_device_id dev_id = NULL;
    CHECK(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof dev_id, &dev_id, NULL) == CL_SUCCESS);
    cl_int e = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev_id, NULL, &e);
    CHECK(e == CL_SUCCESS);
    cl_event gate = clCreateUserEvent(ctx, &e);
    CHECK(clEnqueueBarrierWithWaitList(q, 1, &gate, NULL) == CL_SUCCESS);
    pf_stream *s = NULL;
    CHECK_STATUS(pf_stream_wrap_opencl(d, q, &s), PF_OK);
    CHECK(pf_stream_opencl_queue(s) == q);
    enum { N = 4096 };
    uint8_t *a = NULL, *b = NULL, *pin = NULL;
    CHECK_STATUS(pf_malloc(d, PF_ALLOC_DEVICE, N, (void **)&a), PF_OK);
    CHECK_STATUS(pf_malloc(d, PF_ALLOC_DEVICE, N, (void **)&b), PF_OK);
    CHECK_STATUS(pf_malloc(d, PF_ALLOC_PINNED, N, (void **)&pin), PF_OK);
    memset(pin, 0x5a, N);
    CHECK_STATUS(pf_memcpy_async(NULL, a, pin, N), PF_OK);
    CHECK_STATUS(pf_memcpy_async(s, b, a, N), PF_OK);
    int done = 1;
    CHECK_STATUS(pf_stream_query(s, &done), PF_OK);
    CHECK(done == 0); /* held by the caller's barrier: pixflow used q */
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    memset(pin, 0, N);
    CHECK_STATUS(pf_memcpy_async(s, pin, b, N), PF_OK);
    CHECK_STATUS(pf_stream_synchronize(s), PF_OK);
    CHECK(pin[0] == 0x5a && pin[N - 1] == 0x5a);
    /* The caller holds two references; after pf_stream_destroy exactly
     * those two must remain: one fewer means pixflow released the caller's
     * queue, one more that it kept one. The count is polled (bounded):
     * commands and events retain their queue until the implementation
     * releases them, which PoCL does on its own threads after they
     * complete, so right after the destroy the count can still be higher. */
    CHECK(clRetainCommandQueue(q) == CL_SUCCESS);
    pf_stream_destroy(s);
    CHECK(clFinish(q) == CL_SUCCESS); /* still the caller's, still usable */
    cl_uint refs = 0;
    for (int tries = 0; tries < 500; tries++) { /* up to 5 s */
        CHECK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL) == CL_SUCCESS);
        if (refs <= 2) break;
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    CHECK(refs == 2);
    CHECK(clReleaseCommandQueue(q) == CL_SUCCESS);
    /* a queue of another context is refused: its SVM is not pixflow's */
    cl_context other = clCreateContext(NULL, 1, &dev_id, NULL, NULL, &e);
    cl_command_queue oq = clCreateCommandQueueWithProperties(other, dev_id, NULL, &e);
    CHECK_STATUS(pf_stream_wrap_opencl(d, oq, &s), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("another device or context");
    clReleaseCommandQueue(oq);
    clReleaseContext(other);
    clReleaseEvent(gate);
    clReleaseCommandQueue(q);
    pf_free(d, PF_ALLOC_DEVICE, a);
    pf_free(d, PF_ALLOC_DEVICE, b);
    pf_free(d, PF_ALLOC_PINNED, pin);
}

static void pools(pf_device *d) {
    pf_pool *p = NULL;
    enum { CAP = 1 << 20 };
    CHECK_STATUS(pf_pool_create(d, PF_ALLOC_DEVICE, CAP, &p), PF_OK);
    pf_stream *s = NULL;
    CHECK_STATUS(pf_stream_create(d, &s), PF_OK);
    void *a = NULL, *b = NULL, *c = NULL;
    CHECK_STATUS(pf_pool_alloc(p, 600 << 10, s, &a), PF_OK);
    CHECK_STATUS(pf_pool_alloc(p, 600 << 10, s, &b), PF_ERR_OUT_OF_MEMORY);
    CHECK_MSG("cap");
    CHECK_STATUS(pf_pool_free(p, a, s), PF_OK);
    CHECK_STATUS(pf_pool_alloc(p, 600 << 10, s, &c), PF_OK); /* the same stream reuses at once */
    CHECK(c == a);
    uint8_t host[256] = {1, 2, 3};
    CHECK_STATUS(pf_memcpy_async(s, c, host, sizeof host), PF_OK);
    CHECK_STATUS(pf_pool_free(p, c, s), PF_OK);
    pf_pool_stats st;
    CHECK_STATUS(pf_pool_stats_get(p, &st), PF_OK);
    CHECK(st.peak_reserved <= CAP && st.reuses >= 1);
    /* churn of varied sizes stays under the cap */
    for (int i = 0; i < 200; i++) {
        void *x = NULL;
        size_t bytes = (size_t)(1 + (i * 7919) % (CAP / 3));
        CHECK_STATUS(pf_pool_alloc(p, bytes, s, &x), PF_OK);
        CHECK_STATUS(pf_pool_free(p, x, s), PF_OK);
    }
    CHECK_STATUS(pf_pool_stats_get(p, &st), PF_OK);
    CHECK(st.peak_reserved <= CAP);
    CHECK_STATUS(pf_pool_trim(p), PF_OK);
    pf_pool_destroy(p);
    pf_stream_destroy(s);
}

static void faults(pf_device *d) {
    pf_device_props pr;
    CHECK_STATUS(pf_device_props_get(d, &pr), PF_OK);
    void *p = NULL;
    /* beyond CL_DEVICE_MAX_MEM_ALLOC_SIZE: out of memory, named */
    CHECK_STATUS(pf_malloc(d, PF_ALLOC_DEVICE, (size_t)1 << 62, &p), PF_ERR_OUT_OF_MEMORY);
    CHECK_MSG("CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    CHECK(p == NULL);
    /* views of two memories, or of memory pixflow did not allocate */
    uint8_t *dev = NULL, host[64] = {0}, fake[64] = {0};
    CHECK_STATUS(pf_malloc(d, PF_ALLOC_DEVICE, 64, (void **)&dev), PF_OK);
    pf_image s = pf_image_hwc(dev, 4, 4, 1, PF_U8, 4), t = pf_image_hwc(host, 4, 4, 1, PF_U8, 4);
    s.mem = PF_MEM_OPENCL;
    pf_flip_code code = PF_FLIP_BOTH;
    CHECK_STATUS(pf_flip(NULL, 1, &s, &t, &code, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] is host memory");
    t.mem = PF_MEM_CUDA;
    CHECK(pf_flip(NULL, 1, &s, &t, &code, 1) != PF_OK);
    CHECK_MSG("CUDA device memory");
    t = pf_image_hwc(fake, 4, 4, 1, PF_U8, 4);
    t.mem = PF_MEM_OPENCL;
    CHECK_STATUS(pf_flip(NULL, 1, &s, &t, &code, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0] is marked PF_MEM_OPENCL but its data is not OpenCL device memory");
    t.device = 3;
    CHECK(pf_flip(NULL, 1, &s, &t, &code, 1) != PF_OK);
    CHECK_MSG("device 3");
    /* ops the OpenCL backend does not have: refused by name, nothing run
     * (a routed op without an OpenCL entry; a CPU-only op) */
    uint8_t *dev2 = NULL, *maps = NULL;
    CHECK_STATUS(pf_malloc(d, PF_ALLOC_DEVICE, 64, (void **)&dev2), PF_OK);
    CHECK_STATUS(pf_malloc(d, PF_ALLOC_DEVICE, 128, (void **)&maps), PF_OK);
    pf_image r = pf_image_hwc(dev2, 4, 4, 1, PF_U8, 4);
    pf_image mx = pf_image_hwc(maps, 4, 4, 1, PF_F32, 16), my = pf_image_hwc(maps + 64, 4, 4, 1, PF_F32, 16);
    r.mem = mx.mem = my.mem = PF_MEM_OPENCL;
    CHECK_STATUS(pf_remap(NULL, 1, &s, &r, &mx, &my, NULL), PF_ERR_UNSUPPORTED);
    CHECK_MSG("pf_remap is not available on the opencl backend");
    pf_rotate_code rc = PF_ROTATE_90_CLOCKWISE;
    CHECK_STATUS(pf_rotate(NULL, 1, &s, &r, &rc, 1), PF_ERR_UNSUPPORTED);
    CHECK_MSG("needs host views");
    pf_free(d, PF_ALLOC_DEVICE, dev2);
    pf_free(d, PF_ALLOC_DEVICE, maps);
    pf_stream *cpu = NULL;
    CHECK_STATUS(pf_stream_create_cpu(1, &cpu), PF_OK);
    t.device = 0;
    CHECK_STATUS(pf_flip(cpu, 1, &s, &s, &code, 1), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("stream is a CPU stream but src[0] is OpenCL device memory");
    pf_stream_destroy(cpu);
    pf_free(d, PF_ALLOC_DEVICE, dev);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--no-icd") == 0) {
        no_icd();
        return pft_summary("opencl_no_icd");
    }
    pf_device *d = pft_opencl_device_or_skip("opencl_runtime");
    memory_and_copies(d);
    two_queues(d);
    callbacks_in_order(d);
    wrapped_queue(d);
    pools(d);
    faults(d);
    pf_device_close(d);
    return pft_summary("opencl_runtime");
}
