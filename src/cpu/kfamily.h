/*
 * Kernel families: the dispatch tables of the ops other than resize.
 *
 * A family is a fixed list of named slots (function pointers of any type,
 * stored as pfi_kfn and cast back by the family's typed accessors). Its
 * tables are built once per ISA level, lazily: each level starts from the
 * level below and lets that ISA's fill function override the slots it
 * accelerates; the table records which ISA each slot ended up with, which
 * pf_dispatch_entry / `pixflow info` report.
 *
 * Usage (one family per op family, e.g. src/cpu/color_dispatch.c):
 *   static const char *const names[] = {"color.swap_rb_u8", ...};
 *   pfi_kfamily pfi_color_family = PFI_KFAMILY_INIT(names, PFI_COLOR_SLOTS,
 *       pfi_color_fill_ref, fill_sse4, fill_avx2, fill_avx512, fill_avx512vbmi, fill_neon);
 *   ... pfi_kfamily_table(&pfi_color_family, pf_stream_isa(stream))->fn[k]
 * and register the family in src/cpu/dispatch_report.c.
 */
#ifndef PF_CPU_KFAMILY_H
#define PF_CPU_KFAMILY_H

#include <pthread.h>

#include "pixflow/core.h"

#define PFI_KFAMILY_MAX_SLOTS 48

typedef void (*pfi_kfn)(void);
typedef void (*pfi_kfill)(pfi_kfn *slots);

typedef struct pfi_ktable {
    pfi_kfn fn[PFI_KFAMILY_MAX_SLOTS];
    pf_isa isa[PFI_KFAMILY_MAX_SLOTS];
} pfi_ktable;

typedef struct pfi_kfamily {
    const char *const *names;
    int nslots;
    /* fill[PF_ISA_SCALAR] must set every slot (the reference kernels);
     * the others may be NULL (nothing accelerated at that level) and
     * exist only when the matching ISA files are compiled in. A fill lives
     * in its ISA's translation unit and may contain that ISA's
     * instructions, so kfamily.c (compiled for the baseline) calls it only
     * when the CPU has the level: see pfi_cpu_has_level. */
    pfi_kfill fill[PF_ISA_NEON + 1];
    /* Run after fill[PF_ISA_AVX512], on CPUs that also have AVX512_VBMI. */
    pfi_kfill fill_vbmi;
    pthread_once_t once;
    pfi_ktable tables[PF_ISA_NEON + 1];
} pfi_kfamily;

#define PFI_KFAMILY_INIT(names_, nslots_, ref_, sse4_, avx2_, avx512_, vbmi_, neon_) \
    { (names_), (nslots_), { (ref_), (sse4_), (avx2_), (avx512_), (neon_) }, (vbmi_),  \
      PTHREAD_ONCE_INIT, { { { 0 }, { PF_ISA_SCALAR } } } }

/* The table for `isa` (builds every level on first use; thread-safe). */
const pfi_ktable *pfi_kfamily_table(pfi_kfamily *family, pf_isa isa);

/* Families known to pf_dispatch_entry, NULL-terminated (dispatch_report.c). */
extern pfi_kfamily *const pfi_kfamilies[];

/* Compile-time availability of ISA fill functions, so a family can name
 * them unconditionally: PFI_X86(f) is f on x86 builds, NULL elsewhere. */
#if defined(PF_HAVE_X86)
#  define PFI_X86(f) (f)
#else
#  define PFI_X86(f) NULL
#endif
#if defined(PF_HAVE_NEON)
#  define PFI_NEON(f) (f)
#else
#  define PFI_NEON(f) NULL
#endif

#endif
