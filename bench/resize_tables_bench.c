/* Table build time and content hash of the u8 resize preparations a
 * random crop needs (plan + row tables, pfi_resize_prep_build), over the
 * crops of bench_preprocess.c's generator -> 224x224: mode 0 torchvision
 * LINEAR antialias RGB, 1 the OpenCV flavour LINEAR, 2 torchvision CUBIC
 * antialias, 3 torchvision LINEAR without antialias, 4 mode 0 on one
 * channel. The kernel table is a stand-in that wants every table (the
 * VBMI kernels' permute steps and blocks). Internal API: built by hand
 * against a checkout's sources, so two checkouts compare (same hashes =
 * the same tables; the timing excludes the hashing):
 *
 *   S=. ; gcc -O3 -ffp-contract=off -std=c11 -D_GNU_SOURCE -I$S/src -I$S/include \
 *     bench/resize_tables_bench.c $S/src/plan/resize_tables.c $S/src/plan/resize_tv_tables.c \
 *     $S/src/plan/resize_aa_tables.c $S/src/cpu/resize_prep.c $S/src/cpu/resize_tv_prep.c \
 *     $S/src/core/status.c $S/src/core/dtype.c -lm -o /tmp/tables_bench
 *   /tmp/tables_bench 2000          # every mode: us per build, hash
 *   /tmp/tables_bench 1500 x        # mode 0 only
 */
#include "cpu/resize_prep.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* FNV-1a over the tables' bytes */
static uint64_t h = 1469598103934665603ull;
static void hb(const void *p, size_t n) {
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
}
static void hash_axis(const pfi_axis *a, int fixed) {
    size_t t = (size_t)a->n * a->ksize;
    hb(&a->n, 4);
    hb(&a->ksize, 4);
    hb(&a->shift, 4);
    hb(a->idx, t * 4);
    hb(a->count, a->n * 4);
    if (fixed) {
        hb(a->acoef, t * 4);
        hb(a->icoef, t * 2);
    } else
        hb(a->fcoef, t * 4);
}
/* What the kernels read: the axes, the permute steps, and the steps' own
 * windows only for blocks without one shared 64/128-byte window (the
 * others' pfi_tvwin are not read, so their content is not part of it). */
static void hash_prep(const pfi_resize_prep *r) {
    const pfi_resize_plan *p = &r->p;
    hash_axis(&p->h, p->dtype == PF_U8);
    hash_axis(&p->v, p->dtype == PF_U8);
    hb(&r->tvb_n, 4);
    int W = p->dw * p->cn, nb = (W + 15) / 16;
    if (r->tvb) {
        hb(r->tvb_first, 4 * (r->tvb_n + 1));
        for (int b = 0; b < r->tvb_n; b++) {
            int sh = r->tvb_first[nb + 1 + b], nw = r->tvb_first[2 * nb + 1 + b];
            hb(&sh, 4);
            if (sh >= 0)
                hb(&nw, 4);
            for (int s = r->tvb_first[b]; s < r->tvb_first[b + 1]; s++) {
                hb(&r->tvb[s], sizeof r->tvb[s]);
                if (sh < 0 || nw == 2)
                    hb(&r->tvw[s], sizeof r->tvw[s]);
            }
        }
    }
    if (r->pair_mem) {
        hb(&r->pair_max, 4);
        hb(&r->pair_safe_end, 4);
    }
    hb(&r->safe_end, 4);
}
static uint64_t xs(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}
static double unif(uint64_t *s) { return (double)(xs(s) >> 11) / 9007199254740992.0; }
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    pfi_resize_kernels K;
    memset(&K, 0, sizeof K);
    K.want_tvblocks = 1;
    K.want_hblocks = 1;
    static const int sz[3][2] = {{500, 375}, {375, 500}, {333, 251}};
    int(*cr)[2] = malloc(sizeof(int[2]) * n);
    uint64_t s = 0x2545F4914F6CDD1Dull;
    for (int i = 0; i < n; i++) {
        int w = sz[i % 3][0], hh = sz[i % 3][1];
        double area = (0.08 + 0.92 * unif(&s)) * w * hh;
        double ratio = exp(log(0.75) + (log(4.0 / 3.0) - log(0.75)) * unif(&s));
        int cw = (int)lround(sqrt(area * ratio)), ch = (int)lround(sqrt(area / ratio));
        cr[i][0] = cw < 1 ? 1 : cw > w ? w : cw;
        cr[i][1] = ch < 1 ? 1 : ch > hh ? hh : ch;
    }
    for (int mode = 0; mode < (argc > 2 ? 1 : 5); mode++) {
        /* 0 tv-aa linear, 1 opencv linear, 2 tv-aa cubic, 3 tv linear no aa */
        h = 1469598103934665603ull;
        double t = 0;
        for (int pass = 0; pass < (argc > 3 ? 1 : 2); pass++) {
            double t0 = now();
            for (int i = 0; i < n; i++) {
                {
                    int cn = mode == 4 ? 1 : 3;
                    pfi_resize_key k = {.sw = cr[i][0],
                                        .sh = cr[i][1],
                                        .dw = 224,
                                        .dh = 224,
                                        .cn = cn,
                                        .dtype = PF_U8,

                                        .flavor = mode == 1 ? PF_RESIZE_OPENCV : PF_RESIZE_TORCHVISION,
                                        .antialias = mode != 1 && mode != 3,
                                        .interp = mode == 2 ? PF_INTERP_CUBIC : PF_INTERP_LINEAR,
                                        .K = &K};
                    pfi_resize_prep r;
                    if (pfi_resize_prep_build(&r, &k) != PF_OK) {
                        printf("fail\n");
                        return 1;
                    }
                    if (pass)
                        hash_prep(&r);
                    pfi_resize_prep_free(&r);
                }
            }
            if (!pass)
                t = now() - t0;
        }
        printf("mode %d: %.2f us per build, hash %016llx\n", mode, 1e6 * t / n, (unsigned long long)h);
    }
    free(cr);
    return 0;
}
