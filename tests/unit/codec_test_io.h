/* File loading for the codec tests (data/ photos and the fuzz corpus). */
#ifndef PF_CODEC_TEST_IO_H
#define PF_CODEC_TEST_IO_H

#include <stdio.h>
#include <stdlib.h>

/* Whole file, malloc'ed (free it); NULL when it cannot be read. */
static inline unsigned char *pft_load(const char *dir, const char *name, size_t *n) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        *n = 0;
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(len > 0 ? (size_t)len : 1);
    *n = 0;
    *n = len > 0 ? fread(b, 1, (size_t)len, f) : 0;
    fclose(f);
    return b;
}

#endif
