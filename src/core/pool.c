/* pf_pool: a capped caching allocator with stream-ordered reuse.
 *
 * Blocks are rounded to size classes (powers of two from 512 bytes, then
 * quarter steps between powers), so a workload whose sizes vary reuses a
 * bounded set of blocks instead of growing to every size seen. A freed
 * block remembers the stream it was freed on and an event recorded there:
 * the same stream may take it back at once (its later work is ordered
 * after the earlier use); any other stream, or the host, only once the
 * event has completed. When an allocation would pass the cap, idle blocks
 * are returned to the backend (waiting for their events if needed) before
 * the allocation fails. Linear scans: pools hold tens to a few hundred
 * blocks.
 *
 * Device pools on a backend with a stream-ordered allocator (CUDA with
 * memory-pool support: cudaMallocAsync) use it instead of the cache: a
 * cudaMemPool whose maxSize is the cap, freed memory kept up to the cap,
 * reuse ordered by CUDA itself. The block list then only records sizes
 * for the statistics. PIXFLOW_CUDA_POOL=cache in the environment selects
 * the cache for every pool (to compare the two). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/device.h"
#include "core/error.h"
#include "core/stream.h"

typedef struct pool_block {
    void *ptr;
    size_t size;        /* class size */
    bool in_use;
    uint64_t stream_id; /* stream of the last free (0: host / synchronized) */
    void *event;        /* backend event recorded at that free, or NULL */
    bool event_pending; /* event recorded and not yet seen complete */
} pool_block;

struct pf_pool {
    pf_device *dev;
    void *opool;        /* backend stream-ordered pool, or NULL (own cache) */
    pf_alloc_kind kind;
    size_t cap;
    pthread_mutex_t lock;
    pool_block *blocks;
    int nblocks, capblocks;
    pf_pool_stats stats;
};

/* Size class: 512 bytes minimum, then four classes per power of two
 * (p, 1.25p, 1.5p, 1.75p): waste under 25 %. */
static size_t size_class(size_t bytes) {
    if (bytes <= 512) return 512;
    size_t p = 512;
    while (p < bytes / 2 + 1 && p < ((size_t)1 << (sizeof(size_t) * 8 - 2))) p <<= 1;
    /* p <= bytes < 2p (or close to the top of size_t) */
    if (p >= bytes) return p;
    size_t step = p / 4 ? p / 4 : 1;
    size_t c = p;
    while (c < bytes) c += step;
    return c;
}

pf_status pf_pool_create(pf_device *device, pf_alloc_kind kind, size_t cap_bytes, pf_pool **out) {
    pfi_clear_error();
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pool_create: out is NULL");
    *out = NULL;
    if (device == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pool_create: device is NULL");
    if (kind != PF_ALLOC_DEVICE && kind != PF_ALLOC_PINNED && kind != PF_ALLOC_MANAGED)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pool_create: kind is %d", (int)kind);
    if (cap_bytes < 512)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pool_create: cap_bytes is %zu; it must be >= 512", cap_bytes);
    pf_pool *p = calloc(1, sizeof *p);
    if (p == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pool_create: out of memory");
    pthread_mutex_init(&p->lock, NULL);
    p->dev = pfi_device_ref(device);
    p->kind = kind;
    p->cap = cap_bytes;
    p->stats.cap = cap_bytes;
    const pfi_backend *be = device->be;
    const char *env = getenv("PIXFLOW_CUDA_POOL");
    bool want_opool = kind == PF_ALLOC_DEVICE && be->opool_create != NULL && device->props.memory_pools &&
                      !(env != NULL && strcmp(env, "cache") == 0);
    if (want_opool && be->opool_create(device->index, cap_bytes, &p->opool) != PF_OK) {
        p->opool = NULL; /* the cache works everywhere: fall back to it */
        pfi_clear_error();
    }
    *out = p;
    return PF_OK;
}

static const pfi_backend *BE(const pf_pool *p) { return p->dev->be; }

/* Is block b free to hand to stream_id (0 = host)? Polls its event. */
static bool block_ready(pf_pool *p, pool_block *b, uint64_t stream_id) {
    if (!b->event_pending) return true;
    if (stream_id != 0 && b->stream_id == stream_id) return true;
    int done = 0;
    if (BE(p)->event_query(p->dev->index, b->event, &done) == PF_OK && done) b->event_pending = false;
    return done != 0;
}

static void release_block(pf_pool *p, int i, bool wait) {
    pool_block *b = &p->blocks[i];
    if (b->event_pending && wait) (void)BE(p)->event_synchronize(p->dev->index, b->event);
    if (b->event) BE(p)->event_destroy(p->dev->index, b->event);
    BE(p)->mem_free(p->dev->index, p->kind, b->ptr);
    p->stats.reserved -= b->size;
    p->blocks[i] = p->blocks[--p->nblocks];
}

/* Frees idle blocks: those already complete, and with `wait` also those
 * whose event is still pending (waiting for it). Until `need` bytes fit. */
static void trim_locked(pf_pool *p, size_t need, bool wait) {
    for (int i = 0; i < p->nblocks && p->stats.reserved + need > p->cap;) {
        pool_block *b = &p->blocks[i];
        if (!b->in_use && (wait || block_ready(p, b, 0)))
            release_block(p, i, wait);
        else
            i++;
    }
}

/* ---- backend stream-ordered pool (cudaMallocAsync) ----------------- */

/* Called with the lock held. */
static void opool_update_reserved(pf_pool *p) {
    size_t cur = 0, high = 0;
    if (BE(p)->opool_reserved(p->dev->index, p->opool, &cur, &high) == PF_OK) {
        p->stats.reserved = cur;
        if (high > p->stats.peak_reserved) p->stats.peak_reserved = high;
    }
    pfi_clear_error();
}

static bool grow_blocks(pf_pool *p) {
    if (p->nblocks < p->capblocks) return true;
    int nc = p->capblocks ? 2 * p->capblocks : 16;
    pool_block *nb = realloc(p->blocks, (size_t)nc * sizeof *nb);
    if (nb == NULL) return false;
    p->blocks = nb;
    p->capblocks = nc;
    return true;
}

static pf_status opool_alloc(pf_pool *p, size_t bytes, pf_stream *s, void **out) {
    bool device_stream = s != NULL && s->kind != PF_DEVICE_CPU;
    if (device_stream && (s->kind != p->dev->kind || s->device != p->dev->index))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pool_alloc: stream belongs to another device than the pool");
    void *impl = device_stream ? s->impl : NULL;
    pthread_mutex_lock(&p->lock);
    if (p->stats.in_use + bytes > p->cap || !grow_blocks(p)) {
        size_t in_use = p->stats.in_use;
        pthread_mutex_unlock(&p->lock);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pool_alloc: %zu bytes would pass the pool cap of %zu bytes (%zu in use)",
                        bytes, p->cap, in_use);
    }
    opool_update_reserved(p);
    size_t before = p->stats.reserved;
    void *ptr = NULL;
    pf_status st = BE(p)->opool_alloc(p->dev->index, p->opool, bytes, impl, &ptr);
    /* host use (NULL stream): the block must be usable once this returns */
    if (st == PF_OK && !device_stream) st = BE(p)->stream_synchronize(p->dev->index, NULL);
    if (st != PF_OK) {
        size_t in_use = p->stats.in_use;
        pthread_mutex_unlock(&p->lock);
        char why[256];
        snprintf(why, sizeof why, "%s", pf_last_error());
        if (st == PF_ERR_OUT_OF_MEMORY)
            return pfi_fail(st, "pf_pool_alloc: %zu bytes do not fit the pool cap of %zu bytes (%zu in use): %s",
                            bytes, p->cap, in_use, why);
        return pfi_fail(st, "pf_pool_alloc: %s", why);
    }
    p->blocks[p->nblocks++] = (pool_block){ptr, bytes, true, 0, NULL, false};
    p->stats.allocs++;
    p->stats.in_use += bytes;
    opool_update_reserved(p);
    if (p->stats.reserved > before)
        p->stats.backend_allocs++; /* the pool grew */
    else
        p->stats.reuses++;
    pthread_mutex_unlock(&p->lock);
    *out = ptr;
    return PF_OK;
}

static pf_status opool_free(pf_pool *p, void *ptr, pf_stream *s) {
    bool device_stream = s != NULL && s->kind != PF_DEVICE_CPU;
    if (device_stream && (s->kind != p->dev->kind || s->device != p->dev->index))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pool_free: stream belongs to another device than the pool");
    pthread_mutex_lock(&p->lock);
    int at = -1;
    for (int i = 0; i < p->nblocks; i++)
        if (p->blocks[i].ptr == ptr) at = i;
    if (at < 0) {
        pthread_mutex_unlock(&p->lock);
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pool_free: ptr %p was not allocated from this pool or is "
                                                 "already free", ptr);
    }
    pf_status st = BE(p)->opool_free(p->dev->index, p->opool, ptr, device_stream ? s->impl : NULL);
    if (st == PF_OK) {
        p->stats.in_use -= p->blocks[at].size;
        p->blocks[at] = p->blocks[--p->nblocks];
    }
    pthread_mutex_unlock(&p->lock);
    return pfi_fail_in("pf_pool_free", st);
}

pf_status pf_pool_alloc(pf_pool *p, size_t bytes, pf_stream *s, void **out) {
    pfi_clear_error();
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pool_alloc: out is NULL");
    *out = NULL;
    if (p == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pool_alloc: pool is NULL");
    if (bytes == 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pool_alloc: bytes is 0");
    size_t cs = size_class(bytes);
    if (cs > p->cap)
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pool_alloc: %zu bytes (class %zu) exceed the pool cap of %zu bytes",
                        bytes, cs, p->cap);
    uint64_t sid = s != NULL && s->kind != PF_DEVICE_CPU ? s->id : 0;
    if (p->opool != NULL) return opool_alloc(p, bytes, s, out);
    pthread_mutex_lock(&p->lock);
    p->stats.allocs++;
    for (int i = 0; i < p->nblocks; i++) {
        pool_block *b = &p->blocks[i];
        if (!b->in_use && b->size == cs && block_ready(p, b, sid)) {
            b->in_use = true;
            p->stats.in_use += cs;
            p->stats.reuses++;
            *out = b->ptr;
            pthread_mutex_unlock(&p->lock);
            return PF_OK;
        }
    }
    if (p->stats.reserved + cs > p->cap) trim_locked(p, cs, false);
    if (p->stats.reserved + cs > p->cap) trim_locked(p, cs, true);
    if (p->stats.reserved + cs > p->cap) {
        size_t in_use = p->stats.in_use;
        pthread_mutex_unlock(&p->lock);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY,
                        "pf_pool_alloc: %zu bytes (class %zu) would pass the pool cap of %zu bytes (%zu in use)",
                        bytes, cs, p->cap, in_use);
    }
    if (!grow_blocks(p)) {
        pthread_mutex_unlock(&p->lock);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_pool_alloc: out of host memory");
    }
    void *ptr;
    pf_status st = BE(p)->mem_alloc(p->dev->index, p->kind, cs, &ptr);
    if (st != PF_OK) {
        pthread_mutex_unlock(&p->lock);
        return pfi_fail_in("pf_pool_alloc", st);
    }
    p->blocks[p->nblocks++] = (pool_block){ptr, cs, true, 0, NULL, false};
    p->stats.in_use += cs;
    p->stats.reserved += cs;
    p->stats.backend_allocs++;
    if (p->stats.reserved > p->stats.peak_reserved) p->stats.peak_reserved = p->stats.reserved;
    *out = ptr;
    pthread_mutex_unlock(&p->lock);
    return PF_OK;
}

pf_status pf_pool_free(pf_pool *p, void *ptr, pf_stream *s) {
    pfi_clear_error();
    if (p == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pool_free: pool is NULL");
    if (ptr == NULL) return PF_OK;
    if (p->opool != NULL) return opool_free(p, ptr, s);
    pthread_mutex_lock(&p->lock);
    pool_block *b = NULL;
    for (int i = 0; i < p->nblocks; i++)
        if (p->blocks[i].ptr == ptr) b = &p->blocks[i];
    if (b == NULL || !b->in_use) {
        pthread_mutex_unlock(&p->lock);
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pool_free: ptr %p was not allocated from this pool%s", ptr,
                        b ? " or is already free" : "");
    }
    b->stream_id = 0;
    b->event_pending = false;
    if (s != NULL && s->kind != PF_DEVICE_CPU) {
        if (s->kind != p->dev->kind || s->device != p->dev->index) {
            pthread_mutex_unlock(&p->lock);
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pool_free: stream belongs to another device than the pool");
        }
        pf_status st = b->event ? PF_OK : BE(p)->event_create(p->dev->index, &b->event);
        if (st == PF_OK) st = BE(p)->event_record(p->dev->index, b->event, s->impl);
        if (st != PF_OK) {
            /* cannot order the reuse: wait for the stream instead */
            st = BE(p)->stream_synchronize(p->dev->index, s->impl);
            if (st != PF_OK) {
                pthread_mutex_unlock(&p->lock);
                return pfi_fail_in("pf_pool_free", st);
            }
        } else {
            b->stream_id = s->id;
            b->event_pending = true;
        }
    }
    b->in_use = false;
    p->stats.in_use -= b->size;
    pthread_mutex_unlock(&p->lock);
    return PF_OK;
}

pf_status pf_pool_trim(pf_pool *p) {
    pfi_clear_error();
    if (p == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pool_trim: pool is NULL");
    if (p->opool != NULL) {
        pf_status st = BE(p)->opool_trim(p->dev->index, p->opool);
        if (st != PF_OK) return pfi_fail_in("pf_pool_trim", st);
        pthread_mutex_lock(&p->lock);
        opool_update_reserved(p);
        pthread_mutex_unlock(&p->lock);
        return PF_OK;
    }
    pthread_mutex_lock(&p->lock);
    for (int i = 0; i < p->nblocks;) {
        if (!p->blocks[i].in_use)
            release_block(p, i, true);
        else
            i++;
    }
    pthread_mutex_unlock(&p->lock);
    return PF_OK;
}

pf_status pf_pool_stats_get(pf_pool *p, pf_pool_stats *stats) {
    pfi_clear_error();
    if (p == NULL || stats == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_pool_stats_get: %s is NULL", p ? "stats" : "pool");
    pthread_mutex_lock(&p->lock);
    if (p->opool != NULL) opool_update_reserved(p);
    *stats = p->stats;
    pthread_mutex_unlock(&p->lock);
    return PF_OK;
}

void pf_pool_destroy(pf_pool *p) {
    if (p == NULL) return;
    pthread_mutex_lock(&p->lock);
    if (p->opool != NULL) {
        for (int i = 0; i < p->nblocks; i++) (void)BE(p)->opool_free(p->dev->index, p->opool, p->blocks[i].ptr, NULL);
        p->nblocks = 0;
        BE(p)->opool_destroy(p->dev->index, p->opool);
    }
    while (p->nblocks > 0) release_block(p, p->nblocks - 1, true);
    pthread_mutex_unlock(&p->lock);
    free(p->blocks);
    pthread_mutex_destroy(&p->lock);
    pf_device_close(p->dev);
    free(p);
}
