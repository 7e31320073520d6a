/* Parameter arena of one device launch. A device op builds its per-sample
 * jobs (sizes, strides, device pointers, resize tables, matrices...) into
 * host staging memory at addresses that are already the DEVICE addresses
 * they will have after one upload, so a launch costs one async copy of
 * pinned memory, never an allocation. `scratch` is device-only working
 * memory of the same launch (intermediate rows, per-sample sums).
 *
 * The job builders and the per-pixel kernel bodies (src/kernels/gpu_*.h)
 * are plain C: tests run them on the CPU with an emulated arena
 * (dev == host), so everything but the launch itself is tested without a
 * GPU. */
#ifndef PF_GPU_GPU_ARENA_H
#define PF_GPU_GPU_ARENA_H

#include <stddef.h>
#include <stdint.h>

#include "pixflow/core.h"

typedef struct pfi_arena {
    uint8_t *host;        /* staging memory to fill (pinned on CUDA) */
    uint8_t *dev;         /* device address of host[0] */
    size_t cap, used;
    uint8_t *scratch;     /* device-only memory (emulated: host) */
    size_t scratch_cap, scratch_used;
} pfi_arena;

/* An empty arena over a backend's staging slot: host staging memory, its
 * device address, and the device-only scratch (the CUDA and OpenCL
 * backends' per-stream slots both open their arenas this way). */
static inline void pfi_arena_open(pfi_arena *a, void *host, void *dev, size_t cap, void *scratch,
                                  size_t scratch_cap) {
    /* plain assignments: this header is also compiled as C++ by nvcc */
    a->host = (uint8_t *)host;
    a->dev = (uint8_t *)dev;
    a->cap = cap;
    a->used = 0;
    a->scratch = (uint8_t *)scratch;
    a->scratch_cap = scratch_cap;
    a->scratch_used = 0;
}

/* Launch shape: threads cover w x h (the largest output of the batch),
 * one grid layer per sample (n). */
typedef struct pfi_grid {
    int32_t w, h, n;
} pfi_grid;

/* Reserves `bytes` (aligned to `align`, a power of two <= 256) in the
 * staging area; returns the host pointer to fill and stores the matching
 * device address in *dev. NULL when the arena is too small: the builder's
 * size estimate is wrong (a pixflow bug, reported as PF_ERR_INTERNAL). */
void *pfi_arena_take(pfi_arena *a, size_t bytes, size_t align, void **dev);
/* Reserves device-only scratch; NULL when too small. */
void *pfi_arena_scratch(pfi_arena *a, size_t bytes, size_t align);
/* Byte count helper for size estimates: bytes rounded up to 256 (every
 * take may waste up to one alignment). */
size_t pfi_arena_round(size_t bytes);

/* Emulated arena for CPU tests: both areas are host memory and the device
 * address of staging byte i is host + i. */
pf_status pfi_arena_emulated(size_t bytes, size_t scratch_bytes, pfi_arena *out);
void pfi_arena_emulated_free(pfi_arena *a);

#endif
