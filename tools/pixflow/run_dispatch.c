/* `pixflow run --devices cpu,opencl:0` / `--devices auto`: the pipeline's
 * device placement on the CPU device (decode on the workers, batches in
 * order on the host), its preprocess spread over the listed devices by
 * pf_dispatch (include/pixflow/dispatch.h), with --dispatch-rules
 * ("geometry=opencl:0,pointwise=cpu": pf_dispatch_set_rules) overriding
 * the measured placement per op class. Same bytes as --device cpu for the
 * same seed (ctest cli_devices_run). */
#include "run_dispatch.h"

#include <stdio.h>
#include <string.h>

int run_dispatch_open(const char *list, const char *rules, pf_pipeline_config *c, pf_device **cpu,
                      pf_dispatch **d) {
    *cpu = NULL;
    *d = NULL;
    pf_dispatch_config dc = pf_dispatch_config_defaults();
    dc.devices = list;
    pf_status s = pf_dispatch_open(&dc, d);
    if (s != PF_OK) {
        fprintf(stderr, "pixflow run: --devices %s: %s\n", list, pf_last_error());
        return s == PF_ERR_INVALID_ARGUMENT ? 2 : 1;
    }
    if (rules != NULL && pf_dispatch_set_rules(*d, rules) != PF_OK) {
        fprintf(stderr, "pixflow run: --dispatch-rules %s: %s\n", rules, pf_last_error());
        pf_dispatch_close(*d);
        *d = NULL;
        return 2;
    }
    if (pf_device_open(PF_DEVICE_CPU, 0, cpu) != PF_OK) {
        fprintf(stderr, "pixflow run: --devices %s: %s\n", list, pf_last_error());
        pf_dispatch_close(*d);
        *d = NULL;
        return 1;
    }
    c->augment_device = *cpu;
    c->augment_dispatch = *d;
    return 0;
}

void run_dispatch_print(const pf_dispatch *d) {
    pf_dispatch_stats st;
    if (d == NULL || pf_dispatch_stats_get(d, &st) != PF_OK) return;
    char rules[128] = "";
    if (pf_dispatch_rules_get(d, rules, sizeof rules) == PF_OK && rules[0])
        printf("\ndispatch rules: %s (%llu of %llu batches split, %.1f MiB moved between devices)", rules,
               (unsigned long long)st.split_batches, (unsigned long long)st.batches,
               (double)st.moved_bytes / 1048576.0);
    printf("\n%-15s %9s %7s %9s %6s %12s %12s  %s\n", "device", "samples", "share", "busy s", "util", "ms/sample",
           "transfer MiB", "last placement");
    for (int i = 0; i < pf_dispatch_device_count(d); i++) {
        pf_dispatch_device_stats ds;
        if (pf_dispatch_device_stats_get(d, i, &ds) != PF_OK) continue;
        double share = st.samples ? 100.0 * (double)ds.samples / (double)st.samples : 0.0;
        printf("%-15s %9llu %6.1f%% %9.3f %5.1f%% %12.3f %12.1f  %s%s\n", ds.name, (unsigned long long)ds.samples,
               share, ds.busy_ms / 1e3, 100.0 * ds.utilization, ds.cost_ms,
               (double)(ds.upload_bytes + ds.download_bytes) / 1048576.0, ds.reason,
               ds.failures ? " (had failures)" : "");
    }
    printf("dispatcher: %llu batches, overhead %.3f ms/batch (%.2f%% of its %.1f ms/batch)\n",
           (unsigned long long)st.batches, st.batches ? st.overhead_ms / (double)st.batches : 0.0,
           st.wall_ms > 0 ? 100.0 * st.overhead_ms / st.wall_ms : 0.0,
           st.batches ? st.wall_ms / (double)st.batches : 0.0);
}
