/* pf_infer_run's variants: the latency window the chooser sees, and
 * pf_infer_ladder, the detect app's rule (python/pixflow/apps/ladder.py; one
 * rung per full window, hysteresis on the way up) without the app's back-off,
 * which needs state across calls that a chooser can keep itself. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "pipeline/pipeline_infer_variant.h"

void pli_variant_window_init(pli_variant_window *w, int cap, int variant) {
    memset(w, 0, sizeof *w);
    w->cap = cap < 1 ? 1 : cap > PLI_VARIANT_WINDOW_MAX ? PLI_VARIANT_WINDOW_MAX : cap;
    w->variant = variant;
}

void pli_variant_window_add(pli_variant_window *w, double batch_ms, int count) {
    double ms = batch_ms / (double)(count > 0 ? count : 1);
    w->ms[w->n % w->cap] = ms;
    w->n++;
    w->last_ms = ms;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

pf_infer_choice pli_variant_choice(const pli_variant_window *w, int64_t index, int n_variants) {
    pf_infer_choice c;
    memset(&c, 0, sizeof c);
    c.batch = index;
    c.variant = w->variant;
    c.n_variants = n_variants;
    c.last_ms = w->last_ms;
    if (w->n >= w->cap) {
        double v[PLI_VARIANT_WINDOW_MAX];
        memcpy(v, w->ms, (size_t)w->cap * sizeof *v);
        qsort(v, (size_t)w->cap, sizeof *v, cmp_double);
        /* linear interpolation between order statistics (numpy's default percentile) */
        double pos = 0.9 * (double)(w->cap - 1);
        int lo = (int)floor(pos);
        int hi = lo + 1 < w->cap ? lo + 1 : lo;
        c.p90_ms = v[lo] + (v[hi] - v[lo]) * (pos - (double)lo);
        c.window_full = 1;
    }
    return c;
}

void pli_variant_window_set(pli_variant_window *w, int variant) {
    if (variant != w->variant) {
        w->variant = variant;
        w->n = 0;
    }
}

int pf_infer_ladder(const pf_infer_choice *c, double budget_ms, double up_frac) {
    if (c == NULL) {
        pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_infer_ladder: choice is NULL");
        return -1;
    }
    if (!(budget_ms > 0)) {   /* also NaN */
        pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_infer_ladder: budget_ms = %g; the budget must be > 0 ms", budget_ms);
        return -1;
    }
    if (!(up_frac > 0 && up_frac < 1)) {
        pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_infer_ladder: up_frac = %g; it must be in (0, 1)", up_frac);
        return -1;
    }
    if (!c->window_full) return c->variant;
    if (c->p90_ms > budget_ms && c->variant + 1 < c->n_variants) return c->variant + 1;
    if (c->p90_ms < budget_ms * up_frac && c->variant > 0) return c->variant - 1;
    return c->variant;
}
