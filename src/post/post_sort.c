/* LSD radix sort: three passes of 11 bits. A pass whose digit is the same
 * for every key moves nothing and is skipped (class ids, small score
 * ranges); short arrays use insertion sort, which is stable too. */
#include "post/post_sort.h"

#include <string.h>

#define RADIX_BITS 11
#define RADIX_SIZE (1 << RADIX_BITS)

static void insertion(uint32_t *k, int32_t *v, int32_t n) {
    for (int32_t i = 1; i < n; i++) {
        uint32_t kk = k[i];
        int32_t vv = v[i], j = i - 1;
        while (j >= 0 && k[j] > kk) {
            k[j + 1] = k[j];
            v[j + 1] = v[j];
            j--;
        }
        k[j + 1] = kk;
        v[j + 1] = vv;
    }
}

void pfi_radix_sort(uint32_t *keys, int32_t *vals, uint32_t *tk, int32_t *tv, int32_t n) {
    if (n < 64) {
        insertion(keys, vals, n);
        return;
    }
    static const int shifts[3] = {0, 11, 22};
    uint32_t *src_k = keys, *dst_k = tk;
    int32_t *src_v = vals, *dst_v = tv;
    for (int p = 0; p < 3; p++) {
        uint32_t count[RADIX_SIZE];
        memset(count, 0, sizeof count);
        int sh = shifts[p];
        for (int32_t i = 0; i < n; i++) count[(src_k[i] >> sh) & (RADIX_SIZE - 1)]++;
        if (count[(src_k[0] >> sh) & (RADIX_SIZE - 1)] == (uint32_t)n) continue; /* constant digit */
        uint32_t sum = 0;
        for (int d = 0; d < RADIX_SIZE; d++) {
            uint32_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (int32_t i = 0; i < n; i++) {
            uint32_t d = (src_k[i] >> sh) & (RADIX_SIZE - 1);
            uint32_t at = count[d]++;
            dst_k[at] = src_k[i];
            dst_v[at] = src_v[i];
        }
        uint32_t *sk = src_k;
        src_k = dst_k;
        dst_k = sk;
        int32_t *sv = src_v;
        src_v = dst_v;
        dst_v = sv;
    }
    if (src_k != keys) {
        memcpy(keys, src_k, (size_t)n * sizeof *keys);
        memcpy(vals, src_v, (size_t)n * sizeof *vals);
    }
}
