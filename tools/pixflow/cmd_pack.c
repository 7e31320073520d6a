/* pixflow pack SRC OUT.pfpack [--max-side N] [--quality Q] [--raw-below N]
 *                  [--threads N] [--chunk-kib N] [--quiet]
 * Stores a folder, a file list or .tar shards once at training resolution
 * in one file (pixflow/pack.h), with a progress bar on stderr when it is a
 * terminal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "pixflow/pixflow.h"

static void usage(FILE *f) {
    fprintf(f,
            "usage: pixflow pack SOURCE OUT.pfpack [--max-side N] [--quality Q] [--raw-below N]\n"
            "                    [--threads N] [--chunk-kib N] [--quiet]\n"
            "  SOURCE        a folder (ImageFolder labels), a list file (\"path [label]\" lines)\n"
            "                or .tar shards (comma-separated; WebDataset layout)\n"
            "  --max-side N  longer side of the stored JPEGs (default 320; smaller images kept as they are)\n"
            "  --quality Q   JPEG quality of the re-encoded samples, 1..100 (default 90; lossy:\n"
            "                docs/performance.md \"Packed datasets\" gives the PSNR per quality)\n"
            "  --raw-below N store images whose longer side is < N as raw RGB pixels (exact);\n"
            "                a huge N stores everything raw at its original size (default 0)\n"
            "  --threads N   decode/resize/encode threads (default: the CPU count)\n"
            "  --chunk-kib N read-order chunk size (default 1024; the reader shuffles chunks,\n"
            "                then samples within a chunk)\n"
            "  --quiet       no progress bar (it is only drawn when stderr is a terminal)\n"
            "The file is written next to OUT as OUT.tmp.<pid> and renamed when complete.\n"
            "Read it with: pixflow run OUT.pfpack\n");
}

#ifdef PF_HAVE_CODEC
typedef struct progress {
    double t0;
    double last;
} progress;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void on_progress(void *ctx, uint64_t done, uint64_t total) {
    progress *p = ctx;
    double t = now_s();
    if (done != total && t - p->last < 0.1) return; /* ~10 redraws a second */
    p->last = t;
    int width = 30, fill = (int)((double)width * (double)done / (double)(total ? total : 1));
    char bar[32];
    for (int i = 0; i < width; i++) bar[i] = i < fill ? '#' : '.';
    bar[width] = '\0';
    double el = t - p->t0, rate = el > 0 ? (double)done / el : 0;
    fprintf(stderr, "\rpack [%s] %llu/%llu  %.0f samples/s", bar, (unsigned long long)done,
            (unsigned long long)total, rate);
    if (done == total) fputc('\n', stderr);
    fflush(stderr);
}

static int parse_int(const char *flag, const char *v, long lo, long hi, int32_t *out) {
    char *end = NULL;
    long x = v ? strtol(v, &end, 10) : 0;
    if (v == NULL || *v == '\0' || *end != '\0' || x < lo || x > hi) {
        fprintf(stderr, "pixflow pack: %s needs an integer in %ld..%ld (got %s)\n", flag, lo, hi, v ? v : "nothing");
        return -1;
    }
    *out = (int32_t)x;
    return 0;
}

static int ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}
#endif

int cmd_pack(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) {
        usage(stdout);
        return 0;
    }
#ifndef PF_HAVE_CODEC
    fprintf(stderr, "pixflow pack: this pixflow was built without the image codec (-DPIXFLOW_CODEC=OFF)\n");
    return 1;
#else
    pf_pack_opts o = pf_pack_opts_defaults();
    const char *src = NULL, *out = NULL;
    int quiet = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int32_t *dst = NULL;
        long lo = 0, hi = 0x7fffffff;
        if (strcmp(a, "--max-side") == 0) dst = &o.max_side, lo = 1;
        else if (strcmp(a, "--quality") == 0) dst = &o.quality, lo = 1, hi = 100;
        else if (strcmp(a, "--raw-below") == 0) dst = &o.raw_below;
        else if (strcmp(a, "--threads") == 0) dst = &o.threads, hi = 1024;
        else if (strcmp(a, "--chunk-kib") == 0) dst = &o.chunk_kib, lo = 4, hi = 1048576;
        else if (strcmp(a, "--quiet") == 0) {
            quiet = 1;
            continue;
        } else if (a[0] == '-') {
            fprintf(stderr, "pixflow pack: unknown option %s\n", a);
            usage(stderr);
            return 2;
        } else if (src == NULL) {
            src = a;
            continue;
        } else if (out == NULL) {
            out = a;
            continue;
        } else {
            fprintf(stderr, "pixflow pack: one SOURCE and one OUT, got a third argument %s\n", a);
            return 2;
        }
        if (parse_int(a, v, lo, hi, dst) != 0) return 2;
        i++;
    }
    if (src == NULL || out == NULL) {
        usage(stderr);
        return 2;
    }
    pf_source_desc sd;
    memset(&sd, 0, sizeof sd);
    char *shard_list = NULL;
    const char *shards[4096];
    struct stat sb;
    if (stat(src, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        sd.kind = PF_SOURCE_FOLDER;
        sd.path = src;
    } else if (ends_with(src, ".tar") || strstr(src, ".tar,")) {
        shard_list = strdup(src);
        if (shard_list == NULL) return 1;
        int n = 0;
        for (char *s = strtok(shard_list, ","); s && n < 4096; s = strtok(NULL, ",")) shards[n++] = s;
        sd.kind = PF_SOURCE_TAR;
        sd.shards = shards;
        sd.shard_count = n;
    } else {
        sd.kind = PF_SOURCE_FILE_LIST;
        sd.path = src;
    }
    progress pr = {now_s(), 0};
    if (!quiet && isatty(2)) {
        o.progress = on_progress;
        o.progress_ctx = &pr;
    }
    pf_pack_stats st;
    pf_status s = pf_pack_write(&sd, out, &o, &st);
    free(shard_list);
    if (s != PF_OK) {
        fprintf(stderr, "pixflow pack: %s\n", pf_last_error());
        return 1;
    }
    double el = now_s() - pr.t0;
    printf("pixflow pack: %s -> %s: %llu samples (%llu re-encoded at max side %d, quality %d; %llu JPEG kept; %llu raw), "
           "%llu chunks, %.1f MB from %.1f MB, %.2f s\n",
           src, out, (unsigned long long)st.samples, (unsigned long long)st.jpeg_reencoded, (int)o.max_side,
           (int)o.quality, (unsigned long long)st.jpeg_kept, (unsigned long long)st.raw, (unsigned long long)st.chunks,
           (double)st.output_bytes / 1e6, (double)st.input_bytes / 1e6, el);
    return 0;
#endif
}
