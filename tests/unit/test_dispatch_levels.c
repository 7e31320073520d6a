/* No kernel may report (or run at) an ISA level the CPU lacks, at any cap.
 * The level rule itself (pfi_isa_best) is checked on the feature sets of
 * real CPUs, among them AVX-512 without VBMI (Skylake-SP, Cascade Lake),
 * which no emulator here can run: on a VBMI host the avx512 cap stands in
 * for it, so at that cap no kernel may be a VBMI one and the plain AVX-512
 * kernels must be the ones selected (the SIMD harnesses then compare them
 * with the reference).
 *
 * scripts/test.sh runs the suite under qemu-x86_64 CPU models and sets
 * PIXFLOW_TEST_CPU_MODEL to the model's name; this test then also checks
 * that the emulated CPU really is that model (so a launcher that silently
 * ran the tests natively would fail here) and that dispatch reaches exactly
 * the model's best level. Without the variable it checks consistency with
 * what CPUID reports. */
#include <stdlib.h>
#include <strings.h>

#include "core/cpu.h"
#include "pixflow/pixflow.h"
#include "test_util.h"

typedef struct model {
    const char *name;
    pf_isa best;
    unsigned must_have, must_lack;
} model;

static const model k_models[] = {
    {"nehalem", PF_ISA_SSE4, PF_CPU_SSE41, PF_CPU_AVX2 | PF_CPU_FMA | PF_CPU_F16C | PF_CPU_AVX512F},
    {"haswell", PF_ISA_AVX2, PF_CPU_SSE41 | PF_CPU_AVX2 | PF_CPU_FMA | PF_CPU_F16C,
     PF_CPU_AVX512F | PF_CPU_AVX512BW | PF_CPU_AVX512DQ | PF_CPU_AVX512VL | PF_CPU_AVX512VBMI},
    {"epyc-milan", PF_ISA_AVX2, PF_CPU_SSE41 | PF_CPU_AVX2 | PF_CPU_FMA | PF_CPU_F16C,
     PF_CPU_AVX512F | PF_CPU_AVX512BW | PF_CPU_AVX512DQ | PF_CPU_AVX512VL | PF_CPU_AVX512VBMI},
};

/* Kernel i of the full report (`pixflow info`): every family, post's
 * included. */
static int entry_count(void) { return pf_dispatch_count(); }
static void entry(int i, const char **name, pf_isa *at) { CHECK_STATUS(pf_dispatch_entry(i, name, at), PF_OK); }

/* Highest level any kernel reports under the current cap; fails on a level
 * above `limit`. */
static pf_isa check_entries(pf_isa limit) {
    pf_isa top = PF_ISA_SCALAR;
    for (int i = 0; i < entry_count(); i++) {
        const char *name = NULL;
        pf_isa at = PF_ISA_SCALAR;
        entry(i, &name, &at);
        if (at > limit) fprintf(stderr, "%s runs at %s, above %s\n", name, pf_isa_name(at), pf_isa_name(limit));
        CHECK(at <= limit);
        if (at > top) top = at;
    }
    return top;
}

/* How many kernels whose name starts with `prefix` run at `isa` under the
 * current cap; *total counts the family's kernels. */
static int count_at(const char *prefix, pf_isa isa, int *total) {
    int k = 0, n = 0;
    for (int i = 0; i < entry_count(); i++) {
        const char *name = NULL;
        pf_isa at = PF_ISA_SCALAR;
        entry(i, &name, &at);
        if (name == NULL || strncmp(name, prefix, strlen(prefix)) != 0) continue;
        n++;
        k += at == isa;
    }
    if (total) *total = n;
    return k;
}

/* The level rule on the feature sets of real CPUs (x86 builds only: on
 * Arm every x86 cap is the reference). */
static void check_level_rule(void) {
#if defined(__x86_64__)
    const unsigned v3 = PF_CPU_SSE41 | PF_CPU_AVX2 | PF_CPU_FMA | PF_CPU_F16C;
    const unsigned skx = v3 | PF_CPU_AVX512F | PF_CPU_AVX512BW | PF_CPU_AVX512DQ | PF_CPU_AVX512VL;
    const unsigned icx = skx | PF_CPU_AVX512VBMI;
    static const struct { const char *cpu; unsigned f; pf_isa best; } k[] = {
        {"Nehalem", PF_CPU_SSE41, PF_ISA_SSE4},
        {"Haswell", v3, PF_ISA_AVX2},
        {"AVX2 without FMA", v3 & ~PF_CPU_FMA, PF_ISA_SSE4},
        {"Knights Landing (F, no BW/DQ/VL)", v3 | PF_CPU_AVX512F, PF_ISA_AVX2},
        {"F+BW+VL without DQ", skx & ~PF_CPU_AVX512DQ, PF_ISA_AVX2},
        {"Skylake-SP / Cascade Lake", skx, PF_ISA_AVX512},
        {"Ice Lake / Sapphire Rapids / Zen 4", icx, PF_ISA_AVX512VBMI},
        {"VBMI without BW", icx & ~PF_CPU_AVX512BW, PF_ISA_AVX2},
        {"VBMI, OS without ZMM state (no AVX-512 bits)", v3 | PF_CPU_AVX512VBMI, PF_ISA_AVX2},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        pf_isa got = pfi_isa_best(k[i].f, PF_ISA_NEON); /* NEON: no cap */
        if (got != k[i].best)
            fprintf(stderr, "%s: level %s, want %s\n", k[i].cpu, pf_isa_name(got), pf_isa_name(k[i].best));
        CHECK(got == k[i].best);
        /* a cap never raises the level; avx512vbmi on a Skylake-SP is avx512 */
        for (int c = PF_ISA_SCALAR; c <= PF_ISA_AVX512VBMI; c++) {
            pf_isa capped = pfi_isa_best(k[i].f, (pf_isa)c);
            CHECK(capped == ((pf_isa)c < k[i].best ? (pf_isa)c : k[i].best));
        }
    }
    /* the names round-trip through PIXFLOW_CPU's parser */
    for (int c = PF_ISA_SCALAR; c <= PF_ISA_NEON; c++) {
        pf_isa parsed = PF_ISA_SCALAR;
        CHECK(pfi_isa_parse(pf_isa_name((pf_isa)c), &parsed) && parsed == (pf_isa)c);
    }
    CHECK(strcmp(pf_isa_name(PF_ISA_AVX512VBMI), "avx512vbmi") == 0);
#endif
}

/* The avx512 / avx512vbmi split on a CPU that has the levels. At avx512
 * (what a Skylake-SP runs): no VBMI kernel anywhere, and the families with
 * plain AVX-512 kernels select them; colour and YUV have none and keep
 * AVX2. At avx512vbmi: the VBMI kernels of every family that has some. */
static void check_avx512_split(pf_isa best) {
    static const char *const plain512[] = {"resize.", "convert.", "normalize.", "photo.", "filter.",
                                           "preprocess.", "post."};
    static const char *const vbmi[] = {"resize.", "color.", "yuv.", "reformat.", "lut.", "geom.", "photo."};
    static const char *const avx2_only_below_vbmi[] = {"color.", "yuv."};
    int total = 0;
    if (best >= PF_ISA_AVX512 && best <= PF_ISA_AVX512VBMI) {
        CHECK_STATUS(pf_cpu_set_cap(PF_ISA_AVX512), PF_OK);
        CHECK(pf_cpu_active_isa() == PF_ISA_AVX512);
        CHECK(count_at("", PF_ISA_AVX512VBMI, NULL) == 0);
        for (size_t i = 0; i < sizeof plain512 / sizeof plain512[0]; i++) {
            int n = count_at(plain512[i], PF_ISA_AVX512, &total);
            if (n == 0) fprintf(stderr, "at the avx512 cap no %s kernel is an AVX-512 one\n", plain512[i]);
            CHECK(n > 0);
        }
        for (size_t i = 0; i < sizeof avx2_only_below_vbmi / sizeof avx2_only_below_vbmi[0]; i++) {
            int n = count_at(avx2_only_below_vbmi[i], PF_ISA_AVX2, &total);
            if (n != total)
                fprintf(stderr, "at the avx512 cap %d of %d %s kernels are AVX2 ones\n", n, total,
                        avx2_only_below_vbmi[i]);
            CHECK(total > 0 && n == total);
        }
        printf("test_dispatch_levels: at the avx512 cap %d kernels run at avx512, 0 at avx512vbmi\n",
               count_at("", PF_ISA_AVX512, NULL));
    }
    if (best == PF_ISA_AVX512VBMI) {
        CHECK_STATUS(pf_cpu_set_cap(PF_ISA_AVX512VBMI), PF_OK);
        CHECK(pf_cpu_active_isa() == PF_ISA_AVX512VBMI);
        for (size_t i = 0; i < sizeof vbmi / sizeof vbmi[0]; i++) {
            int n = count_at(vbmi[i], PF_ISA_AVX512VBMI, &total);
            if (n == 0) fprintf(stderr, "at the avx512vbmi cap no %s kernel is a VBMI one\n", vbmi[i]);
            CHECK(n > 0);
        }
        for (size_t i = 0; i < sizeof avx2_only_below_vbmi / sizeof avx2_only_below_vbmi[0]; i++)
            CHECK(count_at(avx2_only_below_vbmi[i], PF_ISA_AVX512VBMI, &total) == total);
        /* plain AVX-512 kernels stay where VBMI has nothing better */
        CHECK(count_at("resize.", PF_ISA_AVX512, NULL) > 0);
        printf("test_dispatch_levels: at the avx512vbmi cap %d kernels run at avx512vbmi, %d at avx512\n",
               count_at("", PF_ISA_AVX512VBMI, NULL), count_at("", PF_ISA_AVX512, NULL));
    }
    /* every kernel's level at avx512vbmi is at least its level at avx512 */
    if (best >= PF_ISA_AVX512 && best <= PF_ISA_AVX512VBMI) {
        int n = entry_count();
        pf_isa *lo = calloc((size_t)n, sizeof *lo);
        CHECK(lo != NULL);
        if (lo != NULL) {
            const char *name = NULL;
            pf_cpu_set_cap(PF_ISA_AVX512);
            for (int i = 0; i < n; i++) entry(i, &name, &lo[i]);
            pf_cpu_set_cap(PF_ISA_AVX512VBMI);
            for (int i = 0; i < n; i++) {
                pf_isa at = PF_ISA_SCALAR;
                entry(i, &name, &at);
                CHECK(at >= lo[i]);
            }
            free(lo);
        }
    }
    pf_cpu_set_cap(PF_ISA_NEON);
}

int main(void) {
    unsigned f = pf_cpu_features();
    pf_cpu_set_cap(PF_ISA_NEON); /* "no cap" on every architecture */
    pf_isa best = pf_cpu_active_isa();
    const char *want = getenv("PIXFLOW_TEST_CPU_MODEL");
    if (want != NULL && *want != '\0') {
        const model *m = NULL;
        for (size_t i = 0; i < sizeof k_models / sizeof k_models[0]; i++)
            if (strcasecmp(want, k_models[i].name) == 0) m = &k_models[i];
        if (m == NULL) fprintf(stderr, "unknown PIXFLOW_TEST_CPU_MODEL=%s\n", want);
        CHECK(m != NULL);
        if (m != NULL) {
            printf("test_dispatch_levels: model %s, features 0x%x, best level %s\n", m->name, f, pf_isa_name(best));
            CHECK((f & m->must_have) == m->must_have);
            CHECK((f & m->must_lack) == 0); /* else the tests did not run on the emulated CPU */
            CHECK(best == m->best);
        }
    }
#if defined(__x86_64__)
    CHECK(best != PF_ISA_NEON);
    if (!(f & PF_CPU_SSE41)) CHECK(best == PF_ISA_SCALAR);
    if (!(f & PF_CPU_AVX2)) CHECK(best <= PF_ISA_SSE4);
    if (!(f & PF_CPU_AVX512F)) CHECK(best <= PF_ISA_AVX2);
    if (!(f & PF_CPU_AVX512VBMI)) CHECK(best <= PF_ISA_AVX512);
    /* a CPU with every bit of a level runs that level uncapped: on a VBMI
     * host the uncapped suite is the avx512vbmi run (scripts/test.sh relies
     * on it and caps only scalar .. avx512) */
    const unsigned all = PF_CPU_SSE41 | PF_CPU_AVX2 | PF_CPU_FMA | PF_CPU_F16C | PF_CPU_AVX512F | PF_CPU_AVX512BW |
                         PF_CPU_AVX512DQ | PF_CPU_AVX512VL | PF_CPU_AVX512VBMI;
    if ((f & all) == all) CHECK(best == PF_ISA_AVX512VBMI);
#endif
    check_level_rule();
    /* uncapped: every kernel at or below the CPU's level, and the level
     * itself reached by some kernel (the tables are not all reference) */
    pf_isa top = check_entries(best);
    CHECK(top == best);
    /* every cap lowers the level, none raises it */
    for (int c = PF_ISA_SCALAR; c <= PF_ISA_NEON; c++) {
        CHECK_STATUS(pf_cpu_set_cap((pf_isa)c), PF_OK);
        pf_isa active = pf_cpu_active_isa();
        CHECK(active <= best);
        if (c != PF_ISA_NEON && best != PF_ISA_NEON) CHECK(active <= (pf_isa)c);
        check_entries(active);
        pf_stream *s = NULL;
        CHECK_STATUS(pf_stream_create_cpu(1, &s), PF_OK);
        CHECK(pf_stream_isa(s) == active);
        pf_stream_destroy(s);
    }
    check_avx512_split(best);
    return pft_summary("test_dispatch_levels");
}
