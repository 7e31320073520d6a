/*
 * One video stream: FFmpeg demuxer + decoder opened up front, then a
 * thread that reads packets, decodes them and queues the frames for the
 * mux (blocking when the queue is full; in real-time mode replacing the
 * unconsumed frame instead, counting a drop). Blocking reads are
 * interrupted by FFmpeg's interrupt callback when the source is closed.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libavutil/pixdesc.h>

#include "codec/video_decoder.h"
#include "core/error.h"

/* Consecutive packets the decoder may reject before the stream counts as
 * corrupt (decoders conceal damaged packets; a stream of nothing but
 * damage is not a video). */
#define MAX_CONSECUTIVE_ERRORS 64

double pfi_video_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

pf_status pfi_video_cond_init(pthread_cond_t *c) {
    pthread_condattr_t a;
    if (pthread_condattr_init(&a) != 0) return PF_ERR_OUT_OF_MEMORY;
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    int rc = pthread_cond_init(c, &a);
    pthread_condattr_destroy(&a);
    return rc == 0 ? PF_OK : PF_ERR_OUT_OF_MEMORY;
}

int pfi_video_wait(pthread_cond_t *c, pthread_mutex_t *m, double deadline) {
    if (deadline < 0) return pthread_cond_wait(c, m);
    struct timespec ts;
    double whole = floor(deadline);
    ts.tv_sec = (time_t)whole;
    ts.tv_nsec = (long)((deadline - whole) * 1e9);
    return pthread_cond_timedwait(c, m, &ts);
}

int pfi_video_pix_fmt_ok(int fmt) {
    return fmt == AV_PIX_FMT_YUV420P || fmt == AV_PIX_FMT_YUVJ420P || fmt == AV_PIX_FMT_NV12 ||
           fmt == AV_PIX_FMT_NV21;
}

static const char *pix_fmt_name(int fmt) {
    const char *n = av_get_pix_fmt_name((enum AVPixelFormat)fmt);
    return n ? n : "unknown";
}

void pfi_vframe_describe(const AVFrame *f, pf_yuv *planes, pf_color_code *code, int *bt709, int *full_range) {
    /* 4:2:0 views need even sizes: an odd last column / row is left out */
    int32_t w = f->width & ~1, h = f->height & ~1;
    memset(planes, 0, sizeof *planes);
    planes->y = pf_image_hwc(f->data[0], w, h, 1, PF_U8, f->linesize[0]);
    if (f->format == AV_PIX_FMT_NV12 || f->format == AV_PIX_FMT_NV21) {
        planes->uv = pf_image_hwc(f->data[1], w / 2, h / 2, 2, PF_U8, f->linesize[1]);
        *code = f->format == AV_PIX_FMT_NV12 ? PF_COLOR_YUV2RGB_NV12 : PF_COLOR_YUV2RGB_NV21;
    } else {
        planes->u = pf_image_hwc(f->data[1], w / 2, h / 2, 1, PF_U8, f->linesize[1]);
        planes->v = pf_image_hwc(f->data[2], w / 2, h / 2, 1, PF_U8, f->linesize[2]);
        *code = PF_COLOR_YUV2RGB_I420;
    }
    *bt709 = f->colorspace == AVCOL_SPC_BT709;
    *full_range = f->color_range == AVCOL_RANGE_JPEG || f->format == AV_PIX_FMT_YUVJ420P;
}

/* FFmpeg error -> pixflow status. */
static pf_status status_of(int err) {
    if (err == AVERROR(ENOENT) || err == AVERROR(EACCES) || err == AVERROR(EIO) || err == AVERROR(EISDIR) ||
        err == AVERROR(ENOTDIR))
        return PF_ERR_IO;
    if (err == AVERROR_PROTOCOL_NOT_FOUND || err == AVERROR_DEMUXER_NOT_FOUND || err == AVERROR_DECODER_NOT_FOUND)
        return PF_ERR_UNSUPPORTED;
    if (err == AVERROR(ENOMEM)) return PF_ERR_OUT_OF_MEMORY;
    if (err == AVERROR_EXIT) return PF_ERR_CANCELLED;
    return PF_ERR_CORRUPT_DATA;
}

static const char *av_err(int err, char *buf, size_t n) {
    if (av_strerror(err, buf, n) < 0) snprintf(buf, n, "FFmpeg error %d", err);
    return buf;
}

static int interrupt_cb(void *opaque) {
    pfi_vhub *v = opaque;
    return atomic_load(&v->stop);
}

static pf_status open_fail(pfi_vstream *s, pf_status st, const char *what, int err) {
    char eb[128];
    pf_status r = pfi_fail(st, "pf_video_open: sources[%d] '%s': %s%s%s", s->id, s->url, what,
                           err ? ": " : "", err ? av_err(err, eb, sizeof eb) : "");
    pfi_vstream_free(s);
    return r;
}

pf_status pfi_vstream_open(pfi_vhub *v, pfi_vstream *s) {
    s->hub = v;
    s->fmt = avformat_alloc_context();
    if (s->fmt == NULL) return open_fail(s, PF_ERR_OUT_OF_MEMORY, "out of memory", 0);
    s->fmt->interrupt_callback.callback = interrupt_cb;
    s->fmt->interrupt_callback.opaque = v;
    int err = avformat_open_input(&s->fmt, s->url, NULL, NULL); /* frees fmt on failure */
    if (err < 0) return open_fail(s, status_of(err), "cannot open", err);
    if ((err = avformat_find_stream_info(s->fmt, NULL)) < 0)
        return open_fail(s, PF_ERR_CORRUPT_DATA, "cannot read the stream information", err);
    const AVCodec *codec = NULL;
    err = av_find_best_stream(s->fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (err == AVERROR_STREAM_NOT_FOUND) return open_fail(s, PF_ERR_UNSUPPORTED, "has no video stream", 0);
    if (err == AVERROR_DECODER_NOT_FOUND || (err >= 0 && codec == NULL)) {
        int idx = av_find_best_stream(s->fmt, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
        char what[160];
        snprintf(what, sizeof what, "codec '%s' has no decoder in this FFmpeg build",
                 idx >= 0 ? avcodec_get_name(s->fmt->streams[idx]->codecpar->codec_id) : "?");
        return open_fail(s, PF_ERR_UNSUPPORTED, what, 0);
    }
    if (err < 0) return open_fail(s, status_of(err), "cannot select the video stream", err);
    s->vidx = err;
    AVStream *st = s->fmt->streams[s->vidx];
    s->tb = st->time_base;
    int pf = st->codecpar->format;
    if (pf != AV_PIX_FMT_NONE && !pfi_video_pix_fmt_ok(pf)) {
        char what[200];
        snprintf(what, sizeof what,
                 "pixel format %s (codec %s) is not supported; the source takes yuv420p, yuvj420p, nv12, nv21",
                 pix_fmt_name(pf), avcodec_get_name(st->codecpar->codec_id));
        return open_fail(s, PF_ERR_UNSUPPORTED, what, 0);
    }
    s->dec = avcodec_alloc_context3(codec);
    if (s->dec == NULL) return open_fail(s, PF_ERR_OUT_OF_MEMORY, "out of memory for the decoder", 0);
    if ((err = avcodec_parameters_to_context(s->dec, st->codecpar)) < 0)
        return open_fail(s, PF_ERR_CORRUPT_DATA, "bad codec parameters", err);
    s->dec->pkt_timebase = s->tb;
    int threads = v->cfg.decode_threads;
    s->dec->thread_count = threads > 0 ? threads : v->n > 1 ? 1 : 0;
    /* frame threads delay every frame by a frame per thread */
    s->dec->thread_type = v->cfg.realtime ? FF_THREAD_SLICE : FF_THREAD_FRAME | FF_THREAD_SLICE;
    if ((err = avcodec_open2(s->dec, codec, NULL)) < 0)
        return open_fail(s, status_of(err) == PF_ERR_CORRUPT_DATA ? PF_ERR_UNSUPPORTED : status_of(err),
                         "cannot open the decoder", err);
    s->qcap = v->cfg.realtime ? 1 : v->cfg.queue_depth;
    s->q = calloc((size_t)s->qcap, sizeof *s->q);
    if (s->q == NULL) return open_fail(s, PF_ERR_OUT_OF_MEMORY, "out of memory for the frame queue", 0);
    if (pfi_video_cond_init(&s->space) != PF_OK) {
        pf_status r = open_fail(s, PF_ERR_OUT_OF_MEMORY, "cannot create a condition variable", 0);
        return r;
    }
    s->space_ok = 1;
    return PF_OK;
}

void pfi_vstream_free(pfi_vstream *s) {
    for (int k = 0; k < s->qlen; k++) pfi_vframe_clear(&s->q[(s->qhead + k) % s->qcap]);
    s->qlen = 0;
    free(s->q);
    s->q = NULL;
    pfi_vstream_free_sws(s);
    avcodec_free_context(&s->dec);
    avformat_close_input(&s->fmt);
    if (s->space_ok) pthread_cond_destroy(&s->space);
    s->space_ok = 0;
    free(s->error);
    s->error = NULL;
}

/* ------------------------------------------------------------ the thread */

/* The thread's own state; its counters are published into the stream
 * under the mutex whenever a frame is queued or the stream ends. */
typedef struct decode_state {
    AVFrame *frame;
    int64_t next_index;
    int64_t pts0;
    double t0;
    int consecutive_errors;
    int64_t errors;
    double busy_s;
} decode_state;

static void publish(pfi_vstream *s, const decode_state *ds) {
    s->decode_errors = ds->errors;
    s->busy_s = ds->busy_s;
}

/* Ends the stream (with an error sentence, or none at the normal end). */
static void finish(pfi_vstream *s, const decode_state *ds, const char *fmt, ...) PFI_PRINTF(3, 4);
static void finish(pfi_vstream *s, const decode_state *ds, const char *fmt, ...) {
    pfi_vhub *v = s->hub;
    char *msg = NULL;
    if (fmt != NULL && !atomic_load(&v->stop)) {
        msg = malloc(512);
        if (msg != NULL) {
            int off = snprintf(msg, 512, "sources[%d] '%s': ", s->id, s->url);
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(msg + off, (size_t)(512 - off), fmt, ap);
            va_end(ap);
        }
    }
    pthread_mutex_lock(&v->mu);
    publish(s, ds);
    free(s->error);
    s->error = msg;
    s->ended = 1;
    pthread_cond_broadcast(&v->ready);
    pthread_mutex_unlock(&v->mu);
}

/* Sleeps until the frame's presentation time (pace mode); returns 0 when
 * the source is being closed. */
static int pace_until(pfi_vstream *s, double when) {
    pfi_vhub *v = s->hub;
    pthread_mutex_lock(&v->mu);
    while (!atomic_load(&v->stop) && pfi_video_now() < when)
        if (pfi_video_wait(&s->space, &v->mu, when) != 0) break;
    int go = !atomic_load(&v->stop);
    pthread_mutex_unlock(&v->mu);
    return go;
}

/* Hands one decoded frame to the queue; takes ownership of *av. Returns 0
 * when the source is being closed. */
static int deliver(pfi_vstream *s, const decode_state *ds, AVFrame *av, AVFrame *bgr, int64_t index,
                   double capture) {
    pfi_vhub *v = s->hub;
    pthread_mutex_lock(&v->mu);
    publish(s, ds);
    if (v->cfg.realtime && s->qlen == s->qcap) { /* keep only the newest */
        pfi_vframe_clear(&s->q[s->qhead]);
        s->qhead = (s->qhead + 1) % s->qcap;
        s->qlen--;
        s->dropped++;
    }
    while (s->qlen == s->qcap && !atomic_load(&v->stop)) pthread_cond_wait(&s->space, &v->mu);
    if (atomic_load(&v->stop)) {
        pthread_mutex_unlock(&v->mu);
        av_frame_free(&av);
        av_frame_free(&bgr);
        return 0;
    }
    pfi_vframe *slot = &s->q[(s->qhead + s->qlen) % s->qcap];
    slot->av = av;
    slot->bgr = bgr;
    slot->index = index;
    slot->capture_s = capture;
    s->qlen++;
    s->decoded++;
    pthread_cond_broadcast(&v->ready);
    pthread_mutex_unlock(&v->mu);
    return 1;
}


/* Receives every frame the decoder has ready. Returns 1 to go on, 0 at
 * the end (closed, EOF drained, or failed: finish() already called). */
static int drain(pfi_vstream *s, decode_state *ds) {
    pfi_vhub *v = s->hub;
    for (;;) {
        double t = pfi_video_now();
        int err = avcodec_receive_frame(s->dec, ds->frame);
        ds->busy_s += pfi_video_now() - t;
        if (err == AVERROR(EAGAIN)) return 1;
        if (err == AVERROR_EOF) {
            finish(s, ds, NULL);
            return 0;
        }
        if (err < 0) { /* a damaged frame: concealed or lost, the stream goes on */
            ds->errors++;
            return 1;
        }
        ds->consecutive_errors = 0;
        if (!pfi_video_pix_fmt_ok(ds->frame->format)) {
            finish(s, ds, "frame %lld has pixel format %s; the source takes yuv420p, yuvj420p, nv12, nv21",
                   (long long)ds->next_index, pix_fmt_name(ds->frame->format));
            return 0;
        }
        if (ds->frame->width < 2 || ds->frame->height < 2) {
            finish(s, ds, "frame %lld is %dx%d; frames need at least 2x2 pixels", (long long)ds->next_index,
                   ds->frame->width, ds->frame->height);
            return 0;
        }
        int64_t pts = ds->frame->best_effort_timestamp;
        double capture = pfi_video_now();
        if (v->cfg.pace && pts != AV_NOPTS_VALUE) {
            if (ds->pts0 == AV_NOPTS_VALUE) {
                ds->pts0 = pts;
                ds->t0 = capture;
            }
            double when = ds->t0 + (double)(pts - ds->pts0) * av_q2d(s->tb);
            if (!pace_until(s, when)) return 0;
            capture = pfi_video_now();
        }
        AVFrame *own = av_frame_alloc();
        if (own == NULL) {
            finish(s, ds, "out of memory for a frame");
            return 0;
        }
        av_frame_move_ref(own, ds->frame);
        AVFrame *bgr = NULL;
        if (v->cfg.convert == PF_VIDEO_CONVERT_SWSCALE) {
            double tc = pfi_video_now();
            int cerr = pfi_vframe_to_bgr(s, own, &bgr);
            ds->busy_s += pfi_video_now() - tc;
            if (cerr < 0) {
                char eb[128];
                finish(s, ds, "libswscale cannot convert frame %lld (%s, %dx%d) to BGR24: %s",
                       (long long)ds->next_index, pix_fmt_name(own->format), own->width, own->height,
                       av_err(cerr, eb, sizeof eb));
                av_frame_free(&own);
                return 0;
            }
        }
        if (!deliver(s, ds, own, bgr, ds->next_index++, capture)) return 0;
    }
}

void *pfi_vstream_main(void *arg) {
    pfi_vstream *s = arg;
    pfi_vhub *v = s->hub;
    char eb[128];
    decode_state ds = {.frame = av_frame_alloc(), .pts0 = AV_NOPTS_VALUE};
    AVPacket *pkt = av_packet_alloc();
    if (ds.frame == NULL || pkt == NULL) {
        finish(s, &ds, "out of memory for the decoder's packet / frame");
        goto done;
    }
    int64_t packets = 0;
    for (;;) {
        if (atomic_load(&v->stop)) break;
        double t = pfi_video_now();
        int err = av_read_frame(s->fmt, pkt);
        if (err == AVERROR_EOF) {
            avcodec_send_packet(s->dec, NULL); /* flush: the decoder returns what it holds, then EOF */
            ds.busy_s += pfi_video_now() - t;
            drain(s, &ds);
            break;
        }
        if (err < 0) {
            ds.busy_s += pfi_video_now() - t;
            if (err != AVERROR_EXIT && !atomic_load(&v->stop))
                finish(s, &ds, "read failed after %lld packets: %s", (long long)packets, av_err(err, eb, sizeof eb));
            break;
        }
        packets++;
        if (pkt->stream_index != s->vidx) {
            av_packet_unref(pkt);
            continue;
        }
        err = avcodec_send_packet(s->dec, pkt);
        av_packet_unref(pkt);
        ds.busy_s += pfi_video_now() - t;
        if (err < 0 && err != AVERROR(EAGAIN)) {
            ds.errors++;
            if (++ds.consecutive_errors >= MAX_CONSECUTIVE_ERRORS) {
                finish(s, &ds, "%d packets in a row failed to decode (last: %s)", ds.consecutive_errors,
                       av_err(err, eb, sizeof eb));
                break;
            }
        }
        if (!drain(s, &ds)) break;
    }
done:
    av_packet_free(&pkt);
    av_frame_free(&ds.frame);
    /* every way out ends the stream (a normal end, a close: no error) */
    pthread_mutex_lock(&v->mu);
    if (!s->ended) {
        publish(s, &ds);
        s->ended = 1;
        pthread_cond_broadcast(&v->ready);
    }
    pthread_mutex_unlock(&v->mu);
    return NULL;
}
