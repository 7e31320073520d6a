/* Common argument checks of the batch ops (see op_check.h). */
#include <stdio.h>

#include "core/error.h"
#include "cpu/op_check.h"

pf_status pfi_check_batch(const char *op, int count, const void *src, const void *dst) {
    if (count < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: count is %d; it must be >= 0", op, count);
    if (count > 0 && src == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src is NULL with count %d", op, count);
    if (count > 0 && dst == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst is NULL with count %d", op, count);
    return PF_OK;
}

pf_status pfi_check_params(const char *op, const char *name, const void *params, int n, int count) {
    if (params == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, name);
    if (n != 1 && n != count)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: n%s is %d; it must be 1 or count (%d)", op, name, n, count);
    return PF_OK;
}

pf_status pfi_check_host_pair(const char *op, int i, const pf_image *s, const pf_image *d) {
    char name[64];
    snprintf(name, sizeof name, "%s: src[%d]", op, i);
    pf_status st = pf_image_validate(s, name);
    if (st != PF_OK) return st;
    snprintf(name, sizeof name, "%s: dst[%d]", op, i);
    if ((st = pf_image_validate(d, name)) != PF_OK) return st;
    if (s->mem != PF_MEM_HOST || d->mem != PF_MEM_HOST)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: %s[%d] is device memory; the CPU path needs host views", op,
                        s->mem != PF_MEM_HOST ? "src" : "dst", i);
    return PF_OK;
}
