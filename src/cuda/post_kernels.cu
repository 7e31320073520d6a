/* CUDA kernels of the post-processing ops. Each __global__ calls the shared
 * kernel body (src/kernels/gpu_post.h, gpu_nms.h), the same C the CPU
 * emulation tests run, compiled with -fmad=false. NMS: filter, CUB's
 * segmented radix sort (stable, unique keys), gather, one select launch
 * for the whole batch (a block per sample, barrier-reduced decisions),
 * output, offsets, compact. */
#include <cuda_runtime.h>
#include <stdint.h>

#include <cub/device/device_segmented_radix_sort.cuh>

extern "C" {
#include "cuda/post_launch.h"
#include "kernels/gpu_nms.h"
#include "kernels/gpu_post.h"
}
#include "cuda/cu_grid.cuh"

__global__ void pfi_cu_logits(const pfk_logits_batch *b, int32_t n0, int32_t by0) {
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    int32_t y = (by0 + (int32_t)blockIdx.y) * (int32_t)blockDim.y + (int32_t)threadIdx.y;
    pfk_logits_at(b, n0 + (int32_t)blockIdx.z, x, y);
}

__global__ void pfi_cu_composite(const pfk_composite_batch *b, int32_t n0, int32_t by0) {
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    int32_t y = (by0 + (int32_t)blockIdx.y) * (int32_t)blockDim.y + (int32_t)threadIdx.y;
    pfk_composite_at(b, n0 + (int32_t)blockIdx.z, x, y);
}

extern "C" int pfi_cu_launch_logits(void *stream, const void *dev_batch, pfi_grid g) {
    return (int)pfi_cu_chunks(pfi_cu_blocks(g.w, 32), pfi_cu_blocks(g.h, 8), g.n, [&](dim3 blocks, int32_t n0, int32_t by0) {
        pfi_cu_logits<<<blocks, dim3(32, 8, 1), 0, (cudaStream_t)stream>>>((const pfk_logits_batch *)dev_batch, n0, by0);
    });
}

extern "C" int pfi_cu_launch_composite(void *stream, const void *dev_batch, pfi_grid g) {
    return (int)pfi_cu_chunks(pfi_cu_blocks(g.w, 32), pfi_cu_blocks(g.h, 8), g.n, [&](dim3 blocks, int32_t n0, int32_t by0) {
        pfi_cu_composite<<<blocks, dim3(32, 8, 1), 0, (cudaStream_t)stream>>>((const pfk_composite_batch *)dev_batch,
                                                                             n0, by0);
    });
}

/* ------------------------------------------------------------------ NMS */

#define PF_NMS_ITEM_KERNEL(NAME, BODY)                                             \
    __global__ void NAME(const pfk_nms_batch *b, int32_t n0, int32_t by0) {        \
        (void)by0;                                                                 \
        BODY(b, n0 + (int32_t)blockIdx.z, (int32_t)(blockIdx.x * blockDim.x + threadIdx.x)); \
    }

PF_NMS_ITEM_KERNEL(pfi_cu_nms_filter, pfk_nms_filter_at)
PF_NMS_ITEM_KERNEL(pfi_cu_nms_gather, pfk_nms_gather_at)
PF_NMS_ITEM_KERNEL(pfi_cu_nms_output, pfk_nms_output_at)
PF_NMS_ITEM_KERNEL(pfi_cu_nms_compact, pfk_nms_compact_at)

__global__ void pfi_cu_nms_segments(const pfk_nms_batch *b) {
    pfk_nms_segments_at(b, (int32_t)(blockIdx.x * blockDim.x + threadIdx.x));
}

__global__ void pfi_cu_nms_offsets(const pfk_nms_batch *b) {
    if (blockIdx.x == 0 && threadIdx.x == 0) pfk_nms_offsets(b);
}

/* One block per sample. Every thread runs the same loop; each candidate's
 * decision is reduced over the block (__syncthreads_or, a shared sum), so
 * all threads keep the same count and threshold. */
__global__ void pfi_cu_nms_select(const pfk_nms_batch *b, int32_t n0) {
    __shared__ int32_t same;
    int32_t n = n0 + (int32_t)blockIdx.x;
    if (n >= b->count) return;
    int32_t tid = (int32_t)threadIdx.x, nt = (int32_t)blockDim.x;
    int32_t m = pfk_nms_limit(b, n), nk = 0;
    float thr = b->thr_f;
    for (int32_t p = 0; p < m; p++) {
        if (b->max_out > 0 && nk >= b->max_out) break;
        if (b->max_per_class > 0) {
            if (tid == 0) same = 0;
            __syncthreads();
            int32_t c = pfk_nms_same_class(b, n, p, nk, tid, nt);
            if (c) atomicAdd(&same, c);
            __syncthreads();
            int32_t full = same >= b->max_per_class;
            __syncthreads();
            if (full) continue;
        }
        int any = __syncthreads_or(pfk_nms_partial(b, n, p, nk, tid, nt, thr));
        if (!any) {
            pfk_nms_keep(b, n, p, &nk, &thr, tid);
            __syncthreads(); /* the new kept entry is visible to the next check */
        }
    }
    if (tid == 0) b->nkept[n] = nk;
}

extern "C" size_t pfi_cu_nms_sort_bytes(long long total, int count, int *err) {
    size_t bytes = 0;
    cudaError_t e = cub::DeviceSegmentedRadixSort::SortKeys(nullptr, bytes, (const uint64_t *)nullptr,
                                                            (uint64_t *)nullptr, (int64_t)total, count,
                                                            (const int64_t *)nullptr, (const int64_t *)nullptr);
    *err = (int)e;
    return e == cudaSuccess ? (bytes ? bytes : 1) : 0;
}

extern "C" int pfi_cu_launch_nms(void *stream, const void *dev_batch, const pfk_nms_batch *hb,
                                 const pfi_gpu_nms_plan *plan, void *sort_temp, size_t sort_bytes) {
    cudaStream_t s = (cudaStream_t)stream;
    const pfk_nms_batch *b = (const pfk_nms_batch *)dev_batch;
    if (plan->count <= 0) return 0;
    cudaError_t e;
    auto items = [&](void (*k)(const pfk_nms_batch *, int32_t, int32_t), int64_t len) {
        return pfi_cu_chunks(pfi_cu_blocks(len, 256), 1, plan->count, [&](dim3 blocks, int32_t n0, int32_t by0) {
            k<<<blocks, 256, 0, s>>>(b, n0, by0);
        });
    };
    if ((e = items(pfi_cu_nms_filter, plan->max_n)) != cudaSuccess) return (int)e;
    pfi_cu_nms_segments<<<(unsigned)pfi_cu_blocks(plan->count, 256), 256, 0, s>>>(b);
    if ((e = cudaGetLastError()) != cudaSuccess) return (int)e;
    if (plan->total > 0) {
        size_t tb = sort_bytes;
        e = cub::DeviceSegmentedRadixSort::SortKeys(sort_temp, tb, (const uint64_t *)hb->keys, hb->sorted,
                                                    (int64_t)plan->total, plan->count, (const int64_t *)hb->seg_begin,
                                                    (const int64_t *)hb->seg_end, 0, 64, s);
        if (e != cudaSuccess) return (int)e;
    }
    if ((e = items(pfi_cu_nms_gather, plan->max_n)) != cudaSuccess) return (int)e;
    for (int32_t n0 = 0; n0 < plan->count; n0 += 65535) {
        int32_t c = plan->count - n0 < 65535 ? plan->count - n0 : 65535;
        pfi_cu_nms_select<<<(unsigned)c, 256, 0, s>>>(b, n0);
        if ((e = cudaGetLastError()) != cudaSuccess) return (int)e;
    }
    if ((e = items(pfi_cu_nms_output, plan->max_bound)) != cudaSuccess) return (int)e;
    pfi_cu_nms_offsets<<<1, 1, 0, s>>>(b);
    if ((e = cudaGetLastError()) != cudaSuccess) return (int)e;
    return (int)items(pfi_cu_nms_compact, plan->max_bound);
}
