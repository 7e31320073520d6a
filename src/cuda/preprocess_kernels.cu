/* CUDA kernels of the fused preprocess: the per-pixel body is
 * pfk_pp_at (src/kernels/gpu_preprocess.h), the same code the CPU tests
 * run; compiled with -fmad=false so every value has the CPU's bits.
 * A batch is one launch, plus one pre-pass launch when some sample has
 * contrast (its mean needs the whole canvas before the main pass), plus
 * for 4:2:0 frames one conversion launch when some sample's sampler is
 * not cheap enough to convert its taps on the fly. */
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "gpu/gpu_arena.h"
#include "kernels/gpu_preprocess.h"
#include "kernels/gpu_yuv_crop.h"
}
#include "cuda/cu_grid.cuh"

#define PP_BX 32
#define PP_BY 8
/* Rows per thread of the main pass: a block covers 32 x 32 output pixels,
 * so its one-off setup (the job and the table into shared memory) is
 * shared by 1024 pixels. */
#define PP_ROWS 4
#define PP_THREADS (PP_BX * PP_BY)

/* Block-wide copy of 4-byte words (the structs and the table are
 * multiples of 4 bytes and at least 4-aligned). */
static __device__ void pp_copy_words(void *dst, const void *src, size_t bytes, int tid) {
    uint32_t *d = (uint32_t *)dst;
    const uint32_t *s = (const uint32_t *)src;
    for (size_t k = (size_t)tid; k < bytes / 4; k += PP_THREADS) d[k] = s[k];
}

/* Sample n's job copied into shared memory once per block: the per-pixel
 * body then reads its fields (tables' addresses, strides, options) from
 * shared memory instead of re-loading them from global memory after every
 * output store (the compiler cannot tell the stores do not alias the
 * job). */
static __device__ void pp_load_job(pfk_pp_job *sj, const pfk_pp_batch *b, int32_t n, int tid) {
    static_assert(sizeof(pfk_pp_job) % 4 == 0, "job copied as words");
    pp_copy_words(sj, &b->jobs[n], sizeof(pfk_pp_job), tid);
}

/* Contrast pre-pass: each block sums its canvas pixels' terms (at most
 * 256 * 255, so 32 bits suffice inside a block) and adds the block's sum
 * to the sample's 64-bit total. Integer adds: the order does not matter,
 * the total is exact. CHEAP: as the main pass's. */
template <int CHEAP> __global__ void pfi_cu_pp_sum(const pfk_pp_batch *b, int32_t n0, int32_t by0) {
    int32_t n = n0 + (int32_t)blockIdx.z;
    if (n >= b->count || b->jobs[n].contrast_at < 0) return; /* uniform over the block */
    __shared__ pfk_pp_job sj;
    int lane = (int)(threadIdx.y * blockDim.x + threadIdx.x);
    pp_load_job(&sj, b, n, lane);
    __syncthreads();
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    int32_t y = (by0 + (int32_t)blockIdx.y) * (int32_t)blockDim.y + (int32_t)threadIdx.y;
    uint32_t t = pfk_pp_sum_job(&sj, CHEAP, x, y);
    for (int off = 16; off > 0; off >>= 1) t += __shfl_down_sync(0xffffffffu, t, off);
    __shared__ uint32_t warp_sums[PP_THREADS / 32];
    if ((lane & 31) == 0) warp_sums[lane >> 5] = t;
    __syncthreads();
    if (lane == 0) {
        uint32_t s = 0;
        for (int w = 0; w < PP_THREADS / 32; w++) s += warp_sums[w];
        if (s) atomicAdd((unsigned long long *)sj.con_sum, (unsigned long long)s);
    }
}

/* Main pass: block (bx, by, n) (by and n counted from the chunk's
 * origin by0, n0: cu_grid.cuh) covers output columns [32 bx, 32 bx + 32)
 * and rows [32 by, 32 by + 32) of sample n; each thread does PP_ROWS rows
 * 8 apart (a warp stores 32 consecutive x of one row: coalesced per
 * plane). The job, the batch header, the first out_c rows of the
 * normalization table and the contrast mean are set up once per block.
 * CHEAP = 1 when every sample's sampler is cheap (batch->cheap: copy,
 * NN, two-tap LINEAR, 4:2:0 on the fly): the other samplers are left out
 * of that variant, which needs far fewer registers. */
template <int CHEAP> __global__ void __launch_bounds__(PP_THREADS) pfi_cu_pp_main(const pfk_pp_batch *b, int32_t n0,
                                                                                 int32_t by0) {
    __shared__ pfk_pp_job sj;
    __shared__ pfk_pp_batch sb;
    __shared__ float s_other;
    __shared__ __align__(16) uint8_t slut[4 * 256 * 4]; /* the table's layout: row c at c * lut_row */
    int32_t n = n0 + (int32_t)blockIdx.z;
    int tid = (int)(threadIdx.y * blockDim.x + threadIdx.x);
    if (n >= b->count) return; /* uniform */
    static_assert(sizeof(pfk_pp_batch) % 4 == 0, "batch copied as words");
    pp_load_job(&sj, b, n, tid);
    pp_copy_words(&sb, b, sizeof sb, tid);
    __syncthreads();
    /* the table entries this batch reads: 256 elements of out_c rows */
    for (int32_t c = 0; c < sb.out_c; c++)
        pp_copy_words(slut + c * sb.lut_row, sb.lut + c * sb.lut_row, (size_t)(256 * sb.esize), tid);
    if (tid == 0) s_other = pfk_pp_con_other(&sj);
    __syncthreads();
    int32_t x = (int32_t)(blockIdx.x * PP_BX + threadIdx.x);
    if (x >= sb.out_w) return;
    float other = s_other;
#pragma unroll 1
    for (int r = 0; r < PP_ROWS; r++) {
        int32_t y = (by0 + (int32_t)blockIdx.y) * (PP_BY * PP_ROWS) + (int32_t)threadIdx.y + r * PP_BY;
        if (y >= sb.out_h) return;
        pfk_pp_px(&sb, &sj, CHEAP, slut, other, x, y);
    }
}

/* 4:2:0 frames: decode each sample's crop rectangle into scratch. */
__global__ void pfi_cu_pp_yuv_crop(const pfk_yuv_crop_batch *b, int32_t n0, int32_t by0) {
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    int32_t y = (by0 + (int32_t)blockIdx.y) * (int32_t)blockDim.y + (int32_t)threadIdx.y;
    pfk_yuv_crop_at(b, n0 + (int32_t)blockIdx.z, x, y);
}

/* Queues `kernel` over grid g, PP_BX x PP_BY threads a block, `rows`
 * rows per thread, in chunks of at most 65535 row blocks and samples. */
template <class Batch>
static cudaError_t launch_grid(void (*kernel)(const Batch *, int32_t, int32_t), const Batch *b, pfi_grid g, int rows,
                               cudaStream_t s) {
    return pfi_cu_chunks(pfi_cu_blocks(g.w, PP_BX), pfi_cu_blocks(g.h, PP_BY * rows), g.n,
                         [&](dim3 grid, int32_t n0, int32_t by0) {
                             kernel<<<grid, dim3(PP_BX, PP_BY, 1), 0, s>>>(b, n0, by0);
                         });
}

/* Queues the pre-pass (sum_grid.n > 0) and the main pass on `stream`
 * (cheap: the batch's `cheap` flag, known on the host); returns
 * cudaGetLastError() as int. */
extern "C" int pfi_cu_launch_preprocess(void *stream, const void *dev_batch, pfi_grid grid, pfi_grid sum_grid,
                                        int cheap) {
    cudaStream_t s = (cudaStream_t)stream;
    const pfk_pp_batch *b = (const pfk_pp_batch *)dev_batch;
    cudaError_t e = launch_grid(cheap ? pfi_cu_pp_sum<1> : pfi_cu_pp_sum<0>, b, sum_grid, 1, s);
    if (e == cudaSuccess) e = launch_grid(cheap ? pfi_cu_pp_main<1> : pfi_cu_pp_main<0>, b, grid, PP_ROWS, s);
    return (int)e;
}

/* pf_preprocess_run_yuv: the conversion pass of the samples that need it
 * (yuv_grid.w 0: none, the usual letterbox case), then the fused
 * preprocess (stream-ordered). */
extern "C" int pfi_cu_launch_preprocess_yuv(void *stream, const void *yuv_batch, pfi_grid yuv_grid,
                                            const void *pp_batch, pfi_grid grid, pfi_grid sum_grid, int cheap) {
    cudaStream_t s = (cudaStream_t)stream;
    cudaError_t e = launch_grid(pfi_cu_pp_yuv_crop, (const pfk_yuv_crop_batch *)yuv_batch, yuv_grid, 1, s);
    if (e != cudaSuccess) return (int)e;
    return pfi_cu_launch_preprocess(stream, pp_batch, grid, sum_grid, cheap);
}
