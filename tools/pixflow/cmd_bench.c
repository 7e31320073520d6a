/* pixflow bench <what>: benchmarks against reference libraries. */
#include <stdio.h>
#include <string.h>

#include "bench_device.h"
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

/* Removes "--device X" from argv (in place); X, NULL when absent, or ""
 * when the value is missing. */
static const char *take_device(int *argc, char **argv) {
    for (int i = 1; i < *argc; i++)
        if (strcmp(argv[i], "--device") == 0) {
            const char *v = i + 1 < *argc ? argv[i + 1] : "";
            int drop = i + 1 < *argc ? 2 : 1;
            for (int k = i; k + drop < *argc; k++) argv[k] = argv[k + drop];
            *argc -= drop;
            return v;
        }
    return NULL;
}

int cmd_bench(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) {
        printf("usage: pixflow bench [all|NAME] [--data DIR] [--rounds N] [--quick] [--device opencl:N|cuda:N]\n"
               "  each op against its reference library (OpenCV; Pillow/torchvision formulas where\n"
               "  stated) in the same process on the same inputs; medians and ratios.\n"
               "  --device: the ops the device backend runs, timed on the device beside the CPU backend,\n"
               "  outputs compared byte for byte (exit 1 on a difference; 2 for an unknown device).\n  NAME:");
        for (int i = 0; i < NBENCH; i++) printf(" %s", k_benches[i].name);
        printf("\n");
        return 0;
    }
    const char *device = take_device(&argc, argv);
    if (device != NULL) {
        const char *w = argc >= 2 && argv[1][0] != '-' ? argv[1] : "all";
        int known = strcmp(w, "all") == 0;
        for (int i = 0; i < NBENCH && !known; i++) known = strcmp(w, k_benches[i].name) == 0;
        if (!known) {
            fprintf(stderr, "pixflow bench: unknown benchmark '%s'\n", w);
            return 2;
        }
        return argc >= 2 && argv[1][0] != '-' ? bench_device(w, device, argc - 1, argv + 1)
                                                : bench_device(w, device, argc, argv);
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
