/*
 * Video source internals: one decoder thread per stream (video_decode.c)
 * feeds a small per-stream frame queue; the consumer's pf_video_next
 * (video_mux.c) takes frames round-robin, runs the fused preprocess and
 * hands out a batch slot. One mutex guards every queue (a handful of
 * pointer moves per frame: never contended for long); condition variables
 * use CLOCK_MONOTONIC.
 */
#ifndef PF_CODEC_VIDEO_INTERNAL_H
#define PF_CODEC_VIDEO_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>

#include "pixflow/video.h"

/* A decoded frame waiting in a queue or held by a batch. */
typedef struct pfi_vframe {
    AVFrame *av;
    int64_t index;        /* position in its stream's decoder output */
    double capture_s;     /* monotonic seconds when it left the decoder (or its paced release) */
} pfi_vframe;

typedef struct pfi_vstream {
    struct pf_video *v;
    int id;
    char *url;
    AVFormatContext *fmt;
    AVCodecContext *dec;
    int vidx;             /* the video stream inside the container */
    AVRational tb;
    pthread_t thread;
    int started;
    /* guarded by v->mu */
    pthread_cond_t space; /* signalled when the consumer took a frame (or on close) */
    int space_ok;         /* `space` was initialised */
    pfi_vframe *q;        /* ring of qcap frames */
    int qcap, qhead, qlen;
    int ended;            /* the thread delivered its last frame */
    char *error;          /* why it ended early (malloc'd), NULL when it did not fail */
    int64_t decoded, dropped, decode_errors;
    double busy_s;
} pfi_vstream;

/* A batch handed to the consumer (or free). */
typedef struct pfi_vslot {
    pf_video_batch batch;
    void *mem;            /* tensor storage */
    pf_video_frame *frames;
    pfi_vframe *held;     /* the AVFrames behind frames[].planes */
    int nheld;
    int busy;
} pfi_vslot;

#define PFI_VIDEO_LAT_RING 4096

struct pf_video {
    pf_video_config cfg;
    int n;                /* streams */
    pfi_vstream *streams;
    pthread_mutex_t mu;
    pthread_cond_t ready; /* signalled when a frame was queued or a stream ended */
    atomic_int stop;
    int cursor;           /* the stream whose turn is next */
    pfi_vslot *slots;
    pf_preprocess_plan *plan;
    pf_stream *pstream;
    /* consumer-side stats (only the consumer thread writes them) */
    int64_t delivered, batches, partial;
    double preprocess_s, wait_s;
    double lat_ms[PFI_VIDEO_LAT_RING];
    int64_t lat_count;
};

/* Monotonic clock in seconds. */
double pfi_video_now(void);
/* pthread_cond_timedwait on the monotonic clock until `deadline` seconds
 * (a negative deadline: wait without a limit). Returns 0 when signalled,
 * non-zero on timeout. */
int pfi_video_wait(pthread_cond_t *c, pthread_mutex_t *m, double deadline);
pf_status pfi_video_cond_init(pthread_cond_t *c);

/* Opens stream s->id's demuxer and decoder (s->url set); on failure the
 * status and a message naming the source, with nothing left open. */
pf_status pfi_vstream_open(pf_video *v, pfi_vstream *s);
void pfi_vstream_free(pfi_vstream *s);
/* The decoder thread's body (arg: pfi_vstream *). */
void *pfi_vstream_main(void *arg);

/* The pf_yuv views, decode code and colour options of a decoded frame
 * (pixel format already known to be supported). */
void pfi_vframe_describe(const pf_video *v, const AVFrame *f, pf_yuv *planes, pf_color_code *code,
                         pf_color_opts *color);
/* 1 for the pixel formats the source converts. */
int pfi_video_pix_fmt_ok(int fmt);

#endif
