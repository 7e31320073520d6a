/* pixflow: command-line front end. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "pixflow/pixflow.h"

static void usage(FILE *f) {
    fprintf(f,
            "usage: pixflow <command> [args]\n"
            "commands:\n"
            "  run SOURCE [opts]    the data pipeline over a folder / list / .tar shards / .pfpack: progress,\n"
            "                       stage table, throughput (--recipe, --batch, --workers, --epochs,\n"
            "                       --seed, --out DIR for .npy batches, --preview PNG contact sheet,\n"
            "                       --on-error skip|fail, --device cpu|cuda[:N]|opencl[:N])\n"
            "  pack SOURCE OUT      store a dataset once at training size in one .pfpack file\n"
            "                       (--max-side, --quality, --raw-below, --threads); pixflow run\n"
            "                       reads it through mmap\n"
            "  info                 version, build options, CPU features, per-kernel ISA choice\n"
            "  bench <op> [opts]    an op vs its OpenCV counterpart, same process, same inputs\n"
            "                       (op: all, resize, lut, geom, convert, yuv, color, warp,\n"
            "                        photo, filter, preprocess, sampler,\n"
            "                        decode, pipeline, video; --rounds N, --quick)\n"
            "  recipe [name ...]    the preprocessing presets (imagenet-train, imagenet-eval, their\n"
            "                       -torchvision variants, yolo)\n"
            "  help                 this text\n"
            "Every command takes --help. Environment: PIXFLOW_CPU=scalar|sse4|avx2|avx512|avx512vbmi\n"
            "caps the SIMD level (it can only lower what the CPU has; avx512 = AVX-512 without VBMI).\n");
}

int cli_wants_help(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return 1;
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) { usage(stderr); return 2; }
    const char *cmd = argv[1];
    if (strcmp(cmd, "info") == 0) return cmd_info(argc - 1, argv + 1);
    if (strcmp(cmd, "bench") == 0) return cmd_bench(argc - 1, argv + 1);
    if (strcmp(cmd, "run") == 0) return cmd_run(argc - 1, argv + 1);
    if (strcmp(cmd, "pack") == 0) return cmd_pack(argc - 1, argv + 1);
    if (strcmp(cmd, "recipe") == 0) return cmd_recipe(argc - 1, argv + 1);
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "pixflow: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
