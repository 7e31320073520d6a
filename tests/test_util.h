/* Minimal test helpers: CHECK records a failure with file:line and goes on;
 * every test binary ends with pft_summary(), which prints
 * "<name>: N passed, M failed" and returns the exit code. */
#ifndef PF_TEST_UTIL_H
#define PF_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int pft_pass, pft_fail;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (cond) pft_pass++;                                                       \
        else { pft_fail++; fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } \
    } while (0)

#define CHECK_STATUS(expr, want)                                                    \
    do {                                                                            \
        pf_status st_ = (expr);                                                     \
        if (st_ == (want)) pft_pass++;                                              \
        else { pft_fail++; fprintf(stderr, "%s:%d: %s returned %s, want %s (%s)\n", __FILE__, __LINE__, \
                                   #expr, pf_status_str(st_), pf_status_str(want), pf_last_error()); } \
    } while (0)

/* The error text must mention `needle` (the argument at fault). */
#define CHECK_MSG(needle)                                                           \
    do {                                                                            \
        if (strstr(pf_last_error(), (needle))) pft_pass++;                          \
        else { pft_fail++; fprintf(stderr, "%s:%d: error '%s' does not mention '%s'\n", __FILE__, \
                                   __LINE__, pf_last_error(), (needle)); }           \
    } while (0)

static inline int pft_summary(const char *name) {
    printf("%s: %d passed, %d failed\n", name, pft_pass, pft_fail);
    return pft_fail ? 1 : 0;
}

/* xorshift64*: deterministic test data */
static inline uint64_t pft_rand(uint64_t *s) {
    *s ^= *s >> 12; *s ^= *s << 25; *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}
static inline int pft_range(uint64_t *s, int lo, int hi) { return lo + (int)(pft_rand(s) % (uint64_t)(hi - lo + 1)); }

#endif
