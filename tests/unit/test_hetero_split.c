/* The dispatcher's chain split (src/hetero/hetero_split.c) on the CPU
 * alone, and the rules API:
 *  - property: random descs over every flavour, interpolation,
 *    antialias, letterbox (both aligns), affine, resize-then-crop window,
 *    jitter / grayscale / gamma, swap_rb, out_channels 1 and 3, 1- and
 *    3-channel sources, distinct pad values per channel, every dtype and
 *    layout: stage 1 then stage 2 give pf_preprocess_run's bytes and info
 *    for every batch the split accepts; the batches it refuses (letterbox
 *    with colour ops) are counted, and some of them do differ (the
 *    refusal is needed);
 *  - rules: errors name the argument and the value (bad class, unknown
 *    device, malformed or duplicate tokens), nothing changes on an
 *    error, rules_get round-trips, and rules on a one-device dispatcher
 *    keep the chain whole with the reason saying so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetero/hetero.h"
#include "pixflow/pixflow.h"
#include "test_util.h"
#include "unit/pp_random.h"

#define MAXN 10

/* Stage 1 then stage 2 on the CPU, as pfi_hx_run_split runs them:
 * 1-channel sources through the 1-channel stage-1 plan into 1-channel
 * slots; returns 0 when the desc is refused (why says why). */
static int run_split(pf_stream *st, const pf_preprocess_desc *d, int n, const pf_image *im,
                     const pf_aug_params *prm, pf_tensor *out, pf_letterbox_info *info, char *why, size_t why_len) {
    pf_preprocess_desc geo, geo1, pt;
    if (!pfi_hx_split_descs(d, &geo, &pt, why, why_len)) return 0;
    geo1 = geo;
    geo1.out_channels = 1;
    pf_aug_params gp[MAXN], pp[MAXN];
    for (int i = 0; i < n; ++i) pfi_hx_split_params(&prm[i], &gp[i], &pp[i]);
    size_t per = (size_t)pfi_hx_split_bytes(d);
    uint8_t *mid = malloc(per * (size_t)n);
    pf_image mi[MAXN];
    for (int i = 0; i < n; ++i)
        mi[i] = pf_image_hwc(mid + per * (size_t)i, d->out_width, d->out_height, im[i].channels == 1 ? 1 : 3, PF_U8, 0);
    pf_tensor m3 = pf_tensor_nhwc(mid, n, 3, d->out_height, d->out_width, PF_U8);
    pf_tensor m1 = pf_tensor_nhwc(mid, n, 1, d->out_height, d->out_width, PF_U8);
    m1.sample_stride = (ptrdiff_t)per;
    pf_preprocess_plan *pg = NULL, *pg1 = NULL, *pq = NULL;
    pf_status s = pf_preprocess_plan_create(&geo, &pg);
    if (s == PF_OK) s = pf_preprocess_plan_create(&geo1, &pg1);
    if (s == PF_OK) s = pf_preprocess_plan_create(&pt, &pq);
    for (int i = 0; i < n && s == PF_OK; ++i) { /* one sample at a time: the channel groups need no bookkeeping */
        pf_tensor t = im[i].channels == 1 ? m1 : m3;
        t.data = mid + per * (size_t)i;
        t.n = 1;
        s = pf_preprocess_run(im[i].channels == 1 ? pg1 : pg, st, 1, &im[i], &gp[i], &t, &info[i]);
    }
    if (s == PF_OK) s = pf_preprocess_run(pq, st, n, mi, pp, out, NULL);
    if (s != PF_OK) fprintf(stderr, "split run: %s\n", pf_last_error());
    CHECK(s == PF_OK);
    pf_preprocess_plan_destroy(pg);
    pf_preprocess_plan_destroy(pg1);
    pf_preprocess_plan_destroy(pq);
    free(mid);
    return 1;
}

static void test_split_property(void) {
    pf_stream *st;
    CHECK_STATUS(pf_stream_create_cpu(2, &st), PF_OK);
    uint64_t r = 0x5b11757ull;
    int iters = 1500, split = 0, refused = 0, desc_refused = 0, refused_differ = 0, mismatches = 0;
    for (int it = 0; it < iters; ++it) {
        pf_preprocess_desc d;
        pprand_desc(&r, &d);
        int n = pft_range(&r, 1, MAXN);
        uint8_t *pix[MAXN];
        pf_image im[MAXN];
        pf_aug_params prm[MAXN];
        for (int i = 0; i < n; ++i) {
            int w = pft_range(&r, 1, 48), h = pft_range(&r, 1, 48), c = pft_range(&r, 0, 2) == 0 ? 1 : 3;
            pix[i] = malloc((size_t)(w * h * c));
            for (int k = 0; k < w * h * c; ++k) pix[i][k] = (uint8_t)pft_rand(&r);
            im[i] = pf_image_hwc(pix[i], w, h, c, PF_U8, 0);
            pprand_params(&r, &d, &im[i], &prm[i]);
        }
        size_t bytes = pf_tensor_packed_size(n, d.out_channels, d.out_height, d.out_width, d.out_dtype);
        void *fb = malloc(bytes), *sb = malloc(bytes);
        memset(fb, 0x11, bytes);
        memset(sb, 0x77, bytes);
        pf_tensor ft = pprand_tensor(&d, n, fb), stt = pprand_tensor(&d, n, sb);
        pf_letterbox_info fi[MAXN], si[MAXN];
        memset(fi, 0, sizeof fi);
        memset(si, 0, sizeof si);
        pf_preprocess_plan *plan;
        CHECK_STATUS(pf_preprocess_plan_create(&d, &plan), PF_OK);
        pf_status fs = pf_preprocess_run(plan, st, n, im, prm, &ft, fi);
        pf_preprocess_plan_destroy(plan);
        if (fs != PF_OK) fprintf(stderr, "iteration %d: fused run: %s\n", it, pf_last_error());
        CHECK(fs == PF_OK);
        char why[160];
        int ok = run_split(st, &d, n, im, prm, &stt, si, why, sizeof why);
        if (!ok) {
            CHECK(strstr(why, "letterbox with 1-channel output") != NULL && d.letterbox && d.out_channels == 1);
            desc_refused++;
        } else {
            ok = pfi_hx_split_batch_ok(&d, n, prm, why, sizeof why);
            if (ok) split++;
            else {
                refused++;
                CHECK(strstr(why, "letterbox pad is not colour-adjusted") != NULL);
            }
        }
        int same = memcmp(fb, sb, bytes) == 0 && memcmp(fi, si, sizeof(pf_letterbox_info) * (size_t)n) == 0;
        if (ok) {
            if (!same && mismatches++ < 8)
                fprintf(stderr,
                        "iteration %d: split differs: %dx%dx%d interp %d aa %d flavor %d lb %d swap %d dtype %d "
                        "layout %d\n", it, (int)d.out_width, (int)d.out_height, (int)d.out_channels, (int)d.interp,
                        (int)d.antialias, (int)d.flavor, (int)d.letterbox, (int)d.swap_rb, (int)d.out_dtype,
                        (int)d.out_layout);
            CHECK(same);
        } else if (!d.letterbox) {
            CHECK(0); /* only letterbox descs or batches are refused */
        } else if (d.out_channels == 3) {
            refused_differ += !same;
        }
        free(fb);
        free(sb);
        for (int i = 0; i < n; ++i) free(pix[i]);
    }
    printf("split property: %d batches split, %d mismatches; refused: %d letterbox batches with colour ops (%d of "
           "them would differ), %d letterbox descs with gray output\n", split, mismatches, refused, refused_differ,
           desc_refused);
    CHECK(split >= iters / 2);
    CHECK(refused > 0 && refused_differ > 0 && desc_refused > 0); /* the refusals are needed */
    pf_stream_destroy(st);
}

static void test_rules_api(void) {
    pf_dispatch_config c = pf_dispatch_config_defaults();
    c.devices = "cpu";
    c.cpu_threads = 2;
    pf_dispatch *d = NULL;
    CHECK_STATUS(pf_dispatch_open(&c, &d), PF_OK);
    if (!d) return;
    char got[128];
    CHECK_STATUS(pf_dispatch_set_rule(NULL, "geometry", "cpu"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("d is NULL");
    CHECK_STATUS(pf_dispatch_set_rule(d, "colour", "cpu"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("op_class \"colour\"");
    CHECK_STATUS(pf_dispatch_set_rule(d, NULL, "cpu"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("op_class is NULL");
    CHECK_STATUS(pf_dispatch_set_rule(d, "geometry", "opencl:3"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("device \"opencl:3\"");
    CHECK_STATUS(pf_dispatch_set_rule(d, "geometry", "gpu"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("device \"gpu\"");
    CHECK_STATUS(pf_dispatch_set_rule(d, "geometry", "cpu"), PF_OK);
    CHECK_STATUS(pf_dispatch_rules_get(d, got, sizeof got), PF_OK);
    CHECK(strcmp(got, "geometry=cpu") == 0);
    CHECK_STATUS(pf_dispatch_set_rule(d, "geometry", NULL), PF_OK);
    CHECK_STATUS(pf_dispatch_rules_get(d, got, sizeof got), PF_OK);
    CHECK(strcmp(got, "") == 0);
    CHECK_STATUS(pf_dispatch_set_rules(d, " geometry=cpu , pointwise=cpu "), PF_OK);
    CHECK_STATUS(pf_dispatch_rules_get(d, got, sizeof got), PF_OK);
    CHECK(strcmp(got, "geometry=cpu,pointwise=cpu") == 0);
    /* errors quote the token and change nothing */
    CHECK_STATUS(pf_dispatch_set_rules(d, "geometry=cpu,pointwise"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("token \"pointwise\"");
    CHECK_STATUS(pf_dispatch_set_rules(d, "geometry=cpu,,pointwise=cpu"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("token \"\"");
    CHECK_STATUS(pf_dispatch_set_rules(d, "geometry=cpu,light=cpu"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("token \"light=cpu\"");
    CHECK_MSG("op class \"light\"");
    CHECK_STATUS(pf_dispatch_set_rules(d, "pointwise=cuda:0"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("token \"pointwise=cuda:0\"");
    CHECK_MSG("\"cuda:0\" is not a device");
    CHECK_STATUS(pf_dispatch_set_rules(d, "geometry=cpu,geometry=cpu"), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("ruled twice");
    CHECK_STATUS(pf_dispatch_set_rules(d, "geometry="), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("token \"geometry=\"");
    CHECK_STATUS(pf_dispatch_rules_get(d, got, sizeof got), PF_OK);
    CHECK(strcmp(got, "geometry=cpu,pointwise=cpu") == 0);
    CHECK_STATUS(pf_dispatch_rules_get(d, NULL, 4), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("out");

    /* both classes on the one device: the chain whole there, same bytes */
    pf_preprocess_desc desc = pf_preprocess_desc_defaults();
    desc.out_width = 12, desc.out_height = 10;
    uint8_t px[3][20 * 16 * 3];
    pf_image im[3];
    uint64_t r = 5;
    for (int i = 0; i < 3; ++i) {
        for (size_t k = 0; k < sizeof px[i]; ++k) px[i][k] = (uint8_t)pft_rand(&r);
        im[i] = pf_image_hwc(px[i], 20, 16, 3, PF_U8, 0);
    }
    size_t bytes = pf_tensor_packed_size(3, 3, 10, 12, PF_F32);
    void *a = malloc(bytes), *b = malloc(bytes);
    pf_tensor ta = pf_tensor_nchw(a, 3, 3, 10, 12, PF_F32), tb = pf_tensor_nchw(b, 3, 3, 10, 12, PF_F32);
    CHECK_STATUS(pf_dispatch_run(d, &desc, 3, im, NULL, &ta, NULL), PF_OK);
    pf_dispatch_device_stats ds;
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 0, &ds), PF_OK);
    CHECK(strstr(ds.reason, "rule: geometry, pointwise -> cpu (chain whole)") != NULL);
    CHECK(ds.last_samples == 3);
    pf_dispatch_stats gs;
    CHECK_STATUS(pf_dispatch_stats_get(d, &gs), PF_OK);
    CHECK(gs.split_batches == 0 && gs.moved_bytes == 0);
    pf_preprocess_plan *plan;
    CHECK_STATUS(pf_preprocess_plan_create(&desc, &plan), PF_OK);
    CHECK_STATUS(pf_preprocess_run(plan, NULL, 3, im, NULL, &tb, NULL), PF_OK);
    pf_preprocess_plan_destroy(plan);
    CHECK(memcmp(a, b, bytes) == 0);
    /* the pin wins over the rules, and clearing it leaves them */
    CHECK_STATUS(pf_dispatch_pin(d, "cpu"), PF_OK);
    CHECK_STATUS(pf_dispatch_run(d, &desc, 3, im, NULL, &ta, NULL), PF_OK);
    CHECK_STATUS(pf_dispatch_device_stats_get(d, 0, &ds), PF_OK);
    CHECK(strncmp(ds.reason, "pinned", 6) == 0);
    CHECK_STATUS(pf_dispatch_pin(d, NULL), PF_OK);
    CHECK_STATUS(pf_dispatch_rules_get(d, got, sizeof got), PF_OK);
    CHECK(strcmp(got, "geometry=cpu,pointwise=cpu") == 0);
    CHECK_STATUS(pf_dispatch_set_rules(d, NULL), PF_OK);
    CHECK_STATUS(pf_dispatch_rules_get(d, got, sizeof got), PF_OK);
    CHECK(strcmp(got, "") == 0);
    free(a);
    free(b);
    pf_dispatch_close(d);
}

int main(void) {
    test_split_property();
    test_rules_api();
    return pft_summary("test_hetero_split");
}
