/* Per-stream launch support for CUDA device ops: a small ring of reused
 * parameter arenas (pinned staging + device copy + device scratch), gated
 * by events so the host never rewrites staging that a queued upload still
 * reads, and the mapping of launch results to pixflow errors. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/stream.h"
#include "cuda/cuda_ops.h"
#include "cuda/cuda_stream.h"

/* Two slots: the host fills slot k+1 while the upload of slot k is in
 * flight; a third launch in a row waits for the first upload (microseconds
 * after it was queued, in practice already done). */
#define PFI_ARENA_SLOTS 2

typedef struct arena_slot {
    uint8_t *host, *dev, *scratch;
    size_t cap, scratch_cap;
    cudaEvent_t uploaded;
    bool pending;
} arena_slot;

typedef struct cuda_stream_state {
    arena_slot slot[PFI_ARENA_SLOTS];
    int next;
    int current;
} cuda_stream_state;

static pf_status cu_fail(const char *op, const char *call, cudaError_t e) {
    return pfi_fail(PF_ERR_DEVICE, "%s: %s failed: %s", op, call, pfi_cuda_error_text((int)e));
}

void *pfi_cuda_stream(pf_stream *s) { return s->impl; }

static void slot_free(arena_slot *a) {
    if (a->host) (void)cudaFreeHost(a->host);
    if (a->dev) (void)cudaFree(a->dev);
    if (a->scratch) (void)cudaFree(a->scratch);
    if (a->uploaded) (void)cudaEventDestroy(a->uploaded);
    memset(a, 0, sizeof *a);
}

void pfi_cuda_stream_state_free(int device, void *state) {
    cuda_stream_state *cs = state;
    if (cs == NULL) return;
    (void)cudaSetDevice(device);
    for (int i = 0; i < PFI_ARENA_SLOTS; i++) slot_free(&cs->slot[i]);
    free(cs);
}

static size_t grow(size_t have, size_t need) {
    size_t c = have ? have : 4096;
    while (c < need) c *= 2;
    return c;
}

pf_status pfi_cuda_arena_begin(pf_stream *s, const char *op, size_t bytes, size_t scratch_bytes, pfi_arena *a) {
    cudaError_t e = cudaSetDevice(s->device);
    if (e != cudaSuccess) return cu_fail(op, "cudaSetDevice", e);
    cuda_stream_state *cs = s->backend_state;
    if (cs == NULL) {
        cs = calloc(1, sizeof *cs);
        if (cs == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
        s->backend_state = cs;
    }
    int k = cs->next;
    cs->next = (k + 1) % PFI_ARENA_SLOTS;
    cs->current = k;
    arena_slot *sl = &cs->slot[k];
    if (sl->pending) {
        e = cudaEventSynchronize(sl->uploaded);
        if (e != cudaSuccess) return cu_fail(op, "cudaEventSynchronize (parameter upload)", e);
        sl->pending = false;
    }
    if (sl->uploaded == NULL) {
        e = cudaEventCreateWithFlags(&sl->uploaded, cudaEventDisableTiming);
        if (e != cudaSuccess) return cu_fail(op, "cudaEventCreateWithFlags", e);
    }
    if (bytes > sl->cap || scratch_bytes > sl->scratch_cap) {
        /* queued kernels may still read the old device buffers */
        e = cudaStreamSynchronize((cudaStream_t)s->impl);
        if (e != cudaSuccess) return cu_fail(op, "cudaStreamSynchronize (before growing the parameter arena)", e);
    }
    if (bytes > sl->cap) {
        size_t c = grow(sl->cap, bytes);
        if (sl->host) (void)cudaFreeHost(sl->host);
        if (sl->dev) (void)cudaFree(sl->dev);
        sl->host = sl->dev = NULL;
        sl->cap = 0;
        e = cudaMallocHost((void **)&sl->host, c);
        if (e != cudaSuccess) return cu_fail(op, "cudaMallocHost (parameter staging)", e);
        e = cudaMalloc((void **)&sl->dev, c);
        if (e != cudaSuccess) return cu_fail(op, "cudaMalloc (parameters)", e);
        sl->cap = c;
    }
    if (scratch_bytes > sl->scratch_cap) {
        size_t c = grow(sl->scratch_cap, scratch_bytes);
        if (sl->scratch) (void)cudaFree(sl->scratch);
        sl->scratch = NULL;
        sl->scratch_cap = 0;
        e = cudaMalloc((void **)&sl->scratch, c);
        if (e != cudaSuccess) return cu_fail(op, "cudaMalloc (scratch)", e);
        sl->scratch_cap = c;
    }
    pfi_arena_open(a, sl->host, sl->dev, sl->cap, sl->scratch, sl->scratch_cap);
    return PF_OK;
}

pf_status pfi_cuda_arena_submit(pf_stream *s, const char *op, const pfi_arena *a) {
    cuda_stream_state *cs = s->backend_state;
    arena_slot *sl = &cs->slot[cs->current];
    if (a->used > 0) {
        cudaError_t e = cudaMemcpyAsync(a->dev, a->host, a->used, cudaMemcpyHostToDevice, (cudaStream_t)s->impl);
        if (e != cudaSuccess) return cu_fail(op, "cudaMemcpyAsync (parameters)", e);
        e = cudaEventRecord(sl->uploaded, (cudaStream_t)s->impl);
        if (e != cudaSuccess) return cu_fail(op, "cudaEventRecord (parameter upload)", e);
        sl->pending = true;
    }
    return PF_OK;
}

pf_status pfi_cuda_launched(pf_stream *s, const char *op, int cuda_error) {
    pfi_stream_note_op(s, op);
    if (cuda_error != 0) return cu_fail(op, "kernel launch", (cudaError_t)cuda_error);
    if (s->implicit) {
        /* NULL stream: synchronous, so kernel faults surface from this call */
        cudaError_t e = cudaStreamSynchronize((cudaStream_t)s->impl);
        if (e != cudaSuccess) return cu_fail(op, "kernel execution", e);
    }
    return PF_OK;
}
