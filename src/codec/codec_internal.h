/*
 * Codec internals: the decoder object (reusable libjpeg state + growable
 * scratch), the output geometry shared by pf_decode_query and pf_decode,
 * and the per-format entry points. Depends on core/ only.
 */
#ifndef PF_CODEC_INTERNAL_H
#define PF_CODEC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "pixflow/codec.h"

/* A buffer that only grows (bounded by the pixel limit of what it holds). */
typedef struct pfi_buf {
    unsigned char *p;
    size_t cap;
} pfi_buf;

/* Returns NULL (after pfi_fail OUT_OF_MEMORY naming op) when it cannot grow. */
unsigned char *pfi_buf_reserve(pfi_buf *b, size_t bytes, const char *op);
void pfi_buf_free(pfi_buf *b);

struct pfi_jpeg_state; /* jpeg_decode.c */

struct pf_decoder {
    struct pfi_jpeg_state *jpeg; /* created on first JPEG, reused after */
    pfi_buf rows;                /* one or a few scanlines */
    pfi_buf img;                 /* a decoded ROI before orientation */
    pfi_buf full;                /* PNG/WebP whole image when a copy is needed */
    pfi_buf ptrs;                /* PNG row pointers */
};

/* What a decode call produces, derived from the probe and the options. */
typedef struct pfi_decode_geom {
    pf_image_info info;
    pf_pixel_format pix;
    int32_t out_channels;
    int32_t scale_num;           /* 8 unless JPEG with scaling */
    int32_t sw, sh;              /* scaled image size */
    int32_t x, y, w, h;          /* ROI in the scaled image (before orientation) */
    int32_t orient;              /* orientation to apply (1: none) */
    uint64_t max_pixels;
    int32_t row_margin;          /* opts.row_margin, checked against dst in pf_decode */
    bool strict;
} pfi_decode_geom;

/* Probes and checks the options; fills g. op names the caller. */
pf_status pfi_decode_geometry(const void *data, size_t size, const pf_decode_opts *o, pfi_decode_geom *g,
                              const char *op);

/* Format decoders: write the ROI (g->x, y, w, h of the scaled image,
 * before orientation) into dst (w x h, out_channels, u8 HWC). */
pf_status pfi_jpeg_decode(pf_decoder *dec, const unsigned char *data, size_t size, const pfi_decode_geom *g,
                          const pf_image *dst, int32_t *warnings);
pf_status pfi_png_decode(pf_decoder *dec, const unsigned char *data, size_t size, const pfi_decode_geom *g,
                         const pf_image *dst, int32_t *warnings);
pf_status pfi_webp_decode(pf_decoder *dec, const unsigned char *data, size_t size, const pfi_decode_geom *g,
                          const pf_image *dst);
void pfi_jpeg_state_destroy(struct pfi_jpeg_state *s);

/* Header probes (probe.c, exif.c). */
pf_status pfi_probe_jpeg(const unsigned char *d, size_t n, pf_image_info *info);
pf_status pfi_probe_png(const unsigned char *d, size_t n, pf_image_info *info);
pf_status pfi_probe_webp(const unsigned char *d, size_t n, pf_image_info *info);
/* EXIF orientation from an APP1 payload ("Exif\0\0" + TIFF); 1 when
 * absent, malformed or out of range. */
int32_t pfi_exif_orientation(const unsigned char *p, size_t n);

/* Pixel helpers (pixels.c). */
/* Two OpenCV gray formulas, both matched by parity_decode: imgcodecs'
 * own (CMYK JPEG -> gray, 14-bit weights) and cvtColor's RGB2GRAY (what
 * OpenCV's WebP reader calls; 15-bit weights, as src/kernels/color_math.h,
 * which the codec room may not include). */
static inline uint8_t pfi_gray_of(unsigned r, unsigned g, unsigned b) {
    return (uint8_t)((r * 4899u + g * 9617u + b * 1868u + 8192u) >> 14);
}
static inline uint8_t pfi_gray_cvt(unsigned r, unsigned g, unsigned b) {
    return (uint8_t)((r * 9798u + g * 19235u + b * 3735u + 16384u) >> 15);
}
/* One row of 3/4-channel RGB-ordered pixels (src_ch 3 or 4, alpha ignored)
 * into the requested pixel format. */
void pfi_rgb_row_to(pf_pixel_format pix, const uint8_t *src, int src_ch, int32_t w, uint8_t *dst);
/* Adobe (inverted) CMYK row -> RGB row, OpenCV's imgcodecs formula. */
void pfi_cmyk_row_to_rgb(const uint8_t *src, int32_t w, uint8_t *dst);
/* dst (oriented) <- src (w x h, ch channels) under EXIF orientation o. */
void pfi_orient_copy(const uint8_t *src, ptrdiff_t src_stride, int32_t w, int32_t h, int ch, int32_t o,
                     const pf_image *dst);
/* Row pointer of a validated u8 view. */
static inline uint8_t *pfi_row(const pf_image *im, int32_t y) {
    return (uint8_t *)im->data + (ptrdiff_t)y * im->row_stride;
}

#endif
