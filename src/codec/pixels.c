/*
 * Small pixel helpers shared by the format decoders: scratch buffers,
 * RGB -> requested pixel format, Adobe CMYK -> RGB, and the EXIF
 * orientation copy (a general strided walk: orientation is rare and the
 * copy is a small part of a decode).
 */
#include <stdlib.h>
#include <string.h>

#include "codec/codec_internal.h"
#include "core/error.h"

unsigned char *pfi_buf_reserve(pfi_buf *b, size_t bytes, const char *op) {
    if (bytes <= b->cap) return b->p;
    unsigned char *p = realloc(b->p, bytes);
    if (p == NULL) {
        pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %zu bytes of decode scratch", op, bytes);
        return NULL;
    }
    b->p = p;
    b->cap = bytes;
    return p;
}

void pfi_buf_free(pfi_buf *b) {
    free(b->p);
    b->p = NULL;
    b->cap = 0;
}

void pfi_rgb_row_to(pf_pixel_format pix, const uint8_t *src, int src_ch, int32_t w, uint8_t *dst) {
    for (int32_t x = 0; x < w; x++, src += src_ch) {
        uint8_t r = src[0], g = src[1], b = src[2];
        switch (pix) {
        case PF_PIXEL_RGB: dst[0] = r; dst[1] = g; dst[2] = b; dst += 3; break;
        case PF_PIXEL_BGR: dst[0] = b; dst[1] = g; dst[2] = r; dst += 3; break;
        case PF_PIXEL_RGBA: dst[0] = r; dst[1] = g; dst[2] = b; dst[3] = src_ch == 4 ? src[3] : 255; dst += 4; break;
        case PF_PIXEL_GRAY: *dst++ = pfi_gray_of(r, g, b); break;
        }
    }
}

/* libjpeg hands Adobe CMYK as stored: inverted (255 = no ink). OpenCV's
 * imgcodecs maps each of C, M, Y with k - ((255 - v) * k >> 8); the same
 * integer formula here keeps pf_decode equal to cv::imdecode. */
void pfi_cmyk_row_to_rgb(const uint8_t *src, int32_t w, uint8_t *dst) {
    for (int32_t x = 0; x < w; x++, src += 4, dst += 3) {
        int k = src[3];
        for (int c = 0; c < 3; c++) dst[c] = (uint8_t)(k - (((255 - src[c]) * k) >> 8));
    }
}

void pfi_orient_copy(const uint8_t *src, ptrdiff_t stride, int32_t w, int32_t h, int ch, int32_t o,
                     const pf_image *dst) {
    /* source address of output pixel (x, y) = base + x * sx + y * sy */
    ptrdiff_t c = ch, sx, sy;
    const uint8_t *base;
    switch (o) {
    case 2: base = src + (w - 1) * c; sx = -c; sy = stride; break;                        /* mirror */
    case 3: base = src + (h - 1) * stride + (w - 1) * c; sx = -c; sy = -stride; break;    /* 180 */
    case 4: base = src + (h - 1) * stride; sx = c; sy = -stride; break;                   /* flip */
    case 5: base = src; sx = stride; sy = c; break;                                        /* transpose */
    case 6: base = src + (h - 1) * stride; sx = -stride; sy = c; break;                   /* 90 CW */
    case 7: base = src + (h - 1) * stride + (w - 1) * c; sx = -stride; sy = -c; break;    /* transverse */
    case 8: base = src + (w - 1) * c; sx = stride; sy = -c; break;                        /* 90 CCW */
    default: base = src; sx = c; sy = stride; break;
    }
    for (int32_t y = 0; y < dst->height; y++) {
        uint8_t *d = pfi_row(dst, y);
        const uint8_t *s = base + y * sy;
        for (int32_t x = 0; x < dst->width; x++, s += sx, d += c) memcpy(d, s, (size_t)c);
    }
}
