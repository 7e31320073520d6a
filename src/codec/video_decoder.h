/*
 * The video decoder (video_decode.c): one thread per stream demuxes and
 * decodes into a small per-stream frame queue. The video source that runs
 * the threads and consumes the queues (src/pipeline/video_source.c,
 * video_mux.c) shares a hub with them: its configuration, one mutex that
 * guards every queue (a handful of pointer moves per frame: never
 * contended for long), the `ready` signal and the stop flag. Condition
 * variables use CLOCK_MONOTONIC.
 */
#ifndef PF_CODEC_VIDEO_DECODER_H
#define PF_CODEC_VIDEO_DECODER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>

#include "pixflow/video.h"

/* What the decoder threads and the source that runs them share. */
typedef struct pfi_vhub {
    pf_video_config cfg;
    int n;                /* streams */
    pthread_mutex_t mu;
    pthread_cond_t ready; /* signalled when a frame was queued or a stream ended */
    atomic_int stop;
} pfi_vhub;

/* A decoded frame waiting in a queue or held by a batch. */
typedef struct pfi_vframe {
    AVFrame *av;
    AVFrame *bgr;         /* PF_VIDEO_CONVERT_SWSCALE: av converted by libswscale, else NULL */
    int64_t index;        /* position in its stream's decoder output */
    double capture_s;     /* monotonic seconds when it left the decoder (or its paced release) */
} pfi_vframe;

typedef struct pfi_vstream {
    pfi_vhub *hub;
    int id;
    char *url;
    AVFormatContext *fmt;
    AVCodecContext *dec;
    int vidx;             /* the video stream inside the container */
    AVRational tb;
    struct SwsContext *sws; /* PF_VIDEO_CONVERT_SWSCALE: the decoder thread's converter */
    struct AVBufferPool *bgr_pool; /* and its BGR frame buffers (video_swscale.c) */
    size_t bgr_pool_size;
    pthread_t thread;
    int started;
    /* guarded by hub->mu */
    pthread_cond_t space; /* signalled when the consumer took a frame (or on close) */
    int space_ok;         /* `space` was initialised */
    pfi_vframe *q;        /* ring of qcap frames */
    int qcap, qhead, qlen;
    int ended;            /* the thread delivered its last frame */
    char *error;          /* why it ended early (malloc'd), NULL when it did not fail */
    int64_t decoded, dropped, decode_errors;
    double busy_s;
    /* consumer side (pf_video_next writes them once per batch, also under
     * hub->mu, so that pf_video_stream_stats_get may read from any thread) */
    int64_t delivered;
    int64_t lat_count;
    double lat_ms[PF_VIDEO_STREAM_LAT_WINDOW];
} pfi_vstream;

/* Monotonic clock in seconds. */
double pfi_video_now(void);
/* pthread_cond_timedwait on the monotonic clock until `deadline` seconds
 * (a negative deadline: wait without a limit). Returns 0 when signalled,
 * non-zero on timeout. */
int pfi_video_wait(pthread_cond_t *c, pthread_mutex_t *m, double deadline);
pf_status pfi_video_cond_init(pthread_cond_t *c);

/* Opens stream s->id's demuxer and decoder (s->url set); on failure the
 * status and a message naming the source, with nothing left open. */
pf_status pfi_vstream_open(pfi_vhub *hub, pfi_vstream *s);
void pfi_vstream_free(pfi_vstream *s);
/* The decoder thread's body (arg: pfi_vstream *). */
void *pfi_vstream_main(void *arg);

/* The pf_yuv views and decode code of a decoded frame (pixel format
 * already known to be supported), and what the stream says about its
 * colour: *bt709 for a BT.709 matrix, *full_range for full range. */
/* PF_VIDEO_CONVERT_SWSCALE (video_swscale.c): *out = src as BGR24 of its
 * size through the stream's cached converter and buffer pool; 0 or a
 * negative AVERROR. Called on the stream's decoder thread only. */
struct SwsContext;
int pfi_vframe_to_bgr(pfi_vstream *s, const AVFrame *src, AVFrame **out);
void pfi_vstream_free_sws(pfi_vstream *s);

/* Frees a queued frame (its AVFrame and its BGR conversion, if any). */
void pfi_vframe_clear(pfi_vframe *f);

void pfi_vframe_describe(const AVFrame *f, pf_yuv *planes, pf_color_code *code, int *bt709, int *full_range);
/* 1 for the pixel formats the source converts. */
int pfi_video_pix_fmt_ok(int fmt);

#endif
