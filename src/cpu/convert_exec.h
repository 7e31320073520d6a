/*
 * Conversion engine execution: a batch of samples, each a list of dst
 * channels with the src (image, channel) each reads and the dst (image,
 * channel) each writes, run row-parallel with the fastest row kernel the
 * dispatch level has for the row's shape (reference on the rest).
 */
#ifndef PF_CPU_CONVERT_EXEC_H
#define PF_CPU_CONVERT_EXEC_H

#include "dispatch/kfamily.h"
#include "ops/convert_args.h"
#include "ref/convert_rows.h"

enum {
    PFI_CVT_U8_F32 = 0,    /* 1 channel (or flattened HWC), step 1 */
    PFI_CVT_F32_U8,
    PFI_CVT_F32_F16,
    PFI_CVT_F16_F32,
    PFI_NORM_U8C3_F32_CHW, /* u8 HWC 3 channels -> 3 f32 planes, any channel order */
    PFI_NORM_U8C3_F16_CHW,
    PFI_FMT_U8C3_HWC_CHW,  /* deinterleave (HWC -> CHW, split) */
    PFI_FMT_U8C3_CHW_HWC,  /* interleave (CHW -> HWC, merge) */
    PFI_FMT_U8C4_HWC_CHW,  /* the same for 4 channels */
    PFI_FMT_U8C4_CHW_HWC,
    PFI_NORM_U8C3_F32_HWC, /* u8 HWC 3 channels -> f32 HWC (any channel order) */
    PFI_NORM_U8C3_F16_HWC,
    PFI_NORM_F32C3_F32_CHW, /* f32 HWC 3 channels -> 3 f32 planes */
    PFI_NORM_F32C3_F16_CHW,
    PFI_CVT_SLOTS
};

/* One kernel per row shape, indexed by the enum above. */
typedef struct pfi_convert_kernels {
    pfi_cvt_fast_fn row[PFI_CVT_SLOTS];
} pfi_convert_kernels;

extern pfi_kfamily pfi_convert_family;

void pfi_convert_fill_avx2(pfi_convert_kernels *k);
void pfi_convert_fill_avx512(pfi_convert_kernels *k);
void pfi_convert_fill_avx512vbmi(pfi_convert_kernels *k); /* the avx512vbmi level: avx512 + these */

/* The reference behind every slot that an ISA does not accelerate. */
void pfi_cvt_fast_ref(const pfi_cvt_row *r, const pfi_cvt_xform *x, int32_t n);

/* Runs all samples on the stream's threads; never fails (arguments were
 * validated and the job needs no memory beyond `rows` scratch). Returns
 * PF_ERR_OUT_OF_MEMORY (with a message naming `op`) only if that fails. */
pf_status pfi_cvt_run(pf_stream *stream, const char *op, int count, const pfi_cvt_sample *samples);

#endif
