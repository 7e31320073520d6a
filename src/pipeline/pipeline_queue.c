/* Bounded pointer FIFO (ring under one mutex, two condition variables). */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "pipeline/pipeline_queue.h"

uint64_t pli_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct timespec pli_deadline(int64_t timeout_ms) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_sec += (time_t)(timeout_ms / 1000);
    ts.tv_nsec += (long)((timeout_ms % 1000) * 1000000);
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec += 1;
        ts.tv_nsec -= 1000000000L;
    }
    return ts;
}

int pli_cond_init(pthread_cond_t *c) {
    pthread_condattr_t a;
    if (pthread_condattr_init(&a) != 0) return -1;
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    int r = pthread_cond_init(c, &a);
    pthread_condattr_destroy(&a);
    return r == 0 ? 0 : -1;
}

int pli_queue_init(pli_queue *q, int capacity) {
    q->ring = calloc((size_t)capacity, sizeof *q->ring);
    if (q->ring == NULL) return -1;
    q->capacity = capacity;
    q->head = q->count = 0;
    q->producer_wake = capacity - 1;
    q->waiting_producers = q->waiting_timed = 0;
    q->closed = false;
    pthread_mutex_init(&q->mu, NULL);
    pli_cond_init(&q->not_empty);
    pli_cond_init(&q->not_full);
    return 0;
}

void pli_queue_set_producer_wake(pli_queue *q, int level) {
    pthread_mutex_lock(&q->mu);
    q->producer_wake = level < 0 ? 0 : level >= q->capacity ? q->capacity - 1 : level;
    pthread_mutex_unlock(&q->mu);
}

void pli_queue_free(pli_queue *q) {
    if (q->ring == NULL) return;
    pthread_mutex_destroy(&q->mu);
    pthread_cond_destroy(&q->not_empty);
    pthread_cond_destroy(&q->not_full);
    free(q->ring);
    q->ring = NULL;
}

/* Whether the wait of a get (want_space false) or put may end. An untimed
 * put that has already blocked waits for the low-water mark, not for the
 * first free slot (pli_queue_set_producer_wake): that also makes a
 * spurious wake-up harmless. */
static bool can_go(const pli_queue *q, bool want_space, bool hysteresis) {
    if (!want_space) return q->count > 0;
    return hysteresis ? q->count <= q->producer_wake : q->count < q->capacity;
}

/* Waits on cv until can_go; returns PLI_Q_OK then, TIMEOUT or CLOSED
 * otherwise. Called with q->mu held. */
static pli_qresult wait_while(pli_queue *q, pthread_cond_t *cv, bool want_space, int64_t timeout_ms,
                              uint64_t *waited_ns) {
    uint64_t t0 = 0;
    struct timespec dl = {0, 0};
    bool timed = timeout_ms > 0;
    if (timed) dl = pli_deadline(timeout_ms);
    pli_qresult r = PLI_Q_OK;
    for (;;) {
        if (q->closed) { r = PLI_Q_CLOSED; break; }
        if (can_go(q, want_space, want_space && !timed && t0 != 0)) break;
        if (timeout_ms == 0) { r = PLI_Q_TIMEOUT; break; }
        if (t0 == 0) t0 = pli_now_ns();
        if (want_space) q->waiting_producers++, q->waiting_timed += timed;
        int e = timed ? pthread_cond_timedwait(cv, &q->mu, &dl) : pthread_cond_wait(cv, &q->mu);
        if (want_space) q->waiting_producers--, q->waiting_timed -= timed;
        if (timed && e == ETIMEDOUT && !q->closed && !can_go(q, want_space, false)) {
            r = PLI_Q_TIMEOUT;
            break;
        }
    }
    if (waited_ns) *waited_ns = t0 ? pli_now_ns() - t0 : 0;
    return r;
}

pli_qresult pli_queue_put(pli_queue *q, void *item, int64_t timeout_ms, uint64_t *waited_ns) {
    pthread_mutex_lock(&q->mu);
    pli_qresult r = wait_while(q, &q->not_full, true, timeout_ms, waited_ns);
    if (r == PLI_Q_OK) {
        q->ring[(q->head + q->count) % q->capacity] = item;
        q->count++;
        pthread_cond_signal(&q->not_empty);
    }
    pthread_mutex_unlock(&q->mu);
    return r;
}

pli_qresult pli_queue_get(pli_queue *q, void **item, int64_t timeout_ms, uint64_t *waited_ns) {
    pthread_mutex_lock(&q->mu);
    pli_qresult r = wait_while(q, &q->not_empty, false, timeout_ms, waited_ns);
    if (r == PLI_Q_OK) {
        *item = q->ring[q->head];
        q->head = (q->head + 1) % q->capacity;
        q->count--;
        /* a timed put must not wait past room it could use; untimed ones
         * are woken together at the low-water mark (pli_queue_set_producer_wake) */
        if (q->waiting_timed > 0 || (q->waiting_producers > 0 && q->count <= q->producer_wake))
            pthread_cond_broadcast(&q->not_full);
    }
    pthread_mutex_unlock(&q->mu);
    return r;
}

void pli_queue_close(pli_queue *q) {
    pthread_mutex_lock(&q->mu);
    q->closed = true;
    pthread_cond_broadcast(&q->not_empty);
    pthread_cond_broadcast(&q->not_full);
    pthread_mutex_unlock(&q->mu);
}

int pli_queue_depth(pli_queue *q) {
    pthread_mutex_lock(&q->mu);
    int n = q->count;
    pthread_mutex_unlock(&q->mu);
    return n;
}
