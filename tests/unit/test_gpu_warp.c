/* GPU warp kernel body and job builder on the CPU (ctest gpu_emul_warp):
 * jobs built into an emulated arena (device address == host address),
 * the whole launch grid run with pfk_warp_at, and the result compared
 * byte for byte, canaries included, with the public CPU pf_warp_affine /
 * pf_warp_perspective on the same views. Random cases (fixed seed) cover
 * every dtype, 1..4 channels, HWC and CHW, NEAREST/LINEAR/CUBIC, every
 * border (TRANSPARENT and CONSTANT values out of the dtype's range),
 * INVERSE_MAP or not, nmatrices 1 or count, varshape batches, padded,
 * negative and misaligned strides, and matrices that push coordinates
 * past int16. Also checks pfk_warp_u8_value (the fused preprocess's
 * entry) against the same CPU output. Re-run one case:
 *   test_gpu_warp <case>   */
#include <math.h>
#include <stdlib.h>

#include "cuda/warp_jobs.h"
#include "pixflow/pixflow.h"
#include "test_util.h"

#define MAXN 3

static double frand(uint64_t *s, double lo, double hi) {
    return lo + (hi - lo) * (double)(pft_rand(s) >> 11) * 0x1.0p-53;
}

/* A view over a fresh buffer: padded rows, optionally a negative row
 * stride and (u16/f32) an odd byte offset. buf/size describe the whole
 * allocation so that bytes outside the view are compared too. */
typedef struct view {
    pf_image im;
    uint8_t *buf;
    size_t size;
} view;

static view make_view(uint64_t *rng, int w, int h, int cn, pf_dtype dt, pf_layout lay, int negative,
                      int misalign) {
    view v;
    size_t es = pf_dtype_size(dt);
    int planar = lay == PF_CHW && cn > 1;
    size_t row = (size_t)w * es * (size_t)(planar ? 1 : cn);
    size_t stride = row + (size_t)pft_range(rng, 0, 2) * es + (misalign ? 1 : 0);
    size_t plane = stride * (size_t)h + (size_t)pft_range(rng, 0, 1) * 8;
    size_t off = misalign ? 1 : 0;
    v.size = plane * (size_t)(planar ? cn : 1) + off + 16;
    v.buf = malloc(v.size);
    for (size_t i = 0; i < v.size; i++) v.buf[i] = (uint8_t)pft_rand(rng);
    uint8_t *base = v.buf + off + (negative ? stride * (size_t)(h - 1) : 0);
    ptrdiff_t rs = negative ? -(ptrdiff_t)stride : (ptrdiff_t)stride;
    v.im = planar ? pf_image_chw(base, w, h, cn, dt, rs, (ptrdiff_t)plane) : pf_image_hwc(base, w, h, cn, dt, rs);
    if (!planar) v.im.layout = lay;
    return v;
}

/* Well-defined pixel values: floats stay finite (no NaN payload games). */
static void fill_pixels(uint64_t *rng, view *v) {
    if (v->im.dtype != PF_F32) return; /* u8/u16: random bytes are valid pixels */
    for (size_t i = 0; i + 4 <= v->size; i += 4) {
        float f = (float)frand(rng, -300, 300);
        memcpy(v->buf + i, &f, 4);
    }
}

static void random_matrix(uint64_t *rng, int persp, int sw, int sh, int dw, int dh, double *m) {
    double a = frand(rng, -3.2, 3.2), sc = frand(rng, 0.3, 2.5);
    double sx = (double)sw / dw, sy = (double)sh / dh;
    m[0] = cos(a) * sc * sx, m[1] = sin(a) * sc * sx, m[2] = frand(rng, -0.5, 1.2) * sw;
    m[3] = -sin(a) * sc * sy, m[4] = cos(a) * sc * sy, m[5] = frand(rng, -0.5, 1.2) * sh;
    int kind = pft_range(rng, 0, 9);
    if (kind == 0) m[0] = 1, m[1] = 0, m[3] = 0, m[4] = 1, m[2] = frand(rng, -2, 2), m[5] = frand(rng, -2, 2);
    if (kind == 1) m[0] *= 3000, m[4] *= 2500; /* coordinates beyond int16: saturation */
    if (persp) {
        m[6] = frand(rng, -4e-3, 4e-3), m[7] = frand(rng, -4e-3, 4e-3), m[8] = frand(rng, 0.8, 1.2);
        if (kind == 2) m[6] = 0.05; /* denominator through zero inside the image */
    }
}

static int run_case(int cs, int *u8_values_checked) {
    uint64_t rng = 0x9E3779B97F4A7C15ull ^ ((uint64_t)cs * 0x100000001B3ull);
    for (int k = 0; k < 4; k++) pft_rand(&rng);
    int persp = pft_range(&rng, 0, 1);
    pf_dtype dt = (pf_dtype[]){PF_U8, PF_U16, PF_F32}[pft_range(&rng, 0, 2)];
    if (pft_range(&rng, 0, 2) == 0) dt = PF_U8; /* the fused preprocess's case gets extra weight */
    int cn = pft_range(&rng, 1, 4);
    pf_layout lay = pft_range(&rng, 0, 2) == 0 ? PF_CHW : PF_HWC;
    int count = pft_range(&rng, 1, MAXN), nmat = pft_range(&rng, 0, 1) ? 1 : count;
    pf_warp_opts o = pf_warp_opts_defaults();
    o.interp = (pf_interp)pft_range(&rng, 0, 2);
    o.border = (pf_border)pft_range(&rng, 0, 5);
    if (pft_range(&rng, 0, 2) == 0) o.border = PF_BORDER_CONSTANT;
    for (int c = 0; c < 4; c++) o.border_value[c] = frand(&rng, -20, dt == PF_U8 ? 300 : 70000);
    o.flags = pft_range(&rng, 0, 1) ? PF_WARP_INVERSE_MAP : 0;
    view src[MAXN], ref[MAXN], out[MAXN];
    pf_image s[MAXN], dref[MAXN], dout[MAXN];
    double mats[MAXN * 9];
    for (int i = 0; i < count; i++) {
        int big = pft_range(&rng, 0, 5) == 0;
        int sw = pft_range(&rng, 1, big ? 300 : 40), sh = pft_range(&rng, 1, big ? 40 : 30);
        int dw = pft_range(&rng, 1, big ? 260 : 40), dh = pft_range(&rng, 1, 24);
        int neg = pft_range(&rng, 0, 3) == 0, mis = dt != PF_U8 && pft_range(&rng, 0, 4) == 0;
        src[i] = make_view(&rng, sw, sh, cn, dt, lay, neg, mis);
        fill_pixels(&rng, &src[i]);
        ref[i] = make_view(&rng, dw, dh, cn, dt, lay, pft_range(&rng, 0, 3) == 0, mis);
        out[i] = ref[i];
        out[i].buf = malloc(ref[i].size);
        memcpy(out[i].buf, ref[i].buf, ref[i].size); /* same canaries */
        out[i].im.data = out[i].buf + ((uint8_t *)ref[i].im.data - ref[i].buf);
        s[i] = src[i].im, dref[i] = ref[i].im, dout[i] = out[i].im;
    }
    for (int i = 0; i < nmat; i++) {
        double *m = mats + i * (persp ? 9 : 6);
        random_matrix(&rng, persp, s[i].width, s[i].height, dref[i].width, dref[i].height, m);
    }
    pf_status want = persp ? pf_warp_perspective(NULL, count, s, dref, mats, nmat, &o)
                           : pf_warp_affine(NULL, count, s, dref, mats, nmat, &o);
    int bad = 0;
    if (want == PF_OK) {
        size_t scratch;
        pfi_arena a;
        size_t bytes = pfi_gpu_warp_bytes(count, &scratch);
        CHECK_STATUS(pfi_arena_emulated(bytes, scratch, &a), PF_OK);
        const pfk_warp_batch *batch = NULL;
        pfi_grid g;
        pf_status st = pfi_gpu_warp_build(&a, persp ? "pf_warp_perspective" : "pf_warp_affine", persp, count, s,
                                          dout, mats, nmat, &o, &batch, &g);
        CHECK_STATUS(st, PF_OK);
        if (st == PF_OK) {
            CHECK(g.n == count && a.used <= bytes);
            for (int32_t n = 0; n < g.n; n++)
                for (int32_t y = 0; y < g.h; y++)
                    for (int32_t x = 0; x < g.w; x++) pfk_warp_at(batch, n, x, y);
            for (int i = 0; i < count; i++) {
                if (memcmp(ref[i].buf, out[i].buf, ref[i].size) != 0) {
                    size_t k = 0;
                    while (ref[i].buf[k] == out[i].buf[k]) k++;
                    fprintf(stderr,
                            "case %d sample %d: GPU body differs from the CPU op at byte %zu (cpu %d gpu %d): "
                            "%s %s %s x%d %s interp %d border %d flags %d src %dx%d dst %dx%d\n",
                            cs, i, k, ref[i].buf[k], out[i].buf[k], persp ? "perspective" : "affine",
                            pf_dtype_name(dt), lay == PF_CHW ? "CHW" : "HWC", cn, nmat == 1 ? "1 matrix" : "per-sample",
                            (int)o.interp, (int)o.border, o.flags, (int)s[i].width, (int)s[i].height,
                            (int)dref[i].width, (int)dref[i].height);
                    bad = 1;
                }
            }
            /* the fused entry: u8 HWC with a CONSTANT border */
            if (dt == PF_U8 && (lay == PF_HWC || cn == 1) && o.border == PF_BORDER_CONSTANT) {
                for (int i = 0; i < count; i++) {
                    const pfk_warp_job *j = &batch->jobs[i];
                    for (int32_t y = 0; y < j->dst_h; y++)
                        for (int32_t x = 0; x < j->dst_w; x++)
                            for (int32_t c = 0; c < cn; c++) {
                                uint8_t v = pfk_warp_u8_value(j, x, y, c);
                                uint8_t r = ((const uint8_t *)dref[i].data)[y * dref[i].row_stride + x * cn + c];
                                if (v != r && !bad) {
                                    fprintf(stderr, "case %d sample %d: pfk_warp_u8_value(%d, %d, %d) = %d, CPU %d\n",
                                            cs, i, x, y, c, v, r);
                                    bad = 1;
                                }
                            }
                    (*u8_values_checked)++;
                }
            }
        }
        pfi_arena_emulated_free(&a);
    } else {
        /* a singular random matrix: the GPU builder must refuse it the same way */
        size_t scratch;
        pfi_arena a;
        size_t bytes = pfi_gpu_warp_bytes(count, &scratch);
        CHECK_STATUS(pfi_arena_emulated(bytes, scratch, &a), PF_OK);
        const pfk_warp_batch *batch;
        pfi_grid g;
        CHECK_STATUS(pfi_gpu_warp_build(&a, "pf_warp_affine", persp, count, s, dout, mats, nmat, &o, &batch, &g), want);
        pfi_arena_emulated_free(&a);
    }
    CHECK(!bad);
    for (int i = 0; i < count; i++) free(src[i].buf), free(ref[i].buf), free(out[i].buf);
    return want == PF_OK;
}

/* Perspective positions depend on OpenCV's block origin: with x / 10 +
 * 1/320 per pixel the exact source column lands on a 1/64 tie, and
 * evaluating from the block's left column (as OpenCV does) or from column
 * 0 rounds some of those ties differently (columns 82, 87, ... of a
 * 64-wide block). The GPU body must use the block origins. */
static void check_block_origin(void) {
    enum { SW = 200, SH = 20, DW = 256, DH = 16 };
    static uint8_t sp[SW * SH], want[DW * DH], got[DW * DH];
    for (int i = 0; i < SW * SH; i++) sp[i] = (uint8_t)(i * 37 + i / SW);
    pf_image src = pf_image_hwc(sp, SW, SH, 1, PF_U8, 0);
    pf_image dw = pf_image_hwc(want, DW, DH, 1, PF_U8, 0), dg = pf_image_hwc(got, DW, DH, 1, PF_U8, 0);
    double m[9] = {0.1, 0, 0.003125, 0, 1, 0, 0, 0, 1};
    pf_warp_opts o = pf_warp_opts_defaults();
    o.flags = PF_WARP_INVERSE_MAP;
    CHECK_STATUS(pf_warp_perspective(NULL, 1, &src, &dw, m, 1, &o), PF_OK);
    size_t scratch;
    pfi_arena a;
    size_t bytes = pfi_gpu_warp_bytes(1, &scratch);
    CHECK_STATUS(pfi_arena_emulated(bytes, scratch, &a), PF_OK);
    const pfk_warp_batch *b;
    pfi_grid g;
    CHECK_STATUS(pfi_gpu_warp_build(&a, "pf_warp_perspective", 1, 1, &src, &dg, m, 1, &o, &b, &g), PF_OK);
    for (int32_t y = 0; y < g.h; y++)
        for (int32_t x = 0; x < g.w; x++) pfk_warp_at(b, 0, x, y);
    CHECK(memcmp(want, got, sizeof want) == 0);
    pfi_arena_emulated_free(&a);
}

/* The job filler alone, as the fused preprocess calls it: one u8 HWC
 * sample, an inverse matrix, a CONSTANT border. */
static void check_job_fill(void) {
    uint8_t px[5 * 4 * 3];
    for (int i = 0; i < (int)sizeof px; i++) px[i] = (uint8_t)(i * 7);
    pf_image src = pf_image_hwc(px, 5, 4, 3, PF_U8, 0);
    uint8_t want[3 * 2 * 3];
    pf_image dst = pf_image_hwc(want, 3, 2, 3, PF_U8, 0);
    double m[6] = {1.25, 0.1, 0.3, -0.2, 1.5, 0.7};
    pf_warp_opts o = pf_warp_opts_defaults();
    o.flags = PF_WARP_INVERSE_MAP;
    o.border_value[0] = 9, o.border_value[1] = 300, o.border_value[2] = -4;
    CHECK_STATUS(pf_warp_affine(NULL, 1, &src, &dst, m, 1, &o), PF_OK);
    pfk_warp_job j;
    CHECK_STATUS(pfi_gpu_warp_job_fill(NULL, &src, 3, 2, m, 0, &o, &j), PF_OK);
    CHECK(j.cval.u8[0] == 9 && j.cval.u8[1] == 255 && j.cval.u8[2] == 0 && j.dst == NULL);
    int same = 1;
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++)
            for (int c = 0; c < 3; c++) same &= pfk_warp_u8_value(&j, x, y, c) == want[(y * 3 + x) * 3 + c];
    CHECK(same);
}

int main(int argc, char **argv) {
    int first = 0, last = 1500, ok = 0, u8v = 0;
    if (argc > 1) first = last = atoi(argv[1]), last++;
    check_job_fill();
    check_block_origin();
    for (int cs = first; cs < last; cs++) ok += run_case(cs, &u8v);
    printf("test_gpu_warp: %d cases (%d warped, %d fused-entry samples), bit-exact comparison\n", last - first, ok,
           u8v);
    return pft_summary("test_gpu_warp");
}
