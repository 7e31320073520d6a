/*
 * pixflow augment: the fused preprocess (decoded images of any size ->
 * one model-ready batch tensor in one pass) and the deterministic sampler
 * that draws per-sample augmentation parameters with torchvision v2
 * semantics from a counter-based generator.
 *
 * Typical training use:
 *   pf_preprocess_desc d; pf_aug_policy p;
 *   pf_recipe("imagenet-train", &d, &p);              // then override fields
 *   pf_preprocess_plan *plan; pf_preprocess_plan_create(&d, &plan);
 *   for each batch:
 *     pf_aug_sample(&p, seed, epoch, first_index, n, widths, heights, params);
 *     pf_preprocess_run(plan, stream, n, images, params, &tensor, NULL);
 */
#ifndef PIXFLOW_AUGMENT_H
#define PIXFLOW_AUGMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "pixflow/core.h"
#include "pixflow/ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------ per-sample parameters */

/* Indices of the four ColorJitter ops in pf_aug_params.jitter_order. */
enum { PF_JITTER_BRIGHTNESS = 0, PF_JITTER_CONTRAST = 1, PF_JITTER_SATURATION = 2, PF_JITTER_HUE = 3 };

/* Everything that may differ between samples. pf_aug_params_identity()
 * gives "no augmentation": whole image, no flip, no affine, factors 1,
 * hue 0, gamma 1, no grayscale. */
typedef struct pf_aug_params {
    /* geometry, applied in this order: crop -> resize (to the plan's
     * output size, or into the letterbox rectangle) -> flips. */
    int32_t crop_x, crop_y, crop_w, crop_h; /* source rectangle; crop_w <= 0 or crop_h <= 0: whole image */
    bool flip_h, flip_v;
    /* Optional affine (torchvision RandomAffine / RandomRotation
     * semantics, about the centre of the resized crop): when `affine` is
     * true the crop+resize+affine compose into one warp (pf_warp_affine
     * with the plan's interpolation, CONSTANT border = fill). */
    bool affine;
    float angle;                  /* degrees, as torchvision F.affine(angle) and a
                                     RandomAffine draw: clockwise on screen (y down);
                                     F.rotate(a) is angle = -a */
    float translate_x, translate_y; /* pixels of the output */
    float scale;                  /* 1 = none */
    float shear_x, shear_y;       /* degrees */
    /* colour (torchvision v2 ColorJitter / RandomGrayscale / adjust_gamma),
     * applied to the u8 resized image in jitter_order, then grayscale, then
     * gamma. Identity values: 1, 1, 1, 0, false, 1. */
    float brightness, contrast, saturation, hue;
    int8_t jitter_order[4];       /* a permutation of PF_JITTER_*; identity {0,1,2,3} */
    bool grayscale;               /* 3-channel gray (num_output_channels = 3) */
    float gamma;
    /* Resize-then-crop (torchvision Resize + CenterCrop, exactly): when
     * resize_w and resize_h are >= 1 the crop is resized to resize_w x
     * resize_h and the sample is the window of the plan's output size at
     * (window_x, window_y) of that image, which must lie inside it. Needs
     * the plan's flavor PF_RESIZE_TORCHVISION, no letterbox and no affine.
     * 0 x 0 (identity): the crop is resized to the output size. */
    int32_t resize_w, resize_h;
    int32_t window_x, window_y;
} pf_aug_params;

PF_API pf_aug_params pf_aug_params_identity(void);

/* --------------------------------------------------------- fused plan */

typedef enum pf_letterbox_align {
    PF_LETTERBOX_CENTER = 0,  /* pad equally on both sides (odd pixel right/bottom), YOLO style */
    PF_LETTERBOX_TOP_LEFT = 1 /* image at (0,0), pad right and bottom */
} pf_letterbox_align;

/* What the plan does to every sample (fixed for the plan's life). */
typedef struct pf_preprocess_desc {
    int32_t out_width, out_height;   /* tensor spatial size (required, >= 1) */
    int32_t out_channels;            /* 3 (default) or 1 (gray models) */
    pf_interp interp;                /* default PF_INTERP_LINEAR */
    bool antialias;                  /* default false (see pf_resize) */
    pf_resize_flavor flavor;         /* default PF_RESIZE_OPENCV (see pf_resize); the warp of
                                        params.affine is OpenCV's in every flavour */
    bool letterbox;                  /* keep aspect ratio and pad (detection) */
    pf_letterbox_align letterbox_align;
    double pad_value[4];             /* letterbox / affine fill per OUTPUT channel, u8 units (e.g. 114),
                                        rounded half-even; a 1-channel canvas uses pad_value[0] */
    bool swap_rb;                    /* input BGR -> output RGB (or back) */
    float scale;                     /* output = (u8 * scale - mean[c]) / std[c]; default 1/255 */
    float mean[4], std[4];           /* default 0 and 1 */
    pf_dtype out_dtype;              /* PF_F32 (default), PF_F16, PF_BF16 or PF_U8 (u8: no normalization) */
    pf_layout out_layout;            /* PF_CHW (NCHW, default) or PF_HWC (NHWC) */
} pf_preprocess_desc;

PF_API pf_preprocess_desc pf_preprocess_desc_defaults(void);

typedef struct pf_preprocess_plan pf_preprocess_plan;

PF_API pf_status pf_preprocess_plan_create(const pf_preprocess_desc *desc, pf_preprocess_plan **out);
PF_API void pf_preprocess_plan_destroy(pf_preprocess_plan *plan);

/* How output pixel coordinates of one sample map back to its source
 * image: src_x = (out_x - offset_x) / scale_x + crop_x (same for y), for
 * un-mapping detector boxes. Flips and affine are not included (boxes of
 * flipped training samples are flipped by the caller). */
typedef struct pf_letterbox_info {
    float scale_x, scale_y;
    float offset_x, offset_y;
    int32_t crop_x, crop_y;
} pf_letterbox_info;

/*
 * pf_preprocess_run: src[i] (u8, 1 or 3 channels HWC, any size) -> sample
 * i of `dst` (a pf_tensor with n >= count, the plan's size, channels,
 * dtype and layout; pitched allowed). params may be NULL (identity for all)
 * or hold count entries. info may be NULL or receive count entries.
 *
 * Exactness: bit-identical to the op-by-op chain pf_resize (u8) (or
 * pf_warp_affine with params.affine) -> pf_flip -> colour ops in order
 * (identity values skipped) -> pf_copy_make_border (letterbox) ->
 * pf_normalize (u8 output: pf_reformat) into the tensor, for any thread
 * count, ISA and batch position; hence OpenCV-exact where that chain is
 * (docs/exactness.md "Fused preprocess" spells the chain out).
 * Letterbox (ultralytics): r = min(out_w/crop_w, out_h/crop_h), resized
 * size round_half_even(crop * r), pad = pad_value; padding is not
 * augmented. Colour ops see RGB: with swap_rb and a channel-mixing colour
 * op the swap happens before them.
 * Sources: u8, 1 or 3 channels, HWC. A 1-channel source fills 3
 * output channels with its value; a 3-channel source into out_channels 1
 * goes through pf_rgb_to_grayscale after gamma.
 * The plan owns per-thread scratch (grown on first use with a stream of
 * more threads or a larger sample): one pf_preprocess_run per plan at a
 * time. Every argument is checked for the whole batch before anything is
 * written.
 *
 * Backends: host views run on the CPU (stream NULL or a CPU stream).
 * CUDA device views (every src[i] and dst on one device; stream NULL =
 * synchronous, or a stream of that device = asynchronous) run on the GPU
 * with the same validation, features and bits as the CPU path (every
 * interp incl. antialias, affine, letterbox, all colour ops, every out
 * dtype/layout, pitched tensors, varshape batches): one kernel launch per
 * batch, plus one reduction launch first when some sample has contrast
 * != 1 (its mean). The per-sample parameters go up in one pinned upload
 * through the stream's parameter arena; info[] is filled on the host
 * before the call returns. Mixing host and device views is an error.
 * OpenCL device views (PF_MEM_OPENCL) run the same way with the same bits
 * (pf_preprocess_run_yuv too); the contrast pre-pass needs the device's
 * cl_khr_int64_base_atomics, and a batch with contrast != 1 on a device
 * without it fails with PF_ERR_UNSUPPORTED naming the extension.
 */
PF_API pf_status pf_preprocess_run(pf_preprocess_plan *plan, pf_stream *stream, int count,
                                   const pf_image src[], const pf_aug_params params[],
                                   pf_tensor *dst, pf_letterbox_info info[]);

/* ---------------------------------------------------------- sampler */

/* Augmentation policy with torchvision.transforms.v2 parameter names and
 * maths. Each enabled transform draws from Philox4x32-10 keyed by
 * (seed, epoch, sample index, transform id): no hidden state, so the same
 * (seed, epoch, index) gives the same parameters everywhere (any batch
 * split, thread, run or platform). The generator is not torch's, so the
 * values differ from torchvision's for the same seed; the distributions are
 * the same (tests/python/test_sampler_distributions.py). Keying layout and
 * details: docs/exactness.md, "Sampler".
 *
 * Every field is checked on every call, enabled or not (the defaults are
 * valid): pf_aug_sample fails with PF_ERR_INVALID_ARGUMENT naming the
 * field for NaN, a probability outside [0, 1], or a range with lo > hi. */
typedef struct pf_aug_policy {
    /* RandomResizedCrop (train): 10 attempts, then the centre fallback.
     * The crop rect is in source pixels; the resize to the output size is
     * the plan's. */
    bool random_resized_crop;
    float rrc_scale[2];   /* default 0.08, 1.0; need 0 < lo <= hi <= 1 */
    float rrc_ratio[2];   /* default 3/4, 4/3; need 0 < lo <= hi (normal floats) */
    /* Resize(shorter side) + CenterCrop (eval); used when RRC is off.
     * Expressed as the source rect that resize-then-crop keeps (edges
     * rounded to whole source pixels: exact up to that rounding). A centre
     * crop larger than the (resized) image is clamped to it, where
     * torchvision would pad with zeros. Resize alone gives the whole image
     * (the output size is the plan's). */
    int32_t resize_shorter;  /* 0: none; >= 0 */
    int32_t center_crop_w, center_crop_h; /* both 0 (none) or both >= 1 */
    /* RandomHorizontalFlip / RandomVerticalFlip: flip when u < p */
    float hflip_p, vflip_p;
    /* ColorJitter: ranges [lo, hi] as torchvision builds them from the
     * scalar arguments (brightness b -> [max(0, 1-b), 1+b], hue h -> [-h, h]);
     * a range of {1,1} (or {0,0} for hue) disables that op (its factor
     * stays the identity and draws nothing), as torchvision's None. Need
     * 0 <= lo <= hi for brightness/contrast/saturation, -0.5 <= lo <= hi
     * <= 0.5 for hue. The order is a uniform random permutation. */
    bool color_jitter;
    float brightness[2], contrast[2], saturation[2], hue[2];
    /* RandomGrayscale: gray when u < p */
    float grayscale_p;
    /* RandomAffine / RandomRotation (degrees range, any sign; translate
     * fractions in [0, 1] of affine_width/height, drawn then rounded to
     * whole pixels as torchvision does; scale range, 0 < lo <= hi; shear
     * ranges x (shear[0..1]) and y (shear[2..3]) in degrees). RandomRotation
     * is this with translate {0,0}, scale {1,1}, shear all 0. */
    bool random_affine;
    float degrees[2];
    float translate[2];
    float scale_range[2];
    float shear[4];
    /* Size of the image the affine applies to (the plan's output size):
     * torchvision's translate bound is a fraction of it. Required (>= 1)
     * when random_affine is on with a non-zero translate; else ignored. */
    int32_t affine_width, affine_height;
    /* PF_RESIZE_TORCHVISION: Resize(resize_shorter) + CenterCrop become
     * resize-then-crop parameters (the whole image, resize_w/h by
     * torchvision's size rule, the window at CenterCrop's anchor), so that
     * a plan of that flavour gives torchvision's Resize + CenterCrop
     * exactly (no source-rect rounding); a centre crop larger than the
     * resized image falls back to the source rect. Other values: the
     * source-rect mapping above. Default PF_RESIZE_OPENCV. */
    pf_resize_flavor flavor;
} pf_aug_policy;

/* Everything off; every range at its identity (RRC ranges at torchvision's
 * defaults 0.08-1 and 3/4-4/3) so enabling a transform only needs its own
 * fields. */
PF_API pf_aug_policy pf_aug_policy_defaults(void);

/* Draws parameters for samples first_index .. first_index + count - 1 of
 * an epoch (epoch < 2^32: it is one 32-bit counter word); widths/heights
 * are the source image sizes (>= 1; RandomResizedCrop and CenterCrop depend
 * on them). out[i] is fully written: crop rect (always explicit, in source
 * pixels), flips, jitter factors and order, grayscale flag, affine fields;
 * gamma is 1. Validates everything before writing anything. count == 0 is
 * a no-op (the arrays may then be NULL). Single-threaded and cheap (a few
 * million samples per second, docs/performance.md); call it per batch from
 * any thread. */
PF_API pf_status pf_aug_sample(const pf_aug_policy *policy, uint64_t seed, uint64_t epoch,
                               uint64_t first_index, int count, const int32_t widths[],
                               const int32_t heights[], pf_aug_params out[]);

/* ---------------------------------------------------------- recipes */

/* Named presets: "imagenet-train" (RRC 224, hflip 0.5, ColorJitter
 * 0.4/0.4/0.4/0.1 present but off (color_jitter = false), ImageNet mean/std,
 * NCHW f32), "imagenet-eval" (resize shorter side 256 + center crop 224),
 * "imagenet-train-torchvision" / "imagenet-eval-torchvision" (the same
 * with torchvision's pixels: desc.flavor and policy.flavor
 * PF_RESIZE_TORCHVISION, antialias as torchvision's default),
 * "yolo" (letterbox 640, pad 114, /255, NCHW f32). Fills both structs;
 * either may be NULL. Unknown name -> PF_ERR_INVALID_ARGUMENT listing the
 * known names. */
PF_API pf_status pf_recipe(const char *name, pf_preprocess_desc *desc, pf_aug_policy *policy);

#ifdef __cplusplus
}
#endif

#endif /* PIXFLOW_AUGMENT_H */
