/* Builds one resize kernel table per ISA level, once: each level starts
 * from the level below and overrides the slots it accelerates, and the
 * table records which ISA every slot ended up with (pixflow info). */
#include <pthread.h>

#include "cpu/resize_exec.h"

const char *const pfi_resize_slot_names[PFI_RESIZE_SLOTS] = {
    "resize.h_u8_i32",    "resize.h_f32<u8>",   "resize.h_f32<u16>",  "resize.h_f32<f32>",
    "resize.h_aa_u8",     "resize.v_u8_linear", "resize.v_u8_fix22",  "resize.v_u8_cubic",
    "resize.v_f32<u8>",   "resize.v_f32<u16>",  "resize.v_f32<f32>",  "resize.v_aa_u8",
    "resize.h_u8_lin16",  "resize.area2_u8",    "resize.nn_u8"};

static pfi_resize_kernels g_tables[PF_ISA_NEON + 1];
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void *slot_ptr(pfi_resize_kernels *k, int i) {
    void *slots[PFI_RESIZE_SLOTS] = {
        (void *)&k->h_u8_i32,    (void *)&k->h_f32[0],   (void *)&k->h_f32[1],
        (void *)&k->h_f32[2],    (void *)&k->h_aa_u8,    (void *)&k->v_u8_linear,
        (void *)&k->v_u8_fix22,  (void *)&k->v_u8_cubic, (void *)&k->v_f32[0],
        (void *)&k->v_f32[1],    (void *)&k->v_f32[2],   (void *)&k->v_aa_u8,
        (void *)&k->h_u8_lin16,  (void *)&k->area2_u8,   (void *)&k->nn_u8};
    return slots[i];
}

/* Marks slots that `fill` changed relative to `base` as using `isa`. */
static void level(pf_isa isa, pf_isa below, void (*fill)(pfi_resize_kernels *)) {
    pfi_resize_kernels *k = &g_tables[isa];
    *k = g_tables[below];
    k->isa = isa;
    if (fill == NULL) return;
    fill(k);
    for (int i = 0; i < PFI_RESIZE_SLOTS; i++) {
        void **a = slot_ptr(k, i), **b = slot_ptr(&g_tables[below], i);
        if (*a != *b) k->slot_isa[i] = isa;
    }
}

#if defined(PF_HAVE_X86)
/* AVX-512 level: the F/BW/VL kernels, then the VBMI ones where the CPU
 * has VBMI (the fill declines otherwise). */
static void pfi_resize_fill_avx512_all(pfi_resize_kernels *k) {
    pfi_resize_fill_avx512(k);
    pfi_resize_fill_avx512vbmi(k);
}
#endif

static void build(void) {
    g_tables[PF_ISA_SCALAR] = pfi_resize_kernels_ref;
    for (int i = 0; i < PFI_RESIZE_SLOTS; i++) g_tables[PF_ISA_SCALAR].slot_isa[i] = PF_ISA_SCALAR;
#if defined(PF_HAVE_X86)
    level(PF_ISA_SSE4, PF_ISA_SCALAR, pfi_resize_fill_sse4);
    level(PF_ISA_AVX2, PF_ISA_SSE4, pfi_resize_fill_avx2);
    level(PF_ISA_AVX512, PF_ISA_AVX2, pfi_resize_fill_avx512_all);
    level(PF_ISA_NEON, PF_ISA_SCALAR, NULL);
#elif defined(PF_HAVE_NEON)
    level(PF_ISA_SSE4, PF_ISA_SCALAR, NULL);
    level(PF_ISA_AVX2, PF_ISA_SCALAR, NULL);
    level(PF_ISA_AVX512, PF_ISA_SCALAR, NULL);
    level(PF_ISA_NEON, PF_ISA_SCALAR, pfi_resize_fill_neon);
#else
    for (int i = 1; i <= PF_ISA_NEON; i++) level((pf_isa)i, PF_ISA_SCALAR, NULL);
#endif
}

const pfi_resize_kernels *pfi_resize_kernels_for(pf_isa isa) {
    pthread_once(&g_once, build);
    if ((int)isa < 0 || isa > PF_ISA_NEON) isa = PF_ISA_SCALAR;
    return &g_tables[isa];
}
