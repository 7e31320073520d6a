/*
 * The fused preprocess plan, backend-neutral: the description, its
 * derived constants (pad values, normalization tables), each backend's
 * state, and everything both backends decide per sample from its params
 * and source size: the geometry (crop, letterbox rectangle, composed
 * affine matrix) and the sample's chain (pfi_pp_sample: how the canvas is
 * sampled, which colour ops run, the output channel order). The CPU
 * (src/cpu/preprocess_*.c) and CUDA (src/cuda/preprocess_*jobs.c)
 * backends execute exactly these decisions.
 */
#ifndef PF_AUGMENT_PREPROCESS_PLAN_H
#define PF_AUGMENT_PREPROCESS_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/preprocess_chain.h"
#include "pixflow/augment.h"
#include "pixflow/runtime.h"
#include "plan/resize_plan.h"

/* A backend's per-plan state (the CPU's: per-worker scratch, the run's
 * geometry, its emit kernels' constants), made by the backend on first
 * use and freed with the plan. */
typedef struct pfi_pp_state {
    void *data;
    void (*free)(void *data);
} pfi_pp_state;

struct pf_preprocess_plan {
    pf_preprocess_desc d;
    size_t esize;              /* bytes per output element */
    uint8_t pad_u8[4];         /* pad_value per OUTPUT channel, rounded half-even, saturated */
    /* lut[c][v]: output channel c's element (out dtype bytes) for a u8
     * value v: (v * scale - mean[c]) / std[c] rounded to the dtype, or v
     * for u8 output. Normalization of u8 is a function of (c, v) alone, so
     * the table reproduces pf_normalize bit for bit. */
    unsigned char lut[4][256 * 4];
    pfi_pp_state state[PF_DEVICE_OPENCL + 1]; /* by pf_device_kind */
};

/* Everything about one sample's geometry that depends on its params and
 * source size. */
typedef struct pfi_pp_geom {
    int32_t cx, cy, cw, ch;    /* crop rectangle in the source */
    int32_t rw, rh;            /* size of the u8 canvas image (the resized crop, or out size with affine) */
    pfi_rz_window win;         /* resize-then-crop (params.resize_w): the crop resized to win.rw x win.rh,
                                  the canvas its window at (win.wx, win.wy); rw == 0: none */
    int32_t left, top;         /* where the canvas image sits in the output */
    double m[6];               /* affine: output pixel -> crop pixel (inverse map) */
    pf_letterbox_info info;    /* what pf_preprocess_run reports for the sample */
} pfi_pp_geom;

/* Per-sample geometry (params already validated; p may be identity). */
void pfi_pp_geometry(const pf_preprocess_plan *plan, const pf_image *src, const pf_aug_params *p,
                     pfi_pp_geom *g);

/* Letterbox size rule (ultralytics LetterBox): r = min(W/cw, H/ch),
 * rw = round_half_even(cw * r) clamped to [1, W] (same for h); the left /
 * top pad is floor((W - rw) / 2) for CENTER, 0 for TOP_LEFT. */
void pfi_pp_letterbox(const pf_preprocess_desc *d, int32_t cw, int32_t ch, int32_t *rw, int32_t *rh,
                      int32_t *left, int32_t *top);

/* The chain of one sample, in the order of the exactness contract:
 * sampler -> (swap R, B) -> ops[0..3] -> rgb_to_grayscale (3) -> gamma ->
 * rgb_to_grayscale (1) -> emit with `order`. Ops at their identity value
 * are skipped (brightness / contrast / saturation 1, hue 0, gamma 1), as
 * are saturation and hue of a 1-channel image (torchvision: identity):
 * the chain is defined without them. */
typedef struct pfi_pp_sample {
    pfi_pp_geom g;
    int sampler;       /* PFK_PP_COPY (the CPU resize does it as its COPY plan), _RESIZE or _WARP */
    int swap_first;    /* swap R and B before the colour ops (they mix channels, so need RGB) */
    int8_t ops[4];     /* PF_JITTER_* in jitter_order, PFK_PP_OP_NONE where skipped */
    int gray3;         /* rgb_to_grayscale to 3 channels (params.grayscale on a 3-channel image) */
    int gamma;         /* gamma != 1 */
    int gray1;         /* the canvas becomes 1 channel (a 1-channel plan on a 3-channel image) */
    int cc;            /* canvas channels at the end of the chain */
    int8_t order[4];   /* output channel c reads canvas channel order[c] (the swap when not done first) */
} pfi_pp_sample;

/* The sample's geometry and chain (params validated; p may be identity;
 * src gives the size and channels only). */
void pfi_pp_sample_of(const pf_preprocess_plan *plan, const pf_image *src, const pf_aug_params *p,
                      pfi_pp_sample *s);

/* 1 when the sample's colour ops mix channels (so they need RGB order). */
int pfi_pp_needs_rgb(const pf_preprocess_plan *plan, const pf_image *src, const pf_aug_params *p);
/* The warp options of the affine sampler (PF_WARP_INVERSE_MAP, CONSTANT
 * border holding the pad value each canvas channel will be read as). */
pf_warp_opts pfi_pp_warp_opts(const pf_preprocess_plan *plan, int32_t src_channels);

/* Whole-batch validation (every message names the argument); the views
 * must be host memory. */
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
/* The bytes [*lo, *hi) that samples [0, count) of dst span (validated
 * tensor, count >= 1): samples run in parallel, so a source may overlap
 * no written sample at all. */
pf_status pfi_pp_dst_span(const pf_tensor *dst, int count, const char **lo, const char **hi);

/* pf_preprocess_run_yuv: the fused paths take the 3-channel decode codes
 * of NV12/NV21 (kind 0), YV12/I420 (kind 1) and GRAY (kind 2, 1 channel);
 * -1 for the others. */
int pfi_pp_yuv_kind(pf_color_code code, int *channels);
/* Frame f's W x H x channels as an image shape (pfi_pp_check_shapes). */
pf_image pfi_pp_yuv_shape(const pf_yuv *f, pf_color_code code);
/* The frame rectangle a crop's conversion covers (the crop widened to
 * even edges: YUV -> RGB of pixel (x, y) reads only Y(x, y) and chroma
 * (x/2, y/2), so converting it equals converting the frame and cropping). */
void pfi_pp_yuv_rect(const pfi_pp_geom *g, int32_t *x0, int32_t *y0, int32_t *x1, int32_t *y1);
/* The whole-batch validation of pf_preprocess_run_yuv; host: planes must
 * be host memory, else every plane must share src[0].y's memory. On
 * success with count > 0, *shapes (malloc'd, the caller frees) holds each
 * frame's shape. */
pf_status pfi_pp_yuv_check(const pf_preprocess_plan *plan, int count, const pf_yuv src[],
                           const pf_color_code codes[], const pf_color_opts opts[], const pf_aug_params params[],
                           const pf_tensor *dst, int host, pf_image **shapes);

/* "pf_preprocess_run" */
#define PFI_PP_OP "pf_preprocess_run"

#endif
