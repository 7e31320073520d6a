/* The cost model: (device, plan shape) -> ms per sample, its shape keys,
 * device names, and the JSON it is saved as (read back in hetero_json.c). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "hetero/hetero.h"

pfi_hx_cost *pfi_hx_cost_find(pfi_hx_model *m, const char *device, const char *shape) {
    for (int i = 0; i < m->n; ++i)
        if (strcmp(m->e[i].device, device) == 0 && strcmp(m->e[i].shape, shape) == 0) return &m->e[i];
    return NULL;
}

pf_status pfi_hx_cost_set(pfi_hx_model *m, const char *device, const char *shape, double ms, uint64_t samples) {
    pfi_hx_cost *c = pfi_hx_cost_find(m, device, shape);
    if (c == NULL) {
        if (m->n == m->cap) {
            int cap = m->cap ? 2 * m->cap : 16;
            pfi_hx_cost *e = realloc(m->e, (size_t)cap * sizeof *e);
            if (e == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_dispatch: out of memory for the cost model");
            m->e = e;
            m->cap = cap;
        }
        c = &m->e[m->n++];
        memset(c, 0, sizeof *c);
        snprintf(c->device, sizeof c->device, "%s", device);
        snprintf(c->shape, sizeof c->shape, "%s", shape);
    }
    c->ms = ms;
    c->samples = samples;
    return PF_OK;
}

void pfi_hx_model_free(pfi_hx_model *m) {
    free(m->e);
    m->e = NULL;
    m->n = m->cap = 0;
}

static const char *dtype_name(pf_dtype t) {
    switch (t) {
    case PF_U8: return "u8";
    case PF_F32: return "f32";
    case PF_F16: return "f16";
    case PF_BF16: return "bf16";
    default: return "other";
    }
}

static const char *interp_name(pf_interp i) {
    switch (i) {
    case PF_INTERP_NEAREST: return "nearest";
    case PF_INTERP_LINEAR: return "linear";
    case PF_INTERP_CUBIC: return "cubic";
    case PF_INTERP_AREA: return "area";
    case PF_INTERP_LANCZOS4: return "lanczos4";
    case PF_INTERP_NEAREST_EXACT: return "nearest_exact";
    default: return "other";
    }
}

static const char *flavor_name(pf_resize_flavor f) {
    switch (f) {
    case PF_RESIZE_OPENCV: return "opencv";
    case PF_RESIZE_PILLOW: return "pillow";
    case PF_RESIZE_TORCHVISION: return "torchvision";
    default: return "other";
    }
}

void pfi_hx_shape_key(const pf_preprocess_desc *desc, char out[PFI_HX_SHAPE_LEN]) {
    snprintf(out, PFI_HX_SHAPE_LEN, "%dx%dx%d/%s/%s/%s/aa%d/%s/lb%d", (int)desc->out_width, (int)desc->out_height,
             (int)desc->out_channels, dtype_name(desc->out_dtype), desc->out_layout == PF_CHW ? "chw" : "hwc",
             interp_name(desc->interp), desc->antialias ? 1 : 0, flavor_name(desc->flavor), desc->letterbox ? 1 : 0);
}

int pfi_hx_parse_name(const char *name, pf_device_kind *kind, int *index) {
    const char *rest;
    if (strcmp(name, "cpu") == 0) {
        *kind = PF_DEVICE_CPU;
        *index = 0;
        return 1;
    }
    if (strncmp(name, "cuda", 4) == 0) {
        *kind = PF_DEVICE_CUDA;
        rest = name + 4;
    } else if (strncmp(name, "opencl", 6) == 0) {
        *kind = PF_DEVICE_OPENCL;
        rest = name + 6;
    } else {
        return 0;
    }
    if (*rest == '\0') {
        *index = 0;
        return 1;
    }
    if (*rest != ':' || rest[1] < '0' || rest[1] > '9') return 0;
    char *end;
    errno = 0;
    long v = strtol(rest + 1, &end, 10);
    if (errno != 0 || *end != '\0' || v < 0 || v > 63) return 0;
    *index = (int)v;
    return 1;
}

/* Appends to a growing string; 0 when out of memory. */
typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

static int sb_add(sbuf *b, const char *fmt, ...) PFI_PRINTF(2, 3);
static int sb_add(sbuf *b, const char *fmt, ...) {
    for (;;) {
        size_t room = b->cap - b->n;
        int w = -1;
        if (b->cap) {
            va_list ap;
            va_start(ap, fmt);
            w = vsnprintf(b->p + b->n, room, fmt, ap);
            va_end(ap);
        }
        if (w >= 0 && (size_t)w < room) {
            b->n += (size_t)w;
            return 1;
        }
        size_t cap = b->cap ? 2 * b->cap : 1024;
        char *p = realloc(b->p, cap);
        if (p == NULL) return 0;
        b->p = p;
        b->cap = cap;
    }
}

PF_API pf_status pf_dispatch_costs_json(const pf_dispatch *d, char **json) {
    pfi_clear_error();
    if (d == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_costs_json: d is NULL");
    if (json == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_costs_json: json is NULL");
    sbuf b = {0};
    int ok = sb_add(&b, "{\"format\": \"pixflow-dispatch-costs\", \"version\": 1,\n \"entries\": [");
    for (int i = 0; ok && i < d->model.n; ++i) {
        const pfi_hx_cost *c = &d->model.e[i];
        /* device names and shape keys are [a-z0-9:x/]: nothing to escape;
         * %.17g keeps the double exactly */
        ok = sb_add(&b, "%s\n  {\"device\": \"%s\", \"shape\": \"%s\", \"ms_per_sample\": %.17g, \"samples\": %llu}",
                    i ? "," : "", c->device, c->shape, c->ms, (unsigned long long)c->samples);
    }
    ok = ok && sb_add(&b, "]}\n");
    if (!ok) {
        free(b.p);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_dispatch_costs_json: out of memory");
    }
    *json = b.p;
    return PF_OK;
}

PF_API pf_status pf_dispatch_save_costs(const pf_dispatch *d, const char *path) {
    pfi_clear_error();
    if (path == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_save_costs: path is NULL");
    char *json = NULL;
    pf_status s = pf_dispatch_costs_json(d, &json);
    if (s != PF_OK) return pfi_fail(s, "pf_dispatch_save_costs: %s", pf_last_error());
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        free(json);
        return pfi_fail(PF_ERR_IO, "pf_dispatch_save_costs: cannot write %s: %s", path, strerror(errno));
    }
    size_t len = strlen(json);
    int ok = fwrite(json, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    free(json);
    if (!ok) return pfi_fail(PF_ERR_IO, "pf_dispatch_save_costs: writing %s failed", path);
    return PF_OK;
}

PF_API pf_status pf_dispatch_costs_parse(pf_dispatch *d, const char *json) {
    pfi_clear_error();
    if (d == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_costs_parse: d is NULL");
    if (json == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_costs_parse: json is NULL");
    pfi_hx_model m = {0};
    pf_status s = pfi_hx_parse_json("pf_dispatch_costs_parse", json, &m);
    if (s != PF_OK) return s;
    /* all valid: merge (same (device, shape) replaced) */
    for (int i = 0; i < m.n && s == PF_OK; ++i)
        s = pfi_hx_cost_set(&d->model, m.e[i].device, m.e[i].shape, m.e[i].ms, m.e[i].samples);
    pfi_hx_model_free(&m);
    return s;
}

PF_API pf_status pf_dispatch_load_costs(pf_dispatch *d, const char *path) {
    pfi_clear_error();
    if (d == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_load_costs: d is NULL");
    if (path == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_load_costs: path is NULL");
    FILE *f = fopen(path, "rb");
    if (f == NULL) return pfi_fail(PF_ERR_IO, "pf_dispatch_load_costs: cannot read %s: %s", path, strerror(errno));
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    int ok = buf != NULL;
    while (ok) {
        if (n + 1 >= cap) {
            if (cap >= ((size_t)64 << 20)) {
                ok = 0;
                break;
            }
            char *p = realloc(buf, cap * 2);
            if (p == NULL) {
                ok = 0;
                break;
            }
            buf = p;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - 1 - n, f);
        n += r;
        if (r == 0) break;
    }
    int rerr = ferror(f);
    fclose(f);
    if (!ok || rerr) {
        free(buf);
        return pfi_fail(rerr ? PF_ERR_IO : PF_ERR_OUT_OF_MEMORY, "pf_dispatch_load_costs: reading %s failed%s", path,
                        rerr ? "" : " (out of memory, or larger than 64 MiB)");
    }
    buf[n] = '\0';
    if (strlen(buf) != n) {
        free(buf);
        return pfi_fail(PF_ERR_CORRUPT_DATA, "pf_dispatch_load_costs: %s holds a NUL byte (not JSON text)", path);
    }
    pfi_hx_model m = {0};
    pf_status s = pfi_hx_parse_json("pf_dispatch_load_costs", buf, &m);
    free(buf);
    if (s != PF_OK) return s;
    for (int i = 0; i < m.n && s == PF_OK; ++i)
        s = pfi_hx_cost_set(&d->model, m.e[i].device, m.e[i].shape, m.e[i].ms, m.e[i].samples);
    pfi_hx_model_free(&m);
    return s;
}
