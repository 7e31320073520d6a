/* Helpers of the GPU emulation tests (tests/unit/test_gpu_*.c): images in
 * their own buffers with padded (optionally negative) strides and random
 * bytes everywhere, so that a CPU run and an emulated GPU run on two
 * copies can be compared over the WHOLE buffer (padding bytes are
 * canaries: a write outside the view, or a pixel the grid missed, shows). */
#ifndef PF_TESTS_GPU_EMUL_H
#define PF_TESTS_GPU_EMUL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_arena.h"
#include "pixflow/core.h"
#include "test_util.h"

typedef struct pft_img {
    uint8_t *buf;
    size_t bytes;
    pf_image im;
} pft_img;

/* w x h x cn of dtype dt in layout lay, pad_px pixels of padding per row,
 * rows bottom-up when neg; random content. */
static inline void pft_img_make(pft_img *t, int32_t w, int32_t h, int32_t cn, pf_dtype dt, pf_layout lay,
                                int32_t pad_px, int neg, uint64_t *rng) {
    size_t es = pf_dtype_size(dt);
    int planar = lay == PF_CHW && cn > 1;
    ptrdiff_t rs = (ptrdiff_t)((size_t)(w + pad_px) * (planar ? 1 : (size_t)cn) * es);
    ptrdiff_t ps = planar ? rs * h + (ptrdiff_t)(es * 3) : 0;
    t->bytes = planar ? (size_t)ps * (size_t)cn : (size_t)rs * (size_t)h;
    t->buf = malloc(t->bytes + 8);
    for (size_t i = 0; i < t->bytes + 8; i++) t->buf[i] = (uint8_t)pft_rand(rng);
    memset(&t->im, 0, sizeof t->im);
    t->im.data = t->buf + (neg ? (size_t)rs * (size_t)(h - 1) : 0);
    t->im.width = w;
    t->im.height = h;
    t->im.channels = cn;
    t->im.dtype = dt;
    t->im.layout = planar ? PF_CHW : PF_HWC;
    t->im.row_stride = neg ? -rs : rs;
    t->im.plane_stride = ps;
    t->im.mem = PF_MEM_HOST;
    t->im.device = 0;
}

/* A byte-identical copy in a new buffer (same view geometry). */
static inline void pft_img_clone(pft_img *out, const pft_img *in) {
    *out = *in;
    out->buf = malloc(in->bytes + 8);
    memcpy(out->buf, in->buf, in->bytes + 8);
    out->im.data = out->buf + ((uint8_t *)in->im.data - in->buf);
}

static inline void pft_img_free(pft_img *t) {
    free(t->buf);
    t->buf = NULL;
}

/* Index of the first differing byte, or -1. */
static inline long pft_img_diff(const pft_img *a, const pft_img *b) {
    for (size_t i = 0; i < a->bytes + 8; i++)
        if (a->buf[i] != b->buf[i]) return (long)i;
    return -1;
}

/* Floats drawn to hit the interesting values: integers in the u8/u16
 * ranges, fractions, ties (.5), negatives, large values. */
static inline float pft_rand_f32(uint64_t *rng) {
    switch (pft_rand(rng) % 6) {
    case 0: return (float)(pft_rand(rng) % 256);
    case 1: return (float)(pft_rand(rng) % 65536) * 0.5f;
    case 2: return (float)((double)(pft_rand(rng) % 2000001) / 1e6);
    case 3: return (float)((double)((int64_t)(pft_rand(rng) % 2001) - 1000) * 0.25);
    case 4: return (float)((double)(pft_rand(rng) % 1000001) / 1000.0 * ((pft_rand(rng) & 1) ? 1 : -1));
    default: return (float)((double)(pft_rand(rng) % 1000) * 1e6);
    }
}

/* Fills a view's pixels (not its padding) of dtype f32 with pft_rand_f32. */
static inline void pft_img_fill_f32(pft_img *t, uint64_t *rng) {
    const pf_image *im = &t->im;
    int planes = im->layout == PF_CHW ? im->channels : 1;
    int32_t n = im->layout == PF_CHW ? im->width : im->width * im->channels;
    for (int p = 0; p < planes; p++)
        for (int32_t y = 0; y < im->height; y++) {
            float *r = (float *)(void *)((char *)im->data + (ptrdiff_t)p * im->plane_stride + (ptrdiff_t)y * im->row_stride);
            for (int32_t x = 0; x < n; x++) r[x] = pft_rand_f32(rng);
        }
}

/* Runs the kernel body AT(b, n, x, y) at every thread of launch grid g,
 * as the CUDA launch does (threads outside a sample's output must return
 * at once; a grid too small leaves pixels unwritten, which the whole-buffer
 * comparison shows). */
#define PFT_EMULATE_GRID(AT, b, g)                                                                   \
    do {                                                                                             \
        for (int32_t n_ = 0; n_ < (g).n; n_++)                                                       \
            for (int32_t y_ = 0; y_ < (g).h; y_++)                                                   \
                for (int32_t x_ = 0; x_ < (g).w; x_++) AT((b), n_, x_, y_);                          \
    } while (0)

/* main() of a test made of seeded random cases: `<test> <seed>` re-runs
 * one case; without arguments, `cases` cases from seed first_seed. */
static inline int pft_seeded_main(int argc, char **argv, const char *name, int (*run_case)(uint64_t seed),
                                  uint64_t first_seed, int cases) {
    if (argc > 1) {
        run_case(strtoull(argv[1], NULL, 10));
        return pft_summary(name);
    }
    const char *exe = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    int fails = 0;
    for (int c = 0; c < cases; c++) fails += !run_case(first_seed + (uint64_t)c);
    printf("%s: %d cases, %d differ (re-run one: %s <seed>)\n", name, cases, fails, exe);
    return pft_summary(name);
}

#endif
