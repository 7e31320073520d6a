/* Asynchronous errors surface at the next sync of their stream, naming the
 * op (skips without a GPU). A kernel that faults poisons the CUDA context
 * for the rest of the process, so this test runs alone and faults once:
 * pf_resize reads from a device address that is not allocated. */
#include <string.h>

#include "cuda_skip.h"
#include "test_util.h"

int main(void) {
    pf_device *gpu = pft_cuda_device_or_skip("cuda_errors");
    pf_stream *s;
    CHECK_STATUS(pf_stream_create(gpu, &s), PF_OK);
    void *dst;
    CHECK_STATUS(pf_malloc(gpu, PF_ALLOC_DEVICE, 64 * 64 * 3, &dst), PF_OK);
    /* synchronous argument errors first: device views with a CPU stream */
    pf_image src = pf_image_hwc((void *)(uintptr_t)0x10000, 256, 256, 3, PF_U8, 0);
    pf_image out = pf_image_hwc(dst, 64, 64, 3, PF_U8, 0);
    src.mem = out.mem = PF_MEM_CUDA;
    pf_stream *cpu;
    CHECK_STATUS(pf_stream_create_cpu(1, &cpu), PF_OK);
    CHECK_STATUS(pf_resize(cpu, 1, &src, &out, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("CPU stream");
    pf_stream_destroy(cpu);
    /* the fault: queued fine, reported by the stream's next sync */
    CHECK_STATUS(pf_resize(s, 1, &src, &out, NULL), PF_OK);
    pf_status st = pf_stream_synchronize(s);
    CHECK(st == PF_ERR_DEVICE);
    CHECK_MSG("pf_resize");
    printf("asynchronous fault reported as: %s\n", pf_last_error());
    pf_free(gpu, PF_ALLOC_DEVICE, dst);
    pf_stream_destroy(s);
    pf_device_close(gpu);
    return pft_summary("cuda_errors");
}
