/* Thread pool: workers sleep on a condition variable; a run publishes a job
 * (fn, ctx, ntasks) with a generation number, every participant claims task
 * indices, and the caller returns once every task has finished.
 *
 * The caller waits for tasks, not for workers. A worker woken for a job
 * whose tasks the caller has already run (a small job: waking a sleeping
 * thread takes tens of microseconds on a VM, a 32x32 resize ~8) finds
 * nothing to claim and goes back to sleep; the run did not wait for it.
 * Waiting for every worker to check in made a 2-thread pool 6-8x slower
 * than the calling thread alone on such calls (measured, docs/performance.md,
 * "The pool's hand-off"). A late worker never touches a finished job: the
 * claim word holds the generation with the next index, so a claim for an
 * old generation fails, and the job's fn / ctx are only used after a claim
 * succeeded. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/thread_pool.h"

struct pfi_pool {
    int threads;
    pthread_t *workers;
    pthread_mutex_t lock;       /* guards generation, stop and the job's fields */
    pthread_cond_t wake;        /* workers wait for a new generation */
    pthread_cond_t done;        /* the caller waits for finished == ntasks */
    pthread_mutex_t run_lock;   /* serializes concurrent pfi_pool_run callers */
    unsigned generation;
    int stop;
    pfi_task_fn fn;
    void *ctx;
    int ntasks;
    _Atomic uint64_t claim;     /* generation << 32 | next task index */
    atomic_int finished;        /* tasks of the current job that have returned */
};

struct worker_arg { pfi_pool *pool; int index; };

/* Claims and runs tasks of generation gen until none are left (or a newer
 * job replaced it). The task that completes the job wakes the caller. */
static void run_tasks(pfi_pool *p, unsigned gen, pfi_task_fn fn, void *ctx, int ntasks, int worker) {
    for (;;) {
        uint64_t c = atomic_load(&p->claim);
        do {
            if ((uint32_t)(c >> 32) != (uint32_t)gen || (int64_t)(uint32_t)c >= ntasks) return;
        } while (!atomic_compare_exchange_weak(&p->claim, &c, c + 1));
        fn(ctx, (int)(uint32_t)c, worker);
        if (atomic_fetch_add(&p->finished, 1) + 1 == ntasks && worker != 0) {
            pthread_mutex_lock(&p->lock);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->lock);
        }
    }
}

static void *worker_main(void *argp) {
    struct worker_arg arg = *(struct worker_arg *)argp;
    free(argp);
    pfi_pool *p = arg.pool;
    unsigned seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->stop && p->generation == seen) pthread_cond_wait(&p->wake, &p->lock);
        if (p->stop) break;
        seen = p->generation;
        pfi_task_fn fn = p->fn;
        void *ctx = p->ctx;
        int ntasks = p->ntasks;
        pthread_mutex_unlock(&p->lock);
        run_tasks(p, seen, fn, ctx, ntasks, arg.index);
        pthread_mutex_lock(&p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

pf_status pfi_pool_create(int threads, pfi_pool **out) {
    *out = NULL;
    pfi_pool *p = calloc(1, sizeof *p);
    if (p == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "thread pool: out of memory");
    p->threads = threads;
    pthread_mutex_init(&p->lock, NULL);
    pthread_mutex_init(&p->run_lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    if (threads > 1) {
        p->workers = calloc((size_t)threads - 1, sizeof *p->workers);
        if (p->workers == NULL) {
            pfi_pool_destroy(p);
            return pfi_fail(PF_ERR_OUT_OF_MEMORY, "thread pool: out of memory");
        }
    }
    for (int i = 1; i < threads; i++) {
        struct worker_arg *a = malloc(sizeof *a);
        if (a != NULL) { a->pool = p; a->index = i; }
        if (a == NULL || pthread_create(&p->workers[i - 1], NULL, worker_main, a) != 0) {
            free(a);
            p->threads = i; /* only i-1 workers exist; destroy joins those */
            pfi_pool_destroy(p);
            return pfi_fail(PF_ERR_OUT_OF_MEMORY, "thread pool: could not start thread %d of %d", i,
                            threads);
        }
    }
    *out = p;
    return PF_OK;
}

void pfi_pool_destroy(pfi_pool *p) {
    if (p == NULL) return;
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int i = 1; i < p->threads; i++) pthread_join(p->workers[i - 1], NULL);
    free(p->workers);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->lock);
    pthread_mutex_destroy(&p->run_lock);
    free(p);
}

int pfi_pool_threads(const pfi_pool *p) { return p ? p->threads : 1; }

void pfi_pool_run(pfi_pool *p, int ntasks, pfi_task_fn fn, void *ctx) {
    if (ntasks <= 0) return;
    if (p == NULL || p->threads <= 1 || ntasks == 1) {
        for (int t = 0; t < ntasks; t++) fn(ctx, t, 0);
        return;
    }
    pthread_mutex_lock(&p->run_lock);
    pthread_mutex_lock(&p->lock);
    p->fn = fn;
    p->ctx = ctx;
    p->ntasks = ntasks;
    unsigned gen = ++p->generation;
    atomic_store(&p->finished, 0);
    atomic_store(&p->claim, (uint64_t)(uint32_t)gen << 32);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);

    run_tasks(p, gen, fn, ctx, ntasks, 0);

    /* the last task to return signals under the lock after counting
     * itself, so checking under the lock cannot miss it */
    if (atomic_load(&p->finished) != ntasks) {
        pthread_mutex_lock(&p->lock);
        while (atomic_load(&p->finished) != ntasks) pthread_cond_wait(&p->done, &p->lock);
        pthread_mutex_unlock(&p->lock);
    }
    pthread_mutex_unlock(&p->run_lock);
}
