/* Stable sorts for post-processing: LSD radix on uint32 keys, so equal
 * keys keep their input order (the index tie-break every NMS semantics
 * wants) and the order never depends on the platform's qsort. */
#ifndef PF_POST_SORT_H
#define PF_POST_SORT_H

#include <stdint.h>

/* Sorts vals[0..n) by keys ascending, stably; keys are permuted along.
 * tmp_keys / tmp_vals: n entries of scratch. */
void pfi_radix_sort(uint32_t *keys, int32_t *vals, uint32_t *tmp_keys, int32_t *tmp_vals, int32_t n);

/* Sorts vals[0..n) by keys ascending in the order torch's CPU
 * tensor.sort(stable=False) leaves them (libstdc++'s std::sort, equal keys
 * included: torch_sort.c). In place, no scratch. */
void pfi_torch_sort(uint32_t *keys, int32_t *vals, int32_t n);

#endif
