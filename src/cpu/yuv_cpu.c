/* The 4:2:0 conversions on the CPU: row-pair-parallel, the dispatched
 * kernel on whole blocks, the reference (or one more, overlapping block)
 * on the rest (src/ref/yuv_rows.h). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/cpu_kernels.h"
#include "cpu/yuv_exec.h"
#include "ops/yuv_code.h"

typedef struct yuv_job {
    const pf_yuv *frames;
    const pf_image *images;
    pfi_yuv_code c;
    pfi_yuv_params p;
    const pfi_yuv_kernels *k; /* the dispatched kernels */
} yuv_job;

/* Columns the fast kernel covers (the reference takes the rest). */
static int32_t fast_cols(int is_ref, int32_t w) { return is_ref ? 0 : w / PFI_YUV_BLOCK * PFI_YUV_BLOCK; }

/* Where the fast kernel runs once more for the tail: the last whole
 * block, overlapping the columns already done (it rewrites them with the
 * same bytes; outputs never overlap inputs). Returns w when the row is
 * all blocks or narrower than one block (then the reference takes the
 * tail). The start is even because w and the block are. */
static int32_t tail_start(int32_t n, int32_t w) {
    return n > 0 && n < w ? w - PFI_YUV_BLOCK : w;
}

static void decode_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const yuv_job *j = ctx;
    const pf_yuv *f = &j->frames[i];
    const pf_image *d = &j->images[i];
    const int32_t w = f->y.width, cn = j->p.cn;
    for (int32_t y = y0; y < y1; y += 2) {
        const uint8_t *l0 = pfi_row_ptr(&f->y, 0, y), *l1 = pfi_row_ptr(&f->y, 0, y + 1);
        uint8_t *o0 = pfi_row_ptr(d, 0, y), *o1 = pfi_row_ptr(d, 0, y + 1);
        if (j->c.kind == PFK_YUV_FRAME_GRAY) {
            memcpy(o0, l0, (size_t)w);
            memcpy(o1, l1, (size_t)w);
            continue;
        }
        if (j->c.kind == PFK_YUV_FRAME_SP) {
            const uint8_t *uv = pfi_row_ptr(&f->uv, 0, y / 2);
            pfi_yuv_sp_to_rgb_fn k = j->k->sp_to_rgb;
            int32_t n = fast_cols(k == pfi_yuv_sp_to_rgb_ref, w), t = tail_start(n, w);
            if (n) k(l0, l1, uv, o0, o1, n, &j->p);
            if (t < w) k(l0 + t, l1 + t, uv + t, o0 + t * cn, o1 + t * cn, PFI_YUV_BLOCK, &j->p);
            else if (n < w)
                pfi_yuv_sp_to_rgb_ref(l0 + n, l1 + n, uv + n, o0 + n * cn, o1 + n * cn, w - n, &j->p);
        } else {
            const uint8_t *u = pfi_row_ptr(&f->u, 0, y / 2), *v = pfi_row_ptr(&f->v, 0, y / 2);
            pfi_yuv_p_to_rgb_fn k = j->k->p_to_rgb;
            int32_t n = fast_cols(k == pfi_yuv_p_to_rgb_ref, w), t = tail_start(n, w);
            if (n) k(l0, l1, u, v, o0, o1, n, &j->p);
            if (t < w)
                k(l0 + t, l1 + t, u + t / 2, v + t / 2, o0 + t * cn, o1 + t * cn, PFI_YUV_BLOCK, &j->p);
            else if (n < w)
                pfi_yuv_p_to_rgb_ref(l0 + n, l1 + n, u + n / 2, v + n / 2, o0 + n * cn,
                                     o1 + n * cn, w - n, &j->p);
        }
    }
}

static void encode_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const yuv_job *j = ctx;
    const pf_image *s = &j->images[i];
    const pf_yuv *f = &j->frames[i];
    const int32_t w = s->width, cn = j->p.cn;
    for (int32_t y = y0; y < y1; y += 2) {
        const uint8_t *i0 = pfi_row_ptr(s, 0, y), *i1 = pfi_row_ptr(s, 0, y + 1);
        uint8_t *l0 = pfi_row_ptr(&f->y, 0, y), *l1 = pfi_row_ptr(&f->y, 0, y + 1);
        if (j->c.kind == PFK_YUV_FRAME_SP) {
            uint8_t *uv = pfi_row_ptr(&f->uv, 0, y / 2);
            pfi_rgb_to_yuv_sp_fn k = j->k->rgb_to_sp;
            int32_t n = fast_cols(k == pfi_rgb_to_yuv_sp_ref, w), t = tail_start(n, w);
            if (n) k(i0, i1, l0, l1, uv, n, &j->p);
            if (t < w) k(i0 + t * cn, i1 + t * cn, l0 + t, l1 + t, uv + t, PFI_YUV_BLOCK, &j->p);
            else if (n < w)
                pfi_rgb_to_yuv_sp_ref(i0 + n * cn, i1 + n * cn, l0 + n, l1 + n, uv + n, w - n, &j->p);
        } else {
            uint8_t *u = pfi_row_ptr(&f->u, 0, y / 2), *v = pfi_row_ptr(&f->v, 0, y / 2);
            pfi_rgb_to_yuv_p_fn k = j->k->rgb_to_p;
            int32_t n = fast_cols(k == pfi_rgb_to_yuv_p_ref, w), t = tail_start(n, w);
            if (n) k(i0, i1, l0, l1, u, v, n, &j->p);
            if (t < w)
                k(i0 + t * cn, i1 + t * cn, l0 + t, l1 + t, u + t / 2, v + t / 2, PFI_YUV_BLOCK, &j->p);
            else if (n < w)
                pfi_rgb_to_yuv_p_ref(i0 + n * cn, i1 + n * cn, l0 + n, l1 + n, u + n / 2, v + n / 2,
                                     w - n, &j->p);
        }
    }
}

static pf_status run(pf_stream *stream, int count, const char *fn, yuv_job *j, int encode) {
    int32_t *rows = malloc((size_t)count * 2 * sizeof *rows);
    if (rows == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", fn, count);
    for (int i = 0; i < count; i++) {
        rows[i] = j->frames[i].y.height;
        rows[count + i] = j->frames[i].y.width;
    }
    j->k = pfi_kfamily_table(&pfi_yuv_family, pf_stream_isa(stream));
    pfi_run_rows(stream, count, rows, rows + count, 2, encode ? encode_rows : decode_rows, j);
    free(rows);
    return PF_OK;
}

/* The job of a validated call: the code's meaning and coefficients. */
static void job_init(yuv_job *j, const pfi_yuv_code *c, const pf_color_opts *opts) {
    memset(j, 0, sizeof *j);
    j->c = *c;
    pfi_yuv_check_opts("", opts, &j->p.k); /* validated */
    j->p.cn = c->cn;
    j->p.blue_first = c->blue_first;
    j->p.swap_uv = c->swap_uv;
}

pf_status pfi_cpu_cvt_color_from_yuv(pf_stream *s, int count, const pf_yuv src[], pf_image dst[],
                                     pf_color_code code, const pf_color_opts *opts) {
    pfi_yuv_code c;
    pfi_yuv_decode_code(code, &c); /* validated */
    yuv_job j;
    job_init(&j, &c, opts);
    j.frames = src;
    j.images = dst;
    return run(s, count, "pf_cvt_color_from_yuv", &j, 0);
}

pf_status pfi_cpu_cvt_color_to_yuv(pf_stream *s, int count, const pf_image src[], pf_yuv dst[], pf_color_code code,
                                   const pf_color_opts *opts) {
    pfi_yuv_code c;
    pfi_yuv_encode_code(code, &c); /* validated */
    yuv_job j;
    job_init(&j, &c, opts);
    j.frames = dst;
    j.images = src;
    return run(s, count, "pf_cvt_color_to_yuv", &j, 1);
}
