/* The post kernels' dispatch: the reference everywhere, AVX2 and AVX-512
 * kernels where the CPU has them (the avx512vbmi level keeps the AVX-512
 * ones). This file is compiled for the baseline;
 * the fills live in the ISA translation units (src/post/x86/) and run only
 * when CPUID and XGETBV report their level (core's pfi_isa_best), so no
 * table holds a level the CPU lacks: a level above the CPU copies the
 * one below. */
#include <pthread.h>
#include <string.h>

#include "core/cpu.h"
#include "core/error.h"
#include "core/stream.h"
#include "pixflow/post.h"
#include "post/post_kernels.h"

const char *const pfi_post_slot_names[] = {"post.nms_tv",     "post.iou_row",   "post.giou_row",
                                           "post.diou_row",   "post.argmax_row", "post.thresh_row",
                                           "post.composite_row", "post.proto_row", "post.best_row"};

static pfi_post_kernels g_tables[PF_ISA_NEON + 1];
static pf_isa g_isa[PF_ISA_NEON + 1][PFI_POST_SLOTS];
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void fill_ref(pfi_post_kernels *k) {
    k->nms_tv = pfi_nms_tv_ref;
    k->iou_row[0] = pfi_iou_row_ref;
    k->iou_row[1] = pfi_giou_row_ref;
    k->iou_row[2] = pfi_diou_row_ref;
    k->argmax_row = pfi_argmax_row_ref;
    k->thresh_row = pfi_thresh_row_ref;
    k->composite_row = pfi_composite_row_ref;
    k->proto_row = pfi_proto_row_ref;
    k->best_row = pfi_best_row_ref;
}

/* level `isa` = the level below, then its fill when the CPU has it */
static void level(pf_isa isa, pf_isa below, pf_isa top, void (*fill)(pfi_post_kernels *)) {
    g_tables[isa] = g_tables[below];
    memcpy(g_isa[isa], g_isa[below], sizeof g_isa[isa]);
    if (fill == NULL || isa > top) return;
    fill(&g_tables[isa]);
    void (*const *now)(void) = (void (*const *)(void))(const void *)&g_tables[isa];
    void (*const *was)(void) = (void (*const *)(void))(const void *)&g_tables[below];
    for (int i = 0; i < PFI_POST_SLOTS; i++)
        if (now[i] != was[i]) g_isa[isa][i] = isa;
}

static void build(void) {
    fill_ref(&g_tables[PF_ISA_SCALAR]);
    for (int i = 0; i < PFI_POST_SLOTS; i++) g_isa[PF_ISA_SCALAR][i] = PF_ISA_SCALAR;
    pf_isa top = pfi_isa_best(pf_cpu_features(), PF_ISA_NEON);
#if defined(PF_HAVE_X86)
    level(PF_ISA_SSE4, PF_ISA_SCALAR, top, NULL);
    level(PF_ISA_AVX2, PF_ISA_SSE4, top, pfi_post_fill_avx2);
    level(PF_ISA_AVX512, PF_ISA_AVX2, top, pfi_post_fill_avx512);
    level(PF_ISA_AVX512VBMI, PF_ISA_AVX512, top, NULL); /* no VBMI post kernels */
#else
    (void)top;
    level(PF_ISA_SSE4, PF_ISA_SCALAR, PF_ISA_SCALAR, NULL);
    level(PF_ISA_AVX2, PF_ISA_SSE4, PF_ISA_SCALAR, NULL);
    level(PF_ISA_AVX512, PF_ISA_AVX2, PF_ISA_SCALAR, NULL);
    level(PF_ISA_AVX512VBMI, PF_ISA_AVX512, PF_ISA_SCALAR, NULL);
#endif
    level(PF_ISA_NEON, PF_ISA_SCALAR, PF_ISA_SCALAR, NULL);
}

const pfi_post_kernels *pfi_post_kernels_at(pf_isa isa) {
    pthread_once(&g_once, build);
    if ((int)isa < 0 || isa > PF_ISA_NEON) isa = PF_ISA_SCALAR;
    return &g_tables[isa];
}

pf_isa pfi_post_slot_isa(pf_isa isa, int slot) {
    pthread_once(&g_once, build);
    if ((int)isa < 0 || isa > PF_ISA_NEON) isa = PF_ISA_SCALAR;
    return slot >= 0 && slot < PFI_POST_SLOTS ? g_isa[isa][slot] : PF_ISA_SCALAR;
}

int pf_post_dispatch_count(void) { return PFI_POST_SLOTS; }

pf_status pf_post_dispatch_entry(int i, const char **kernel, pf_isa *isa) {
    if (i < 0 || i >= PFI_POST_SLOTS)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_post_dispatch_entry: index %d is outside 0..%d", i,
                        PFI_POST_SLOTS - 1);
    if (kernel) *kernel = pfi_post_slot_names[i];
    if (isa) *isa = pfi_post_slot_isa(pf_cpu_active_isa(), i);
    return PF_OK;
}

const pfi_post_kernels *pfi_post_kernels_for(const pf_stream *stream) {
    return pfi_post_kernels_at(pf_stream_isa(stream));
}
