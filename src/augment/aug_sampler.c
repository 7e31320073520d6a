/*
 * pf_aug_policy_defaults and pf_aug_sample: per-sample augmentation
 * parameters with torchvision.transforms.v2 semantics (0.29, the
 * make_params of each transform), drawn from a counter-based stream per
 * (seed, epoch, index, transform) (aug_stream.h). Each transform's draws
 * follow torchvision's sequence of torch.rand/uniform_/randint/randperm
 * calls, so the distributions are torchvision's; the values are not,
 * since the generator is Philox, not torch's Mersenne Twister.
 */
#include <math.h>
#include <stdint.h>

#include "augment/aug_sampler.h"
#include "augment/aug_stream.h"
#include "core/error.h"
#include "ops/op_args.h"

pf_aug_policy pf_aug_policy_defaults(void) {
    pf_aug_policy p = {0};
    p.random_resized_crop = false;
    p.rrc_scale[0] = 0.08f;
    p.rrc_scale[1] = 1.0f;
    p.rrc_ratio[0] = 3.0f / 4.0f;
    p.rrc_ratio[1] = 4.0f / 3.0f;
    p.resize_shorter = 0;
    p.center_crop_w = p.center_crop_h = 0;
    p.hflip_p = p.vflip_p = 0.0f;
    p.color_jitter = false;
    for (int k = 0; k < 2; k++) {
        p.brightness[k] = p.contrast[k] = p.saturation[k] = 1.0f;
        p.hue[k] = 0.0f;
        p.degrees[k] = 0.0f;
        p.translate[k] = 0.0f;
        p.scale_range[k] = 1.0f;
    }
    p.grayscale_p = 0.0f;
    p.random_affine = false;
    for (int k = 0; k < 4; k++) p.shear[k] = 0.0f;
    p.affine_width = p.affine_height = 0;
    p.flavor = PF_RESIZE_OPENCV;
    return p;
}

/* What the sampler writes for a transform that is off: the whole image,
 * no flip, no affine, identity colour. (Same values as
 * pf_aug_params_identity, but with the crop rect explicit.) */
static void params_identity(pf_aug_params *o, int32_t w, int32_t h) {
    *o = (pf_aug_params){0};
    o->crop_x = o->crop_y = 0;
    o->crop_w = w;
    o->crop_h = h;
    o->scale = 1.0f;
    o->brightness = o->contrast = o->saturation = 1.0f;
    o->hue = 0.0f;
    for (int k = 0; k < 4; k++) o->jitter_order[k] = (int8_t)k;
    o->gamma = 1.0f;
}

/* RandomResizedCrop.make_params: 10 attempts at an area fraction and a
 * log-uniform aspect ratio, w and h rounded half to even (Python round),
 * accepted when they fit, then a uniform position; else the centre crop
 * with the aspect ratio clamped into the range. Doubles where torchvision
 * computes in Python floats, floats where it uses float32 tensors. */
static void draw_rrc(const pf_aug_policy *p, const float log_ratio[2], pfi_aug_stream *s, int32_t W, int32_t H,
                     pf_aug_params *o) {
    double area = (double)W * (double)H;
    for (int attempt = 0; attempt < 10; attempt++) {
        double target_area = area * (double)pfi_aug_uniform(s, p->rrc_scale[0], p->rrc_scale[1]);
        double aspect = (double)pfi_aug_exp(pfi_aug_uniform(s, log_ratio[0], log_ratio[1]));
        /* compared as doubles: an absurd ratio must not overflow a cast */
        double w = rint(sqrt(target_area * aspect)), h = rint(sqrt(target_area / aspect));
        if (w > 0.0 && w <= (double)W && h > 0.0 && h <= (double)H) {
            o->crop_w = (int32_t)w;
            o->crop_h = (int32_t)h;
            o->crop_y = (int32_t)pfi_aug_below(s, (uint32_t)(H - o->crop_h + 1));
            o->crop_x = (int32_t)pfi_aug_below(s, (uint32_t)(W - o->crop_w + 1));
            return;
        }
    }
    double in_ratio = (double)W / (double)H;
    double rmin = (double)p->rrc_ratio[0], rmax = (double)p->rrc_ratio[1];
    int32_t w = W, h = H;
    if (in_ratio < rmin) {
        h = (int32_t)rint((double)W / rmin); /* <= H since W / H < rmin */
    } else if (in_ratio > rmax) {
        w = (int32_t)rint((double)H * rmax);
    }
    /* torchvision would return an empty crop here (a ratio range far from
     * the image's); keep one pixel so the plan always has a source. */
    if (w < 1) w = 1;
    if (h < 1) h = 1;
    o->crop_w = w;
    o->crop_h = h;
    o->crop_x = (W - w) / 2;
    o->crop_y = (H - h) / 2;
}

/* [lo, lo + len) of a resized axis of size `rn`, mapped back onto the
 * source axis of size `n`, edges rounded to whole source pixels. */
static void map_back(int32_t lo, int32_t len, int32_t rn, int32_t n, int32_t *out_lo, int32_t *out_len) {
    double f = (double)n / (double)rn;
    int64_t a = pfi_aug_round((double)lo * f), b = pfi_aug_round((double)(lo + len) * f);
    if (a < 0) a = 0;
    if (b > n) b = n;
    if (b <= a) { /* a sliver under half a source pixel: keep one pixel */
        if (a > n - 1) a = n - 1;
        b = a + 1;
    }
    *out_lo = (int32_t)a;
    *out_len = (int32_t)(b - a);
}

/* CenterCrop offset on one axis: int(round((n - c) / 2.0)); a crop larger
 * than the axis is clamped to it (torchvision pads with zeros instead). */
static void center_axis(int32_t n, int32_t c, int32_t *lo, int32_t *len) {
    if (c >= n) {
        *lo = 0;
        *len = n;
        return;
    }
    *lo = (int32_t)pfi_aug_round((double)(n - c) / 2.0);
    *len = c;
}

/* Resize(shorter side = S) then CenterCrop(cw, ch), as the source rect
 * that the pair keeps. torchvision's size rule: the long side becomes
 * int(S * long / short) (true division in double, then truncation). */
static void eval_crop(const pf_aug_policy *p, int32_t W, int32_t H, pf_aug_params *o) {
    int32_t rw = W, rh = H;
    if (p->resize_shorter > 0) {
        int32_t S = p->resize_shorter, sh = W <= H ? W : H, lg = W <= H ? H : W;
        double nld = (double)((int64_t)S * lg) / (double)sh;
        int32_t nl = nld >= (double)INT32_MAX ? INT32_MAX : (int32_t)nld; /* >= S >= 1 */
        rw = W <= H ? S : nl;
        rh = W <= H ? nl : S;
    }
    if (p->center_crop_w <= 0) return; /* resize alone keeps the whole image */
    int32_t x, cw, y, ch;
    center_axis(rw, p->center_crop_w, &x, &cw);
    center_axis(rh, p->center_crop_h, &y, &ch);
    if (p->flavor == PF_RESIZE_TORCHVISION && cw == p->center_crop_w && ch == p->center_crop_h) {
        /* torchvision exactly: the whole image resized, then the window
         * (a crop larger than the resized image keeps the rect below) */
        o->resize_w = rw;
        o->resize_h = rh;
        o->window_x = x;
        o->window_y = y;
        return;
    }
    map_back(x, cw, rw, W, &o->crop_x, &o->crop_w);
    map_back(y, ch, rh, H, &o->crop_y, &o->crop_h);
}

static int range_is(const float r[2], float v) { return r[0] == v && r[1] == v; }

/* ColorJitter.make_params: randperm(4) (torch's forward Fisher-Yates: for
 * i < 3, swap i with i + randint(4 - i)), then one uniform factor per op
 * whose range is not the identity, in the order b, c, s, h. */
static void draw_jitter(const pf_aug_policy *p, pfi_aug_stream *s, pf_aug_params *o) {
    for (int i = 0; i < 3; i++) {
        int z = i + (int)pfi_aug_below(s, (uint32_t)(4 - i));
        int8_t t = o->jitter_order[i];
        o->jitter_order[i] = o->jitter_order[z];
        o->jitter_order[z] = t;
    }
    if (!range_is(p->brightness, 1.0f)) o->brightness = pfi_aug_uniform(s, p->brightness[0], p->brightness[1]);
    if (!range_is(p->contrast, 1.0f)) o->contrast = pfi_aug_uniform(s, p->contrast[0], p->contrast[1]);
    if (!range_is(p->saturation, 1.0f)) o->saturation = pfi_aug_uniform(s, p->saturation[0], p->saturation[1]);
    if (!range_is(p->hue, 0.0f)) o->hue = pfi_aug_uniform(s, p->hue[0], p->hue[1]);
}

/* RandomAffine.make_params: angle, then translate (uniform in +-max,
 * max = fraction * size in double, rounded half to even to whole pixels),
 * scale, shear x, shear y. Ranges at their identity give the identity. */
static void draw_affine(const pf_aug_policy *p, pfi_aug_stream *s, pf_aug_params *o) {
    o->affine = true;
    o->angle = pfi_aug_uniform(s, p->degrees[0], p->degrees[1]);
    float mx = (float)((double)p->translate[0] * (double)p->affine_width);
    float my = (float)((double)p->translate[1] * (double)p->affine_height);
    o->translate_x = (float)rint((double)pfi_aug_uniform(s, -mx, mx));
    o->translate_y = (float)rint((double)pfi_aug_uniform(s, -my, my));
    o->scale = pfi_aug_uniform(s, p->scale_range[0], p->scale_range[1]);
    o->shear_x = pfi_aug_uniform(s, p->shear[0], p->shear[1]);
    o->shear_y = pfi_aug_uniform(s, p->shear[2], p->shear[3]);
}

/* A coin per probability transform; p == 0 draws nothing (the answer is
 * known, and each transform has its own counter, so skipping changes no
 * other draw). */
static bool draw_coin(uint64_t seed, uint32_t epoch, uint64_t index, uint32_t transform, float prob) {
    if (!(prob > 0.0f)) return false;
    pfi_aug_stream s;
    pfi_aug_stream_init(&s, seed, epoch, index, transform);
    return pfi_aug_coin(&s, prob) != 0;
}

static void sample_one(const pf_aug_policy *p, const float log_ratio[2], uint64_t seed, uint32_t epoch,
                       uint64_t index, int32_t W, int32_t H, pf_aug_params *o) {
    params_identity(o, W, H);
    pfi_aug_stream s;
    if (p->random_resized_crop) {
        pfi_aug_stream_init(&s, seed, epoch, index, PFI_AUG_T_RRC);
        draw_rrc(p, log_ratio, &s, W, H, o);
    } else {
        eval_crop(p, W, H, o);
    }
    o->flip_h = draw_coin(seed, epoch, index, PFI_AUG_T_HFLIP, p->hflip_p);
    o->flip_v = draw_coin(seed, epoch, index, PFI_AUG_T_VFLIP, p->vflip_p);
    if (p->color_jitter) {
        pfi_aug_stream_init(&s, seed, epoch, index, PFI_AUG_T_JITTER);
        draw_jitter(p, &s, o);
    }
    o->grayscale = draw_coin(seed, epoch, index, PFI_AUG_T_GRAY, p->grayscale_p);
    if (p->random_affine) {
        pfi_aug_stream_init(&s, seed, epoch, index, PFI_AUG_T_AFFINE);
        draw_affine(p, &s, o);
    }
}

pf_status pf_aug_sample(const pf_aug_policy *policy, uint64_t seed, uint64_t epoch, uint64_t first_index,
                        int count, const int32_t widths[], const int32_t heights[], pf_aug_params out[]) {
    const char *op = "pf_aug_sample";
    pfi_clear_error();
    if (!policy) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: policy is NULL", op);
    pf_status st = pfi_aug_check_policy(op, policy);
    if (st != PF_OK) return st;
    if ((st = pfi_check_count(op, count)) != PF_OK) return st;
    if (epoch > UINT32_MAX)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: epoch is %llu; the sampler keys epochs with 32 bits (need < 2^32)", op,
                        (unsigned long long)epoch);
    if (count == 0) return PF_OK;
    if (!widths || !heights || !out)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL with count %d", op,
                        !widths ? "widths" : !heights ? "heights" : "out", count);
    if (first_index > UINT64_MAX - (uint64_t)(count - 1))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: first_index %llu + count %d passes the last index 2^64 - 1",
                        op, (unsigned long long)first_index, count);
    for (int i = 0; i < count; i++)
        if (widths[i] < 1 || heights[i] < 1)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: widths[%d] x heights[%d] is %d x %d; need both >= 1", op,
                            i, i, (int)widths[i], (int)heights[i]);
    /* torchvision: log_ratio = torch.log(torch.tensor(ratio)), in float */
    float log_ratio[2] = {pfk_log_det(policy->rrc_ratio[0]), pfk_log_det(policy->rrc_ratio[1])};
    for (int i = 0; i < count; i++)
        sample_one(policy, log_ratio, seed, (uint32_t)epoch, first_index + (uint64_t)i, widths[i], heights[i],
                   &out[i]);
    return PF_OK;
}
