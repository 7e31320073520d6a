/* Standalone main for the fuzz targets (no libFuzzer): runs
 * LLVMFuzzerTestOneInput once per file named on the command line, or per
 * file of a directory, in sorted order. ctest replays the seed corpus
 * (tests/fuzz/corpus) through every target this way, under the
 * sanitizers in a sanitizer build. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
    size_t got = n > 0 ? fread(b, 1, (size_t)n, f) : 0;
    fclose(f);
    LLVMFuzzerTestOneInput(b, got);
    free(b);
    return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
    int files = 0;
    for (int a = 1; a < argc; a++) {
        struct stat st;
        if (stat(argv[a], &st) != 0) {
            fprintf(stderr, "replay: cannot stat %s\n", argv[a]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            files += run_file(argv[a]) == 0;
            continue;
        }
        DIR *d = opendir(argv[a]);
        char *names[4096];
        int n = 0;
        for (struct dirent *e; d && (e = readdir(d)) != NULL && n < 4096;)
            if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
        if (d) closedir(d);
        qsort(names, (size_t)n, sizeof *names, cmp);
        for (int i = 0; i < n; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[a], names[i]);
            files += run_file(path) == 0;
            free(names[i]);
        }
    }
    printf("replay: %d inputs ran\n", files);
    return files > 0 ? 0 : 1;
}
