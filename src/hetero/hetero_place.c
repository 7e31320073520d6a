/* Placement before a batch (each device's share and the reason for it)
 * and the cost model's update after it. */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "hetero/hetero.h"

pfi_hx_batchrec *pfi_hx_batch_rec(pf_dispatch *d) {
    for (int i = 0; i < d->nrecs; ++i)
        if (strcmp(d->recs[i].shape, d->shape) == 0) return &d->recs[i];
    pfi_hx_batchrec *r;
    if (d->nrecs < PFI_HX_BATCHRECS) r = &d->recs[d->nrecs++];
    else r = &d->recs[d->next_rec++ % PFI_HX_BATCHRECS]; /* oldest out */
    memset(r, 0, sizeof *r);
    snprintf(r->shape, sizeof r->shape, "%s", d->shape);
    r->solo_dev = -1;
    return r;
}

/* Cost-placed with several devices: the devices together (measuring the
 * batch rate first), then one batch of the best device alone, then
 * whichever was faster per sample, re-measuring the other placement every
 * PFI_HX_REPROBE batches. */
static void solo_or_together(pf_dispatch *d, double w[], int best) {
    pfi_hx_batchrec *r = pfi_hx_batch_rec(d);
    d->rec = r;
    /* the best device may change with noise between near-equal devices;
     * the solo time stays (a new probe comes with the re-measurements) */
    r->solo_dev = best;
    r->since_probe++;
    int probe = r->since_probe >= PFI_HX_REPROBE;
    const char *why = NULL;
    if (r->hybrid_ms <= 0) {
        d->solo = 0;
    } else if (r->solo_ms <= 0) {
        d->solo = 1;
        why = "probe";
    } else if (r->hybrid_ms > r->solo_ms) {
        d->solo = !probe;
        why = d->solo ? "together" : NULL;
    } else {
        d->solo = probe;
        why = d->solo ? "probe" : NULL;
    }
    if (probe) r->since_probe = 0;
    if (!d->solo) return;
    for (int i = 0; i < d->ndev; ++i) {
        if (i == best || w[i] <= 0) continue;
        w[i] = 0;
        pfi_hx_dev *x = &d->dev[i];
        if (strcmp(why, "probe") == 0) {
            snprintf(x->st.reason, sizeof x->st.reason, "not used: this batch measures %s alone",
                     d->dev[best].name);
        } else {
            x->st.dropped = true;
            snprintf(x->st.reason, sizeof x->st.reason,
                     "dropped: batches ran faster on %s alone (%.4f ms/sample) than together (%.4f ms/sample); "
                     "the devices share resources", d->dev[best].name, r->solo_ms, r->hybrid_ms);
        }
    }
}

pf_status pfi_hx_place(pf_dispatch *d) {
    double w[PFI_HX_MAX_DEVICES];
    d->calibrating = 0;
    for (int i = 0; i < d->ndev; ++i) {
        pfi_hx_dev *x = &d->dev[i];
        x->share = 0;
        x->active = 0;
        x->failed = 0;
        x->static_taken = 0;
        x->b_samples = x->b_chunks = x->b_up = x->b_down = 0;
        x->b_busy_ms = x->b_grab_ms = x->first_ms = 0;
        x->first_n = 0;
        x->err = PF_OK;
        x->errmsg[0] = '\0';
        x->st.dropped = false;
        const pfi_hx_cost *c = pfi_hx_cost_find(&d->model, x->name, d->shape);
        x->st.cost_ms = c ? c->ms : 0;
        w[i] = 0;
    }
    d->split = 0;
    d->split_note[0] = '\0';
    int ruled = 0;
    if (d->pin >= 0) {
        for (int i = 0; i < d->ndev; ++i) {
            w[i] = i == d->pin ? 1 : 0;
            if (i == d->pin) snprintf(d->dev[i].st.reason, sizeof d->dev[i].st.reason, "pinned");
            else
                snprintf(d->dev[i].st.reason, sizeof d->dev[i].st.reason, "not used: pinned to %s",
                         d->dev[d->pin].name);
        }
    } else if ((ruled = pfi_hx_rule_place(d, w)) != 0) {
        if (d->split) {
            /* the split batch runs by itself (pfi_hx_run_split) */
            for (int i = 0; i < d->ndev; ++i) {
                d->dev[i].share = i == d->rule[PFI_HX_GEOMETRY] || i == d->rule[PFI_HX_POINTWISE] ? 1 : 0;
                d->dev[i].active = 0;
            }
            d->cost_placed = 0;
            d->solo = 0;
            d->rec = NULL;
            return PF_OK;
        }
    } else {
        /* the measured devices: calibrate while one has no cost yet */
        double best = 0;
        for (int i = 0; i < d->ndev; ++i) {
            const pfi_hx_dev *x = &d->dev[i];
            if (x->weight_override >= 0) continue;
            if (x->st.cost_ms <= 0) d->calibrating = 1;
            else if (best == 0 || x->st.cost_ms < best) best = x->st.cost_ms;
        }
        for (int i = 0; i < d->ndev; ++i) {
            pfi_hx_dev *x = &d->dev[i];
            char *why = x->st.reason;
            size_t wl = sizeof x->st.reason;
            if (x->weight_override >= 0) {
                w[i] = x->weight_override;
                snprintf(why, wl, "share override (weight %g)", x->weight_override);
            } else if (d->calibrating) {
                w[i] = 1;
                snprintf(why, wl, "calibrating (no cost for %s on every device yet)", d->shape);
            } else if (x->st.cost_ms > d->cfg.drop_ratio * best) {
                w[i] = 0;
                x->st.dropped = true;
                snprintf(why, wl, "dropped: cost %.3f ms/sample is %.1fx the best device's %.3f (drop_ratio %g)",
                         x->st.cost_ms, x->st.cost_ms / best, best, d->cfg.drop_ratio);
            } else {
                w[i] = 1.0 / x->st.cost_ms;
                snprintf(why, wl, "cost %.3f ms/sample", x->st.cost_ms);
            }
        }
    }
    d->solo = 0;
    d->rec = NULL;
    int nact = 0, best = -1;
    int cost_placed = d->pin < 0 && !ruled && !d->calibrating;
    for (int i = 0; i < d->ndev; ++i) {
        if (w[i] <= 0) continue;
        nact++;
        if (d->dev[i].weight_override >= 0) cost_placed = 0;
        if (best < 0 || w[i] > w[best]) best = i;
    }
    if (cost_placed && d->cfg.measure_split && d->ndev >= 2 && pfi_hx_split_choice(d, nact)) {
        for (int i = 0; i < d->ndev; ++i) {
            d->dev[i].share = i == d->split_g || i == d->split_p ? 1 : 0;
            d->dev[i].active = 0;
        }
        d->cost_placed = 0;
        return PF_OK;
    }
    if (cost_placed && nact >= 2) solo_or_together(d, w, best);
    double total = 0;
    for (int i = 0; i < d->ndev; ++i) total += w[i];
    if (!(total > 0))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_dispatch_run: every device has weight 0 (pf_dispatch_set_share overrides or drops)");
    d->cost_placed = cost_placed;
    /* static ranges: cumulative rounding, so they tile 0..count exactly */
    double cum = 0;
    for (int i = 0; i < d->ndev; ++i) {
        pfi_hx_dev *x = &d->dev[i];
        x->share = w[i] / total;
        x->active = w[i] > 0;
        x->range_a = (int)(cum * d->count + 0.5);
        cum += x->share;
        x->range_b = i == d->ndev - 1 ? d->count : (int)(cum * d->count + 0.5);
        if (x->active) {
            size_t len = strlen(x->st.reason);
            snprintf(x->st.reason + len, sizeof x->st.reason - len, ", share %.3f%s", x->share, d->split_note);
        }
    }
    return PF_OK;
}

void pfi_hx_account(pf_dispatch *d, double wall_ms) {
    if (d->rec != NULL && d->count > 0) {
        /* config.measure_split: the whole chain's and the split's batch times */
        int failed = 0;
        for (int i = 0; i < d->ndev; ++i) failed |= d->dev[i].failed;
        double per = wall_ms / d->count, a = d->cfg.ewma_alpha;
        pfi_hx_batchrec *r = d->rec;
        if (failed) {
        } else if (!d->split) {
            /* down at once, up by the EWMA: a straggler's batch (PoCL's
             * tail in a hybrid one) does not make the whole chain look slow */
            r->whole_ms = r->whole_ms <= 0 || per < r->whole_ms ? per : (1 - a) * r->whole_ms + a * per;
            r->whole_n++;
        } else if (d->split_dir >= 0) {
            double *m = &r->split_ms[d->split_dir];
            *m = *m > 0 ? (1 - a) * *m + a * per : per;
        }
    }
    if (d->rec != NULL && d->count > 0 && !d->split) {
        int used = 0, failed = 0;
        for (int i = 0; i < d->ndev; ++i) {
            used += d->dev[i].b_samples > 0;
            failed |= d->dev[i].failed;
        }
        double per = wall_ms / d->count;
        double *m = d->solo ? &d->rec->solo_ms : used >= 2 ? &d->rec->hybrid_ms : NULL;
        if (m != NULL && !failed) *m = *m > 0 ? (1 - d->cfg.ewma_alpha) * *m + d->cfg.ewma_alpha * per : per;
    }
    d->st.batches++;
    d->st.samples += (uint64_t)d->count;
    d->st.wall_ms += wall_ms;
    d->st.last_wall_ms = wall_ms;
    for (int i = 0; i < d->ndev; ++i) {
        pfi_hx_dev *x = &d->dev[i];
        pf_dispatch_device_stats *st = &x->st;
        st->samples += x->b_samples;
        st->batches += x->b_samples > 0;
        st->chunks += x->b_chunks;
        st->busy_ms += x->b_busy_ms;
        st->upload_bytes += x->b_up;
        st->download_bytes += x->b_down;
        st->last_samples = x->b_samples;
        st->last_share = d->count > 0 ? (double)x->b_samples / d->count : 0;
        st->utilization = d->st.wall_ms > 0 ? st->busy_ms / d->st.wall_ms : 0;
        if (x->failed) {
            size_t len = strlen(st->reason);
            snprintf(st->reason + len, sizeof st->reason - len, "; failed: %s (re-run on the other devices)",
                     x->errmsg);
        }
        /* a split batch's stages are not the chain's cost per sample */
        if (x->failed || x->b_samples == 0 || d->split) continue;
        /* The first chunk of a batch pays one-time costs (kernel builds,
         * first allocations): measure the rest when there is a rest. */
        double ms = x->b_busy_ms;
        uint64_t n = x->b_samples;
        if (x->b_chunks > 1 && x->first_n < n) {
            ms -= x->first_ms;
            n -= x->first_n;
        }
        double per = ms / (double)n;
        if (!(per > 0)) per = 1e-6;
        pfi_hx_cost *c = pfi_hx_cost_find(&d->model, x->name, d->shape);
        if (c == NULL || c->ms <= 0) {
            if (pfi_hx_cost_set(&d->model, x->name, d->shape, per, x->b_samples) != PF_OK) continue;
        } else {
            c->ms = (1 - d->cfg.ewma_alpha) * c->ms + d->cfg.ewma_alpha * per;
            c->samples += x->b_samples;
        }
        c = pfi_hx_cost_find(&d->model, x->name, d->shape);
        st->cost_ms = c ? c->ms : 0;
    }
}
