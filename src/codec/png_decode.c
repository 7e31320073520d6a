/*
 * PNG decode through libpng's classic API with the transforms OpenCV's
 * imgcodecs sets (strip 16 -> 8 by the high byte, strip or expand alpha,
 * palette -> RGB, gray 1/2/4 -> 8, gray -> RGB, libpng's RGB -> gray with
 * weights 0.299 / 0.587), so the output equals cv::imdecode. Non-
 * interlaced images are read row by row (stopping after the ROI's last
 * row, straight into dst when the ROI spans whole rows); interlaced ones
 * need the whole image in scratch first.
 *
 * libpng reports errors by longjmp to the setjmp in pfi_png_decode (a
 * pixflow frame); the png/info structs live in the job (memory, not
 * registers) and are destroyed on both paths.
 */
#include <png.h>
#include <stdio.h>
#include <string.h>

#include "codec/codec_internal.h"
#include "core/error.h"

#define OP "pf_decode"

typedef struct png_job {
    pf_decoder *dec;
    const unsigned char *data;
    size_t size, pos;
    const pfi_decode_geom *g;
    const pf_image *dst;
    png_structp png;
    png_infop info;
    pf_status status;
    int warnings, truncated;
    char msg[200];
} png_job;

static void read_fn(png_structp png, png_bytep out, size_t n) {
    png_job *j = png_get_io_ptr(png);
    if (j->size - j->pos < n) {
        j->truncated = 1;
        png_error(png, "data ends in the middle of a chunk");
    }
    memcpy(out, j->data + j->pos, n);
    j->pos += n;
}

static void error_fn(png_structp png, png_const_charp msg) {
    png_job *j = png_get_error_ptr(png);
    snprintf(j->msg, sizeof j->msg, "%s", msg);
    png_longjmp(png, 1);
}

static void warning_fn(png_structp png, png_const_charp msg) {
    png_job *j = png_get_error_ptr(png);
    if (j->warnings++ == 0) snprintf(j->msg, sizeof j->msg, "%s", msg);
}

/* OpenCV's PngDecoder::readData transform set, for our pixel formats. */
static void set_transforms(png_job *j, int depth, int ct) {
    png_structp png = j->png;
    pf_pixel_format pix = j->g->pix;
    if (depth == 16) png_set_strip_16(png);
    if (pix == PF_PIXEL_RGBA) png_set_tRNS_to_alpha(png);
    else png_set_strip_alpha(png);
    if (ct == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if ((ct & PNG_COLOR_MASK_COLOR) == 0 && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (pix == PF_PIXEL_GRAY) {
        if (ct & PNG_COLOR_MASK_COLOR) png_set_rgb_to_gray_fixed(png, PNG_ERROR_ACTION_NONE, 29900, 58700);
    } else {
        if ((ct & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
        if (pix == PF_PIXEL_BGR) png_set_bgr(png);
        if (pix == PF_PIXEL_RGBA && !(ct & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, j->info, PNG_INFO_tRNS))
            png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, j->info);
}

static void body(png_job *j) {
    const pfi_decode_geom *g = j->g;
    png_set_read_fn(j->png, j, read_fn);
    png_read_info(j->png, j->info);
    png_uint_32 w, h;
    int depth, ct, il;
    png_get_IHDR(j->png, j->info, &w, &h, &depth, &ct, &il, NULL, NULL);
    if ((uint64_t)w * h > g->max_pixels) {
        j->status = pfi_fail(PF_ERR_UNSUPPORTED, OP ": PNG is %ux%u pixels, over the limit of %llu", (unsigned)w,
                             (unsigned)h, (unsigned long long)g->max_pixels);
        return;
    }
    set_transforms(j, depth, ct);
    size_t ch = (size_t)g->out_channels, rowbytes = png_get_rowbytes(j->png, j->info);
    if (rowbytes != (size_t)w * ch || (int32_t)w != g->sw || (int32_t)h != g->sh) {
        j->status = pfi_fail(PF_ERR_INTERNAL, OP ": libpng rows of %zu bytes for %ux%u x %zu", rowbytes,
                             (unsigned)w, (unsigned)h, ch);
        return;
    }
    pf_image img = *j->dst; /* the ROI before orientation */
    if (g->orient != 1) {
        uint8_t *p = pfi_buf_reserve(&j->dec->img, (size_t)g->w * (size_t)g->h * ch, OP);
        if (p == NULL) {
            j->status = PF_ERR_OUT_OF_MEMORY;
            return;
        }
        img = pf_image_hwc(p, g->w, g->h, g->out_channels, PF_U8, 0);
    }
    size_t dx = (size_t)g->x * ch, wb = (size_t)g->w * ch;
    if (il != PNG_INTERLACE_NONE) {
        uint8_t *full = pfi_buf_reserve(&j->dec->full, rowbytes * h, OP);
        png_bytep *rows = (png_bytep *)(void *)pfi_buf_reserve(&j->dec->ptrs, sizeof(png_bytep) * h, OP);
        if (full == NULL || rows == NULL) {
            j->status = PF_ERR_OUT_OF_MEMORY;
            return;
        }
        for (png_uint_32 y = 0; y < h; y++) rows[y] = full + (size_t)y * rowbytes;
        png_read_image(j->png, rows);
        for (int32_t y = 0; y < g->h; y++) memcpy(pfi_row(&img, y), rows[g->y + y] + dx, wb);
    } else {
        uint8_t *tmp = pfi_buf_reserve(&j->dec->rows, rowbytes, OP);
        if (tmp == NULL) {
            j->status = PF_ERR_OUT_OF_MEMORY;
            return;
        }
        for (int32_t y = 0; y < g->y + g->h; y++) {
            int32_t oy = y - g->y;
            int direct = oy >= 0 && wb == rowbytes;
            png_read_row(j->png, direct ? pfi_row(&img, oy) : tmp, NULL);
            if (oy >= 0 && !direct) memcpy(pfi_row(&img, oy), tmp + dx, wb);
        }
    }
    if (g->orient != 1) pfi_orient_copy(img.data, img.row_stride, g->w, g->h, g->out_channels, g->orient, j->dst);
}

pf_status pfi_png_decode(pf_decoder *dec, const unsigned char *data, size_t size, const pfi_decode_geom *g,
                         const pf_image *dst, int32_t *warnings) {
    png_job j = {.dec = dec, .data = data, .size = size, .g = g, .dst = dst, .status = PF_OK};
    j.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &j, error_fn, warning_fn);
    if (j.png) j.info = png_create_info_struct(j.png);
    if (j.png == NULL || j.info == NULL) {
        png_destroy_read_struct(j.png ? &j.png : NULL, NULL, NULL);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": libpng could not create a reader");
    }
    if (setjmp(png_jmpbuf(j.png))) {
        png_destroy_read_struct(&j.png, &j.info, NULL);
        *warnings = j.warnings;
        if (j.truncated) return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": PNG truncated: data ends at byte %zu", size);
        return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": corrupt PNG near byte %zu of %zu: %s", j.pos, size, j.msg);
    }
    body(&j);
    png_destroy_read_struct(&j.png, &j.info, NULL);
    *warnings = j.warnings;
    if (j.status != PF_OK) return j.status;
    if (j.warnings && g->strict)
        return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": PNG with %d warnings (strict): %s", j.warnings, j.msg);
    return PF_OK;
}
