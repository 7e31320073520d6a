/*
 * pf_video_next: the stream muxer (round-robin, one frame per stream per
 * turn, nvstreammux style) and the fused preprocess of the batch.
 *
 * Not real-time, the turn waits for the stream it belongs to, so the frame
 * order is a pure function of the inputs. Real-time, a turn takes the
 * next stream that has a frame, so a stalled camera costs the others
 * nothing. Either way the frames are taken under the mutex (pointer
 * moves), and converted + preprocessed outside it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/video_internal.h"
#include "core/error.h"

#define OP "pf_video_next"

enum { PICK_WAIT = -1, PICK_DONE = -2 };

/* The stream to take a frame from now, PICK_WAIT, or PICK_DONE when every
 * stream has ended and been drained. Called with the mutex held. */
static int pick(pf_video *v) {
    int live = 0;
    for (int k = 0; k < v->hub.n; k++) {
        int s = (v->cursor + k) % v->hub.n;
        pfi_vstream *st = &v->streams[s];
        if (st->qlen > 0) return s;
        if (!st->ended) {
            live = 1;
            if (!v->hub.cfg.realtime) return PICK_WAIT; /* its turn: wait for it */
        }
    }
    return live ? PICK_WAIT : PICK_DONE;
}

/* Moves the oldest frame of stream s into the slot. Mutex held. */
static void take(pf_video *v, int s, pfi_vslot *slot) {
    pfi_vstream *st = &v->streams[s];
    slot->held[slot->nheld++] = st->q[st->qhead];
    st->q[st->qhead].av = NULL;
    st->q[st->qhead].bgr = NULL;
    st->qhead = (st->qhead + 1) % st->qcap;
    st->qlen--;
    v->cursor = (s + 1) % v->hub.n;
    pthread_cond_signal(&st->space);
}

/* Fills the frame records, runs the fused preprocess, stamps latency. */
/* The frame's colour options: the configured ones, or (color_from_stream)
 * the defaults with what the stream says about its matrix and range. */
static pf_color_opts frame_color(const pf_video_config *cfg, int bt709, int full_range) {
    if (!cfg->color_from_stream) return cfg->color;
    pf_color_opts c = pf_color_opts_defaults();
    if (bt709) c.yuv_matrix = PF_YUV_BT709;
    if (full_range) c.yuv_range = PF_YUV_FULL;
    return c;
}

static pf_status convert(pf_video *v, pfi_vslot *slot, double *busy_s) {
    int n = slot->nheld;
    pf_yuv planes[64];
    pf_image bgr[64];
    pf_color_code codes[64];
    pf_color_opts color[64];
    pf_letterbox_info info[64];
    double t0 = pfi_video_now();
    /* in chunks of 64 so nothing here is allocated per batch */
    for (int base = 0; base < n; base += 64) {
        int m = n - base < 64 ? n - base : 64;
        for (int k = 0; k < m; k++)
            {
            int bt709, full;
            const pfi_vframe *h = &slot->held[base + k];
            pfi_vframe_describe(h->av, &planes[k], &codes[k], &bt709, &full);
            color[k] = frame_color(&v->hub.cfg, bt709, full);
            bgr[k] = h->bgr == NULL ? (pf_image){0}
                                    : pf_image_hwc(h->bgr->data[0], h->bgr->width, h->bgr->height, 3, PF_U8,
                                                   h->bgr->linesize[0]);
        }
        pf_tensor t = slot->batch.tensor;
        t.data = (char *)t.data + (ptrdiff_t)base * t.sample_stride;
        t.n -= base;
        pf_status st = v->hub.cfg.convert == PF_VIDEO_CONVERT_SWSCALE
                           ? pf_preprocess_run(v->plan, v->pstream, m, bgr, NULL, &t, info)
                           : pf_preprocess_run_yuv(v->plan, v->pstream, m, planes, codes, color, NULL, &t, info);
        if (st != PF_OK) return st;
        double done = pfi_video_now();
        for (int k = 0; k < m; k++) {
            const pfi_vframe *h = &slot->held[base + k];
            pf_video_frame *f = &slot->frames[base + k];
            f->frame_index = h->index;
            int64_t pts = h->av->best_effort_timestamp;
            f->pts = pts == AV_NOPTS_VALUE ? INT64_MIN : pts;
            f->width = h->bgr != NULL ? h->bgr->width : planes[k].y.width;
            f->height = h->bgr != NULL ? h->bgr->height : planes[k].y.height;
            f->letterbox = info[k];
            f->planes = planes[k];
            f->code = codes[k];
            f->color = color[k];
            f->bgr = bgr[k];
            f->latency_ms = (done - h->capture_s) * 1e3;
        }
    }
    *busy_s = pfi_video_now() - t0;
    return PF_OK;
}

/* The consumer-side stats of a delivered batch, under the source's lock so
 * that pf_video_stats_get / pf_video_stream_stats_get may run on another
 * thread (a metrics scraper): one lock per batch. */
static void count_batch(pf_video *v, const pfi_vslot *slot, double wait_s, double busy_s) {
    pthread_mutex_lock(&v->hub.mu);
    for (int k = 0; k < slot->nheld; k++) {
        const pf_video_frame *f = &slot->frames[k];
        pfi_vstream *s = &v->streams[f->stream];
        v->lat_ms[v->lat_count++ % PFI_VIDEO_LAT_RING] = f->latency_ms;
        s->lat_ms[s->lat_count++ % PF_VIDEO_STREAM_LAT_WINDOW] = f->latency_ms;
        s->delivered++;
    }
    v->delivered += slot->nheld;
    v->batches++;
    if (slot->nheld < v->hub.cfg.batch) v->partial++;
    v->wait_s += wait_s;
    v->preprocess_s += busy_s;
    pthread_mutex_unlock(&v->hub.mu);
}

pf_status pf_video_next(pf_video *v, pf_video_batch **batch, int wait_ms) {
    pfi_clear_error();
    if (batch == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": batch is NULL");
    *batch = NULL;
    if (v == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": video is NULL");
    if (wait_ms < -1) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": wait_ms is %d; use -1 (forever) or >= 0", wait_ms);
    pfi_vslot *slot = NULL;
    for (int k = 0; k < v->hub.cfg.batches_in_flight && slot == NULL; k++)
        if (!v->slots[k].busy) slot = &v->slots[k];
    if (slot == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        OP ": all %d batches (config.batches_in_flight) are still held; release one first",
                        v->hub.cfg.batches_in_flight);
    double start = pfi_video_now();
    double first_deadline = wait_ms < 0 ? -1.0 : start + wait_ms * 1e-3, batch_deadline = -1.0;
    int done = 0, timed_out = 0;
    pthread_mutex_lock(&v->hub.mu);
    while (slot->nheld < v->hub.cfg.batch) {
        int s = pick(v);
        if (s >= 0) {
            take(v, s, slot);
            slot->frames[slot->nheld - 1].stream = s;
            if (slot->nheld == 1 && v->hub.cfg.batch_timeout_ms >= 0)
                batch_deadline = pfi_video_now() + v->hub.cfg.batch_timeout_ms * 1e-3;
            continue;
        }
        if (s == PICK_DONE) {
            done = 1;
            break;
        }
        double deadline = slot->nheld == 0 ? first_deadline : batch_deadline;
        if (deadline >= 0 && pfi_video_now() >= deadline) {
            timed_out = 1;
            break;
        }
        pfi_video_wait(&v->hub.ready, &v->hub.mu, deadline);
    }
    pthread_mutex_unlock(&v->hub.mu);
    double wait_s = pfi_video_now() - start;
    if (slot->nheld == 0) {
        pthread_mutex_lock(&v->hub.mu);
        v->wait_s += wait_s;
        pthread_mutex_unlock(&v->hub.mu);
        if (done) return PF_OK; /* the end: *batch stays NULL */
        (void)timed_out;
        return pfi_fail(PF_ERR_TIMEOUT, OP ": no frame within wait_ms = %d ms", wait_ms);
    }
    slot->busy = 1;
    double busy_s = 0;
    pf_status st = convert(v, slot, &busy_s);
    if (st != PF_OK) {
        char msg[512];
        strncpy(msg, pf_last_error(), sizeof msg - 1);
        msg[sizeof msg - 1] = '\0';
        int bad_stream = slot->frames[0].stream;
        pf_video_batch_release(v, &slot->batch);
        return pfi_fail(st, OP ": preprocessing a batch (first frame from sources[%d]) failed: %s", bad_stream, msg);
    }
    for (int k = 0; k < slot->nheld; k++) {
        pfi_vstream *s = &v->streams[slot->frames[k].stream];
        slot->frames[k].pts_seconds =
            slot->frames[k].pts == INT64_MIN ? (double)NAN : (double)slot->frames[k].pts * av_q2d(s->tb);
    }
    slot->batch.count = slot->nheld;
    count_batch(v, slot, wait_s, busy_s);
    *batch = &slot->batch;
    return PF_OK;
}
