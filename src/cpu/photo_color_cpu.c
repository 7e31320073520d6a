/*
 * The colour photometric ops on the CPU: contrast, saturation, hue,
 * grayscale and color_twist. 3-channel samples run pixel kernels of the photo family;
 * 1-channel samples follow torchvision (saturation/hue: unchanged,
 * grayscale: copied or repeated, contrast: blended with the image mean).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/cpu_kernels.h"
#include "cpu/photo_cpu.h"
#include "kernels/photo_math.h"

/* Allocates the per-sample tasks after validation. */
static pf_status tasks_alloc(const char *op, int count, pfi_photo_task **t) {
    *t = calloc((size_t)(unsigned)count, sizeof **t);
    return *t ? PF_OK : pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", op, count);
}

/* Runs the 3-channel samples' kernels and copies the 1-channel ones. */
static pf_status run_color(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                           pfi_photo_task *t) {
    int any1 = 0;
    for (int i = 0; i < count; i++) any1 |= src[i].channels == 1;
    if (!any1) {
        pfi_photo_run_px(stream, count, src, dst, t);
    } else {
        for (int i = 0; i < count; i++) {
            if (src[i].channels == 1) pfi_photo_copy(stream, 1, &src[i], &dst[i]);
            else pfi_photo_run_px(stream, 1, &src[i], &dst[i], &t[i]);
        }
    }
    free(t);
    return PF_OK;
}

pf_status pfi_cpu_adjust_saturation(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                                    const double factors[], int n) {
    pfi_photo_task *t;
    pf_status st = tasks_alloc("pf_adjust_saturation", count, &t);
    if (st != PF_OK) return st;
    for (int i = 0; i < count; i++) {
        double f = factors[pfi_pick(n, i)];
        t[i].k.ratio = (float)f;
        t[i].k.alpha = (float)(1.0 - f);
        int u8 = src[i].dtype == PF_U8;
        t[i].ref = u8 ? pfi_saturation_u8_ref : pfi_saturation_f32_ref;
        t[i].fast = pfi_photo_kernel(stream, u8 ? PFI_PHOTO_SAT_U8 : PFI_PHOTO_SAT_F32, t[i].ref);
    }
    return run_color(stream, count, src, dst, t);
}

pf_status pfi_cpu_adjust_hue(pf_stream *stream, int count, const pf_image src[], pf_image dst[], const double hues[],
                             int n) {
    pfi_photo_task *t;
    pf_status st = tasks_alloc("pf_adjust_hue", count, &t);
    if (st != PF_OK) return st;
    for (int i = 0; i < count; i++) {
        t[i].k.hue = (float)hues[pfi_pick(n, i)];
        int u8 = src[i].dtype == PF_U8;
        t[i].ref = u8 ? pfi_hue_u8_ref : pfi_hue_f32_ref;
        t[i].fast = pfi_photo_kernel(stream, u8 ? PFI_PHOTO_HUE_U8 : PFI_PHOTO_HUE_F32, t[i].ref);
    }
    return run_color(stream, count, src, dst, t);
}

pf_status pfi_cpu_rgb_to_grayscale(pf_stream *stream, int count, const pf_image src[], pf_image dst[]) {
    pfi_photo_task *t;
    pf_status st = tasks_alloc("pf_rgb_to_grayscale", count, &t);
    if (st != PF_OK) return st;
    for (int i = 0; i < count; i++) {
        t[i].k.dcn = dst[i].channels;
        int u8 = src[i].dtype == PF_U8;
        t[i].ref = u8 ? pfi_gray_u8_ref : pfi_gray_f32_ref;
        int slot = !u8 ? -1 : dst[i].channels == 1 ? PFI_PHOTO_GRAY1_U8 : PFI_PHOTO_GRAY3_U8;
        t[i].fast = pfi_photo_kernel(stream, slot, t[i].ref);
    }
    return run_color(stream, count, src, dst, t);
}

pf_status pfi_cpu_color_twist(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                              const float matrices[], int n) {
    pfi_photo_task *t;
    pf_status st = tasks_alloc("pf_color_twist", count, &t);
    if (st != PF_OK) return st;
    for (int i = 0; i < count; i++) {
        memcpy(t[i].k.m, matrices + 12 * pfi_pick(n, i), sizeof t[i].k.m);
        int u8 = src[i].dtype == PF_U8;
        t[i].ref = u8 ? pfi_twist_u8_ref : pfi_twist_f32_ref;
        t[i].fast = pfi_photo_kernel(stream, u8 ? PFI_PHOTO_TWIST_U8 : PFI_PHOTO_TWIST_F32, t[i].ref);
    }
    return run_color(stream, count, src, dst, t);
}

/* ------------------------------------------------------------ contrast */

/* Pass 1 of contrast: the sum of each row's grayscale (floored for u8),
 * or of its values for 1 channel, in double (exact for u8). Rows are
 * summed in order afterwards, so the mean does not depend on threads. */
typedef struct sum_job {
    const pf_image *src;
    double *row_sums;
    const size_t *first_row; /* index of sample i's row 0 in row_sums */
    pfi_graysum_u8_fn graysum;
} sum_job;

static void sum_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const sum_job *j = ctx;
    const pf_image *s = &j->src[i];
    int32_t w = s->width;
    for (int32_t y = y0; y < y1; y++) {
        double acc = 0.0;
        const void *row = pfi_row_ptr(s, 0, y);
        if (s->channels == 3 && s->dtype == PF_U8) {
            int32_t done = w / PFI_PHOTO_PX_BLOCK * PFI_PHOTO_PX_BLOCK;
            uint64_t sum = j->graysum == pfi_graysum_u8_ref ? 0 : j->graysum(row, done);
            if (j->graysum == pfi_graysum_u8_ref) done = 0;
            sum += pfi_graysum_u8_ref((const uint8_t *)row + 3 * (size_t)done, w - done);
            acc = (double)sum;
        } else if (s->channels == 3) {
            const float *r = row;
            for (int32_t x = 0; x < w; x++) acc += (double)pfk_gray(r[3 * x], r[3 * x + 1], r[3 * x + 2]);
        } else if (s->dtype == PF_U8) {
            const uint8_t *r = row;
            uint64_t sum = 0;
            for (int32_t x = 0; x < w; x++) sum += r[x];
            acc = (double)sum;
        } else {
            const float *r = row;
            for (int32_t x = 0; x < w; x++) acc += (double)r[x];
        }
        j->row_sums[j->first_row[i] + (size_t)y] = acc;
    }
}

typedef struct blend_job {
    const pf_image *src;
    pf_image *dst;
    const pfi_photo_task *t;
} blend_job;

/* Pass 2 for f32: the blend with the mean on every element. */
static void blend_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const blend_job *j = ctx;
    const pf_image *s = &j->src[i];
    const pf_image *d = &j->dst[i];
    const pfi_photo_task *t = &j->t[i];
    int32_t n = s->width * s->channels;
    int32_t done = t->fast == t->ref ? 0 : n / PFI_PHOTO_PX_BLOCK * PFI_PHOTO_PX_BLOCK;
    for (int32_t y = y0; y < y1; y++) {
        const float *sr = pfi_row_ptr(s, 0, y);
        float *dr = pfi_row_ptr(d, 0, y);
        if (done) t->fast(sr, dr, done, &t->k);
        if (done < n) t->ref(sr + done, dr + done, n - done, &t->k);
    }
}

pf_status pfi_cpu_adjust_contrast(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                                  const double factors[], int n) {
    const char *op = "pf_adjust_contrast";
    pf_status st = PF_OK;
    size_t total_rows = 0;
    for (int i = 0; i < count; i++) total_rows += (size_t)src[i].height;
    pfi_photo_task *t = calloc((size_t)(unsigned)count, sizeof *t);
    size_t *first = malloc((size_t)(unsigned)count * sizeof *first);
    double *sums = malloc(total_rows * sizeof *sums);
    int32_t *rows = malloc((size_t)(unsigned)count * 2 * sizeof *rows);
    uint8_t *tab = malloc((size_t)(unsigned)count * 256);
    if (!t || !first || !sums || !rows || !tab) {
        st = pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", op, count);
        goto done;
    }
    size_t at = 0;
    for (int i = 0; i < count; i++) {
        first[i] = at;
        at += (size_t)src[i].height;
        rows[i] = src[i].height;
        rows[count + i] = src[i].width * src[i].channels;
    }
    sum_job sj = {src, sums, first,
                  ((const pfi_photo_kernels *)pfi_kfamily_table(&pfi_photo_family, pf_stream_isa(stream)))->graysum_u8};
    pfi_run_rows(stream, count, rows, rows + count, 1, sum_rows, &sj);
    int any_f32 = 0;
    for (int i = 0; i < count; i++) {
        double acc = 0.0;
        for (int32_t y = 0; y < src[i].height; y++) acc += sums[first[i] + (size_t)y];
        double f = factors[pfi_pick(n, i)];
        pfi_photo_k *k = &t[i].k;
        k->other = (float)(acc / ((double)src[i].width * (double)src[i].height));
        k->ratio = (float)f;
        k->alpha = (float)(1.0 - f);
        t[i].ref = pfi_contrast_f32_ref;
        t[i].fast = pfi_photo_kernel(stream, PFI_PHOTO_CONTRAST_F32, t[i].ref);
        if (src[i].dtype == PF_U8)
            for (int v = 0; v < 256; v++) tab[i * 256 + v] = pfk_blend_u8((uint8_t)v, k->ratio, k->other, k->alpha);
        else any_f32 = 1;
    }
    /* u8 runs through the LUT executor (pfi_photo_lut); f32 blends
     * element-wise (1-channel CHW and HWC rows look the same). */
    for (int i = 0; i < count && st == PF_OK; i++) {
        int u8 = src[i].dtype == PF_U8;
        int run = 1;
        while (i + run < count && (src[i + run].dtype == PF_U8) == u8) run++;
        if (u8) {
            st = pfi_photo_lut(op, stream, run, src + i, dst + i, tab + (size_t)i * 256, 0);
        } else {
            blend_job bj = {src + i, dst + i, t + i};
            pfi_run_rows(stream, run, rows + i, rows + count + i, 1, blend_rows, &bj);
        }
        i += run - 1;
    }
    (void)any_f32;
done:
    free(t);
    free(first);
    free(sums);
    free(rows);
    free(tab);
    return st;
}
