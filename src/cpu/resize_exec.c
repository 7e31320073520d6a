/* CPU executor for resize plans: splits the output into row bands that run
 * in parallel on the stream's pool; each band keeps a small cache of
 * horizontally resized source rows (keyed by source row) and feeds the
 * vertical kernel. Every output element is a pure function of the input,
 * so the result never depends on the band split or thread count. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "core/stream.h"
#include "cpu/resize_exec.h"
#include "cpu/resize_prep.h"

static int type_index(pf_dtype dt) { return dt == PF_U8 ? PFK_RZ_T_U8 : dt == PF_U16 ? PFK_RZ_T_U16 : PFK_RZ_T_F32; }

typedef struct job {
    const pfi_resize_plan *p;
    const pfi_resize_prep *ht;
    const pfi_resize_kernels *K;
    const pf_image *src, *dst;
    int planes;          /* 1 for HWC, channels for CHW */
    int bands;           /* row bands per plane */
    int rows_per_band;
    atomic_int failed;   /* set when a band could not allocate its buffers */
} job;

/* Runs one kernel over [0, n): dispatched body, reference tail. Kernels
 * stop at safe_end, except those with byte-permute blocks, whole-row
 * pixel tables or 1-channel groups, which carry their own bounds (and
 * apply safe_end to what they do without them). */
static void run_h(pfi_h_fn simd, pfi_h_fn ref, const pfi_hrow *r, int n) {
    int lim = r->blk != NULL || r->tvb != NULL || r->c1 != NULL || r->pair_whole || r->safe_end > n ? n : r->safe_end;
    int x = simd == ref ? 0 : simd(r, 0, lim);
    if (x < n) ref(r, x, n);
}
static void run_v(pfi_v_fn simd, pfi_v_fn ref, const pfi_vrow *r, int n) {
    int x = simd == ref ? 0 : simd(r, 0, n);
    if (x < n) ref(r, x, n);
}

/* Downscales touch source rows far apart, and the hardware prefetcher
 * does not follow the jump to the next output row's rows; asking for the
 * rows the next output row will filter (those not cached yet) hides most
 * of that latency behind the current row's work. */
static void prefetch_new_rows(const job *j, int plane, const int32_t *next_sy, int kv, int sm, const int32_t *tag,
                              size_t row_bytes) {
    for (int k = 0; k < kv; k++) {
        if (tag[next_sy[k] & sm] == next_sy[k] || (k > 0 && next_sy[k] == next_sy[k - 1])) continue;
        const char *row = pfi_row_ptr(j->src, plane, next_sy[k]);
        for (size_t b = 0; b < row_bytes; b += 64) __builtin_prefetch(row + b, 0, 3);
    }
}

/* Source rows a and b filtered by one two-row call of the horizontal
 * kernel into their row-cache slots (the reference finishes both where
 * the kernel stops: the same element for both rows). */
static void h_two_rows(const job *j, int plane, const pfi_hrow *row, pfi_h_fn hs, pfi_h_fn hr, int W, char *cache,
                       size_t rb, int sm, int32_t *tag, int32_t a, int32_t b) {
    pfi_hrow r1 = *row, r2 = *row;
    r1.src = pfi_row_ptr(j->src, plane, a);
    r1.buf = cache + rb * (size_t)(a & sm);
    r1.src2 = r2.src = pfi_row_ptr(j->src, plane, b);
    r1.buf2 = r2.buf = cache + rb * (size_t)(b & sm);
    int x = hs(&r1, 0, W);
    r1.src2 = NULL;
    r1.buf2 = NULL;
    r2.src2 = NULL;
    r2.buf2 = NULL;
    if (x < W) {
        hr(&r1, x, W);
        hr(&r2, x, W);
    }
    tag[a & sm] = a;
    tag[b & sm] = b;
}

static void sep_band(job *j, int plane, int y0, int y1) {
    const pfi_resize_plan *p = j->p;
    const pfi_resize_kernels *K = j->K;
    const pfi_resize_kernels *R = &pfi_resize_kernels_ref;
    int kv = p->v.ksize;
    int W = p->dw * p->cn;
    size_t rb = (pfi_resize_buf_row_bytes(p) + 63) & ~(size_t)63;
    /* The row cache: source row r's filtered row lives in slot r & sm, of
     * ns = the power of two >= kv slots (an output row's taps are at most
     * kv consecutive rows, so they never share a slot; a mask, where a
     * `% kv` was an integer division per tap and per pairing check: the
     * torchvision axes' kv is 6 or so). [ns buffer rows][kv row
     * pointers][ns tags]: rb is a multiple of 64, so the pointers are
     * aligned, and the tags follow them. */
    int ns = 1;
    while (ns < kv) ns <<= 1;
    const int sm = ns - 1;
    char *cache = malloc(rb * (size_t)ns + sizeof(void *) * (size_t)kv + sizeof(int32_t) * (size_t)ns);
    if (cache == NULL) { atomic_store(&j->failed, 1); return; }
    const void **rows = (const void **)(void *)(cache + rb * (size_t)ns);
    int32_t *tag = (int32_t *)(void *)(rows + kv);
    for (int k = 0; k < ns; k++) tag[k] = -1;

    pfi_h_fn hs, hr;
    pfi_v_fn vs, vr;
    int ti = type_index(p->dtype);
    switch (p->hk) {
    case PFK_H_U8_I32: hs = K->h_u8_i32; hr = R->h_u8_i32; break;
    case PFK_H_U8_LIN16: hs = K->h_u8_lin16; hr = R->h_u8_lin16; break;
    case PFK_H_AA_U8: hs = K->h_aa_u8; hr = R->h_aa_u8; break;
    case PFK_H_TV_U8: hs = K->h_tv_u8; hr = R->h_tv_u8; break;
    default: hs = K->h_f32[ti]; hr = R->h_f32[ti]; break;
    }
    switch (p->vk) {
    case PFK_V_U8_LINEAR: vs = K->v_u8_linear; vr = R->v_u8_linear; break;
    case PFK_V_U8_FIX22: vs = K->v_u8_fix22; vr = R->v_u8_fix22; break;
    case PFK_V_U8_CUBIC: vs = K->v_u8_cubic; vr = R->v_u8_cubic; break;
    case PFK_V_AA_U8: vs = K->v_aa_u8; vr = R->v_aa_u8; break;
    case PFK_V_TV_U8: vs = K->v_tv_u8; vr = R->v_tv_u8; break;
    default: vs = K->v_f32[ti]; vr = R->v_f32[ti]; break;
    }

    const pfi_resize_prep *ht = j->ht;
    pfi_hrow hrow = {.e_off = ht->e_off, .e_coef = ht->e_coef, .ksize = p->h.ksize,
                     .width = W, .cn = p->cn, .safe_end = ht->safe_end, .shift = p->h.shift,
                     .blk = ht->blk, .blk_n = ht->blk_n, .blk_win = ht->blk_win,
                     .tvb = ht->tvb, .tvw = ht->tvw, .tvb_first = ht->tvb_first, .tvb_n = ht->tvb_n,
                     .c1 = ht->c1, .c1_n = ht->c1_n, .c1_stride = ht->c1_stride,
                     .c1_chunks = ht->c1_chunks,
                     .tvb_base = ht->tvb_first != NULL ? ht->tvb_first + ((p->dw * p->cn + 15) / 16 + 1) : NULL};
    if (ht->pair_mem != NULL) {
        hrow.pair_off = ht->pair_mem;
        hrow.pair_n = ht->pair_mem + p->dw;
        hrow.pair_coef = ht->pair_mem + 2 * (size_t)p->dw;
        hrow.pair_max = ht->pair_max;
        hrow.pair_safe_end = ht->pair_safe_end;
        hrow.pair_tail_first = ht->pair_tail_first;
        hrow.pair_tail_base = ht->pair_tail_base;
        hrow.pair_tail_len = ht->pair_tail_len;
        hrow.pair_tail_reach = ht->pair_tail_reach;
        hrow.pair_whole = ht->pair_whole;
    }
    size_t src_row_bytes = (size_t)p->sw * (size_t)p->cn * pf_dtype_size(p->dtype);
    /* two-row calls: only the byte-permute kernel takes them */
    int pair_rows = kv == 2 && p->hk == PFK_H_U8_LIN16 && ht->blk != NULL && ht->blk_n > 0;
    /* torch skips an axis whose size does not change; its pass would be
     * exact (one weight 2^shift), so skipping only saves the work: the
     * vertical pass reads source rows, or the horizontal one writes dst */
    int h_id = p->h_skip, v_id = p->v_skip;
    int tv_v = p->vk == PFK_V_TV_U8 && p->v.count != NULL;
    /* two-row calls of the torchvision permute steps (want_tvblocks): the
     * rows are shared by few output rows, so they are paired as they are
     * first needed (one row may be filtered ahead of its output row) */
    int tv_pairs = tv_v && p->hk == PFK_H_TV_U8 && hs != hr &&
                   ((K->want_tvblocks && ht->tvb != NULL && ht->tvb_n > 0) || (K->tv_quads_two_rows && ht->pair_whole));
    /* with the pairs: the band's last source row, and the next row to prefetch */
    int32_t tv_last = tv_pairs && y1 > y0 ? p->v.idx[(size_t)(y1 - 1) * (size_t)kv] + p->v.count[y1 - 1] - 1 : -1;
    int32_t pf_next = -1;
    for (int y = y0; y < y1; y++) {
        const int32_t *sy = p->v.idx + (size_t)y * (size_t)kv;
        /* torch's rows stop at their real taps: the pads repeat the last
         * one with weight zero, so leaving them out of the vertical sum is
         * exact (a 375 -> 224 antialiased axis pads 3-4 taps to 6) */
        int nk = tv_v && p->v.count[y] > 0 && p->v.count[y] < kv ? p->v.count[y] : kv;
        if (v_id) {
            hrow.src = pfi_row_ptr(j->src, plane, y);
            hrow.buf = pfi_row_ptr(j->dst, plane, y);
            run_h(hs, hr, &hrow, W);
            continue;
        }
        if (h_id) {
            for (int k = 0; k < kv; k++) rows[k] = pfi_row_ptr(j->src, plane, sy[k]);
            pfi_vrow vr_id = {.rows = rows, .dst = pfi_row_ptr(j->dst, plane, y), .icoef = p->v.icoef + (size_t)y * kv,
                              .ksize = nk, .shift = p->v.shift};
            run_v(vs, vr, &vr_id, W);
            continue;
        }
        if (tv_pairs) {
            /* the pairs filter rows ahead of the output row that first
             * needs them: prefetch a few rows past this row's last tap */
            if (pf_next < sy[0]) pf_next = sy[0];
            int32_t upto = sy[nk - 1] + 4 < tv_last ? sy[nk - 1] + 4 : tv_last;
            for (; pf_next <= upto; pf_next++) {
                if (tag[pf_next & sm] == pf_next) continue;
                const char *row = pfi_row_ptr(j->src, plane, pf_next);
                for (size_t b = 0; b < src_row_bytes; b += 64) __builtin_prefetch(row + b, 0, 3);
            }
        } else if (y + 1 < y1) {
            prefetch_new_rows(j, plane, sy + kv, kv, sm, tag, src_row_bytes);
        }
        if (pair_rows && sy[0] % 2 != sy[1] % 2 && tag[sy[0] % 2] != sy[0] && tag[sy[1] % 2] != sy[1]) {
            /* both rows new (a downscale that skips rows): one interleaved call */
            char *b0 = cache + rb * (size_t)(sy[0] % 2), *b1 = cache + rb * (size_t)(sy[1] % 2);
            hrow.src = pfi_row_ptr(j->src, plane, sy[0]);
            hrow.buf = b0;
            hrow.src2 = pfi_row_ptr(j->src, plane, sy[1]);
            hrow.buf2 = b1;
            int x = hs(&hrow, 0, W);
            pfi_hrow r1 = hrow, r2 = hrow;
            r2.src = hrow.src2;
            r2.buf = hrow.buf2;
            if (x < W) { hr(&r1, x, W); hr(&r2, x, W); }
            hrow.src2 = NULL;
            hrow.buf2 = NULL;
            tag[sy[0] % 2] = sy[0];
            tag[sy[1] % 2] = sy[1];
        }
        if (tv_pairs) {
            /* the rows this output row still needs, two per call: its real
             * taps are consecutive rows, so their slots differ */
            int pend = -1;
            for (int k = 0; k < nk; k++) {
                if (tag[sy[k] & sm] == sy[k] || (pend >= 0 && sy[k] == sy[pend])) continue;
                if (pend < 0) { pend = k; continue; }
                h_two_rows(j, plane, &hrow, hs, hr, W, cache, rb, sm, tag, sy[pend], sy[k]);
                pend = -1;
            }
            /* one row left: pair it with the row after it when a later
             * output row of the band needs that one (filtered early: the
             * same bytes) and its slot holds none of this row's taps. The
             * rows in between need no row below this one's first tap, so
             * nothing they read is overwritten. */
            int r0 = pend >= 0 ? sy[pend] : -1, r1 = r0 + 1, ok = 0;
            if (r0 >= 0 && tag[r1 & sm] != r1)
                for (int yy = y + 1; yy < y1; yy++) {
                    int32_t first = p->v.idx[(size_t)yy * (size_t)kv];
                    if (first > r1) break;
                    if (r1 < first + p->v.count[yy]) { ok = 1; break; }
                }
            if (ok) {
                for (int k = 0; k < nk && ok; k++) ok = (sy[k] & sm) != (r1 & sm);
                if (ok) h_two_rows(j, plane, &hrow, hs, hr, W, cache, rb, sm, tag, r0, r1);
            }
        }
        for (int k = 0; k < kv; k++) {
            int slot = sy[k] & sm;
            char *buf = cache + rb * (size_t)slot;
            if (tag[slot] != sy[k]) {
                hrow.src = pfi_row_ptr(j->src, plane, sy[k]);
                hrow.buf = buf;
                run_h(hs, hr, &hrow, W);
                tag[slot] = sy[k];
            }
            rows[k] = buf;
        }
        size_t t = (size_t)y * (size_t)kv;
        pfi_vrow vrow = {.rows = rows, .dst = pfi_row_ptr(j->dst, plane, y), .icoef = p->v.icoef + t,
                         .acoef = p->v.acoef + t, .fcoef = p->v.fcoef + t, .ksize = nk,
                         .vsplit = p->vsplit, .shift = p->v.shift};
        run_v(vs, vr, &vrow, W);
    }
    free(cache);
}

static void band_task(void *ctx, int task, int worker) {
    (void)worker;
    job *j = ctx;
    const pfi_resize_plan *p = j->p;
    int plane = task / j->bands, band = task % j->bands;
    int y0 = band * j->rows_per_band;
    int y1 = y0 + j->rows_per_band < p->dh ? y0 + j->rows_per_band : p->dh;
    size_t es = pf_dtype_size(p->dtype);
    size_t pix = es * (size_t)p->cn;
    switch (p->kind) {
    case PFK_RZ_COPY:
        for (int y = y0; y < y1; y++)
            memcpy(pfi_row_ptr(j->dst, plane, y), pfi_row_ptr(j->src, plane, y), pix * (size_t)p->dw);
        break;
    case PFK_RZ_NN:
        if (p->dtype == PF_U8 && (p->cn == 3 || p->cn == 4)) {
            pfi_nnrow nr = {.nn_x = p->nn_x, .cn = p->cn, .safe_end = j->ht->nn_safe_end};
            for (int y = y0; y < y1; y++) {
                nr.src = pfi_row_ptr(j->src, plane, p->nn_y[y]);
                nr.dst = pfi_row_ptr(j->dst, plane, y);
                int x = j->K->nn_u8(&nr, 0, p->dw);
                if (x < p->dw) pfi_rz_nn_u8_ref(&nr, x, p->dw);
            }
            break;
        }
        for (int y = y0; y < y1; y++)
            pfi_rz_nn_row(p, pfi_row_ptr(j->src, plane, p->nn_y[y]), pfi_row_ptr(j->dst, plane, y), pix);
        break;
    case PFK_RZ_AREA_FAST: {
        const void *rows[64];
        const void **rp = p->afy <= 64 ? rows : malloc(sizeof(void *) * (size_t)p->afy);
        if (rp == NULL) { atomic_store(&j->failed, 1); return; }
        for (int y = y0; y < y1; y++) {
            int sy0 = y * p->afy, avail = 0;
            for (int k = 0; k < p->afy && sy0 + k < p->sh; k++, avail++)
                rp[k] = pfi_row_ptr(j->src, plane, sy0 + k);
            pfi_rz_area_fast_row(p, rp, avail, pfi_row_ptr(j->dst, plane, y), j->K->area2_u8);
        }
        if (rp != rows) free(rp);
        break;
    }
    case PFK_RZ_SEP:
        sep_band(j, plane, y0, y1);
        break;
    }
}

/* A call's work in element-taps, each output element costing its taps
 * plus ~4 for its load, round and store: the horizontal pass over every
 * source row, the vertical one over every output row. */
enum { RZ_SPLIT_WORK = 1 << 22 };
static int64_t rz_work(const pfi_resize_plan *p, int planes) {
    int64_t row = (int64_t)p->dw * p->cn * planes;
    if (p->kind != PFK_RZ_SEP) return row * p->dh * (p->kind == PFK_RZ_AREA_FAST ? p->afx * p->afy + 4 : 5);
    return row * ((int64_t)p->sh * (p->h.ksize + 4) + (int64_t)p->dh * (p->v.ksize + 4));
}

pf_status pfi_resize_image(pf_stream *s, const pfi_resize_kernels *K, const pf_image *src, const pf_image *dst,
                           pf_interp interp, pf_resize_flavor flavor, bool antialias, const pfi_rz_window *win) {
    int planar = src->layout == PF_CHW && src->channels > 1;
    pfi_resize_canon(&flavor, &antialias);
    pfi_resize_key key = {.sw = src->width, .sh = src->height, .dw = dst->width, .dh = dst->height,
                          .cn = planar ? 1 : src->channels, .dtype = src->dtype, .interp = interp,
                          .flavor = flavor, .antialias = antialias, .K = K};
    if (win != NULL && win->rw > 0) key.win = *win;
    pfi_resize_prep *prep;
    int transient;
    pf_status st = pfi_resize_prep_get(&key, &prep, &transient);
    if (st != PF_OK) return st;
    const pfi_resize_plan *p = &prep->p;
    job j = {.p = p, .ht = prep, .K = K, .src = src, .dst = dst};
    atomic_init(&j.failed, 0);
    j.planes = planar ? src->channels : 1;
    int threads = pf_stream_threads(s);
    /* Enough bands to balance threads, but tall enough that each band's
     * row-cache warm-up (ksize rows) stays a small overhead. A call of
     * less than RZ_SPLIT_WORK (~80-100 us here) runs on the calling
     * thread alone: waking a worker took ~50 us on this project's 2-vCPU
     * machines, more than a second thread gains on such a call
     * (docs/performance.md, "The pool's hand-off"). Above it, many small
     * bands, so the caller keeps working while the worker wakes: with two
     * bands the wake-up was on the critical path (measured 1.5x slower
     * than one thread). */
    int min_rows = p->kind == PFK_RZ_SEP ? 8 : 16;
    int split = threads > 1 && rz_work(p, j.planes) >= RZ_SPLIT_WORK;
    int want = split ? threads * 4 : 1;
    int per = (p->dh + want - 1) / want;
    if (per < min_rows) per = min_rows;
    j.rows_per_band = per;
    j.bands = (p->dh + per - 1) / per;
    /* unsplit, a CHW image's planes run inline too */
    pfi_stream_parallel(split ? s : NULL, j.planes * j.bands, band_task, &j);
    pfi_resize_prep_release(prep, transient);
    if (atomic_load(&j.failed)) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_resize: out of memory for row buffers");
    return PF_OK;
}
