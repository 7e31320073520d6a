/* Builds a kernel family's tables once per ISA level (see kfamily.h). */
#include <string.h>

#include "cpu/kfamily.h"

/* pthread_once takes no argument, so the family being built is handed
 * over through a thread-local; pthread_once runs the initializer on the
 * calling thread. */
static _Thread_local pfi_kfamily *t_building;

static void level(pfi_kfamily *f, pf_isa isa, pf_isa below) {
    pfi_ktable *t = &f->tables[isa];
    *t = f->tables[below];
    pfi_kfill fill = f->fill[isa];
    if (fill == NULL) return;
    fill(t->fn);
    for (int i = 0; i < f->nslots; i++)
        if (t->fn[i] != f->tables[below].fn[i]) t->isa[i] = isa;
}

static void build(void) {
    pfi_kfamily *f = t_building;
    pfi_ktable *t = &f->tables[PF_ISA_SCALAR];
    memset(t, 0, sizeof *t);
    f->fill[PF_ISA_SCALAR](t->fn);
    for (int i = 0; i < f->nslots; i++) t->isa[i] = PF_ISA_SCALAR;
    level(f, PF_ISA_SSE4, PF_ISA_SCALAR);
    level(f, PF_ISA_AVX2, PF_ISA_SSE4);
    level(f, PF_ISA_AVX512, PF_ISA_AVX2);
    level(f, PF_ISA_NEON, PF_ISA_SCALAR);
}

const pfi_ktable *pfi_kfamily_table(pfi_kfamily *f, pf_isa isa) {
    t_building = f;
    pthread_once(&f->once, build);
    if ((int)isa < 0 || isa > PF_ISA_NEON) isa = PF_ISA_SCALAR;
    return &f->tables[isa];
}
