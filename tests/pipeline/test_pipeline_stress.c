/* pf_pipeline lifetime: destroy at any moment (100 times, mid-epoch, with
 * batches held or not) must neither hang nor leak (the ASan/TSan builds
 * check the leak and race side); RSS after 20 epochs stays within 5% of
 * RSS after the first. */
#include "pipeline_fixtures.h"

static char g_dir[2000];

static long rss_kb(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static void test_shutdown_100x(void) {
    uint64_t s = 7;
    int ok = 1;
    for (int round = 0; round < 100; round++) {
        pf_pipeline_config c = fx_config();
        c.source.path = g_dir;
        c.epochs = 0; /* endless */
        c.workers = 1 + round % 4;
        c.batch_size = 1 + round % 7;
        c.prefetch_batches = round % 3;
        c.on_error = round % 5 == 0 ? PF_ON_ERROR_FAIL : PF_ON_ERROR_SKIP;
        pf_pipeline *p;
        if (pf_pipeline_create(&c, &p) != PF_OK) { ok = 0; break; }
        int take = pft_range(&s, 0, 12);
        const pf_batch *held = NULL;
        for (int i = 0; i < take; i++) {
            const pf_batch *b;
            if (pf_pipeline_next(p, &b, 20000) != PF_OK || b == NULL) { ok = 0; break; }
            if (i == take - 1 && round % 2) held = b; /* destroy with a batch still held */
            else pf_batch_release(p, b);
        }
        (void)held;
        pf_pipeline_destroy(p);
    }
    CHECK(ok);
}

static int sanitized(void) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return 1;
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    return 1;
#  endif
#endif
    return 0;
}

static void test_bounded_rss(void) {
    pf_pipeline_config c = fx_config();
    c.source.path = g_dir;
    c.epochs = 20;
    c.batch_size = 4;
    c.desc.out_width = c.desc.out_height = 64;
    pf_pipeline *p;
    CHECK_STATUS(pf_pipeline_create(&c, &p), PF_OK);
    const pf_batch *b;
    long after1 = 0, last = 0;
    uint64_t epoch = 0;
    int batches = 0;
    while (pf_pipeline_next(p, &b, 20000) == PF_OK && b) {
        if (b->epoch != epoch) {
            if (epoch == 0) after1 = rss_kb();
            epoch = b->epoch;
        }
        batches++;
        pf_batch_release(p, b);
    }
    last = rss_kb();
    pf_pipeline_stats st;
    pf_pipeline_stats_get(p, &st);
    pf_pipeline_destroy(p);
    CHECK(epoch == 19 && batches == 20 * 10);
    printf("RSS after epoch 1: %ld KiB, after epoch 20: %ld KiB (%+.2f%%); pool %d x %zu bytes\n", after1,
           last, 100.0 * (double)(last - after1) / (double)after1, st.buffers, st.batch_bytes);
    if (sanitized()) {
        printf("RSS bound not checked: sanitizer build (its allocator quarantines freed memory)\n");
        return;
    }
    CHECK(after1 > 0 && (double)last <= 1.05 * (double)after1);
}

int main(void) {
    fx_tmpdir(g_dir, sizeof g_dir, "pipeline_stress");
    fx_make_folder(g_dir, 40, 4);
    test_shutdown_100x();
    test_bounded_rss();
    fx_rm_rf(g_dir);
    return pft_summary("pipeline_stress");
}
