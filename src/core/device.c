/* Device registry: pf_device_open returns one shared, reference-counted
 * handle per (kind, index), so streams, events and pools can hold the
 * device open and compare devices by pointer. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/device.h"
#include "core/error.h"

#define PFI_MAX_DEVICES 64

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pf_device *g_devices[PFI_DEVICE_KINDS][PFI_MAX_DEVICES];
static atomic_bool g_kind_used[PFI_DEVICE_KINDS];

static const char *kind_name(pf_device_kind k) {
    return k == PF_DEVICE_CPU      ? "PF_DEVICE_CPU"
           : k == PF_DEVICE_CUDA   ? "PF_DEVICE_CUDA"
           : k == PF_DEVICE_OPENCL ? "PF_DEVICE_OPENCL"
                                   : "?";
}

static pf_status check_kind(const char *fn, pf_device_kind kind) {
    if (kind == PF_DEVICE_CPU || kind == PF_DEVICE_CUDA || kind == PF_DEVICE_OPENCL) return PF_OK;
    return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: kind is %d; use PF_DEVICE_CPU, PF_DEVICE_CUDA or PF_DEVICE_OPENCL",
                    fn, (int)kind);
}

pf_status pf_device_count(pf_device_kind kind, int *count) {
    pfi_clear_error();
    if (count == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_device_count: count is NULL");
    *count = 0;
    pf_status st = check_kind("pf_device_count", kind);
    if (st != PF_OK) return st;
    const pfi_backend *be = pfi_backend_get(kind);
    if (be == NULL) return PF_OK; /* built without it: none */
    return be->device_count(count);
}

pf_status pf_device_open(pf_device_kind kind, int index, pf_device **out) {
    pfi_clear_error();
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_device_open: out is NULL");
    *out = NULL;
    pf_status st = check_kind("pf_device_open", kind);
    if (st != PF_OK) return st;
    const pfi_backend *be = pfi_backend_get(kind);
    if (be == NULL && kind == PF_DEVICE_OPENCL)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "pf_device_open: this pixflow was built without the OpenCL backend (configure with "
                        "-DPIXFLOW_OPENCL=ON on a machine with an OpenCL ICD loader: ocl-icd-opencl-dev)");
    if (be == NULL)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "pf_device_open: this pixflow was built without the CUDA backend (configure with "
                        "-DPIXFLOW_CUDA=ON on a machine with nvcc)");
    if (index < 0 || index >= PFI_MAX_DEVICES)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_device_open: index is %d; it must be in [0, %d)", index,
                        PFI_MAX_DEVICES);
    if (be->device_reopen != NULL && (st = be->device_reopen(index)) != PF_OK) {
        char why[256];
        snprintf(why, sizeof why, "%s", pf_last_error());
        return pfi_fail(st, "pf_device_open(%s, %d): %s", kind_name(kind), index, why);
    }
    pthread_mutex_lock(&g_lock);
    pf_device *d = g_devices[kind][index];
    if (d != NULL) {
        d->refs++;
        pthread_mutex_unlock(&g_lock);
        *out = d;
        return PF_OK;
    }
    d = calloc(1, sizeof *d);
    if (d == NULL) {
        pthread_mutex_unlock(&g_lock);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_device_open: out of memory");
    }
    st = be->device_probe(index, &d->props);
    if (st != PF_OK) {
        pthread_mutex_unlock(&g_lock);
        free(d);
        char why[256];
        snprintf(why, sizeof why, "%s", pf_last_error());
        return pfi_fail(st, "pf_device_open(%s, %d): %s", kind_name(kind), index, why);
    }
    d->kind = kind;
    d->index = index;
    d->refs = 1;
    d->be = be;
    g_devices[kind][index] = d;
    atomic_store(&g_kind_used[kind], true);
    pthread_mutex_unlock(&g_lock);
    *out = d;
    return PF_OK;
}

pf_device *pfi_device_ref(pf_device *d) {
    if (d == NULL) return NULL;
    pthread_mutex_lock(&g_lock);
    d->refs++;
    pthread_mutex_unlock(&g_lock);
    return d;
}

void pf_device_close(pf_device *d) {
    if (d == NULL) return;
    pthread_mutex_lock(&g_lock);
    if (--d->refs == 0) {
        g_devices[d->kind][d->index] = NULL;
        free(d);
    }
    pthread_mutex_unlock(&g_lock);
}

static pf_device *g_cpu;
static void open_cpu_once(void) {
    /* one reference held for the process lifetime */
    if (pf_device_open(PF_DEVICE_CPU, 0, &g_cpu) != PF_OK) g_cpu = NULL;
}

pf_device *pfi_device_cpu(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, open_cpu_once);
    return g_cpu;
}

bool pfi_kind_in_use(pf_device_kind kind) {
    return (int)kind >= 0 && kind < PFI_DEVICE_KINDS && atomic_load(&g_kind_used[kind]);
}
bool pfi_cuda_in_use(void) { return pfi_kind_in_use(PF_DEVICE_CUDA); }

pf_status pf_device_props_get(const pf_device *d, pf_device_props *props) {
    pfi_clear_error();
    if (d == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_device_props_get: device is NULL");
    if (props == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_device_props_get: props is NULL");
    *props = d->props;
    return PF_OK;
}

void *pf_opencl_context(const pf_device *d) {
    if (d == NULL || d->kind != PF_DEVICE_OPENCL || d->be->device_native == NULL) return NULL;
    return d->be->device_native(d->index);
}

pf_status pf_device_synchronize(pf_device *d) {
    pfi_clear_error();
    if (d == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_device_synchronize: device is NULL");
    return pfi_fail_in("pf_device_synchronize", d->be->device_synchronize(d->index));
}
