/* Per-thread cache of prepared resizes (resize_prep.h). Building a plan
 * and its row tables costs 5-10% of a 224x224 resize, and callers resize
 * the same shapes over and over (a dataset's fixed output size, a video's
 * frames). Each thread keeps the PFI_RESIZE_CACHE_ENTRIES most recently
 * used preparations: no locks, and an entry can never be freed while a
 * call that uses it runs (only its own thread evicts, between calls).
 * A thread's entries are freed when it exits (pool workers when their
 * stream is destroyed) or by pfi_resize_cache_clear. Per thread rather than
 * per stream because the NULL stream and the fused preprocess's workers
 * (which resize with a NULL stream) have no stream object to hang it on.
 * Memory is bounded: at most PFI_CACHE_BUDGET bytes of tables per thread;
 * bigger preparations are built for the one call and freed after it. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "cpu/resize_prep.h"

#define PFI_CACHE_BUDGET ((size_t)8 << 20)

typedef struct rz_cache {
    pfi_resize_prep *e[PFI_RESIZE_CACHE_ENTRIES];
    uint64_t used[PFI_RESIZE_CACHE_ENTRIES];
    uint64_t tick;
    size_t bytes;
} rz_cache;

/* The thread-local pointer keeps the cache reachable (leak checkers scan
 * TLS); the key only runs the destructor at thread exit. */
static _Thread_local rz_cache *tl_cache;
static pthread_key_t g_key;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static int g_key_ok;

static void cache_free(rz_cache *c) {
    if (c == NULL) return;
    for (int i = 0; i < PFI_RESIZE_CACHE_ENTRIES; i++) {
        pfi_resize_prep_free(c->e[i]);
        free(c->e[i]);
    }
    free(c);
}
static void cache_destroy(void *c) { cache_free(c); }
static void make_key(void) { g_key_ok = pthread_key_create(&g_key, cache_destroy) == 0; }

static int same_key(const pfi_resize_key *a, const pfi_resize_key *b) {
    return a->sw == b->sw && a->sh == b->sh && a->dw == b->dw && a->dh == b->dh && a->cn == b->cn &&
           a->dtype == b->dtype && a->interp == b->interp && a->flavor == b->flavor && a->antialias == b->antialias &&
           memcmp(&a->win, &b->win, sizeof a->win) == 0 && a->K == b->K;
}

static rz_cache *thread_cache(void) {
    if (tl_cache != NULL) return tl_cache;
    pthread_once(&g_once, make_key);
    if (!g_key_ok) return NULL;
    rz_cache *c = calloc(1, sizeof *c);
    if (c == NULL) return NULL;
    if (pthread_setspecific(g_key, c) != 0) { free(c); return NULL; }
    tl_cache = c;
    return c;
}

static void evict(rz_cache *c, int i) {
    if (c->e[i] == NULL) return;
    c->bytes -= c->e[i]->bytes;
    pfi_resize_prep_free(c->e[i]);
    free(c->e[i]);
    c->e[i] = NULL;
}

pf_status pfi_resize_prep_get(const pfi_resize_key *k, pfi_resize_prep **out, int *transient) {
    rz_cache *c = thread_cache();
    if (c != NULL)
        for (int i = 0; i < PFI_RESIZE_CACHE_ENTRIES; i++)
            if (c->e[i] != NULL && same_key(&c->e[i]->key, k)) {
                c->used[i] = ++c->tick;
                *out = c->e[i];
                *transient = 0;
                return PF_OK;
            }
    pfi_resize_prep *r = malloc(sizeof *r);
    if (r == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_resize: out of memory for a plan");
    pf_status st = pfi_resize_prep_build(r, k);
    if (st != PF_OK) { free(r); return st; }
    *out = r;
    *transient = 1;
    if (c == NULL || r->bytes > PFI_CACHE_BUDGET / 4) return PF_OK;
    /* Make room: least recently used first, until one slot is free and the
     * budget holds. */
    for (;;) {
        int empty = -1, lru = -1;
        for (int i = 0; i < PFI_RESIZE_CACHE_ENTRIES; i++) {
            if (c->e[i] == NULL) { if (empty < 0) empty = i; continue; }
            if (lru < 0 || c->used[i] < c->used[lru]) lru = i;
        }
        if (empty >= 0 && c->bytes + r->bytes <= PFI_CACHE_BUDGET) {
            c->e[empty] = r;
            c->used[empty] = ++c->tick;
            c->bytes += r->bytes;
            *transient = 0;
            return PF_OK;
        }
        evict(c, lru);
    }
}

void pfi_resize_prep_release(pfi_resize_prep *r, int transient) {
    if (!transient || r == NULL) return;
    pfi_resize_prep_free(r);
    free(r);
}

void pfi_resize_cache_clear(void) {
    rz_cache *c = tl_cache;
    if (c == NULL) return;
    tl_cache = NULL;
    if (g_key_ok) pthread_setspecific(g_key, NULL);
    cache_free(c);
}
