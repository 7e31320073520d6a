/* pixflow recipe [name ...]: prints the named preprocessing presets
 * (pf_recipe) as key = value lines — the fused plan's description and the
 * sampler policy — so users see exactly what a recipe does before
 * overriding fields from C. Without a name, prints all of them. */
#include <stdio.h>

#include "commands.h"
#include "pixflow/pixflow.h"

static const char *const k_names[] = {"imagenet-train", "imagenet-eval", "imagenet-train-torchvision",
                                      "imagenet-eval-torchvision", "yolo"};

static const char *layout_name(pf_layout l) { return l == PF_CHW ? "NCHW" : "NHWC"; }

static void print_range(const char *key, const float r[2]) {
    printf("  %-22s = [%g, %g]\n", key, (double)r[0], (double)r[1]);
}

static void print_recipe(const char *name, const pf_preprocess_desc *d, const pf_aug_policy *p) {
    printf("%s:\n", name);
    printf("  %-22s = %dx%dx%d %s %s\n", "output", (int)d->out_width, (int)d->out_height, (int)d->out_channels,
           pf_dtype_name(d->out_dtype), layout_name(d->out_layout));
    static const char *const flavors[] = {"opencv", "pillow", "torchvision"};
    int fl = d->flavor >= PF_RESIZE_OPENCV && d->flavor <= PF_RESIZE_TORCHVISION ? (int)d->flavor : 0;
    printf("  %-22s = %d%s, %s flavour\n", "interp", (int)d->interp, d->antialias ? " (antialias)" : "", flavors[fl]);
    printf("  %-22s = %s", "letterbox", d->letterbox ? "yes" : "no");
    if (d->letterbox)
        printf(" (%s, pad %g)", d->letterbox_align == PF_LETTERBOX_CENTER ? "center" : "top-left",
               d->pad_value[0]);
    printf("\n  %-22s = %s\n", "swap_rb", d->swap_rb ? "yes" : "no");
    printf("  %-22s = %g; mean [%g, %g, %g]; std [%g, %g, %g]\n", "normalize scale", (double)d->scale,
           (double)d->mean[0], (double)d->mean[1], (double)d->mean[2], (double)d->std[0], (double)d->std[1],
           (double)d->std[2]);
    printf("  %-22s = %s", "random_resized_crop", p->random_resized_crop ? "yes" : "no");
    if (p->random_resized_crop)
        printf(" (scale [%g, %g], ratio [%g, %g])", (double)p->rrc_scale[0], (double)p->rrc_scale[1],
               (double)p->rrc_ratio[0], (double)p->rrc_ratio[1]);
    printf("\n");
    if (p->resize_shorter || p->center_crop_w)
        printf("  %-22s = shorter side %d, center crop %dx%d%s\n", "eval resize", (int)p->resize_shorter,
               (int)p->center_crop_w, (int)p->center_crop_h,
               p->flavor == PF_RESIZE_TORCHVISION ? " (resize the whole image, then the window)" : " (source rect)");
    printf("  %-22s = h %g, v %g\n", "flip p", (double)p->hflip_p, (double)p->vflip_p);
    printf("  %-22s = %s\n", "color_jitter", p->color_jitter ? "on" : "off");
    print_range("  brightness", p->brightness);
    print_range("  contrast", p->contrast);
    print_range("  saturation", p->saturation);
    print_range("  hue", p->hue);
    printf("  %-22s = %g\n", "grayscale p", (double)p->grayscale_p);
    printf("  %-22s = %s\n", "random_affine", p->random_affine ? "on" : "off");
}

int cmd_recipe(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) {
        printf("usage: pixflow recipe [NAME ...]\n"
               "  what a preprocessing preset does (output shape, dtype, normalization, augmentation);\n"
               "  NAME: imagenet-train, imagenet-eval, imagenet-train-torchvision, imagenet-eval-torchvision,\n"
               "        yolo (all when none is given)\n");
        return 0;
    }
    int first = 1, n = argc - 1;
    const char *const *names = (const char *const *)argv;
    if (argc < 2) {
        names = k_names;
        first = 0;
        n = (int)(sizeof k_names / sizeof k_names[0]);
    }
    for (int i = first; i < first + n; i++) {
        pf_preprocess_desc d;
        pf_aug_policy p;
        if (pf_recipe(names[i], &d, &p) != PF_OK) {
            fprintf(stderr, "pixflow recipe: %s\n", pf_last_error());
            return 2;
        }
        print_recipe(names[i], &d, &p);
    }
    return 0;
}
