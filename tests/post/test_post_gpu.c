/* GPU emulation of the post-processing kernels: the job builders
 * (src/gpu/post_jobs.c) fill an emulated arena, the kernel bodies
 * (src/kernels/gpu_nms.h, gpu_post.h) run over their launch grids on the
 * CPU (the NMS block's threads one after another, each decision reduced
 * over all of them as the barrier does), and the results are compared
 * with the CPU functions: pf_nms on random batches of every semantics and
 * option the GPU supports, pf_masks_from_logits, pf_composite (buffers
 * with canaries). tests/cuda/test_cuda_post.c repeats this on a device. */
#include <stdlib.h>
#include <string.h>

#include "gpu/post_jobs.h"
#include "post_cases.h"
#include "test_util.h"

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The device sequence of pf_nms (gpu_nms.h's header), emulated. nt: the
 * block size of the select launch. */
static void emulate_nms(const pfk_nms_batch *b, const pfi_gpu_nms_plan *pl, int32_t nt) {
    for (int32_t n = 0; n < b->count; n++)
        for (int32_t i = 0; i < pl->max_n; i++) pfk_nms_filter_at(b, n, i);
    for (int32_t n = 0; n < b->count; n++) pfk_nms_segments_at(b, n);
    for (int32_t n = 0; n < b->count; n++) { /* the segmented sort */
        int64_t s0 = b->seg_begin[n], s1 = b->seg_end[n];
        memcpy(b->sorted + s0, b->keys + s0, (size_t)(s1 - s0) * 8);
        qsort(b->sorted + s0, (size_t)(s1 - s0), 8, cmp_u64);
    }
    for (int32_t n = 0; n < b->count; n++)
        for (int32_t p = 0; p < pl->max_n; p++) pfk_nms_gather_at(b, n, p);
    for (int32_t n = 0; n < b->count; n++) { /* select: one block per sample */
        int32_t m = pfk_nms_limit(b, n), nk = 0;
        float thr = b->thr_f;
        for (int32_t p = 0; p < m; p++) {
            if (b->max_out > 0 && nk >= b->max_out) break;
            if (b->max_per_class > 0) {
                int32_t same = 0;
                for (int32_t t = 0; t < nt; t++) same += pfk_nms_same_class(b, n, p, nk, t, nt);
                if (same >= b->max_per_class) continue;
            }
            int any = 0;
            for (int32_t t = 0; t < nt; t++) any |= pfk_nms_partial(b, n, p, nk, t, nt, thr);
            if (!any) pfk_nms_keep(b, n, p, &nk, &thr, 0);
        }
        b->nkept[n] = nk;
    }
    for (int32_t n = 0; n < b->count; n++)
        for (int32_t q = 0; q < pl->max_bound; q++) pfk_nms_output_at(b, n, q);
    pfk_nms_offsets(b);
    for (int32_t n = 0; n < b->count; n++)
        for (int32_t q = 0; q < pl->max_bound; q++) pfk_nms_compact_at(b, n, q);
}

#define MAXS 6
#define MAXN 700

static void nms_cases(void) {
    float *boxes = malloc(MAXS * MAXN * 16), *scores = malloc(MAXS * MAXN * 4);
    int32_t *cls = malloc(MAXS * MAXN * 4), *k_cpu = malloc(MAXS * MAXN * 4), *k_gpu = malloc(MAXS * MAXN * 4);
    float *u_cpu = malloc(MAXS * MAXN * 4), *u_gpu = malloc(MAXS * MAXN * 4);
    uint64_t r = 4711;
    int cases = 0, kept = 0;
    for (int it = 0; it < 800; it++) {
        pf_nms_opts o = random_opts(&r);
        o.soft = PF_SOFT_NMS_NONE;
        if (o.classes == PF_NMS_CLASS_OFFSET && o.class_offset == 0.0f) o.class_offset = 4096.0f;
        CHECK_STATUS(pfi_gpu_nms_supported("pf_nms", &o), PF_OK);
        int count = 1 + (int)(pft_rand(&r) % MAXS), nclass = 1 + (int)(pft_rand(&r) % 5);
        pf_nms_sample smp[MAXS];
        for (int i = 0; i < count; i++) {
            int n = (int)(pft_rand(&r) % (it % 9 == 0 ? 6 : it % 5 == 0 ? MAXN : 200));
            make_sample(&r, n, nclass, o.box_format, boxes + i * MAXN * 4, scores + i * MAXN, cls + i * MAXN);
            smp[i] = (pf_nms_sample){boxes + i * MAXN * 4, scores + i * MAXN, pft_rand(&r) % 4 ? cls + i * MAXN : NULL, n};
        }
        int64_t cap, off_cpu[MAXS + 1], off_gpu[MAXS + 1];
        CHECK_STATUS(pf_nms_capacity(count, smp, &o, &cap), PF_OK);
        CHECK_STATUS(pf_nms(NULL, count, smp, &o, off_cpu, k_cpu, cap, u_cpu), PF_OK);
        size_t scratch, bytes = pfi_gpu_nms_bytes(count, smp, &o, 0, &scratch);
        pfi_arena a;
        CHECK_STATUS(pfi_arena_emulated(bytes, scratch, &a), PF_OK);
        const pfk_nms_batch *db;
        pfk_nms_batch *hb;
        void *sort_temp;
        pfi_gpu_nms_plan plan;
        memset(k_gpu, 0xee, (size_t)cap * 4);
        pf_status st = pfi_gpu_nms_build(&a, count, smp, &o, off_gpu, k_gpu, u_gpu, 0, &db, &hb, &sort_temp, &plan);
        CHECK_STATUS(st, PF_OK);
        if (st == PF_OK) emulate_nms(db, &plan, (int32_t)(1 + pft_rand(&r) % 256));
        int ok = st == PF_OK && memcmp(off_cpu, off_gpu, (size_t)(count + 1) * 8) == 0 &&
                 memcmp(k_cpu, k_gpu, (size_t)off_cpu[count] * 4) == 0 &&
                 memcmp(u_cpu, u_gpu, (size_t)off_cpu[count] * 4) == 0;
        if (!ok)
            fprintf(stderr, "gpu nms case %d (sem %d fmt %d classes %d thr %g eta %g): %lld vs %lld kept\n", it,
                    o.semantics, o.box_format, o.classes, o.iou_threshold, (double)o.eta,
                    (long long)off_cpu[count], (long long)off_gpu[count]);
        CHECK(ok);
        pfi_arena_emulated_free(&a);
        cases++;
        kept += (int)off_cpu[count];
    }
    /* what stays on the CPU */
    pf_nms_opts o = pf_nms_opts_defaults();
    o.soft = PF_SOFT_NMS_LINEAR;
    CHECK_STATUS(pfi_gpu_nms_supported("pf_nms", &o), PF_ERR_UNSUPPORTED);
    CHECK_MSG("soft");
    o = pf_nms_opts_defaults();
    o.classes = PF_NMS_CLASS_OFFSET;
    CHECK_STATUS(pfi_gpu_nms_supported("pf_nms", &o), PF_ERR_UNSUPPORTED);
    CHECK_MSG("class_offset");
    o = pf_nms_opts_defaults();
    o.order = PF_NMS_ORDER_TORCH_SORT;
    CHECK_STATUS(pfi_gpu_nms_supported("pf_nms", &o), PF_ERR_UNSUPPORTED);
    CHECK_MSG("opts.order");
    printf("post_gpu: NMS %d emulated batches (%d kept) = pf_nms on the CPU\n", cases, kept);
    free(boxes);
    free(scores);
    free(cls);
    free(k_cpu);
    free(k_gpu);
    free(u_cpu);
    free(u_gpu);
}

static void pixel_cases(void) {
    uint64_t r = 99;
    int cases = 0;
    for (int it = 0; it < 300; it++) {
        /* logits */
        int N = 1 + (int)(pft_rand(&r) % 3), C = 1 + (int)(pft_rand(&r) % 30), H = 1 + (int)(pft_rand(&r) % 40),
            W = 1 + (int)(pft_rand(&r) % 70);
        size_t ne = (size_t)N * C * H * W;
        float *lg = malloc(ne * 4);
        for (size_t i = 0; i < ne; i++) {
            lg[i] = (float)(pft_rand(&r) % 9) / 4.0f - 1.0f;
            if (pft_rand(&r) % 97 == 0) lg[i] = NAN;
        }
        pf_mask_opts mo = pf_mask_opts_defaults();
        mo.mode = pft_rand(&r) % 2 ? PF_MASK_THRESHOLD : PF_MASK_ARGMAX;
        mo.threshold = 0.25f;
        mo.value = 77;
        size_t no = mo.mode == PF_MASK_ARGMAX ? (size_t)N * H * W : ne;
        uint8_t *mc = malloc(no + 16), *mg = malloc(no + 16);
        memset(mc, 0xab, no + 16);
        memset(mg, 0xab, no + 16);
        CHECK_STATUS(pf_masks_from_logits(NULL, lg, N, C, H, W, mc, &mo), PF_OK);
        size_t sc, bytes = pfi_gpu_logits_bytes(&sc);
        pfi_arena a;
        pfi_arena_emulated(bytes, sc, &a);
        const pfk_logits_batch *lb;
        pfi_grid g;
        CHECK_STATUS(pfi_gpu_logits_build(&a, lg, N, C, H, W, mg, &mo, &lb, &g), PF_OK);
        for (int32_t n = 0; n < g.n; n++)
            for (int32_t y = 0; y < g.h + 3; y++)
                for (int32_t x = 0; x < g.w + 5; x++) pfk_logits_at(lb, n, x, y); /* a grid larger than the image */
        CHECK(memcmp(mc, mg, no + 16) == 0);
        pfi_arena_emulated_free(&a);
        free(lg);
        free(mc);
        free(mg);
        /* composite */
        int count = 1 + (int)(pft_rand(&r) % 3);
        pf_image fg[3], bg[3], mk[3], dc[3], dg[3];
        uint8_t *bufs[3][5];
        size_t sz[3];
        for (int i = 0; i < count; i++) {
            int w = 1 + (int)(pft_rand(&r) % 50), h = 1 + (int)(pft_rand(&r) % 20), cn = 1 + (int)(pft_rand(&r) % 4);
            int dcn = cn == 3 && pft_rand(&r) % 2 ? 4 : cn, pad = (int)(pft_rand(&r) % 5);
            sz[i] = (size_t)(w + pad) * 4 * h + 8;
            for (int k = 0; k < 5; k++) {
                bufs[i][k] = malloc(sz[i]);
                for (size_t q = 0; q < sz[i]; q++) bufs[i][k][q] = (uint8_t)pft_rand(&r);
            }
            memcpy(bufs[i][4], bufs[i][3], sz[i]);
            fg[i] = pf_image_hwc(bufs[i][0], w, h, cn, PF_U8, (ptrdiff_t)(w + pad) * cn);
            bg[i] = pf_image_hwc(bufs[i][1], w, h, cn, PF_U8, (ptrdiff_t)(w + pad) * cn);
            mk[i] = pf_image_hwc(bufs[i][2], w, h, 1, PF_U8, (ptrdiff_t)(w + pad));
            dc[i] = pf_image_hwc(bufs[i][3], w, h, dcn, PF_U8, (ptrdiff_t)(w + pad) * dcn);
            dg[i] = pf_image_hwc(bufs[i][4], w, h, dcn, PF_U8, (ptrdiff_t)(w + pad) * dcn);
        }
        CHECK_STATUS(pf_composite(NULL, count, fg, bg, mk, dc), PF_OK);
        bytes = pfi_gpu_composite_bytes(count, &sc);
        pfi_arena_emulated(bytes, sc, &a);
        const pfk_composite_batch *cb;
        CHECK_STATUS(pfi_gpu_composite_build(&a, count, fg, bg, mk, dg, &cb, &g), PF_OK);
        for (int32_t n = 0; n < g.n; n++)
            for (int32_t y = 0; y < g.h + 2; y++)
                for (int32_t x = 0; x < g.w + 7; x++) pfk_composite_at(cb, n, x, y);
        for (int i = 0; i < count; i++) {
            CHECK(memcmp(bufs[i][3], bufs[i][4], sz[i]) == 0);
            for (int k = 0; k < 5; k++) free(bufs[i][k]);
        }
        pfi_arena_emulated_free(&a);
        cases++;
    }
    printf("post_gpu: %d emulated logits + composite cases = the CPU ops (canaries included)\n", cases);
}

/* The front-ends route by memory (the backend table's entries run device
 * views): a call mixing host and device memory fails before anything is
 * written, naming the first view that differs (tests/cuda/test_cuda_post.c
 * checks device streams and plain pointers on a GPU). Runs without a GPU:
 * nothing reaches a device. */
static void routing_cases(void) {
    uint8_t px[4] = {1, 2, 3, 4}, out[4] = {0};
    pf_image fg = pf_image_hwc(px, 2, 2, 1, PF_U8, 0), bg = fg, mk = fg, dst = pf_image_hwc(out, 2, 2, 1, PF_U8, 0);
    pf_image dev = dst;
    dev.mem = PF_MEM_CUDA;
    CHECK_STATUS(pf_composite(NULL, 1, &fg, &bg, &mk, &dev), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst[0]");
    CHECK(out[0] == 0);
    pf_image bgd = bg;
    bgd.mem = PF_MEM_CUDA;
    CHECK_STATUS(pf_composite(NULL, 1, &fg, &bgd, &mk, &dst), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("bg[0]");
    CHECK_STATUS(pf_composite(NULL, 1, &fg, &bg, &mk, &dst), PF_OK);
    CHECK(out[0] == 1 && out[3] == 4);
    /* functions with no device path refuse device memory by name */
    int32_t lab[4];
    pf_image labels = pf_image_hwc(lab, 2, 2, 1, PF_S32, 0);
    pf_image devsrc = fg;
    devsrc.mem = PF_MEM_CUDA;
    int32_t nl = 0;
    CHECK_STATUS(pf_connected_components(&devsrc, 8, &labels, &nl, NULL, 0), PF_ERR_INVALID_ARGUMENT);
    printf("post_gpu: routing of mixed host / device views checked\n");
}

int main(void) {
    routing_cases();
    nms_cases();
    pixel_cases();
    return pft_summary("post_gpu");
}
