/* The stage queue (src/pipeline/pipeline_queue.c): FIFO order under many
 * producers and consumers, and the read stage's hysteresis
 * (pli_queue_set_producer_wake): a blocked untimed put resumes only once
 * the queue has drained to the low-water mark, a timed put as soon as
 * there is room, close() wakes both. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "pipeline/pipeline_queue.h"

static int failures;
#define CHECK(c)                                                                     \
    do {                                                                             \
        if (!(c)) {                                                                  \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c);    \
            failures++;                                                              \
        }                                                                            \
    } while (0)

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

typedef struct putter {
    pli_queue *q;
    int64_t timeout_ms;
    int first, count;   /* puts items first .. first + count - 1 */
    pthread_mutex_t mu;
    int done;           /* puts completed */
    pli_qresult last;
} putter;

static void *put_main(void *arg) {
    putter *p = arg;
    for (int i = 0; i < p->count; i++) {
        pli_qresult r = pli_queue_put(p->q, (void *)(intptr_t)(p->first + i + 1), p->timeout_ms, NULL);
        pthread_mutex_lock(&p->mu);
        p->last = r;
        if (r == PLI_Q_OK) p->done++;
        pthread_mutex_unlock(&p->mu);
        if (r != PLI_Q_OK) break;
    }
    return NULL;
}

static int done_of(putter *p) {
    pthread_mutex_lock(&p->mu);
    int d = p->done;
    pthread_mutex_unlock(&p->mu);
    return d;
}

/* Waits up to 5 s for the putter to reach `want` puts. */
static int wait_done(putter *p, int want) {
    for (int i = 0; i < 500 && done_of(p) < want; i++) sleep_ms(10);
    return done_of(p);
}

/* Waits up to 5 s until a put is blocked on the queue (so what follows
 * tests a blocked producer, not one that has yet to arrive). */
static int wait_blocked(pli_queue *q) {
    for (int i = 0; i < 500; i++) {
        pthread_mutex_lock(&q->mu);
        int w = q->waiting_producers;
        pthread_mutex_unlock(&q->mu);
        if (w > 0) return 1;
        sleep_ms(10);
    }
    return 0;
}

/* A queue of capacity cap whose blocked producer wakes at count <= mark. */
static void init_marked(pli_queue *q, int cap, int mark) {
    CHECK(pli_queue_init(q, cap) == 0);
    pli_queue_set_producer_wake(q, mark);
}

/* Starts a thread putting count items (first + 1 ...) into q. */
static void start_putter(putter *p, pthread_t *t, pli_queue *q, int64_t timeout_ms, int first, int count) {
    *p = (putter){.q = q, .timeout_ms = timeout_ms, .first = first, .count = count};
    pthread_mutex_init(&p->mu, NULL);
    pthread_create(t, NULL, put_main, p);
}

static intptr_t get1(pli_queue *q) {
    void *v = NULL;
    return pli_queue_get(q, &v, 1000, NULL) == PLI_Q_OK ? (intptr_t)v : -1;
}

/* capacity 8, wake at 2: a put blocked on the full queue stays blocked
 * while the count is above 2, resumes when it reaches 2 and refills
 * without blocking again; items keep their order. */
static void test_hysteresis(void) {
    pli_queue q;
    init_marked(&q, 8, 2);
    putter p;
    pthread_t t;
    start_putter(&p, &t, &q, -1, 0, 12);
    CHECK(wait_done(&p, 8) == 8);
    CHECK(wait_blocked(&q)); /* the 9th put */
    int got = 0;
    for (int i = 0; i < 5; i++) CHECK(get1(&q) == ++got); /* count 8 -> 3: above the mark */
    sleep_ms(100);
    CHECK(done_of(&p) == 8); /* still blocked: the wait is for the low-water mark */
    CHECK(pli_queue_depth(&q) == 3);
    CHECK(get1(&q) == ++got); /* count 2: the mark */
    CHECK(wait_done(&p, 12) == 12); /* woken once, it put the last 4 without blocking (count 6) */
    while (got < 12) CHECK(get1(&q) == ++got); /* FIFO throughout */
    pthread_join(t, NULL);
    CHECK(pli_queue_depth(&q) == 0);
    pthread_mutex_destroy(&p.mu);
    pli_queue_free(&q);
}

/* A timed put is not held to the mark: it goes as soon as there is room. */
static void test_timed_put_not_held(void) {
    pli_queue q;
    init_marked(&q, 4, 0);
    for (int i = 0; i < 4; i++) CHECK(pli_queue_put(&q, (void *)(intptr_t)(i + 1), -1, NULL) == PLI_Q_OK);
    putter p;
    pthread_t t;
    start_putter(&p, &t, &q, 5000, 4, 1);
    CHECK(wait_blocked(&q));
    CHECK(get1(&q) == 1); /* count 3: room, above the mark */
    CHECK(wait_done(&p, 1) == 1);
    pthread_join(t, NULL);
    CHECK(p.last == PLI_Q_OK);
    CHECK(pli_queue_depth(&q) == 4);
    for (int i = 2; i <= 5; i++) CHECK(get1(&q) == i);
    /* and a timed put on a full queue nobody drains times out */
    for (int i = 0; i < 4; i++) CHECK(pli_queue_put(&q, (void *)(intptr_t)1, -1, NULL) == PLI_Q_OK);
    CHECK(pli_queue_put(&q, (void *)(intptr_t)1, 30, NULL) == PLI_Q_TIMEOUT);
    CHECK(pli_queue_put(&q, (void *)(intptr_t)1, 0, NULL) == PLI_Q_TIMEOUT);
    pthread_mutex_destroy(&p.mu);
    pli_queue_free(&q);
}

/* close() wakes a put waiting for the mark. */
static void test_close_wakes_blocked_put(void) {
    pli_queue q;
    init_marked(&q, 2, 0);
    putter p;
    pthread_t t;
    start_putter(&p, &t, &q, -1, 0, 3);
    CHECK(wait_done(&p, 2) == 2);
    CHECK(wait_blocked(&q));
    CHECK(get1(&q) == 1); /* count 1 > 0: still held */
    sleep_ms(50);
    CHECK(done_of(&p) == 2);
    pli_queue_close(&q);
    pthread_join(t, NULL);
    CHECK(p.last == PLI_Q_CLOSED);
    pthread_mutex_destroy(&p.mu);
    pli_queue_free(&q);
}

/* Default mark (capacity - 1) and many producers / consumers: every item
 * arrives once, each producer's in its order. */
typedef struct getter {
    pli_queue *q;
    int n;
    intptr_t *seen;
} getter;

static void *get_main(void *arg) {
    getter *g = arg;
    for (int i = 0; i < g->n; i++) {
        void *v = NULL;
        if (pli_queue_get(g->q, &v, -1, NULL) != PLI_Q_OK) break;
        g->seen[i] = (intptr_t)v;
    }
    return NULL;
}

static void test_many(int wake) {
    enum { P = 3, C = 2, N = 3000 };
    pli_queue q;
    CHECK(pli_queue_init(&q, 5) == 0);
    if (wake >= 0) pli_queue_set_producer_wake(&q, wake);
    putter ps[P];
    getter gs[C];
    static intptr_t seen[C][P * N / C];
    pthread_t tp[P], tc[C];
    for (int c = 0; c < C; c++) {
        gs[c] = (getter){.q = &q, .n = P * N / C, .seen = seen[c]};
        pthread_create(&tc[c], NULL, get_main, &gs[c]);
    }
    for (int i = 0; i < P; i++) {
        ps[i] = (putter){.q = &q, .timeout_ms = i == 0 ? 2000 : -1, .first = i * N, .count = N};
        pthread_mutex_init(&ps[i].mu, NULL);
        pthread_create(&tp[i], NULL, put_main, &ps[i]);
    }
    for (int i = 0; i < P; i++) pthread_join(tp[i], NULL);
    for (int c = 0; c < C; c++) pthread_join(tc[c], NULL);
    static unsigned char hit[P * N + 1];
    for (int i = 0; i <= P * N; i++) hit[i] = 0;
    int ordered = 1;
    for (int c = 0; c < C; c++) {
        intptr_t last[P] = {0};
        for (int i = 0; i < gs[c].n; i++) {
            intptr_t v = seen[c][i];
            CHECK(v >= 1 && v <= P * N);
            if (v < 1 || v > P * N) continue;
            hit[v]++;
            int src = (int)((v - 1) / N);
            if (v <= last[src]) ordered = 0;
            last[src] = v;
        }
    }
    int once = 1;
    for (int i = 1; i <= P * N; i++) once &= hit[i] == 1;
    CHECK(once);
    CHECK(ordered);
    for (int i = 0; i < P; i++) pthread_mutex_destroy(&ps[i].mu);
    pli_queue_free(&q);
}

int main(void) {
    test_hysteresis();
    test_timed_put_not_held();
    test_close_wakes_blocked_put();
    test_many(-1);
    test_many(0);
    test_many(2);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("pipeline_queue: all checks passed\n");
    return 0;
}
