/* OpenCL devices: every device of every platform the ICD loader lists, in
 * platform order, enumerated once per process; a device gets its context
 * and queue at its first probe (pf_device_open), which also refuses
 * devices without what the backend needs (SVM, 64-bit addresses). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "opencl/cl_internal.h"

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static pfi_cl_device g_dev[PFI_CL_MAX_DEVICES];
static int g_ndev;

void pfi_cl_lock(void) { pthread_mutex_lock(&g_lock); }
void pfi_cl_unlock(void) { pthread_mutex_unlock(&g_lock); }

const char *pfi_cl_error_name(cl_int e) {
    static const struct {
        cl_int code;
        const char *name;
    } names[] = {
        {CL_DEVICE_NOT_FOUND, "CL_DEVICE_NOT_FOUND"},
        {CL_DEVICE_NOT_AVAILABLE, "CL_DEVICE_NOT_AVAILABLE"},
        {CL_COMPILER_NOT_AVAILABLE, "CL_COMPILER_NOT_AVAILABLE"},
        {CL_MEM_OBJECT_ALLOCATION_FAILURE, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
        {CL_OUT_OF_RESOURCES, "CL_OUT_OF_RESOURCES"},
        {CL_OUT_OF_HOST_MEMORY, "CL_OUT_OF_HOST_MEMORY"},
        {CL_PROFILING_INFO_NOT_AVAILABLE, "CL_PROFILING_INFO_NOT_AVAILABLE"},
        {CL_BUILD_PROGRAM_FAILURE, "CL_BUILD_PROGRAM_FAILURE"},
        {CL_MAP_FAILURE, "CL_MAP_FAILURE"},
        {CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"},
        {CL_INVALID_VALUE, "CL_INVALID_VALUE"},
        {CL_INVALID_DEVICE, "CL_INVALID_DEVICE"},
        {CL_INVALID_CONTEXT, "CL_INVALID_CONTEXT"},
        {CL_INVALID_QUEUE_PROPERTIES, "CL_INVALID_QUEUE_PROPERTIES"},
        {CL_INVALID_COMMAND_QUEUE, "CL_INVALID_COMMAND_QUEUE"},
        {CL_INVALID_MEM_OBJECT, "CL_INVALID_MEM_OBJECT"},
        {CL_INVALID_BINARY, "CL_INVALID_BINARY"},
        {CL_INVALID_BUILD_OPTIONS, "CL_INVALID_BUILD_OPTIONS"},
        {CL_INVALID_PROGRAM, "CL_INVALID_PROGRAM"},
        {CL_INVALID_PROGRAM_EXECUTABLE, "CL_INVALID_PROGRAM_EXECUTABLE"},
        {CL_INVALID_KERNEL_NAME, "CL_INVALID_KERNEL_NAME"},
        {CL_INVALID_KERNEL, "CL_INVALID_KERNEL"},
        {CL_INVALID_ARG_INDEX, "CL_INVALID_ARG_INDEX"},
        {CL_INVALID_ARG_VALUE, "CL_INVALID_ARG_VALUE"},
        {CL_INVALID_KERNEL_ARGS, "CL_INVALID_KERNEL_ARGS"},
        {CL_INVALID_WORK_DIMENSION, "CL_INVALID_WORK_DIMENSION"},
        {CL_INVALID_WORK_GROUP_SIZE, "CL_INVALID_WORK_GROUP_SIZE"},
        {CL_INVALID_GLOBAL_WORK_SIZE, "CL_INVALID_GLOBAL_WORK_SIZE"},
        {CL_INVALID_EVENT_WAIT_LIST, "CL_INVALID_EVENT_WAIT_LIST"},
        {CL_INVALID_EVENT, "CL_INVALID_EVENT"},
        {CL_INVALID_OPERATION, "CL_INVALID_OPERATION"},
        {CL_INVALID_BUFFER_SIZE, "CL_INVALID_BUFFER_SIZE"},
        {CL_INVALID_PLATFORM, "CL_INVALID_PLATFORM"},
        {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
    };
    static _Thread_local char buf[96];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].code == e) {
            snprintf(buf, sizeof buf, "%s (%d)", names[i].name, (int)e);
            return buf;
        }
    snprintf(buf, sizeof buf, "OpenCL error %d", (int)e);
    return buf;
}

pf_status pfi_cl_fail(const char *call, cl_int e) {
    if (e == CL_OUT_OF_RESOURCES || e == CL_OUT_OF_HOST_MEMORY || e == CL_MEM_OBJECT_ALLOCATION_FAILURE)
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s failed: %s", call, pfi_cl_error_name(e));
    return pfi_fail(PF_ERR_DEVICE, "%s failed: %s", call, pfi_cl_error_name(e));
}

static void info_str(cl_device_id d, cl_device_info what, char *out, size_t cap) {
    out[0] = '\0';
    if (clGetDeviceInfo(d, what, cap - 1, out, NULL) != CL_SUCCESS) out[0] = '\0';
    out[cap - 1] = '\0';
}

static void enumerate(void) {
    cl_uint np = 0;
    /* ocl-icd answers CL_PLATFORM_NOT_FOUND_KHR when no ICD is installed */
    if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || np == 0) return;
    cl_platform_id plats[16];
    if (np > 16) np = 16;
    if (clGetPlatformIDs(np, plats, NULL) != CL_SUCCESS) return;
    for (cl_uint p = 0; p < np; p++) {
        cl_uint nd = 0;
        cl_device_id ids[PFI_CL_MAX_DEVICES];
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, PFI_CL_MAX_DEVICES, ids, &nd) != CL_SUCCESS) continue;
        if (nd > PFI_CL_MAX_DEVICES) nd = PFI_CL_MAX_DEVICES;
        for (cl_uint i = 0; i < nd && g_ndev < PFI_CL_MAX_DEVICES; i++) {
            pfi_cl_device *d = &g_dev[g_ndev++];
            memset(d, 0, sizeof *d);
            d->platform = plats[p];
            d->id = ids[i];
            info_str(ids[i], CL_DEVICE_NAME, d->name, sizeof d->name);
            info_str(ids[i], CL_DEVICE_VERSION, d->version, sizeof d->version);
            info_str(ids[i], CL_DRIVER_VERSION, d->driver, sizeof d->driver);
            if (clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof d->platform_name - 1, d->platform_name, NULL) !=
                CL_SUCCESS)
                d->platform_name[0] = '\0';
            /* OpenCL 1.x devices do not know the query: no SVM */
            if (clGetDeviceInfo(ids[i], CL_DEVICE_SVM_CAPABILITIES, sizeof d->svm, &d->svm, NULL) != CL_SUCCESS)
                d->svm = 0;
            if (clGetDeviceInfo(ids[i], CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof d->max_alloc, &d->max_alloc, NULL) !=
                CL_SUCCESS)
                d->max_alloc = 0;
            if (clGetDeviceInfo(ids[i], CL_DEVICE_GLOBAL_MEM_SIZE, sizeof d->global_mem, &d->global_mem, NULL) !=
                CL_SUCCESS)
                d->global_mem = 0;
            if (clGetDeviceInfo(ids[i], CL_DEVICE_ADDRESS_BITS, sizeof d->address_bits, &d->address_bits, NULL) !=
                CL_SUCCESS)
                d->address_bits = 0;
            if (clGetDeviceInfo(ids[i], CL_DEVICE_ENDIAN_LITTLE, sizeof d->little_endian, &d->little_endian, NULL) !=
                CL_SUCCESS)
                d->little_endian = CL_FALSE;
            if (clGetDeviceInfo(ids[i], CL_DEVICE_MAX_COMPUTE_UNITS, sizeof d->compute_units, &d->compute_units,
                                NULL) != CL_SUCCESS)
                d->compute_units = 0;
            if (clGetDeviceInfo(ids[i], CL_DEVICE_SINGLE_FP_CONFIG, sizeof d->fp32, &d->fp32, NULL) != CL_SUCCESS)
                d->fp32 = 0;
            if (clGetDeviceInfo(ids[i], CL_DEVICE_DOUBLE_FP_CONFIG, sizeof d->fp64, &d->fp64, NULL) != CL_SUCCESS)
                d->fp64 = 0;
        }
    }
}

int pfi_cl_device_count(void) {
    pthread_once(&g_once, enumerate);
    return g_ndev;
}

pfi_cl_device *pfi_cl_device_at(int index) {
    pthread_once(&g_once, enumerate);
    return index >= 0 && index < g_ndev ? &g_dev[index] : NULL;
}

/* What the backend needs of a device, or PF_ERR_UNSUPPORTED naming it. */
static pf_status check_features(int index, const pfi_cl_device *d) {
    if ((d->svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) == 0)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "OpenCL device %d (%s, %s) has no shared virtual memory "
                        "(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER); pixflow's OpenCL backend needs OpenCL 2.0+ SVM",
                        index, d->name, d->version);
    if (d->address_bits != 64)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "OpenCL device %d (%s) has %u-bit addresses; pixflow's job structs need 64-bit device "
                        "pointers (CL_DEVICE_ADDRESS_BITS 64)",
                        index, d->name, (unsigned)d->address_bits);
    if (!d->little_endian)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "OpenCL device %d (%s) is big-endian; pixflow's job structs and bodies need a little-endian "
                        "device (CL_DEVICE_ENDIAN_LITTLE)",
                        index, d->name);
    return PF_OK;
}

pf_status pfi_cl_device_ready(int index, pfi_cl_device **out) {
    int n = pfi_cl_device_count();
    if (n == 0)
        return pfi_fail(PF_ERR_DEVICE, "no OpenCL device (install an ICD such as pocl-opencl-icd)");
    if (index < 0 || index >= n)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "index %d but there are %d OpenCL devices", index, n);
    pfi_cl_device *d = &g_dev[index];
    pf_status st = check_features(index, d);
    if (st == PF_OK) st = pfi_cl_lost_check(index);
    if (st != PF_OK) return st;
    pthread_mutex_lock(&g_lock);
    if (d->ctx == NULL) {
        cl_int e = CL_SUCCESS;
        cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)d->platform, 0};
        cl_context ctx = clCreateContext(props, 1, &d->id, pfi_cl_context_notify, (void *)(intptr_t)index, &e);
        if (ctx == NULL || e != CL_SUCCESS) {
            pthread_mutex_unlock(&g_lock);
            return pfi_cl_fail("clCreateContext", e);
        }
        cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
        cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d->id, qp, &e);
        if (q == NULL || e != CL_SUCCESS) {
            (void)clReleaseContext(ctx);
            pthread_mutex_unlock(&g_lock);
            return pfi_cl_fail("clCreateCommandQueueWithProperties", e);
        }
        d->ctx = ctx;
        d->queue = q;
        d->generation++;
        __atomic_store_n(&d->enqueues, 0, __ATOMIC_RELAXED);
        /* test only: lose this context after N queued commands (cl_lost.c) */
        const char *lose = getenv("PIXFLOW_OPENCL_TEST_LOSE_AFTER");
        d->lose_after = lose != NULL ? atoll(lose) : 0;
    }
    pthread_mutex_unlock(&g_lock);
    *out = d;
    return PF_OK;
}

bool pfi_cl_device_has_extension(int index, const char *ext) {
    pfi_cl_device *d = pfi_cl_device_at(index);
    if (d == NULL || ext == NULL || ext[0] == '\0') return false;
    size_t n = 0;
    if (clGetDeviceInfo(d->id, CL_DEVICE_EXTENSIONS, 0, NULL, &n) != CL_SUCCESS || n == 0) return false;
    char *all = malloc(n + 1);
    if (all == NULL) return false;
    bool found = false;
    if (clGetDeviceInfo(d->id, CL_DEVICE_EXTENSIONS, n, all, NULL) == CL_SUCCESS) {
        all[n] = '\0';
        size_t len = strlen(ext);
        /* a space-separated list: match whole names only (the int64 base
         * atomics' name is a prefix of no other, but be exact anyway) */
        for (const char *p = strstr(all, ext); p != NULL && !found; p = strstr(p + 1, ext))
            found = (p == all || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0');
    }
    free(all);
    return found;
}
