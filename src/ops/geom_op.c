/* pf_flip, pf_rotate, pf_transpose: argument checks; pf_flip routes to the
 * backend (CPU: src/cpu/geom_cpu.c, CUDA: src/cuda/pointwise_cuda.c), the
 * others run on the CPU. */
#include "core/backend.h"
#include "core/error.h"
#include "ops/op_args.h"
#include "pixflow/ops.h"

/* Validates one pair (host: in host memory, for the ops only the CPU has);
 * `turn` means dst is src's transpose in shape. */
static pf_status check_pair(const char *op, int i, const pf_image *s, const pf_image *d, int turn, int host) {
    pf_status st = pfi_check_pair(op, i, s, d, host);
    if (st != PF_OK) return st;
    if ((st = pfi_check_format(op, i, s, d)) != PF_OK) return st;
    int32_t ww = turn ? s->height : s->width, wh = turn ? s->width : s->height;
    if (d->width != ww || d->height != wh)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst[%d] is %dx%d; it must be %dx%d for src[%d] (%dx%d)", op,
                        i, (int)d->width, (int)d->height, (int)ww, (int)wh, i, (int)s->width,
                        (int)s->height);
    return pfi_check_no_overlap(op, i, s, d);
}

static pf_status check_flip_code(const pf_flip_code codes[], int ncodes, int i) {
    pf_flip_code c = codes[ncodes == 1 ? 0 : i];
    if (c != PF_FLIP_BOTH && c != PF_FLIP_VERTICAL && c != PF_FLIP_HORIZONTAL && c != PF_FLIP_NONE)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_flip: codes[%d] is %d; use PF_FLIP_BOTH(-1), VERTICAL(0), HORIZONTAL(1) or NONE(2)",
                        ncodes == 1 ? 0 : i, (int)c);
    return PF_OK;
}

pf_status pf_flip(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                  const pf_flip_code codes[], int ncodes) {
    pfi_clear_error();
    pf_status st = pfi_check_batch("pf_flip", count, src, dst);
    if (st != PF_OK || count <= 0) return st;
    if ((st = pfi_check_params("pf_flip", "codes", codes, ncodes, count)) != PF_OK) return st;
    const pfi_backend *be;
    pf_stream *ds;
    if ((st = pfi_route_images("pf_flip", stream, count, src, dst, &be, &ds)) != PF_OK) return st;
    for (int i = 0; i < count; i++) {
        if ((st = check_flip_code(codes, ncodes, i)) != PF_OK) return st;
        if ((st = check_pair("pf_flip", i, &src[i], &dst[i], 0, 0)) != PF_OK) return st;
    }
    return PFI_KERNEL(be, "pf_flip", flip, ds, count, src, dst, codes, ncodes);
}

pf_status pf_rotate(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                    const pf_rotate_code codes[], int ncodes) {
    pfi_clear_error();
    pf_status st = pfi_check_batch("pf_rotate", count, src, dst);
    if (st != PF_OK || count <= 0) return st;
    if ((st = pfi_check_params("pf_rotate", "codes", codes, ncodes, count)) != PF_OK) return st;
    for (int i = 0; i < count; i++) {
        pf_rotate_code c = codes[ncodes == 1 ? 0 : i];
        if (c != PF_ROTATE_90_CLOCKWISE && c != PF_ROTATE_90_COUNTERCLOCKWISE && c != PF_ROTATE_180 &&
            c != PF_ROTATE_NONE)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                            "pf_rotate: codes[%d] is %d; use 90_CLOCKWISE(0), 180(1), 90_COUNTERCLOCKWISE(2) or "
                            "NONE(3)",
                            ncodes == 1 ? 0 : i, (int)c);
        int turn = c == PF_ROTATE_90_CLOCKWISE || c == PF_ROTATE_90_COUNTERCLOCKWISE;
        if ((st = check_pair("pf_rotate", i, &src[i], &dst[i], turn, 1)) != PF_OK) return st;
    }
    /* no device version: the views were checked to be host memory */
    return PFI_KERNEL(pfi_host_backend(), "pf_rotate", rotate, stream, count, src, dst, codes, ncodes);
}

pf_status pf_transpose(pf_stream *stream, int count, const pf_image src[], pf_image dst[]) {
    pfi_clear_error();
    pf_status st = pfi_check_batch("pf_transpose", count, src, dst);
    if (st != PF_OK || count <= 0) return st;
    for (int i = 0; i < count; i++)
        if ((st = check_pair("pf_transpose", i, &src[i], &dst[i], 1, 1)) != PF_OK) return st;
    return PFI_KERNEL(pfi_host_backend(), "pf_transpose", transpose, stream, count, src, dst);
}
