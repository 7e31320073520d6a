/* pixflow info: what this build and this CPU will do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pixflow/pixflow.h"

/* "none", or the level and who set it. pf_cpu_cap() reports NEON for "no
 * cap" on every architecture (the highest pf_isa), which would read as a
 * NEON cap on x86. */
static void print_cap(void) {
    const char *env = getenv("PIXFLOW_CPU");
    pf_isa cap = pf_cpu_cap(), parsed = PF_ISA_NEON;
    int env_set = env != NULL && *env != '\0';
    int env_valid = 0;
    for (int i = PF_ISA_SCALAR; env_set && i <= PF_ISA_NEON; i++)
        if (strcmp(env, pf_isa_name((pf_isa)i)) == 0) { env_valid = 1; parsed = (pf_isa)i; }
    if (env_set && !env_valid)
        printf("isa cap: none (PIXFLOW_CPU=%s is not one of scalar, sse4, avx2, avx512, avx512vbmi, neon: ignored)",
               env);
    else if (cap == PF_ISA_NEON)
        printf("isa cap: none%s", env_set ? " (PIXFLOW_CPU=neon)" : "");
    else if (env_valid && parsed == cap)
        printf("isa cap: %s (PIXFLOW_CPU=%s)", pf_isa_name(cap), env);
    else
        printf("isa cap: %s (pf_cpu_set_cap)", pf_isa_name(cap));
    printf(", active: %s\n", pf_isa_name(pf_cpu_active_isa()));
}

int cmd_info(int argc, char **argv) {
    if (cli_wants_help(argc, argv) || argc > 1) {
        FILE *o = cli_wants_help(argc, argv) ? stdout : stderr;
        fprintf(o, "usage: pixflow info\n"
                   "  version, build options, CPU features, the ISA cap and the level each kernel really runs\n"
                   "  at (never above what the CPU has), and the devices\n");
        return o == stdout ? 0 : 2;
    }
    unsigned f = pf_cpu_features();
    printf("pixflow %s\n", pf_version());
    printf("build: %s\n", pf_build_info());
    printf("cpu features:%s%s%s%s%s%s%s%s%s%s\n", (f & PF_CPU_SSE41) ? " sse4.1" : "",
           (f & PF_CPU_AVX2) ? " avx2" : "", (f & PF_CPU_FMA) ? " fma" : "",
           (f & PF_CPU_F16C) ? " f16c" : "", (f & PF_CPU_AVX512F) ? " avx512f" : "",
           (f & PF_CPU_AVX512BW) ? " avx512bw" : "", (f & PF_CPU_AVX512DQ) ? " avx512dq" : "",
           (f & PF_CPU_AVX512VL) ? " avx512vl" : "", (f & PF_CPU_AVX512VBMI) ? " avx512vbmi" : "",
           (f & PF_CPU_NEON) ? " neon" : "");
    print_cap();
    printf("kernel dispatch:\n");
    for (int i = 0; i < pf_dispatch_count(); i++) {
        const char *name;
        pf_isa isa;
        if (pf_dispatch_entry(i, &name, &isa) == PF_OK) printf("  %-22s %s\n", name, pf_isa_name(isa));
    }
    printf("devices:\n");
    pf_device_kind kinds[3] = {PF_DEVICE_CPU, PF_DEVICE_CUDA, PF_DEVICE_OPENCL};
    const char *kname[3] = {"cpu", "cuda", "opencl"};
    for (int k = 0; k < 3; k++) {
        int n = 0;
        if (pf_device_count(kinds[k], &n) != PF_OK) n = 0;
        for (int i = 0; i < n; i++) {
            pf_device *d;
            pf_device_props p;
            if (pf_device_open(kinds[k], i, &d) != PF_OK) {
                printf("  %s %d: %s\n", kname[k], i, pf_last_error());
                continue;
            }
            if (pf_device_props_get(d, &p) == PF_OK) {
                if (kinds[k] == PF_DEVICE_CUDA)
                    printf("  cuda %d: %s, sm_%d%d, %d SMs, %.1f GiB, %.0f GB/s peak\n", i, p.name, p.compute_major,
                           p.compute_minor, p.multiprocessors, (double)p.total_memory / (1024.0 * 1024 * 1024),
                           p.peak_bandwidth_gbs);
                else if (kinds[k] == PF_DEVICE_OPENCL)
                    printf("  opencl %d: %s, %s, driver %s, %d compute units, %.1f GiB\n", i, p.name, p.version,
                           p.driver, p.multiprocessors, (double)p.total_memory / (1024.0 * 1024 * 1024));
                else
                    printf("  cpu %d: %s, %d cores\n", i, p.name, p.multiprocessors);
            }
            pf_device_close(d);
        }
        if (kinds[k] == PF_DEVICE_CUDA && n == 0) {
            pf_device *d = NULL;
            if (strstr(pf_build_info(), "cuda=on") == NULL)
                printf("  cuda: not built (PIXFLOW_CUDA=OFF or no nvcc)\n");
            else if (pf_device_open(PF_DEVICE_CUDA, 0, &d) != PF_OK)
                printf("  cuda: built, no usable device (%s)\n", pf_last_error());
        }
        if (kinds[k] == PF_DEVICE_OPENCL && n == 0) {
            pf_device *d = NULL;
            if (strstr(pf_build_info(), "opencl=on") == NULL)
                printf("  opencl: not built (PIXFLOW_OPENCL=OFF or no OpenCL ICD loader)\n");
            else if (pf_device_open(PF_DEVICE_OPENCL, 0, &d) != PF_OK)
                printf("  opencl: built, %s\n", pf_last_error());
        }
    }
    return 0;
}
