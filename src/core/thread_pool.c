/* Thread pool: workers sleep on a condition variable; a run publishes a job
 * (fn, ctx, ntasks) with a generation number, every participant claims task
 * indices from an atomic counter, and the caller waits until all are done. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/thread_pool.h"

struct pfi_pool {
    int threads;
    pthread_t *workers;
    pthread_mutex_t lock;       /* guards the fields below and job publication */
    pthread_cond_t wake;        /* workers wait for a new generation */
    pthread_cond_t done;        /* the caller waits for busy == 0 */
    pthread_mutex_t run_lock;   /* serializes concurrent pfi_pool_run callers */
    unsigned generation;
    int busy;                   /* workers still inside the current job */
    int stop;
    pfi_task_fn fn;
    void *ctx;
    int ntasks;
    atomic_int next;
};

struct worker_arg { pfi_pool *pool; int index; };

static void drain(pfi_pool *p, int worker) {
    for (;;) {
        int t = atomic_fetch_add(&p->next, 1);
        if (t >= p->ntasks) break;
        p->fn(p->ctx, t, worker);
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
        pthread_mutex_unlock(&p->lock);
        drain(p, arg.index);
        pthread_mutex_lock(&p->lock);
        if (--p->busy == 0) pthread_cond_signal(&p->done);
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
    atomic_store(&p->next, 0);
    p->busy = p->threads - 1;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);

    drain(p, 0);

    pthread_mutex_lock(&p->lock);
    while (p->busy > 0) pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
    pthread_mutex_unlock(&p->run_lock);
}
