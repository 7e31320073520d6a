/* Binary PPM (P6) / PGM (P5) with maxval 255: the dependency-free format
 * the pipeline's tests and synthetic datasets use. */
#ifndef PF_PIPELINE_PNM_H
#define PF_PIPELINE_PNM_H

#include <stddef.h>
#include <stdint.h>

#include "pixflow/core.h"

/* 1 when the bytes start like a JPEG, PNG or WebP file (the codec's
 * formats; the pipeline's sample functions send those to pf_decode*). */
int pli_is_codec_format(const void *data, size_t size);

/* Parses the header: size, channels (3 for P6, 1 for P5) and where the
 * pixels start. PF_ERR_CORRUPT_DATA with a message when malformed or
 * truncated; PF_ERR_UNSUPPORTED naming the first bytes when the data is
 * none of the formats the pipeline decodes. */
pf_status pli_pnm_header(const void *data, size_t size, int32_t *width, int32_t *height,
                         int32_t *channels, size_t *pixel_offset);

#endif
