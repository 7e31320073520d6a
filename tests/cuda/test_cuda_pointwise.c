/* The pointwise ops on a CUDA device (pf_cvt_color_from_yuv, pf_cvt_color,
 * pf_flip, pf_convert, pf_reformat, pf_normalize): random images are
 * uploaded whole (padding canaries included), the public op runs on
 * device views (on a created stream and on NULL, the implicit stream),
 * and the downloaded buffers must equal the CPU op's byte for byte.
 * Skips (exit 77) when there is no CUDA device. */
#include <stdio.h>
#include <stdlib.h>

#include "../unit/gpu_emul.h"
#include "cuda_skip.h"
#include "pixflow/ops.h"
#include "pixflow/runtime.h"

enum { MAXB = 3 };

static pf_device *g_dev;
static pf_stream *g_stream;
static int g_reported;

/* A host image and its device copy (same byte layout). */
typedef struct dimg {
    pft_img h;
    void *d;
    pf_image dv;
} dimg;

static void up(dimg *t) {
    CHECK_STATUS(pf_malloc(g_dev, PF_ALLOC_DEVICE, t->h.bytes + 8, &t->d), PF_OK);
    CHECK_STATUS(pf_memcpy_async(g_stream, t->d, t->h.buf, t->h.bytes + 8), PF_OK);
    t->dv = t->h.im;
    t->dv.data = (uint8_t *)t->d + ((uint8_t *)t->h.im.data - t->h.buf);
    t->dv.mem = PF_MEM_CUDA;
    t->dv.device = 0;
}

/* Downloads t (after the op) and compares it with the CPU result. */
static int down_same(dimg *t, const pft_img *cpu, const char *what, uint64_t seed, int i) {
    CHECK_STATUS(pf_memcpy_async(g_stream, t->h.buf, t->d, t->h.bytes + 8), PF_OK);
    CHECK_STATUS(pf_stream_synchronize(g_stream), PF_OK);
    long at = pft_img_diff(cpu, &t->h);
    if (at >= 0 && ++g_reported <= 10)
        fprintf(stderr, "%s case %llu sample %d: GPU differs from CPU at byte %ld\n", what, (unsigned long long)seed,
                i, at);
    return at < 0;
}

static void dfree(dimg *t) {
    pf_free(g_dev, PF_ALLOC_DEVICE, t->d);
    pft_img_free(&t->h);
}

static pf_stream *pick_stream(uint64_t seed) { return seed & 1 ? g_stream : NULL; }

/* ---- pf_cvt_color_from_yuv: every code, every matrix/range ---- */
static void yuv_cases(void) {
    int fails = 0, n = 0;
    for (int code = 90; code <= 106; code++)
        for (int mr = 0; mr < 4; mr++, n++) {
            uint64_t rng = 77 + (uint64_t)n, seed = rng;
            pf_color_opts o = pf_color_opts_defaults();
            o.yuv_matrix = (pf_yuv_matrix)(mr >> 1);
            o.yuv_range = (pf_yuv_range)(mr & 1);
            int cn = code == 106 ? 1 : ((code >= 94 && code <= 97) || code >= 102) ? 4 : 3;
            int32_t w = 2 * pft_range(&rng, 1, 200), h = 2 * pft_range(&rng, 1, 60);
            dimg y, uv, u, v, d;
            pft_img dcpu;
            pft_img_make(&y.h, w, h, 1, PF_U8, PF_HWC, 3, 0, &rng);
            pft_img_make(&uv.h, w / 2, h / 2, 2, PF_U8, PF_HWC, 1, 1, &rng);
            pft_img_make(&u.h, w / 2, h / 2, 1, PF_U8, PF_HWC, 0, 0, &rng);
            pft_img_make(&v.h, w / 2, h / 2, 1, PF_U8, PF_HWC, 5, 1, &rng);
            pft_img_make(&dcpu, w, h, cn, PF_U8, PF_HWC, 2, (int)(seed & 2), &rng);
            pft_img_clone(&d.h, &dcpu);
            up(&y), up(&uv), up(&u), up(&v), up(&d);
            pf_yuv hf = {y.h.im, uv.h.im, u.h.im, v.h.im}, df = {y.dv, uv.dv, u.dv, v.dv};
            CHECK_STATUS(pf_cvt_color_from_yuv(NULL, 1, &hf, &dcpu.im, (pf_color_code)code, &o), PF_OK);
            CHECK_STATUS(pf_cvt_color_from_yuv(pick_stream(seed), 1, &df, &d.dv, (pf_color_code)code, &o), PF_OK);
            fails += !down_same(&d, &dcpu, "yuv", seed, 0);
            dfree(&y), dfree(&uv), dfree(&u), dfree(&v), dfree(&d);
            pft_img_free(&dcpu);
        }
    printf("cuda yuv: %d cases, %d differ\n", n, fails);
    CHECK(fails == 0);
}

/* ---- single-image ops on a batch: src -> dst through `run` ---- */
typedef pf_status (*op_fn)(pf_stream *s, int count, const pf_image *src, pf_image *dst, uint64_t seed);

static uint64_t g_code; /* parameter of the current case, read by the op wrappers */

static pf_status op_color(pf_stream *s, int count, const pf_image *src, pf_image *dst, uint64_t seed) {
    (void)seed;
    return pf_cvt_color(s, count, src, dst, (pf_color_code)g_code, NULL);
}
static pf_status op_flip(pf_stream *s, int count, const pf_image *src, pf_image *dst, uint64_t seed) {
    pf_flip_code codes[MAXB];
    for (int i = 0; i < MAXB; i++) codes[i] = (pf_flip_code)((int)((seed >> (2 * i)) % 4) - 1);
    return pf_flip(s, count, src, dst, codes, count);
}
static pf_status op_convert(pf_stream *s, int count, const pf_image *src, pf_image *dst, uint64_t seed) {
    pf_convert_opts o = pf_convert_opts_defaults();
    if (seed % 3) o.alpha = 1.0 / 255.0 + (double)(seed % 7), o.beta = -3.25;
    o.order[0] = (int8_t)(src[0].channels - 1);
    if (dst[0].channels > 1) o.order[1] = PF_CHANNEL_FILL;
    for (int c = 2; c < 4; c++) o.order[c] = (int8_t)(c < src[0].channels ? c : 0);
    o.fill = 7.5;
    return pf_convert(s, count, src, dst, &o);
}
static pf_status op_normalize(pf_stream *s, int count, const pf_image *src, pf_image *dst, uint64_t seed) {
    pf_normalize_opts o = pf_normalize_opts_defaults();
    o.scale = 1.0f / 255.0f;
    for (int c = 0; c < 4; c++) {
        o.params.mean[c] = 0.485f - 0.03f * (float)c;
        o.params.std[c] = 0.229f + 0.001f * (float)(seed % 5);
        o.order[c] = (int8_t)(src[0].channels - 1 - (c % src[0].channels));
    }
    return pf_normalize(s, count, src, dst, &o);
}
static pf_status op_minmax(pf_stream *s, int count, const pf_image *src, pf_image *dst, uint64_t seed) {
    pf_normalize_opts o = pf_normalize_opts_defaults();
    o.mode = PF_NORM_MINMAX;
    o.lo = seed & 1 ? -1.0 : 0.0;
    o.hi = seed & 2 ? 255.0 : 1.0;
    return pf_normalize(s, count, src, dst, &o);
}

/* count random samples of (sdt, scn, sl) -> (ddt, dcn, dl), op on CPU and GPU. */
static int batch_case(const char *what, op_fn op, uint64_t seed, pf_dtype sdt, int scn, pf_layout sl, pf_dtype ddt,
                      int dcn, pf_layout dl) {
    uint64_t rng = seed;
    int count = pft_range(&rng, 1, MAXB), ok = 1;
    dimg s[MAXB], d[MAXB];
    pft_img dcpu[MAXB];
    pf_image hs[MAXB], hd[MAXB], ds[MAXB], dd[MAXB];
    for (int i = 0; i < count; i++) {
        int32_t w = pft_range(&rng, 1, 300), h = pft_range(&rng, 1, 40);
        pft_img_make(&s[i].h, w, h, scn, sdt, sl, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        if (sdt == PF_F32) pft_img_fill_f32(&s[i].h, &rng);
        pft_img_make(&dcpu[i], w, h, dcn, ddt, dl, pft_range(&rng, 0, 3), pft_range(&rng, 0, 1), &rng);
        pft_img_clone(&d[i].h, &dcpu[i]);
        up(&s[i]), up(&d[i]);
        hs[i] = s[i].h.im, hd[i] = dcpu[i].im, ds[i] = s[i].dv, dd[i] = d[i].dv;
    }
    CHECK_STATUS(op(NULL, count, hs, hd, seed), PF_OK);
    CHECK_STATUS(op(pick_stream(seed), count, ds, dd, seed), PF_OK);
    for (int i = 0; i < count; i++) {
        ok &= down_same(&d[i], &dcpu[i], what, seed, i);
        dfree(&s[i]), dfree(&d[i]);
        pft_img_free(&dcpu[i]);
    }
    return ok;
}

static void color_cases(void) {
    static const int codes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 36, 37, 38, 39, 40, 41, 54, 55, 66, 67, 70, 71};
    static const pf_dtype dts[3] = {PF_U8, PF_U16, PF_F32};
    int n = 0, fails = 0;
    for (size_t k = 0; k < sizeof codes / sizeof codes[0]; k++)
        for (int t = 0; t < 3; t++) {
            int code = codes[k];
            if (code >= 40 && dts[t] == PF_U16) continue;
            int scn = code == 8 || code == 9 ? 1 : (code == 1 || code == 3 || code == 5 || code == 10 || code == 11) ? 4 : 3;
            int dcn = code == 0 || code == 2 || code == 5 || code == 9 ? 4 : (code >= 6 && code <= 7) || code == 10 || code == 11 ? 1 : 3;
            g_code = (uint64_t)code;
            fails += !batch_case("color", op_color, 300 + (uint64_t)n, dts[t], scn, PF_HWC, dts[t], dcn, PF_HWC);
            n++;
        }
    printf("cuda color: %d cases, %d differ\n", n, fails);
    CHECK(fails == 0);
}

static void flip_cases(void) {
    int n = 0, fails = 0;
    for (int dt = 0; dt <= 6; dt++)
        for (int cn = 1; cn <= 4; cn++)
            for (int l = 0; l < 2; l++, n++)
                fails += !batch_case("flip", op_flip, 900 + (uint64_t)n, (pf_dtype)dt, cn, (pf_layout)l, (pf_dtype)dt, cn,
                                     (pf_layout)l);
    printf("cuda flip: %d cases, %d differ\n", n, fails);
    CHECK(fails == 0);
}

static void convert_cases(void) {
    int n = 0, fails = 0;
    for (int sdt = 0; sdt <= 6; sdt++)
        for (int ddt = 0; ddt <= 6; ddt++, n++) {
            uint64_t seed = 2000 + (uint64_t)n;
            int scn = 1 + (int)(seed % 4), dcn = 1 + (int)((seed / 4) % 4);
            fails += !batch_case("convert", op_convert, seed, (pf_dtype)sdt, scn, (pf_layout)(seed & 1), (pf_dtype)ddt,
                                 dcn, (pf_layout)((seed >> 1) & 1));
        }
    static const pf_dtype ins[3] = {PF_U8, PF_U16, PF_F32}, outs[4] = {PF_F32, PF_F16, PF_BF16, PF_U8};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 4; b++)
            for (int l = 0; l < 4; l++, n++)
                fails += !batch_case("normalize", op_normalize, 3000 + (uint64_t)n, ins[a], 3, (pf_layout)(l & 1), outs[b],
                                     3, (pf_layout)(l >> 1));
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 4; b++)
            for (int l = 0; l < 4; l++, n++)
                fails += !batch_case("normalize(MINMAX)", op_minmax, 4000 + (uint64_t)n, ins[a], 1 + (l & 2), (pf_layout)(l & 1),
                                     outs[b], 1 + (l & 2), (pf_layout)(l & 1));
    printf("cuda convert/normalize: %d cases, %d differ\n", n, fails);
    CHECK(fails == 0);
}

int main(void) {
    g_dev = pft_cuda_device_or_skip("cuda_pointwise");
    CHECK_STATUS(pf_stream_create(g_dev, &g_stream), PF_OK);
    if (g_stream == NULL) return pft_summary("cuda_pointwise");
    yuv_cases();
    color_cases();
    flip_cases();
    convert_cases();
    pf_stream_destroy(g_stream);
    pf_device_close(g_dev);
    return pft_summary("cuda_pointwise");
}
