/* CPU feature detection (once) and the ISA cap (PIXFLOW_CPU / pf_cpu_set_cap). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpu.h"
#include "core/error.h"

#if defined(__x86_64__) || defined(__i386__)
#  include <cpuid.h>
static unsigned long long read_xcr0(void) {
    unsigned int lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

static unsigned detect(void) {
    unsigned a, b, c, d, f = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (c & bit_SSE4_1) f |= PF_CPU_SSE41;
    int osxsave = (c & bit_OSXSAVE) != 0;
    int has_fma = (c & bit_FMA) != 0, has_avx = (c & bit_AVX) != 0;
    int has_f16c = (c & bit_F16C) != 0;
    unsigned long long xcr0 = osxsave ? read_xcr0() : 0;
    int os_ymm = (xcr0 & 0x6) == 0x6;     /* XMM and YMM state saved by the OS */
    int os_zmm = (xcr0 & 0xe6) == 0xe6;   /* plus opmask and ZMM state */
    if (__get_cpuid_max(0, NULL) >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        if (has_avx && os_ymm && (b & bit_AVX2)) f |= PF_CPU_AVX2;
        if (has_fma && os_ymm) f |= PF_CPU_FMA;
        if (has_f16c && os_ymm) f |= PF_CPU_F16C;
        if (os_zmm) {
            if (b & bit_AVX512F) f |= PF_CPU_AVX512F;
            if (b & bit_AVX512DQ) f |= PF_CPU_AVX512DQ;
            if (b & bit_AVX512BW) f |= PF_CPU_AVX512BW;
            if (b & bit_AVX512VL) f |= PF_CPU_AVX512VL;
            if (c & bit_AVX512VBMI) f |= PF_CPU_AVX512VBMI;
        }
    }
    return f;
}
#elif defined(__aarch64__)
static unsigned detect(void) { return PF_CPU_NEON; }
#else
static unsigned detect(void) { return 0; }
#endif

static atomic_uint g_features = 0;       /* bit 31 set once detected */
static atomic_int g_cap = -1;            /* -1: not yet read from the environment */

unsigned pf_cpu_features(void) {
    unsigned f = atomic_load(&g_features);
    if (!(f & 0x80000000u)) {
        f = detect() | 0x80000000u;
        atomic_store(&g_features, f);
    }
    return f & 0x7fffffffu;
}

const char *pf_isa_name(pf_isa isa) {
    switch (isa) {
    case PF_ISA_SCALAR: return "scalar";
    case PF_ISA_SSE4: return "sse4";
    case PF_ISA_AVX2: return "avx2";
    case PF_ISA_AVX512: return "avx512";
    case PF_ISA_AVX512VBMI: return "avx512vbmi";
    case PF_ISA_NEON: return "neon";
    }
    return "?";
}

int pfi_isa_parse(const char *s, pf_isa *out) {
    static const pf_isa all[] = {PF_ISA_SCALAR, PF_ISA_SSE4, PF_ISA_AVX2, PF_ISA_AVX512, PF_ISA_AVX512VBMI,
                                 PF_ISA_NEON};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(s, pf_isa_name(all[i])) == 0) { *out = all[i]; return 1; }
    return 0;
}

pf_isa pf_cpu_cap(void) {
    int cap = atomic_load(&g_cap);
    if (cap < 0) {
        pf_isa parsed = PF_ISA_NEON; /* "no cap" on every architecture */
        const char *env = getenv("PIXFLOW_CPU");
        if (env != NULL && *env != '\0' && !pfi_isa_parse(env, &parsed)) parsed = PF_ISA_NEON;
        int expected = -1;
        atomic_compare_exchange_strong(&g_cap, &expected, (int)parsed);
        cap = atomic_load(&g_cap);
    }
    return (pf_isa)cap;
}

pf_status pf_cpu_set_cap(pf_isa cap) {
    if ((int)cap < (int)PF_ISA_SCALAR || (int)cap > (int)PF_ISA_NEON)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_cpu_set_cap: cap %d is not a pf_isa", (int)cap);
    atomic_store(&g_cap, (int)cap);
    pfi_dispatch_invalidate();
    return PF_OK;
}

pf_isa pfi_isa_best(unsigned features, pf_isa cap) {
#if defined(PF_HAVE_NEON)
    (void)features;
    return cap >= PF_ISA_NEON ? PF_ISA_NEON : PF_ISA_SCALAR;
#elif defined(PF_HAVE_X86)
    /* A level is the set of features its translation units are compiled
     * with (CMakeLists.txt): SSE4.1; AVX2 + FMA + F16C (x86-64-v3's vector
     * part: every AVX2 CPU has FMA and F16C, and the AVX2 files use them);
     * AVX-512 F + BW + DQ + VL on top of that (Skylake-SP and later);
     * AVX512_VBMI on top of that (Ice Lake, Zen 4 and later). */
    const unsigned avx2 = PF_CPU_SSE41 | PF_CPU_AVX2 | PF_CPU_FMA | PF_CPU_F16C;
    const unsigned avx512 = avx2 | PF_CPU_AVX512F | PF_CPU_AVX512BW | PF_CPU_AVX512DQ | PF_CPU_AVX512VL;
    const unsigned vbmi = avx512 | PF_CPU_AVX512VBMI;
    pf_isa best = PF_ISA_SCALAR;
    if (features & PF_CPU_SSE41) best = PF_ISA_SSE4;
    if ((features & avx2) == avx2) best = PF_ISA_AVX2;
    if ((features & avx512) == avx512) best = PF_ISA_AVX512;
    if ((features & vbmi) == vbmi) best = PF_ISA_AVX512VBMI;
    pf_isa c = cap == PF_ISA_NEON ? PF_ISA_AVX512VBMI : cap; /* NEON cap = uncapped on x86 */
    return best < c ? best : c;
#else
    /* no SIMD kernels are compiled for this architecture (32-bit x86 too) */
    (void)features;
    (void)cap;
    return PF_ISA_SCALAR;
#endif
}

pf_isa pf_cpu_active_isa(void) { return pfi_isa_best(pf_cpu_features(), pf_cpu_cap()); }

static atomic_uint g_dispatch_gen = 0;
void pfi_dispatch_invalidate(void) { atomic_fetch_add(&g_dispatch_gen, 1u); }
unsigned pfi_dispatch_generation(void) { return atomic_load(&g_dispatch_gen); }
