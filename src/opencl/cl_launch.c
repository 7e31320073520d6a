/* Launches of the OpenCL device ops: the per-stream parameter arena (the
 * CUDA design: two slots of host staging + SVM copy + SVM scratch, gated
 * by the upload's event so the host never rewrites staging that a queued
 * copy still reads), the list of SVM allocations a kernel reaches, and the
 * NDRange launch itself. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/stream.h"
#include "opencl/cl_internal.h"

#define PFI_CL_ARENA_SLOTS 2

typedef struct cl_slot {
    uint8_t *host, *dev, *scratch;
    size_t cap, scratch_cap;
    cl_event uploaded; /* NULL when no upload is pending */
} cl_slot;

typedef struct cl_stream_state {
    cl_slot slot[PFI_CL_ARENA_SLOTS];
    int next, current;
    cl_context ctx; /* the SVM's (retained): a lost device's fresh context is another */
} cl_stream_state;

static void slot_free(cl_context ctx, cl_slot *sl) {
    free(sl->host);
    if (sl->dev) clSVMFree(ctx, sl->dev);
    if (sl->scratch) clSVMFree(ctx, sl->scratch);
    if (sl->uploaded) (void)clReleaseEvent(sl->uploaded);
    memset(sl, 0, sizeof *sl);
}

void pfi_cl_stream_state_free(int device, void *state) {
    (void)device;
    cl_stream_state *cs = state;
    if (cs == NULL) return;
    for (int i = 0; i < PFI_CL_ARENA_SLOTS; i++) slot_free(cs->ctx, &cs->slot[i]);
    (void)clReleaseContext(cs->ctx);
    free(cs);
}

static size_t grow(size_t have, size_t need) {
    size_t c = have ? have : 4096;
    while (c < need) c *= 2;
    return c;
}

static cl_command_queue queue(pf_stream *s) { return ((pfi_cl_stream *)s->impl)->q; }

pf_status pfi_cl_arena_begin(pf_stream *s, const char *op, size_t bytes, size_t scratch_bytes, pfi_arena *a) {
    pfi_cl_device *d;
    pf_status st = pfi_cl_stream_fresh(s); /* may remake a stale implicit stream */
    if (st == PF_OK) st = pfi_cl_device_ready(s->device, &d);
    if (st != PF_OK) return pfi_fail_in(op, st);
    cl_stream_state *cs = s->backend_state;
    if (cs == NULL) {
        cs = calloc(1, sizeof *cs);
        if (cs == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
        cs->ctx = d->ctx;
        (void)clRetainContext(cs->ctx);
        s->backend_state = cs;
    }
    int k = cs->next;
    cs->next = (k + 1) % PFI_CL_ARENA_SLOTS;
    cs->current = k;
    cl_slot *sl = &cs->slot[k];
    if (sl->uploaded) {
        cl_int e = clWaitForEvents(1, &sl->uploaded);
        (void)clReleaseEvent(sl->uploaded);
        sl->uploaded = NULL;
        if (e != CL_SUCCESS) return pfi_fail_in(op, pfi_cl_fail_wait(s->device, "clWaitForEvents (parameter upload)", e));
    }
    if (bytes > sl->cap || scratch_bytes > sl->scratch_cap) {
        /* queued kernels may still read the old SVM buffers */
        cl_int e = clFinish(queue(s));
        if (e != CL_SUCCESS)
            return pfi_fail_in(op, pfi_cl_fail_wait(s->device, "clFinish (before growing the parameter arena)", e));
    }
    if (bytes > sl->cap) {
        size_t c = grow(sl->cap, bytes);
        free(sl->host);
        if (sl->dev) clSVMFree(cs->ctx, sl->dev);
        sl->cap = 0;
        sl->host = aligned_alloc(256, c);
        /* read-write: the fused preprocess's contrast pre-pass adds its
         * sums into words of the parameter block (zeroed by the upload) */
        sl->dev = clSVMAlloc(cs->ctx, CL_MEM_READ_WRITE, c, 0);
        if (sl->host == NULL || sl->dev == NULL) {
            free(sl->host);
            if (sl->dev) clSVMFree(cs->ctx, sl->dev);
            sl->host = sl->dev = NULL;
            return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for the %zu-byte parameter arena", op, c);
        }
        sl->cap = c;
    }
    if (scratch_bytes > sl->scratch_cap) {
        size_t c = grow(sl->scratch_cap, scratch_bytes);
        if (sl->scratch) clSVMFree(cs->ctx, sl->scratch);
        sl->scratch_cap = 0;
        sl->scratch = clSVMAlloc(cs->ctx, CL_MEM_READ_WRITE, c, 0);
        if (sl->scratch == NULL)
            return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: clSVMAlloc of %zu bytes of scratch failed", op, c);
        sl->scratch_cap = c;
    }
    pfi_arena_open(a, sl->host, sl->dev, sl->cap, sl->scratch, sl->scratch_cap);
    return PF_OK;
}

pf_status pfi_cl_arena_submit(pf_stream *s, const char *op, const pfi_arena *a) {
    cl_stream_state *cs = s->backend_state;
    cl_slot *sl = &cs->slot[cs->current];
    if (a->used == 0) return PF_OK;
    pf_status st = pfi_cl_enqueue_gate(s->device, s);
    if (st != PF_OK) return pfi_fail_in(op, st);
    cl_int e = clEnqueueSVMMemcpy(queue(s), CL_FALSE, a->dev, a->host, a->used, 0, NULL, &sl->uploaded);
    if (e != CL_SUCCESS) {
        sl->uploaded = NULL;
        return pfi_fail_in(op, pfi_cl_fail("clEnqueueSVMMemcpy (parameters)", e));
    }
    (void)clRetainEvent(sl->uploaded);
    pfi_cl_stream_note(s->impl, sl->uploaded);
    return PF_OK;
}

/* ---- SVM pointers of a launch ------------------------------------------------ */

void pfi_cl_ptrs_init(pfi_cl_ptrs *ps) { memset(ps, 0, sizeof *ps); }
void pfi_cl_ptrs_free(pfi_cl_ptrs *ps) {
    free(ps->more);
    memset(ps, 0, sizeof *ps);
}

static pf_status ptrs_push(pfi_cl_ptrs *ps, void *p) {
    for (int i = 0; i < ps->n; i++)
        if (ps->p[i] == p) return PF_OK;
    if (ps->n < 64) {
        ps->p[ps->n++] = p;
        return PF_OK;
    }
    int extra = ps->n - 64;
    for (int i = 0; i < extra; i++)
        if (ps->more[i] == p) return PF_OK;
    if (extra == ps->more_cap) {
        int c = ps->more_cap ? ps->more_cap * 2 : 64;
        void **m = realloc(ps->more, (size_t)c * sizeof *m);
        if (m == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "out of memory");
        ps->more = m;
        ps->more_cap = c;
    }
    ps->more[extra] = p;
    ps->n++;
    return PF_OK;
}

pf_status pfi_cl_ptrs_add_view(pfi_cl_ptrs *ps, const char *op, const char *name, int index, const void *data,
                               int device) {
    void *base;
    int dev;
    pf_alloc_kind k;
    if (!pfi_cl_registry_find(data, &base, &dev, &k) || k == PF_ALLOC_PINNED)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: %s[%d] is marked PF_MEM_OPENCL but its data is not OpenCL device memory from "
                        "pf_malloc / pf_pool",
                        op, name, index);
    if (dev != device)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d] says OpenCL device %d but its data is on device %d",
                        op, name, index, device, dev);
    pfi_cl_device *d = pfi_cl_device_at(device);
    if (d != NULL && pfi_cl_registry_context(data) != d->ctx)
        return pfi_fail(PF_ERR_DEVICE,
                        "%s: %s[%d] is memory of an earlier context of OpenCL device %d (%s), lost since: free it "
                        "and allocate again",
                        op, name, index, device, d->name);
    return ptrs_push(ps, base);
}

pf_status pfi_cl_ptrs_add_images(pfi_cl_ptrs *ps, const char *op, int count, const pf_image src[],
                                 const pf_image dst[], int device) {
    for (int i = 0; i < count; i++) {
        pf_status st = pfi_cl_ptrs_add_view(ps, op, "src", i, src[i].data, device);
        if (st == PF_OK) st = pfi_cl_ptrs_add_view(ps, op, "dst", i, dst[i].data, device);
        if (st != PF_OK) return st;
    }
    return PF_OK;
}

/* ---- the launch --------------------------------------------------------------- */

pf_status pfi_cl_launch(pf_stream *s, const char *op, pfi_cl_prog_id id, const char *kernel, const void *dev_batch,
                        pfi_grid g, const pfi_arena *a, pfi_cl_ptrs *ps) {
    pfi_stream_note_op(s, op);
    if (g.w <= 0 || g.h <= 0 || g.n <= 0) return PF_OK;
    pf_status st = pfi_cl_enqueue_gate(s->device, s);
    if (st != PF_OK) return pfi_fail_in(op, st);
    st = ptrs_push(ps, a->dev);
    if (st == PF_OK && a->scratch != NULL) st = ptrs_push(ps, a->scratch);
    if (st != PF_OK) return pfi_fail_in(op, st);
    pfi_cl_program *pr;
    st = pfi_cl_program_get(s->device, id, &pr);
    if (st != PF_OK) return pfi_fail_in(op, st);
    void **list = ps->p;
    void **joined = NULL;
    if (ps->n > 64) {
        joined = malloc((size_t)ps->n * sizeof *joined);
        if (joined == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
        memcpy(joined, ps->p, 64 * sizeof *joined);
        memcpy(joined + 64, ps->more, (size_t)(ps->n - 64) * sizeof *joined);
        list = joined;
    }
    /* one kernel object per launch: a kernel's arguments are not thread
     * safe to set, and threads launch on their own streams concurrently */
    const char *call = "clCreateKernel";
    cl_int e = CL_SUCCESS;
    cl_kernel k = clCreateKernel(pr->prog, kernel, &e);
    if (e == CL_SUCCESS) {
        call = "clSetKernelArgSVMPointer";
        e = clSetKernelArgSVMPointer(k, 0, dev_batch);
    }
    if (e == CL_SUCCESS) {
        call = "clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_PTRS)";
        e = clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, (size_t)ps->n * sizeof(void *), list);
    }
    if (e == CL_SUCCESS) {
        call = "clEnqueueNDRangeKernel";
        /* a fixed 32 x 8 work-group, as on CUDA, the grid rounded up to it
         * (OpenCL C 1.2 needs whole groups; the bodies skip pixels beyond
         * a sample's size): a driver left to choose picks a size per grid,
         * and PoCL compiles a work-group function per size */
        size_t ls[3] = {32, 8, 1};
        size_t gs[3] = {((size_t)g.w + 31) / 32 * 32, ((size_t)g.h + 7) / 8 * 8, (size_t)g.n};
        cl_event ev = NULL;
        e = clEnqueueNDRangeKernel(queue(s), k, 3, NULL, gs, ls, 0, NULL, &ev);
        if (e == CL_SUCCESS) pfi_cl_stream_note(s->impl, ev);
    }
    if (k != NULL) (void)clReleaseKernel(k);
    free(joined);
    if (e != CL_SUCCESS) return pfi_fail_in(op, pfi_cl_fail(call, e));
    if (s->implicit) {
        /* NULL stream: synchronous, so execution errors surface from this call */
        e = clFinish(queue(s));
        if (e != CL_SUCCESS) return pfi_fail_in(op, pfi_cl_fail_wait(s->device, "clFinish (kernel execution)", e));
    } else {
        e = clFlush(queue(s));
        if (e != CL_SUCCESS) return pfi_fail_in(op, pfi_cl_fail("clFlush", e));
    }
    return PF_OK;
}
