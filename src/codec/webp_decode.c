/*
 * WebP decode through libwebp's one-shot API (WebPDecode{RGB,BGR,RGBA}Into,
 * what OpenCV's imgcodecs calls), straight into dst when the whole image
 * is wanted with a positive stride, else into scratch and copied (ROI,
 * orientation, gray). Gray is OpenCV's RGB2GRAY on the decoded RGB.
 */
#include <string.h>

#include <webp/decode.h>

#include "codec/codec_internal.h"
#include "core/error.h"

#define OP "pf_decode"

static int decode_into(pf_pixel_format pix, const unsigned char *d, size_t n, uint8_t *out, size_t bytes,
                       int stride) {
    switch (pix) {
    case PF_PIXEL_BGR: return WebPDecodeBGRInto(d, n, out, bytes, stride) != NULL;
    case PF_PIXEL_RGBA: return WebPDecodeRGBAInto(d, n, out, bytes, stride) != NULL;
    case PF_PIXEL_RGB:
    case PF_PIXEL_GRAY: break;
    }
    return WebPDecodeRGBInto(d, n, out, bytes, stride) != NULL;
}

pf_status pfi_webp_decode(pf_decoder *dec, const unsigned char *data, size_t size, const pfi_decode_geom *g,
                          const pf_image *dst) {
    int32_t W = g->sw, H = g->sh;
    if ((uint64_t)W * (uint64_t)H > g->max_pixels)
        return pfi_fail(PF_ERR_UNSUPPORTED, OP ": WebP is %dx%d pixels, over the limit of %llu", (int)W, (int)H,
                        (unsigned long long)g->max_pixels);
    int whole = g->x == 0 && g->y == 0 && g->w == W && g->h == H;
    if (whole && g->orient == 1 && g->pix != PF_PIXEL_GRAY && dst->row_stride > 0 && dst->row_stride <= 0x7fffffff) {
        size_t bytes = (size_t)dst->row_stride * (size_t)(H - 1) + (size_t)W * (size_t)g->out_channels;
        if (!decode_into(g->pix, data, size, dst->data, bytes, (int)dst->row_stride))
            return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": corrupt or truncated WebP (%zu bytes)", size);
        return PF_OK;
    }
    int fch = g->pix == PF_PIXEL_RGBA ? 4 : 3;
    size_t stride = (size_t)W * (size_t)fch;
    uint8_t *full = pfi_buf_reserve(&dec->full, stride * (size_t)H, OP);
    if (full == NULL) return PF_ERR_OUT_OF_MEMORY;
    pf_pixel_format fpix = g->pix == PF_PIXEL_GRAY ? PF_PIXEL_RGB : g->pix;
    if (!decode_into(fpix, data, size, full, stride * (size_t)H, (int)stride))
        return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": corrupt or truncated WebP (%zu bytes)", size);
    pf_image img = *dst;
    if (g->orient != 1) {
        uint8_t *p = pfi_buf_reserve(&dec->img, (size_t)g->w * (size_t)g->h * (size_t)g->out_channels, OP);
        if (p == NULL) return PF_ERR_OUT_OF_MEMORY;
        img = pf_image_hwc(p, g->w, g->h, g->out_channels, PF_U8, 0);
    }
    for (int32_t y = 0; y < g->h; y++) {
        const uint8_t *s = full + (size_t)(g->y + y) * stride + (size_t)g->x * (size_t)fch;
        if (g->pix == PF_PIXEL_GRAY) {
            uint8_t *o = pfi_row(&img, y);
            for (int32_t x = 0; x < g->w; x++, s += 3) o[x] = pfi_gray_cvt(s[0], s[1], s[2]);
        } else memcpy(pfi_row(&img, y), s, (size_t)g->w * (size_t)fch);
    }
    if (g->orient != 1) pfi_orient_copy(img.data, img.row_stride, g->w, g->h, g->out_channels, g->orient, dst);
    return PF_OK;
}
