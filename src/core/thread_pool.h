/* A fixed pool of worker threads running deterministic parallel-for loops.
 * Tasks are independent, so results never depend on which thread ran what. */
#ifndef PF_CORE_THREAD_POOL_H
#define PF_CORE_THREAD_POOL_H

#include "pixflow/core.h"

typedef struct pfi_pool pfi_pool;

/* fn(ctx, task, worker) for task in [0, ntasks); worker in [0, threads). */
typedef void (*pfi_task_fn)(void *ctx, int task, int worker);

/* Creates threads-1 workers (the caller is worker 0 during a run). */
pf_status pfi_pool_create(int threads, pfi_pool **out);
void pfi_pool_destroy(pfi_pool *pool);
int pfi_pool_threads(const pfi_pool *pool);
/* Runs all tasks and returns when every one has finished. One run at a
 * time per pool: concurrent callers are serialized. */
void pfi_pool_run(pfi_pool *pool, int ntasks, pfi_task_fn fn, void *ctx);

#endif
