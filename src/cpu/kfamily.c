/* Builds a kernel family's tables once per ISA level (see kfamily.h).
 *
 * This file is compiled for the baseline. The fill functions it calls live
 * in ISA translation units and may contain that ISA's instructions (the
 * compiler may vectorise even their slot stores), so a level's fill runs
 * only when the CPU has the level; the tables of levels above the CPU are
 * copies of its best level, so even a stray request for them runs
 * nothing the CPU lacks. */
#include <string.h>

#include "core/cpu.h"
#include "cpu/kfamily.h"

/* pthread_once takes no argument, so the family being built is handed
 * over through a thread-local; pthread_once runs the initializer on the
 * calling thread. */
static _Thread_local pfi_kfamily *t_building;

static void level(pfi_kfamily *f, pf_isa isa, pf_isa below, pf_isa top, int vbmi) {
    pfi_ktable *t = &f->tables[isa];
    *t = f->tables[below];
    if (isa > top) return; /* the CPU lacks this level: keep the one below */
    pfi_kfill fills[2] = {f->fill[isa], isa == PF_ISA_AVX512 && vbmi ? f->fill_vbmi : NULL};
    for (int k = 0; k < 2; k++)
        if (fills[k] != NULL) fills[k](t->fn);
    for (int i = 0; i < f->nslots; i++)
        if (t->fn[i] != f->tables[below].fn[i]) t->isa[i] = isa;
}

static void build(void) {
    pfi_kfamily *f = t_building;
    pfi_ktable *t = &f->tables[PF_ISA_SCALAR];
    memset(t, 0, sizeof *t);
    f->fill[PF_ISA_SCALAR](t->fn);
    for (int i = 0; i < f->nslots; i++) t->isa[i] = PF_ISA_SCALAR;
    unsigned feat = pf_cpu_features();
    pf_isa top = pfi_isa_best(feat, PF_ISA_NEON); /* what the CPU has, uncapped */
#if defined(PF_HAVE_NEON)
    /* on Arm the x86 levels are the reference (the cap maps to NEON or scalar) */
    for (int l = PF_ISA_SSE4; l <= PF_ISA_AVX512; l++) level(f, (pf_isa)l, PF_ISA_SCALAR, PF_ISA_SCALAR, 0);
    level(f, PF_ISA_NEON, PF_ISA_SCALAR, top, 0);
#else
    int vbmi = (feat & PF_CPU_AVX512VBMI) != 0;
    level(f, PF_ISA_SSE4, PF_ISA_SCALAR, top, vbmi);
    level(f, PF_ISA_AVX2, PF_ISA_SSE4, top, vbmi);
    level(f, PF_ISA_AVX512, PF_ISA_AVX2, top, vbmi);
    level(f, PF_ISA_NEON, PF_ISA_SCALAR, PF_ISA_SCALAR, 0); /* no NEON on x86 */
#endif
}

const pfi_ktable *pfi_kfamily_table(pfi_kfamily *f, pf_isa isa) {
    t_building = f;
    pthread_once(&f->once, build);
    if ((int)isa < 0 || isa > PF_ISA_NEON) isa = PF_ISA_SCALAR;
    return &f->tables[isa];
}
