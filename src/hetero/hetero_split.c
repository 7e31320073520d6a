/* Splitting one sample's fused chain over two devices (dispatch.h, "Op
 * classes and rules"): stage 1, the geometry (crop -> resize / warp ->
 * flips -> letterbox pad), is a plan of the same desc with u8 HWC output
 * and no colour work; its u8 image at the output size goes through host
 * memory to the other device, whose stage 2 is a plan whose geometry is
 * the identity (the whole image at its own size: a copy in every
 * flavour) with the sample's colour params, gray output and
 * normalisation. Why the two give pf_preprocess_run's bytes
 * (docs/exactness.md, "Fused preprocess", is the chain):
 *  - stage 1 keeps desc.swap_rb: its u8 output is the canvas in output
 *    channel order, which is what the fused chain's colour ops see when
 *    the swap is done first; the ops that run after a late swap in the
 *    fused chain (brightness, gamma) are per channel and commute with it;
 *  - its letterbox pad and affine fill are pad_value per output channel,
 *    as the fused canvas's; with out_channels 1 every channel of them is
 *    pad_value[0] (the fused gray canvas's pad), and gray of (p, p, p) is
 *    p;
 *  - flips are permutations of pixels: the colour ops (contrast's mean a
 *    sum) do not see the order;
 *  - a 1-channel source keeps a 1-channel canvas through the fused chain
 *    (saturation and hue skipped, the value into every output): its
 *    stage 1 is a 1-channel plan (geo1) and its intermediate a 1-channel
 *    image, so stage 2 sees what the fused colour ops see (gray of
 *    (v, v, v) is not always v: a 3-channel intermediate would differ);
 *  - letterbox pad is not colour-adjusted in the fused chain, so a
 *    letterbox batch with colour work is not split (pfi_hx_split_batch_ok);
 *    nor a letterbox desc with gray output (the fused gray canvas pads
 *    with pad_value[0]; the split chain's stage 2 would take gray of a
 *    3-channel pad, off by one for some values).
 * tests/unit/test_hetero_split.c checks split == fused byte for byte on
 * the CPU over the flavours, interps, antialias, letterbox, affine,
 * jitter, dtypes, layouts and channel counts. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "hetero/hetero.h"

const char *pfi_hx_class_name(int c) { return c == PFI_HX_GEOMETRY ? "geometry" : "pointwise"; }

uint64_t pfi_hx_split_bytes(const pf_preprocess_desc *desc) {
    return (uint64_t)desc->out_width * (uint64_t)desc->out_height * 3u;
}

int pfi_hx_split_descs(const pf_preprocess_desc *desc, pf_preprocess_desc *geo, pf_preprocess_desc *pt, char *why,
                       size_t why_len) {
    if (why_len) why[0] = '\0';
    if (desc->letterbox && desc->out_channels == 1) {
        snprintf(why, why_len, "letterbox with 1-channel output (gray of the pad is not the pad)");
        return 0;
    }
    *geo = *desc;
    geo->out_channels = 3;
    geo->scale = 1.0f;
    for (int c = 0; c < 4; ++c) {
        geo->mean[c] = 0.0f;
        geo->std[c] = 1.0f;
        if (desc->out_channels == 1) geo->pad_value[c] = desc->pad_value[0];
    }
    geo->out_dtype = PF_U8;
    geo->out_layout = PF_HWC;
    *pt = *desc;
    pt->interp = PF_INTERP_NEAREST; /* never resamples: the input is at the output size */
    pt->antialias = false;
    pt->flavor = PF_RESIZE_OPENCV;
    pt->letterbox = false;
    pt->letterbox_align = PF_LETTERBOX_CENTER;
    pt->swap_rb = false; /* stage 1 swapped */
    return 1;
}

static int has_colour(const pf_aug_params *p) {
    return p->brightness != 1.0f || p->contrast != 1.0f || p->saturation != 1.0f || p->hue != 0.0f ||
           p->grayscale || p->gamma != 1.0f;
}

int pfi_hx_split_batch_ok(const pf_preprocess_desc *desc, int count, const pf_aug_params params[], char *why,
                          size_t why_len) {
    if (why_len) why[0] = '\0';
    if (!desc->letterbox || params == NULL) return 1;
    for (int i = 0; i < count; ++i)
        if (has_colour(&params[i])) {
            snprintf(why, why_len, "letterbox pad is not colour-adjusted and sample %d has colour ops", i);
            return 0;
        }
    return 1;
}

void pfi_hx_split_params(const pf_aug_params *p, pf_aug_params *geo, pf_aug_params *pt) {
    pf_aug_params id = pf_aug_params_identity();
    if (p == NULL) p = &id;
    *geo = *p;
    geo->brightness = geo->contrast = geo->saturation = 1.0f;
    geo->hue = 0.0f;
    for (int k = 0; k < 4; ++k) geo->jitter_order[k] = (int8_t)k;
    geo->grayscale = false;
    geo->gamma = 1.0f;
    *pt = id;
    pt->brightness = p->brightness;
    pt->contrast = p->contrast;
    pt->saturation = p->saturation;
    pt->hue = p->hue;
    memcpy(pt->jitter_order, p->jitter_order, sizeof pt->jitter_order);
    pt->grayscale = p->grayscale;
    pt->gamma = p->gamma;
}

void pfi_hx_split_free(pf_dispatch *d) {
    free(d->mid);
    free(d->mid_im);
    free(d->geo_prm);
    free(d->pt_prm);
    d->mid = NULL;
    d->mid_im = NULL;
    d->geo_prm = d->pt_prm = NULL;
    d->mid_cap = 0;
    d->split_cap = 0;
}

static pf_status grow_split(pf_dispatch *d, int n, size_t mid_bytes) {
    if (d->mid_cap < mid_bytes) {
        free(d->mid);
        d->mid = malloc(mid_bytes);
        d->mid_cap = d->mid ? mid_bytes : 0;
        if (d->mid == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_dispatch_run: out of memory (split intermediate)");
    }
    if (d->split_cap < n) {
        free(d->mid_im);
        free(d->geo_prm);
        free(d->pt_prm);
        d->mid_im = malloc(sizeof *d->mid_im * (size_t)n);
        d->geo_prm = malloc(sizeof *d->geo_prm * (size_t)n);
        d->pt_prm = malloc(sizeof *d->pt_prm * (size_t)n);
        d->split_cap = n;
        if (!d->mid_im || !d->geo_prm || !d->pt_prm) {
            d->split_cap = 0;
            return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_dispatch_run: out of memory (split params)");
        }
    }
    return PF_OK;
}

static pf_status ensure_stage_plans(pf_dispatch *d, pfi_hx_dev *g, pfi_hx_dev *p) {
    if (g->plan_geo == NULL || g->plan_geo1 == NULL) {
        pf_preprocess_desc geo1 = d->geo_desc;
        geo1.out_channels = 1;
        pf_status s = g->plan_geo ? PF_OK : pf_preprocess_plan_create(&d->geo_desc, &g->plan_geo);
        if (s == PF_OK && g->plan_geo1 == NULL) s = pf_preprocess_plan_create(&geo1, &g->plan_geo1);
        if (s != PF_OK) return pfi_fail(s, "pf_dispatch_run: split stage 1: %s", pf_last_error());
        d->split_warm = 0;
    }
    if (p->plan_pt == NULL) {
        pf_status s = pf_preprocess_plan_create(&d->pt_desc, &p->plan_pt);
        if (s != PF_OK) return pfi_fail(s, "pf_dispatch_run: split stage 2: %s", pf_last_error());
        d->split_warm = 0;
    }
    return PF_OK;
}

/* Pipeline chunks: small enough that stage 2 starts early, large enough
 * that a chunk is not all launch cost. */
static int chunk_of(int n) {
    int c = (n + 7) / 8;
    return c < 4 ? 4 : c;
}

typedef struct stage_arg {
    pf_dispatch *d;
    pfi_hx_dev *x;
    const pfi_hx_job *j, *j1; /* stage 1: j for 3-channel sources, j1 for 1-channel ones */
    int stage2;
} stage_arg;

/* Stage 1 of [a, b): runs of equal source channel count, each through its plan. */
static pf_status stage1_range(pf_dispatch *d, const stage_arg *sa, int a, int b) {
    while (a < b) {
        int c = sa->j->src[a].channels, e = a + 1;
        while (e < b && sa->j->src[e].channels == c) e++;
        pf_status s = pfi_hx_run_job(d, c == 1 ? sa->j1 : sa->j, sa->x, a, e);
        if (s != PF_OK) return s;
        a = e;
    }
    return PF_OK;
}

/* A stage's chunks on its device; stage 2 waits for stage 1's hand-over
 * (mid_ready) before each chunk. Failure: x->failed, and the other stage
 * stops (the batch is re-run whole, pfi_hx_run_split). */
static void *stage_main(void *arg) {
    stage_arg *sa = arg;
    pf_dispatch *d = sa->d;
    pfi_hx_dev *x = sa->x;
    int n = d->count, c = chunk_of(n);
    for (int a = 0; a < n && !d->split_stop; a += c) {
        int b = a + c < n ? a + c : n;
        if (sa->stage2) {
            /* the hand-over: a short sleep, not a busy core (PoCL may need it) */
            while (atomic_load(&d->mid_ready) < b && !d->split_stop) {
                struct timespec ts = {0, 20000};
                nanosleep(&ts, NULL);
            }
            if (d->split_stop) break;
        }
        double t0 = pfi_hx_now_ms();
        pf_status s = sa->stage2 ? pfi_hx_run_job(d, sa->j, x, a, b) : stage1_range(d, sa, a, b);
        x->b_busy_ms += pfi_hx_now_ms() - t0;
        if (s != PF_OK) {
            pthread_mutex_lock(&d->mu);
            (void)pfi_hx_chunk_failed(d, x, s); /* a failed stage re-runs the whole batch (pfi_hx_run_split) */
            pthread_mutex_unlock(&d->mu);
            d->split_stop = 1;
            break;
        }
        x->b_chunks++;
        x->b_samples += (uint64_t)(b - a);
        if (!sa->stage2) atomic_store(&d->mid_ready, b);
    }
    return NULL;
}

pf_status pfi_hx_run_split(pf_dispatch *d, double *overhead_ms) {
    double t0 = pfi_hx_now_ms();
    pfi_hx_dev *g = &d->dev[d->split_g], *p = &d->dev[d->split_p];
    int n = d->count;
    const pf_preprocess_desc *desc = &d->desc;
    size_t per = (size_t)pfi_hx_split_bytes(desc);
    pf_status s = ensure_stage_plans(d, g, p);
    if (s == PF_OK) s = grow_split(d, n, per * (size_t)n);
    if (s != PF_OK) return s;
    for (int i = 0; i < n; ++i) {
        pfi_hx_split_params(d->job.params ? &d->job.params[i] : NULL, &d->geo_prm[i], &d->pt_prm[i]);
        /* a sample's slot holds its canvas channels (1 for a 1-channel source) */
        d->mid_im[i] = pf_image_hwc(d->mid + per * (size_t)i, desc->out_width, desc->out_height,
                                    d->job.src[i].channels == 1 ? 1 : 3, PF_U8, 0);
    }
    pfi_hx_job j1 = {d->job.src, d->geo_prm,
                     pf_tensor_nhwc(d->mid, n, 3, desc->out_height, desc->out_width, PF_U8),
                     -1, d->job.info, PFI_HX_STAGE_GEOMETRY};
    pfi_hx_job j1g = j1; /* the 1-channel plan into the same slots */
    j1g.dst = pf_tensor_nhwc(d->mid, n, 1, desc->out_height, desc->out_width, PF_U8);
    j1g.dst.sample_stride = (ptrdiff_t)per;
    j1g.stage = PFI_HX_STAGE_GEOMETRY1;
    pfi_hx_job j2 = {d->mid_im, d->pt_prm, d->job.dst, d->job.dst_dev, NULL, PFI_HX_STAGE_POINTWISE};
    if (!d->split_warm) {
        /* once per desc, untimed: stage 1 writes mid sample 0 that stage 2 reads */
        pfi_hx_warm_up(d, d->job.src[0].channels == 1 ? &j1g : &j1, g);
        pfi_hx_warm_up(d, &j2, p);
        d->split_warm = 1;
        t0 = pfi_hx_now_ms();
    }
    d->mid_ready = 0;
    d->split_stop = 0;
    stage_arg a1 = {d, g, &j1, &j1g, 0}, a2 = {d, p, &j2, NULL, 1};
    pthread_t th;
    int started = pthread_create(&th, NULL, stage_main, &a2) == 0;
    *overhead_ms += pfi_hx_now_ms() - t0;
    stage_main(&a1);
    if (started) pthread_join(th, NULL);
    else stage_main(&a2); /* no thread: stage 2 after stage 1 */
    if (d->abort) return pfi_fail(d->abort_status, "pf_dispatch_run: %s", d->abort_msg);
    /* what stage 2 took: 3 bytes a pixel, 1 for a 1-channel source's canvas */
    for (uint64_t i = 0; i < p->b_samples; ++i)
        d->st.moved_bytes += (uint64_t)desc->out_width * (uint64_t)desc->out_height * (uint64_t)d->mid_im[i].channels;
    if (!g->failed && !p->failed) {
        d->st.split_batches++;
        return PF_OK;
    }
    /* A stage failed: the whole batch again, the chain whole, on the
     * ruled device that did not fail, else on any healthy device. */
    pfi_hx_dev *order[PFI_HX_MAX_DEVICES];
    int k = 0;
    order[k++] = g->failed ? p : g;
    for (int i = 0; i < d->ndev; ++i)
        if (&d->dev[i] != order[0]) order[k++] = &d->dev[i];
    const char *last = g->failed ? g->errmsg : p->errmsg;
    for (int i = 0; i < k; ++i) {
        pfi_hx_dev *x = order[i];
        if (x->failed) continue;
        double t1 = pfi_hx_now_ms();
        s = pfi_hx_run_chunk(d, x, 0, n);
        x->b_busy_ms += pfi_hx_now_ms() - t1;
        if (s == PF_OK) {
            x->b_chunks++;
            x->b_samples += (uint64_t)n;
            pfi_clear_error(); /* the failure's text is in the stats; the batch succeeded */
            return PF_OK;
        }
        if (s == PF_ERR_INVALID_ARGUMENT) return pfi_fail(s, "pf_dispatch_run: %s", x->errmsg);
        x->failed = 1;
        x->st.failures++;
        last = x->errmsg;
    }
    return pfi_fail(PF_ERR_DEVICE, "pf_dispatch_run: every device failed; the last: %s", last);
}

void pfi_hx_split_select(pf_dispatch *d, const pf_preprocess_desc *geo, const pf_preprocess_desc *pt, int g, int p,
                         int dir) {
    /* other stage descs: the stage plans' warm-up must run again */
    if (d->split_warm && (memcmp(geo, &d->geo_desc, sizeof *geo) != 0 || memcmp(pt, &d->pt_desc, sizeof *pt) != 0))
        d->split_warm = 0;
    d->geo_desc = *geo;
    d->pt_desc = *pt;
    d->split = 1;
    d->split_g = g;
    d->split_p = p;
    d->split_dir = dir;
}
