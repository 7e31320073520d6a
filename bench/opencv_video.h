/* The OpenCV video chain for `pixflow bench video`, behind a C interface:
 * cv::VideoCapture (FFmpeg backend) -> cvtColor BGR2RGB -> resize ->
 * copyMakeBorder -> convertTo f32 -> split into a CHW tensor. */
#ifndef PIXFLOW_BENCH_OPENCV_VIDEO_H
#define PIXFLOW_BENCH_OPENCV_VIDEO_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pfb_cv_video_result {
    int frames;
    double wall_s;          /* first read to last tensor */
    double decode_s;        /* summed VideoCapture::read */
    double preprocess_s;    /* summed cvtColor .. split */
    double lat_p50_ms, lat_p99_ms; /* per frame: decoded frame -> tensor written */
} pfb_cv_video_result;

/* Runs the chain over the whole clip into a 640x640-style letterbox of
 * out_w x out_h (pad 114, scale 1/255), cv::setNumThreads(threads).
 * first_tensor (may be NULL): receives frame 0's CHW f32 tensor.
 * Returns 0, or -1 when OpenCV cannot open / read the clip. */
int pfb_cv_video_run(const char *path, int out_w, int out_h, int threads, float *first_tensor,
                     pfb_cv_video_result *out);
/* 1 when this OpenCV build can open videos (videoio with FFmpeg). */
int pfb_cv_video_available(const char *path);

#ifdef __cplusplus
}
#endif

#endif
