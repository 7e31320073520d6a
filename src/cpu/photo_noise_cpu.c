/* pf_gaussian_noise (Philox4x32-10 normals, see src/kernels/philox.h) and
 * pf_erase (constant rectangles) on the CPU. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/cpu_kernels.h"
#include "cpu/photo_cpu.h"
#include "kernels/philox.h"
#include "kernels/photo_math.h"

typedef struct noise_job {
    const pf_image *src;
    pf_image *dst;
    const pfi_photo_k *ks;
    pfi_noise_row_fn fast[2]; /* u8, f32 */
} noise_job;

/* Contiguous elements [e0, e0 + n): the reference up to the first block
 * boundary, the kernel on whole PFI_NOISE_BLOCK runs, the reference after. */
static void noise_span(pfi_noise_row_fn fast, pfi_noise_row_fn ref, const char *s, char *d, int32_t n,
                       uint64_t e0, size_t es, const pfi_photo_k *k) {
    int32_t head = fast == ref ? n : (int32_t)((4 - e0 % 4) % 4);
    if (head > n) head = n;
    if (head) ref(s, d, head, e0, k);
    int32_t body = (n - head) / PFI_NOISE_BLOCK * PFI_NOISE_BLOCK;
    if (body) fast(s + (size_t)head * es, d + (size_t)head * es, body, e0 + (uint64_t)head, k);
    int32_t at = head + body;
    if (at < n) ref(s + (size_t)at * es, d + (size_t)at * es, n - at, e0 + (uint64_t)at, k);
}

static void noise_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const noise_job *j = ctx;
    const pf_image *s = &j->src[i];
    const pf_image *d = &j->dst[i];
    const pfi_photo_k *k = &j->ks[i];
    int u8 = s->dtype == PF_U8;
    pfi_noise_row_fn ref = u8 ? pfi_noise_u8_ref : pfi_noise_f32_ref;
    size_t es = pf_dtype_size(s->dtype);
    uint64_t C = (uint64_t)s->channels, W = (uint64_t)s->width;
    for (int32_t y = y0; y < y1; y++) {
        if (s->layout == PF_HWC || C == 1) {
            noise_span(j->fast[!u8], ref, pfi_row_ptr(s, 0, y), pfi_row_ptr(d, 0, y), (int32_t)(W * C),
                       (uint64_t)y * W * C, es, k);
            continue;
        }
        /* CHW: plane c holds every C-th element of the stream */
        for (int c = 0; c < s->channels; c++) {
            const char *sr = pfi_row_ptr(s, c, y);
            char *dr = pfi_row_ptr(d, c, y);
            for (uint64_t x = 0; x < W; x++) {
                float z = pfi_noise_z(((uint64_t)y * W + x) * C + (uint64_t)c, k);
                if (u8) dr[x] = (char)pfk_noise_u8((uint8_t)sr[x], z, k->mean, k->sigma, k->clip);
                else ((float *)(void *)dr)[x] = pfk_noise_f32(((const float *)(const void *)sr)[x], z, k->mean, k->sigma, k->clip);
            }
        }
    }
}

pf_status pfi_cpu_gaussian_noise(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                                 const double means[], const double sigmas[], int n, const pf_noise_opts *opts) {
    const char *op = "pf_gaussian_noise";
    pf_noise_opts o = *opts;
    pfi_photo_k *ks = calloc((size_t)(unsigned)count, sizeof *ks);
    int32_t *rows = malloc((size_t)(unsigned)count * 2 * sizeof *rows);
    if (!ks || !rows) {
        free(ks);
        free(rows);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", op, count);
    }
    for (int i = 0; i < count; i++) {
        int k = pfi_pick(n, i);
        int u8 = src[i].dtype == PF_U8;
        uint64_t id = o.sample_ids ? o.sample_ids[i] : (uint64_t)i;
        ks[i].mean = (float)(u8 ? means[k] * 255.0 : means[k]);
        ks[i].sigma = (float)(u8 ? sigmas[k] * 255.0 : sigmas[k]);
        ks[i].clip = o.clip ? 1 : 0;
        ks[i].key[0] = (uint32_t)o.seed;
        ks[i].key[1] = (uint32_t)(o.seed >> 32);
        ks[i].ctr[0] = (uint32_t)id;
        ks[i].ctr[1] = (uint32_t)(id >> 32);
        ks[i].ctr[2] = PFK_PHILOX_OP_NOISE;
        rows[i] = src[i].height;
        rows[count + i] = src[i].width * src[i].channels;
    }
    const pfi_photo_kernels *kt = pfi_kfamily_table(&pfi_photo_family, pf_stream_isa(stream));
    noise_job j = {src, dst, ks, {kt->noise_u8, kt->noise_f32}};
    pfi_run_rows(stream, count, rows, rows + count, 1, noise_rows, &j);
    free(ks);
    free(rows);
    return PF_OK;
}

/* ---------------------------------------------------------------- erase */

typedef struct erase_job {
    const pf_image *src;
    pf_image *dst;
    const pf_erase_rect *rects;
    const int32_t *counts;
    const size_t *first;
    int ncounts;
} erase_job;

static void fill_span(const pf_image *d, int c, int32_t y, int32_t x0, int32_t w, int cn, double value) {
    char *row = (char *)pfi_row_ptr(d, d->layout == PF_CHW ? c : 0, y);
    int step = d->layout == PF_CHW ? 1 : cn;
    int off = d->layout == PF_CHW ? 0 : c;
    if (d->dtype == PF_F32) {
        float v = (float)value, *p = (float *)(void *)row;
        for (int32_t x = x0; x < x0 + w; x++) p[(size_t)x * (size_t)step + (size_t)off] = v;
    } else if (d->dtype == PF_U16) {
        double r = rint(value);
        uint16_t v = (uint16_t)(r < 0 ? 0 : r > 65535 ? 65535 : r), *p = (uint16_t *)(void *)row;
        for (int32_t x = x0; x < x0 + w; x++) p[(size_t)x * (size_t)step + (size_t)off] = v;
    } else {
        double r = rint(value);
        uint8_t v = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r), *p = (uint8_t *)row;
        for (int32_t x = x0; x < x0 + w; x++) p[(size_t)x * (size_t)step + (size_t)off] = v;
    }
}

static void erase_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const erase_job *j = ctx;
    const pf_image *d = &j->dst[i];
    int32_t nr = j->counts[pfi_pick(j->ncounts, i)];
    const pf_erase_rect *r = j->rects + j->first[pfi_pick(j->ncounts, i)];
    for (int32_t y = y0; y < y1; y++)
        for (int32_t k = 0; k < nr; k++) {
            if (y < r[k].y || y >= r[k].y + r[k].height || r[k].width == 0) continue;
            for (int c = 0; c < d->channels; c++) fill_span(d, c, y, r[k].x, r[k].width, d->channels, r[k].value[c]);
        }
}

pf_status pfi_cpu_erase(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                        const pf_erase_rect rects[], const int32_t rect_counts[], int ncounts) {
    pf_status st = PF_OK;
    size_t *first = malloc((size_t)(unsigned)ncounts * sizeof *first);
    int32_t *rows = malloc((size_t)(unsigned)count * 2 * sizeof *rows);
    if (!first || !rows) {
        st = pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_erase: out of memory for %d samples", count);
        goto done;
    }
    size_t at = 0;
    for (int k = 0; k < ncounts; k++) {
        first[k] = at;
        at += (size_t)rect_counts[k];
    }
    pfi_photo_copy(stream, count, src, dst);
    for (int i = 0; i < count; i++) {
        rows[i] = src[i].height;
        rows[count + i] = src[i].width;
    }
    erase_job j = {src, dst, rects, rect_counts, first, ncounts};
    pfi_run_rows(stream, count, rows, rows + count, 1, erase_rows, &j);
done:
    free(first);
    free(rows);
    return st;
}
