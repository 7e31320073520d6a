/* Bounded FIFO of pointers between pipeline stages (many producers, many
 * consumers). put/get block up to a timeout: < 0 forever, 0 never (the
 * non-blocking form). close() wakes every waiter; after it put and get
 * fail at once (shutdown: items still inside are the owner's to free). */
#ifndef PF_PIPELINE_QUEUE_H
#define PF_PIPELINE_QUEUE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum pli_qresult { PLI_Q_OK = 0, PLI_Q_TIMEOUT = 1, PLI_Q_CLOSED = 2 } pli_qresult;

typedef struct pli_queue {
    pthread_mutex_t mu;
    pthread_cond_t not_empty, not_full;
    void **ring;
    int capacity, head, count;
    int producer_wake;              /* a blocked put is woken once count falls to this */
    int waiting_producers, waiting_timed; /* puts blocked on not_full (timed ones too) */
    bool closed;
} pli_queue;

/* 0 on success, -1 out of memory. */
int pli_queue_init(pli_queue *q, int capacity);
void pli_queue_free(pli_queue *q);
/* Hysteresis for a producer that only hands items over (the read stage):
 * an untimed put blocked on a full queue is woken once count falls to
 * `level` (0 <= level < capacity) instead of at every get, so it refills
 * capacity - level items per wake-up rather than one (one context switch
 * per batch of items, not per item). Timed puts are still woken at every
 * get. Default: capacity - 1 (woken as soon as there is room). */
void pli_queue_set_producer_wake(pli_queue *q, int level);
/* *waited_ns (may be NULL) receives the time spent blocked. */
pli_qresult pli_queue_put(pli_queue *q, void *item, int64_t timeout_ms, uint64_t *waited_ns);
pli_qresult pli_queue_get(pli_queue *q, void **item, int64_t timeout_ms, uint64_t *waited_ns);
void pli_queue_close(pli_queue *q);
int pli_queue_depth(pli_queue *q);

/* Monotonic clock in nanoseconds. */
uint64_t pli_now_ns(void);
/* Absolute CLOCK_MONOTONIC deadline timeout_ms from now (for timed waits
 * on condition variables created with pli_cond_init). */
struct timespec pli_deadline(int64_t timeout_ms);
/* A condition variable that waits on CLOCK_MONOTONIC. */
int pli_cond_init(pthread_cond_t *c);

#endif
