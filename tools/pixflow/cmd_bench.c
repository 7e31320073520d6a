/* pixflow bench <what>: benchmarks against reference libraries. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

typedef struct bench_entry {
    const char *name;
    int (*fn)(int argc, char **argv);
} bench_entry;

static const bench_entry k_benches[] = {
    {"resize", bench_resize},
    {"lut", bench_lut},
    {"photo", bench_photo},
    {"geom", bench_geom},
    {"convert", bench_convert},
    {"yuv", bench_yuv},
    {"color", bench_color},
    {"warp", bench_warp},
    {"filter", bench_filter},
    {"preprocess", bench_preprocess},
    {"sampler", bench_sampler},
    {"video", bench_video},
    {"pipeline", bench_pipeline},
    {"decode", bench_decode},
    {"post", bench_post},
};
#define NBENCH ((int)(sizeof k_benches / sizeof k_benches[0]))

int cmd_bench(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) {
        printf("usage: pixflow bench [all|NAME] [--data DIR] [--rounds N] [--quick]\n"
               "  each op against its reference library (OpenCV; Pillow/torchvision formulas where\n"
               "  stated) in the same process on the same inputs; medians and ratios.\n  NAME:");
        for (int i = 0; i < NBENCH; i++) printf(" %s", k_benches[i].name);
        printf("\n");
        return 0;
    }
    const char *what = argc >= 2 ? argv[1] : "all";
    int sub_argc = argc >= 2 ? argc - 1 : argc;
    char **sub_argv = argc >= 2 ? argv + 1 : argv;
    if (strcmp(what, "all") == 0 || what[0] == '-') {
        if (what[0] == '-') { sub_argc = argc; sub_argv = argv; }
        int rc = 0;
        for (int i = 0; i < NBENCH; i++) {
            printf("\n== pixflow bench %s\n", k_benches[i].name);
            int r = k_benches[i].fn(sub_argc, sub_argv);
            if (r) rc = r;
        }
        return rc;
    }
    for (int i = 0; i < NBENCH; i++)
        if (strcmp(what, k_benches[i].name) == 0) return k_benches[i].fn(sub_argc, sub_argv);
    fprintf(stderr, "pixflow bench: unknown benchmark '%s' (available: all", what);
    for (int i = 0; i < NBENCH; i++) fprintf(stderr, ", %s", k_benches[i].name);
    fprintf(stderr, ")\n");
    return 2;
}
