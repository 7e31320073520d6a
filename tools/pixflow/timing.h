/* Benchmark timing helpers. */
#ifndef PIXFLOW_TOOL_TIMING_H
#define PIXFLOW_TOOL_TIMING_H

double bench_now_sec(void);
/* Median of n doubles (sorts a copy in place of v). */
double bench_median(double *v, int n);

#endif
