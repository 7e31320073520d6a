/* The post kernel family (src/cpu/post_dispatch.c) against its reference
 * rows (src/ref/post_ref.c) at every SIMD level this CPU has: the
 * torchvision NMS kernel, the IoU / GIoU / DIoU rows, the mask rows
 * (argmax, best, threshold, composite, proto), each on random inputs with
 * NaNs and tails, the columns ending at guard pages; then that the family
 * runs SIMD kernels where the CPU reaches AVX2 and none above the CPU,
 * and that pf_dispatch_entry reports its slots. Case counts stay small
 * enough for qemu-x86_64's TCG (scripts/test.sh runs it under Haswell and
 * Nehalem models). The behaviour of the ops themselves (class groups,
 * threads, semantics) is tested in tests/post. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/post_exec.h"
#include "kernels/box_math.h"
#include "kernels/mask_math.h"
#include "simd/simd_harness.h"
#include "test_util.h"

static float frand(uint64_t *r) { return (float)(pft_rand(r) >> 40) / (float)(1 << 24); }

static const pfi_post_kernels *table(pf_isa isa) { return pfi_kfamily_table(&pfi_post_family, isa); }

static void random_boxes(uint64_t *r, int n, float *b) {
    for (int i = 0; i < n; i++) {
        float x = frand(r) * 100 - 10, y = frand(r) * 100 - 10, w = frand(r) * 60, h = frand(r) * 60;
        int odd = (int)(pft_rand(r) % 40);
        if (odd == 0) w = 0;
        if (odd == 1) x = NAN;
        if (odd == 2) w = -w;
        if (odd == 3) { x = (float)(int)x; w = (float)(int)w; }
        if (odd == 4) h = INFINITY;
        b[4 * i] = x;
        b[4 * i + 1] = y;
        b[4 * i + 2] = x + w;
        b[4 * i + 3] = y + h;
    }
}

/* The torchvision kernel on random kept lists (whole vectors + tails). */
static void nms_tv(const pf_isa *levels, int nlev) {
    uint64_t r = 12345;
    int checked = 0;
    for (int l = 0; l < nlev; l++) {
        pfi_nms_tv_fn fn = table(levels[l])->nms_tv;
        for (int it = 0; it < 1500; it++) {
            int n = (int)(pft_rand(&r) % 70);
            guarded g[5];
            float *col[5];
            for (int j = 0; j < 5; j++) {
                g[j] = guarded_alloc((size_t)(n > 0 ? n : 1) * sizeof(float));
                col[j] = (float *)(void *)g[j].data;
            }
            for (int i = 0; i < n; i++) {
                float x = frand(&r) * 50, y = frand(&r) * 50, w = frand(&r) * 30, h = frand(&r) * 30;
                if (pft_rand(&r) % 13 == 0) w = NAN;
                col[0][i] = x;
                col[1][i] = y;
                col[2][i] = x + w;
                col[3][i] = y + h;
                col[4][i] = w * h;
            }
            float c[5] = {frand(&r) * 50, frand(&r) * 50, 0, 0, 0};
            c[2] = c[0] + frand(&r) * 30;
            c[3] = c[1] + frand(&r) * 30;
            c[4] = (c[2] - c[0]) * (c[3] - c[1]);
            float off = pft_rand(&r) % 4 == 0 ? 1.0f : 0.0f, thr = frand(&r);
            pfi_nms_cols k = {col[0], col[1], col[2], col[3], col[4]};
            int hit_ref, hit = 0;
            pfi_nms_tv_ref(&k, n, c, off, thr, &hit_ref);
            int32_t done = fn(&k, n, c, off, thr, &hit);
            if (!hit && done < n) {
                pfi_nms_cols rest = {col[0] + done, col[1] + done, col[2] + done, col[3] + done, col[4] + done};
                pfi_nms_tv_ref(&rest, n - done, c, off, thr, &hit);
            }
            CHECK(hit == hit_ref);
            checked++;
            for (int j = 0; j < 5; j++) guarded_free(g[j]);
        }
    }
    printf("simd_post: torchvision NMS kernel = reference on %d kept lists\n", checked);
}

/* The IoU rows, bit for bit (NaN as NaN). */
static void iou_rows(const pf_isa *levels, int nlev) {
    uint64_t r = 4242;
    int rows = 0;
    static const pfi_iou_row_fn refs[3] = {pfi_iou_row_ref, pfi_giou_row_ref, pfi_diou_row_ref};
    for (int it = 0; it < 600; it++) {
        int m = (int)(pft_rand(&r) % 90);
        float a[4], *b = malloc((size_t)(m + 1) * 4 * sizeof(float));
        random_boxes(&r, 1, a);
        random_boxes(&r, m, b);
        guarded gc[5];
        float *col[5];
        for (int k = 0; k < 5; k++) {
            gc[k] = guarded_alloc((size_t)(m > 0 ? m : 1) * sizeof(float)); /* ends at a guard page */
            col[k] = (float *)(void *)gc[k].data;
        }
        for (int j = 0; j < m; j++) {
            pfk_iou_box bb = pfk_iou_box_of(b + 4 * j);
            col[0][j] = bb.x1;
            col[1][j] = bb.y1;
            col[2][j] = bb.x2;
            col[3][j] = bb.y2;
            col[4][j] = bb.area;
        }
        pfk_iou_box ab = pfk_iou_box_of(a);
        float a5[5] = {ab.x1, ab.y1, ab.x2, ab.y2, ab.area};
        pfi_nms_cols bc = {col[0], col[1], col[2], col[3], col[4]};
        float ref[96], out[96];
        for (int kind = 0; kind < 3; kind++) {
            refs[kind](a5, &bc, m, 1e-7f, ref);
            for (int l = 0; l < nlev; l++) {
                pfi_iou_row_fn fn = table(levels[l])->iou_row[kind];
                int32_t done = fn(a5, &bc, m, 1e-7f, out);
                pfi_nms_cols rest = {col[0] + done, col[1] + done, col[2] + done, col[3] + done, col[4] + done};
                refs[kind](a5, &rest, m - done, 1e-7f, out + done);
                int ok = memcmp(ref, out, (size_t)m * sizeof(float)) == 0;
                if (!ok) fprintf(stderr, "iou kind %d level %s m %d differs\n", kind, pf_isa_name(levels[l]), m);
                CHECK(ok);
                rows++;
            }
        }
        for (int k = 0; k < 5; k++) guarded_free(gc[k]);
        free(b);
    }
    printf("simd_post: IoU/GIoU/DIoU rows bit-identical to the reference (%d rows)\n", rows);
}

/* The mask rows: argmax, best, threshold, composite, proto. */
static void mask_rows(const pf_isa *levels, int nlev) {
    uint64_t r = 5;
    int rows = 0;
    for (int it = 0; it < 400; it++) {
        int n = (int)(pft_rand(&r) % 200), C = 1 + (int)(pft_rand(&r) % 40), cn = 1 + (int)(pft_rand(&r) % 4);
        int dcn = cn == 3 && pft_rand(&r) % 2 ? 4 : cn;
        float *pl = malloc((size_t)(n + 1) * C * sizeof(float));
        const float *planes[64];
        for (int c = 0; c < C; c++) {
            planes[c] = pl + (size_t)c * (n + 1);
            for (int x = 0; x <= n; x++) {
                float v = (float)(pft_rand(&r) % 7) - 3.0f; /* ties */
                if (pft_rand(&r) % 50 == 0) v = NAN;
                pl[(size_t)c * (n + 1) + x] = v;
            }
        }
        uint8_t *fg = malloc((size_t)n * 4 + 1), *bg = malloc((size_t)n * 4 + 1), *m = malloc((size_t)n + 1);
        for (int x = 0; x < n * 4; x++) fg[x] = (uint8_t)pft_rand(&r), bg[x] = (uint8_t)pft_rand(&r);
        for (int x = 0; x < n; x++) m[x] = (uint8_t)pft_rand(&r);
        uint8_t a_ref[256], a_got[256], c_ref[1024], c_got[1024];
        float p_ref[256], p_got[256], coeff[40];
        for (int k = 0; k < C; k++) coeff[k] = frand(&r) * 2 - 1;
        pfi_argmax_row_ref(planes, C, n, a_ref);
        pfi_composite_row_ref(fg, bg, m, c_ref, n, cn, dcn);
        pfi_proto_row_ref(coeff, C, pl, n + 1, n, p_ref);
        for (int l = 0; l < nlev; l++) {
            const pfi_post_kernels *t = table(levels[l]);
            int32_t d = t->argmax_row(planes, C, n, a_got);
            const float *rest[64];
            for (int c = 0; c < C; c++) rest[c] = planes[c] + d;
            pfi_argmax_row_ref(rest, C, n - d, a_got + d);
            CHECK(memcmp(a_ref, a_got, (size_t)n) == 0);
            {
                float b_ref[256], b_got[256];
                int32_t i_ref[256], i_got[256];
                pfi_best_row_ref(pl, n + 1, C, n, b_ref, i_ref);
                int32_t e = t->best_row(pl, n + 1, C, n, b_got, i_got);
                pfi_best_row_ref(pl + e, n + 1, C, n - e, b_got + e, i_got + e);
                int same = 1;
                for (int x = 0; x < n; x++)
                    same &= (isnan(b_ref[x]) && isnan(b_got[x])) || (b_ref[x] == b_got[x] && i_ref[x] == i_got[x]);
                CHECK(same);
            }
            d = t->thresh_row(planes[0], n, 0.5f, 200, a_got);
            pfi_thresh_row_ref(planes[0] + d, n - d, 0.5f, 200, a_got + d);
            for (int x = 0; x < n; x++) CHECK(a_got[x] == pfk_threshold_u8(planes[0][x], 0.5f, 200));
            d = t->composite_row(fg, bg, m, c_got, n, cn, dcn);
            pfi_composite_row_ref(fg + d * cn, bg + d * cn, m + d, c_got + d * dcn, n - d, cn, dcn);
            CHECK(memcmp(c_ref, c_got, (size_t)n * dcn) == 0);
            d = t->proto_row(coeff, C, pl, n + 1, n, p_got);
            pfi_proto_row_ref(coeff, C, pl + d, n + 1, n - d, p_got + d);
            int same = 1;
            for (int x = 0; x < n; x++)
                if (!(isnan(p_ref[x]) && isnan(p_got[x])) && memcmp(&p_ref[x], &p_got[x], 4)) same = 0;
            CHECK(same);
            rows++;
        }
        free(pl);
        free(fg);
        free(bg);
        free(m);
    }
    { /* best_row over more columns than one of its L1 spans, with NaNs */
        enum { N = 2600, CH = 7 };
        float *pl = malloc((size_t)N * CH * sizeof(float)), *b_ref = malloc(N * sizeof(float)),
              *b_got = malloc(N * sizeof(float));
        int32_t *i_ref = malloc(N * sizeof(int32_t)), *i_got = malloc(N * sizeof(int32_t));
        for (int i = 0; i < N * CH; i++) pl[i] = pft_rand(&r) % 97 == 0 ? NAN : (float)(pft_rand(&r) % 100) - 50;
        pfi_best_row_ref(pl, N, CH, N - 3, b_ref, i_ref);
        for (int l = 0; l < nlev; l++) {
            int32_t e = table(levels[l])->best_row(pl, N, CH, N - 3, b_got, i_got);
            pfi_best_row_ref(pl + e, N, CH, N - 3 - e, b_got + e, i_got + e);
            for (int x = 0; x < N - 3; x++)
                CHECK((isnan(b_ref[x]) && isnan(b_got[x])) || (b_ref[x] == b_got[x] && i_ref[x] == i_got[x]));
        }
        free(pl), free(b_ref), free(b_got), free(i_ref), free(i_got);
    }
    printf("simd_post: argmax/threshold/composite/proto rows = reference (%d rows x 4 kernels)\n", rows);

}

/* The family runs at AVX2 / AVX-512 where the CPU has them, and nowhere
 * above the CPU; pf_dispatch_entry lists every slot, named, at the active
 * level's choice. */
static void report(const pf_isa *levels, int nlev) {
    CHECK(family_levels_ok("post.", levels, nlev, PF_ISA_AVX2));
    pf_isa best = nlev > 0 ? levels[nlev - 1] : PF_ISA_SCALAR;
    int above = 0;
    for (int l = PF_ISA_SCALAR; l <= PF_ISA_AVX512VBMI; l++)
        for (int i = 0; i < pfi_post_family.nslots; i++)
            above += pfi_kfamily_slot_isa(&pfi_post_family, (pf_isa)l, i) > best;
    CHECK(above == 0);
    pf_cpu_set_cap(PF_ISA_NEON);
    pf_isa active = pf_cpu_active_isa();
    int listed = 0;
    for (int i = 0; i < pf_dispatch_count(); i++) {
        const char *name = NULL;
        pf_isa isa = PF_ISA_NEON;
        CHECK_STATUS(pf_dispatch_entry(i, &name, &isa), PF_OK);
        if (name == NULL || strncmp(name, "post.", 5) != 0) continue;
        CHECK(strcmp(name, pfi_post_family.slots[listed].name) == 0);
        CHECK(isa == pfi_kfamily_slot_isa(&pfi_post_family, active, listed) && isa <= active);
        listed++;
    }
    CHECK(listed == pfi_post_family.nslots && listed == 9);
    CHECK_STATUS(pf_dispatch_entry(pf_dispatch_count(), NULL, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("index");
    printf("simd_post: %d slots listed by pf_dispatch_entry (best level %s)\n", listed, pf_isa_name(best));
}

int main(void) {
    pf_isa all[4] = {PF_ISA_SCALAR, PF_ISA_SCALAR, PF_ISA_SCALAR, PF_ISA_SCALAR}, own[4];
    int nall = simd_levels(all, "simd_post");
    memcpy(own, all, sizeof all);
    /* compare only where the family has its own kernels (elsewhere its
     * table is a lower level's copy: sse4 is the reference's) */
    int nown = levels_with_own_kernels("post.", own, nall);
    nms_tv(own, nown);
    iou_rows(own, nown);
    mask_rows(own, nown);
    report(all, nall);
    pf_cpu_set_cap(PF_ISA_NEON);
    return pft_summary("simd_post");
}
