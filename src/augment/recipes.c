/*
 * pf_recipe: named presets of the fused preprocess and the augmentation
 * policy. The policy fields are set directly (everything off first, with
 * torchvision's default ranges), so a caller may switch any of them on.
 */
#include <string.h>

#include "core/error.h"
#include "pixflow/augment.h"

static const float k_imagenet_mean[3] = {0.485f, 0.456f, 0.406f};
static const float k_imagenet_std[3] = {0.229f, 0.224f, 0.225f};

/* Every transform off; ranges at torchvision's defaults / identity. */
static pf_aug_policy policy_off(void) {
    pf_aug_policy p;
    memset(&p, 0, sizeof p);
    p.rrc_scale[0] = 0.08f;
    p.rrc_scale[1] = 1.0f;
    p.rrc_ratio[0] = 3.0f / 4.0f;
    p.rrc_ratio[1] = 4.0f / 3.0f;
    p.brightness[0] = p.brightness[1] = 1.0f;
    p.contrast[0] = p.contrast[1] = 1.0f;
    p.saturation[0] = p.saturation[1] = 1.0f;
    p.scale_range[0] = p.scale_range[1] = 1.0f;
    return p;
}

static void imagenet_desc(pf_preprocess_desc *d) {
    *d = pf_preprocess_desc_defaults();
    d->out_width = d->out_height = 224;
    d->out_channels = 3;
    d->interp = PF_INTERP_LINEAR;
    d->scale = 1.0f / 255.0f;
    for (int c = 0; c < 3; c++) {
        d->mean[c] = k_imagenet_mean[c];
        d->std[c] = k_imagenet_std[c];
    }
    d->out_dtype = PF_F32;
    d->out_layout = PF_CHW;
}

pf_status pf_recipe(const char *name, pf_preprocess_desc *desc, pf_aug_policy *policy) {
    pfi_clear_error();
    if (name == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_recipe: name is NULL; known recipes: imagenet-train, imagenet-eval, "
                        "imagenet-train-torchvision, imagenet-eval-torchvision, yolo");
    pf_preprocess_desc d;
    pf_aug_policy p = policy_off();
    /* the -torchvision variants: torchvision's pixels (its resize with
     * antialias=True, the default of v2 RandomResizedCrop and Resize; eval:
     * resize the whole image, then CenterCrop's window) */
    const char *asked = name;
    size_t n = strlen(name);
    const char *tv_suffix = "-torchvision";
    int tv = n > strlen(tv_suffix) && strcmp(name + n - strlen(tv_suffix), tv_suffix) == 0 &&
             strncmp(name, "imagenet-", 9) == 0;
    char base[32] = {0};
    if (tv && n - strlen(tv_suffix) < sizeof base) {
        memcpy(base, name, n - strlen(tv_suffix));
        name = base;
    }
    if (strcmp(name, "imagenet-train") == 0) {
        imagenet_desc(&d);
        p.random_resized_crop = true;
        p.hflip_p = 0.5f;
        /* ColorJitter(0.4, 0.4, 0.4, 0.1), present but off */
        p.color_jitter = false;
        p.brightness[0] = p.contrast[0] = p.saturation[0] = 0.6f;
        p.brightness[1] = p.contrast[1] = p.saturation[1] = 1.4f;
        p.hue[0] = -0.1f;
        p.hue[1] = 0.1f;
    } else if (strcmp(name, "imagenet-eval") == 0) {
        imagenet_desc(&d);
        p.resize_shorter = 256;
        p.center_crop_w = p.center_crop_h = 224;
    } else if (strcmp(name, "yolo") == 0) {
        d = pf_preprocess_desc_defaults();
        d.out_width = d.out_height = 640;
        d.out_channels = 3;
        d.interp = PF_INTERP_LINEAR;
        d.letterbox = true;
        d.letterbox_align = PF_LETTERBOX_CENTER;
        for (int c = 0; c < 4; c++) d.pad_value[c] = 114.0;
        d.scale = 1.0f / 255.0f;
        for (int c = 0; c < 4; c++) {
            d.mean[c] = 0.0f;
            d.std[c] = 1.0f;
        }
        d.out_dtype = PF_F32;
        d.out_layout = PF_CHW;
    } else {
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_recipe: unknown recipe \"%s\"; known recipes: imagenet-train, imagenet-eval, "
                        "imagenet-train-torchvision, imagenet-eval-torchvision, yolo",
                        asked);
    }
    if (tv) {
        d.flavor = PF_RESIZE_TORCHVISION;
        d.antialias = true;
        p.flavor = PF_RESIZE_TORCHVISION;
    }
    if (desc) *desc = d;
    if (policy) *policy = p;
    return PF_OK;
}
