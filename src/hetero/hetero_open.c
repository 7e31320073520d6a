/* Opening the dispatcher's devices, closing, overrides, hooks and stats. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "hetero/hetero.h"

PF_API pf_dispatch_config pf_dispatch_config_defaults(void) {
    pf_dispatch_config c;
    memset(&c, 0, sizeof c);
    c.devices = "auto";
    c.cpu_threads = 0;
    c.ewma_alpha = 0.3;
    c.drop_ratio = 20;
    c.work_stealing = true;
    return c;
}

static void dev_release(pfi_hx_dev *x) {
    free(x->host_buf);
    x->host_buf = NULL;
    pf_preprocess_plan_destroy(x->plan);
    pf_preprocess_plan_destroy(x->plan_geo);
    pf_preprocess_plan_destroy(x->plan_geo1);
    pf_preprocess_plan_destroy(x->plan_pt);
    x->plan = x->plan_geo = x->plan_geo1 = x->plan_pt = NULL;
    if (x->stream) pf_stream_synchronize(x->stream);
    if (x->dev) {
        pf_free(x->dev, PF_ALLOC_DEVICE, x->img_buf);
        pf_free(x->dev, PF_ALLOC_DEVICE, x->out_buf);
    }
    x->img_buf = x->out_buf = NULL;
    pf_stream_destroy(x->stream);
    x->stream = NULL;
    pf_device_close(x->dev);
    x->dev = NULL;
}

/* Opens device (kind, index) as the dispatcher's next device. */
static pf_status add_device(pf_dispatch *d, pf_device_kind kind, int index) {
    if (d->ndev == PFI_HX_MAX_DEVICES)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_open: config.devices lists more than %d devices",
                        PFI_HX_MAX_DEVICES);
    pfi_hx_dev *x = &d->dev[d->ndev];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->index = index;
    x->weight_override = -1;
    x->fail_after = -1;
    x->dst_stream_of = -1;
    if (kind == PF_DEVICE_CPU) snprintf(x->name, sizeof x->name, "cpu");
    else snprintf(x->name, sizeof x->name, "%s:%d", kind == PF_DEVICE_CUDA ? "cuda" : "opencl", index);
    for (int i = 0; i < d->ndev; ++i)
        if (strcmp(d->dev[i].name, x->name) == 0)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_open: config.devices names %s twice", x->name);
    pf_status s;
    if (kind == PF_DEVICE_CPU) {
        s = pf_stream_create_cpu(d->cfg.cpu_threads, &x->stream);
    } else {
        s = pf_device_open(kind, index, &x->dev);
        if (s == PF_OK) s = pf_stream_create(x->dev, &x->stream);
    }
    if (s != PF_OK) {
        char why[256];
        snprintf(why, sizeof why, "%s", pf_last_error());
        dev_release(x);
        return pfi_fail(s, "pf_dispatch_open: config.devices: %s does not open: %s", x->name, why);
    }
    memcpy(x->st.name, x->name, sizeof x->st.name); /* both PFI_HX_NAME_LEN */
    snprintf(x->st.reason, sizeof x->st.reason, "no batch yet");
    d->ndev++;
    return PF_OK;
}

static pf_status open_auto(pf_dispatch *d) {
    pf_status s = add_device(d, PF_DEVICE_CPU, 0);
    if (s != PF_OK) return s;
    const pf_device_kind kinds[2] = {PF_DEVICE_CUDA, PF_DEVICE_OPENCL};
    for (int k = 0; k < 2; ++k) {
        int n = 0;
        if (pf_device_count(kinds[k], &n) != PF_OK) n = 0;
        for (int i = 0; i < n && d->ndev < PFI_HX_MAX_DEVICES; ++i)
            if (add_device(d, kinds[k], i) != PF_OK) pfi_clear_error(); /* auto: what does not open is skipped */
    }
    pfi_clear_error();
    return PF_OK;
}

static pf_status open_list(pf_dispatch *d, const char *list) {
    char tok[64];
    const char *p = list;
    for (;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        while (len > 0 && *p == ' ') { p++; len--; }
        while (len > 0 && p[len - 1] == ' ') len--;
        if (len == 0 || len >= sizeof tok)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "pf_dispatch_open: config.devices \"%s\" has an empty or overlong name (use cpu, "
                            "cuda:N, opencl:N, comma separated, or auto)", list);
        memcpy(tok, p, len);
        tok[len] = '\0';
        pf_device_kind kind;
        int index;
        if (!pfi_hx_parse_name(tok, &kind, &index))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "pf_dispatch_open: config.devices: \"%s\" is not a device (use cpu, cuda:N, opencl:N or auto)",
                            tok);
        pf_status s = add_device(d, kind, index);
        if (s != PF_OK) return s;
        if (!e) break;
        p = e + 1;
    }
    return PF_OK;
}

PF_API pf_status pf_dispatch_open(const pf_dispatch_config *config, pf_dispatch **out) {
    pfi_clear_error();
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_open: out is NULL");
    *out = NULL;
    pf_dispatch_config c = config ? *config : pf_dispatch_config_defaults();
    if (c.devices == NULL) c.devices = "auto";
    if (!(c.ewma_alpha > 0 && c.ewma_alpha <= 1))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_open: config.ewma_alpha is %g; it must be in (0, 1]",
                        c.ewma_alpha);
    if (!(c.drop_ratio > 1) || !isfinite(c.drop_ratio))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_open: config.drop_ratio is %g; it must be > 1 and finite",
                        c.drop_ratio);
    if (c.cpu_threads < 0 || c.cpu_threads > 256)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_open: config.cpu_threads is %d; it must be 0..256",
                        (int)c.cpu_threads);
    if (strlen(c.devices) >= 256)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_open: config.devices is longer than 255 characters");
    pf_dispatch *d = calloc(1, sizeof *d);
    if (d == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_dispatch_open: out of memory");
    snprintf(d->devices_text, sizeof d->devices_text, "%s", c.devices);
    c.devices = d->devices_text;
    d->cfg = c;
    d->pin = -1;
    d->rule[PFI_HX_GEOMETRY] = d->rule[PFI_HX_POINTWISE] = -1;
    if (pthread_mutex_init(&d->mu, NULL) != 0) {
        free(d);
        return pfi_fail(PF_ERR_INTERNAL, "pf_dispatch_open: pthread_mutex_init failed");
    }
    if (pthread_mutex_init(&d->pub_mu, NULL) != 0) {
        pthread_mutex_destroy(&d->mu);
        free(d);
        return pfi_fail(PF_ERR_INTERNAL, "pf_dispatch_open: pthread_mutex_init failed");
    }
    pf_status s = strcmp(c.devices, "auto") == 0 ? open_auto(d) : open_list(d, c.devices);
    if (s != PF_OK) {
        char why[512];
        snprintf(why, sizeof why, "%s", pf_last_error());
        pf_dispatch_close(d); /* its calls clear the thread's error text */
        return pfi_fail(s, "%s", why);
    }
    pfi_hx_publish(d);
    *out = d;
    return PF_OK;
}

PF_API void pf_dispatch_close(pf_dispatch *d) {
    if (d == NULL) return;
    /* streams on other devices first: their devices close below */
    for (int i = 0; i < d->ndev; ++i) {
        pf_stream_destroy(d->dev[i].dst_stream);
        d->dev[i].dst_stream = NULL;
    }
    for (int i = 0; i < d->ndev; ++i) dev_release(&d->dev[i]);
    pfi_hx_model_free(&d->model);
    pfi_hx_split_free(d);
    pthread_mutex_destroy(&d->mu);
    pthread_mutex_destroy(&d->pub_mu);
    free(d);
}

PF_API int pf_dispatch_device_count(const pf_dispatch *d) { return d ? d->ndev : 0; }

PF_API const char *pf_dispatch_device_name(const pf_dispatch *d, int i) {
    return d && i >= 0 && i < d->ndev ? d->dev[i].name : NULL;
}

/* Index of the dispatcher's device `name` ("opencl" = "opencl:0"), or -1. */
static int find_dev(const pf_dispatch *d, const char *name) {
    pf_device_kind kind;
    int index;
    if (name == NULL || !pfi_hx_parse_name(name, &kind, &index)) return -1;
    for (int i = 0; i < d->ndev; ++i)
        if (d->dev[i].kind == kind && d->dev[i].index == index) return i;
    return -1;
}

static pf_status no_such(const pf_dispatch *d, const char *fn, const char *name) {
    char list[256] = "";
    for (int i = 0; i < d->ndev; ++i) {
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", d->dev[i].name);
    }
    return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: name \"%s\" is not a device of this dispatcher (%s)", fn,
                    name ? name : "(null)", list);
}

PF_API pf_status pf_dispatch_pin(pf_dispatch *d, const char *name) {
    pfi_clear_error();
    if (d == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_pin: d is NULL");
    if (name == NULL) {
        d->pin = -1;
        for (int i = 0; i < d->ndev; ++i) d->dev[i].weight_override = -1;
        return PF_OK;
    }
    int i = find_dev(d, name);
    if (i < 0) return no_such(d, "pf_dispatch_pin", name);
    d->pin = i;
    return PF_OK;
}

PF_API pf_status pf_dispatch_set_share(pf_dispatch *d, const char *name, double weight) {
    pfi_clear_error();
    if (d == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_set_share: d is NULL");
    if (isnan(weight) || isinf(weight))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_set_share: weight must be finite");
    int i = find_dev(d, name);
    if (i < 0) return no_such(d, "pf_dispatch_set_share", name);
    d->dev[i].weight_override = weight < 0 ? -1 : weight;
    return PF_OK;
}

PF_API pf_status pf_dispatch_test_hooks(pf_dispatch *d, const char *name, int64_t delay_us, int64_t fail_after) {
    pfi_clear_error();
    if (d == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_test_hooks: d is NULL");
    if (delay_us < 0 || delay_us > 10000000)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_test_hooks: delay_us must be 0..10000000");
    if (fail_after < -1)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_test_hooks: fail_after must be >= -1");
    int i = find_dev(d, name);
    if (i < 0) return no_such(d, "pf_dispatch_test_hooks", name);
    d->dev[i].delay_us = delay_us;
    d->dev[i].fail_after = fail_after;
    d->dev[i].hook_samples = 0;
    return PF_OK;
}

/* The stats as of the last finished batch, copied under pub_mu so that the
 * getters may run on any thread (a metrics scraper) while a batch runs. */
void pfi_hx_publish(pf_dispatch *d) {
    pthread_mutex_lock(&d->pub_mu);
    d->pub_st = d->st;
    for (int i = 0; i < d->ndev; ++i) d->pub_dev[i] = d->dev[i].st;
    pthread_mutex_unlock(&d->pub_mu);
}

PF_API pf_status pf_dispatch_stats_get(const pf_dispatch *d, pf_dispatch_stats *stats) {
    pfi_clear_error();
    if (d == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_stats_get: d is NULL");
    if (stats == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_stats_get: stats is NULL");
    pf_dispatch *md = (pf_dispatch *)d; /* the mutex, not the state, changes */
    pthread_mutex_lock(&md->pub_mu);
    *stats = d->pub_st;
    pthread_mutex_unlock(&md->pub_mu);
    return PF_OK;
}

PF_API pf_status pf_dispatch_device_stats_get(const pf_dispatch *d, int i, pf_dispatch_device_stats *stats) {
    pfi_clear_error();
    if (d == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_device_stats_get: d is NULL");
    if (stats == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_device_stats_get: stats is NULL");
    if (i < 0 || i >= d->ndev)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_device_stats_get: i is %d; it must be 0..%d", i,
                        d->ndev - 1);
    pf_dispatch *md = (pf_dispatch *)d;
    pthread_mutex_lock(&md->pub_mu);
    *stats = d->pub_dev[i];
    pthread_mutex_unlock(&md->pub_mu);
    return PF_OK;
}
