/*
 * pf_decode and friends: option checks, the output geometry (ROI, DCT
 * scale, orientation) shared by pf_decode_query and pf_decode, the decoder
 * object, and the dispatch to the format decoders.
 */
#include <stdlib.h>
#include <string.h>

#include "codec/codec_internal.h"
#include "core/error.h"

pf_decode_opts pf_decode_opts_defaults(void) {
    pf_decode_opts o;
    memset(&o, 0, sizeof o);
    o.pixel_format = PF_PIXEL_RGB;
    o.scale_num = 8;
    o.apply_orientation = false;
    o.max_pixels = PF_DECODE_DEFAULT_MAX_PIXELS;
    o.warnings_are_errors = false;
    return o;
}

pf_status pf_decoder_create(pf_decoder **out) {
    pfi_clear_error();
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_decoder_create: out is NULL");
    *out = calloc(1, sizeof **out);
    if (*out == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_decoder_create: out of memory");
    return PF_OK;
}

void pf_decoder_destroy(pf_decoder *dec) {
    if (dec == NULL) return;
    pfi_jpeg_state_destroy(dec->jpeg);
    pfi_buf_free(&dec->rows);
    pfi_buf_free(&dec->img);
    pfi_buf_free(&dec->full);
    pfi_buf_free(&dec->ptrs);
    free(dec);
}

static int32_t floor_scaled(int64_t v, int32_t m) { return (int32_t)(v * m / 8); }
static int32_t ceil_scaled(int64_t v, int32_t m) { return (int32_t)((v * m + 7) / 8); }

pf_status pfi_decode_geometry(const void *data, size_t size, const pf_decode_opts *o, pfi_decode_geom *g,
                              const char *op) {
    memset(g, 0, sizeof *g);
    if (data == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: data is NULL", op);
    if ((unsigned)o->pixel_format > (unsigned)PF_PIXEL_RGBA)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.pixel_format is %d; it must be a pf_pixel_format", op,
                        (int)o->pixel_format);
    if (o->scale_num < 1 || o->scale_num > 8)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.scale_num is %d; it must be 1..8 (eighths)", op,
                        (int)o->scale_num);
    pf_status st = pf_image_probe(data, size, &g->info);
    if (st != PF_OK) return st;
    const pf_image_info *in = &g->info;
    g->max_pixels = o->max_pixels ? o->max_pixels : PF_DECODE_DEFAULT_MAX_PIXELS;
    if ((uint64_t)in->width * (uint64_t)in->height > g->max_pixels)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: %s image is %dx%d pixels, over the limit of %llu (opts.max_pixels)",
                        op, pf_image_format_name(in->format), (int)in->width, (int)in->height,
                        (unsigned long long)g->max_pixels);
    int whole = o->roi_w <= 0 || o->roi_h <= 0;
    int32_t rx = whole ? 0 : o->roi_x, ry = whole ? 0 : o->roi_y;
    int32_t rw = whole ? in->width : o->roi_w, rh = whole ? in->height : o->roi_h;
    if (rx < 0 || ry < 0 || (int64_t)rx + rw > in->width || (int64_t)ry + rh > in->height)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.roi (%d,%d %dx%d) leaves the %dx%d image", op, (int)rx,
                        (int)ry, (int)rw, (int)rh, (int)in->width, (int)in->height);
    g->pix = o->pixel_format;
    g->out_channels = g->pix == PF_PIXEL_GRAY ? 1 : g->pix == PF_PIXEL_RGBA ? 4 : 3;
    int32_t m = in->format == PF_FORMAT_JPEG ? o->scale_num : 8;
    g->scale_num = m;
    g->sw = ceil_scaled(in->width, m);
    g->sh = ceil_scaled(in->height, m);
    g->x = floor_scaled(rx, m);
    g->y = floor_scaled(ry, m);
    int32_t x1 = ceil_scaled((int64_t)rx + rw, m), y1 = ceil_scaled((int64_t)ry + rh, m);
    g->w = (x1 < g->sw ? x1 : g->sw) - g->x;
    g->h = (y1 < g->sh ? y1 : g->sh) - g->y;
    g->orient = o->apply_orientation ? in->orientation : 1;
    g->strict = o->warnings_are_errors;
    if (o->row_margin < 0 || o->row_margin > PF_DECODE_MAX_ROW_MARGIN)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: opts.row_margin is %d; it must be 0..%d bytes", op,
                        (int)o->row_margin, PF_DECODE_MAX_ROW_MARGIN);
    g->row_margin = o->row_margin;
    return PF_OK;
}

static void fill_result(const pfi_decode_geom *g, pf_decode_result *r) {
    memset(r, 0, sizeof *r);
    r->format = g->info.format;
    int swap = g->orient >= 5;
    r->width = swap ? g->h : g->w;
    r->height = swap ? g->w : g->h;
    r->channels = g->out_channels;
    r->scale_num = g->scale_num;
    r->scaled_width = g->sw;
    r->scaled_height = g->sh;
    r->x = g->x;
    r->y = g->y;
    r->orientation = g->info.orientation;
}

pf_status pf_decode_query(const void *data, size_t size, const pf_decode_opts *opts, pf_decode_result *result) {
    pfi_clear_error();
    if (result == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_decode_query: result is NULL");
    pf_decode_opts d = pf_decode_opts_defaults();
    pfi_decode_geom g;
    pf_status st = pfi_decode_geometry(data, size, opts ? opts : &d, &g, "pf_decode_query");
    if (st != PF_OK) return st;
    fill_result(&g, result);
    return PF_OK;
}

pf_status pf_decode(pf_decoder *dec, const void *data, size_t size, const pf_decode_opts *opts, pf_image *dst,
                    pf_decode_result *result) {
    pfi_clear_error();
    pf_decode_opts d = pf_decode_opts_defaults();
    pfi_decode_geom g;
    pf_status st = pfi_decode_geometry(data, size, opts ? opts : &d, &g, "pf_decode");
    if (st != PF_OK) return st;
    pf_decode_result r;
    fill_result(&g, &r);
    if (dst == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_decode: dst is NULL");
    if ((st = pf_image_validate(dst, "dst")) != PF_OK) return st;
    if (dst->dtype != PF_U8 || dst->layout != PF_HWC || dst->mem != PF_MEM_HOST)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_decode: dst must be a u8 HWC host image (dst.dtype is %s)",
                        pf_dtype_name(dst->dtype));
    if (dst->width != r.width || dst->height != r.height || dst->channels != r.channels)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_decode: dst is %dx%d x%d; the decode gives %dx%d x%d "
                                                 "(see pf_decode_query)",
                        (int)dst->width, (int)dst->height, (int)dst->channels, (int)r.width, (int)r.height,
                        (int)r.channels);
    int64_t row_bytes = (int64_t)dst->width * dst->channels, stride = dst->row_stride;
    if (g.row_margin > 0 && (stride < 0 ? -stride : stride) < row_bytes + g.row_margin)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_decode: opts.row_margin is %d bytes but dst rows are %lld "
                                                 "bytes apart for %lld bytes of pixels: rows would overlap",
                        (int)g.row_margin, (long long)stride, (long long)row_bytes);
    pf_decoder *tmp = NULL;
    if (dec == NULL) {
        if ((st = pf_decoder_create(&tmp)) != PF_OK) return st;
        dec = tmp;
    }
    const unsigned char *bytes = data;
    int32_t warnings = 0;
    switch (g.info.format) {
    case PF_FORMAT_JPEG: st = pfi_jpeg_decode(dec, bytes, size, &g, dst, &warnings); break;
    case PF_FORMAT_PNG: st = pfi_png_decode(dec, bytes, size, &g, dst, &warnings); break;
    case PF_FORMAT_WEBP: st = pfi_webp_decode(dec, bytes, size, &g, dst); break;
    case PF_FORMAT_UNKNOWN: st = pfi_fail(PF_ERR_UNSUPPORTED, "pf_decode: unknown format"); break;
    }
    pf_decoder_destroy(tmp);
    r.warnings = warnings;
    if (result) *result = r;
    return st;
}
