/*
 * JPEG encode through libjpeg-turbo's libjpeg API into memory
 * (jpeg_mem_dest): what `pixflow pack` stores. Baseline, 4:2:0 for RGB
 * (libjpeg's default sampling, what most training JPEGs are and what the
 * SIMD decode path is fastest on), JDCT_ISLOW.
 *
 * Errors: libjpeg's error_exit longjmps back to the setjmp here; the
 * compressor is destroyed and the memory destination's buffer (malloc'd
 * by libjpeg, owned by us) freed, so a failure leaks nothing.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "core/error.h"
#include "pixflow/codec.h"

#define OP "pf_encode_jpeg"

typedef struct enc_err {
    struct jpeg_error_mgr pub;
    jmp_buf jb;
} enc_err;

static void on_error_exit(j_common_ptr c) { longjmp(((enc_err *)c->err)->jb, 1); }
static void on_output_message(j_common_ptr c) { (void)c; }

/* The encode proper, with every local the longjmp may cross volatile or
 * written before setjmp (C11 7.13.2.1). */
static pf_status encode(const pf_image *img, int32_t quality, unsigned char **buf, unsigned long *len) {
    struct jpeg_compress_struct cinfo;
    enc_err err;
    char msg[JMSG_LENGTH_MAX];
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = on_error_exit;
    err.pub.output_message = on_output_message;
    if (setjmp(err.jb)) {
        err.pub.format_message((j_common_ptr)&cinfo, msg);
        jpeg_destroy_compress(&cinfo);
        free(*buf);
        *buf = NULL;
        return pfi_fail(PF_ERR_INTERNAL, OP ": libjpeg failed: %s", msg);
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, buf, len);
    cinfo.image_width = (JDIMENSION)img->width;
    cinfo.image_height = (JDIMENSION)img->height;
    cinfo.input_components = img->channels;
    cinfo.in_color_space = img->channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.dct_method = JDCT_ISLOW;
    jpeg_start_compress(&cinfo, TRUE);
    ptrdiff_t stride = img->row_stride ? img->row_stride : (ptrdiff_t)img->width * img->channels;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)((unsigned char *)img->data + (ptrdiff_t)cinfo.next_scanline * stride);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    return PF_OK;
}

pf_status pf_encode_jpeg(const pf_image *img, int32_t quality, void **out, size_t *out_size) {
    pfi_clear_error();
    if (out == NULL || out_size == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": out and out_size must not be NULL");
    *out = NULL;
    *out_size = 0;
    if (img == NULL || img->data == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": img (or img->data) is NULL");
    if (img->mem != PF_MEM_HOST) return pfi_fail(PF_ERR_UNSUPPORTED, OP ": img is a device view; encoding reads host memory");
    if (img->dtype != PF_U8 || img->layout != PF_HWC)
        return pfi_fail(PF_ERR_UNSUPPORTED, OP ": img must be u8 HWC (dtype %d, layout %d)", (int)img->dtype, (int)img->layout);
    if (img->channels != 1 && img->channels != 3)
        return pfi_fail(PF_ERR_UNSUPPORTED, OP ": img has %d channels; JPEG encodes 1 (gray) or 3 (RGB)", (int)img->channels);
    if (img->width < 1 || img->height < 1 || img->width > 65500 || img->height > 65500)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": img is %dx%d; JPEG holds 1..65500 per side", (int)img->width, (int)img->height);
    if (quality < 1 || quality > 100)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": quality is %d; use 1..100", (int)quality);
    unsigned char *buf = NULL;
    unsigned long len = 0;
    pf_status st = encode(img, quality, &buf, &len);
    if (st != PF_OK) return st;
    *out = buf;
    *out_size = (size_t)len;
    return PF_OK;
}
