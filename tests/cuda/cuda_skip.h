/* Shared start of every tests/cuda program: open CUDA device 0, or print
 * why not and exit with 77 (ctest SKIP_RETURN_CODE) when this machine has
 * no GPU; with PIXFLOW_REQUIRE_GPU=1 or a GPU present that is a failure
 * (tests/skip_policy.h). A build with CUDA on a machine with a GPU runs them
 * in full (bench/gpu/run_device_checks.sh). */
#ifndef PF_TESTS_CUDA_SKIP_H
#define PF_TESTS_CUDA_SKIP_H

#include <stdio.h>
#include <stdlib.h>

#include "pixflow/pixflow.h"
#include "../skip_policy.h"

static inline pf_device *pft_cuda_device_or_skip(const char *test) {
    int n = 0;
    if (pf_device_count(PF_DEVICE_CUDA, &n) != PF_OK || n == 0) {
        pf_device *d = NULL;
        pf_status st = pf_device_open(PF_DEVICE_CUDA, 0, &d);
        char why[512];
        snprintf(why, sizeof why, "no CUDA device (%s)", st == PF_OK ? "?" : pf_last_error());
        exit(pft_skip_gpu(test, why));
    }
    pf_device *d = NULL;
    if (pf_device_open(PF_DEVICE_CUDA, 0, &d) != PF_OK) {
        fprintf(stderr, "%s: pf_device_open failed: %s\n", test, pf_last_error());
        exit(1);
    }
    pf_device_props p;
    if (pf_device_props_get(d, &p) == PF_OK)
        printf("%s on %s (sm_%d%d, %d SMs, %.0f GB/s peak)\n", test, p.name, p.compute_major, p.compute_minor,
               p.multiprocessors, p.peak_bandwidth_gbs);
    return d;
}

#endif
