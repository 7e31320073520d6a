/* Shared by the fuzz targets: decode one input with options derived from
 * its bytes (so the fuzzer explores ROI, DCT scale, pixel formats and
 * orientation, in-place rows too), checking only that the call returns (any status) and,
 * on success, that the sizes are consistent. Sanitizers find the rest. */
#ifndef PF_FUZZ_COMMON_H
#define PF_FUZZ_COMMON_H

#include <stdint.h>
#include <stdlib.h>

#include "pixflow/codec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline uint32_t pff_hash(const uint8_t *d, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n && i < 64; i++) h = (h ^ d[i]) * 16777619u;
    return h ^ (uint32_t)n;
}

/* Decodes with fuzz-chosen options when the probe says `want` (or any
 * format for PF_FORMAT_UNKNOWN). */
static inline void pff_decode(const uint8_t *data, size_t size, pf_image_format want) {
    pf_image_info info;
    if (pf_image_probe(data, size, &info) != PF_OK) return;
    if (want != PF_FORMAT_UNKNOWN && info.format != want) return;
    uint32_t h = pff_hash(data, size);
    pf_decode_opts o = pf_decode_opts_defaults();
    o.max_pixels = 1u << 22; /* keep single inputs fast */
    o.pixel_format = (pf_pixel_format)(h % 4);
    o.scale_num = (int32_t)(1 + (h >> 2) % 8);
    o.apply_orientation = (h >> 5) & 1;
    o.warnings_are_errors = (h >> 6) & 1;
    if ((h >> 7) & 1) {
        o.roi_x = (int32_t)((h >> 8) % (uint32_t)info.width);
        o.roi_y = (int32_t)((h >> 12) % (uint32_t)info.height);
        o.roi_w = 1 + (int32_t)((h >> 16) % (uint32_t)(info.width - o.roi_x));
        o.roi_h = 1 + (int32_t)((h >> 20) % (uint32_t)(info.height - o.roi_y));
    }
    /* in-place rows: the buffer holds exactly the margins, so a write past
     * them is a heap overflow the sanitizer reports */
    o.row_margin = (h >> 24) & 1 ? 128 : 0;
    pf_decode_result r;
    if (pf_decode_query(data, size, &o, &r) != PF_OK) return;
    size_t m = (size_t)o.row_margin, stride = (size_t)r.width * (size_t)r.channels + m;
    uint8_t *px = malloc(stride * (size_t)r.height + 2 * m);
    if (px == NULL) return;
    pf_image dst = pf_image_hwc(px + m, r.width, r.height, r.channels, PF_U8, (ptrdiff_t)stride);
    pf_decode_result got;
    if (pf_decode(NULL, data, size, &o, &dst, &got) == PF_OK &&
        (got.width != r.width || got.height != r.height || got.channels != r.channels))
        abort();
    free(px);
}

#endif
