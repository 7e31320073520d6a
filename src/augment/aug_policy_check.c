/* Validation of pf_aug_policy: each bad field is named with its value and
 * the rule it breaks. Comparisons are written so that NaN fails them. */
#include <float.h>
#include <math.h>

#include "core/error.h"
#include "augment/aug_sampler.h"

static pf_status check_p(const char *op, const char *name, float p) {
    if (p >= 0.0f && p <= 1.0f) return PF_OK;
    return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: policy->%s is %g; a probability must be in [0, 1]", op, name,
                    (double)p);
}

/* lo <= hi, both in [min, max], and a finite width hi - lo (the uniform
 * draw multiplies by it). */
static pf_status check_range(const char *op, const char *name, const float r[2], float min, float max,
                             const char *rule) {
    if (r[0] >= min && r[0] <= r[1] && r[1] <= max && isfinite(r[1] - r[0])) return PF_OK;
    return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: policy->%s is [%g, %g]; need %s", op, name, (double)r[0],
                    (double)r[1], rule);
}

static pf_status check_geometry(const char *op, const pf_aug_policy *p) {
    pf_status st;
    if ((st = check_range(op, "rrc_scale", p->rrc_scale, FLT_MIN, 1.0f, "0 < lo <= hi <= 1 (area fractions)")) != PF_OK ||
        (st = check_range(op, "rrc_ratio", p->rrc_ratio, FLT_MIN, FLT_MAX,
                          "0 < lo <= hi, finite normal floats (aspect ratios w/h)")) != PF_OK)
        return st;
    if (p->flavor != PF_RESIZE_OPENCV && p->flavor != PF_RESIZE_PILLOW && p->flavor != PF_RESIZE_TORCHVISION)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: policy->flavor is %d; use PF_RESIZE_OPENCV(0), PF_RESIZE_PILLOW(1) or "
                        "PF_RESIZE_TORCHVISION(2)",
                        op, (int)p->flavor);
    if (p->resize_shorter < 0)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: policy->resize_shorter is %d; need >= 1, or 0 for none", op,
                        (int)p->resize_shorter);
    if (p->center_crop_w < 0 || p->center_crop_h < 0 || (p->center_crop_w == 0) != (p->center_crop_h == 0))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: policy->center_crop_w/h are %d x %d; need both >= 1, or both 0 for none", op,
                        (int)p->center_crop_w, (int)p->center_crop_h);
    if ((st = check_p(op, "hflip_p", p->hflip_p)) != PF_OK || (st = check_p(op, "vflip_p", p->vflip_p)) != PF_OK)
        return st;
    return PF_OK;
}

static pf_status check_color(const char *op, const pf_aug_policy *p) {
    const char *factor_rule = "0 <= lo <= hi, finite (torchvision's [max(0, 1 - x), 1 + x] for a scalar x)";
    pf_status st;
    if ((st = check_range(op, "brightness", p->brightness, 0.0f, FLT_MAX, factor_rule)) != PF_OK ||
        (st = check_range(op, "contrast", p->contrast, 0.0f, FLT_MAX, factor_rule)) != PF_OK ||
        (st = check_range(op, "saturation", p->saturation, 0.0f, FLT_MAX, factor_rule)) != PF_OK ||
        (st = check_range(op, "hue", p->hue, -0.5f, 0.5f, "-0.5 <= lo <= hi <= 0.5")) != PF_OK ||
        (st = check_p(op, "grayscale_p", p->grayscale_p)) != PF_OK)
        return st;
    return PF_OK;
}

static pf_status check_affine(const char *op, const pf_aug_policy *p) {
    pf_status st;
    if ((st = check_range(op, "degrees", p->degrees, -FLT_MAX, FLT_MAX, "lo <= hi, finite")) != PF_OK ||
        (st = check_range(op, "shear[0..1]", p->shear, -FLT_MAX, FLT_MAX, "lo <= hi, finite")) != PF_OK ||
        (st = check_range(op, "shear[2..3]", p->shear + 2, -FLT_MAX, FLT_MAX, "lo <= hi, finite")) != PF_OK ||
        (st = check_range(op, "scale_range", p->scale_range, FLT_MIN, FLT_MAX, "0 < lo <= hi, finite")) != PF_OK)
        return st;
    for (int k = 0; k < 2; k++)
        if (!(p->translate[k] >= 0.0f && p->translate[k] <= 1.0f))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "%s: policy->translate[%d] is %g; need a fraction of the image size in [0, 1]", op, k,
                            (double)p->translate[k]);
    int translates = p->translate[0] != 0.0f || p->translate[1] != 0.0f;
    if (p->random_affine && translates && (p->affine_width < 1 || p->affine_height < 1))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: policy->affine_width/height are %d x %d; a non-zero translate needs the size of the "
                        "image the affine applies to (the plan's output size), both >= 1",
                        op, (int)p->affine_width, (int)p->affine_height);
    return PF_OK;
}

pf_status pfi_aug_check_policy(const char *op, const pf_aug_policy *p) {
    pf_status st;
    if ((st = check_geometry(op, p)) != PF_OK || (st = check_color(op, p)) != PF_OK ||
        (st = check_affine(op, p)) != PF_OK)
        return st;
    return PF_OK;
}
