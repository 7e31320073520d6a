/*
 * Kernel families: the one dispatch engine, a table per op family and ISA
 * level. Infrastructure, not CPU-backend code: every room may use it (the
 * CPU backend's families, and the post room's executors, which read the
 * post family through the registry below).
 *
 * A family's table is a struct of typed function pointers (e.g.
 * pfi_color_kernels in color_exec.h); its slots are listed once, with
 * their names, as pfi_kslot entries (PFI_KSLOT). The tables are built
 * once per ISA level, lazily: each level starts from the level below and
 * lets that ISA's typed fill function override the slots it accelerates;
 * the family records which ISA each slot ended up with, which
 * pf_dispatch_entry / `pixflow info` report. On x86 the levels are
 * scalar < sse4 < avx2 < avx512 < avx512vbmi: the avx512vbmi table is the
 * avx512 one plus the VBMI fill, so at PIXFLOW_CPU=avx512 (a Skylake-SP)
 * no VBMI kernel is in any table.
 *
 * A family (e.g. src/cpu/color_dispatch.c):
 *   static const pfi_kslot slots[] = {PFI_KSLOT(pfi_color_kernels, row[0], "color.swap_rb_u8c3"), ...};
 *   PFI_KFAMILY_DEFINE(pfi_color_family, pfi_color_kernels, slots, fill_ref, NULL,
 *                      PFI_X86(pfi_color_fill_avx2), NULL, PFI_X86(pfi_color_fill_avx512vbmi), NULL);
 * where each fill is a void (*)(pfi_color_kernels *); callers use
 *   const pfi_color_kernels *k = pfi_kfamily_table(&pfi_color_family, pf_stream_isa(stream));
 * and the family is registered in src/dispatch/dispatch_report.c.
 */
#ifndef PF_DISPATCH_KFAMILY_H
#define PF_DISPATCH_KFAMILY_H

#include <pthread.h>
#include <stddef.h>

#include "pixflow/core.h"

#define PFI_KFAMILY_MAX_SLOTS 48

/* The fill levels: PF_ISA_SCALAR .. PF_ISA_NEON, one table each. */
#define PFI_KLEVELS (PF_ISA_NEON + 1)

/* The engine's slot-comparison type: the builder compares one slot of two
 * tables as this many bytes (every slot is one function pointer, which
 * PFI_KSLOT checks); no table is ever read through it. */
typedef void (*pfi_kfn)(void);

/* One slot: its name and where the function pointer sits in the table.
 * The sizeof term makes the build fail unless the member is one function
 * pointer (the builder compares slots as such). */
typedef struct pfi_kslot {
    const char *name;
    size_t offset;
} pfi_kslot;
#define PFI_KSLOT(T, member, name_)                                                               \
    {                                                                                             \
        (name_), offsetof(T, member) + 0 * sizeof(char[sizeof(((T *)0)->member) == sizeof(pfi_kfn) ? 1 : -1]) \
    }

typedef struct pfi_kfamily {
    const pfi_kslot *slots;
    int nslots;
    size_t size;                          /* bytes of one table */
    /* Runs the family's typed fill of `level` (a PF_ISA_*) on `table` (a
     * no-op when that level has none). fill at PF_ISA_SCALAR sets every
     * slot (the reference kernels); the others live in their ISA's
     * translation unit and may contain that ISA's instructions, so
     * kfamily.c (compiled for the baseline) calls them only when the CPU
     * has the level. */
    void (*fill)(void *table, int level);
    void *tables;                         /* PFI_KLEVELS tables of `size` bytes */
    pthread_once_t once;
    pf_isa isa[PFI_KLEVELS][PFI_KFAMILY_MAX_SLOTS]; /* the ISA of each slot, per level */
} pfi_kfamily;

/* Defines family `var` of table type T with slot list `slots_` and the
 * typed fills of each level (NULL: nothing at that level). */
#define PFI_KFAMILY_DEFINE(var, T, slots_, ref_, sse4_, avx2_, avx512_, vbmi_, neon_)                 \
    static T var##_tables[PFI_KLEVELS];                                                               \
    static void var##_fill(void *table, int level) {                                                  \
        static void (*const fills[PFI_KLEVELS])(T *) = {[PF_ISA_SCALAR] = (ref_), [PF_ISA_SSE4] = (sse4_), \
                                                        [PF_ISA_AVX2] = (avx2_), [PF_ISA_AVX512] = (avx512_), \
                                                        [PF_ISA_AVX512VBMI] = (vbmi_), [PF_ISA_NEON] = (neon_)}; \
        if (fills[level] != NULL) fills[level]((T *)table);                                           \
    }                                                                                                 \
    pfi_kfamily var = {(slots_), (int)(sizeof(slots_) / sizeof((slots_)[0])), sizeof(T), var##_fill,  \
                       var##_tables, PTHREAD_ONCE_INIT, {{PF_ISA_SCALAR}}}

/* The table for `isa` (builds every level on first use; thread-safe);
 * the caller converts it to the family's table type. */
const void *pfi_kfamily_table(pfi_kfamily *family, pf_isa isa);
/* The ISA that slot `slot` of the `isa` table really uses (a level may
 * keep a lower level's kernel). */
pf_isa pfi_kfamily_slot_isa(pfi_kfamily *family, pf_isa isa, int slot);

/* The registered families (dispatch_report.c), in the order
 * pf_dispatch_entry and `pixflow info` list them. A room that may not name
 * a family's definition reaches it here by id: the post room's executors
 * (src/post) read the post family, which the CPU backend defines with its
 * ISA fills (src/cpu/post_dispatch.c). */
typedef enum pfi_family_id {
    PFI_FAMILY_RESIZE,
    PFI_FAMILY_COLOR,
    PFI_FAMILY_YUV,
    PFI_FAMILY_CONVERT,
    PFI_FAMILY_LUT,
    PFI_FAMILY_GEOM,
    PFI_FAMILY_WARP,
    PFI_FAMILY_PHOTO,
    PFI_FAMILY_FILTER,
    PFI_FAMILY_PREPROCESS,
    PFI_FAMILY_POST,
    PFI_FAMILY_COUNT
} pfi_family_id;
extern pfi_kfamily *const pfi_kfamilies[PFI_FAMILY_COUNT];

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
