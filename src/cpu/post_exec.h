/* Post kernel family (slot names and ISA fill functions). The table type
 * is the post room's (post/post_kernels.h: its executors read it), the
 * family and its fills are the CPU backend's, as for every family. */
#ifndef PF_CPU_POST_EXEC_H
#define PF_CPU_POST_EXEC_H

#include "dispatch/kfamily.h"
#include "post/post_kernels.h"

extern pfi_kfamily pfi_post_family;

void pfi_post_fill_avx2(pfi_post_kernels *k);
void pfi_post_fill_avx512(pfi_post_kernels *k);

#endif
