/*
 * Video source internals: the decoder threads (src/codec/video_decode.c)
 * feed per-stream frame queues; the consumer's pf_video_next
 * (video_mux.c) takes frames round-robin, runs the fused preprocess and
 * hands out a batch slot.
 */
#ifndef PF_PIPELINE_VIDEO_INTERNAL_H
#define PF_PIPELINE_VIDEO_INTERNAL_H

#include "codec/video_decoder.h"

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
    pfi_vhub hub;         /* configuration, lock, `ready`, stop flag (shared with the decoders) */
    pfi_vstream *streams;
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

#endif
