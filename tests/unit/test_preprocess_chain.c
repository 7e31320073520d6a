/*
 * The fused preprocess equals the op-by-op chain of pixflow's public ops
 * bit for bit:
 *   roi -> pf_resize (or pf_warp_affine with the composed matrix)
 *       -> [pf_reformat swap R/B when the colour ops need RGB]
 *       -> pf_flip -> pf_adjust_* in jitter_order -> pf_rgb_to_grayscale (3)
 *       -> pf_adjust_gamma -> [pf_rgb_to_grayscale (1)]
 *       -> pf_copy_make_border (letterbox) -> pf_normalize / pf_reformat
 * on random images, descriptions and params (every colour op, flips,
 * letterbox centre / top-left, affine, f32/f16/bf16/u8, NCHW/NHWC, pitched
 * tensors), for NULL / 1 / 3 thread streams, and independently of the
 * sample's position in the batch.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

static uint64_t g_seed = 0x9e3779b97f4a7c15ull;

static float frand(float lo, float hi) {
    return lo + (hi - lo) * (float)(pft_rand(&g_seed) % 1000001u) / 1000000.0f;
}

/* ------------------------------------------------- independent geometry */

static void letterbox(const pf_preprocess_desc *d, int cw, int ch, int *rw, int *rh, int *l, int *t) {
    double r = fmin((double)d->out_width / cw, (double)d->out_height / ch);
    /* Python round(): half to even */
    double w = cw * r, h = ch * r;
    double fw = floor(w), fh = floor(h);
    int iw = (int)(w - fw > 0.5 || (w - fw == 0.5 && fmod(fw, 2.0) != 0.0) ? fw + 1 : fw);
    int ih = (int)(h - fh > 0.5 || (h - fh == 0.5 && fmod(fh, 2.0) != 0.0) ? fh + 1 : fh);
    *rw = iw < 1 ? 1 : iw > d->out_width ? d->out_width : iw;
    *rh = ih < 1 ? 1 : ih > d->out_height ? d->out_height : ih;
    /* ultralytics: left = round(dw / 2 - 0.1) */
    int c = d->letterbox_align == PF_LETTERBOX_CENTER;
    *l = c ? (int)lrint((d->out_width - *rw) / 2.0 - 0.1) : 0;
    *t = c ? (int)lrint((d->out_height - *rh) / 2.0 - 0.1) : 0;
}

static void mul3(const double a[9], const double b[9], double o[9]) {
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) o[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
}

/* Output pixel -> crop pixel, built as a product of 3x3 matrices:
 * crop <- canvas (resize pixel-centre map) <- torchvision inverse affine
 * about the output centre; angle as torchvision F.affine (clockwise). */
static void affine_matrix(const pf_preprocess_desc *d, const pf_aug_params *p, int cw, int ch, double m[6]) {
    int rw = d->out_width, rh = d->out_height, l = 0, t = 0;
    if (d->letterbox) letterbox(d, cw, ch, &rw, &rh, &l, &t);
    const double k = 3.14159265358979323846 / 180.0;
    double rot = (double)p->angle * k, sx = (double)p->shear_x * k, sy = (double)p->shear_y * k;
    double a = cos(rot - sy) / cos(sy), b = -cos(rot - sy) * tan(sx) / cos(sy) - sin(rot);
    double c = sin(rot - sy) / cos(sy), dd = -sin(rot - sy) * tan(sx) / cos(sy) + cos(rot);
    double s = (double)p->scale, ox = (d->out_width - 1) * 0.5, oy = (d->out_height - 1) * 0.5;
    double center_out[9] = {1, 0, -ox, 0, 1, -oy, 0, 0, 1};
    double untranslate[9] = {1, 0, -(double)p->translate_x, 0, 1, -(double)p->translate_y, 0, 0, 1};
    double inv_rss[9] = {dd / s, -b / s, 0, -c / s, a / s, 0, 0, 0, 1};
    double uncenter[9] = {1, 0, ox, 0, 1, oy, 0, 0, 1};
    double fx = (double)cw / rw, fy = (double)ch / rh;
    double to_crop[9] = {fx, 0, (0.5 - l) * fx - 0.5, 0, fy, (0.5 - t) * fy - 0.5, 0, 0, 1};
    double t1[9], t2[9], t3[9], t4[9];
    mul3(untranslate, center_out, t1);
    mul3(inv_rss, t1, t2);
    mul3(uncenter, t2, t3);
    mul3(to_crop, t3, t4);
    memcpy(m, t4, 6 * sizeof(double));
}

/* ---------------------------------------------------- the op-by-op chain */

static int needs_rgb(const pf_preprocess_desc *d, int sc, const pf_aug_params *p) {
    return sc == 3 && (p->contrast != 1.0f || p->saturation != 1.0f || p->hue != 0.0f || p->grayscale ||
                       d->out_channels == 1);
}

static void chain(const pf_preprocess_desc *d, const pf_image *src, const pf_aug_params *p, pf_image *out) {
    int sc = src->channels;
    int cw = p->crop_w > 0 && p->crop_h > 0 ? p->crop_w : src->width;
    int ch = p->crop_w > 0 && p->crop_h > 0 ? p->crop_h : src->height;
    int cx = p->crop_w > 0 && p->crop_h > 0 ? p->crop_x : 0, cy = p->crop_w > 0 && p->crop_h > 0 ? p->crop_y : 0;
    pf_image roi;
    CHECK_STATUS(pf_image_roi(src, cx, cy, cw, ch, &roi), PF_OK);
    int rw = d->out_width, rh = d->out_height, l = 0, t = 0;
    if (d->letterbox && !p->affine) letterbox(d, cw, ch, &rw, &rh, &l, &t);
    size_t n = (size_t)rw * (size_t)rh * 3;
    uint8_t *a = malloc(n), *b = malloc(n), *g1 = malloc(n), *cv = malloc((size_t)d->out_width * d->out_height * 3);
    pf_image A = pf_image_hwc(a, rw, rh, sc, PF_U8, 0), B = pf_image_hwc(b, rw, rh, sc, PF_U8, 0);
    uint8_t pad[4];
    for (int c = 0; c < 4; c++) pad[c] = (uint8_t)lrint(d->pad_value[c] < 0 ? 0 : d->pad_value[c] > 255 ? 255 : d->pad_value[c]);
    int swap_now = d->swap_rb && needs_rgb(d, sc, p);
    int swap_late = d->swap_rb && sc == 3 && !swap_now;
    if (p->affine) {
        double m[6];
        affine_matrix(d, p, cw, ch, m);
        pf_warp_opts wo = pf_warp_opts_defaults();
        wo.interp = d->interp;
        wo.flags = PF_WARP_INVERSE_MAP;
        for (int k = 0; k < 4; k++) wo.border_value[k] = pad[0];
        if (sc == 3 && d->out_channels == 3)
            for (int k = 0; k < 3; k++) wo.border_value[k] = pad[d->swap_rb ? 2 - k : k];
        CHECK_STATUS(pf_warp_affine(NULL, 1, &roi, &A, m, 1, &wo), PF_OK);
    } else {
        pf_resize_opts ro = pf_resize_opts_defaults();
        ro.interp = d->interp;
        ro.antialias = d->antialias;
        ro.flavor = d->flavor;
        if (p->resize_w > 0) { /* resize-then-crop: the whole resize, then the window */
            uint8_t *full = malloc((size_t)p->resize_w * p->resize_h * sc);
            pf_image F = pf_image_hwc(full, p->resize_w, p->resize_h, sc, PF_U8, 0), W;
            CHECK_STATUS(pf_resize(NULL, 1, &roi, &F, &ro), PF_OK);
            CHECK_STATUS(pf_image_roi(&F, p->window_x, p->window_y, rw, rh, &W), PF_OK);
            for (int y = 0; y < rh; y++)
                memcpy(a + (size_t)y * rw * sc, (const uint8_t *)W.data + (ptrdiff_t)y * W.row_stride, (size_t)rw * sc);
            free(full);
        } else {
            CHECK_STATUS(pf_resize(NULL, 1, &roi, &A, &ro), PF_OK);
        }
    }
    if (swap_now) {
        const int8_t ord[4] = {2, 1, 0, 3};
        CHECK_STATUS(pf_reformat(NULL, 1, &A, &B, ord, 0), PF_OK);
        memcpy(a, b, (size_t)rw * rh * 3);
    }
    pf_flip_code fc = p->flip_h && p->flip_v ? PF_FLIP_BOTH : p->flip_h ? PF_FLIP_HORIZONTAL
                    : p->flip_v ? PF_FLIP_VERTICAL : PF_FLIP_NONE;
    CHECK_STATUS(pf_flip(NULL, 1, &A, &B, &fc, 1), PF_OK);
    for (int k = 0; k < 4; k++) {
        double f;
        switch (p->jitter_order[k]) {
        case PF_JITTER_BRIGHTNESS:
            if (p->brightness != 1.0f) { f = (double)p->brightness; CHECK_STATUS(pf_adjust_brightness(NULL, 1, &B, &B, &f, 1), PF_OK); }
            break;
        case PF_JITTER_CONTRAST:
            if (p->contrast != 1.0f) { f = (double)p->contrast; CHECK_STATUS(pf_adjust_contrast(NULL, 1, &B, &B, &f, 1), PF_OK); }
            break;
        case PF_JITTER_SATURATION:
            if (p->saturation != 1.0f) { f = (double)p->saturation; CHECK_STATUS(pf_adjust_saturation(NULL, 1, &B, &B, &f, 1), PF_OK); }
            break;
        default:
            if (p->hue != 0.0f) { f = (double)p->hue; CHECK_STATUS(pf_adjust_hue(NULL, 1, &B, &B, &f, 1), PF_OK); }
        }
    }
    if (p->grayscale) CHECK_STATUS(pf_rgb_to_grayscale(NULL, 1, &B, &B), PF_OK);
    if (p->gamma != 1.0f) {
        double gm = (double)p->gamma;
        CHECK_STATUS(pf_adjust_gamma(NULL, 1, &B, &B, &gm, NULL, 1), PF_OK);
    }
    pf_image C = B;
    if (d->out_channels == 1 && sc == 3) {
        C = pf_image_hwc(g1, rw, rh, 1, PF_U8, 0);
        CHECK_STATUS(pf_rgb_to_grayscale(NULL, 1, &B, &C), PF_OK);
    }
    int cc = C.channels;
    int8_t order[4] = {0, 1, 2, 3};
    for (int c = 0; c < 3; c++) order[c] = (int8_t)(cc == 1 ? 0 : swap_late ? 2 - c : c);
    pf_image canvas = C;
    if (d->letterbox && !p->affine) {
        canvas = pf_image_hwc(cv, d->out_width, d->out_height, cc, PF_U8, 0);
        pf_border_params bp = {.top = t, .left = l, .mode = PF_BORDER_CONSTANT};
        for (int c = 0; c < d->out_channels; c++) bp.value[order[c]] = pad[cc == 1 ? 0 : c];
        CHECK_STATUS(pf_copy_make_border(NULL, 1, &C, &canvas, &bp, 1), PF_OK);
    }
    if (d->out_dtype == PF_U8) {
        CHECK_STATUS(pf_reformat(NULL, 1, &canvas, out, order, 0), PF_OK);
    } else {
        pf_normalize_opts no = pf_normalize_opts_defaults();
        no.scale = d->scale;
        for (int c = 0; c < 4; c++) {
            no.params.mean[c] = d->mean[c];
            no.params.std[c] = d->std[c];
            no.order[c] = order[c];
        }
        CHECK_STATUS(pf_normalize(NULL, 1, &canvas, out, &no), PF_OK);
    }
    free(a);
    free(b);
    free(g1);
    free(cv);
}

/* ------------------------------------------------------------- the test */

static pf_aug_params random_params(const pf_image *s, int colour, int affine) {
    pf_aug_params p = pf_aug_params_identity();
    if (pft_range(&g_seed, 0, 3) != 0) {
        p.crop_w = pft_range(&g_seed, 1, s->width);
        p.crop_h = pft_range(&g_seed, 1, s->height);
        p.crop_x = pft_range(&g_seed, 0, s->width - p.crop_w);
        p.crop_y = pft_range(&g_seed, 0, s->height - p.crop_h);
    }
    p.flip_h = pft_range(&g_seed, 0, 1);
    p.flip_v = pft_range(&g_seed, 0, 3) == 0;
    if (colour) {
        if (pft_range(&g_seed, 0, 1)) p.brightness = frand(0.5f, 1.5f);
        if (pft_range(&g_seed, 0, 1)) p.contrast = frand(0.5f, 1.5f);
        if (pft_range(&g_seed, 0, 1)) p.saturation = frand(0.0f, 2.0f);
        if (pft_range(&g_seed, 0, 1)) p.hue = frand(-0.5f, 0.5f);
        for (int k = 3; k > 0; k--) { /* Fisher-Yates */
            int j = pft_range(&g_seed, 0, k);
            int8_t t = p.jitter_order[k];
            p.jitter_order[k] = p.jitter_order[j];
            p.jitter_order[j] = t;
        }
        p.grayscale = pft_range(&g_seed, 0, 4) == 0;
        if (pft_range(&g_seed, 0, 2) == 0) p.gamma = frand(0.5f, 2.0f);
    }
    if (affine) {
        p.affine = true;
        p.angle = frand(-30.0f, 30.0f);
        p.translate_x = frand(-4.0f, 4.0f);
        p.translate_y = frand(-4.0f, 4.0f);
        p.scale = frand(0.8f, 1.25f);
        p.shear_x = frand(-10.0f, 10.0f);
        p.shear_y = frand(-10.0f, 10.0f);
    }
    return p;
}

static pf_preprocess_desc random_desc(int big) {
    pf_preprocess_desc d = pf_preprocess_desc_defaults();
    d.out_width = big ? 330 : pft_range(&g_seed, 1, 40);
    d.out_height = big ? 331 : pft_range(&g_seed, 1, 40);
    d.out_channels = pft_range(&g_seed, 0, 5) == 0 ? 1 : 3;
    static const pf_interp modes[] = {PF_INTERP_LINEAR, PF_INTERP_NEAREST, PF_INTERP_CUBIC, PF_INTERP_AREA,
                                      PF_INTERP_LANCZOS4, PF_INTERP_NEAREST_EXACT};
    d.interp = modes[pft_range(&g_seed, 0, 5)];
    d.antialias = pft_range(&g_seed, 0, 3) == 0;
    /* one plan in three resizes as torchvision does (no AREA there, and
     * its LANCZOS needs antialias) */
    if (pft_range(&g_seed, 0, 2) == 0) {
        d.flavor = PF_RESIZE_TORCHVISION;
        if (d.interp == PF_INTERP_AREA) d.interp = PF_INTERP_CUBIC;
        if (d.interp == PF_INTERP_LANCZOS4) d.antialias = true;
    }
    d.letterbox = pft_range(&g_seed, 0, 1);
    d.letterbox_align = pft_range(&g_seed, 0, 1) ? PF_LETTERBOX_CENTER : PF_LETTERBOX_TOP_LEFT;
    for (int c = 0; c < 4; c++) d.pad_value[c] = pft_range(&g_seed, 0, 255);
    d.swap_rb = pft_range(&g_seed, 0, 1);
    d.scale = pft_range(&g_seed, 0, 3) == 0 ? 1.0f : 1.0f / 255.0f;
    for (int c = 0; c < 4; c++) {
        d.mean[c] = frand(-1.0f, 1.0f);
        d.std[c] = frand(0.1f, 2.0f);
    }
    static const pf_dtype dts[] = {PF_F32, PF_F16, PF_BF16, PF_U8};
    d.out_dtype = dts[pft_range(&g_seed, 0, 3)];
    d.out_layout = pft_range(&g_seed, 0, 1) ? PF_CHW : PF_HWC;
    return d;
}

/* A tensor of n samples with random padding after rows, planes, samples. */
static pf_tensor make_tensor(const pf_preprocess_desc *d, int n, void **mem) {
    size_t es = pf_dtype_size(d->out_dtype);
    int pitched = pft_range(&g_seed, 0, 1);
    size_t row = (size_t)d->out_width * es * (d->out_layout == PF_HWC ? (size_t)d->out_channels : 1) +
                 (pitched ? es * (size_t)pft_range(&g_seed, 1, 9) : 0);
    size_t plane = row * (size_t)d->out_height + (pitched ? row : 0);
    size_t sample = (d->out_layout == PF_CHW ? plane * (size_t)d->out_channels : plane) + (pitched ? 64 : 0);
    *mem = malloc(sample * (size_t)n);
    memset(*mem, 0xA5, sample * (size_t)n);
    pf_tensor t = d->out_layout == PF_CHW ? pf_tensor_nchw(*mem, n, d->out_channels, d->out_height, d->out_width, d->out_dtype)
                                          : pf_tensor_nhwc(*mem, n, d->out_channels, d->out_height, d->out_width, d->out_dtype);
    t.row_stride = (ptrdiff_t)row;
    t.plane_stride = d->out_layout == PF_CHW ? (ptrdiff_t)plane : 0;
    t.sample_stride = (ptrdiff_t)sample;
    return t;
}

/* 1 when every element of sample i of a equals sample j of b. */
static int same_sample(const pf_tensor *a, int i, const pf_tensor *b, int j) {
    size_t es = pf_dtype_size(a->dtype);
    for (int c = 0; c < a->channels; c++)
        for (int y = 0; y < a->height; y++)
            for (int x = 0; x < a->width; x++) {
                size_t oa, ob;
                if (a->layout == PF_CHW) {
                    oa = (size_t)(i * a->sample_stride + c * a->plane_stride + y * a->row_stride) + (size_t)x * es;
                    ob = (size_t)(j * b->sample_stride + c * b->plane_stride + y * b->row_stride) + (size_t)x * es;
                } else {
                    oa = (size_t)(i * a->sample_stride + y * a->row_stride) + ((size_t)x * (size_t)a->channels + (size_t)c) * es;
                    ob = (size_t)(j * b->sample_stride + y * b->row_stride) + ((size_t)x * (size_t)b->channels + (size_t)c) * es;
                }
                if (memcmp((char *)a->data + oa, (char *)b->data + ob, es) != 0) {
                    fprintf(stderr, "  mismatch at sample %d c %d y %d x %d\n", i, c, y, x);
                    return 0;
                }
            }
    return 1;
}

static void run_case(int iter, int big, pf_stream *s1, pf_stream *s3) {
    pf_preprocess_desc d = random_desc(big);
    int colour = pft_range(&g_seed, 0, 2) != 0;
    int n = big ? 2 : pft_range(&g_seed, 1, 7);
    pf_image src[8];
    uint8_t *pix[8];
    pf_aug_params p[8];
    for (int i = 0; i < n; i++) {
        int w = big ? 500 : pft_range(&g_seed, 1, 70), h = big ? 375 : pft_range(&g_seed, 1, 70);
        int c = pft_range(&g_seed, 0, 6) == 0 ? 1 : 3;
        int pad = pft_range(&g_seed, 0, 5);
        size_t stride = (size_t)w * (size_t)c + (size_t)pad;
        pix[i] = malloc(stride * (size_t)h);
        for (size_t k = 0; k < stride * (size_t)h; k++) pix[i][k] = (uint8_t)pft_rand(&g_seed);
        src[i] = pf_image_hwc(pix[i], w, h, c, PF_U8, (ptrdiff_t)stride);
        int affine = pft_range(&g_seed, 0, 4) == 0 && d.interp <= PF_INTERP_CUBIC;
        p[i] = random_params(&src[i], colour, affine);
        /* torchvision plans: resize-then-crop windows on some samples */
        if (d.flavor == PF_RESIZE_TORCHVISION && !d.letterbox && !affine && pft_range(&g_seed, 0, 2) == 0) {
            p[i].resize_w = d.out_width + pft_range(&g_seed, 0, 30);
            p[i].resize_h = d.out_height + pft_range(&g_seed, 0, 30);
            p[i].window_x = pft_range(&g_seed, 0, p[i].resize_w - d.out_width);
            p[i].window_y = pft_range(&g_seed, 0, p[i].resize_h - d.out_height);
        }
    }
    pf_preprocess_plan *plan;
    CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_OK);
    void *m_ref, *m0, *m1, *m3, *m_pos;
    pf_tensor ref = make_tensor(&d, n, &m_ref);
    pf_tensor t0 = make_tensor(&d, n, &m0), t1 = make_tensor(&d, n, &m1), t3 = make_tensor(&d, n, &m3);
    pf_tensor tp = make_tensor(&d, n + 2, &m_pos);
    pf_image views[8];
    CHECK_STATUS(pf_tensor_views(&ref, 0, n, views), PF_OK);
    for (int i = 0; i < n; i++) chain(&d, &src[i], &p[i], &views[i]);
    pf_letterbox_info info[8];
    CHECK_STATUS(pf_preprocess_run(plan, NULL, n, src, p, &t0, info), PF_OK);
    CHECK_STATUS(pf_preprocess_run(plan, s1, n, src, p, &t1, NULL), PF_OK);
    CHECK_STATUS(pf_preprocess_run(plan, s3, n, src, p, &t3, NULL), PF_OK);
    int ok = 1;
    for (int i = 0; i < n; i++) {
        int e0 = same_sample(&ref, i, &t0, i), e1 = same_sample(&ref, i, &t1, i), e3 = same_sample(&ref, i, &t3, i);
        /* batch position: sample i alone, written to slot i + 2 */
        pf_tensor shifted = tp;
        shifted.data = (char *)tp.data + 2 * tp.sample_stride;
        shifted.n = 1;
        CHECK_STATUS(pf_preprocess_run(plan, s3, 1, &src[i], &p[i], &shifted, NULL), PF_OK);
        int ep = same_sample(&ref, i, &tp, 2);
        CHECK(e0 && e1 && e3 && ep);
        if (!(e0 && e1 && e3 && ep)) {
            ok = 0;
            fprintf(stderr, "case %d sample %d: null %d, 1 thread %d, 3 threads %d, position %d; out %dx%dx%d %s %s interp %d aa %d flavor %d lb %d/%d swap %d src %dx%dx%d affine %d colour %d\n",
                    iter, i, e0, e1, e3, ep, d.out_width, d.out_height, d.out_channels, pf_dtype_name(d.out_dtype),
                    d.out_layout == PF_CHW ? "nchw" : "nhwc", d.interp, d.antialias, (int)d.flavor, d.letterbox, d.letterbox_align,
                    d.swap_rb, src[i].width, src[i].height, src[i].channels, p[i].affine, colour);
        }
        /* the letterbox info maps the crop's corners onto the resized rectangle */
        int cw = p[i].crop_w > 0 && p[i].crop_h > 0 ? p[i].crop_w : src[i].width;
        float right = info[i].offset_x + info[i].scale_x * (float)cw;
        if (p[i].resize_w > 0) /* resize-then-crop: the crop spans the whole resize, the window is inside */
            CHECK(fabsf(right - (float)(p[i].resize_w - p[i].window_x)) <= 1e-2f &&
                  info[i].offset_x == (float)-p[i].window_x);
        else
            CHECK(right <= (float)d.out_width + 1e-3f && info[i].offset_x >= 0.0f);
    }
    (void)ok;
    pf_preprocess_plan_destroy(plan);
    free(m_ref);
    free(m0);
    free(m1);
    free(m3);
    free(m_pos);
    for (int i = 0; i < n; i++) free(pix[i]);
}

int main(void) {
    pf_stream *s1, *s3;
    CHECK_STATUS(pf_stream_create_cpu(1, &s1), PF_OK);
    CHECK_STATUS(pf_stream_create_cpu(3, &s3), PF_OK);
    for (int iter = 0; iter < 300; iter++) run_case(iter, 0, s1, s3);
    for (int iter = 0; iter < 4; iter++) run_case(1000 + iter, 1, s1, s3);
    pf_stream_destroy(s1);
    pf_stream_destroy(s3);
    return pft_summary("test_preprocess_chain");
}
