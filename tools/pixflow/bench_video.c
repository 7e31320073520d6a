/* pixflow bench video: a 1080p H.264 clip (300 frames of testsrc2,
 * generated once with the ffmpeg CLI into the build dir) -> 640x640
 * letterboxed CHW f32 (the "yolo" recipe), one frame per batch: frames/s,
 * capture-to-tensor latency p50/p99, and decode vs preprocess time per
 * frame; against OpenCV's cv::VideoCapture + cvtColor + resize +
 * copyMakeBorder + convertTo + split in the same process (when OpenCV's
 * videoio can open the clip). 1 and 2 threads (pixflow: preprocess stream
 * threads; OpenCV: cv::setNumThreads); the decoders choose their own
 * threads on both sides. The first frame's tensors are compared. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "pixflow/pixflow.h"
#include "timing.h"

#ifdef PF_HAVE_VIDEO

#ifdef PF_BENCH_OPENCV
#include "opencv_video.h"
#endif

#define OUT 640
#define FRAMES 300

typedef struct pf_result {
    int frames;
    double wall_s, decode_ms, preprocess_ms, p50, p99;
} pf_result;

static const char *clip_path(char *buf, size_t n) {
#ifdef PF_BENCH_WORK_DIR
    snprintf(buf, n, "%s/bench_1080p_h264_300.mp4", PF_BENCH_WORK_DIR);
#else
    snprintf(buf, n, "bench_1080p_h264_300.mp4");
#endif
    if (access(buf, R_OK) == 0) return buf;
#ifdef PF_FFMPEG_CLI
    char cmd[4096], tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp%d.mp4", buf, (int)getpid());
    printf("generating %s (once) ...\n", buf);
    fflush(stdout);
#ifdef PF_BENCH_WORK_DIR
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", PF_BENCH_WORK_DIR);
    if (system(cmd) != 0) return NULL;
#endif
    snprintf(cmd, sizeof cmd,
             "'%s' -hide_banner -loglevel error -nostdin -y -f lavfi -i testsrc2=size=1920x1080:rate=30 "
             "-frames:v %d -c:v libx264 -preset veryfast -crf 23 -pix_fmt yuv420p '%s' && mv '%s' '%s'",
             PF_FFMPEG_CLI, FRAMES, tmp, tmp, buf);
    if (system(cmd) == 0 && access(buf, R_OK) == 0) return buf;
    fprintf(stderr, "bench video: could not generate the clip with: %s\n", cmd);
#else
    fprintf(stderr, "bench video: %s is missing and no ffmpeg CLI was found at configure time\n", buf);
#endif
    return NULL;
}

static int run_pixflow(const char *path, int threads, pf_video_convert convert, float *first, pf_result *r) {
    pf_video_config c = pf_video_config_defaults(); /* yolo: 640x640 letterbox, pad 114, /255, CHW f32 */
    c.sources = &path;
    c.nsources = 1;
    c.batch = 1;
    c.threads = threads;
    c.convert = convert;
    pf_video *v = NULL;
    if (pf_video_open(&c, &v) != PF_OK) {
        fprintf(stderr, "bench video: %s\n", pf_last_error());
        return -1;
    }
    memset(r, 0, sizeof *r);
    double t0 = bench_now_sec();
    pf_video_batch *b;
    pf_status st;
    while ((st = pf_video_next(v, &b, -1)) == PF_OK && b != NULL) {
        if (r->frames == 0 && first) memcpy(first, b->tensor.data, (size_t)3 * OUT * OUT * sizeof(float));
        r->frames += b->count;
        pf_video_batch_release(v, b);
    }
    r->wall_s = bench_now_sec() - t0;
    pf_video_stats s;
    pf_video_stats_get(v, &s);
    r->decode_ms = s.decode_ms / (r->frames ? r->frames : 1);
    r->preprocess_ms = s.preprocess_ms / (r->frames ? r->frames : 1);
    r->p50 = s.latency_p50_ms;
    r->p99 = s.latency_p99_ms;
    if (st != PF_OK) fprintf(stderr, "bench video: %s\n", pf_last_error());
    pf_video_close(v);
    return st == PF_OK && r->frames == FRAMES ? 0 : -1;
}

static int cmp_pf(const void *a, const void *b) {
    double x = ((const pf_result *)a)->wall_s, y = ((const pf_result *)b)->wall_s;
    return (x > y) - (x < y);
}

static void print_row(const char *who, int threads, int frames, double wall, double dec, double pre, double p50,
                      double p99) {
    printf("%-9s %7d %9.1f %10.2f %12.2f %9.2f %9.2f\n", who, threads, frames / wall, dec, pre, p50, p99);
}

int bench_video(int argc, char **argv) {
    int rounds = 3;
    const char *data = NULL;
    if (bench_parse_args(argc, argv, "video", &rounds, &data) != 0) return 2;
    char buf[1024];
    const char *path = clip_path(buf, sizeof buf);
    if (path == NULL) return 1;
    printf("1080p H.264 (%d frames, testsrc2, libx264 veryfast) -> 640x640 letterbox CHW f32, batch 1;\n"
           "median of %d runs (by frames/s). latency: pixflow = decoder output -> tensor written (includes\n"
           "queueing behind decode), OpenCV = read() returned -> tensor written. decode / preprocess: ms per frame\n"
           "(pixflow decode runs on its own thread, overlapped with the preprocess).\n\n",
           FRAMES, rounds);
    printf("%-9s %7s %9s %10s %12s %9s %9s\n", "impl", "threads", "frames/s", "decode ms", "preprocess ms", "p50 ms",
           "p99 ms");
    float *pf_first = malloc((size_t)3 * OUT * OUT * sizeof(float));
    float *cv_first = malloc((size_t)3 * OUT * OUT * sizeof(float));
    float *sws_first = malloc((size_t)3 * OUT * OUT * sizeof(float));
    int rc = 0;
    pf_result *runs = malloc((size_t)(rounds > 64 ? 64 : rounds) * sizeof *runs);
    if (rounds > 64) rounds = 64;
    for (int threads = 1; threads <= 2; threads++) {
        for (int k = 0; k < rounds; k++)
            if (run_pixflow(path, threads, PF_VIDEO_CONVERT_FUSED, k == 0 ? pf_first : NULL, &runs[k]) != 0) rc = 1;
        qsort(runs, (size_t)rounds, sizeof *runs, cmp_pf);
        pf_result m = runs[rounds / 2];
        print_row("pixflow", threads, m.frames, m.wall_s, m.decode_ms, m.preprocess_ms, m.p50, m.p99);
        /* convert = swscale: cv2.VideoCapture's pixels (its decode column
         * includes the libswscale pass on the decoder thread) */
        for (int k = 0; k < rounds; k++)
            if (run_pixflow(path, threads, PF_VIDEO_CONVERT_SWSCALE, k == 0 ? sws_first : NULL, &runs[k]) != 0) rc = 1;
        qsort(runs, (size_t)rounds, sizeof *runs, cmp_pf);
        pf_result ms = runs[rounds / 2];
        print_row("pf-sws", threads, ms.frames, ms.wall_s, ms.decode_ms, ms.preprocess_ms, ms.p50, ms.p99);
#ifdef PF_BENCH_OPENCV
        if (!pfb_cv_video_available(path)) {
            printf("%-9s %7d   (OpenCV's videoio cannot open the clip: pixflow alone)\n", "opencv", threads);
            continue;
        }
        pfb_cv_video_result cr[64];
        for (int k = 0; k < rounds; k++)
            if (pfb_cv_video_run(path, OUT, OUT, threads, k == 0 ? cv_first : NULL, &cr[k]) != 0) rc = 1;
        /* median by wall time */
        for (int a = 1; a < rounds; a++)
            for (int b2 = a; b2 > 0 && cr[b2].wall_s < cr[b2 - 1].wall_s; b2--) {
                pfb_cv_video_result t = cr[b2];
                cr[b2] = cr[b2 - 1];
                cr[b2 - 1] = t;
            }
        pfb_cv_video_result c = cr[rounds / 2];
        print_row("opencv", threads, c.frames, c.wall_s, c.decode_s * 1e3 / c.frames, c.preprocess_s * 1e3 / c.frames,
                  c.lat_p50_ms, c.lat_p99_ms);
        printf("%-9s %7d %8.2fx (pf-sws %.2fx)\n", "ratio", threads, (m.frames / m.wall_s) / (c.frames / c.wall_s),
               (ms.frames / ms.wall_s) / (c.frames / c.wall_s));
        if (threads == 1) {
            /* OpenCV converts YUV -> BGR with swscale (its own rounding),
             * pixflow with OpenCV's cvtColor BT.601 fixed point: not the
             * same bits; report how far apart frame 0 is, in u8 steps. */
            double md = 0, sum = 0, mds = 0;
            size_t n = (size_t)3 * OUT * OUT;
            for (size_t i = 0; i < n; i++) {
                double d = fabs((double)pf_first[i] - (double)cv_first[i]) * 255.0;
                double ds = fabs((double)sws_first[i] - (double)cv_first[i]) * 255.0;
                sum += d;
                if (d > md) md = d;
                if (ds > mds) mds = ds;
            }
            printf("frame 0, pixflow vs OpenCV tensor: max |diff| %.2f, mean %.3f (u8 steps; YUV->RGB "
                   "differs: swscale vs cvtColor); pf-sws vs OpenCV: max |diff| %.2f\n",
                   md, sum / (double)n, mds);
        }
#endif
    }
    free(runs);
    free(pf_first);
    free(cv_first);
    free(sws_first);
    return rc;
}

#else /* !PF_HAVE_VIDEO */

int bench_video(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "pixflow bench video: this pixflow was built with -DPIXFLOW_VIDEO=OFF (no FFmpeg)\n");
    return 1;
}

#endif
