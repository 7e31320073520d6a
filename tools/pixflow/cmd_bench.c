/* pixflow bench <what>: benchmarks against reference libraries. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

int cmd_bench(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "resize") == 0 || strcmp(argv[1], "all") == 0)
        return bench_resize(argc > 1 ? argc - 1 : argc, argc > 1 ? argv + 1 : argv);
    fprintf(stderr, "pixflow bench: unknown benchmark '%s' (available: resize, all)\n", argv[1]);
    return 2;
}
