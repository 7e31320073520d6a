/*
 * Fused preprocess internals: the plan (description + derived constants +
 * per-worker scratch), the per-sample geometry derived from the params,
 * and the three stages the run is made of (validation, the u8 stage that
 * produces the augmented canvas, the emit pass that normalizes it into
 * the tensor).
 */
#ifndef PF_CPU_PREPROCESS_INTERNAL_H
#define PF_CPU_PREPROCESS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cpu/preprocess_exec.h"
#include "pixflow/augment.h"

struct pf_preprocess_plan {
    pf_preprocess_desc d;
    size_t esize;              /* bytes per output element */
    uint8_t pad_u8[4];         /* pad_value per OUTPUT channel, rounded half-even, saturated */
    /* lut[c][v]: output channel c's element (out dtype bytes) for a u8
     * value v: (v * scale - mean[c]) / std[c] rounded to the dtype, or v
     * for u8 output. Normalization of u8 is a function of (c, v) alone, so
     * the table reproduces pf_normalize bit for bit. */
    unsigned char lut[4][256 * 4];
    /* the reciprocal emit kernels (preprocess_exec.h) reproduce the
     * division for every u8 value of every channel */
    int rcp_exact;
    pfi_pp_norm_k norm_k;
    /* Per-worker u8 scratch (resized image + 1-channel gray), grown when a
     * stream with more threads (or a larger sample) comes along. */
    int nscratch;
    size_t scratch_bytes;
    unsigned char **scratch;
    struct pfi_pp_geom *geom;  /* per-sample geometry of the current run (grows to the largest batch) */
    int ngeom;
};

/* Everything about one sample that depends on its params and source size. */
typedef struct pfi_pp_geom pfi_pp_geom;
struct pfi_pp_geom {
    int32_t cx, cy, cw, ch;    /* crop rectangle in the source */
    int32_t rw, rh;            /* size of the u8 canvas image (the resized crop, or out size with affine) */
    int32_t left, top;         /* where the canvas image sits in the output */
    double m[6];               /* affine: output pixel -> crop pixel (inverse map) */
    pf_letterbox_info info;    /* what pf_preprocess_run reports for the sample */
};

/* Per-sample geometry (params already validated; p may be identity). */
void pfi_pp_geometry(const pf_preprocess_plan *plan, const pf_image *src, const pf_aug_params *p,
                     pfi_pp_geom *g);

/* Letterbox size rule (ultralytics LetterBox): r = min(W/cw, H/ch),
 * rw = round_half_even(cw * r) clamped to [1, W] (same for h); the left /
 * top pad is floor((W - rw) / 2) for CENTER, 0 for TOP_LEFT. */
void pfi_pp_letterbox(const pf_preprocess_desc *d, int32_t cw, int32_t ch, int32_t *rw, int32_t *rh,
                      int32_t *left, int32_t *top);

/* Whole-batch validation (every message names the argument). */
pf_status pfi_pp_check(const pf_preprocess_plan *plan, int count, const pf_image src[],
                       const pf_aug_params params[], const pf_tensor *dst);
/* The same without checking src[] as images: they only give each
 * sample's width, height and channels (the caller checks its pixels);
 * host: dst must be host memory. */
pf_status pfi_pp_check_shapes(const pf_preprocess_plan *plan, int count, const pf_image shapes[],
                              const pf_aug_params params[], const pf_tensor *dst, int host);
/* pfi_pp_check for device views: the same checks but where the memory
 * lives (the caller's routing decided that). */
pf_status pfi_pp_check_device(const pf_preprocess_plan *plan, int count, const pf_image src[],
                              const pf_aug_params params[], const pf_tensor *dst);
pf_status pfi_pp_check_desc(const pf_preprocess_desc *d, const char *op);

/* The u8 stage of one sample into `canvas` (rw x rh x canvas channels,
 * packed, in `scratch`): crop -> resize or warp -> channel swap when the
 * colour ops need RGB -> colour ops -> gray to 1 channel; on `stream`
 * (NULL: inline) with resize kernels of `isa`. *swapped tells the emit
 * pass whether the swap was already applied. */
pf_status pfi_pp_canvas_isa(const pf_preprocess_plan *plan, pf_stream *stream, pf_isa isa, const pf_image *src,
                            const pf_aug_params *p, const pfi_pp_geom *g, unsigned char *scratch,
                            pf_image *canvas, int *swapped);
/* The warp options of the affine path (PF_WARP_INVERSE_MAP, CONSTANT
 * border holding the pad value each canvas channel will be read as). */
pf_warp_opts pfi_pp_warp_opts(const pf_preprocess_plan *plan, int32_t src_channels);
/* 1 when the sample's colour ops mix channels (so they need RGB order). */
int pfi_pp_needs_rgb(const pf_preprocess_plan *plan, const pf_image *src, const pf_aug_params *p);

/* Emit rows [y0, y1) of output sample `out` from the canvas: padding,
 * flips (read mirrored), channel order, normalization, dtype, layout. */
typedef struct pfi_pp_emit {
    const pf_preprocess_plan *plan;
    const pf_image *canvas;
    const pfi_pp_geom *g;
    pf_image out;              /* the tensor's sample view */
    int8_t order[4];           /* output channel c reads canvas channel order[c] */
    int flip_h, flip_v;
    const void *cvt_table;     /* pfi_ktable of the convert family */
    const void *geom_table;    /* pfi_ktable of the geometry family */
    const void *pp_table;      /* pfi_ktable of the preprocess family */
} pfi_pp_emit;

void pfi_pp_emit_rows(const pfi_pp_emit *e, int32_t y0, int32_t y1);

/* Where the samples' u8 images come from when they are not given as
 * pf_image views: `make` writes sample i's crop rectangle (g->cx, cy, cw,
 * ch, maybe widened to even edges) as a packed u8 image into `scratch`
 * (at least `bytes(ctx, i, g)` bytes) and returns the view in *img and the
 * geometry relative to it in *local (the crop's offset inside *img). It
 * runs on `stream` (NULL: inline on the calling worker). The YUV path
 * (video_preprocess.c) converts 4:2:0 planes this way, inside the pass. */
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

/* pf_preprocess_run_yuv (video_preprocess.c): the frame rectangle a
 * crop's conversion covers (the crop widened to even edges) ... */
void pfi_pp_yuv_rect(const pfi_pp_geom *g, int32_t *x0, int32_t *y0, int32_t *x1, int32_t *y1);
/* ... and the whole-batch validation; host: planes must be host memory,
 * else every plane must share src[0].y's memory. On success with
 * count > 0, *shapes (malloc'd, the caller frees) holds each frame's
 * W x H x channels as an image shape. */
pf_status pfi_pp_yuv_check(const pf_preprocess_plan *plan, int count, const pf_yuv src[],
                           const pf_color_code codes[], const pf_color_opts opts[], const pf_aug_params params[],
                           const pf_tensor *dst, int host, pf_image **shapes);

/* "pf_preprocess_run" */
#define PFI_PP_OP "pf_preprocess_run"

#endif
