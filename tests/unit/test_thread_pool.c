/* The internal thread pool (src/core/thread_pool.c): every task runs
 * exactly once with a worker index in range, the run returns only after
 * every task has returned (a slow task on a worker included), a worker
 * woken late never touches a finished job (each run's context is freed
 * when the run returns: ASan and TSan builds see a late access), and
 * concurrent callers of one pool are serialized. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "core/thread_pool.h"
#include "test_util.h"

typedef struct job {
    int ntasks, threads;
    atomic_int *runs;     /* per task: how many times it ran */
    atomic_int bad_worker;
    int slow_task;        /* this task sleeps first (-1: none) */
} job;

static void task(void *ctx, int t, int worker) {
    job *j = ctx;
    if (worker < 0 || worker >= j->threads) atomic_fetch_add(&j->bad_worker, 1);
    if (t == j->slow_task) {
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    atomic_fetch_add(&j->runs[t], 1);
}

/* One run on a heap job freed right after it returns. */
static int run_once(pfi_pool *p, int threads, int ntasks, int slow) {
    job *j = calloc(1, sizeof *j);
    atomic_int *runs = calloc((size_t)ntasks, sizeof *runs);
    if (j == NULL || runs == NULL) {
        free(j);
        free(runs);
        return 0;
    }
    j->ntasks = ntasks;
    j->threads = threads;
    j->runs = runs;
    j->slow_task = slow;
    atomic_init(&j->bad_worker, 0);
    pfi_pool_run(p, ntasks, task, j);
    int ok = atomic_load(&j->bad_worker) == 0;
    for (int t = 0; t < ntasks; t++) ok &= atomic_load(&runs[t]) == 1;
    free(runs);
    free(j);
    return ok;
}

static void test_every_task_once(void) {
    const int sizes[] = {2, 3, 7, 64, 1000};
    for (int threads = 2; threads <= 4; threads++) {
        pfi_pool *p = NULL;
        CHECK_STATUS(pfi_pool_create(threads, &p), PF_OK);
        if (p == NULL) continue;
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) CHECK(run_once(p, threads, sizes[k], -1));
        pfi_pool_destroy(p);
    }
}

/* Many small runs in a row: most are over before a worker wakes; a late
 * worker must not claim a task of a run that has returned. */
static void test_small_runs_back_to_back(void) {
    pfi_pool *p = NULL;
    CHECK_STATUS(pfi_pool_create(3, &p), PF_OK);
    if (p == NULL) return;
    int ok = 1;
    for (int i = 0; i < 20000; i++) ok &= run_once(p, 3, 2 + i % 3, -1);
    CHECK(ok);
    pfi_pool_destroy(p);
}

/* The run waits for a task still running on a worker: the last task
 * sleeps, so the caller, out of tasks, has to wait for it. */
static void test_waits_for_slow_tasks(void) {
    pfi_pool *p = NULL;
    CHECK_STATUS(pfi_pool_create(2, &p), PF_OK);
    if (p == NULL) return;
    int ok = 1;
    for (int i = 0; i < 50; i++) ok &= run_once(p, 2, 4, i % 4);
    CHECK(ok);
    pfi_pool_destroy(p);
}

typedef struct caller { pfi_pool *p; int ok; } caller;

static void *caller_main(void *arg) {
    caller *c = arg;
    c->ok = 1;
    for (int i = 0; i < 2000; i++) c->ok &= run_once(c->p, 2, 1 + i % 9, i % 97 == 0 ? 0 : -1);
    return NULL;
}

static void test_concurrent_callers(void) {
    pfi_pool *p = NULL;
    CHECK_STATUS(pfi_pool_create(2, &p), PF_OK);
    if (p == NULL) return;
    caller c[3] = {{p, 0}, {p, 0}, {p, 0}};
    pthread_t th[3];
    int started = 0;
    for (; started < 3; started++)
        if (pthread_create(&th[started], NULL, caller_main, &c[started]) != 0) break;
    CHECK(started == 3);
    for (int i = 0; i < started; i++) {
        pthread_join(th[i], NULL);
        CHECK(c[i].ok);
    }
    pfi_pool_destroy(p);
}

int main(void) {
    test_every_task_once();
    test_small_runs_back_to_back();
    test_waits_for_slow_tasks();
    test_concurrent_callers();
    return pft_summary("thread_pool");
}
