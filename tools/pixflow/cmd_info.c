/* pixflow info: what this build and this CPU will do. */
#include <stdio.h>

#include "commands.h"
#include "pixflow/pixflow.h"

int cmd_info(int argc, char **argv) {
    (void)argc;
    (void)argv;
    unsigned f = pf_cpu_features();
    printf("pixflow %s\n", pf_version());
    printf("build: %s\n", pf_build_info());
    printf("cpu features:%s%s%s%s%s%s%s%s%s\n", (f & PF_CPU_SSE41) ? " sse4.1" : "",
           (f & PF_CPU_AVX2) ? " avx2" : "", (f & PF_CPU_FMA) ? " fma" : "",
           (f & PF_CPU_F16C) ? " f16c" : "", (f & PF_CPU_AVX512VBMI) ? " avx512vbmi" : "",
           (f & PF_CPU_AVX512F) ? " avx512f" : "", (f & PF_CPU_AVX512BW) ? " avx512bw" : "",
           (f & PF_CPU_AVX512VL) ? " avx512vl" : "", (f & PF_CPU_NEON) ? " neon" : "");
    printf("isa cap: %s (PIXFLOW_CPU), active: %s\n", pf_isa_name(pf_cpu_cap()),
           pf_isa_name(pf_cpu_active_isa()));
    printf("kernel dispatch:\n");
    for (int i = 0; i < pf_dispatch_count(); i++) {
        const char *name;
        pf_isa isa;
        if (pf_dispatch_entry(i, &name, &isa) == PF_OK) printf("  %-22s %s\n", name, pf_isa_name(isa));
    }
    printf("devices: cpu");
#ifdef PF_HAVE_CUDA_TOOL
    printf(", cuda");
#endif
    printf("\n");
    return 0;
}
