/* Benchmark timing helpers: a monotonic clock, medians, and the
 * side-by-side comparator every `pixflow bench` case uses. */
#ifndef PIXFLOW_TOOL_TIMING_H
#define PIXFLOW_TOOL_TIMING_H

double bench_now_sec(void);
/* Median of n doubles (sorts v in place). */
double bench_median(double *v, int n);

/* One call of the measured operation; returns 0 on success. */
typedef int (*bench_fn)(void *ctx);

typedef struct timing_pair { double pf_ms, cv_ms; } timing_pair;

/* Times pf(pf_ctx) against cv(cv_ctx) in the same process: iterations per
 * round are calibrated so one pixflow round takes ~25 ms, then `rounds`
 * (<= 64) rounds alternate pixflow and OpenCV; returns the median ms per
 * call of each. */
timing_pair bench_compare(bench_fn pf, void *pf_ctx, bench_fn cv, void *cv_ctx, int rounds);

/* Prints one result row in the common table format:
 * "<label> <threads> <pixflow ms> <opencv ms> <ratio>x  <verdict>". */
void bench_print_row(const char *label, int threads, timing_pair tp, const char *verdict);
void bench_print_header(const char *what);

/* Parses the options all benches share: --rounds N, --quick, --data DIR.
 * Returns 0, or 2 after printing usage for an unknown option. */
int bench_parse_args(int argc, char **argv, const char *name, int *rounds, const char **data);

#endif
