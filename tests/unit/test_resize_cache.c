/* The per-thread resize plan cache (src/cpu/resize_cache.c): cached
 * preparations give the same bytes as freshly built ones, the cache keeps
 * the most recently used PFI_RESIZE_CACHE_ENTRIES keys, distinguishes
 * every key field, hands out oversized preparations as transient, and
 * stays correct when several threads (each with its own cache) and a
 * 2-thread stream resize different shapes at once. */
#include <pthread.h>
#include <stdlib.h>

#include "cpu/resize_exec.h"
#include "cpu/resize_prep.h"
#include "pixflow/pixflow.h"
#include "test_util.h"

#define NSHAPES 12
typedef struct shape { int dw, dh, cn; pf_interp ip; } shape;
static const shape k_shapes[NSHAPES] = {
    {224, 224, 3, PF_INTERP_LINEAR},  {97, 61, 3, PF_INTERP_LINEAR},   {400, 300, 3, PF_INTERP_LINEAR},
    {224, 224, 4, PF_INTERP_LINEAR},  {224, 224, 3, PF_INTERP_NEAREST}, {80, 60, 3, PF_INTERP_AREA},
    {160, 120, 3, PF_INTERP_AREA},    {224, 224, 3, PF_INTERP_CUBIC},   {33, 250, 1, PF_INTERP_LINEAR},
    {224, 224, 1, PF_INTERP_LINEAR},  {500, 100, 4, PF_INTERP_NEAREST}, {111, 77, 3, PF_INTERP_LANCZOS4}};

#define SW 320
#define SH 240
static uint8_t g_src[SW * SH * 4];
static uint8_t *g_ref[NSHAPES];

static int resize_into(pf_stream *s, int i, uint8_t *out) {
    const shape *k = &k_shapes[i];
    pf_image src = pf_image_hwc(g_src, SW, SH, k->cn, PF_U8, 0);
    pf_image dst = pf_image_hwc(out, k->dw, k->dh, k->cn, PF_U8, 0);
    pf_resize_opts o = pf_resize_opts_defaults();
    o.interp = k->ip;
    return pf_resize(s, 1, &src, &dst, &o) == PF_OK ? 0 : -1;
}
static size_t out_bytes(int i) { return (size_t)k_shapes[i].dw * (size_t)k_shapes[i].dh * (size_t)k_shapes[i].cn; }

typedef struct worker { int seed, bad; } worker;
static void *work(void *arg) {
    worker *w = arg;
    uint64_t rng = (uint64_t)w->seed * 7919u + 1;
    uint8_t *out = malloc(500 * 300 * 4);
    for (int it = 0; it < 300 && out; it++) {
        int i = pft_range(&rng, 0, NSHAPES - 1);
        if (resize_into(NULL, i, out) != 0 || memcmp(out, g_ref[i], out_bytes(i)) != 0) w->bad++;
    }
    if (out == NULL) w->bad++;
    free(out);
    return NULL; /* the thread's cache is freed at exit (leak-checked under ASan) */
}

int main(void) {
    uint64_t rng = 0x5eedull;
    for (size_t i = 0; i < sizeof g_src; i++) g_src[i] = (uint8_t)pft_rand(&rng);

    /* references, each from an empty cache */
    for (int i = 0; i < NSHAPES; i++) {
        g_ref[i] = malloc(out_bytes(i));
        pfi_resize_cache_clear();
        CHECK(g_ref[i] != NULL && resize_into(NULL, i, g_ref[i]) == 0);
    }
    pfi_resize_cache_clear();

    /* cycling through more shapes than entries: evictions, rebuilds, hits */
    uint8_t *out = malloc(500 * 300 * 4);
    int same = 1;
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < NSHAPES; i++) {
            if (resize_into(NULL, i, out) != 0 || memcmp(out, g_ref[i], out_bytes(i)) != 0) same = 0;
            if (resize_into(NULL, i, out) != 0 || memcmp(out, g_ref[i], out_bytes(i)) != 0) same = 0; /* hit */
        }
    CHECK(same);

    /* hits, LRU order and key fields */
    const pfi_resize_kernels *K = pfi_resize_kernels_for(PF_ISA_SCALAR);
    pfi_resize_key a = {.sw = 100, .sh = 100, .dw = 50, .dh = 40, .cn = 3, .dtype = PF_U8,
                        .interp = PF_INTERP_LINEAR, .antialias = false, .K = K};
    pfi_resize_prep *p1, *p2;
    int t1, t2;
    pfi_resize_cache_clear();
    CHECK_STATUS(pfi_resize_prep_get(&a, &p1, &t1), PF_OK);
    CHECK_STATUS(pfi_resize_prep_get(&a, &p2, &t2), PF_OK);
    CHECK(p1 == p2 && t1 == 0 && t2 == 0);
    for (int f = 0; f < 7; f++) { /* every key field makes a different entry */
        pfi_resize_key b = a;
        switch (f) {
        case 0: b.sw++; break;
        case 1: b.sh++; break;
        case 2: b.dw++; break;
        case 3: b.dh++; break;
        case 4: b.cn = 4; break;
        case 5: b.interp = PF_INTERP_CUBIC; break;
        default: b.K = pfi_resize_kernels_for(PF_ISA_AVX2); break;
        }
        CHECK_STATUS(pfi_resize_prep_get(&b, &p2, &t2), PF_OK);
        CHECK(p2 != p1 && t2 == 0);
    }
    /* 8 entries now; touch `a`, then one more key evicts the oldest other */
    CHECK_STATUS(pfi_resize_prep_get(&a, &p2, &t2), PF_OK);
    CHECK(p2 == p1);
    pfi_resize_key c = a;
    c.antialias = true;
    CHECK_STATUS(pfi_resize_prep_get(&c, &p2, &t2), PF_OK);
    CHECK(p2 != p1 && t2 == 0);
    CHECK_STATUS(pfi_resize_prep_get(&a, &p2, &t2), PF_OK);
    CHECK(p2 == p1); /* still cached */
    pfi_resize_key d = a;
    d.dtype = PF_F32;
    CHECK_STATUS(pfi_resize_prep_get(&d, &p2, &t2), PF_OK);
    CHECK(p2->key.dtype == PF_F32 && p2->p.dtype == PF_F32);

    /* an oversized preparation is built for the one call only */
    pfi_resize_key big = a;
    big.sw = 16; big.sh = 2; big.dw = 16384; big.dh = 2; big.cn = 4; big.interp = PF_INTERP_LANCZOS4;
    CHECK_STATUS(pfi_resize_prep_get(&big, &p2, &t2), PF_OK);
    CHECK(t2 == 1);
    pfi_resize_prep_release(p2, t2);

    /* concurrent threads, each with its own cache, plus a 2-thread stream */
    pthread_t th[4];
    worker ws[4];
    for (int i = 0; i < 4; i++) {
        ws[i] = (worker){i + 1, 0};
        CHECK(pthread_create(&th[i], NULL, work, &ws[i]) == 0);
    }
    pf_stream *s2 = NULL;
    CHECK_STATUS(pf_stream_create_cpu(2, &s2), PF_OK);
    int sbad = 0;
    for (int it = 0; it < 100 && s2; it++) {
        int i = it % NSHAPES;
        if (resize_into(s2, i, out) != 0 || memcmp(out, g_ref[i], out_bytes(i)) != 0) sbad++;
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        CHECK(ws[i].bad == 0);
    }
    CHECK(sbad == 0);
    pf_stream_destroy(s2);
    pfi_resize_cache_clear();
    free(out);
    for (int i = 0; i < NSHAPES; i++) free(g_ref[i]);
    return pft_summary("test_resize_cache");
}
