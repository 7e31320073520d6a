/*
 * The fused preprocess on the CPU: the plan's CPU state (per-worker
 * scratch, the run's per-sample decisions, the emit kernels' constants)
 * and the two stages each sample runs: the u8 stage that produces the
 * augmented canvas (preprocess_canvas.c) and the emit pass that
 * normalizes it into the tensor (preprocess_emit.c), scheduled by
 * preprocess_run.c. What each sample does is decided by
 * augment/preprocess_plan.h (pfi_pp_sample).
 */
#ifndef PF_CPU_PREPROCESS_CPU_H
#define PF_CPU_PREPROCESS_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "augment/preprocess_plan.h"
#include "cpu/preprocess_exec.h"

typedef struct pfi_pp_cpu {
    /* the reciprocal emit kernels (preprocess_exec.h) reproduce the
     * division for every u8 value of every channel */
    int rcp_exact;
    pfi_pp_norm_k norm_k;
    /* Per-worker u8 scratch (resized image + 1-channel gray), grown when a
     * stream with more threads (or a larger sample) comes along. */
    int nscratch;
    size_t scratch_bytes;
    unsigned char **scratch;
    pfi_pp_sample *smp;        /* per-sample decisions of the current run (grows to the largest batch) */
    int nsmp;
} pfi_pp_cpu;

/* The plan's CPU state, made on first use (NULL: out of memory, with the
 * error set naming op). */
pfi_pp_cpu *pfi_pp_cpu_of(pf_preprocess_plan *plan, const char *op);

/* The u8 stage of one sample into `canvas` (rw x rh x canvas channels,
 * packed, in `scratch`): crop -> resize or warp -> channel swap -> colour
 * ops -> gray, as s decided; on `stream` (NULL: inline) with resize
 * kernels of `isa`. g is s's geometry relative to src (the YUV path's
 * source is the crop's even rectangle). */
pf_status pfi_pp_canvas_isa(const pf_preprocess_plan *plan, pf_stream *stream, pf_isa isa, const pf_image *src,
                            const pf_aug_params *p, const pfi_pp_sample *s, const pfi_pp_geom *g,
                            unsigned char *scratch, pf_image *canvas);

/* Emit rows [y0, y1) of output sample `out` from the canvas: padding,
 * flips (read mirrored), channel order, normalization, dtype, layout. */
typedef struct pfi_pp_emit {
    const pf_preprocess_plan *plan;
    const pf_image *canvas;
    const pfi_pp_geom *g;
    pf_image out;              /* the tensor's sample view */
    int8_t order[4];           /* output channel c reads canvas channel order[c] */
    int flip_h, flip_v;
    const struct pfi_convert_kernels *cvt_table;
    const struct pfi_geom_kernels *geom_table;
    const struct pfi_preprocess_kernels *pp_table;
    int pp_simd[PFI_PP_SLOTS]; /* the preprocess family's norm slot is SIMD at this level */
    const struct pfi_pp_cpu *cpu; /* the plan's CPU state (the reciprocal kernels' constants) */
} pfi_pp_emit;

void pfi_pp_emit_rows(const pfi_pp_emit *e, int32_t y0, int32_t y1);

/* Where the samples' u8 images come from when they are not given as
 * pf_image views: `make` writes sample i's crop rectangle (g->cx, cy, cw,
 * ch, maybe widened to even edges) as a packed u8 image into `scratch`
 * (at least `bytes(ctx, i, g)` bytes) and returns the view in *img and the
 * geometry relative to it in *local (the crop's offset inside *img). It
 * runs on `stream` (NULL: inline on the calling worker). The YUV path
 * (preprocess_yuv_cpu.c) converts 4:2:0 planes this way, inside the pass. */
typedef struct pfi_pp_source {
    pf_status (*make)(const void *ctx, int i, pf_stream *stream, const pfi_pp_geom *g, unsigned char *scratch,
                      pf_image *img, pfi_pp_geom *local);
    size_t (*bytes)(const void *ctx, int i, const pfi_pp_geom *g);
    const void *ctx;
} pfi_pp_source;

/* The run after validation: `shapes` give each sample's size and channels
 * (and are the images themselves when `source` is NULL). */
pf_status pfi_pp_execute(pf_preprocess_plan *plan, pf_stream *stream, int count, const pf_image shapes[],
                         const pfi_pp_source *source, const pf_aug_params params[], pf_tensor *dst,
                         pf_letterbox_info info[], const char *op);
#endif
