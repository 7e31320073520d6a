/* Shared pieces of the C-vs-SIMD harnesses: guard-page buffers and the
 * list of SIMD levels this CPU can run. */
#ifndef PF_TEST_SIMD_HARNESS_H
#define PF_TEST_SIMD_HARNESS_H

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pixflow/core.h"

typedef struct guarded { void *map; size_t map_len; char *data; } guarded;

/* `bytes` of memory whose last byte is immediately followed by a
 * PROT_NONE page, so any read past the end faults. */
static inline guarded guarded_alloc(size_t bytes) {
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    size_t len = (bytes + pg - 1) / pg * pg + pg;
    guarded g = {0};
    g.map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g.map == MAP_FAILED) { g.map = NULL; return g; }
    g.map_len = len;
    mprotect((char *)g.map + len - pg, pg, PROT_NONE);
    g.data = (char *)g.map + len - pg - bytes;
    return g;
}
static inline void guarded_free(guarded g) { if (g.map) munmap(g.map, g.map_len); }

/* SIMD levels available here, lowest first (SSE4..AVX512VBMI, or NEON):
 * on a VBMI CPU both avx512 (the plain AVX-512 kernels a Skylake-SP runs)
 * and avx512vbmi. Returns how many were written to levels[4]. */
static inline int simd_levels(pf_isa levels[4], const char *test) {
    pf_cpu_set_cap(PF_ISA_NEON); /* uncapped, to see the best level */
    pf_isa best = pf_cpu_active_isa();
    int n = 0;
    if (best == PF_ISA_NEON) levels[n++] = PF_ISA_NEON;
    else
        for (int l = PF_ISA_SSE4; l <= (int)best; l++) levels[n++] = (pf_isa)l;
    if (n == 0) printf("%s: no SIMD level on this CPU; only the scalar path exists\n", test);
    return n;
}

/* Number of dispatch slots (pf_dispatch_entry's, post's included) whose
 * name starts with `prefix` that run at exactly `isa` under the current
 * cap. */
static inline int slots_at(const char *prefix, pf_isa isa) {
    int k = 0;
    for (int i = 0; i < pf_dispatch_count(); i++) {
        const char *name;
        pf_isa at;
        if (pf_dispatch_entry(i, &name, &at) != PF_OK) continue;
        size_t pl = 0;
        while (prefix[pl] && name[pl] == prefix[pl]) pl++;
        if (prefix[pl] == 0 && at == isa) k++;
    }
    return k;
}

/* Keeps, in order, the levels at which some kernel of the family `prefix`
 * is that level's own: at the others the family's table is a copy of a
 * lower level's (post has nothing at sse4 or avx512vbmi), so a long
 * comparison there would only repeat that level. Returns the new count and
 * leaves the cap unset. */
static inline int levels_with_own_kernels(const char *prefix, pf_isa *levels, int nlev) {
    int k = 0;
    for (int l = 0; l < nlev; l++) {
        pf_cpu_set_cap(levels[l]);
        if (slots_at(prefix, levels[l]) > 0) levels[k++] = levels[l];
    }
    pf_cpu_set_cap(PF_ISA_NEON);
    return k;
}

/* Number of (slot, level) pairs of the family `prefix` that really run at
 * one of the given SIMD levels; 0 would mean the harness compares the
 * reference with itself. Leaves the ISA cap at the last level. */
static inline int family_accelerated(const char *prefix, const pf_isa *levels, int nlev) {
    int n = 0;
    for (int l = 0; l < nlev; l++) {
        pf_cpu_set_cap(levels[l]);
        n += slots_at(prefix, levels[l]);
    }
    return n;
}

/* The family's kernels must run at some SIMD level when the CPU reaches
 * `lowest` (the lowest level the family has kernels for), and at none
 * below it: on an emulated Nehalem (SSE4.1 only) an AVX2-only family must
 * report scalar everywhere. Returns 1 when the expectation holds. */
static inline int family_levels_ok(const char *prefix, const pf_isa *levels, int nlev, pf_isa lowest) {
    int acc = family_accelerated(prefix, levels, nlev);
    int reach = nlev > 0 && levels[nlev - 1] != PF_ISA_NEON && levels[nlev - 1] >= lowest;
    if (!reach) printf("%s: the CPU lacks %s, so these kernels stay scalar (%d slots accelerated)\n", prefix,
                       pf_isa_name(lowest), acc);
    return reach ? acc > 0 : acc == 0;
}

#endif
