/* Parameter arena bookkeeping (see gpu_arena.h). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "gpu/gpu_arena.h"

static size_t align_up(size_t v, size_t a) { return (v + a - 1) & ~(a - 1); }

size_t pfi_arena_round(size_t bytes) { return align_up(bytes, 256) + 256; }

void *pfi_arena_take(pfi_arena *a, size_t bytes, size_t align, void **dev) {
    size_t at = align_up(a->used, align);
    if (at > a->cap || bytes > a->cap - at) return NULL;
    a->used = at + bytes;
    *dev = a->dev + at;
    return a->host + at;
}

void *pfi_arena_scratch(pfi_arena *a, size_t bytes, size_t align) {
    size_t at = align_up(a->scratch_used, align);
    if (at > a->scratch_cap || bytes > a->scratch_cap - at) return NULL;
    a->scratch_used = at + bytes;
    return a->scratch + at;
}

pf_status pfi_arena_emulated(size_t bytes, size_t scratch_bytes, pfi_arena *out) {
    memset(out, 0, sizeof *out);
    size_t b = align_up(bytes ? bytes : 1, 256), sb = align_up(scratch_bytes ? scratch_bytes : 1, 256);
    out->host = aligned_alloc(256, b);
    out->scratch = aligned_alloc(256, sb);
    if (out->host == NULL || out->scratch == NULL) {
        pfi_arena_emulated_free(out);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "emulated arena: out of memory (%zu + %zu bytes)", b, sb);
    }
    out->dev = out->host;
    out->cap = b;
    out->scratch_cap = sb;
    return PF_OK;
}

void pfi_arena_emulated_free(pfi_arena *a) {
    free(a->host);
    free(a->scratch);
    memset(a, 0, sizeof *a);
}
