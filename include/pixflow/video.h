/*
 * pixflow video: decoded 4:2:0 frames straight into the fused preprocess,
 * and a video source (FFmpeg) that turns one or many files / streams into
 * batches of model-ready tensors.
 *
 * Typical use (16 files, YOLO input, batches of 16, one frame per file):
 *   pf_video_config c = pf_video_config_defaults();   // "yolo" recipe
 *   c.sources = paths; c.nsources = 16; c.batch = 16;
 *   pf_video *v; pf_video_open(&c, &v);
 *   pf_video_batch *b;
 *   while (pf_video_next(v, &b, -1) == PF_OK && b != NULL) {
 *       use(b->tensor, b->count, b->frames);           // frames[i].stream, .frame_index, .pts
 *       pf_video_batch_release(v, b);
 *   }
 *   pf_video_close(v);
 */
#ifndef PIXFLOW_VIDEO_H
#define PIXFLOW_VIDEO_H

#include <stdbool.h>
#include <stdint.h>

#include "pixflow/augment.h"
#include "pixflow/core.h"
#include "pixflow/ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------- fused preprocess of frames */

/*
 * pf_preprocess_run_yuv: as pf_preprocess_run, with 4:2:0 frames as the
 * sources: frame src[i] is converted with codes[i] and opts[i] inside the
 * pass (only the crop rectangle, widened to even edges, is converted, into
 * the worker's scratch) and then goes through the plan like an image.
 *   codes[i]: a 3-channel decode code, PF_COLOR_YUV2{RGB,BGR}_{NV12,NV21,
 *             YV12,I420}, or PF_COLOR_YUV2GRAY_420 (a 1-channel source);
 *             count entries, required.
 *   opts:     NULL (BT.601 limited, OpenCV's) or count entries (per frame
 *             matrix and range, e.g. from the stream's metadata).
 *   src[i]:   planes as pf_cvt_color_from_yuv wants them (even W x H,
 *             u8; y, and uv or u/v as the code says).
 *   params, dst, info: as pf_preprocess_run (crops in luma pixels).
 * Exactness: bit-identical to pf_cvt_color_from_yuv(codes[i], opts[i])
 * into a W x H image followed by pf_preprocess_run on it, for any crop,
 * thread count and ISA (tests/unit/test_video_preprocess.c).
 * Backends: host planes run on the CPU; CUDA device planes and tensor
 * (one device; stream as pf_preprocess_run's) run on the GPU with the
 * same bits. Samples without affine whose interpolation is NEAREST,
 * NEAREST_EXACT or LINEAR without antialias (e.g. a letterbox) are read
 * straight from the planes by the fused preprocess kernel (one launch,
 * no scratch); for the others a conversion launch first decodes the crop
 * rectangle (widened to even edges) into the stream's device scratch.
 */
PF_API pf_status pf_preprocess_run_yuv(pf_preprocess_plan *plan, pf_stream *stream, int count,
                                       const pf_yuv src[], const pf_color_code codes[],
                                       const pf_color_opts opts[], const pf_aug_params params[],
                                       pf_tensor *dst, pf_letterbox_info info[]);

/* ------------------------------------------------------- video source */

typedef struct pf_video pf_video;

#define PF_VIDEO_MAX_SOURCES 256

typedef enum pf_video_convert {
    PF_VIDEO_CONVERT_FUSED = 0,  /* YUV planes into the fused pass (default) */
    PF_VIDEO_CONVERT_SWSCALE = 1 /* libswscale to BGR24 first, as cv2.VideoCapture */
} pf_video_convert;

typedef struct pf_video_config {
    /* Files or URLs FFmpeg can open (rtsp://, http://, ...), each decoded
     * by its own thread. H.264, H.265, VP9, MJPEG, MPEG-4 ... whatever the
     * FFmpeg build decodes, with frames in yuv420p, yuvj420p, nv12 or nv21
     * (others: PF_ERR_UNSUPPORTED naming the pixel format). */
    const char *const *sources;
    int nsources;            /* 1 .. PF_VIDEO_MAX_SOURCES */
    /* Frames per batch (the tensor's n). A batch is returned when it is
     * full, or batch_timeout_ms after its first frame was taken (a partial
     * batch: count < batch), or when every stream has ended. */
    int batch;               /* default 1 */
    int batch_timeout_ms;    /* default -1: never (batches are always full, but the last) */
    /* Mux order: streams are served round-robin, one frame per stream per
     * turn, as DeepStream's nvstreammux does. Not real-time: the turn waits
     * for the stream whose turn it is (ended streams drop out), so the
     * frame sequence is a pure function of the inputs: (stream 0, frame 0),
     * (1, 0), ..., (n-1, 0), (0, 1), ... whatever the batch size.
     * Real-time: each stream keeps only its newest decoded frame (an older
     * unconsumed one is dropped and counted); a turn takes the next stream
     * that has a frame, so a slow stream never holds the others back. */
    bool realtime;           /* default false */
    /* Release file frames at their presentation times (pts), as a live
     * camera would deliver them (ffmpeg -re). Default false: as fast as
     * decoding goes. */
    bool pace;
    int queue_depth;         /* decoded frames buffered per stream when not real-time; default 4 */
    int decode_threads;      /* FFmpeg threads per decoder; 0 (default): 1 when nsources > 1,
                                else FFmpeg's automatic choice. Real-time uses slice threads
                                only (frame threads add frames of latency). */
    /* The fused preprocess applied to every frame (default: the "yolo"
     * recipe, 640x640 letterbox, pad 114, /255, NCHW f32). Frames are
     * decoded as RGB; swap_rb = true gives BGR tensors. */
    pf_preprocess_desc desc;
    /* YUV matrix and range: from each stream's metadata (default true:
     * BT.709 when the stream says so, full range for yuvj420p / JPEG range,
     * else BT.601 limited, OpenCV's choice) or `color` for every stream. */
    bool color_from_stream;
    pf_color_opts color;
    /* How a decoded YUV frame becomes the plan's input:
     * PF_VIDEO_CONVERT_FUSED (default): the YUV planes go straight into the
     *   fused pass (pf_preprocess_run_yuv with the matrix and range above):
     *   one pass over the frame, BT.601/709 arithmetic as OpenCV's cvtColor.
     * PF_VIDEO_CONVERT_SWSCALE: each frame is first converted to a BGR24
     *   image of its full size by FFmpeg's libswscale (SWS_BICUBIC, as
     *   OpenCV's VideoCapture does in its FFmpeg backend), on the stream's
     *   decoder thread, and the plan runs on that image (swap_rb keeps its
     *   meaning: RGB tensors unless it is set). With the libswscale that
     *   OpenCV links (Debian's cv2 and pixflow share it), the tensor equals
     *   the plan run on cv2.VideoCapture's frame byte for byte, so a model
     *   sees the usual app's pixels (tests/python/test_video_swscale.py).
     *   It costs one more full-frame pass and a BGR frame per queued frame;
     *   `color` / `color_from_stream` are then swscale's business (it reads
     *   the stream's range, BT.601 coefficients), not pixflow's. */
    pf_video_convert convert;
    int threads;             /* preprocess threads (a CPU pf_stream); default 1, 0 = one per CPU */
    int batches_in_flight;   /* batches the consumer may hold unreleased; default 2 */
} pf_video_config;

PF_API pf_video_config pf_video_config_defaults(void);

/* One frame of a batch. */
typedef struct pf_video_frame {
    int32_t stream;          /* index into config.sources */
    int64_t frame_index;     /* 0-based position in its stream's decode output (dropped frames count) */
    int64_t pts;             /* presentation timestamp in the stream's time base; INT64_MIN when unknown */
    double pts_seconds;      /* pts in seconds; NaN when unknown */
    int32_t width, height;   /* the frame's size (fused mode: odd sizes lose their last column / row) */
    double latency_ms;       /* capture (the frame left the decoder, or its paced release time)
                                to its tensor sample written */
    pf_letterbox_info letterbox; /* tensor pixel -> frame pixel mapping */
    /* The decoded frame itself (valid until the batch is released) and
     * how it was converted: the tensor sample equals
     * pf_preprocess_run_yuv(plan, ..., &planes, &code, &color, NULL, ...). */
    pf_yuv planes;
    pf_color_code code;
    pf_color_opts color;
    /* PF_VIDEO_CONVERT_SWSCALE: the BGR24 frame the plan ran on (full
     * size, valid until the batch is released); the tensor sample equals
     * pf_preprocess_run(plan, ..., &bgr, ...) with swap_rb inverted.
     * Zeroed in the fused mode. */
    pf_image bgr;
} pf_video_frame;

typedef struct pf_video_batch {
    int count;                      /* frames in this batch (1 .. config.batch) */
    pf_tensor tensor;               /* n = config.batch; samples [0, count) are written */
    const pf_video_frame *frames;   /* count entries, in mux order */
} pf_video_batch;

/* Opens every source (demuxer + decoder) before starting any thread, so a
 * missing file (PF_ERR_IO), unreadable container (PF_ERR_CORRUPT_DATA), a
 * file without a video stream, a codec without a decoder in this FFmpeg
 * build or a pixel format outside the list above (PF_ERR_UNSUPPORTED) fail
 * here, naming the source. */
PF_API pf_status pf_video_open(const pf_video_config *config, pf_video **out);

/* The next batch in mux order. wait_ms bounds the wait for its FIRST frame
 * (-1: forever; 0: poll): PF_ERR_TIMEOUT when none came. *batch = NULL
 * with PF_OK when every stream has ended and every frame was delivered.
 * The batch stays valid until pf_video_batch_release; holding more than
 * config.batches_in_flight batches is PF_ERR_INVALID_ARGUMENT. A stream
 * that fails mid-way (corrupt data, I/O) ends and is reported by
 * pf_video_stream_error; the others go on. One consumer thread. */
PF_API pf_status pf_video_next(pf_video *video, pf_video_batch **batch, int wait_ms);
PF_API void pf_video_batch_release(pf_video *video, pf_video_batch *batch);

typedef struct pf_video_stats {
    int64_t frames_decoded;   /* frames out of the decoders */
    int64_t frames_delivered; /* frames written into batches */
    int64_t frames_dropped;   /* real-time mode: frames replaced by a newer one before the mux took them */
    int64_t decode_errors;    /* packets the decoders rejected (they conceal and go on) */
    int64_t batches, partial_batches;
    int32_t streams_ended;    /* streams at their end (failed ones included) */
    int32_t streams_failed;   /* streams stopped by an error (pf_video_stream_error) */
    double decode_ms;         /* decoder threads' busy time (demux + decode), summed */
    double preprocess_ms;     /* time in the fused preprocess (pf_video_next) */
    double wait_ms;           /* time pf_video_next waited for frames (consumer starvation) */
    /* capture-to-tensor latency percentiles over the last 4096 frames */
    double latency_p50_ms, latency_p99_ms, latency_max_ms;
} pf_video_stats;

/* Any thread, while the video is open (a metrics scraper's included): the
 * consumer updates these under the source's lock once per batch. */
PF_API pf_status pf_video_stats_get(const pf_video *video, pf_video_stats *out);

/* One stream's share of pf_video_stats (labels stream="i" in
 * include/pixflow/metrics.h). Latency is over the stream's last
 * PF_VIDEO_STREAM_LAT_WINDOW delivered frames. */
#define PF_VIDEO_STREAM_LAT_WINDOW 512
typedef struct pf_video_stream_stats {
    int64_t frames_decoded, frames_delivered, frames_dropped, decode_errors;
    int32_t ended;            /* 1 once the stream delivered its last frame (failed ones included) */
    int32_t failed;           /* 1 when it stopped on an error (pf_video_stream_error) */
    double decode_ms;         /* its decoder thread's busy time */
    double latency_p50_ms, latency_p99_ms, latency_max_ms; /* 0 before its first frame */
} pf_video_stream_stats;

/* The number of streams (config.nsources); 0 for NULL. */
PF_API int32_t pf_video_stream_count(const pf_video *video);
/* Stream `stream`'s stats, any thread; fails naming the argument for a NULL
 * video/out or a stream outside 0 .. pf_video_stream_count - 1. */
PF_API pf_status pf_video_stream_stats_get(const pf_video *video, int32_t stream, pf_video_stream_stats *out);
/* Why stream i ended early (a sentence), or NULL when it did not fail. */
PF_API const char *pf_video_stream_error(const pf_video *video, int stream);

/* Stops the decoder threads (interrupting blocking reads), joins them and
 * frees everything, including batches not yet released. Safe at any time,
 * mid-stream included; NULL is a no-op. */
PF_API void pf_video_close(pf_video *video);

#ifdef __cplusplus
}
#endif

#endif /* PIXFLOW_VIDEO_H */
