/* Programs of the OpenCL backend: built from the embedded sources at first
 * use per device, cached in memory (per device and program) and on disk
 * under $XDG_CACHE_HOME/pixflow/opencl (else ~/.cache/pixflow/opencl).
 *
 * A disk entry is keyed by a hash of the device name, the platform and
 * driver versions, the build options and the sources (so any change makes
 * a new key), and holds a header (magic, key, payload size, payload
 * checksum) before the device binary. An entry that fails any check, or
 * that the driver refuses to load, is rebuilt from source and rewritten:
 * never trusted. Writes go to a temporary file renamed into place, so a
 * concurrent reader sees the old entry or the new one, never a part.
 *
 * Build options are recorded with the program; the test-only environment
 * variable PIXFLOW_OPENCL_TEST_BUILD_OPTIONS appends options (a bad one
 * makes the build fail, which the fault tests check). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "opencl/cl_internal.h"

#define PFI_CL_CACHE_MAGIC "PFCLPRG1"

typedef struct cache_header {
    char magic[8];
    uint64_t key, size, checksum;
} cache_header;

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}
static uint64_t fnv_str(uint64_t h, const char *s) { return fnv(h, s, strlen(s) + 1); }

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The options of every program: OpenCL C 1.2 (the bodies name their
 * address spaces, so no generic address space is needed), IEEE division
 * and square root where the device offers them (the float bodies must
 * match the CPU bit for bit), and no -cl-mad-enable / fast-math: the
 * prelude turns FP_CONTRACT off. */
static void build_options(const pfi_cl_device *d, char *out, size_t cap) {
    const char *test = getenv("PIXFLOW_OPENCL_TEST_BUILD_OPTIONS");
    snprintf(out, cap, "-cl-std=CL1.2%s%s%s",
             (d->fp32 & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) ? " -cl-fp32-correctly-rounded-divide-sqrt" : "",
             test != NULL && test[0] ? " " : "", test != NULL ? test : "");
}

static uint64_t program_key(const pfi_cl_device *d, pfi_cl_prog_id id, const char *options) {
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv_str(h, d->name);
    h = fnv_str(h, d->platform_name);
    h = fnv_str(h, d->version);
    h = fnv_str(h, d->driver);
    h = fnv_str(h, options);
    unsigned n = 0;
    const char *const *src = pfi_cl_program_sources(id, &n);
    for (unsigned i = 0; i < n; i++) h = fnv(h, src[i], strlen(src[i]));
    return h;
}

static bool cache_dir(char *out, size_t cap) {
    const char *x = getenv("XDG_CACHE_HOME");
    int w;
    if (x != NULL && x[0] == '/')
        w = snprintf(out, cap, "%s/pixflow/opencl", x);
    else if (getenv("HOME") != NULL && getenv("HOME")[0] == '/')
        w = snprintf(out, cap, "%s/.cache/pixflow/opencl", getenv("HOME"));
    else
        return false;
    return w > 0 && (size_t)w < cap;
}

static bool mkdirs(char *path) {
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        int r = mkdir(path, 0755);
        *p = '/';
        if (r != 0 && errno != EEXIST) return false;
    }
    return mkdir(path, 0755) == 0 || errno == EEXIST;
}

static bool entry_path(const pfi_cl_device *d, pfi_cl_prog_id id, const char *options, char *out, size_t cap) {
    char dir[768];
    if (!cache_dir(dir, sizeof dir)) return false;
    int w = snprintf(out, cap, "%s/%s-%016llx.bin", dir, pfi_cl_program_name(id),
                     (unsigned long long)program_key(d, id, options));
    return w > 0 && (size_t)w < cap;
}

pf_status pfi_cl_program_cache_path(int device, pfi_cl_prog_id id, char *out, size_t cap) {
    pfi_cl_device *d;
    pf_status st = pfi_cl_device_ready(device, &d);
    if (st != PF_OK) return st;
    char opts[512];
    build_options(d, opts, sizeof opts);
    if (!entry_path(d, id, opts, out, cap)) out[0] = '\0';
    return PF_OK;
}

/* The program from a valid disk entry, or NULL. */
static cl_program load_entry(const pfi_cl_device *d, const char *path, uint64_t key, const char *options) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    cache_header h;
    unsigned char *bin = NULL;
    cl_program p = NULL;
    if (fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, PFI_CL_CACHE_MAGIC, 8) != 0 || h.key != key ||
        h.size == 0 || h.size > ((uint64_t)1 << 30))
        goto done;
    bin = malloc((size_t)h.size);
    if (bin == NULL || fread(bin, 1, (size_t)h.size, f) != (size_t)h.size || fgetc(f) != EOF) goto done;
    if (fnv(0xcbf29ce484222325ull, bin, (size_t)h.size) != h.checksum) goto done;
    size_t len = (size_t)h.size;
    const unsigned char *bins[1] = {bin};
    cl_int bstatus = CL_SUCCESS, e = CL_SUCCESS;
    p = clCreateProgramWithBinary(d->ctx, 1, &d->id, &len, bins, &bstatus, &e);
    if (p == NULL || e != CL_SUCCESS || bstatus != CL_SUCCESS ||
        clBuildProgram(p, 1, &d->id, options, NULL, NULL) != CL_SUCCESS) {
        if (p != NULL) (void)clReleaseProgram(p);
        p = NULL;
    }
done:
    free(bin);
    fclose(f);
    return p;
}

/* Best effort: a cache that cannot be written only costs the next start. */
static void store_entry(const pfi_cl_device *d, cl_program p, const char *path, uint64_t key) {
    size_t size = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || size == 0) return;
    unsigned char *bin = malloc(size);
    if (bin == NULL) return;
    unsigned char *bins[1] = {bin};
    if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) != CL_SUCCESS) {
        free(bin);
        return;
    }
    (void)d;
    char dir[1024], tmp[1100];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == NULL) {
        free(bin);
        return;
    }
    *slash = '\0';
    if (!mkdirs(dir)) {
        free(bin);
        return;
    }
    snprintf(tmp, sizeof tmp, "%s/.tmp-XXXXXX", dir);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(bin);
        return;
    }
    cache_header h;
    memcpy(h.magic, PFI_CL_CACHE_MAGIC, 8);
    h.key = key;
    h.size = size;
    h.checksum = fnv(0xcbf29ce484222325ull, bin, size);
    FILE *f = fdopen(fd, "wb");
    bool ok = f != NULL && fwrite(&h, sizeof h, 1, f) == 1 && fwrite(bin, 1, size, f) == size;
    if (f != NULL)
        ok = fclose(f) == 0 && ok;
    else
        close(fd);
    if (!ok || rename(tmp, path) != 0) (void)unlink(tmp);
    free(bin);
}

static pf_status build_from_source(const pfi_cl_device *d, pfi_cl_prog_id id, const char *options,
                                   cl_program *out) {
    unsigned n = 0;
    const char *const *src = pfi_cl_program_sources(id, &n);
    cl_int e = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(d->ctx, n, (const char **)src, NULL, &e);
    if (p == NULL || e != CL_SUCCESS) return pfi_cl_fail("clCreateProgramWithSource", e);
    e = clBuildProgram(p, 1, &d->id, options, NULL, NULL);
    if (e != CL_SUCCESS) {
        char log[1536];
        size_t len = 0;
        if (clGetProgramBuildInfo(p, d->id, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, &len) != CL_SUCCESS) {
            /* longer than the buffer: say so rather than lose it all */
            snprintf(log, sizeof log, "(the build log is longer than %zu bytes)", sizeof log);
        } else {
            log[len < sizeof log ? len : sizeof log - 1] = '\0';
        }
        (void)clReleaseProgram(p);
        return pfi_fail(PF_ERR_DEVICE,
                        "the OpenCL program '%s' failed to build on %s (%s) with options \"%s\": %s; "
                        "compiler log: %s",
                        pfi_cl_program_name(id), d->name, d->driver, options, pfi_cl_error_name(e), log);
    }
    *out = p;
    return PF_OK;
}

pf_status pfi_cl_program_get(int device, pfi_cl_prog_id id, pfi_cl_program **out) {
    pfi_cl_device *d;
    pf_status st = pfi_cl_device_ready(device, &d);
    if (st != PF_OK) return st;
    char opts[512];
    build_options(d, opts, sizeof opts);
    if (pfi_cl_program_needs_fp64(id) && d->fp64 == 0)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "the OpenCL program '%s' computes in double, which %s lacks (cl_khr_fp64); run the op on "
                        "host views",
                        pfi_cl_program_name(id), d->name);
    pfi_cl_program *pr = &d->programs[id];
    /* builds are serialized: they are rare and the compiler is the slow part */
    pfi_cl_lock();
    if (pr->prog != NULL && strcmp(pr->options, opts) == 0) {
        pfi_cl_unlock();
        *out = pr;
        return PF_OK;
    }
    double t0 = now_ms();
    uint64_t key = program_key(d, id, opts);
    char path[1024];
    bool disk = entry_path(d, id, opts, path, sizeof path);
    cl_program p = disk ? load_entry(d, path, key, opts) : NULL;
    pfi_cl_prog_origin origin = PFI_CL_FROM_DISK;
    if (p == NULL) {
        origin = PFI_CL_FROM_SOURCE;
        st = build_from_source(d, id, opts, &p);
        if (st != PF_OK) {
            pfi_cl_unlock();
            return st;
        }
        if (disk) store_entry(d, p, path, key);
    }
    char *o = strdup(opts);
    if (o == NULL) {
        (void)clReleaseProgram(p);
        pfi_cl_unlock();
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "out of memory");
    }
    if (pr->prog != NULL) (void)clReleaseProgram(pr->prog);
    free(pr->options);
    pr->prog = p;
    pr->options = o;
    pr->origin = origin;
    pr->build_ms = now_ms() - t0;
    pfi_cl_unlock();
    *out = pr;
    return PF_OK;
}

void pfi_cl_program_forget(int device) {
    pfi_cl_device *d = pfi_cl_device_at(device);
    if (d == NULL) return;
    pfi_cl_lock();
    for (int i = 0; i < PFI_CL_PROG_COUNT; i++) {
        if (d->programs[i].prog != NULL) (void)clReleaseProgram(d->programs[i].prog);
        free(d->programs[i].options);
        d->programs[i].prog = NULL;
        d->programs[i].options = NULL;
        d->programs[i].origin = 0;
    }
    pfi_cl_unlock();
}

pfi_cl_prog_origin pfi_cl_program_origin(int device, pfi_cl_prog_id id, double *ms) {
    pfi_cl_device *d = pfi_cl_device_at(device);
    if (d == NULL) return 0;
    pfi_cl_lock();
    pfi_cl_prog_origin o = d->programs[id].origin;
    if (ms) *ms = d->programs[id].build_ms;
    pfi_cl_unlock();
    return o;
}
