/* No kernel may report (or run at) an ISA level the CPU lacks, at any cap.
 *
 * scripts/test.sh runs the suite under qemu-x86_64 CPU models and sets
 * PIXFLOW_TEST_CPU_MODEL to the model's name; this test then also checks
 * that the emulated CPU really is that model (so a launcher that silently
 * ran the tests natively would fail here) and that dispatch reaches exactly
 * the model's best level. Without the variable it checks consistency with
 * what CPUID reports. */
#include <stdlib.h>
#include <strings.h>

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
     PF_CPU_AVX512F | PF_CPU_AVX512BW | PF_CPU_AVX512VL | PF_CPU_AVX512VBMI},
    {"epyc-milan", PF_ISA_AVX2, PF_CPU_SSE41 | PF_CPU_AVX2 | PF_CPU_FMA | PF_CPU_F16C,
     PF_CPU_AVX512F | PF_CPU_AVX512BW | PF_CPU_AVX512VL | PF_CPU_AVX512VBMI},
};

/* Highest level any kernel reports under the current cap; fails on a level
 * above `limit`. */
static pf_isa check_entries(pf_isa limit) {
    pf_isa top = PF_ISA_SCALAR;
    for (int i = 0; i < pf_dispatch_count(); i++) {
        const char *name = NULL;
        pf_isa at = PF_ISA_SCALAR;
        CHECK_STATUS(pf_dispatch_entry(i, &name, &at), PF_OK);
        if (at > limit) fprintf(stderr, "%s runs at %s, above %s\n", name, pf_isa_name(at), pf_isa_name(limit));
        CHECK(at <= limit);
        if (at > top) top = at;
    }
    return top;
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
#endif
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
    return pft_summary("test_dispatch_levels");
}
