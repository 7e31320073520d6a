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

/* Element-level horizontal tables derived from the plan. */
typedef struct htabs {
    int32_t *e_off;
    void *e_coef;
    int32_t safe_end;
    int32_t *pair_mem;   /* pair_off | pair_n | pair_coef in one block, or NULL */
    int32_t pair_max, pair_safe_end;
} htabs;

/* Tap-pair tables for the antialiased u8 pass (see pfi_hrow). */
static pf_status build_pair_tabs(const pfi_resize_plan *p, htabs *t) {
    int cn = p->cn, ks = p->h.ksize, dw = p->dw;
    int pm = (ks + 1) / 2;
    size_t n = (size_t)dw * 2 + (size_t)dw * (size_t)pm * 8;
    t->pair_mem = calloc(n, sizeof(int32_t));
    if (t->pair_mem == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_resize: out of memory for row tables");
    int32_t *off = t->pair_mem, *np = off + dw, *coef = np + dw;
    size_t row_bytes = (size_t)p->sw * (size_t)cn;
    t->pair_max = pm;
    t->pair_safe_end = dw;
    for (int dx = 0; dx < dw; dx++) {
        const int32_t *idx = p->h.idx + (size_t)dx * (size_t)ks;
        const int32_t *w = p->h.acoef + (size_t)dx * (size_t)ks;
        int cnt = p->h.count[dx];
        off[dx] = idx[0] * cn;
        np[dx] = (cnt + 1) / 2;
        for (int j = 0; j < np[dx]; j++) {
            int32_t w0 = w[2 * j], w1 = 2 * j + 1 < cnt ? w[2 * j + 1] : 0;
            uint32_t hi = (uint32_t)(uint16_t)(int16_t)(w0 >> 11) | ((uint32_t)(uint16_t)(int16_t)(w1 >> 11) << 16);
            uint32_t lo = (uint32_t)(w0 & 2047) | ((uint32_t)(w1 & 2047) << 16);
            int32_t *c = coef + ((size_t)dx * (size_t)pm + (size_t)j) * 8;
            for (int l = 0; l < 4; l++) { c[l] = (int32_t)hi; c[4 + l] = (int32_t)lo; }
        }
        size_t last = (size_t)off[dx] + (size_t)(np[dx] > 0 ? np[dx] - 1 : 0) * 2 * (size_t)cn + 16;
        if (t->pair_safe_end == dw && last > row_bytes) t->pair_safe_end = dx;
    }
    return PF_OK;
}

/* Per-pixel tables for the LINEAR u8 pass (see pfi_hrow). */
static pf_status build_linear_pixel_tabs(const pfi_resize_plan *p, htabs *t) {
    int cn = p->cn, dw = p->dw;
    t->pair_mem = malloc(sizeof(int32_t) * ((size_t)dw * 6 + 4));
    if (t->pair_mem == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_resize: out of memory for row tables");
    int32_t *off = t->pair_mem, *np = off + dw, *coef = np + dw;
    size_t row_bytes = (size_t)p->sw * (size_t)cn;
    t->pair_max = 1;
    t->pair_safe_end = dw;
    for (int dx = 0; dx < dw; dx++) {
        const int32_t *idx = p->h.idx + (size_t)dx * 2;
        const int16_t *w = p->h.icoef + (size_t)dx * 2;
        off[dx] = idx[0] * cn;
        np[dx] = 1;
        int32_t pair = (int32_t)((uint32_t)(uint16_t)w[0] | ((uint32_t)(uint16_t)w[1] << 16));
        for (int l = 0; l < 4; l++) coef[(size_t)dx * 4 + (size_t)l] = pair;
        if (t->pair_safe_end == dw && (idx[1] != idx[0] + 1 || (size_t)off[dx] + 8 > row_bytes))
            t->pair_safe_end = dx;
    }
    return PF_OK;
}

static pf_status build_htabs(const pfi_resize_plan *p, htabs *t) {
    int cn = p->cn, ks = p->h.ksize;
    size_t W = (size_t)p->dw * (size_t)cn;
    size_t es = pf_dtype_size(p->dtype);
    t->e_off = malloc(W * (size_t)ks * sizeof(int32_t));
    t->e_coef = malloc(W * (size_t)ks * sizeof(int32_t)); /* every coef type is 4 bytes */
    if (t->e_off == NULL || t->e_coef == NULL) {
        free(t->e_off);
        free(t->e_coef);
        t->e_off = NULL;
        t->e_coef = NULL;
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_resize: out of memory for row tables");
    }
    size_t row_bytes = (size_t)p->sw * (size_t)cn * es;
    t->safe_end = (int32_t)W;
    int safe_open = 1;
    for (size_t e = 0; e < W; e++) {
        size_t dx = e / (size_t)cn, c = e % (size_t)cn;
        const int32_t *idx = p->h.idx + dx * (size_t)ks;
        for (int k = 0; k < ks; k++) {
            int32_t off = idx[k] * cn + (int32_t)c;
            t->e_off[(size_t)k * W + e] = off;
            if (safe_open && (size_t)off * es + 8 > row_bytes) {
                t->safe_end = (int32_t)e;
                safe_open = 0;
            }
            size_t src_t = dx * (size_t)ks + (size_t)k, dst_t = (size_t)k * W + e;
            if (p->hk == PFI_H_U8_I32) {
                if (k % 2 == 0) {
                    const int16_t *ic = p->h.icoef + src_t;
                    ((int32_t *)t->e_coef)[(size_t)(k / 2) * W + e] =
                        (int32_t)((uint32_t)(uint16_t)ic[0] | ((uint32_t)(uint16_t)ic[1] << 16));
                }
            } else if (p->hk == PFI_H_AA_U8) {
                ((int32_t *)t->e_coef)[dst_t] = p->h.acoef[src_t];
            } else {
                ((float *)t->e_coef)[dst_t] = p->h.fcoef[src_t];
            }
        }
    }
    if (p->hk == PFI_H_AA_U8 && (cn == 3 || cn == 4)) return build_pair_tabs(p, t);
    if (p->hk == PFI_H_U8_I32 && ks == 2 && (cn == 3 || cn == 4)) return build_linear_pixel_tabs(p, t);
    return PF_OK;
}

static int type_index(pf_dtype dt) { return dt == PF_U8 ? PFI_T_U8 : dt == PF_U16 ? PFI_T_U16 : PFI_T_F32; }

typedef struct job {
    const pfi_resize_plan *p;
    const pfi_resize_kernels *K;
    const pf_image *src, *dst;
    htabs ht;
    int planes;          /* 1 for HWC, channels for CHW */
    int bands;           /* row bands per plane */
    int rows_per_band;
    atomic_int failed;   /* set when a band could not allocate its buffers */
} job;

/* Runs one kernel over [0, n): dispatched body, reference tail. */
static void run_h(pfi_h_fn simd, pfi_h_fn ref, const pfi_hrow *r, int n) {
    int x = simd == ref ? 0 : simd(r, 0, r->safe_end < n ? r->safe_end : n);
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
static void prefetch_new_rows(const job *j, int plane, const int32_t *next_sy, int kv, const int32_t *tag,
                              size_t row_bytes) {
    for (int k = 0; k < kv; k++) {
        if (tag[next_sy[k] % kv] == next_sy[k] || (k > 0 && next_sy[k] == next_sy[k - 1])) continue;
        const char *row = pfi_row_ptr(j->src, plane, next_sy[k]);
        for (size_t b = 0; b < row_bytes; b += 64) __builtin_prefetch(row + b, 0, 3);
    }
}

static void sep_band(job *j, int plane, int y0, int y1) {
    const pfi_resize_plan *p = j->p;
    const pfi_resize_kernels *K = j->K;
    const pfi_resize_kernels *R = &pfi_resize_kernels_ref;
    int kv = p->v.ksize;
    int W = p->dw * p->cn;
    size_t rb = (pfi_resize_buf_row_bytes(p) + 63) & ~(size_t)63;
    /* [kv buffer rows][kv row pointers][kv tags]: rb is a multiple of 64,
     * so the pointers are aligned, and the tags follow them. */
    char *cache = malloc(rb * (size_t)kv + sizeof(void *) * (size_t)kv + sizeof(int32_t) * (size_t)kv);
    if (cache == NULL) { atomic_store(&j->failed, 1); return; }
    const void **rows = (const void **)(void *)(cache + rb * (size_t)kv);
    int32_t *tag = (int32_t *)(void *)(rows + kv);
    for (int k = 0; k < kv; k++) tag[k] = -1;

    pfi_h_fn hs, hr;
    pfi_v_fn vs, vr;
    int ti = type_index(p->dtype);
    switch (p->hk) {
    case PFI_H_U8_I32: hs = K->h_u8_i32; hr = R->h_u8_i32; break;
    case PFI_H_AA_U8: hs = K->h_aa_u8; hr = R->h_aa_u8; break;
    default: hs = K->h_f32[ti]; hr = R->h_f32[ti]; break;
    }
    switch (p->vk) {
    case PFI_V_U8_LINEAR: vs = K->v_u8_linear; vr = R->v_u8_linear; break;
    case PFI_V_U8_FIX22: vs = K->v_u8_fix22; vr = R->v_u8_fix22; break;
    case PFI_V_U8_CUBIC: vs = K->v_u8_cubic; vr = R->v_u8_cubic; break;
    case PFI_V_AA_U8: vs = K->v_aa_u8; vr = R->v_aa_u8; break;
    default: vs = K->v_f32[ti]; vr = R->v_f32[ti]; break;
    }

    pfi_hrow hrow = {.e_off = j->ht.e_off, .e_coef = j->ht.e_coef, .ksize = p->h.ksize,
                     .width = W, .cn = p->cn, .safe_end = j->ht.safe_end};
    if (j->ht.pair_mem != NULL) {
        hrow.pair_off = j->ht.pair_mem;
        hrow.pair_n = j->ht.pair_mem + p->dw;
        hrow.pair_coef = j->ht.pair_mem + 2 * (size_t)p->dw;
        hrow.pair_max = j->ht.pair_max;
        hrow.pair_safe_end = j->ht.pair_safe_end;
    }
    size_t src_row_bytes = (size_t)p->sw * (size_t)p->cn * pf_dtype_size(p->dtype);
    for (int y = y0; y < y1; y++) {
        const int32_t *sy = p->v.idx + (size_t)y * (size_t)kv;
        if (y + 1 < y1) prefetch_new_rows(j, plane, sy + kv, kv, tag, src_row_bytes);
        for (int k = 0; k < kv; k++) {
            int slot = sy[k] % kv;
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
                         .acoef = p->v.acoef + t, .fcoef = p->v.fcoef + t, .ksize = kv,
                         .vsplit = p->vsplit};
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
    case PFI_RZ_COPY:
        for (int y = y0; y < y1; y++)
            memcpy(pfi_row_ptr(j->dst, plane, y), pfi_row_ptr(j->src, plane, y), pix * (size_t)p->dw);
        break;
    case PFI_RZ_NN:
        for (int y = y0; y < y1; y++)
            pfi_rz_nn_row(p, pfi_row_ptr(j->src, plane, p->nn_y[y]), pfi_row_ptr(j->dst, plane, y), pix);
        break;
    case PFI_RZ_AREA_FAST: {
        const void *rows[64];
        const void **rp = p->afy <= 64 ? rows : malloc(sizeof(void *) * (size_t)p->afy);
        if (rp == NULL) { atomic_store(&j->failed, 1); return; }
        for (int y = y0; y < y1; y++) {
            int sy0 = y * p->afy, avail = 0;
            for (int k = 0; k < p->afy && sy0 + k < p->sh; k++, avail++)
                rp[k] = pfi_row_ptr(j->src, plane, sy0 + k);
            pfi_rz_area_fast_row(p, rp, avail, pfi_row_ptr(j->dst, plane, y));
        }
        if (rp != rows) free(rp);
        break;
    }
    case PFI_RZ_SEP:
        sep_band(j, plane, y0, y1);
        break;
    }
}

pf_status pfi_resize_execute(pf_stream *s, const pfi_resize_plan *p, const pfi_resize_kernels *K,
                             const pf_image *src, const pf_image *dst) {
    job j = {.p = p, .K = K, .src = src, .dst = dst};
    atomic_init(&j.failed, 0);
    j.planes = (src->layout == PF_CHW && src->channels > 1) ? src->channels : 1;
    if (p->kind == PFI_RZ_SEP) {
        pf_status st = build_htabs(p, &j.ht);
        if (st != PF_OK) {
            free(j.ht.e_off);
            free(j.ht.e_coef);
            return st;
        }
    }
    int threads = pf_stream_threads(s);
    /* Enough bands to balance threads, but tall enough that each band's
     * row-cache warm-up (ksize rows) stays a small overhead. */
    int min_rows = p->kind == PFI_RZ_SEP ? 8 : 16;
    int want = threads > 1 ? threads * 4 : 1;
    int per = (p->dh + want - 1) / want;
    if (per < min_rows) per = min_rows;
    j.rows_per_band = per;
    j.bands = (p->dh + per - 1) / per;
    pfi_stream_parallel(s, j.planes * j.bands, band_task, &j);
    free(j.ht.e_off);
    free(j.ht.e_coef);
    free(j.ht.pair_mem);
    if (atomic_load(&j.failed)) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_resize: out of memory for row buffers");
    return PF_OK;
}
