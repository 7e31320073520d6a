/*
 * JPEG decode through libjpeg-turbo's libjpeg API (the TurboJPEG API has
 * no partial decode): ROI by jpeg_crop_scanline (iMCU-aligned columns,
 * widened, then the exact columns copied out) and jpeg_skip_scanlines
 * (rows above the ROI), early stop by jpeg_abort_decompress after the last
 * needed row, DCT-domain downscale by scale_num / 8.
 *
 * Errors: libjpeg's error_exit longjmps back to the setjmp in
 * pfi_jpeg_decode (a pixflow frame, the only one libjpeg runs under), which
 * resets the decompressor (jpeg_abort_decompress) so it can be reused and
 * returns PF_ERR_CORRUPT_DATA with libjpeg's message and the byte offset
 * it had read to. Nothing between setjmp and the libjpeg calls owns
 * memory, so a longjmp leaks nothing (libjpeg frees its pools on abort).
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

#include "codec/codec_internal.h"
#include "core/error.h"

#define OP "pf_decode"

typedef struct pfi_jerr {
    struct jpeg_error_mgr pub;
    jmp_buf jb;
    int warnings;
    int truncated;
    char first_warning[JMSG_LENGTH_MAX];
} pfi_jerr;

struct pfi_jpeg_state {
    struct jpeg_decompress_struct cinfo;
    pfi_jerr err;
};

static void on_error_exit(j_common_ptr c) {
    pfi_jerr *e = (pfi_jerr *)c->err;
    longjmp(e->jb, 1);
}

/* Warnings (level -1) are counted; trace messages are dropped. */
static void on_emit_message(j_common_ptr c, int level) {
    pfi_jerr *e = (pfi_jerr *)c->err;
    if (level >= 0) return;
    if (c->err->msg_code == JWRN_JPEG_EOF) {
        e->truncated = 1;
        return;
    }
    if (e->warnings++ == 0) c->err->format_message(c, e->first_warning);
}

static void on_output_message(j_common_ptr c) { (void)c; }

static struct pfi_jpeg_state *state_of(pf_decoder *dec) {
    if (dec->jpeg) return dec->jpeg;
    struct pfi_jpeg_state *s = calloc(1, sizeof *s);
    if (s == NULL) {
        pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": out of memory for the JPEG decoder");
        return NULL;
    }
    s->cinfo.err = jpeg_std_error(&s->err.pub);
    s->err.pub.error_exit = on_error_exit;
    s->err.pub.emit_message = on_emit_message;
    s->err.pub.output_message = on_output_message;
    if (setjmp(s->err.jb)) { /* jpeg_create_decompress fails only without memory */
        free(s);
        pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": libjpeg could not create a decompressor");
        return NULL;
    }
    jpeg_create_decompress(&s->cinfo);
    dec->jpeg = s;
    return s;
}

void pfi_jpeg_state_destroy(struct pfi_jpeg_state *s) {
    if (s == NULL) return;
    jpeg_destroy_decompress(&s->cinfo);
    free(s);
}

/* Everything the decode body needs, in memory (not locals): after a
 * longjmp only these fields are read. */
typedef struct jpeg_job {
    struct pfi_jpeg_state *s;
    pf_decoder *dec;
    const unsigned char *data;
    size_t size;
    const pfi_decode_geom *g;
    const pf_image *dst;
    pf_status status;   /* set by the body for non-libjpeg failures */
} jpeg_job;

static size_t bytes_read(const jpeg_job *j) {
    const struct jpeg_source_mgr *src = j->s->cinfo.src;
    return src ? j->size - src->bytes_in_buffer : 0;
}

/* Output colour space and libjpeg's component count for it. CMYK/YCCK
 * come out as CMYK and are converted per row. */
static J_COLOR_SPACE out_space(const pfi_decode_geom *g, int cmyk) {
    if (cmyk) return JCS_CMYK;
    switch (g->pix) {
    case PF_PIXEL_BGR: return JCS_EXT_BGR;
    case PF_PIXEL_GRAY: return JCS_GRAYSCALE;
    case PF_PIXEL_RGBA: return JCS_EXT_RGBA;
    case PF_PIXEL_RGB: break;
    }
    return JCS_EXT_RGB;
}

static void body(jpeg_job *j) {
    j_decompress_ptr ci = &j->s->cinfo;
    const pfi_decode_geom *g = j->g;
    jpeg_mem_src(ci, j->data, (unsigned long)j->size);
    if (jpeg_read_header(ci, TRUE) != JPEG_HEADER_OK) {
        j->status = pfi_fail(PF_ERR_CORRUPT_DATA, OP ": JPEG holds tables only, no image");
        return;
    }
    if ((uint64_t)ci->image_width * ci->image_height > g->max_pixels) {
        j->status = pfi_fail(PF_ERR_UNSUPPORTED, OP ": JPEG is %ux%u pixels, over the limit of %llu",
                             ci->image_width, ci->image_height, (unsigned long long)g->max_pixels);
        return;
    }
    if ((int32_t)ci->image_width != g->info.width || (int32_t)ci->image_height != g->info.height) {
        j->status = pfi_fail(PF_ERR_CORRUPT_DATA, OP ": JPEG has two frame headers (%ux%u vs %dx%d)",
                             ci->image_width, ci->image_height, (int)g->info.width, (int)g->info.height);
        return;
    }
    int cmyk = ci->num_components == 4;
    if (cmyk && !ci->saw_Adobe_marker) {
        j->status = pfi_fail(PF_ERR_UNSUPPORTED, OP ": 4-component JPEG without an Adobe APP14 marker "
                                                 "(CMYK polarity unknown)");
        return;
    }
    if (ci->num_components != 1 && ci->num_components != 3 && !cmyk) {
        j->status = pfi_fail(PF_ERR_UNSUPPORTED, OP ": JPEG with %d components", ci->num_components);
        return;
    }
    ci->out_color_space = out_space(g, cmyk);
    ci->dct_method = JDCT_ISLOW;
    ci->do_fancy_upsampling = TRUE;
    ci->scale_num = (unsigned)g->scale_num;
    ci->scale_denom = 8;
    jpeg_start_decompress(ci);
    if ((int32_t)ci->output_width != g->sw || (int32_t)ci->output_height != g->sh) {
        j->status = pfi_fail(PF_ERR_INTERNAL, OP ": libjpeg scaled to %ux%u, expected %dx%d", ci->output_width,
                             ci->output_height, (int)g->sw, (int)g->sh);
        return;
    }
    /* Fancy (triangle) chroma upsampling treats the first and last column
     * of libjpeg's cropped region as an image edge, so those columns can
     * differ from a full decode; asking for one more column on each side
     * keeps every ROI column equal to the full decode's (the region is
     * widened to iMCU boundaries anyway, so this costs nothing). */
    int32_t rx0 = g->x > 0 ? g->x - 1 : 0, rx1 = g->x + g->w < g->sw ? g->x + g->w + 1 : g->sw;
    JDIMENSION xoff = (JDIMENSION)rx0, cw = (JDIMENSION)(rx1 - rx0);
    if (rx0 != 0 || rx1 != g->sw) jpeg_crop_scanline(ci, &xoff, &cw);
    size_t comps = (size_t)ci->output_components;
    size_t dx = ((size_t)g->x - xoff) * comps;
    /* Rows go straight into the destination when libjpeg's row is exactly
     * the output row, or when it is wider by no more than the margins the
     * caller lets pf_decode overwrite around each dst row (opts.row_margin:
     * libjpeg then writes dx bytes before the row and `right` after it);
     * otherwise through one scratch row and a copy. */
    uint8_t *tmp = NULL;
    pf_image img = *j->dst;
    size_t right = (size_t)cw * comps - dx - (size_t)g->w * comps;
    int same = !cmyk && comps == (size_t)g->out_channels;
    int direct = same && ((dx == 0 && right == 0) ||
                          (g->orient == 1 && dx <= (size_t)g->row_margin && right <= (size_t)g->row_margin));
    if (g->orient != 1) { /* decode into scratch, orient into dst at the end */
        size_t bytes = (size_t)g->w * (size_t)g->h * (size_t)g->out_channels;
        uint8_t *p = pfi_buf_reserve(&j->dec->img, bytes, OP);
        if (p == NULL) {
            j->status = PF_ERR_OUT_OF_MEMORY;
            return;
        }
        img = pf_image_hwc(p, g->w, g->h, g->out_channels, PF_U8, 0);
    }
    if (!direct) {
        tmp = pfi_buf_reserve(&j->dec->rows, (size_t)cw * comps, OP);
        if (tmp == NULL) {
            j->status = PF_ERR_OUT_OF_MEMORY;
            return;
        }
    }
    if (g->y > 0) jpeg_skip_scanlines(ci, (JDIMENSION)g->y);
    for (int32_t y = 0; y < g->h; y++) {
        uint8_t *row = pfi_row(&img, y);
        JSAMPROW rp = direct ? row - dx : tmp;
        if (jpeg_read_scanlines(ci, &rp, 1) != 1) {
            j->status = pfi_fail(PF_ERR_CORRUPT_DATA, OP ": libjpeg returned no row %d", (int)(g->y + y));
            return;
        }
        if (j->s->err.truncated) return; /* reported by the caller */
        if (direct) continue;
        if (cmyk) {
            /* in place: each RGB pixel lands at or before its CMYK source */
            pfi_cmyk_row_to_rgb(tmp + dx, g->w, tmp);
            pfi_rgb_row_to(g->pix, tmp, 3, g->w, row);
        } else {
            memcpy(row, tmp + dx, (size_t)g->w * comps);
        }
    }
    if (g->orient != 1) pfi_orient_copy(img.data, img.row_stride, g->w, g->h, g->out_channels, g->orient, j->dst);
}

pf_status pfi_jpeg_decode(pf_decoder *dec, const unsigned char *data, size_t size, const pfi_decode_geom *g,
                          const pf_image *dst, int32_t *warnings) {
    struct pfi_jpeg_state *s = state_of(dec);
    if (s == NULL) return PF_ERR_OUT_OF_MEMORY;
    jpeg_job j = {.s = s, .dec = dec, .data = data, .size = size, .g = g, .dst = dst, .status = PF_OK};
    s->err.warnings = 0;
    s->err.truncated = 0;
    s->err.first_warning[0] = '\0';
    if (setjmp(s->err.jb)) {
        char msg[JMSG_LENGTH_MAX];
        s->err.pub.format_message((j_common_ptr)&s->cinfo, msg);
        size_t at = bytes_read(&j);
        jpeg_abort_decompress(&s->cinfo);
        *warnings = s->err.warnings;
        return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": corrupt JPEG near byte %zu of %zu: %s", at, size, msg);
    }
    body(&j);
    size_t at = bytes_read(&j);
    jpeg_abort_decompress(&s->cinfo); /* early stop: the rest is never read */
    *warnings = s->err.warnings;
    if (j.status != PF_OK) return j.status;
    if (s->err.truncated)
        return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": JPEG truncated: data ends at byte %zu before the last needed row",
                        size);
    if (s->err.warnings && g->strict)
        return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": corrupt JPEG data (%d warnings, read to byte %zu): %s",
                        (int)s->err.warnings, at, s->err.first_warning);
    return PF_OK;
}
