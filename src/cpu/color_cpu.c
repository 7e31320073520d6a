/* pf_cvt_color on the CPU: row-parallel, the dispatched u8 kernel of the
 * code's shape on whole blocks and the reference on the rest. */
#include <stdlib.h>

#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/color_exec.h"
#include "cpu/cpu_kernels.h"
#include "ops/color_code.h"

typedef struct color_job {
    const pf_image *src;
    pf_image *dst;
    pfi_color_code_info ci;
    const pfi_color_kernels *k;
} color_job;

/* One segment of a row: the fast kernel on whole blocks; the rest by one
 * more block that ends at the segment's end (it recomputes a few pixels
 * with the same result), or by the reference when the segment is shorter
 * than a block or the call is in place (src already overwritten). */
typedef struct seg_ctx {
    pfi_color_row_fn fast; /* NULL: the reference only */
    size_t sp, dp;         /* bytes per src / dst pixel */
    int in_place;
} seg_ctx;

static inline void run_segment(const seg_ctx *c, const char *s, char *d, int32_t n,
                               const pfi_color_desc *desc) {
    pfi_color_row_fn fast = c->fast;
    size_t sp = c->sp, dp = c->dp;
    int in_place = c->in_place;
    int32_t done = fast == NULL ? 0 : n / PFI_COLOR_BLOCK * PFI_COLOR_BLOCK;
    if (done) fast(s, d, done, desc);
    if (done == n) return;
    if (done && !in_place) {
        int32_t x = n - PFI_COLOR_BLOCK;
        fast(s + (size_t)x * sp, d + (size_t)x * dp, PFI_COLOR_BLOCK, desc);
    } else {
        pfi_color_row_ref(s + (size_t)done * sp, d + (size_t)done * dp, n - done, desc);
    }
}

static void color_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const color_job *j = ctx;
    const pf_image *s = &j->src[i];
    const pf_image *d = &j->dst[i];
    pfi_color_desc desc;
    desc.kind = j->ci.kind;
    desc.dtype = s->dtype;
    desc.scn = s->channels;
    desc.dcn = d->channels;
    desc.bidx = j->ci.bidx;
    desc.swap = j->ci.swap;
    desc.hrange = s->dtype == PF_F32 ? 360 : j->ci.hrange_u8;
    desc.hsv_trunc = 0;
    int slot = pfi_color_slot(&desc);
    pfi_color_row_fn fast = slot >= 0 ? j->k->row[slot] : NULL;
    if (fast == pfi_color_row_ref) fast = NULL;
    int32_t w = s->width;
    int hsv2rgb_u8 = desc.kind == PFK_COLOR_HSV2RGB && desc.dtype == PF_U8;
    /* Rows stored back to back are one long row: no per-row call and tail
     * for small images. Not for u8 HSV -> RGB unless the whole row is
     * truncated (its rule depends on the x position). */
    size_t es = pf_dtype_size(desc.dtype);
    seg_ctx sc = {fast, es * (size_t)desc.scn, es * (size_t)desc.dcn, s->data == d->data};
    int packed = s->row_stride == (ptrdiff_t)((size_t)w * (size_t)desc.scn * es) &&
                 d->row_stride == (ptrdiff_t)((size_t)w * (size_t)desc.dcn * es) &&
                 (!hsv2rgb_u8 || pfi_hsv2rgb_trunc_px(w) == w);
    if (packed) {
        int32_t chunk = (int32_t)((1 << 30) / w); /* rows per call: n stays < 2^30 */
        if (chunk < 1) chunk = 1;
        if (hsv2rgb_u8) desc.hsv_trunc = 1;
        for (int32_t y = y0; y < y1; y += chunk) {
            int32_t rows = y1 - y < chunk ? y1 - y : chunk;
            run_segment(&sc, pfi_row_ptr(s, 0, y), pfi_row_ptr(d, 0, y), w * rows, &desc);
        }
        return;
    }
    for (int32_t y = y0; y < y1; y++) {
        const char *sr = pfi_row_ptr(s, 0, y);
        char *dr = pfi_row_ptr(d, 0, y);
        if (hsv2rgb_u8) {
            /* OpenCV truncates the first pixels of a row and rounds the rest */
            int32_t t = pfi_hsv2rgb_trunc_px(w);
            pfi_color_desc dt = desc;
            dt.hsv_trunc = 1;
            run_segment(&sc, sr, dr, t, &dt);
            run_segment(&sc, sr + (size_t)t * 3, dr + (size_t)t * (size_t)desc.dcn, w - t, &desc);
        } else {
            run_segment(&sc, sr, dr, w, &desc);
        }
    }
}

pf_status pfi_cpu_cvt_color(pf_stream *s, int count, const pf_image src[], pf_image dst[], pf_color_code code,
                            const pf_color_opts *opts) {
    (void)opts; /* the matrix/range options concern the 4:2:0 codes only */
    pfi_color_code_info ci;
    pfi_color_decode((int)code, &ci); /* validated */
    int32_t *rows = malloc((size_t)count * 2 * sizeof *rows);
    if (rows == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_cvt_color: out of memory for %d samples", count);
    for (int i = 0; i < count; i++) {
        rows[i] = src[i].height;
        rows[count + i] = src[i].width;
    }
    color_job j = {src, dst, ci, pfi_kfamily_table(&pfi_color_family, pf_stream_isa(s))};
    pfi_run_rows(s, count, rows, rows + count, 1, color_rows, &j);
    free(rows);
    return PF_OK;
}
