/* `pixflow run --devices LIST`: the device dispatcher behind the
 * pipeline's device stage (run_dispatch.c). */
#ifndef PF_TOOLS_RUN_DISPATCH_H
#define PF_TOOLS_RUN_DISPATCH_H

#include "pixflow/pixflow.h"

/* Opens the CPU device as the augment device and a dispatcher over LIST
 * ("cpu,opencl:0", "auto") into the config, with RULES (NULL: none;
 * pf_dispatch_set_rules syntax) set on it; prints the reason and
 * returns 2 (bad arguments) or 1 (a device did not open) on failure. */
int run_dispatch_open(const char *list, const char *rules, pf_pipeline_config *c, pf_device **cpu,
                      pf_dispatch **d);
/* The per-device shares after the run (under the stage table). */
void run_dispatch_print(const pf_dispatch *d);

#endif
