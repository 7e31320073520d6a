/* The photometric ops (brightness, contrast, saturation, hue, gamma,
 * grayscale, invert, solarize, posterize, autocontrast, equalize,
 * color_twist, gaussian noise, erase): argument checks; the CPU backend
 * runs them (src/cpu/photo_*_cpu.c). Every check of the whole batch runs
 * before any output is written. */
#include <math.h>

#include "core/backend.h"
#include "core/error.h"
#include "ops/op_args.h"
#include "ops/photo_args.h"

pf_noise_opts pf_noise_opts_defaults(void) {
    pf_noise_opts o;
    o.seed = 0;
    o.clip = true;
    o.sample_ids = NULL;
    return o;
}

/* No device versions: pfi_photo_check requires host views. */
#define HOST_KERNEL(op, entry, ...) PFI_KERNEL(pfi_host_backend(), op, entry, __VA_ARGS__)

/* n = 1 or count entries, each finite and in [lo, hi]. */
static pf_status check_factors(const char *op, const char *what, const double *f, int n, int count, double lo,
                               double hi) {
    pf_status st = pfi_photo_check_n(op, what, f, n, count);
    if (st == PF_OK) st = pfi_photo_check_range(op, what, f, n, lo, hi);
    return st;
}

/* The ops whose per-sample parameter is one factor in [lo, hi]. */
static pf_status factor_op(const char *op, unsigned flags, int count, const pf_image src[], const pf_image dst[],
                           const char *what, const double f[], int n, double lo, double hi) {
    pfi_clear_error();
    pf_status st = pfi_photo_check(op, count, src, dst, flags);
    if (st != PF_OK || count == 0) return st;
    return check_factors(op, what, f, n, count, lo, hi);
}

pf_status pf_adjust_brightness(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                               const double factors[], int n) {
    static const char op[] = "pf_adjust_brightness";
    pf_status st = factor_op(op, PFI_PH_CHANNELWISE, count, src, dst, "factors", factors, n, 0.0,
                             HUGE_VAL);
    if (st != PF_OK || count == 0) return st;
    return HOST_KERNEL(op, adjust_brightness, stream, count, src, dst, factors, n);
}

pf_status pf_adjust_contrast(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                             const double factors[], int n) {
    static const char op[] = "pf_adjust_contrast";
    pf_status st =
        factor_op(op, PFI_PH_COLOR, count, src, dst, "factors", factors, n, 0.0, HUGE_VAL);
    if (st != PF_OK || count == 0) return st;
    return HOST_KERNEL(op, adjust_contrast, stream, count, src, dst, factors, n);
}

pf_status pf_adjust_saturation(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                               const double factors[], int n) {
    static const char op[] = "pf_adjust_saturation";
    pf_status st =
        factor_op(op, PFI_PH_COLOR, count, src, dst, "factors", factors, n, 0.0, HUGE_VAL);
    if (st != PF_OK || count == 0) return st;
    return HOST_KERNEL(op, adjust_saturation, stream, count, src, dst, factors, n);
}

pf_status pf_adjust_hue(pf_stream *stream, int count, const pf_image src[], pf_image dst[], const double hues[],
                        int n) {
    static const char op[] = "pf_adjust_hue";
    pf_status st = factor_op(op, PFI_PH_COLOR, count, src, dst, "hues", hues, n, -0.5, 0.5);
    if (st != PF_OK || count == 0) return st;
    return HOST_KERNEL(op, adjust_hue, stream, count, src, dst, hues, n);
}

pf_status pf_adjust_gamma(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                          const double gammas[], const double gains[], int n) {
    static const char op[] = "pf_adjust_gamma";
    pf_status st = factor_op(op, PFI_PH_CHANNELWISE, count, src, dst, "gammas", gammas, n, 0.0,
                             HUGE_VAL);
    if (st != PF_OK || count == 0) return st;
    if (gains && (st = pfi_photo_check_range(op, "gains", gains, n, 0.0, HUGE_VAL)) != PF_OK) return st;
    return HOST_KERNEL(op, adjust_gamma, stream, count, src, dst, gammas, gains, n);
}

pf_status pf_rgb_to_grayscale(pf_stream *stream, int count, const pf_image src[], pf_image dst[]) {
    static const char op[] = "pf_rgb_to_grayscale";
    pfi_clear_error();
    pf_status st = pfi_photo_check(op, count, src, dst, PFI_PH_GRAY_DST);
    if (st != PF_OK || count == 0) return st;
    return HOST_KERNEL(op, rgb_to_grayscale, stream, count, src, dst);
}

pf_status pf_invert(pf_stream *stream, int count, const pf_image src[], pf_image dst[]) {
    static const char op[] = "pf_invert";
    pfi_clear_error();
    pf_status st = pfi_photo_check(op, count, src, dst, PFI_PH_CHANNELWISE);
    if (st != PF_OK || count == 0) return st;
    return HOST_KERNEL(op, invert, stream, count, src, dst);
}

pf_status pf_solarize(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                      const double thresholds[], int n) {
    static const char op[] = "pf_solarize";
    pfi_clear_error();
    pf_status st = pfi_photo_check(op, count, src, dst, PFI_PH_CHANNELWISE);
    if (st != PF_OK || count == 0) return st;
    if ((st = pfi_photo_check_n(op, "thresholds", thresholds, n, count)) != PF_OK) return st;
    for (int i = 0; i < count; i++) {
        double t = thresholds[pfi_pick(n, i)];
        double mx = src[i].dtype == PF_U8 ? 255.0 : 1.0;
        /* torchvision rejects threshold > max; NaN would solarize nothing */
        if (isnan(t) || t > mx)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "%s: thresholds[%d] is %g; it must be <= %g for src[%d] (%s) and not NaN", op,
                            pfi_pick(n, i), t, mx, i, pf_dtype_name(src[i].dtype));
    }
    return HOST_KERNEL(op, solarize, stream, count, src, dst, thresholds, n);
}

pf_status pf_posterize(pf_stream *stream, int count, const pf_image src[], pf_image dst[], const int bits[],
                       int n) {
    static const char op[] = "pf_posterize";
    pfi_clear_error();
    pf_status st = pfi_photo_check(op, count, src, dst, PFI_PH_CHANNELWISE);
    if (st != PF_OK || count == 0) return st;
    if ((st = pfi_photo_check_n(op, "bits", bits, n, count)) != PF_OK) return st;
    for (int k = 0; k < n; k++)
        if (bits[k] < 0 || bits[k] > 8)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: bits[%d] is %d; it must be 0..8", op, k, bits[k]);
    return HOST_KERNEL(op, posterize, stream, count, src, dst, bits, n);
}

pf_status pf_autocontrast(pf_stream *stream, int count, const pf_image src[], pf_image dst[]) {
    static const char op[] = "pf_autocontrast";
    pfi_clear_error();
    pf_status st = pfi_photo_check(op, count, src, dst, PFI_PH_CHANNELWISE);
    if (st != PF_OK || count == 0) return st;
    return HOST_KERNEL(op, autocontrast, stream, count, src, dst);
}

pf_status pf_equalize(pf_stream *stream, int count, const pf_image src[], pf_image dst[]) {
    static const char op[] = "pf_equalize";
    pfi_clear_error();
    pf_status st = pfi_photo_check(op, count, src, dst, PFI_PH_CHANNELWISE);
    if (st != PF_OK || count == 0) return st;
    return HOST_KERNEL(op, equalize, stream, count, src, dst);
}

pf_status pf_color_twist(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                         const float matrices[], int n) {
    static const char op[] = "pf_color_twist";
    pfi_clear_error();
    pf_status st = pfi_photo_check(op, count, src, dst, PFI_PH_RGB_ONLY);
    if (st != PF_OK || count == 0) return st;
    if ((st = pfi_photo_check_n(op, "matrices", matrices, n, count)) != PF_OK) return st;
    for (int k = 0; k < 12 * n; k++)
        if (!isfinite(matrices[k]))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: matrices[%d] element %d is not finite", op, k / 12,
                            k % 12);
    return HOST_KERNEL(op, color_twist, stream, count, src, dst, matrices, n);
}

pf_status pf_gaussian_noise(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                            const double means[], const double sigmas[], int n, const pf_noise_opts *opts) {
    static const char op[] = "pf_gaussian_noise";
    pfi_clear_error();
    pf_status st = pfi_photo_check(op, count, src, dst, PFI_PH_CHANNELWISE);
    if (st != PF_OK || count == 0) return st;
    if ((st = pfi_photo_check_n(op, "means", means, n, count)) != PF_OK ||
        (st = pfi_photo_check_n(op, "sigmas", sigmas, n, count)) != PF_OK ||
        (st = pfi_photo_check_range(op, "means", means, n, -HUGE_VAL, HUGE_VAL)) != PF_OK ||
        (st = pfi_photo_check_range(op, "sigmas", sigmas, n, 0.0, HUGE_VAL)) != PF_OK)
        return st;
    pf_noise_opts o = opts ? *opts : pf_noise_opts_defaults();
    for (int i = 0; i < count; i++)
        if ((uint64_t)src[i].width * (uint64_t)src[i].height * (uint64_t)src[i].channels > (1ull << 34))
            return pfi_fail(PF_ERR_UNSUPPORTED,
                            "%s: src[%d] has more than 2^34 elements (the Philox block counter is 32-bit)", op, i);
    return HOST_KERNEL(op, gaussian_noise, stream, count, src, dst, means, sigmas, n, &o);
}

pf_status pf_erase(pf_stream *stream, int count, const pf_image src[], pf_image dst[], const pf_erase_rect rects[],
                   const int32_t rect_counts[], int ncounts) {
    static const char op[] = "pf_erase";
    pfi_clear_error();
    pf_status st = pfi_photo_check(op, count, src, dst, PFI_PH_CHANNELWISE | PFI_PH_ANY_DTYPE);
    if (st != PF_OK || count == 0) return st;
    if ((st = pfi_photo_check_n(op, "rect_counts", rect_counts, ncounts, count)) != PF_OK) return st;
    size_t total = 0;
    for (int k = 0; k < ncounts; k++) {
        if (rect_counts[k] < 0)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: rect_counts[%d] is %d; it must be >= 0", op, k,
                            (int)rect_counts[k]);
        total += (size_t)rect_counts[k];
    }
    if (total > 0 && rects == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: rects is NULL but rect_counts name %zu rectangles", op, total);
    /* sample i's rectangles start after those of the samples before it
     * (one count per sample), or are the one shared list */
    size_t first = 0;
    for (int i = 0; i < count; i++) {
        int k = pfi_pick(ncounts, i);
        for (int32_t q = 0; q < rect_counts[k]; q++) {
            size_t idx = first + (size_t)q;
            const pf_erase_rect *r = &rects[idx];
            if (r->x < 0 || r->y < 0 || r->width < 0 || r->height < 0 ||
                (int64_t)r->x + r->width > src[i].width || (int64_t)r->y + r->height > src[i].height)
                return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: rects[%zu] (x %d, y %d, %dx%d) leaves src[%d] (%dx%d)",
                                op, idx, (int)r->x, (int)r->y, (int)r->width, (int)r->height, i,
                                (int)src[i].width, (int)src[i].height);
            for (int c = 0; c < src[i].channels; c++)
                if (isnan(r->value[c]))
                    return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: rects[%zu].value[%d] is NaN", op, idx, c);
        }
        if (ncounts != 1) first += (size_t)rect_counts[k];
    }
    return HOST_KERNEL(op, erase, stream, count, src, dst, rects, rect_counts, ncounts);
}
