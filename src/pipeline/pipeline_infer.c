/* pf_infer_run: the user's engine as a pipeline stage behind a pf_video.
 *
 * Three threads: the caller's (pf_video_next and pf_video_batch_release: the
 * video has one consumer thread, so batches come back to it to be released),
 * an inference thread (config.infer) and a post-process thread (config.post),
 * joined by bounded queues. Each batch travels in a slot that owns one output
 * buffer; there are max_in_flight slots, allocated up front, so memory is
 * fixed whatever the run's length. After the first error no callback runs
 * again, but every slot still travels to the end and is released. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "pipeline/pipeline_infer_variant.h"
#include "pipeline/pipeline_queue.h"
#include "pixflow/infer.h"

#define OP "pf_infer_run"
/* latencies kept per stage for the percentiles (the most recent ones) */
#define LAT_CAP 8192

pf_infer_config pf_infer_config_defaults(void) {
    pf_infer_config c;
    memset(&c, 0, sizeof c);
    c.depth = 1;
    c.max_in_flight = 4;
    c.infer_core = -1;
    c.post_core = -1;
    c.window = 8;
    return c;
}

typedef struct slot {
    pf_video_batch *batch;
    void *out;
    int64_t index;
} slot;

typedef struct lat {
    double *ms;     /* LAT_CAP ring */
    int64_t n;
    double sum, max;
} lat;

typedef struct run {
    const pf_infer_config *cfg;
    pli_queue q_infer, q_post, q_done;
    lat l_source, l_infer, l_post;
    pli_variant_window vw;  /* inference thread only */
    int64_t variant_batches[PF_INFER_MAX_VARIANTS], switches;
    pthread_mutex_t mu;
    int stopped;            /* read without the lock as a hint; set under it */
    pf_status err;
    char msg[512];
} run;

static void lat_add(lat *l, double ms) {
    l->ms[l->n % LAT_CAP] = ms;
    l->n++;
    l->sum += ms;
    if (ms > l->max) l->max = ms;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void lat_stats(const lat *l, pf_infer_stage_stats *s) {
    memset(s, 0, sizeof *s);
    s->batches = l->n;
    if (l->n == 0) return;
    int64_t k = l->n < LAT_CAP ? l->n : LAT_CAP;
    qsort(l->ms, (size_t)k, sizeof *l->ms, cmp_double);   /* the ring is not needed after the run */
    s->p50_ms = l->ms[(k - 1) / 2];
    s->p99_ms = l->ms[(int64_t)((double)(k - 1) * 0.99 + 0.5)];
    s->max_ms = l->max;
    s->mean_ms = l->sum / (double)l->n;
    s->busy_s = l->sum / 1e3;
}

/* The first error wins; later ones are dropped (they are usually its echo). */
static void fail(run *r, pf_status st, const char *msg) {
    pthread_mutex_lock(&r->mu);
    if (!r->stopped) {
        r->stopped = 1;
        r->err = st;
        snprintf(r->msg, sizeof r->msg, "%s", msg);
    }
    pthread_mutex_unlock(&r->mu);
}

/* "<stage> failed on batch N: <the callback's pf_last_error, or the status name>" */
static void fail_stage(run *r, pf_status st, const char *what, int64_t batch) {
    char m[512];
    const char *why = pf_last_error();
    snprintf(m, sizeof m, OP ": the %s failed on batch %lld: %s", what, (long long)batch,
             (why && why[0]) ? why : pf_status_str(st));
    fail(r, st, m);
}

static int is_stopped(run *r) {
    pthread_mutex_lock(&r->mu);
    int s = r->stopped;
    pthread_mutex_unlock(&r->mu);
    return s;
}

static int pin(int core) {
#ifdef __linux__
    if (core < 0) return 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(core, &set);
    return sched_setaffinity(0, sizeof set, &set);   /* pid 0: the calling thread */
#else
    return core < 0 ? 0 : -1;
#endif
}

/* The chooser's variant for batch `index` (kept when there is no chooser). 0 when it returned an
 * invalid one: the run is then stopped with a message naming config.choose. */
static int choose_variant(run *r, int64_t index) {
    const pf_infer_config *c = r->cfg;
    if (c->choose == NULL) return 1;
    pf_infer_choice ch = pli_variant_choice(&r->vw, index, c->n_variants);
    pfi_clear_error();
    int v = c->choose(c->user, &ch);
    if (v < 0 || v >= c->n_variants) {
        char m[512];
        const char *why = pf_last_error();
        snprintf(m, sizeof m, OP ": config.choose returned %d on batch %lld; 0..%d (n_variants - 1)%s%s", v,
                 (long long)index, c->n_variants - 1, (why && why[0]) ? ": " : "", (why && why[0]) ? why : "");
        fail(r, PF_ERR_INVALID_ARGUMENT, m);
        return 0;
    }
    if (v != r->vw.variant) r->switches++;
    pli_variant_window_set(&r->vw, v);
    return 1;
}

static void *infer_main(void *arg) {
    run *r = arg;
    if (pin(r->cfg->infer_core) != 0)
        fail(r, PF_ERR_INVALID_ARGUMENT, OP ": config.infer_core: cannot pin the inference thread to that CPU");
    for (;;) {
        void *it = NULL;
        if (pli_queue_get(&r->q_infer, &it, -1, NULL) != PLI_Q_OK || it == NULL) break;
        slot *s = it;
        if (!is_stopped(r) && r->cfg->n_variants > 0 && !choose_variant(r, s->index)) {
            pli_queue_put(&r->q_post, s, -1, NULL);
            continue;
        }
        if (!is_stopped(r)) {
            pfi_clear_error();
            uint64_t t0 = pli_now_ns();
            const int v = r->vw.variant;
            pf_status st = r->cfg->n_variants > 0 ? r->cfg->infer_variant(r->cfg->user, s->batch, v, s->out)
                                                  : r->cfg->infer(r->cfg->user, s->batch, s->out);
            double ms = (double)(pli_now_ns() - t0) / 1e6;
            lat_add(&r->l_infer, ms);
            if (r->cfg->n_variants > 0) {
                pli_variant_window_add(&r->vw, ms, s->batch->count);
                r->variant_batches[v]++;
            }
            if (st != PF_OK)
                fail_stage(r, st, "infer callback", s->index);
        }
        pli_queue_put(&r->q_post, s, -1, NULL);
    }
    pli_queue_put(&r->q_post, NULL, -1, NULL);
    return NULL;
}

static void *post_main(void *arg) {
    run *r = arg;
    if (pin(r->cfg->post_core) != 0)
        fail(r, PF_ERR_INVALID_ARGUMENT, OP ": config.post_core: cannot pin the post-process thread to that CPU");
    for (;;) {
        void *it = NULL;
        if (pli_queue_get(&r->q_post, &it, -1, NULL) != PLI_Q_OK || it == NULL) break;
        slot *s = it;
        if (r->cfg->post != NULL && !is_stopped(r)) {
            pfi_clear_error();
            uint64_t t0 = pli_now_ns();
            pf_status st = r->cfg->post(r->cfg->user, s->batch, s->out);
            lat_add(&r->l_post, (double)(pli_now_ns() - t0) / 1e6);
            if (st != PF_OK)
                fail_stage(r, st, "post callback", s->index);
        }
        pli_queue_put(&r->q_done, s, -1, NULL);
    }
    return NULL;
}

static pf_status check(const pf_video *v, const pf_infer_config *c) {
    if (v == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": video is NULL");
    if (c == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config is NULL");
    if (c->n_variants < 0 || c->n_variants > PF_INFER_MAX_VARIANTS)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config.n_variants = %d; 0..%d", c->n_variants,
                        PF_INFER_MAX_VARIANTS);
    if (c->n_variants == 0 && c->infer == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config.infer is NULL");
    if (c->n_variants > 0 && c->infer_variant == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config.infer_variant is NULL (config.n_variants = %d)",
                        c->n_variants);
    if (c->n_variants > 0 && (c->variant < 0 || c->variant >= c->n_variants))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config.variant = %d; 0..%d", c->variant, c->n_variants - 1);
    if (c->n_variants > 0 && (c->window < 1 || c->window > PLI_VARIANT_WINDOW_MAX))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config.window = %d; 1..%d", c->window,
                        PLI_VARIANT_WINDOW_MAX);
    if (c->output_bytes == 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config.output_bytes is 0");
    if (c->depth < 1 || c->depth > 64)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config.depth = %d; 1..64", c->depth);
    if (c->max_in_flight < 1 || c->max_in_flight > 256)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config.max_in_flight = %d; 1..256", c->max_in_flight);
#ifdef __linux__
    if (c->infer_core >= CPU_SETSIZE || c->post_core >= CPU_SETSIZE)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": config.%s = %d is not a CPU number",
                        c->infer_core >= CPU_SETSIZE ? "infer_core" : "post_core",
                        c->infer_core >= CPU_SETSIZE ? c->infer_core : c->post_core);
#else
    if (c->infer_core >= 0 || c->post_core >= 0)
        return pfi_fail(PF_ERR_UNSUPPORTED, OP ": config.infer_core / post_core: pinning needs Linux");
#endif
    return PF_OK;
}

pf_status pf_infer_run(pf_video *video, const pf_infer_config *config, pf_infer_stats *stats) {
    pf_status st = check(video, config);
    if (st != PF_OK) return st;
    if (stats) memset(stats, 0, sizeof *stats);
    const int nslots = config->max_in_flight;
    run r;
    memset(&r, 0, sizeof r);
    r.cfg = config;
    pli_variant_window_init(&r.vw, config->window, config->variant);
    slot *slots = calloc((size_t)nslots, sizeof *slots);
    slot **free_list = calloc((size_t)nslots, sizeof *free_list);
    double *lat_mem = calloc(3 * (size_t)LAT_CAP, sizeof *lat_mem);
    int qi = -1, qp = -1, qd = -1, mu = -1;
    int ok = slots && free_list && lat_mem;
    for (int i = 0; ok && i < nslots; i++) {
        slots[i].out = malloc(config->output_bytes);
        ok = slots[i].out != NULL;
    }
    if (ok) qi = pli_queue_init(&r.q_infer, config->depth);
    if (ok && qi == 0) qp = pli_queue_init(&r.q_post, config->depth);
    if (ok && qp == 0) qd = pli_queue_init(&r.q_done, nslots + 1);
    if (ok && qd == 0) mu = pthread_mutex_init(&r.mu, NULL);
    pthread_t ti, tp;
    int started_i = 0, started_p = 0;
    if (!ok || qi != 0 || qp != 0 || qd != 0 || mu != 0) {
        st = pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": cannot allocate %d slots of config.output_bytes = %zu", nslots,
                      config->output_bytes);
        goto cleanup;
    }
    r.l_source.ms = lat_mem;
    r.l_infer.ms = lat_mem + LAT_CAP;
    r.l_post.ms = lat_mem + 2 * LAT_CAP;
    int nfree = nslots;
    for (int i = 0; i < nslots; i++) free_list[i] = &slots[i];
    started_i = pthread_create(&ti, NULL, infer_main, &r) == 0;
    started_p = started_i && pthread_create(&tp, NULL, post_main, &r) == 0;
    if (!started_p) {
        fail(&r, PF_ERR_OUT_OF_MEMORY, OP ": cannot start the stage threads (pthread_create failed)");
    }
    uint64_t t_start = pli_now_ns();
    int64_t taken = 0, frames = 0;
    int outstanding = 0;
    while (started_p && !is_stopped(&r)) {
        void *it = NULL;
        /* give back what finished; wait for a slot when all are out */
        while (pli_queue_get(&r.q_done, &it, nfree == 0 ? -1 : 0, NULL) == PLI_Q_OK) {
            slot *s = it;
            pf_video_batch_release(video, s->batch);
            s->batch = NULL;
            free_list[nfree++] = s;
            outstanding--;
        }
        if (is_stopped(&r)) break;
        pf_video_batch *b = NULL;
        uint64_t t0 = pli_now_ns();
        pf_status vs = pf_video_next(video, &b, -1);
        lat_add(&r.l_source, (double)(pli_now_ns() - t0) / 1e6);
        if (vs != PF_OK) {
            fail_stage(&r, vs, "video source", taken);
            break;
        }
        if (b == NULL) break;
        slot *s = free_list[--nfree];
        s->batch = b;
        s->index = taken++;
        frames += b->count;
        outstanding++;
        pli_queue_put(&r.q_infer, s, -1, NULL);
    }
    if (started_i) pli_queue_put(&r.q_infer, NULL, -1, NULL);
    if (started_p) {
        while (outstanding > 0) {
            void *it = NULL;
            if (pli_queue_get(&r.q_done, &it, -1, NULL) != PLI_Q_OK) break;
            slot *s = it;
            pf_video_batch_release(video, s->batch);
            s->batch = NULL;
            outstanding--;
        }
        pthread_join(tp, NULL);
    }
    if (started_i) pthread_join(ti, NULL);
    double wall = (double)(pli_now_ns() - t_start) / 1e9;
    if (stats) {
        stats->batches = taken;
        stats->frames = frames;
        stats->wall_s = wall;
        stats->frames_per_s = wall > 0 ? (double)frames / wall : 0.0;
        lat_stats(&r.l_source, &stats->source);
        lat_stats(&r.l_infer, &stats->infer);
        lat_stats(&r.l_post, &stats->post);
        memcpy(stats->variant_batches, r.variant_batches, sizeof stats->variant_batches);
        stats->switches = r.switches;
        stats->last_variant = r.vw.variant;
    }
    st = r.err;
    if (st != PF_OK) pfi_fail(st, "%s", r.msg);
cleanup:
    if (mu == 0) pthread_mutex_destroy(&r.mu);
    if (qd == 0) pli_queue_free(&r.q_done);
    if (qp == 0) pli_queue_free(&r.q_post);
    if (qi == 0) pli_queue_free(&r.q_infer);
    for (int i = 0; slots && i < nslots; i++) free(slots[i].out);
    free(slots);
    free(free_list);
    free(lat_mem);
    return st;
}
