/* pf_lut: defaults and argument checks; the CPU backend runs it
 * (src/cpu/lut_cpu.c). */
#include "core/backend.h"
#include "core/error.h"
#include "core/image_util.h"
#include "ops/op_args.h"
#include "pixflow/ops.h"

pf_lut_opts pf_lut_opts_defaults(void) {
    pf_lut_opts o;
    o.table_channels = 1;
    o.per_sample = 0;
    return o;
}

static pf_status check_pair(int i, const pf_image *s, const pf_image *d, const pf_lut_opts *o) {
    pf_status st = pfi_check_pair("pf_lut", i, s, d, 1);
    if (st != PF_OK) return st;
    if (s->dtype != PF_U8 || d->dtype != PF_U8)
        return pfi_fail(PF_ERR_UNSUPPORTED, "pf_lut: %s[%d].dtype is %s; pf_lut maps u8 to u8",
                        s->dtype != PF_U8 ? "src" : "dst", i,
                        pf_dtype_name(s->dtype != PF_U8 ? s->dtype : d->dtype));
    if (s->width != d->width || s->height != d->height || s->channels != d->channels)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_lut: dst[%d] is %dx%dx%d but src[%d] is %dx%dx%d", i,
                        (int)d->width, (int)d->height, (int)d->channels, i, (int)s->width,
                        (int)s->height, (int)s->channels);
    if (s->channels > 1 && s->layout != d->layout)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_lut: src[%d] and dst[%d] differ in layout; convert with pf_reformat", i, i);
    if (o->table_channels != 1 && o->table_channels != s->channels)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_lut: opts->table_channels is %d but src[%d] has %d channels; use 1 or %d",
                        o->table_channels, i, (int)s->channels, (int)s->channels);
    /* In place is fine (each byte is read before it is written, by the same
     * kernel call); any other overlap would read already-mapped bytes. */
    int same = s->data == d->data && s->row_stride == d->row_stride &&
               (s->channels == 1 || s->layout == PF_HWC || s->plane_stride == d->plane_stride);
    if (!same && pfi_images_overlap(s, d))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "pf_lut: src[%d] and dst[%d] overlap without being the same view", i, i);
    return PF_OK;
}

pf_status pf_lut(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                 const uint8_t *tables, const pf_lut_opts *opts) {
    pfi_clear_error();
    pf_status cst = pfi_check_batch("pf_lut", count, src, dst);
    if (cst != PF_OK || count <= 0) return cst;
    if (tables == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_lut: tables is NULL");
    pf_lut_opts o = opts ? *opts : pf_lut_opts_defaults();
    if (o.table_channels < 1 || o.table_channels > 4)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_lut: opts->table_channels is %d; it must be 1..4",
                        o.table_channels);
    if (o.per_sample != 0 && o.per_sample != 1)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_lut: opts->per_sample is %d; it must be 0 or 1",
                        o.per_sample);
    for (int i = 0; i < count; i++) {
        pf_status st = check_pair(i, &src[i], &dst[i], &o);
        if (st != PF_OK) return st;
    }
    /* no device version: the views were checked to be host memory */
    return PFI_KERNEL(pfi_host_backend(), "pf_lut", lut, stream, count, src, dst, tables, &o);
}
