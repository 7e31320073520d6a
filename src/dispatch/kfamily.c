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
#include "dispatch/kfamily.h"

/* pthread_once takes no argument, so the family being built is handed
 * over through a thread-local; pthread_once runs the initializer on the
 * calling thread. */
static _Thread_local pfi_kfamily *t_building;

static unsigned char *table(pfi_kfamily *f, pf_isa isa) { return (unsigned char *)f->tables + (size_t)isa * f->size; }

static void level(pfi_kfamily *f, pf_isa isa, pf_isa below, pf_isa top) {
    unsigned char *t = table(f, isa);
    const unsigned char *b = table(f, below);
    memcpy(t, b, f->size);
    memcpy(f->isa[isa], f->isa[below], sizeof f->isa[isa]);
    if (isa > top) return; /* the CPU lacks this level: keep the one below */
    f->fill(t, isa);
    /* a slot is this level's when its function pointer changed */
    for (int i = 0; i < f->nslots; i++)
        if (memcmp(t + f->slots[i].offset, b + f->slots[i].offset, sizeof(pfi_kfn)) != 0) f->isa[isa][i] = isa;
}

static void build(void) {
    pfi_kfamily *f = t_building;
    memset(table(f, PF_ISA_SCALAR), 0, f->size);
    f->fill(table(f, PF_ISA_SCALAR), PF_ISA_SCALAR);
    for (int i = 0; i < f->nslots; i++) f->isa[PF_ISA_SCALAR][i] = PF_ISA_SCALAR;
    unsigned feat = pf_cpu_features();
    pf_isa top = pfi_isa_best(feat, PF_ISA_NEON); /* what the CPU has, uncapped */
#if defined(PF_HAVE_NEON)
    /* on Arm the x86 levels are the reference (the cap maps to NEON or scalar) */
    for (int l = PF_ISA_SSE4; l <= PF_ISA_AVX512VBMI; l++) level(f, (pf_isa)l, PF_ISA_SCALAR, PF_ISA_SCALAR);
    level(f, PF_ISA_NEON, PF_ISA_SCALAR, top);
#else
    /* each x86 level starts from the one below: avx512vbmi = avx512 + VBMI */
    for (int l = PF_ISA_SSE4; l <= PF_ISA_AVX512VBMI; l++) level(f, (pf_isa)l, (pf_isa)(l - 1), top);
    level(f, PF_ISA_NEON, PF_ISA_SCALAR, PF_ISA_SCALAR); /* no NEON on x86 */
#endif
}

static pf_isa clamp(pf_isa isa) { return (int)isa < 0 || isa > PF_ISA_NEON ? PF_ISA_SCALAR : isa; }

const void *pfi_kfamily_table(pfi_kfamily *f, pf_isa isa) {
    t_building = f;
    pthread_once(&f->once, build);
    return table(f, clamp(isa));
}

pf_isa pfi_kfamily_slot_isa(pfi_kfamily *f, pf_isa isa, int slot) {
    pfi_kfamily_table(f, isa);
    return f->isa[clamp(isa)][slot];
}
