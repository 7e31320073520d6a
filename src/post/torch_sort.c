/* torch's CPU tensor.sort(descending=True) order, equal keys included.
 *
 * torch sorts a contiguous 1-D float tensor (stable=False) with std::sort
 * over (value, index) pairs, and the x86-64 wheels are built with GCC, so
 * the order of equal scores is whatever libstdc++'s introsort leaves:
 * median-of-three quicksort down to runs of 16, a heapsort below
 * 2 * floor(log2(n)) levels, then one insertion pass. Nothing about that
 * order is specified; torchvision.ops.batched_nms's per-class path
 * (_batched_nms_vanilla) returns it, so reproducing it means running the
 * same steps with the same comparisons, which is what this file does (on
 * keys ascending = scores descending, see pfk_score_key_desc). It is
 * checked against the real torch in tests/python/test_post_nms.py. */
#include "post/post_sort.h"

#define RUN 16 /* libstdc++'s _S_threshold */

typedef struct kv_array {
    uint32_t *k;
    int32_t *v;
} kv_array;

static void swap_at(kv_array a, int32_t i, int32_t j) {
    uint32_t tk = a.k[i];
    int32_t tv = a.v[i];
    a.k[i] = a.k[j];
    a.v[i] = a.v[j];
    a.k[j] = tk;
    a.v[j] = tv;
}

static void move_to(kv_array a, int32_t dst, int32_t src) {
    a.k[dst] = a.k[src];
    a.v[dst] = a.v[src];
}

/* The median of the keys at x, y, z swapped into `to`; on equal keys the
 * same one libstdc++'s __move_median_to_first picks. */
static void median_to(kv_array a, int32_t to, int32_t x, int32_t y, int32_t z) {
    const uint32_t *k = a.k;
    int32_t m;
    if (k[x] < k[y]) m = k[y] < k[z] ? y : k[x] < k[z] ? z : x;
    else m = k[x] < k[z] ? x : k[y] < k[z] ? z : y;
    swap_at(a, to, m);
}

/* Hoare partition of [lo, hi) around the key at `pivot` (outside the
 * range, before it): both scans stop on keys equal to the pivot, so equal
 * keys are swapped across; returns the first position of the right part. */
static int32_t partition(kv_array a, int32_t lo, int32_t hi, int32_t pivot) {
    const uint32_t *k = a.k;
    uint32_t p = k[pivot];
    for (;;) {
        while (k[lo] < p) lo++;
        hi--;
        while (p < k[hi]) hi--;
        if (!(lo < hi)) return lo;
        swap_at(a, lo, hi);
        lo++;
    }
}

/* Sifts the hole at `hole` of the heap [base, base + len) down to a leaf
 * along the larger children, then the held element (key hk, value hv) up
 * from there: libstdc++'s __adjust_heap + __push_heap. */
static void sift(kv_array a, int32_t base, int32_t hole, int32_t len, uint32_t hk, int32_t hv) {
    const int32_t top = hole;
    int32_t child = hole;
    while (child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (a.k[base + child] < a.k[base + child - 1]) child--;
        move_to(a, base + hole, base + child);
        hole = child;
    }
    if ((len & 1) == 0 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        move_to(a, base + hole, base + child - 1);
        hole = child - 1;
    }
    int32_t parent = (hole - 1) / 2;
    while (hole > top && a.k[base + parent] < hk) {
        move_to(a, base + hole, base + parent);
        hole = parent;
        parent = (hole - 1) / 2;
    }
    a.k[base + hole] = hk;
    a.v[base + hole] = hv;
}

/* The depth-limit fallback: make a max-heap of [lo, hi), then pop it. */
static void heap_sort(kv_array a, int32_t lo, int32_t hi) {
    int32_t len = hi - lo;
    if (len >= 2)
        for (int32_t parent = (len - 2) / 2;; parent--) {
            sift(a, lo, parent, len, a.k[lo + parent], a.v[lo + parent]);
            if (parent == 0) break;
        }
    while (hi - lo > 1) {
        hi--;
        uint32_t hk = a.k[hi];
        int32_t hv = a.v[hi];
        move_to(a, hi, lo);
        sift(a, lo, 0, hi - lo, hk, hv);
    }
}

static void intro_loop(kv_array a, int32_t lo, int32_t hi, int depth) {
    while (hi - lo > RUN) {
        if (depth == 0) {
            heap_sort(a, lo, hi);
            return;
        }
        depth--;
        median_to(a, lo, lo + 1, lo + (hi - lo) / 2, hi - 1);
        int32_t cut = partition(a, lo + 1, hi, lo);
        intro_loop(a, cut, hi, depth); /* the right part recursively, the left part in this loop */
        hi = cut;
    }
}

void pfi_torch_sort(uint32_t *keys, int32_t *vals, int32_t n) {
    if (n < 2) return;
    kv_array a = {keys, vals};
    int lg = 0;
    while ((n >> (lg + 1)) != 0) lg++;
    intro_loop(a, 0, n, 2 * lg);
    /* libstdc++'s final pass: guarded insertion over the first run, then
     * unguarded insertion (the minimum is in the first run); a guarded
     * insertion everywhere moves the same elements */
    for (int32_t i = 1; i < n; i++) {
        uint32_t kk = keys[i];
        int32_t vv = vals[i], j = i - 1;
        while (j >= 0 && kk < keys[j]) {
            keys[j + 1] = keys[j];
            vals[j + 1] = vals[j];
            j--;
        }
        keys[j + 1] = kk;
        vals[j + 1] = vv;
    }
}
