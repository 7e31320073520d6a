/* pf_split / pf_merge (cv::split / cv::merge): argument checks; the CPU
 * backend runs them on the conversion engine (src/cpu/convert_cpu.c). */
#include "core/backend.h"
#include "core/error.h"
#include "core/image_util.h"
#include "ops/op_args.h"

/* Checks image `multi` (index mi) against its planes planes[0..cn). */
static pf_status check_sample(const char *op, int split, int mi, const pf_image *multi, int pi0,
                              const pf_image *planes, int cn) {
    const char *mname = split ? "src" : "dst", *pname = split ? "dst" : "src";
    pf_status st = pfi_check_view(op, mname, mi, multi, 1);
    if (st != PF_OK) return st;
    if (!split && multi->channels != cn)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst[%d].channels is %d but channels is %d", op, mi,
                        (int)multi->channels, cn);
    for (int c = 0; c < cn; c++) {
        const pf_image *p = &planes[c];
        int pi = pi0 + c;
        if ((st = pfi_check_view(op, pname, pi, p, 1)) != PF_OK) return st;
        if (p->channels != 1)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d].channels is %d; planes have 1 channel", op,
                            pname, pi, (int)p->channels);
        if (p->dtype != multi->dtype)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d].dtype is %s but %s[%d].dtype is %s", op,
                            pname, pi, pf_dtype_name(p->dtype), mname, mi, pf_dtype_name(multi->dtype));
        if ((st = pfi_check_size(op, mname, mi, multi, pname, pi, p)) != PF_OK) return st;
        /* A plane may be the multi-channel image itself only when cn == 1. */
        if (pfi_images_overlap(p, multi) &&
            (cn != 1 || p->data != multi->data || p->row_stride != multi->row_stride))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d] overlaps %s[%d]", op, pname, pi, mname, mi);
        for (int k = 0; split && k < c; k++)
            if (pfi_images_overlap(p, &planes[k]))
                return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: dst[%d] overlaps dst[%d]", op, pi, pi0 + k);
    }
    return PF_OK;
}

pf_status pf_split(pf_stream *stream, int count, const pf_image src[], pf_image dst[]) {
    pfi_clear_error();
    pf_status st = pfi_check_batch("pf_split", count, src, dst);
    if (st != PF_OK || count == 0) return st;
    int base = 0;
    for (int i = 0; i < count; i++) {
        /* channels must be known before the planes are indexed */
        if ((st = pfi_check_view("pf_split", "src", i, &src[i], 1)) != PF_OK) return st;
        if ((st = check_sample("pf_split", 1, i, &src[i], base, &dst[base], src[i].channels)) != PF_OK)
            return st;
        base += src[i].channels;
    }
    /* no device version: the views were checked to be host memory */
    return PFI_KERNEL(pfi_host_backend(), "pf_split", split, stream, count, src, dst);
}

pf_status pf_merge(pf_stream *stream, int count, int channels, const pf_image src[], pf_image dst[]) {
    pfi_clear_error();
    pf_status st = pfi_check_batch("pf_merge", count, src, dst);
    if (st != PF_OK) return st;
    if (channels < 1 || channels > 4)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_merge: channels is %d; it must be 1..4", channels);
    if (count == 0) return PF_OK;
    for (int i = 0; i < count; i++)
        if ((st = check_sample("pf_merge", 0, i, &dst[i], i * channels, &src[i * channels], channels)) != PF_OK)
            return st;
    return PFI_KERNEL(pfi_host_backend(), "pf_merge", merge, stream, count, channels, src, dst);
}
