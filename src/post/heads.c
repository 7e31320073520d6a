/* Detector heads: YOLOv5 / YOLOv8-11 outputs and SSD / BlazeFace anchor
 * regressions -> candidates (box, score, class, anchor) -> NMS -> the
 * first max_det detections, one sample per task on the stream. The
 * candidate order is ultralytics' (anchors ascending, then classes), so
 * with the stable sort equal scores rank exactly as torchvision's nms
 * ranks them on ultralytics' candidate tensor. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/stream.h"
#include "kernels/box_math.h"
#include "post/nms_internal.h"
#include "post/post_kernels.h"
#include "core/backend.h"

/* ----------------------------------------------------------- candidates */

typedef struct cands {
    float *boxes, *scores;
    int32_t *cls, *anchor;
    int32_t n, cap;
} cands;

static void cands_free(cands *c) {
    free(c->boxes);
    free(c->scores);
    free(c->cls);
    free(c->anchor);
    memset(c, 0, sizeof *c);
}

static int cands_reserve(cands *c, int64_t need) {
    if (need <= c->cap) return 0;
    if (need > INT32_MAX) return -1;
    int64_t cap = c->cap ? c->cap : 256;
    while (cap < need) cap *= 2;
    if (cap > INT32_MAX) cap = INT32_MAX;
    float *b = realloc(c->boxes, (size_t)cap * 4 * sizeof *b);
    if (b) c->boxes = b;
    float *s = realloc(c->scores, (size_t)cap * sizeof *s);
    if (s) c->scores = s;
    int32_t *k = realloc(c->cls, (size_t)cap * sizeof *k);
    if (k) c->cls = k;
    int32_t *a = realloc(c->anchor, (size_t)cap * sizeof *a);
    if (a) c->anchor = a;
    if (!b || !s || !k || !a) return -1;
    c->cap = (int32_t)cap;
    return 0;
}

static int cands_push(cands *c, const float xyxy[4], float score, int32_t cls, int32_t anchor) {
    if (c->n == c->cap && cands_reserve(c, (int64_t)c->n + 1) != 0) return -1;
    memcpy(c->boxes + 4 * (size_t)c->n, xyxy, 4 * sizeof(float));
    c->scores[c->n] = score;
    c->cls[c->n] = cls;
    c->anchor[c->n] = anchor;
    c->n++;
    return 0;
}

/* ------------------------------------------------------------------ YOLO */

pf_yolo_opts pf_yolo_opts_defaults(void) {
    pf_yolo_opts o;
    memset(&o, 0, sizeof o);
    o.layout = PF_YOLO_V8;
    o.conf_threshold = 0.25f;
    o.max_nms = 30000;
    o.max_det = 300;
    o.nms = pf_nms_opts_defaults();
    o.nms.iou_threshold = 0.7;
    return o;
}

typedef struct head_job {
    const pfi_nms_cfg *cfg;
    /* yolo */
    const pf_yolo_opts *yo;
    const float *pred;
    int32_t anchors, nc, stride_box; /* v5: row length; v8: anchors */
    /* anchor heads */
    const pf_anchor_opts *ao;
    const float *deltas, *scores;
    int32_t delta_cols;
    int32_t max_det;
    pf_detection *dets;
    int32_t *counts;
} head_job;

static int yolo_candidates(const head_job *j, int i, cands *c) {
    const pf_yolo_opts *o = j->yo;
    float conf = o->conf_threshold;
    int32_t A = j->anchors, C = j->nc;
    if (o->layout == PF_YOLO_V8) {
        const float *p = j->pred + (size_t)i * (size_t)(4 + C + o->num_masks) * (size_t)A;
        pfi_best_row_fn fn = j->cfg->k->best_row;
        enum { CHUNK = 1024 };
        float best[CHUNK];
        int32_t arg[CHUNK];
        for (int32_t a0 = 0; a0 < A; a0 += CHUNK) {
            int32_t na = A - a0 < CHUNK ? A - a0 : CHUNK;
            /* classes are planes A apart: the best class of CHUNK anchors at a time */
            const float *cls = p + (size_t)4 * A + a0;
            int32_t done = fn(cls, A, C, na, best, arg);
            if (done < na) pfi_best_row_ref(cls + done, A, C, na - done, best + done, arg + done);
            for (int32_t q = 0; q < na; q++) {
                if (!(best[q] > conf)) continue; /* xc = amax > conf (NaN fails) */
                int32_t a = a0 + q;
                float cw[4] = {p[a], p[(size_t)A + a], p[2 * (size_t)A + a], p[3 * (size_t)A + a]}, b[4];
                pfk_box_to_xyxy(cw, PF_BOX_CXCYWH, b);
                if (!o->multi_label) { /* cls.max(1): the first maximum (no NaN: it failed above) */
                    if (cands_push(c, b, best[q], arg[q], a)) return -1;
                    continue;
                }
                for (int32_t k = 0; k < C; k++) {
                    float v = p[(size_t)(4 + k) * A + a];
                    if (v > conf && cands_push(c, b, v, k, a)) return -1;
                }
            }
        }
        return 0;
    }
    const float *p = j->pred + (size_t)i * (size_t)A * (size_t)j->stride_box;
    for (int32_t a = 0; a < A; a++) {
        const float *r = p + (size_t)a * (size_t)j->stride_box;
        float obj = r[4];
        if (!(obj > conf)) continue; /* xc = obj > conf */
        float b[4];
        pfk_box_to_xyxy(r, PF_BOX_CXCYWH, b);
        if (!o->multi_label) {
            /* conf, j = (cls * obj).max(1) */
            float best = r[5] * obj;
            int32_t bc = 0;
            for (int32_t k = 1; k < C; k++) {
                float v = r[5 + k] * obj;
                if (v > best || (v != v && best == best)) {
                    best = v;
                    bc = k;
                }
            }
            if (best > conf && cands_push(c, b, best, bc, a)) return -1;
            continue;
        }
        for (int32_t k = 0; k < C; k++) {
            float v = r[5 + k] * obj;
            if (v > conf && cands_push(c, b, v, k, a)) return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------ anchors */

pf_anchor_opts pf_anchor_opts_defaults(void) {
    pf_anchor_opts o;
    memset(&o, 0, sizeof o);
    for (int k = 0; k < 4; k++) o.scale[k] = 1.0f;
    o.exp_wh = true;
    o.activation = PF_SCORE_SIGMOID;
    o.background_class = -1;
    o.conf_threshold = 0.5f;
    o.max_det = 100;
    o.nms = pf_nms_opts_defaults();
    return o;
}

static float activate(const pf_anchor_opts *o, float x) {
    if (o->activation == PF_SCORE_RAW) return x;
    if (o->score_clip > 0.0f) x = x < -o->score_clip ? -o->score_clip : x > o->score_clip ? o->score_clip : x;
    return 1.0f / (1.0f + expf(-x));
}

static int anchor_candidates(const head_job *j, int i, cands *c) {
    const pf_anchor_opts *o = j->ao;
    int32_t A = j->anchors, C = j->nc;
    const float *dl = j->deltas + (size_t)i * (size_t)A * (size_t)j->delta_cols;
    const float *sc = j->scores + (size_t)i * (size_t)A * (size_t)C;
    float conf = o->conf_threshold;
    for (int32_t a = 0; a < A; a++) {
        const float *s = sc + (size_t)a * (size_t)C;
        int have = 0;
        float best = 0;
        int32_t bc = -1;
        for (int32_t k = 0; k < C; k++) {
            if (k == o->background_class) continue;
            float v = activate(o, s[k]);
            if (!o->multi_label) {
                if (bc < 0 || v > best || (v != v && best == best)) {
                    best = v;
                    bc = k;
                }
            } else if (v > conf) {
                have = 1;
            }
        }
        if (!o->multi_label && !(bc >= 0 && best > conf)) continue;
        if (o->multi_label && !have) continue;
        const float *d = dl + (size_t)a * (size_t)j->delta_cols, *an = o->anchors + 4 * (size_t)a;
        float dx = o->yx ? d[1] : d[0], dy = o->yx ? d[0] : d[1], dw = o->yx ? d[3] : d[2], dh = o->yx ? d[2] : d[3];
        float cx = dx / o->scale[0] * an[2] + an[0], cy = dy / o->scale[1] * an[3] + an[1];
        float tw = dw / o->scale[2], th = dh / o->scale[3], w, h;
        if (o->exp_wh) {
            if (o->delta_clip > 0.0f) {
                tw = tw > o->delta_clip ? o->delta_clip : tw;
                th = th > o->delta_clip ? o->delta_clip : th;
            }
            w = expf(tw) * an[2];
            h = expf(th) * an[3];
        } else {
            w = tw * an[2];
            h = th * an[3];
        }
        float b[4] = {cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2};
        if (!o->multi_label) {
            if (cands_push(c, b, best, bc, a)) return -1;
            continue;
        }
        for (int32_t k = 0; k < C; k++) {
            if (k == o->background_class) continue;
            float v = activate(o, s[k]);
            if (v > conf && cands_push(c, b, v, k, a)) return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------ the batch */

static void head_task(void *ctx, int i, int worker) {
    (void)worker;
    head_job *j = ctx;
    cands c;
    memset(&c, 0, sizeof c);
    int rc = j->yo ? yolo_candidates(j, i, &c) : anchor_candidates(j, i, &c);
    int32_t *keep = rc == 0 ? malloc((c.n > 0 ? (size_t)c.n : 1) * sizeof *keep) : NULL;
    int32_t nk = -1;
    if (keep) {
        pf_nms_sample s = {c.boxes, c.scores, c.cls, c.n};
        nk = pfi_nms_sample_run(j->cfg, &s, keep, NULL, 0);
        for (int32_t q = 0; q < nk; q++) {
            int32_t k = keep[q];
            pf_detection *d = &j->dets[(size_t)i * (size_t)j->max_det + (size_t)q];
            d->x1 = c.boxes[4 * (size_t)k];
            d->y1 = c.boxes[4 * (size_t)k + 1];
            d->x2 = c.boxes[4 * (size_t)k + 2];
            d->y2 = c.boxes[4 * (size_t)k + 3];
            d->score = c.scores[k];
            d->class_id = c.cls[k];
            d->anchor = c.anchor[k];
        }
    }
    free(keep);
    cands_free(&c);
    j->counts[i] = nk;
}

static pf_status run_heads(const char *op, pf_stream *stream, head_job *j, int32_t batch, int64_t offsets[],
                           pf_detection dets[], int64_t capacity) {
    if (offsets == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: offsets is NULL", op);
    int64_t need = (int64_t)batch * j->max_det;
    if (capacity < need || (need > 0 && dets == NULL))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: capacity %lld is too small (or dets NULL); need batch * max_det = %lld",
                        op, (long long)capacity, (long long)need);
    j->dets = dets;
    j->counts = malloc(((size_t)batch + 1) * sizeof *j->counts);
    if (j->counts == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    if (batch > 1) pfi_stream_parallel(stream, batch, head_task, j);
    else if (batch == 1) head_task(j, 0, 0);
    pf_status st = PF_OK;
    offsets[0] = 0;
    for (int32_t i = 0; i < batch; i++) {
        if (j->counts[i] < 0) {
            st = pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory decoding sample %d", op, i);
            break;
        }
        int64_t o = offsets[i], at = (int64_t)i * j->max_det;
        if (o != at) memmove(dets + o, dets + at, (size_t)j->counts[i] * sizeof *dets);
        offsets[i + 1] = o + j->counts[i];
    }
    free(j->counts);
    return st;
}

static pf_status head_nms_cfg(const char *op, const pf_nms_opts *nms, int32_t max_nms, int32_t max_det,
                              const pf_stream *stream, pfi_nms_cfg *cfg) {
    pf_nms_opts n = *nms;
    n.box_format = PF_BOX_XYXY;
    n.score_threshold = -INFINITY; /* the head's own conf filter ran */
    n.pre_nms_top_k = max_nms;
    n.max_output = max_det;
    return pfi_nms_cfg_make(op, &n, stream, cfg);
}

pf_status pf_yolo_decode(pf_stream *stream, const pf_yolo_opts *opts, const float *pred, int32_t batch, int32_t dim1,
                         int32_t dim2, int64_t offsets[], pf_detection dets[], int64_t capacity) {
    static const char op[] = "pf_yolo_decode";
    pfi_clear_error();
    pf_yolo_opts o = opts ? *opts : pf_yolo_opts_defaults();
    pf_status hs = pfi_route_host_only(op, stream);
    if (hs != PF_OK) return hs;
    if ((unsigned)o.layout > PF_YOLO_V8)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.layout %d is not a pf_yolo_layout", op, (int)o.layout);
    if (batch < 0 || dim1 < 1 || dim2 < 1)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: shape [%d, %d, %d] needs batch >= 0 and dims >= 1", op, batch,
                        dim1, dim2);
    if (o.num_masks < 0 || o.num_classes < 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.num_classes and num_masks must be >= 0", op);
    if (o.max_det < 1 || o.max_nms < 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.max_det (%d) must be >= 1 and max_nms (%d) >= 0", op,
                        o.max_det, o.max_nms);
    if (isnan(o.conf_threshold)) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.conf_threshold is NaN", op);
    int32_t ch = o.layout == PF_YOLO_V8 ? dim1 : dim2, anchors = o.layout == PF_YOLO_V8 ? dim2 : dim1;
    int32_t fixed = o.layout == PF_YOLO_V8 ? 4 : 5;
    int32_t nc = o.num_classes ? o.num_classes : ch - fixed - o.num_masks;
    if (nc < 1 || fixed + nc + o.num_masks != ch)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: %d channels do not hold %d box values + %d classes + %d masks (opts.num_classes, "
                        "opts.num_masks)", op, ch, fixed, nc, o.num_masks);
    if (batch > 0 && pred == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: pred is NULL", op);
    pfi_nms_cfg cfg;
    pf_status st = head_nms_cfg(op, &o.nms, o.max_nms, o.max_det, stream, &cfg);
    if (st != PF_OK) return st;
    if (cfg.sem != PF_NMS_TORCHVISION || cfg.soft != PF_SOFT_NMS_NONE)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: opts.nms must be greedy PF_NMS_TORCHVISION (ultralytics')", op);
    head_job j;
    memset(&j, 0, sizeof j);
    j.cfg = &cfg;
    j.yo = &o;
    j.pred = pred;
    j.anchors = anchors;
    j.nc = nc;
    j.stride_box = o.layout == PF_YOLO_V8 ? anchors : ch;
    j.max_det = o.max_det;
    return run_heads(op, stream, &j, batch, offsets, dets, capacity);
}

pf_status pf_anchor_decode(pf_stream *stream, const pf_anchor_opts *opts, const float *deltas, int32_t delta_cols,
                           const float *scores, int32_t classes, int32_t batch, int32_t anchors, int64_t offsets[],
                           pf_detection dets[], int64_t capacity) {
    static const char op[] = "pf_anchor_decode";
    pfi_clear_error();
    pf_status hs = pfi_route_host_only(op, stream);
    if (hs != PF_OK) return hs;
    if (opts == NULL || opts->anchors == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts%s is NULL", op, opts ? ".anchors" : "");
    const pf_anchor_opts *o = opts;
    if (batch < 0 || anchors < 1 || classes < 1 || delta_cols < 4)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: batch %d, anchors %d, classes %d, delta_cols %d: need batch >= 0, anchors and classes "
                        ">= 1, delta_cols >= 4", op, batch, anchors, classes, delta_cols);
    for (int k = 0; k < 4; k++)
        if (!(o->scale[k] != 0.0f) || !isfinite(o->scale[k]))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.scale[%d] is %g; it must be finite and nonzero", op, k,
                            (double)o->scale[k]);
    if ((unsigned)o->activation > PF_SCORE_SIGMOID)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.activation %d is not a pf_score_activation", op,
                        (int)o->activation);
    if (o->max_det < 1) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.max_det must be >= 1", op);
    if (isnan(o->conf_threshold) || isnan(o->score_clip) || isnan(o->delta_clip))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.conf_threshold / score_clip / delta_clip is NaN", op);
    if (batch > 0 && (deltas == NULL || scores == NULL))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, deltas == NULL ? "deltas" : "scores");
    pfi_nms_cfg cfg;
    pf_status st = head_nms_cfg(op, &o->nms, 0, o->max_det, stream, &cfg);
    if (st != PF_OK) return st;
    head_job j;
    memset(&j, 0, sizeof j);
    j.cfg = &cfg;
    j.ao = o;
    j.deltas = deltas;
    j.scores = scores;
    j.delta_cols = delta_cols;
    j.anchors = anchors;
    j.nc = classes;
    j.max_det = o->max_det;
    return run_heads(op, stream, &j, batch, offsets, dets, capacity);
}
