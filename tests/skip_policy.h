/* The one skip policy of the C tests: a test that cannot run (a missing
 * tool, no GPU) says why and asks for ctest's SKIP_RETURN_CODE 77, except
 * where a skip would hide a failure:
 *  - CI=true: a missing tool or fixture is a failure (CI installs them all);
 *  - a GPU test skips in CI only while no GPU is there: with
 *    PIXFLOW_REQUIRE_GPU=1 (bench/gpu/run_device_checks.sh) or an NVIDIA
 *    device node present, "no CUDA device" is a failure.
 * scripts/test.sh lists every skipped test by name at the end and fails
 * on any skip that is not a CUDA test's. */
#ifndef PF_TESTS_SKIP_POLICY_H
#define PF_TESTS_SKIP_POLICY_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline int pft_env_true(const char *name) {
    const char *v = getenv(name);
    return v != NULL && (strcmp(v, "1") == 0 || strcmp(v, "true") == 0 || strcmp(v, "TRUE") == 0 ||
                         strcmp(v, "yes") == 0);
}

static inline int pft_in_ci(void) { return pft_env_true("CI"); }

/* a GPU must be there: asked for, or the kernel driver shows one */
static inline int pft_gpu_required(void) {
    return pft_env_true("PIXFLOW_REQUIRE_GPU") || access("/dev/nvidia0", F_OK) == 0;
}

/* exit status for "cannot run: why" (a tool or fixture is missing) */
static inline int pft_skip(const char *test, const char *why) {
    if (pft_in_ci()) {
        printf("%s: FAILED: CI=true and %s (a skip is a failure in CI)\n", test, why);
        return 1;
    }
    printf("%s: SKIPPED: %s\n", test, why);
    return 77;
}

/* exit status for "no GPU to run on: why" */
static inline int pft_skip_gpu(const char *test, const char *why) {
    if (pft_gpu_required()) {
        printf("%s: FAILED: a GPU is required here (PIXFLOW_REQUIRE_GPU=1 or /dev/nvidia0) but %s\n", test, why);
        return 1;
    }
    printf("%s: SKIPPED: %s\n", test, why);
    return 77;
}

#endif
