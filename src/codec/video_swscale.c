/*
 * PF_VIDEO_CONVERT_SWSCALE: a decoded frame converted to BGR24 by FFmpeg's
 * libswscale the way OpenCV's VideoCapture (its FFmpeg backend) converts
 * it: the same size, SWS_BICUBIC (no scaling happens, so the flag matters
 * only through the code path swscale picks), into a frame buffer of
 * av_frame_get_buffer's 32-byte alignment. Why not pixflow's own YUV
 * kernels: the usual detector app reads frames through cv2.VideoCapture,
 * and swscale's fixed-point YUV -> RGB (and its chroma siting) differs
 * from cvtColor's by a unit here and there. Users who must feed a model
 * the usual app's exact pixels (to reproduce its detections box for box)
 * take this path; it costs one more pass over the frame.
 */
#include <libswscale/swscale.h>

#include "video_decoder.h"

int pfi_vframe_to_bgr(struct SwsContext **ctx, const AVFrame *src, AVFrame **out) {
    *out = NULL;
    *ctx = sws_getCachedContext(*ctx, src->width, src->height, (enum AVPixelFormat)src->format, src->width,
                                src->height, AV_PIX_FMT_BGR24, SWS_BICUBIC, NULL, NULL, NULL);
    if (*ctx == NULL) return AVERROR(EINVAL);
    AVFrame *bgr = av_frame_alloc();
    if (bgr == NULL) return AVERROR(ENOMEM);
    bgr->format = AV_PIX_FMT_BGR24;
    bgr->width = src->width;
    bgr->height = src->height;
    int err = av_frame_get_buffer(bgr, 32);
    if (err >= 0) {
        err = sws_scale(*ctx, (const uint8_t *const *)src->data, src->linesize, 0, src->height, bgr->data,
                        bgr->linesize);
        if (err > 0) err = 0;
        else if (err == 0) err = AVERROR(EINVAL); /* no rows written */
    }
    if (err < 0) {
        av_frame_free(&bgr);
        return err;
    }
    *out = bgr;
    return 0;
}

void pfi_vframe_clear(pfi_vframe *f) {
    av_frame_free(&f->av);
    av_frame_free(&f->bgr);
}

void pfi_vstream_free_sws(pfi_vstream *s) {
    sws_freeContext(s->sws);
    s->sws = NULL;
}
