/* config.measure_split: the measured choice to split a chain ("a chain
 * stays on one device unless splitting it wins after transfers"). Per
 * shape, the batch record keeps the whole-chain batches' time per sample
 * (whatever placement they had) and the split chain's over the two
 * cheapest devices in each direction, both timed as whole batches (the
 * transfers and any contention between the devices included: costs
 * measured per device cannot see that PoCL shares the CPU's cores). The
 * whole chain is measured first (two cost-placed batches: with two
 * devices in play the together-vs-alone probe's two, whose faster one
 * is the whole chain's time); the next two
 * batches probe the split (geometry on the cheapest device, then the
 * reverse); after that
 * the faster of whole and the better split runs, and every
 * PFI_HX_REPROBE batches the other one is measured again. A pair of
 * devices that changes (noise between near-equal costs) starts the split
 * measurements over. Also the stage-delay test hook. */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "hetero/hetero.h"

/* The two devices with the lowest measured costs (-1 when fewer). */
static void cheapest_two(const pf_dispatch *d, int *b0, int *b1) {
    *b0 = *b1 = -1;
    for (int i = 0; i < d->ndev; ++i) {
        double c = d->dev[i].st.cost_ms;
        if (c <= 0) continue;
        if (*b0 < 0 || c < d->dev[*b0].st.cost_ms) {
            *b1 = *b0;
            *b0 = i;
        } else if (*b1 < 0 || c < d->dev[*b1].st.cost_ms) {
            *b1 = i;
        }
    }
}

int pfi_hx_split_choice(pf_dispatch *d, int nact) {
    int b0, b1;
    cheapest_two(d, &b0, &b1);
    if (b1 < 0) return 0;
    pfi_hx_batchrec *r = pfi_hx_batch_rec(d);
    d->rec = r;
    /* The whole chain's time first, at its best placement: two whole
     * batches (with several devices in play, the together-vs-alone probe
     * measures both placements in them: the first hybrid batch alone can
     * be a straggler's), then the fastest of what was measured */
    if (r->whole_n < 2) return 0;
    if (nact >= 2 && r->hybrid_ms > 0 && r->solo_ms <= 0) return 0; /* the alone probe first */
    double whole = r->whole_ms;
    if (r->hybrid_ms > 0 && r->hybrid_ms < whole) whole = r->hybrid_ms;
    if (r->solo_ms > 0 && r->solo_ms < whole) whole = r->solo_ms;
    int k = r->split_ms[0] <= 0 ? 0 : r->split_ms[1] <= 0 ? 1 : r->split_ms[1] < r->split_ms[0];
    int g = k == 0 ? b0 : b1, p = k == 0 ? b1 : b0;
    if (r->split_ms[k] > 0 && (r->split_g[k] != g || r->split_p[k] != p)) {
        r->split_ms[0] = r->split_ms[1] = 0; /* another pair: measure it */
        k = 0;
        g = b0;
        p = b1;
    }
    int probe = r->split_ms[k] <= 0;
    int wins = !probe && r->split_ms[k] < whole;
    int refresh = !probe && ++r->split_since >= PFI_HX_REPROBE;
    if (refresh) r->split_since = 0;
    int run = probe || wins != refresh;
    char why[160] = "";
    pf_preprocess_desc geo, pt;
    int ok = pfi_hx_split_descs(&d->desc, &geo, &pt, why, sizeof why) &&
             pfi_hx_split_batch_ok(&d->desc, d->count, d->job.params, why, sizeof why);
    if (!ok) {
        snprintf(d->split_note, sizeof d->split_note, "; not split: %.90s", why);
        return 0;
    }
    if (!run) {
        snprintf(d->split_note, sizeof d->split_note, "; split chain measured %.4f ms/sample, whole %.4f",
                 r->split_ms[k], whole);
        return 0;
    }
    pfi_hx_split_select(d, &geo, &pt, g, p, k);
    r->split_g[k] = g;
    r->split_p[k] = p;
    char what[96];
    if (probe || refresh) snprintf(what, sizeof what, "probe; whole %.4f ms/sample", whole);
    else snprintf(what, sizeof what, "%.4f ms/sample, whole %.4f", r->split_ms[k], whole);
    for (int i = 0; i < d->ndev; ++i) {
        pfi_hx_dev *x = &d->dev[i];
        if (i == g)
            snprintf(x->st.reason, sizeof x->st.reason, "measured split: geometry here, pointwise on %s (%s)",
                     d->dev[p].name, what);
        else if (i == p)
            snprintf(x->st.reason, sizeof x->st.reason, "measured split: pointwise here, geometry on %s (%s)",
                     d->dev[g].name, what);
        else
            snprintf(x->st.reason, sizeof x->st.reason, "not used: the chain runs split over %s and %s",
                     d->dev[g].name, d->dev[p].name);
    }
    return 1;
}

PF_API pf_status pf_dispatch_test_stage_delay(pf_dispatch *d, const char *name, const char *op_class,
                                              int64_t delay_us) {
    pfi_clear_error();
    if (d == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_test_stage_delay: d is NULL");
    if (delay_us < 0 || delay_us > 10000000)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_test_stage_delay: delay_us must be 0..10000000");
    int c = op_class == NULL ? -1 : strcmp(op_class, "geometry") == 0 ? PFI_HX_GEOMETRY
                                 : strcmp(op_class, "pointwise") == 0 ? PFI_HX_POINTWISE
                                                                      : -1;
    if (c < 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_dispatch_test_stage_delay: op_class \"%s\" is not geometry or pointwise",
                        op_class ? op_class : "(null)");
    pf_device_kind kind;
    int index;
    if (name != NULL && pfi_hx_parse_name(name, &kind, &index))
        for (int i = 0; i < d->ndev; ++i)
            if (d->dev[i].kind == kind && d->dev[i].index == index) {
                d->dev[i].stage_delay_us[c] = delay_us;
                return PF_OK;
            }
    return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_dispatch_test_stage_delay: name \"%s\" is not a device of this "
                    "dispatcher", name ? name : "(null)");
}
