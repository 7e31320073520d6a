/* The CPU backend table: host memory, synchronous streams (work runs
 * inside each call, so queries always say "done" and callbacks run at
 * once), events as timestamps, and every op (src/cpu/cpu_kernels.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/backend.h"
#include "core/error.h"
#include "cpu/cpu_kernels.h"

static pf_status cpu_count(int *count) {
    *count = 1;
    return PF_OK;
}

static void cpu_model_name(char *out, size_t cap) {
    snprintf(out, cap, "CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0) continue;
        const char *v = strchr(line, ':');
        if (v == NULL) break;
        v++;
        while (*v == ' ') v++;
        snprintf(out, cap, "%s", v);
        out[strcspn(out, "\n")] = '\0';
        break;
    }
    fclose(f);
}

static pf_status cpu_probe(int index, pf_device_props *p) {
    if (index != 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "there is one CPU device (index 0), not %d", index);
    memset(p, 0, sizeof *p);
    p->kind = PF_DEVICE_CPU;
    cpu_model_name(p->name, sizeof p->name);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE), n = sysconf(_SC_NPROCESSORS_ONLN);
    p->total_memory = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : 0;
    p->multiprocessors = n > 0 ? (int32_t)n : 1;
    return PF_OK;
}

static pf_status cpu_sync_device(int index) {
    (void)index;
    return PF_OK;
}

static pf_status cpu_alloc(int device, pf_alloc_kind kind, size_t bytes, void **out) {
    (void)device;
    (void)kind;
    if (bytes > SIZE_MAX - 255) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%zu bytes is too large", bytes);
    *out = aligned_alloc(256, (bytes + 255) & ~(size_t)255);
    if (*out == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "out of host memory (%zu bytes)", bytes);
    return PF_OK;
}

static void cpu_free(int device, pf_alloc_kind kind, void *ptr) {
    (void)device;
    (void)kind;
    free(ptr);
}

static pf_status cpu_stream_create(int device, void *wrap, bool wrap_given, void **impl) {
    (void)device;
    (void)wrap;
    (void)wrap_given;
    *impl = NULL;
    return PF_OK;
}
static void cpu_stream_destroy(int device, void *impl, bool owned) {
    (void)device;
    (void)impl;
    (void)owned;
}
static pf_status cpu_stream_sync(int device, void *impl) {
    (void)device;
    (void)impl;
    return PF_OK;
}
static pf_status cpu_stream_query(int device, void *impl, int *done) {
    (void)device;
    (void)impl;
    *done = 1;
    return PF_OK;
}
static pf_status cpu_stream_callback(int device, void *impl, pf_host_fn fn, void *user) {
    (void)device;
    (void)impl;
    fn(user, PF_OK); /* everything queued before has already run */
    return PF_OK;
}

typedef struct cpu_event {
    double t_ms;
    bool recorded;
} cpu_event;

static pf_status cpu_event_create(int device, void **impl) {
    (void)device;
    *impl = calloc(1, sizeof(cpu_event));
    return *impl ? PF_OK : pfi_fail(PF_ERR_OUT_OF_MEMORY, "out of memory");
}
static void cpu_event_destroy(int device, void *impl) {
    (void)device;
    free(impl);
}
static pf_status cpu_event_record(int device, void *event, void *stream) {
    (void)device;
    (void)stream;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    cpu_event *e = event;
    e->t_ms = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
    e->recorded = true;
    return PF_OK;
}
static pf_status cpu_event_wait(int device, void *stream, void *event) {
    (void)device;
    (void)stream;
    (void)event;
    return PF_OK;
}
static pf_status cpu_event_query(int device, void *event, int *done) {
    (void)device;
    (void)event;
    *done = 1;
    return PF_OK;
}
static pf_status cpu_event_sync(int device, void *event) {
    (void)device;
    (void)event;
    return PF_OK;
}
static pf_status cpu_event_elapsed(int device, void *start, void *end, float *ms) {
    (void)device;
    const cpu_event *a = start, *b = end;
    if (!a->recorded || !b->recorded)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s was never recorded", a->recorded ? "end" : "start");
    *ms = (float)(b->t_ms - a->t_ms);
    return PF_OK;
}

static pf_status cpu_copy_2d(int device, void *stream, void *dst, size_t dpitch, const void *src, size_t spitch,
                             size_t width_bytes, size_t height) {
    (void)device;
    (void)stream;
    for (size_t r = 0; r < height; r++)
        memmove((char *)dst + r * dpitch, (const char *)src + r * spitch, width_bytes);
    return PF_OK;
}

static const pfi_kernels cpu_kernels = {
    .resize = pfi_cpu_resize,
    .cvt_color = pfi_cpu_cvt_color,
    .cvt_color_from_yuv = pfi_cpu_cvt_color_from_yuv,
    .cvt_color_to_yuv = pfi_cpu_cvt_color_to_yuv,
    .flip = pfi_cpu_flip,
    .rotate = pfi_cpu_rotate,
    .transpose = pfi_cpu_transpose,
    .copy_make_border = pfi_cpu_copy_make_border,
    .warp_affine = pfi_cpu_warp_affine,
    .warp_perspective = pfi_cpu_warp_perspective,
    .remap = pfi_cpu_remap,
    .convert = pfi_cpu_convert,
    .reformat = pfi_cpu_reformat,
    .normalize = pfi_cpu_normalize,
    .split = pfi_cpu_split,
    .merge = pfi_cpu_merge,
    .lut = pfi_cpu_lut,
    .adjust_brightness = pfi_cpu_adjust_brightness,
    .adjust_contrast = pfi_cpu_adjust_contrast,
    .adjust_saturation = pfi_cpu_adjust_saturation,
    .adjust_hue = pfi_cpu_adjust_hue,
    .solarize = pfi_cpu_solarize,
    .adjust_gamma = pfi_cpu_adjust_gamma,
    .posterize = pfi_cpu_posterize,
    .rgb_to_grayscale = pfi_cpu_rgb_to_grayscale,
    .invert = pfi_cpu_invert,
    .autocontrast = pfi_cpu_autocontrast,
    .equalize = pfi_cpu_equalize,
    .color_twist = pfi_cpu_color_twist,
    .gaussian_noise = pfi_cpu_gaussian_noise,
    .erase = pfi_cpu_erase,
    .filter = pfi_cpu_filter,
    .preprocess = pfi_cpu_preprocess,
    .preprocess_yuv = pfi_cpu_preprocess_yuv,
};

static const pfi_backend cpu_backend = {
    .name = "cpu",
    .kind = PF_DEVICE_CPU,
    .mem = PF_MEM_HOST,
    .device_count = cpu_count,
    .device_probe = cpu_probe,
    .device_synchronize = cpu_sync_device,
    .mem_alloc = cpu_alloc,
    .mem_free = cpu_free,
    .stream_create = cpu_stream_create,
    .stream_destroy = cpu_stream_destroy,
    .stream_synchronize = cpu_stream_sync,
    .stream_query = cpu_stream_query,
    .stream_add_callback = cpu_stream_callback,
    .stream_state_free = NULL,
    .event_create = cpu_event_create,
    .event_destroy = cpu_event_destroy,
    .event_record = cpu_event_record,
    .event_wait = cpu_event_wait,
    .event_query = cpu_event_query,
    .event_synchronize = cpu_event_sync,
    .event_elapsed_ms = cpu_event_elapsed,
    .copy_2d = cpu_copy_2d,
    .kernels = &cpu_kernels,
};

const pfi_backend *pfi_backend_cpu(void) { return &cpu_backend; }
