/* pf_resize on the CPU: each sample through its plan (resize_exec.c) with
 * the kernels of the stream's ISA level. */
#include "cpu/cpu_kernels.h"
#include "cpu/resize_exec.h"

pf_status pfi_cpu_resize(pf_stream *s, int count, const pf_image src[], pf_image dst[], const pf_resize_opts *opts) {
    const pfi_resize_kernels *K = pfi_resize_kernels_for(pf_stream_isa(s));
    for (int i = 0; i < count; i++) {
        pf_status st = pfi_resize_image(s, K, &src[i], &dst[i], opts->interp, opts->flavor, opts->antialias, NULL);
        if (st != PF_OK) return st;
    }
    return PF_OK;
}
