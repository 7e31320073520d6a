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
#include <sys/resource.h>
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
    double wall_s, cpu_s, decode_ms, preprocess_ms, p50, p99;
} pf_result;

/* user + system time of the whole process so far */
static double process_cpu_s(void) {
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) != 0) return 0.0;
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

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
    double t0 = bench_now_sec(), c0 = process_cpu_s();
    pf_video_batch *b;
    pf_status st;
    while ((st = pf_video_next(v, &b, -1)) == PF_OK && b != NULL) {
        if (r->frames == 0 && first) memcpy(first, b->tensor.data, (size_t)3 * OUT * OUT * sizeof(float));
        r->frames += b->count;
        pf_video_batch_release(v, b);
    }
    r->wall_s = bench_now_sec() - t0;
    r->cpu_s = process_cpu_s() - c0;
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

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* the run of median frames/s */
static pf_result median_run(const pf_result *runs, int n) {
    double fps[64];
    for (int k = 0; k < n; k++) fps[k] = runs[k].frames / runs[k].wall_s;
    double m = median(fps, n);
    int best = 0;
    for (int k = 1; k < n; k++)
        if (fabs(runs[k].frames / runs[k].wall_s - m) < fabs(runs[best].frames / runs[best].wall_s - m)) best = k;
    return runs[best];
}

static void print_row(const char *who, int threads, const pf_result *r) {
    printf("%-9s %7d %9.1f %8.2f %10.2f %12.2f %9.2f %9.2f\n", who, threads, r->frames / r->wall_s,
           r->cpu_s * 1e3 / r->frames, r->decode_ms, r->preprocess_ms, r->p50, r->p99);
}

enum { CHAIN_FUSED, CHAIN_SWS, CHAIN_CV, CHAINS };

/* One run of chain `which`; returns 0, 1 on a failed run, -1 when OpenCV
 * cannot open the clip. */
static int run_chain(int which, const char *path, int threads, float *first, pf_result *r) {
    if (which == CHAIN_FUSED) return run_pixflow(path, threads, PF_VIDEO_CONVERT_FUSED, first, r) != 0;
    /* convert = swscale: cv2.VideoCapture's pixels (its decode column
     * includes the libswscale pass on the decoder thread) */
    if (which == CHAIN_SWS) return run_pixflow(path, threads, PF_VIDEO_CONVERT_SWSCALE, first, r) != 0;
#ifdef PF_BENCH_OPENCV
    if (!pfb_cv_video_available(path)) return -1;
    pfb_cv_video_result c;
    double c0 = process_cpu_s();
    int bad = pfb_cv_video_run(path, OUT, OUT, threads, first, &c) != 0;
    *r = (pf_result){.frames = c.frames ? c.frames : 1, .wall_s = c.wall_s, .cpu_s = process_cpu_s() - c0,
                     .decode_ms = c.decode_s * 1e3 / (c.frames ? c.frames : 1),
                     .preprocess_ms = c.preprocess_s * 1e3 / (c.frames ? c.frames : 1),
                     .p50 = c.lat_p50_ms, .p99 = c.lat_p99_ms};
    return bad;
#else
    (void)path, (void)threads, (void)first, (void)r;
    return -1;
#endif
}

int bench_video(int argc, char **argv) {
    int rounds = 3;
    const char *data = NULL;
    if (bench_parse_args(argc, argv, "video", &rounds, &data) != 0) return 2;
    if (rounds > 64) rounds = 64;
    char buf[1024];
    const char *path = clip_path(buf, sizeof buf);
    if (path == NULL) return 1;
    printf("1080p H.264 (%d frames, testsrc2, libx264 veryfast) -> 640x640 letterbox CHW f32, batch 1;\n"
           "%d rounds, the three chains alternating in each (order rotated); rows: the run of median frames/s.\n"
           "CPU ms: process CPU time (all threads, decoders included) per frame. latency: pixflow = decoder\n"
           "output -> tensor written (includes queueing behind decode), OpenCV = read() returned -> tensor\n"
           "written. decode / preprocess: ms per frame (pixflow decode runs on its own thread, overlapped with\n"
           "the preprocess).\n\n",
           FRAMES, rounds);
    printf("%-9s %7s %9s %8s %10s %12s %9s %9s\n", "impl", "threads", "frames/s", "CPU ms", "decode ms",
           "preprocess ms", "p50 ms", "p99 ms");
    static const char *names[CHAINS] = {"pixflow", "pf-sws", "opencv"};
    float *first[CHAINS];
    for (int c = 0; c < CHAINS; c++) first[c] = malloc((size_t)3 * OUT * OUT * sizeof(float));
    int rc = 0;
    pf_result runs[CHAINS][64];
    for (int threads = 1; threads <= 2; threads++) {
        int have_cv = 1;
        for (int k = 0; k < rounds; k++)
            for (int j = 0; j < CHAINS; j++) {
                int c = (j + k) % CHAINS;
                if (c == CHAIN_CV && !have_cv) continue;
                int r = run_chain(c, path, threads, threads == 1 && k == 0 ? first[c] : NULL, &runs[c][k]);
                if (r < 0) have_cv = 0;
                else if (r > 0) rc = 1;
            }
        pf_result med[CHAINS];
        for (int c = 0; c < CHAINS; c++) {
            if (c == CHAIN_CV && !have_cv) {
                printf("%-9s %7d   (OpenCV's videoio cannot open the clip: pixflow alone)\n", "opencv", threads);
                continue;
            }
            med[c] = median_run(runs[c], rounds);
            print_row(names[c], threads, &med[c]);
        }
        if (!have_cv) continue;
        /* medians of the per-round ratios to OpenCV */
        double fps_f[64], fps_s[64], cpu_f[64], cpu_s[64];
        for (int k = 0; k < rounds; k++) {
            double cv_fps = runs[CHAIN_CV][k].frames / runs[CHAIN_CV][k].wall_s;
            fps_f[k] = runs[CHAIN_FUSED][k].frames / runs[CHAIN_FUSED][k].wall_s / cv_fps;
            fps_s[k] = runs[CHAIN_SWS][k].frames / runs[CHAIN_SWS][k].wall_s / cv_fps;
            double cv_cpu = runs[CHAIN_CV][k].cpu_s / runs[CHAIN_CV][k].frames;
            cpu_f[k] = cv_cpu / (runs[CHAIN_FUSED][k].cpu_s / runs[CHAIN_FUSED][k].frames);
            cpu_s[k] = cv_cpu / (runs[CHAIN_SWS][k].cpu_s / runs[CHAIN_SWS][k].frames);
        }
        printf("%-9s %7d %8.2fx (pf-sws %.2fx) frames/s; OpenCV's CPU per frame / pixflow's %.2fx (pf-sws %.2fx); "
               "medians of per-round ratios\n",
               "ratio", threads, median(fps_f, rounds), median(fps_s, rounds), median(cpu_f, rounds),
               median(cpu_s, rounds));
    }
#ifdef PF_BENCH_OPENCV
    if (pfb_cv_video_available(path)) {
        /* OpenCV converts YUV -> BGR with swscale (its own rounding),
         * pixflow with OpenCV's cvtColor BT.601 fixed point: not the
         * same bits; report how far apart frame 0 is, in u8 steps. */
        double md = 0, sum = 0, mds = 0;
        size_t n = (size_t)3 * OUT * OUT;
        for (size_t i = 0; i < n; i++) {
            double d = fabs((double)first[CHAIN_FUSED][i] - (double)first[CHAIN_CV][i]) * 255.0;
            double ds = fabs((double)first[CHAIN_SWS][i] - (double)first[CHAIN_CV][i]) * 255.0;
            sum += d;
            if (d > md) md = d;
            if (ds > mds) mds = ds;
        }
        printf("frame 0, pixflow vs OpenCV tensor: max |diff| %.2f, mean %.3f (u8 steps; YUV->RGB "
               "differs: swscale vs cvtColor); pf-sws vs OpenCV: max |diff| %.2f\n",
               md, sum / (double)n, mds);
    }
#endif
    for (int c = 0; c < CHAINS; c++) free(first[c]);
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
