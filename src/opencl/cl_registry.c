/* The registry of the backend's allocations (SVM and mapped pinned
 * buffers): OpenCL has no query from a pointer to its allocation, and the
 * backend needs one to route copies (pf_memcpy_async with a NULL stream),
 * to check that a view's data is memory of its device, and to name the
 * SVM allocations a kernel reaches (clSetKernelExecInfo). A sorted array
 * searched by bisection: allocations are few (pools reuse them). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "opencl/cl_internal.h"

typedef struct reg_entry {
    uintptr_t base;
    size_t bytes;
    int device;
    pf_alloc_kind kind;
    cl_mem buffer; /* pinned: the mapped buffer; SVM: NULL */
    void *raw;     /* what clSVMAlloc returned (base is raw rounded up to 256) */
    cl_context ctx; /* the context it was made in (retained): a lost device's new context is another */
} reg_entry;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static reg_entry *g_reg;
static size_t g_n, g_cap;

/* index of the first entry with base > p */
static size_t upper(uintptr_t p) {
    size_t lo = 0, hi = g_n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g_reg[mid].base <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

pf_status pfi_cl_registry_add(void *base, void *raw, size_t bytes, int device, pf_alloc_kind kind, cl_mem buffer,
                              cl_context ctx) {
    pthread_mutex_lock(&g_lock);
    if (g_n == g_cap) {
        size_t c = g_cap ? g_cap * 2 : 64;
        reg_entry *r = realloc(g_reg, c * sizeof *r);
        if (r == NULL) {
            pthread_mutex_unlock(&g_lock);
            return pfi_fail(PF_ERR_OUT_OF_MEMORY, "out of memory (OpenCL allocation registry)");
        }
        g_reg = r;
        g_cap = c;
    }
    size_t at = upper((uintptr_t)base);
    memmove(&g_reg[at + 1], &g_reg[at], (g_n - at) * sizeof *g_reg);
    g_reg[at] = (reg_entry){(uintptr_t)base, bytes, device, kind, buffer, raw, ctx};
    g_n++;
    pthread_mutex_unlock(&g_lock);
    return PF_OK;
}

bool pfi_cl_registry_remove(void *base, void **raw, int *device, pf_alloc_kind *kind, cl_mem *buffer,
                            cl_context *ctx) {
    pthread_mutex_lock(&g_lock);
    size_t at = upper((uintptr_t)base);
    bool found = at > 0 && g_reg[at - 1].base == (uintptr_t)base;
    if (found) {
        reg_entry e = g_reg[at - 1];
        *device = e.device;
        *kind = e.kind;
        *buffer = e.buffer;
        *raw = e.raw;
        *ctx = e.ctx;
        memmove(&g_reg[at - 1], &g_reg[at], (g_n - at) * sizeof *g_reg);
        g_n--;
    }
    pthread_mutex_unlock(&g_lock);
    return found;
}

bool pfi_cl_registry_find(const void *ptr, void **base, int *device, pf_alloc_kind *kind) {
    pthread_mutex_lock(&g_lock);
    size_t at = upper((uintptr_t)ptr);
    bool found = at > 0 && (uintptr_t)ptr - g_reg[at - 1].base < g_reg[at - 1].bytes;
    if (found) {
        *base = g_reg[at - 1].raw;
        *device = g_reg[at - 1].device;
        *kind = g_reg[at - 1].kind;
    }
    pthread_mutex_unlock(&g_lock);
    return found;
}

cl_context pfi_cl_registry_context(const void *ptr) {
    pthread_mutex_lock(&g_lock);
    size_t at = upper((uintptr_t)ptr);
    bool found = at > 0 && (uintptr_t)ptr - g_reg[at - 1].base < g_reg[at - 1].bytes;
    cl_context c = found ? g_reg[at - 1].ctx : NULL;
    pthread_mutex_unlock(&g_lock);
    return c;
}
