/*
 * The FFmpeg video source on clips generated at test time with the ffmpeg
 * CLI (testsrc2 patterns) into the build dir:
 *   - frame count, order and pts per codec (H.264 / H.265 / VP9 / MJPEG /
 *     MPEG-4 / raw NV12; a codec whose encoder the CLI lacks is skipped,
 *     saying so), 320x240 and 1280x720;
 *   - each tensor sample == pf_cvt_color_from_yuv -> pf_preprocess_run on
 *     the batch's own decoded planes, bit for bit (I420 and NV12 frames);
 *   - 16 streams of different lengths muxed round-robin (exact sequence);
 *   - real-time mode: drops counted (delivered + dropped == decoded),
 *     indices increasing; paced without real-time: no drops;
 *   - partial batches by timeout, PF_ERR_TIMEOUT, end of stream;
 *   - errors: missing file, garbage, no video stream, unsupported pixel
 *     format, corrupt and truncated streams (no hang, clear messages);
 *   - close mid-stream 50 times (ASan builds check the leaks).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pixflow/pixflow.h"
#include "skip_policy.h"
#include "test_util.h"

#ifndef PF_FFMPEG_CLI
#  define PF_FFMPEG_CLI ""
#endif

static char g_dir[1024];

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A codec case the local ffmpeg cannot encode: said, and a failure in CI
 * (Debian's ffmpeg has every encoder used here). */
static void skipped_case(const char *why) {
    if (pft_in_ci()) {
        pft_fail++;
        printf("  FAILED (CI=true, a skip is a failure): %s\n", why);
    } else {
        printf("  SKIP %s\n", why);
    }
}

static int has_encoder(const char *name) {
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "'%s' -hide_banner -encoders 2>/dev/null | grep -q ' %s '", PF_FFMPEG_CLI, name);
    return system(cmd) == 0;
}

/* Generates g_dir/name with `ffmpeg <args> OUT` once (tmp + rename, so
 * parallel test runs never see half a file). Returns the path or NULL. */
static const char *gen(const char *name, const char *args) {
    static char paths[32][1200];
    static int npaths;
    char *path = paths[npaths++ % 32];
    snprintf(path, 1200, "%s/%s", g_dir, name);
    if (access(path, R_OK) == 0) return path;
    char tmp[1300], cmd[4096];
    const char *ext = strrchr(name, '.');
    snprintf(tmp, sizeof tmp, "%s/tmp_%d_%s", g_dir, (int)getpid(), name);
    snprintf(cmd, sizeof cmd, "'%s' -hide_banner -loglevel error -nostdin -y %s -f %s '%s'", PF_FFMPEG_CLI, args,
             strcmp(ext, ".mp4") == 0 ? "mp4" : strcmp(ext, ".mkv") == 0 ? "matroska" : strcmp(ext, ".webm") == 0 ? "webm"
             : strcmp(ext, ".avi") == 0 ? "avi" : strcmp(ext, ".nut") == 0 ? "nut" : strcmp(ext, ".wav") == 0 ? "wav"
             : "h264", tmp);
    if (system(cmd) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "could not generate %s with: %s\n", name, cmd);
        remove(tmp);
        return NULL;
    }
    return path;
}

static const char *h264_or_fallback(void) { return has_encoder("libx264") ? "-c:v libx264 -preset ultrafast" : "-c:v mpeg4"; }

static pf_video_config small_config(const char *const *paths, int n, int batch) {
    pf_video_config c = pf_video_config_defaults();
    c.sources = paths;
    c.nsources = n;
    c.batch = batch;
    c.desc.out_width = c.desc.out_height = 64; /* fast tests: a 64x64 letterbox */
    return c;
}

/* Drains a source; checks order, pts and (optionally) exactness. Returns
 * the frames delivered. */
static int drain_checked(pf_video *v, int nstreams, int exact, const pf_preprocess_desc *desc) {
    int64_t last_index[PF_VIDEO_MAX_SOURCES];
    int64_t last_pts[PF_VIDEO_MAX_SOURCES];
    for (int s = 0; s < nstreams; s++) last_index[s] = -1, last_pts[s] = INT64_MIN;
    pf_preprocess_plan *plan = NULL;
    if (exact) CHECK_STATUS(pf_preprocess_plan_create(desc, &plan), PF_OK);
    int total = 0, order_ok = 1, pts_ok = 1, exact_ok = 1;
    pf_video_batch *b;
    for (;;) {
        pf_status st = pf_video_next(v, &b, 10000);
        CHECK_STATUS(st, PF_OK);
        if (st != PF_OK || b == NULL) break;
        for (int i = 0; i < b->count; i++) {
            const pf_video_frame *f = &b->frames[i];
            if (f->frame_index != last_index[f->stream] + 1) order_ok = 0;
            if (f->pts == INT64_MIN || f->pts <= last_pts[f->stream]) pts_ok = 0;
            last_index[f->stream] = f->frame_index;
            last_pts[f->stream] = f->pts;
            if (!exact) continue;
            /* decode -> cvt -> preprocess on the batch's own planes */
            int w = f->width, h = f->height;
            unsigned char *rgb = malloc((size_t)w * h * 3);
            pf_image img = pf_image_hwc(rgb, w, h, 3, PF_U8, 0);
            size_t sb = pf_tensor_packed_size(1, 3, desc->out_height, desc->out_width, desc->out_dtype);
            unsigned char *out = malloc(sb);
            pf_tensor t = pf_tensor_nchw(out, 1, 3, desc->out_height, desc->out_width, desc->out_dtype);
            CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f->planes, &img, f->code, &f->color), PF_OK);
            CHECK_STATUS(pf_preprocess_run(plan, NULL, 1, &img, NULL, &t, NULL), PF_OK);
            const unsigned char *got = (const unsigned char *)b->tensor.data + (ptrdiff_t)i * b->tensor.sample_stride;
            if (memcmp(got, out, sb) != 0) exact_ok = 0;
            free(rgb);
            free(out);
        }
        total += b->count;
        pf_video_batch_release(v, b);
    }
    CHECK(order_ok);
    CHECK(pts_ok);
    CHECK(exact_ok);
    pf_preprocess_plan_destroy(plan);
    return total;
}

static void codec_case(const char *label, const char *name, const char *args, int frames, int exact) {
    const char *path = gen(name, args);
    CHECK(path != NULL);
    if (path == NULL) return;
    pf_video_config c = small_config(&path, 1, 5);
    pf_video *v = NULL;
    CHECK_STATUS(pf_video_open(&c, &v), PF_OK);
    if (v == NULL) return;
    int got = drain_checked(v, 1, exact, &c.desc);
    if (got != frames) fprintf(stderr, "%s: %d frames, want %d\n", label, got, frames);
    CHECK(got == frames);
    pf_video_stats s;
    CHECK_STATUS(pf_video_stats_get(v, &s), PF_OK);
    CHECK(s.frames_decoded == frames && s.frames_delivered == frames && s.frames_dropped == 0);
    CHECK(s.batches == (frames + 4) / 5 && s.partial_batches == (frames % 5 != 0));
    CHECK(s.streams_ended == 1 && s.streams_failed == 0);
    CHECK(pf_video_stream_error(v, 0) == NULL);
    pf_video_close(v);
    printf("  %-34s %d frames ok%s\n", label, got, exact ? ", fused == cvt -> preprocess" : "");
}

static void codecs(void) {
    if (!has_encoder("libx264")) skipped_case("H.264: this ffmpeg has no libx264 encoder (MPEG-4 stands in)");
    char args[512];
    snprintf(args, sizeof args, "-f lavfi -i testsrc2=size=320x240:rate=25 -frames:v 64 %s -g 12 -pix_fmt yuv420p",
             h264_or_fallback());
    codec_case(has_encoder("libx264") ? "H.264 320x240 (libx264, B-frames)" : "MPEG-4 320x240 (no libx264)",
               "h264_320.mp4", args, 64, 1);
    snprintf(args, sizeof args, "-f lavfi -i testsrc2=size=1280x720:rate=30 -frames:v 64 %s -pix_fmt yuv420p",
             h264_or_fallback());
    codec_case("H.264 1280x720", "h264_720.mp4", args, 64, 1);
    codec_case("raw NV12 (nut)", "nv12_raw.nut",
               "-f lavfi -i testsrc2=size=320x240:rate=25 -frames:v 64 -c:v rawvideo -pix_fmt nv12", 64, 1);
    codec_case("MJPEG (yuvj420p, full range)", "mjpeg.avi",
               "-f lavfi -i testsrc2=size=320x240:rate=25 -frames:v 64 -c:v mjpeg -pix_fmt yuvj420p -q:v 5", 64, 1);
    if (has_encoder("libx265"))
        codec_case("H.265 (libx265)", "hevc.mp4",
                   "-f lavfi -i testsrc2=size=320x240:rate=25 -frames:v 64 -c:v libx265 -preset ultrafast "
                   "-x265-params log-level=error -pix_fmt yuv420p -tag:v hvc1",
                   64, 0);
    else
        skipped_case("H.265: this ffmpeg has no libx265 encoder");
    if (has_encoder("libvpx-vp9"))
        codec_case("VP9 (libvpx-vp9)", "vp9.webm",
                   "-f lavfi -i testsrc2=size=320x240:rate=25 -frames:v 64 -c:v libvpx-vp9 -deadline realtime "
                   "-cpu-used 8 -pix_fmt yuv420p",
                   64, 0);
    else
        skipped_case("VP9: this ffmpeg has no libvpx-vp9 encoder");
    codec_case("MPEG-4 part 2", "mpeg4.mkv",
               "-f lavfi -i testsrc2=size=320x240:rate=25 -frames:v 64 -c:v mpeg4 -pix_fmt yuv420p", 64, 0);
}

/* 16 files of 8..23 frames: the mux takes one frame per stream per turn,
 * streams that ended drop out; the sequence is the same for any batch. */
static void mux16(void) {
    enum { NS = 16 };
    const char *paths[NS];
    int len[NS];
    for (int s = 0; s < NS; s++) {
        char name[64], args[512];
        len[s] = 8 + s;
        snprintf(name, sizeof name, "mux_%02d.mp4", s);
        snprintf(args, sizeof args, "-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v %d %s -pix_fmt yuv420p",
                 len[s], h264_or_fallback());
        paths[s] = gen(name, args);
        CHECK(paths[s] != NULL);
        if (paths[s] == NULL) return;
    }
    /* expected sequence: rounds over the streams still running */
    int want_stream[512], want_index[512], n = 0;
    for (int r = 0; r < 8 + NS; r++)
        for (int s = 0; s < NS; s++)
            if (r < len[s]) want_stream[n] = s, want_index[n++] = r;
    const int batches[] = {16, 7, 1};
    for (int bi = 0; bi < 3; bi++) {
        pf_video_config c = small_config(paths, NS, batches[bi]);
        c.desc.out_width = c.desc.out_height = 32;
        pf_video *v = NULL;
        CHECK_STATUS(pf_video_open(&c, &v), PF_OK);
        if (v == NULL) return;
        int k = 0, ok = 1;
        pf_video_batch *b;
        while (pf_video_next(v, &b, 10000) == PF_OK && b != NULL) {
            for (int i = 0; i < b->count; i++, k++)
                if (k >= n || b->frames[i].stream != want_stream[k] || b->frames[i].frame_index != want_index[k]) {
                    if (ok)
                        fprintf(stderr, "mux batch %d: item %d is (stream %d, frame %lld), want (%d, %d)\n",
                                batches[bi], k, b->frames[i].stream, (long long)b->frames[i].frame_index,
                                k < n ? want_stream[k] : -1, k < n ? want_index[k] : -1);
                    ok = 0;
                }
            pf_video_batch_release(v, b);
        }
        CHECK(ok && k == n);
        pf_video_close(v);
    }
    printf("  16-stream round-robin mux: %d frames in order for batch 16, 7, 1\n", n);
}

/* A 100 fps clip released at its pts: a consumer taking one frame every
 * 30 ms must see drops in real-time mode and none otherwise. */
static void realtime_drops(void) {
    char args[512];
    snprintf(args, sizeof args, "-f lavfi -i testsrc2=size=160x120:rate=100 -frames:v 64 %s -pix_fmt yuv420p",
             h264_or_fallback());
    const char *path = gen("fast100.mp4", args);
    CHECK(path != NULL);
    if (path == NULL) return;
    for (int rt = 1; rt >= 0; rt--) {
        pf_video_config c = small_config(&path, 1, 1);
        c.realtime = rt;
        c.pace = true;
        pf_video *v = NULL;
        CHECK_STATUS(pf_video_open(&c, &v), PF_OK);
        if (v == NULL) return;
        int64_t last = -1;
        int increasing = 1, got = 0;
        pf_video_batch *b;
        while (pf_video_next(v, &b, 10000) == PF_OK && b != NULL) {
            if (b->frames[0].frame_index <= last) increasing = 0;
            last = b->frames[0].frame_index;
            got++;
            pf_video_batch_release(v, b);
            struct timespec ts = {0, 30 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        pf_video_stats s;
        CHECK_STATUS(pf_video_stats_get(v, &s), PF_OK);
        CHECK(increasing);
        CHECK(s.frames_decoded == 64);
        CHECK(s.frames_delivered == got);
        CHECK(s.frames_delivered + s.frames_dropped == s.frames_decoded);
        if (rt) CHECK(s.frames_dropped > 0 && last == 63); /* the newest frame always survives */
        else CHECK(s.frames_dropped == 0 && got == 64);
        CHECK(s.latency_p50_ms >= 0.0 && s.latency_p99_ms >= s.latency_p50_ms);
        printf("  %s paced 100 fps, consumer 33 fps: %lld delivered, %lld dropped, latency p50 %.1f ms p99 %.1f ms\n",
               rt ? "real-time" : "queued   ", (long long)s.frames_delivered, (long long)s.frames_dropped,
               s.latency_p50_ms, s.latency_p99_ms);
        pf_video_close(v);
    }
}

static void timeouts(void) {
    char args[512];
    snprintf(args, sizeof args, "-f lavfi -i testsrc2=size=160x120:rate=100 -frames:v 64 %s -pix_fmt yuv420p",
             h264_or_fallback());
    const char *path = gen("fast100.mp4", args);
    if (path == NULL) return;
    /* batches of 8 with a 3 ms push timeout at 100 fps: partial batches */
    pf_video_config c = small_config(&path, 1, 8);
    c.pace = true;
    c.batch_timeout_ms = 3;
    pf_video *v = NULL;
    CHECK_STATUS(pf_video_open(&c, &v), PF_OK);
    if (v == NULL) return;
    int total = 0;
    pf_video_batch *b;
    while (pf_video_next(v, &b, 10000) == PF_OK && b != NULL) {
        total += b->count;
        pf_video_batch_release(v, b);
    }
    pf_video_stats s;
    CHECK_STATUS(pf_video_stats_get(v, &s), PF_OK);
    CHECK(total == 64 && s.partial_batches > 0);
    /* after the end: still the end */
    CHECK_STATUS(pf_video_next(v, &b, 0), PF_OK);
    CHECK(b == NULL);
    pf_video_close(v);
    /* 1 fps: the second frame is a second away, a poll times out; close
     * while the decoder sleeps until it returns promptly */
    const char *slow = gen("slow1fps.mp4", "-f lavfi -i testsrc2=size=64x48:rate=1 -frames:v 3 -c:v mjpeg");
    if (slow == NULL) return;
    c = small_config(&slow, 1, 1);
    c.pace = true;
    CHECK_STATUS(pf_video_open(&c, &v), PF_OK);
    if (v == NULL) return;
    CHECK_STATUS(pf_video_next(v, &b, 5000), PF_OK);
    CHECK(b != NULL);
    pf_video_batch *b2;
    CHECK_STATUS(pf_video_next(v, &b2, 0), PF_ERR_TIMEOUT);
    CHECK_MSG("wait_ms");
    /* batches_in_flight (2): a third unreleased one is refused */
    pf_video_batch *b3;
    CHECK_STATUS(pf_video_next(v, &b2, 3000), PF_OK);
    CHECK_STATUS(pf_video_next(v, &b3, 0), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("batches_in_flight");
    double t0 = now_s();
    pf_video_close(v);
    CHECK(now_s() - t0 < 0.5);
}

static void expect_open_fail(const char *path, pf_status want, const char *needle) {
    pf_video_config c = small_config(&path, 1, 1);
    pf_video *v = NULL;
    CHECK_STATUS(pf_video_open(&c, &v), want);
    CHECK(v == NULL);
    CHECK_MSG(needle);
    printf("  open '%s': %s: %s\n", strrchr(path, '/') ? strrchr(path, '/') + 1 : path, pf_status_str(want),
           pf_last_error());
}

static void errors(void) {
    char path[1200];
    snprintf(path, sizeof path, "%s/no_such_file.mp4", g_dir);
    expect_open_fail(path, PF_ERR_IO, "No such file");
    snprintf(path, sizeof path, "%s/garbage.mp4", g_dir);
    FILE *f = fopen(path, "wb");
    uint64_t seed = 42;
    for (int k = 0; k < 20000; k++) fputc((int)(pft_rand(&seed) & 0xff), f);
    fclose(f);
    expect_open_fail(path, PF_ERR_CORRUPT_DATA, "garbage.mp4");
    const char *wav = gen("audio_only.wav", "-f lavfi -i sine=frequency=440:duration=0.2");
    if (wav) expect_open_fail(wav, PF_ERR_UNSUPPORTED, "no video stream");
    if (has_encoder("libx264")) {
        const char *p444 = gen("yuv444.mp4", "-f lavfi -i testsrc2=size=64x48:rate=25 -frames:v 4 -c:v libx264 "
                                              "-preset ultrafast -pix_fmt yuv444p");
        if (p444) expect_open_fail(p444, PF_ERR_UNSUPPORTED, "yuv444p");
    }
    /* bad configuration */
    pf_video_config c = pf_video_config_defaults();
    pf_video *v = NULL;
    CHECK_STATUS(pf_video_open(&c, &v), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("nsources");
    const char *one = path;
    c.sources = &one;
    c.nsources = 1;
    c.batch = 0;
    CHECK_STATUS(pf_video_open(&c, &v), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config->batch");
    c = small_config(&one, 1, 1);
    c.desc.out_width = 0;
    CHECK_STATUS(pf_video_open(&c, &v), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("out_width");
    /* a good source and a missing one: the message names the missing one */
    const char *two[2];
    char args[256];
    snprintf(args, sizeof args, "-f lavfi -i testsrc2=size=320x240:rate=25 -frames:v 64 %s -g 12 -pix_fmt yuv420p",
             h264_or_fallback());
    two[0] = gen("h264_320.mp4", args);
    snprintf(path, sizeof path, "%s/missing_second.mp4", g_dir);
    two[1] = path;
    c = small_config(two, 2, 1);
    CHECK_STATUS(pf_video_open(&c, &v), PF_ERR_IO);
    CHECK_MSG("sources[1]");
    CHECK_STATUS(pf_video_next(NULL, NULL, 0), PF_ERR_INVALID_ARGUMENT);
    pf_video_close(NULL);
}

/* Damaged streams: garbage over the middle of a raw H.264 stream, and an
 * MP4 cut in half. Decoding must end (no hang), deliver what it can, and
 * never crash; a failure is reported by pf_video_stream_error. */
static void corrupt_streams(void) {
    char args[512];
    snprintf(args, sizeof args, "-f lavfi -i testsrc2=size=320x240:rate=25 -frames:v 64 %s -pix_fmt yuv420p",
             has_encoder("libx264") ? "-c:v libx264 -preset ultrafast" : "-c:v mpeg4");
    const char *raw = gen(has_encoder("libx264") ? "clean.h264" : "clean_mpeg4.avi", args);
    char fargs[600];
    snprintf(fargs, sizeof fargs, "%s -movflags +faststart", args); /* index first: the cut loses frames, not the index */
    const char *mp4 = gen("faststart.mp4", fargs);
    if (raw == NULL || mp4 == NULL) return;
    const char *src[2] = {raw, mp4};
    const char *dst[2] = {"damaged.h264", "truncated.mp4"};
    for (int k = 0; k < 2; k++) {
        FILE *in = fopen(src[k], "rb");
        fseek(in, 0, SEEK_END);
        long n = ftell(in);
        fseek(in, 0, SEEK_SET);
        unsigned char *buf = malloc((size_t)n);
        CHECK(fread(buf, 1, (size_t)n, in) == (size_t)n);
        fclose(in);
        long keep = n;
        if (k == 0) {
            uint64_t seed = 7;
            for (long i = n / 3; i < n / 3 + n / 4; i++) buf[i] = (unsigned char)pft_rand(&seed);
        } else {
            keep = n / 2;
        }
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", g_dir, dst[k]);
        FILE *out = fopen(path, "wb");
        fwrite(buf, 1, (size_t)keep, out);
        fclose(out);
        free(buf);
        const char *p = path;
        pf_video_config c = small_config(&p, 1, 4);
        pf_video *v = NULL;
        pf_status st = pf_video_open(&c, &v);
        if (st != PF_OK) { /* refusing at open is fine too, with a message naming the file */
            CHECK(st == PF_ERR_CORRUPT_DATA || st == PF_ERR_IO);
            CHECK_MSG(dst[k]);
            printf("  %s: refused at open: %s\n", dst[k], pf_last_error());
            continue;
        }
        int total = 0;
        pf_video_batch *b;
        while ((st = pf_video_next(v, &b, 10000)) == PF_OK && b != NULL) {
            total += b->count;
            pf_video_batch_release(v, b);
        }
        CHECK_STATUS(st, PF_OK);
        pf_video_stats s;
        CHECK_STATUS(pf_video_stats_get(v, &s), PF_OK);
        CHECK(total >= 1 && total <= 64 && s.streams_ended == 1);
        const char *why = pf_video_stream_error(v, 0);
        printf("  %s: %d of 64 frames, %lld decode errors, %s\n", dst[k], total, (long long)s.decode_errors,
               why ? why : "ended without a stream error");
        pf_video_close(v);
    }
}

/* Close at random points mid-stream (decoders running, queues full,
 * batches held), 50 times, 4 streams each. */
static void close_mid_stream(void) {
    char args[512];
    snprintf(args, sizeof args, "-f lavfi -i testsrc2=size=320x240:rate=25 -frames:v 64 %s -g 12 -pix_fmt yuv420p",
             h264_or_fallback());
    const char *p = gen("h264_320.mp4", args);
    if (p == NULL) return;
    const char *paths[4] = {p, p, p, p};
    uint64_t seed = 99;
    double worst = 0;
    for (int r = 0; r < 50; r++) {
        pf_video_config c = small_config(paths, 4, 3);
        c.realtime = r % 3 == 0;
        c.pace = r % 5 == 0;
        pf_video *v = NULL;
        CHECK_STATUS(pf_video_open(&c, &v), PF_OK);
        if (v == NULL) return;
        int take = (int)(pft_rand(&seed) % 6);
        pf_video_batch *b = NULL;
        for (int k = 0; k < take; k++) {
            if (pf_video_next(v, &b, 10000) != PF_OK || b == NULL) break;
            if (k + 1 < take) pf_video_batch_release(v, b); /* the last one stays held */
        }
        double t0 = now_s();
        pf_video_close(v);
        double dt = now_s() - t0;
        if (dt > worst) worst = dt;
    }
    CHECK(worst < 2.0);
    printf("  close mid-stream x50: slowest close %.1f ms\n", worst * 1e3);
}

/* PF_VIDEO_CONVERT_SWSCALE: every frame carries its libswscale BGR image
 * (full size), the tensor is the plan run on that image (swap_rb keeps
 * its meaning: RGB out), and that image is the same picture as pixflow's
 * own conversion (within swscale's rounding: its fixed-point matrix and
 * chroma interpolation differ by a few units; cv2.VideoCapture equality is
 * tests/python/test_video_swscale.py's). Real-time drops free the BGR
 * frames too (the ASan run checks). A bad mode is refused by name. */
static void swscale_mode(void) {
    char args[512];
    snprintf(args, sizeof args, "-f lavfi -i testsrc2=size=320x240:rate=25 -frames:v 12 %s -pix_fmt yuv420p",
             h264_or_fallback());
    const char *path = gen("swscale.mp4", args);
    CHECK(path != NULL);
    if (path == NULL) return;
    pf_video_config c = small_config(&path, 1, 4);
    c.convert = PF_VIDEO_CONVERT_SWSCALE;
    pf_preprocess_desc bgr_desc = c.desc;
    bgr_desc.swap_rb = !bgr_desc.swap_rb;
    pf_preprocess_plan *plan = NULL;
    CHECK_STATUS(pf_preprocess_plan_create(&bgr_desc, &plan), PF_OK);
    pf_video *v = NULL;
    CHECK_STATUS(pf_video_open(&c, &v), PF_OK);
    if (v == NULL || plan == NULL) {
        pf_preprocess_plan_destroy(plan);
        return;
    }
    size_t sb = pf_tensor_packed_size(1, 3, c.desc.out_height, c.desc.out_width, c.desc.out_dtype);
    unsigned char *out = malloc(sb), *rgb = malloc(320 * 240 * 3);
    int frames = 0, exact_ok = 1, size_ok = 1, max_diff = 0;
    pf_video_batch *b;
    while (pf_video_next(v, &b, 10000) == PF_OK && b != NULL) {
        for (int i = 0; i < b->count; i++) {
            const pf_video_frame *f = &b->frames[i];
            if (f->bgr.data == NULL || f->bgr.width != 320 || f->bgr.height != 240 || f->width != 320) size_ok = 0;
            if (f->bgr.data == NULL) continue;
            pf_tensor t = pf_tensor_nchw(out, 1, 3, c.desc.out_height, c.desc.out_width, c.desc.out_dtype);
            /* a local copy: gcc's -Wstringop-overread (the sanitizer build)
             * misreads a pointer into the frame record as an 8-byte region */
            pf_image src = f->bgr;
            pf_aug_params id = pf_aug_params_identity();
            pf_letterbox_info li;
            CHECK_STATUS(pf_preprocess_run(plan, NULL, 1, &src, &id, &t, &li), PF_OK);
            if (memcmp((const unsigned char *)b->tensor.data + (ptrdiff_t)i * b->tensor.sample_stride, out, sb) != 0)
                exact_ok = 0;
            pf_image img = pf_image_hwc(rgb, 320, 240, 3, PF_U8, 0);
            CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &f->planes, &img, f->code, &f->color), PF_OK);
            for (int y = 0; y < 240; y++) {
                const unsigned char *p = (const unsigned char *)f->bgr.data + (ptrdiff_t)y * f->bgr.row_stride;
                for (int x = 0; x < 320; x++)
                    for (int ch = 0; ch < 3; ch++) {
                        int d = abs((int)p[x * 3 + ch] - (int)rgb[(y * 320 + x) * 3 + 2 - ch]);
                        if (d > max_diff) max_diff = d;
                    }
            }
        }
        frames += b->count;
        pf_video_batch_release(v, b);
    }
    pf_video_close(v);
    printf("  %-34s %d frames, tensor == plan(bgr), max |swscale - pixflow| %d\n", "swscale convert", frames,
           max_diff);
    CHECK(frames == 12);
    CHECK(size_ok);
    CHECK(exact_ok);
    /* chroma upsampling differs at colour edges (testsrc2 has sharp ones): a
     * wrong matrix or channel order would be off by ~100 (3 measured) */
    CHECK(max_diff <= 8);
    /* real-time: the one-frame queue replaces (and frees) frames */
    c.realtime = true;
    c.queue_depth = 1;
    CHECK_STATUS(pf_video_open(&c, &v), PF_OK);
    if (v != NULL) {
        pf_video_batch *rb = NULL;
        CHECK_STATUS(pf_video_next(v, &rb, 10000), PF_OK);
        if (rb != NULL) pf_video_batch_release(v, rb);
        pf_video_close(v);
    }
    c.realtime = false;
    c.convert = (pf_video_convert)7;
    CHECK_STATUS(pf_video_open(&c, &v), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("config->convert");
    free(out);
    free(rgb);
    pf_preprocess_plan_destroy(plan);
}

int main(void) {
    if (PF_FFMPEG_CLI[0] == '\0' || access(PF_FFMPEG_CLI, X_OK) != 0) {
        return pft_skip("video_source", "no ffmpeg CLI to generate test videos (apt-get install ffmpeg)");
    }
    snprintf(g_dir, sizeof g_dir, "%s", PF_VIDEO_TEST_DIR);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", g_dir);
    if (system(cmd) != 0) return 1;
    codecs();
    mux16();
    realtime_drops();
    timeouts();
    errors();
    corrupt_streams();
    close_mid_stream();
    swscale_mode();
    return pft_summary("video_source");
}
