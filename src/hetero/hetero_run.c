/* pf_dispatch_run: checks the batch, places it (hetero_place.c), runs the
 * devices' chunks concurrently from one shared cursor, re-runs the chunks
 * of devices that failed on the others, and updates the cost model.
 * Chunks are contiguous sample ranges with the batch's own params and
 * info entries, so what a sample gets never depends on which device ran
 * it or where its chunk began. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "hetero/hetero.h"

static int desc_equal(const pf_preprocess_desc *a, const pf_preprocess_desc *b) {
    /* field by field: padding bytes of the caller's struct are not ours to compare */
    return a->out_width == b->out_width && a->out_height == b->out_height && a->out_channels == b->out_channels &&
           a->interp == b->interp && a->antialias == b->antialias && a->flavor == b->flavor &&
           a->letterbox == b->letterbox && a->letterbox_align == b->letterbox_align &&
           memcmp(a->pad_value, b->pad_value, sizeof a->pad_value) == 0 && a->swap_rb == b->swap_rb &&
           memcmp(&a->scale, &b->scale, sizeof a->scale) == 0 && memcmp(a->mean, b->mean, sizeof a->mean) == 0 &&
           memcmp(a->std, b->std, sizeof a->std) == 0 && a->out_dtype == b->out_dtype &&
           a->out_layout == b->out_layout;
}

/* One plan per device for desc (a plan's scratch is one run at a time, and
 * each device runs its own chunks concurrently). */
static pf_status ensure_plans(pf_dispatch *d, const pf_preprocess_desc *desc) {
    if (d->have_desc && desc_equal(&d->desc, desc)) return PF_OK;
    for (int i = 0; i < d->ndev; ++i) {
        pfi_hx_dev *x = &d->dev[i];
        pf_preprocess_plan_destroy(x->plan);
        pf_preprocess_plan_destroy(x->plan_geo);
        pf_preprocess_plan_destroy(x->plan_geo1);
        pf_preprocess_plan_destroy(x->plan_pt);
        x->plan = x->plan_geo = x->plan_geo1 = x->plan_pt = NULL;
    }
    d->split_warm = 0;
    d->have_desc = 0;
    for (int i = 0; i < d->ndev; ++i) {
        pf_status s = pf_preprocess_plan_create(desc, &d->dev[i].plan);
        if (s != PF_OK) return pfi_fail(s, "pf_dispatch_run: desc: %s", pf_last_error());
    }
    d->desc = *desc;
    d->have_desc = 1;
    d->warm = 0;
    pfi_hx_shape_key(desc, d->shape);
    return PF_OK;
}

static pf_status check_batch(pf_dispatch *d, const pf_preprocess_desc *desc, int count, const pf_image src[],
                             const pf_tensor *dst) {
    if (count < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_run: count is %d; it must be >= 0", count);
    if (dst == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_run: dst is NULL");
    d->job.dst_dev = -1;
    if (dst->mem != PF_MEM_HOST) {
        pf_device_kind kind = dst->mem == PF_MEM_CUDA ? PF_DEVICE_CUDA : PF_DEVICE_OPENCL;
        for (int i = 0; i < d->ndev; ++i)
            if (d->dev[i].kind == kind && d->dev[i].index == dst->device) d->job.dst_dev = i;
        if (d->job.dst_dev < 0 || (dst->mem != PF_MEM_CUDA && dst->mem != PF_MEM_OPENCL))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "pf_dispatch_run: dst is memory of %s device %d, which is not a device of this dispatcher",
                            dst->mem == PF_MEM_CUDA ? "CUDA" : dst->mem == PF_MEM_OPENCL ? "OpenCL" : "an unknown",
                            (int)dst->device);
    }
    pf_status s = pf_tensor_validate(dst, "dst");
    if (s != PF_OK) return pfi_fail(s, "pf_dispatch_run: %s", pf_last_error());
    if (dst->n < count)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_run: dst.n is %d; it must be >= count (%d)", (int)dst->n,
                        count);
    if (dst->width != desc->out_width || dst->height != desc->out_height || dst->channels != desc->out_channels ||
        dst->dtype != desc->out_dtype || dst->layout != desc->out_layout)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_dispatch_run: dst is %dx%dx%d, dtype %d, layout %d; desc asks for %dx%dx%d, dtype %d, "
                        "layout %d", (int)dst->width, (int)dst->height, (int)dst->channels, (int)dst->dtype,
                        (int)dst->layout, (int)desc->out_width, (int)desc->out_height, (int)desc->out_channels,
                        (int)desc->out_dtype, (int)desc->out_layout);
    if (count > 0 && src == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_run: src is NULL");
    for (int i = 0; i < count; ++i) {
        const pf_image *im = &src[i];
        if (im->mem != PF_MEM_HOST)
            return pfi_fail(PF_ERR_UNSUPPORTED, "pf_dispatch_run: src[%d] is device memory; sources are host images", i);
        if (im->data == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_run: src[%d].data is NULL", i);
        if (im->dtype != PF_U8 || im->layout != PF_HWC || (im->channels != 1 && im->channels != 3) ||
            im->width < 1 || im->height < 1)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "pf_dispatch_run: src[%d] must be a u8 HWC image of 1 or 3 channels and size >= 1x1", i);
    }
    return PF_OK;
}

/* The next samples for device x, [*a, *b): a failed chunk first, then
 * its own range (static placement) or a chunk from the shared cursor:
 * half the remaining samples times its share (a quarter while
 * calibrating, its first chunk 1 sample), at least 1, taken with one
 * compare-and-swap, and (placed by
 * cost) no more than it finishes before the others would finish the
 * rest: a device that would only delay the batch stops taking chunks. */
static int grab(pf_dispatch *d, pfi_hx_dev *x, int *a, int *b) {
    double t0 = pfi_hx_now_ms();
    int got = 0;
    if (d->abort || x->failed) goto done;
    if (d->nretry > 0) {
        pthread_mutex_lock(&d->mu);
        if (d->nretry > 0) {
            int i = --d->nretry;
            *a = d->retry_a[i];
            *b = d->retry_b[i];
            got = 1;
        }
        pthread_mutex_unlock(&d->mu);
        if (got) goto done;
    }
    if (!x->active) goto done;
    if (!d->cfg.work_stealing) {
        if (!x->static_taken && x->range_a < x->range_b) {
            *a = x->range_a;
            *b = x->range_b;
            got = 1;
        }
        x->static_taken = 1;
        goto done;
    }
    for (;;) {
        int cur = d->cursor;
        if (cur >= d->count) break;
        int rem = d->count - cur;
        int k = (int)ceil(rem * x->share / (d->calibrating ? 4.0 : 2.0));
        if (d->calibrating && x->b_chunks == 0) k = 1;
        if (k < 1) k = 1;
        if (k > rem) k = rem;
        if (d->cost_placed) {
            /* The tail: take only what this device finishes before the
             * others would finish the whole remainder without it (one
             * sample of a slow device can outlast the batch). */
            double speed = 0;
            int fastest = 1; /* never refuses: someone must take the last sample */
            for (int i = 0; i < d->ndev; ++i) {
                const pfi_hx_dev *o = &d->dev[i];
                if (o == x || !o->active || o->failed || o->st.cost_ms <= 0) continue;
                speed += 1.0 / o->st.cost_ms;
                if (o->st.cost_ms < x->st.cost_ms || (o->st.cost_ms == x->st.cost_ms && o < x)) fastest = 0;
            }
            if (!fastest && speed > 0 && x->st.cost_ms > 0) {
                double kmax = (double)rem / speed / x->st.cost_ms;
                if (kmax < (double)k) k = (int)kmax;
            }
        }
        if (k < 1) break;
        if (atomic_compare_exchange_weak(&d->cursor, &cur, cur + k)) {
            *a = cur;
            *b = cur + k;
            got = 1;
            break;
        }
    }
done:
    x->b_grab_ms += pfi_hx_now_ms() - t0;
    return got;
}

int pfi_hx_chunk_failed(pf_dispatch *d, pfi_hx_dev *x, pf_status s) {
    if (s == PF_ERR_INVALID_ARGUMENT) {
        /* the caller's batch is wrong, not the device: stop everything */
        if (!d->abort) {
            d->abort = 1;
            d->abort_status = s;
            snprintf(d->abort_msg, sizeof d->abort_msg, "%s", x->errmsg);
        }
        return 0;
    }
    x->failed = 1;
    x->st.failures++;
    return 1;
}

/* Runs chunks on x until none is left for it or it fails. */
static void work(pf_dispatch *d, pfi_hx_dev *x) {
    int a, b;
    while (grab(d, x, &a, &b)) {
        double t0 = pfi_hx_now_ms();
        pf_status s = pfi_hx_run_chunk(d, x, a, b);
        double ms = pfi_hx_now_ms() - t0;
        x->b_busy_ms += ms;
        if (s == PF_OK) {
            if (x->b_chunks == 0) {
                x->first_ms = ms;
                x->first_n = (uint64_t)(b - a);
            }
            x->b_chunks++;
            x->b_samples += (uint64_t)(b - a);
            continue;
        }
        pthread_mutex_lock(&d->mu);
        if (pfi_hx_chunk_failed(d, x, s)) { /* a device failure: the other devices re-run the chunk */
            d->retry_a[d->nretry] = a;
            d->retry_b[d->nretry] = b;
            d->nretry++;
        }
        pthread_mutex_unlock(&d->mu);
        break;
    }
}

typedef struct worker_arg {
    pf_dispatch *d;
    pfi_hx_dev *x;
} worker_arg;

static void *worker_main(void *arg) {
    worker_arg *w = arg;
    work(w->d, w->x);
    return NULL;
}

static pf_status run_batch(pf_dispatch *d, const pf_preprocess_desc *desc, int count, const pf_image src[],
                           const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]);

/* The cost update after the batch's work (pfi_hx_account, which is given
 * the work's wall for the cost model) is dispatcher time: it goes into
 * the overhead and into the run's wall alike. Without it in the wall, a
 * batch whose update was preempted (seen under QEMU on a loaded 2-core
 * machine) reported more overhead than wall time. */
static void account_tail(pf_dispatch *d, double tail_ms, double *overhead) {
    *overhead += tail_ms;
    d->st.wall_ms += tail_ms;
    d->st.last_wall_ms += tail_ms;
}

PF_API pf_status pf_dispatch_run(pf_dispatch *d, const pf_preprocess_desc *desc, int count, const pf_image src[],
                                 const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]) {
    pfi_clear_error();
    if (d == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_run: d is NULL");
    pf_status s = run_batch(d, desc, count, src, params, dst, info);
    pfi_hx_publish(d); /* on every path: a failed batch's failures are stats too */
    return s;
}

static pf_status run_batch(pf_dispatch *d, const pf_preprocess_desc *desc, int count, const pf_image src[],
                           const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]) {
    double t_start = pfi_hx_now_ms();
    if (desc == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_run: desc is NULL");
    pf_status s = check_batch(d, desc, count, src, dst);
    if (s != PF_OK) return s;
    s = ensure_plans(d, desc);
    if (s != PF_OK) return s;
    if (count == 0) return PF_OK;
    d->count = count;
    d->cursor = 0;
    d->nretry = 0;
    d->abort = 0;
    d->abort_status = PF_OK;
    d->job.src = src;
    d->job.params = params;
    d->job.dst = *dst;
    d->job.info = info;
    d->job.stage = PFI_HX_STAGE_WHOLE;
    if (!d->warm) {
        /* once per desc, not counted as overhead: plans are new */
        for (int i = 0; i < d->ndev; ++i) pfi_hx_warm_up(d, &d->job, &d->dev[i]);
        d->warm = 1;
        t_start = pfi_hx_now_ms();
    }
    s = pfi_hx_place(d);
    if (s != PF_OK) return s;
    if (d->split) {
        double overhead = pfi_hx_now_ms() - t_start;
        s = pfi_hx_run_split(d, &overhead);
        if (s != PF_OK && s != PF_ERR_DEVICE) return s; /* a caller error: no batch */
        double t_rest = pfi_hx_now_ms();
        pfi_hx_account(d, t_rest - t_start);
        account_tail(d, pfi_hx_now_ms() - t_rest, &overhead);
        d->st.overhead_ms += overhead;
        d->st.last_overhead_ms = overhead;
        return s;
    }

    /* the first active device runs on this thread, the others on their own */
    pthread_t th[PFI_HX_MAX_DEVICES];
    worker_arg args[PFI_HX_MAX_DEVICES];
    int started[PFI_HX_MAX_DEVICES] = {0};
    int first = -1;
    double t_spawn = pfi_hx_now_ms();
    for (int i = 0; i < d->ndev; ++i) {
        if (!d->dev[i].active) continue;
        if (first < 0) {
            first = i;
            continue;
        }
        args[i].d = d;
        args[i].x = &d->dev[i];
        started[i] = pthread_create(&th[i], NULL, worker_main, &args[i]) == 0;
        /* a thread that does not start leaves its share to the others */
    }
    double overhead = t_spawn - t_start + (pfi_hx_now_ms() - t_spawn);
    if (first >= 0) work(d, &d->dev[first]);
    for (int i = 0; i < d->ndev; ++i)
        if (started[i]) pthread_join(th[i], NULL);
    if (d->abort) {
        pfi_fail(d->abort_status, "pf_dispatch_run: %s", d->abort_msg);
        return d->abort_status;
    }
    /* What is left (failed chunks no running device took, samples of a
     * device whose thread did not start): every healthy device in turn,
     * active ones first, without the tail rule (nobody else is running). */
    d->cost_placed = 0;
    for (int pass = 0; pass < 2; ++pass)
        for (int i = 0; i < d->ndev; ++i) {
            pfi_hx_dev *x = &d->dev[i];
            if (x->failed || (pass == 0) != (x->active != 0)) continue;
            int was_active = x->active;
            x->active = 1;
            work(d, x);
            x->active = was_active;
            if (d->abort) {
                pfi_fail(d->abort_status, "pf_dispatch_run: %s", d->abort_msg);
                return d->abort_status;
            }
        }
    double t_rest = pfi_hx_now_ms();
    int left = d->nretry > 0 || (d->cfg.work_stealing && d->cursor < d->count);
    if (!d->cfg.work_stealing)
        for (int i = 0; i < d->ndev; ++i)
            if (d->dev[i].active && !d->dev[i].static_taken) left = 1;
    for (int i = 0; i < d->ndev; ++i) overhead += d->dev[i].b_grab_ms;
    pfi_hx_account(d, t_rest - t_start);
    account_tail(d, pfi_hx_now_ms() - t_rest, &overhead);
    d->st.overhead_ms += overhead;
    d->st.last_overhead_ms = overhead;
    if (left) {
        const char *msg = "no device could run the batch";
        for (int i = 0; i < d->ndev; ++i)
            if (d->dev[i].failed) msg = d->dev[i].errmsg;
        return pfi_fail(PF_ERR_DEVICE, "pf_dispatch_run: every device failed; the last: %s", msg);
    }
    pfi_clear_error(); /* a failed chunk's text is in the stats; the batch succeeded */
    return PF_OK;
}
