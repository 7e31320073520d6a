/*
 * pixflow codec: probe and decode JPEG (libjpeg-turbo), PNG (libpng) and
 * WebP (libwebp) from memory into caller-owned u8 images, and the
 * plan-aware "decode + augment" call that decodes only what the sampled
 * crop needs (JPEG ROI + DCT-domain downscale) straight into a sample's
 * slot of a batch tensor.
 *
 * Typical use:
 *   pf_image_info info;   pf_image_probe(bytes, n, &info);
 *   pf_decode_opts o = pf_decode_opts_defaults();           // RGB, whole image
 *   pf_decode_result r;   pf_decode_query(bytes, n, &o, &r); // output size
 *   pf_image dst = pf_image_hwc(buf, r.width, r.height, r.channels, PF_U8, 0);
 *   pf_decode(dec, bytes, n, &o, &dst, &r);                  // dec may be NULL
 *
 * Bad input never crashes: malformed data gives PF_ERR_CORRUPT_DATA, a
 * valid but unsupported file (a format we do not read, a pixel count over
 * the limit, CMYK without an Adobe marker) PF_ERR_UNSUPPORTED; the message
 * names the byte offset where the decoder stopped when it is known.
 * libjpeg's error exits are caught inside the decode call (setjmp in a
 * pixflow frame; nothing unwinds past it).
 */
#ifndef PIXFLOW_CODEC_H
#define PIXFLOW_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pixflow/augment.h"
#include "pixflow/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- probe */

typedef enum pf_image_format {
    PF_FORMAT_UNKNOWN = 0,
    PF_FORMAT_JPEG = 1,
    PF_FORMAT_PNG = 2,
    PF_FORMAT_WEBP = 3
} pf_image_format;

/* JPEG colour space of the coded data (libjpeg's jpeg_color_space). */
typedef enum pf_jpeg_colorspace {
    PF_JPEG_CS_NONE = 0,  /* not a JPEG */
    PF_JPEG_CS_GRAY = 1,
    PF_JPEG_CS_YCBCR = 2,
    PF_JPEG_CS_RGB = 3,
    PF_JPEG_CS_CMYK = 4,
    PF_JPEG_CS_YCCK = 5,
    PF_JPEG_CS_OTHER = 6
} pf_jpeg_colorspace;

/* Chroma subsampling of a 3-component JPEG (luma factors vs chroma). */
typedef enum pf_jpeg_subsampling {
    PF_SUBSAMP_NONE = 0,  /* gray, or not a JPEG */
    PF_SUBSAMP_444 = 1,
    PF_SUBSAMP_422 = 2,   /* half horizontal */
    PF_SUBSAMP_420 = 3,   /* half both */
    PF_SUBSAMP_440 = 4,   /* half vertical */
    PF_SUBSAMP_411 = 5,   /* quarter horizontal */
    PF_SUBSAMP_OTHER = 6
} pf_jpeg_subsampling;

typedef struct pf_image_info {
    pf_image_format format;
    int32_t width, height;     /* as stored (before EXIF orientation) */
    int32_t channels;          /* components in the file: 1 gray, 2 gray+alpha, 3, 4 (alpha or CMYK) */
    int32_t bit_depth;         /* 8 or 16 (PNG may also say 1, 2, 4) */
    bool has_alpha;
    int32_t orientation;       /* EXIF orientation 1..8 (JPEG APP1); 1 when absent or invalid */
    /* JPEG only */
    pf_jpeg_colorspace jpeg_colorspace;
    pf_jpeg_subsampling jpeg_subsampling;
    bool progressive;
    bool adobe_marker;         /* an APP14 Adobe marker is present (CMYK polarity known) */
    /* PNG only */
    bool interlaced;
    bool palette;
} pf_image_info;

/* Reads the header only (no pixel decode, no allocation beyond libjpeg's
 * small header state): format from the magic bytes, then the format's
 * header. PF_ERR_UNSUPPORTED for an unknown magic, PF_ERR_CORRUPT_DATA for
 * a header that does not parse. */
PF_API pf_status pf_image_probe(const void *data, size_t size, pf_image_info *info);

/* "jpeg", "png", "webp", "unknown". */
PF_API const char *pf_image_format_name(pf_image_format format);

/* ------------------------------------------------------------ decode */

/* Output pixel layout (always u8 HWC). */
typedef enum pf_pixel_format {
    PF_PIXEL_RGB = 0,
    PF_PIXEL_BGR = 1,
    PF_PIXEL_GRAY = 2,  /* as OpenCV's IMREAD_GRAYSCALE: JPEG libjpeg's luma (Y)
                           (CMYK: imgcodecs' 14-bit formula), PNG libpng's
                           rgb_to_gray(0.299, 0.587), WebP cvtColor RGB2GRAY */
    PF_PIXEL_RGBA = 3   /* alpha 255 where the file has none */
} pf_pixel_format;

#define PF_DECODE_DEFAULT_MAX_PIXELS 100000000ull  /* 100 MP */
#define PF_DECODE_MAX_ROW_MARGIN 4096          /* pf_decode_opts.row_margin, bytes */

typedef struct pf_decode_opts {
    pf_pixel_format pixel_format;  /* default PF_PIXEL_RGB */
    /* Region of interest in STORED image pixels (before orientation);
     * roi_w <= 0 or roi_h <= 0: the whole image. Must lie inside the
     * image. JPEG decodes only the iMCU columns and rows it touches
     * (jpeg_crop_scanline / jpeg_skip_scanlines, stops after the last
     * row); PNG and WebP decode everything and copy the ROI. */
    int32_t roi_x, roi_y, roi_w, roi_h;
    /* JPEG DCT-domain downscale: the image decodes at scale_num / 8,
     * scale_num 1..8 (default 8 = full size). The scaled image is
     * ceil(W * scale_num / 8) x ceil(H * scale_num / 8) (libjpeg's rule)
     * and the output is the scaled ROI [floor(x*s), ceil((x+w)*s)) on each
     * axis. Ignored (full size) for PNG and WebP: pf_decode_result says
     * what was used. */
    int32_t scale_num;
    /* Apply the EXIF orientation (JPEG) after ROI and scaling: the output
     * is the ROI rotated/flipped as the tag says (5..8 swap width and
     * height). Default false (OpenCV's imdecode applies it unless
     * IMREAD_IGNORE_ORIENTATION). */
    bool apply_orientation;
    /* Decompression bomb guard: width * height of the stored image above
     * this -> PF_ERR_UNSUPPORTED before any pixel memory is allocated.
     * Default PF_DECODE_DEFAULT_MAX_PIXELS; 0 means the default. */
    uint64_t max_pixels;
    /* libjpeg/libpng warnings (corrupt but decodable data, e.g. a bad
     * Huffman code: the rest of the scan decodes as gray) are counted in
     * pf_decode_result.warnings; with this flag they fail the call with
     * PF_ERR_CORRUPT_DATA instead. Default false. A truncated file is
     * always an error. */
    bool warnings_are_errors;
    /* Bytes before each dst row's first pixel and after its last that
     * pf_decode may overwrite (left undefined), so a JPEG ROI, which
     * libjpeg widens to whole iMCU columns (up to 32 pixels more on the
     * left, one on the right), decodes straight into dst instead of
     * through a scratch row and a copy (that copy was ~5 % of `pixflow
     * run`'s CPU, where the destination rows are not in cache).
     * The caller owns that memory: the first row's margin before it and
     * the last row's after it lie inside its buffer, and |dst.row_stride|
     * >= width * channels + row_margin (neighbour rows share a margin).
     * A margin too small for the ROI at hand is not an error: the copy
     * runs. Default 0 (nothing outside dst's pixels is written); ignored
     * for PNG, WebP, CMYK JPEGs and apply_orientation. */
    int32_t row_margin;
} pf_decode_opts;

PF_API pf_decode_opts pf_decode_opts_defaults(void);

typedef struct pf_decode_result {
    pf_image_format format;
    int32_t width, height, channels;   /* the output image (after orientation) */
    int32_t scale_num;                 /* DCT scale used (8 = none) */
    int32_t scaled_width, scaled_height; /* the whole image at that scale (before orientation) */
    int32_t x, y;                      /* output's top-left in the scaled image (before orientation) */
    int32_t orientation;               /* EXIF tag read (1..8), applied or not */
    int32_t warnings;                  /* libjpeg/libpng warnings seen (data decoded anyway) */
} pf_decode_result;

/* A decoder keeps the codec state and scratch rows between calls, so a
 * worker decoding many images allocates nothing per image once warm. One
 * decoder per thread; any function taking a decoder accepts NULL (a
 * temporary one is used). */
typedef struct pf_decoder pf_decoder;

PF_API pf_status pf_decoder_create(pf_decoder **out);
PF_API void pf_decoder_destroy(pf_decoder *dec);

/* Probes and fills *result with what pf_decode would produce (size,
 * channels, scale, position) without decoding pixels; checks opts. */
PF_API pf_status pf_decode_query(const void *data, size_t size, const pf_decode_opts *opts,
                                 pf_decode_result *result);

/* Decodes into dst, a caller-owned u8 HWC host view of exactly the size
 * and channels pf_decode_query reports (any row stride, negative allowed).
 * opts NULL: defaults. result may be NULL. dst is only partly written on
 * failure. JPEG: libjpeg-turbo with JDCT_ISLOW and fancy upsampling (its
 * defaults, what OpenCV's imdecode uses), so the full-size decode equals
 * cv::imdecode bit for bit. */
PF_API pf_status pf_decode(pf_decoder *dec, const void *data, size_t size, const pf_decode_opts *opts,
                           pf_image *dst, pf_decode_result *result);

/* ------------------------------------------------------------ encode */

/*
 * Encodes a u8 HWC host image (1 channel: grayscale JPEG; 3: RGB, stored
 * as YCbCr 4:2:0; any row stride) as a baseline JPEG with libjpeg-turbo
 * at `quality` (1..100, libjpeg's scale) and JDCT_ISLOW. On success
 * *out is a malloc'd buffer of *out_size bytes the caller frees with
 * free(). Lossy: the decoded pixels differ from img (docs/performance.md
 * "Packed datasets" gives the measured PSNR per quality). Not supported:
 * 2 or 4 channels, other dtypes, device views (PF_ERR_INVALID_ARGUMENT /
 * PF_ERR_UNSUPPORTED naming the argument); PNG and WebP encoding.
 */
PF_API pf_status pf_encode_jpeg(const pf_image *img, int32_t quality, void **out, size_t *out_size);

/* ------------------------------------------------- decode + augment */

typedef struct pf_decode_aug_opts {
    /* JPEG DCT-domain downscale: the smallest scale m/8 (m = 1, 2, 4: the
     * scales libjpeg-turbo's SIMD IDCTs cover) that
     * keeps the decoded crop >= dct_margin x the plan's output size + 1
     * pixel on both axes (then the plan's resize finishes). Not
     * bit-identical to the full decode (docs/exactness.md "Decoding"
     * states the measured difference per margin); on in
     * pf_decode_aug_opts_for_recipe for training recipes, off for eval.
     * Default false. */
    bool dct_scale;
    float dct_margin;          /* default 1.0; [1, 64]; larger: closer to the full path, slower */
    bool apply_orientation;    /* default false; true: samples see the oriented image */
    uint64_t max_pixels;       /* default PF_DECODE_DEFAULT_MAX_PIXELS */
    bool warnings_are_errors;  /* default false */
    /* A sample that fails to decode: false (default) fails the whole call
     * naming the sample; true zero-fills its slot, records its status in
     * results[i].status and goes on (the call then returns PF_OK). */
    bool skip_bad;
} pf_decode_aug_opts;

PF_API pf_decode_aug_opts pf_decode_aug_opts_defaults(void);
/* Defaults with dct_scale on for recipes that sample random crops
 * ("imagenet-train"), off for the others. Unknown name ->
 * PF_ERR_INVALID_ARGUMENT. */
PF_API pf_status pf_decode_aug_opts_for_recipe(const char *recipe, pf_decode_aug_opts *opts);

typedef struct pf_decode_aug_result {
    pf_status status;          /* PF_OK, or why this sample failed (skip_bad) */
    int32_t width, height;     /* original (stored, or oriented) image size the params were drawn on */
    int32_t scale_num;         /* DCT scale used */
    int32_t warnings;
    pf_aug_params params;      /* the sampled params, in original image pixels */
    /* output pixel -> original image pixel (pf_preprocess_run's mapping,
     * carried back through the ROI offset and the DCT scale; with
     * apply_orientation, pixels of the oriented image) */
    pf_letterbox_info info;
} pf_decode_aug_result;

typedef struct pf_decode_augmenter pf_decode_augmenter;

/* Copies desc / policy / opts (NULL opts: defaults); builds the fused
 * preprocess plan. */
PF_API pf_status pf_decode_augmenter_create(const pf_preprocess_desc *desc, const pf_aug_policy *policy,
                                            const pf_decode_aug_opts *opts, pf_decode_augmenter **out);
PF_API void pf_decode_augmenter_destroy(pf_decode_augmenter *aug);

/*
 * Samples first_index .. first_index + count - 1 of an epoch: data[i]
 * (size[i] bytes, any supported format) -> probe -> pf_aug_sample on the
 * original size with (seed, epoch, first_index + i) -> crop mapped to the
 * (DCT-scaled) JPEG ROI -> decode of that ROI into per-thread scratch ->
 * fused preprocess into sample i of dst (n >= count, the plan's shape).
 * Samples run in parallel on the stream (NULL: inline). results may be
 * NULL or receive count entries. With dct_scale off the output is
 * bit-identical to pf_decode (whole image) + pf_aug_sample +
 * pf_preprocess_run. One call per augmenter at a time. Memory: each
 * worker of the stream keeps a decoder, a plan and a scratch image that
 * grows to the largest decoded ROI seen (at most max_pixels x 3 bytes);
 * destroy the augmenter to release them.
 */
PF_API pf_status pf_decode_augment(pf_decode_augmenter *aug, pf_stream *stream, int count,
                                   const void *const data[], const size_t size[], uint64_t seed,
                                   uint64_t epoch, uint64_t first_index, pf_tensor *dst,
                                   pf_decode_aug_result results[]);

#ifdef __cplusplus
}
#endif

#endif /* PIXFLOW_CODEC_H */
