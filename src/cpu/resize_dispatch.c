/* Builds one resize kernel table per ISA level, once: each level starts
 * from the level below and overrides the slots it accelerates, and the
 * table records which ISA every slot ended up with (pixflow info). */
#include <pthread.h>

#include "core/cpu.h"
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

/* Marks slots that the fills changed relative to the level below as using
 * `isa`. Compiled for the baseline: the fills live in ISA translation
 * units, so they run only when the CPU has the level (`top`, from CPUID
 * and XGETBV); a level above the CPU is a copy of the level below. */
static void level(pf_isa isa, pf_isa below, pf_isa top, void (*fill)(pfi_resize_kernels *),
                  void (*fill_extra)(pfi_resize_kernels *)) {
    pfi_resize_kernels *k = &g_tables[isa];
    *k = g_tables[below];
    if (isa > top) return;
    k->isa = isa;
    if (fill != NULL) fill(k);
    if (fill_extra != NULL) fill_extra(k);
    for (int i = 0; i < PFI_RESIZE_SLOTS; i++) {
        void **a = slot_ptr(k, i), **b = slot_ptr(&g_tables[below], i);
        if (*a != *b) k->slot_isa[i] = isa;
    }
}

static void build(void) {
    g_tables[PF_ISA_SCALAR] = pfi_resize_kernels_ref;
    for (int i = 0; i < PFI_RESIZE_SLOTS; i++) g_tables[PF_ISA_SCALAR].slot_isa[i] = PF_ISA_SCALAR;
    unsigned feat = pf_cpu_features();
    pf_isa top = pfi_isa_best(feat, PF_ISA_NEON); /* what the CPU has, uncapped */
#if defined(PF_HAVE_X86)
    level(PF_ISA_SSE4, PF_ISA_SCALAR, top, pfi_resize_fill_sse4, NULL);
    level(PF_ISA_AVX2, PF_ISA_SSE4, top, pfi_resize_fill_avx2, NULL);
    /* AVX-512 level: the F/BW/VL kernels, then the VBMI ones where the
     * CPU has VBMI */
    level(PF_ISA_AVX512, PF_ISA_AVX2, top, pfi_resize_fill_avx512,
          (feat & PF_CPU_AVX512VBMI) ? pfi_resize_fill_avx512vbmi : NULL);
    level(PF_ISA_NEON, PF_ISA_SCALAR, PF_ISA_SCALAR, NULL, NULL);
#elif defined(PF_HAVE_NEON)
    for (int i = PF_ISA_SSE4; i <= PF_ISA_AVX512; i++) level((pf_isa)i, PF_ISA_SCALAR, PF_ISA_SCALAR, NULL, NULL);
    level(PF_ISA_NEON, PF_ISA_SCALAR, top, pfi_resize_fill_neon, NULL);
#else
    (void)feat;
    (void)top;
    for (int i = 1; i <= PF_ISA_NEON; i++) level((pf_isa)i, PF_ISA_SCALAR, PF_ISA_SCALAR, NULL, NULL);
#endif
}

const pfi_resize_kernels *pfi_resize_kernels_for(pf_isa isa) {
    pthread_once(&g_once, build);
    if ((int)isa < 0 || isa > PF_ISA_NEON) isa = PF_ISA_SCALAR;
    return &g_tables[isa];
}
