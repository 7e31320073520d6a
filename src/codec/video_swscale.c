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
 * take this path; it costs one more pass over the frame. The BGR buffers
 * come from a per-stream pool: a 1080p BGR frame is 6 MB, which malloc
 * would map and fault in afresh for every frame.
 */
#include <libavutil/buffer.h>
#include <libswscale/swscale.h>

#include "video_decoder.h"

/* A BGR24 frame of w x h whose buffer comes from *pool (made, or remade
 * when the frame size changes; a replaced pool lives until its last
 * buffer is returned). Rows are 32-byte aligned, as av_frame_get_buffer's
 * (OpenCV's capture converts into such a frame). */
static int bgr_frame(AVBufferPool **pool, size_t *pool_size, int w, int h, AVFrame *bgr) {
    int stride = (w * 3 + 31) & ~31;
    size_t size = (size_t)stride * (size_t)h;
    if (*pool == NULL || *pool_size != size) {
        av_buffer_pool_uninit(pool);
        *pool = av_buffer_pool_init(size, NULL);
        *pool_size = size;
        if (*pool == NULL) return AVERROR(ENOMEM);
    }
    bgr->buf[0] = av_buffer_pool_get(*pool);
    if (bgr->buf[0] == NULL) return AVERROR(ENOMEM);
    bgr->data[0] = bgr->buf[0]->data;
    bgr->linesize[0] = stride;
    return 0;
}

int pfi_vframe_to_bgr(pfi_vstream *s, const AVFrame *src, AVFrame **out) {
    struct SwsContext **ctx = &s->sws;
    *out = NULL;
    *ctx = sws_getCachedContext(*ctx, src->width, src->height, (enum AVPixelFormat)src->format, src->width,
                                src->height, AV_PIX_FMT_BGR24, SWS_BICUBIC, NULL, NULL, NULL);
    if (*ctx == NULL) return AVERROR(EINVAL);
    AVFrame *bgr = av_frame_alloc();
    if (bgr == NULL) return AVERROR(ENOMEM);
    bgr->format = AV_PIX_FMT_BGR24;
    bgr->width = src->width;
    bgr->height = src->height;
    int err = bgr_frame(&s->bgr_pool, &s->bgr_pool_size, src->width, src->height, bgr);
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
    av_buffer_pool_uninit(&s->bgr_pool); /* frames still held keep it until they are freed */
}
