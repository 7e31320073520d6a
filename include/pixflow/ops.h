/*
 * pixflow operators. Every op is batch-first: it takes `count` source views
 * (possibly of different sizes) and `count` destination views, and runs on
 * a stream (NULL = calling thread).
 */
#ifndef PIXFLOW_OPS_H
#define PIXFLOW_OPS_H

#include <stdbool.h>
#include "pixflow/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ================================================================ resize */

/* Interpolation modes; the values equal OpenCV's cv::InterpolationFlags. */
typedef enum pf_interp {
    PF_INTERP_NEAREST = 0,
    PF_INTERP_LINEAR = 1,
    PF_INTERP_CUBIC = 2,
    PF_INTERP_AREA = 3,
    PF_INTERP_LANCZOS4 = 4,
    PF_INTERP_NEAREST_EXACT = 6
} pf_interp;

/* Whose resize pf_resize reproduces (pf_resize_opts.flavor). */
typedef enum pf_resize_flavor {
    PF_RESIZE_OPENCV = 0,      /* default: cv::resize; antialias = true selects Pillow's (below) */
    PF_RESIZE_PILLOW = 1,      /* Pillow Image.resize (always antialiased; the flag is ignored) */
    PF_RESIZE_TORCHVISION = 2  /* torch's CPU interpolate as torchvision 0.29 F.resize calls it;
                                  antialias is F.resize's antialias argument */
} pf_resize_flavor;

typedef struct pf_resize_opts {
    pf_interp interp;        /* default PF_INTERP_LINEAR */
    bool antialias;          /* default false; see below */
    pf_resize_flavor flavor; /* default PF_RESIZE_OPENCV */
} pf_resize_opts;

PF_API pf_resize_opts pf_resize_opts_defaults(void);

/*
 * pf_resize: resizes src[i] into dst[i] for i in [0, count). The output
 * size of each sample is dst[i].width x dst[i].height. opts may be NULL
 * (defaults).
 *
 * Supports: dtypes PF_U8, PF_U16, PF_F32; 1..4 channels; PF_HWC and PF_CHW
 * (CHW resizes each plane); any strides (negative row strides included);
 * src and dst may differ in layout only if channels == 1.
 *
 * Backends: host views run on the CPU (stream NULL or a CPU stream).
 * CUDA device views (mem PF_MEM_CUDA, all on one device) run on that GPU,
 * on `stream` when it is a CUDA stream of that device (asynchronous) or
 * synchronously with NULL; everything above is supported there too (every
 * mode, antialias, u8/u16/f32, 1..4 channels, HWC/CHW, any strides, also
 * unaligned, varshape batches), with outputs bit-identical to the CPU
 * path: the GPU evaluates the CPU's own resize tables per output pixel in
 * the CPU's operation order (docs/exactness.md, "GPU resize"). Host and
 * device views cannot be mixed in one call (PF_ERR_INVALID_ARGUMENT).
 *
 * flavor OPENCV (default), antialias == false: the result equals OpenCV
 * 4.x cv::resize(src, dst, dst.size(), 0, 0, interp):
 *   - u8: bit-exact for every mode (NEAREST, NEAREST_EXACT, LINEAR with
 *     its 2x->AREA shortcut, CUBIC, AREA integer and fractional, and AREA
 *     upscale, LANCZOS4), 1/3/4 channels, HWC. Verified against Debian's
 *     OpenCV 4.6 build (SSE2 baseline); CUBIC reproduces that build's
 *     float/integer split of the vertical pass (docs/exactness.md).
 *   - u16: bit-exact; f32: bit-identical in every tested case (the
 *     contract is 1e-5 relative).
 *   - NEAREST_EXACT is exact for widths/heights < 32768 (OpenCV's own
 *     16.16 fixed point overflows past that).
 *
 * antialias == true (flavor OPENCV, or flavor PILLOW whatever the flag):
 * separable filtering with the filter support widened
 * by the downscale factor, exactly as Pillow's Image.resize computes it
 * (two passes, horizontal first, 22-bit fixed-point weights, u8
 * intermediate), and as torchvision's antialias=True approximates:
 *   LINEAR -> triangle (Pillow BILINEAR), CUBIC -> Keys a=-0.5 (Pillow
 *   BICUBIC), AREA -> box (Pillow BOX), LANCZOS4 -> Lanczos a=3 (Pillow
 *   LANCZOS). NEAREST/NEAREST_EXACT ignore the flag.
 *   u8 matches Pillow 9.x bit-exactly on the tested images (max diff 0);
 *   u16 and f32 use float weights and float accumulation (no intermediate
 *   rounding). Channels are filtered independently (Pillow premultiplies
 *   RGBA by alpha; pixflow does not).
 *
 * flavor == PF_RESIZE_TORCHVISION: the result equals torchvision 0.29's
 * transforms.v2.functional.resize(img, [dst.height, dst.width],
 * interpolation, antialias) on the CPU with torch 2.15 (torch's
 * interpolate, align_corners=False, the size given, no scale factor):
 *   LINEAR -> BILINEAR, CUBIC -> BICUBIC (Keys a = -0.75 plain, -0.5 with
 *   antialias, as torch), LANCZOS4 -> LANCZOS (Lanczos-3; antialias only,
 *   as torchvision requires), NEAREST -> NEAREST, NEAREST_EXACT ->
 *   NEAREST_EXACT. AREA is PF_ERR_UNSUPPORTED (F.resize has no area mode).
 *   - u8: bit-exact with torch's native uint8 kernels (int16 weights with
 *     one precision per axis, horizontal pass first, u8 intermediate; the
 *     path torchvision takes on x86 with AVX2 and on arm64; without AVX2
 *     torchvision resizes BILINEAR u8 in float and rounds instead), 1..4
 *     channels, HWC or CHW. torch itself raises for 3-channel images
 *     resized to 1x1 (pixflow returns its algorithm's value there).
 *   - f32 / u16: torch's float weights and separable float passes without
 *     FMA; within a measured bound of torch's float kernels (which are
 *     built with FMA contraction and pick per-thread-count variants; see
 *     docs/exactness.md). u16 rounds half to even, as torchvision's
 *     round_() before its cast back.
 *
 * Not supported: in-place or overlapping src/dst (PF_ERR_INVALID_ARGUMENT),
 * s16/s32/f16/bf16 (PF_ERR_UNSUPPORTED), more than 4 channels, sizes whose
 * byte extent overflows size_t.
 */
PF_API pf_status pf_resize(pf_stream *stream, int count, const pf_image src[],
                           pf_image dst[], const pf_resize_opts *opts);

/* ================================================================ colour */

/* Colour conversion codes; every value equals OpenCV's cv::COLOR_* code of
 * the same name (aliases share a value, as in OpenCV). Codes >= 1000 exist
 * only in pixflow (OpenCV 4.6 has no RGB -> NV12/NV21 encoder). */
typedef enum pf_color_code {
    PF_COLOR_BGR2BGRA = 0,   PF_COLOR_RGB2RGBA = 0,
    PF_COLOR_BGRA2BGR = 1,   PF_COLOR_RGBA2RGB = 1,
    PF_COLOR_BGR2RGBA = 2,   PF_COLOR_RGB2BGRA = 2,
    PF_COLOR_RGBA2BGR = 3,   PF_COLOR_BGRA2RGB = 3,
    PF_COLOR_BGR2RGB = 4,    PF_COLOR_RGB2BGR = 4,
    PF_COLOR_BGRA2RGBA = 5,  PF_COLOR_RGBA2BGRA = 5,
    PF_COLOR_BGR2GRAY = 6,   PF_COLOR_RGB2GRAY = 7,
    PF_COLOR_GRAY2BGR = 8,   PF_COLOR_GRAY2RGB = 8,
    PF_COLOR_GRAY2BGRA = 9,  PF_COLOR_GRAY2RGBA = 9,
    PF_COLOR_BGRA2GRAY = 10, PF_COLOR_RGBA2GRAY = 11,
    PF_COLOR_BGR2YCrCb = 36, PF_COLOR_RGB2YCrCb = 37,
    PF_COLOR_YCrCb2BGR = 38, PF_COLOR_YCrCb2RGB = 39,
    PF_COLOR_BGR2HSV = 40,   PF_COLOR_RGB2HSV = 41,
    PF_COLOR_HSV2BGR = 54,   PF_COLOR_HSV2RGB = 55,
    PF_COLOR_BGR2HSV_FULL = 66, PF_COLOR_RGB2HSV_FULL = 67,
    PF_COLOR_HSV2BGR_FULL = 70, PF_COLOR_HSV2RGB_FULL = 71,
    /* 4:2:0 video frames -> RGB (pf_cvt_color_from_yuv) */
    PF_COLOR_YUV2RGB_NV12 = 90,  PF_COLOR_YUV2BGR_NV12 = 91,
    PF_COLOR_YUV2RGB_NV21 = 92,  PF_COLOR_YUV2BGR_NV21 = 93,
    PF_COLOR_YUV2RGBA_NV12 = 94, PF_COLOR_YUV2BGRA_NV12 = 95,
    PF_COLOR_YUV2RGBA_NV21 = 96, PF_COLOR_YUV2BGRA_NV21 = 97,
    PF_COLOR_YUV2RGB_YV12 = 98,  PF_COLOR_YUV2BGR_YV12 = 99,
    PF_COLOR_YUV2RGB_IYUV = 100, PF_COLOR_YUV2BGR_IYUV = 101,
    PF_COLOR_YUV2RGB_I420 = 100, PF_COLOR_YUV2BGR_I420 = 101,
    PF_COLOR_YUV2RGBA_YV12 = 102, PF_COLOR_YUV2BGRA_YV12 = 103,
    PF_COLOR_YUV2RGBA_IYUV = 104, PF_COLOR_YUV2BGRA_IYUV = 105,
    PF_COLOR_YUV2RGBA_I420 = 104, PF_COLOR_YUV2BGRA_I420 = 105,
    PF_COLOR_YUV2GRAY_420 = 106,
    /* RGB -> 4:2:0 video frames (pf_cvt_color_to_yuv) */
    PF_COLOR_RGB2YUV_I420 = 127,  PF_COLOR_BGR2YUV_I420 = 128,
    PF_COLOR_RGB2YUV_IYUV = 127,  PF_COLOR_BGR2YUV_IYUV = 128,
    PF_COLOR_RGBA2YUV_I420 = 129, PF_COLOR_BGRA2YUV_I420 = 130,
    PF_COLOR_RGB2YUV_YV12 = 131,  PF_COLOR_BGR2YUV_YV12 = 132,
    PF_COLOR_RGBA2YUV_YV12 = 133, PF_COLOR_BGRA2YUV_YV12 = 134,
    PF_COLOR_RGB2YUV_NV12 = 1000, PF_COLOR_BGR2YUV_NV12 = 1001,
    PF_COLOR_RGBA2YUV_NV12 = 1002, PF_COLOR_BGRA2YUV_NV12 = 1003,
    PF_COLOR_RGB2YUV_NV21 = 1004, PF_COLOR_BGR2YUV_NV21 = 1005,
    PF_COLOR_RGBA2YUV_NV21 = 1006, PF_COLOR_BGRA2YUV_NV21 = 1007
} pf_color_code;

/* YUV <-> RGB matrix and range for the 4:2:0 video codes. */
typedef enum pf_yuv_matrix {
    PF_YUV_BT601 = 0, /* default; what OpenCV uses */
    PF_YUV_BT709 = 1
} pf_yuv_matrix;

typedef enum pf_yuv_range {
    PF_YUV_LIMITED = 0, /* default: Y in [16,235], Cb/Cr in [16,240] (OpenCV) */
    PF_YUV_FULL = 1     /* Y, Cb, Cr in [0,255] (JPEG-style) */
} pf_yuv_range;

typedef struct pf_color_opts {
    pf_yuv_matrix yuv_matrix; /* 4:2:0 codes only; default PF_YUV_BT601 */
    pf_yuv_range yuv_range;   /* 4:2:0 codes only; default PF_YUV_LIMITED */
} pf_color_opts;

PF_API pf_color_opts pf_color_opts_defaults(void);

/*
 * pf_cvt_color: src[i] -> dst[i] with an OpenCV colour code (the non-video
 * codes above; the 4:2:0 codes go through pf_cvt_color_from_yuv /
 * pf_cvt_color_to_yuv). dst[i] must have src[i]'s size and the channel
 * count the code produces. opts may be NULL (its fields concern the 4:2:0
 * codes only).
 *   - dtypes: u8, u16, f32 (src and dst alike); HSV codes u8 and f32 only
 *     (as OpenCV). u8 HSV: H in 0..180 (FULL: 0..255); f32: H in [0,360),
 *     S and V in [0,1].
 *   - channels: BGR-side sources 3 or 4 (alpha ignored); GRAY2BGR(A) from
 *     1; the inverse HSV/YCrCb codes write 3 or 4 channels (dst.channels
 *     plays OpenCV's dcn); alpha written = 255 / 65535 / 1.0.
 *   - layout: multi-channel sides must be HWC (CHW -> PF_ERR_UNSUPPORTED;
 *     use pf_reformat). Any row stride, negative included.
 *   - in place: allowed with the very same view when src and dst have the
 *     same channel count; any other overlap is rejected.
 *   - exactness: u8/u16 bit-identical to OpenCV 4.6 cv::cvtColor (incl. its
 *     position-dependent HSV->BGR u8 rounding, as OpenCV's AVX2 path
 *     computes it: on a CPU where OpenCV would take its SSE path instead,
 *     OpenCV itself differs from that by up to 1); f32 within
 *     1e-6 * max(1, |OpenCV|), and the same bits at every ISA and thread
 *     count (docs/exactness.md, "pf_cvt_color").
 *   - 4:2:0 video codes -> PF_ERR_INVALID_ARGUMENT naming the right
 *     function; other unknown codes -> PF_ERR_UNSUPPORTED.
 *   - backends: host views run on the CPU; CUDA device views (src and dst
 *     on one device, stream NULL or a stream of that device) run every
 *     code above on the GPU with the same bits as the CPU path (the
 *     position-dependent HSV->BGR u8 rounding included), except that f32
 *     NaN inputs give a NaN whose payload/sign may differ. The CUDA path
 *     also needs element-aligned views (address and row stride multiples
 *     of the element size; PF_ERR_UNSUPPORTED otherwise).
 */
PF_API pf_status pf_cvt_color(pf_stream *stream, int count, const pf_image src[],
                              pf_image dst[], pf_color_code code, const pf_color_opts *opts);

/* A 4:2:0 frame as planes, each with its own stride (and its own mem /
 * device: a frame in CUDA memory has every plane it uses marked
 * PF_MEM_CUDA on one device; pf_yuv_nv12/i420/yv12 make host views): 8-bit luma y
 * (W x H, 1 channel) and chroma at half resolution ((W/2) x (H/2)):
 *   NV12 / NV21: `uv` is one 2-channel plane (U,V interleaved for NV12,
 *                V,U for NV21); `u` and `v` are unused;
 *   I420 / YV12: `u` (Cb) and `v` (Cr) are 1-channel planes; `uv` unused.
 * W and H must be even (OpenCV's rule for these codes). */
typedef struct pf_yuv {
    pf_image y;
    pf_image uv;
    pf_image u, v;
} pf_yuv;

/* Views of one contiguous frame buffer in the usual memory orders
 * (stride 0 = W bytes): NV12/NV21 = Y plane then UV plane; I420 = Y, U, V;
 * YV12 = Y, V, U. The chroma planes use stride/2 (I420/YV12) or stride
 * (NV12/NV21), like FFmpeg and OpenCV's single-Mat layout. NV21 has the
 * same memory layout as NV12 (only the byte order inside `uv` differs,
 * which the code says), so pf_yuv_nv12 views NV21 frames too. A stride
 * below W, width/height <= 0 or a NULL buffer give views with NULL data,
 * which the conversions reject. */
PF_API pf_yuv pf_yuv_nv12(void *data, int32_t width, int32_t height, ptrdiff_t stride);
PF_API pf_yuv pf_yuv_i420(void *data, int32_t width, int32_t height, ptrdiff_t stride);
PF_API pf_yuv pf_yuv_yv12(void *data, int32_t width, int32_t height, ptrdiff_t stride);
/* Bytes of such a contiguous 4:2:0 frame: stride * (H + H/2) (= W*H*3/2
 * when stride == W); 0 for a bad shape or on overflow. */
PF_API size_t pf_yuv_frame_size(int32_t width, int32_t height, ptrdiff_t stride);

/*
 * pf_cvt_color_from_yuv: 4:2:0 frame src[i] -> dst[i] (u8 HWC, src's W x H).
 *   codes 90..97  NV12/NV21 -> RGB, BGR (3 ch) / RGBA, BGRA (4 ch, alpha 255)
 *   codes 98..105 YV12/IYUV(I420) -> the same; u/v are named planes, so the
 *                 YV12 and I420 codes give the same result on the same views
 *   code 106      YUV2GRAY_420: copies Y (1 ch); chroma planes not read
 * pf_cvt_color_to_yuv: RGB/BGR(A) u8 HWC src[i] -> frame dst[i]:
 *   codes 127..134   {RGB,BGR,RGBA,BGRA}2YUV_{I420,YV12} (writes y, u, v)
 *   codes 1000..1007 {RGB,BGR,RGBA,BGRA}2YUV_{NV12,NV21} (writes y, uv):
 *                    OpenCV's I420 encoder output with chroma interleaved
 *   Chroma is taken from the top-left pixel of each 2x2 block (OpenCV's
 *   rule), not averaged.
 * Frames: y is W x H x 1; uv (NV12/NV21) is W/2 x H/2 x 2; u, v (I420/YV12)
 * are W/2 x H/2 x 1; all u8, host (or CUDA device memory for the decode,
 * see Backends below), each with its own (possibly negative)
 * stride. W and H must be even (OpenCV's rule): PF_ERR_INVALID_ARGUMENT
 * naming the plane. Any overlap between an output and an input plane, or
 * between two output planes, is PF_ERR_INVALID_ARGUMENT. Every sample is
 * validated before anything is written.
 * opts (may be NULL): yuv_matrix BT601 (default) / BT709, yuv_range
 * LIMITED (default) / FULL. 20-bit fixed point with the exact formulas and
 * constants in docs/exactness.md (src/kernels/yuv_math.h).
 * Exactness: default BT.601 limited is bit-identical to OpenCV 4.x
 * cv::cvtColor for every code above (verified against OpenCV 4.6); the
 * other tables are within 1 of the real-valued ITU/JFIF formulas, and
 * BT.601 full-range decode equals the rounded JFIF formula. All SIMD
 * levels give the reference's bytes.
 * Not supported: u16/f32 frames, 4:2:2/4:4:4, odd sizes, CHW RGB views.
 * Backends: pf_cvt_color_from_yuv runs on the GPU when the planes it reads
 * and dst are CUDA device views (every code, matrix and range above; the
 * same bytes as the CPU path); pf_cvt_color_to_yuv is CPU only (device
 * views are rejected).
 */
PF_API pf_status pf_cvt_color_from_yuv(pf_stream *stream, int count, const pf_yuv src[],
                                       pf_image dst[], pf_color_code code,
                                       const pf_color_opts *opts);
PF_API pf_status pf_cvt_color_to_yuv(pf_stream *stream, int count, const pf_image src[],
                                     pf_yuv dst[], pf_color_code code,
                                     const pf_color_opts *opts);

/* ======================================================= convert/reformat */

/* Channel mapping used by pf_convert, pf_normalize and pf_reformat:
 * dst channel c is src channel order[c], or the constant `fill` when
 * order[c] == PF_CHANNEL_FILL. Identity is {0, 1, 2, 3}. */
#define PF_CHANNEL_FILL (-1)

typedef struct pf_convert_opts {
    double alpha;        /* default 1 */
    double beta;         /* default 0 */
    int8_t order[4];     /* default identity; only the first dst.channels are read */
    double fill;         /* dst value of PF_CHANNEL_FILL channels (written as is,
                            saturated to the dst dtype; alpha/beta not applied) */
} pf_convert_opts;

PF_API pf_convert_opts pf_convert_opts_defaults(void);

/* pf_convert: dst = saturate(src * alpha + beta), any dtype -> any dtype
 * (u8 u16 s16 s32 f16 bf16 f32), HWC or CHW on either side (layout change
 * in the same pass), with the channel mapping of opts->order (dst may have
 * fewer or more channels than src). opts may be NULL. Any strides
 * (negative included); src and dst sizes must match.
 *
 * Exactness: equals OpenCV 4.6 Mat::convertTo(dst, ddepth, alpha, beta) as
 * the x86 AVX2 build computes it, bit for bit, for every dtype pair OpenCV
 * has: alpha == 1 && beta == 0 (within DBL_EPSILON) is a plain saturating
 * cast; otherwise x is widened to f32 and dst = saturate(fmaf(x,
 * (float)alpha, (float)beta)) (s32 -> s32 uses fma in double). Float ->
 * integer rounds half to even; NaN and values outside int32 become INT_MIN
 * before saturation (so they give 0 for u8/u16, -32768 for s16), as in
 * OpenCV. f16/bf16 outputs round to nearest even (inf on overflow, NaN
 * kept NaN); f16/bf16 inputs widen exactly (a signalling NaN input,
 * f16, bf16 or f32, is read as quiet, as F16C does for half). pixflow's result is the same on every machine and
 * ISA level; OpenCV's is not: where its dispatch does not pick AVX2 it
 * does not fuse the multiply-add (differences of 1 / one f32 rounding) and
 * turns f16 inf/NaN -> u16 into 65535 (docs/exactness.md).
 * In place (dst == src) only on the same view with the same element size
 * and channel c -> c; any other overlap is PF_ERR_INVALID_ARGUMENT.
 * Backends (pf_convert, pf_reformat, pf_normalize): CUDA device
 * views run on the GPU, one thread per output pixel, with the CPU path's
 * bits (NaNs included: the GPU reproduces x86's NaN propagation); device
 * views must be element-aligned (address, row and plane strides multiples
 * of the element size; PF_ERR_UNSUPPORTED otherwise). */
PF_API pf_status pf_convert(pf_stream *stream, int count, const pf_image src[],
                            pf_image dst[], const pf_convert_opts *opts);

/* pf_reformat: layout change (HWC <-> CHW) and channel reorder/select/fill
 * with no value change; src and dst dtypes must be equal (any dtype).
 * order may be NULL (identity); fill is the value of PF_CHANNEL_FILL
 * channels (saturated, rounded half even for integer dtypes). */
PF_API pf_status pf_reformat(pf_stream *stream, int count, const pf_image src[],
                             pf_image dst[], const int8_t order[4], double fill);

typedef enum pf_norm_mode {
    PF_NORM_MEAN_STD = 0, /* dst = (src * scale - mean[c]) / std[c] */
    PF_NORM_MINMAX = 32   /* OpenCV NORM_MINMAX: per image, [min,max] -> [lo,hi] */
} pf_norm_mode;

typedef struct pf_norm_params {
    float mean[4]; /* per channel, in the scaled domain */
    float std[4];  /* per channel, must be finite and != 0 */
} pf_norm_params;

typedef struct pf_normalize_opts {
    pf_norm_mode mode;                /* default PF_NORM_MEAN_STD */
    float scale;                      /* default 1 */
    pf_norm_params params;            /* default mean 0, std 1 */
    const pf_norm_params *per_sample; /* optional: count entries, override params */
    double lo, hi;                    /* PF_NORM_MINMAX range; default 0, 1 */
    int8_t order[4];                  /* channel mapping; default identity */
} pf_normalize_opts;

PF_API pf_normalize_opts pf_normalize_opts_defaults(void);

/* pf_normalize: u8/u16/f32 in, f32/f16/bf16/u8 out, HWC or CHW on either
 * side, channel order applied in the same pass (e.g. {2,1,0} for BGR ->
 * RGB). opts may be NULL (identity normalization).
 *
 * PF_NORM_MEAN_STD: for dst channel c (mean/std are indexed by the DST
 * channel, i.e. after the order mapping), in f32 exactly as written:
 * dst = (src[order[c]] * scale - mean[c]) / std[c] (a true division;
 * scale == 1 skips the product). Bit-identical to OpenCV's
 * convertTo(CV_32F, scale) + subtract(Scalar(mean)) + divide(Scalar(std))
 * chain when the Scalars hold these float values (OpenCV divides in double
 * and rounds to float, which equals the float division for float
 * operands); u8/f16/bf16 outputs round that f32 half-even / to nearest
 * even. opts->per_sample (count entries) overrides params per sample.
 * PF_CHANNEL_FILL is not accepted (no fill value).
 *
 * PF_NORM_MINMAX: per image, min/max over all src channels, then OpenCV
 * cv::normalize(src, dst, lo, hi, NORM_MINMAX, ddepth)'s scale/shift
 * (float-rounded for f32 output, double otherwise; bf16 like f16) and the
 * convertTo rules above: bit-exact to OpenCV for u8 and f32 outputs. NaN
 * elements are ignored by the min/max.
 *
 * CUDA device views: both modes run on the GPU with the CPU path's bits
 * (MINMAX: a per-image min/max reduction, the scale/shift in double on the
 * device, then the element map; one exception: an f32 image whose minimum
 * or maximum is a zero present with both signs, with lo or hi == -0.0,
 * may get the other zero sign in the shift). */
PF_API pf_status pf_normalize(pf_stream *stream, int count, const pf_image src[],
                              pf_image dst[], const pf_normalize_opts *opts);

/* ========================================================== channel ops */

/* pf_split: src[i] (C channels) -> dst[i*C + c] (1 channel each), same
 * dtype. pf_merge: src[i*channels + c] (1 channel each) -> dst[i]
 * (channels channels, HWC or CHW). cv::split / cv::merge semantics, any
 * dtype, any strides; with a variable C per sample, dst[] of pf_split is
 * indexed by the running sum of the channel counts. Planes must not
 * overlap each other or the multi-channel image. */
PF_API pf_status pf_split(pf_stream *stream, int count, const pf_image src[], pf_image dst[]);
PF_API pf_status pf_merge(pf_stream *stream, int count, int channels, const pf_image src[],
                          pf_image dst[]);

/* ================================================================== LUT */

typedef struct pf_lut_opts {
    int table_channels; /* 1: one table for all channels (default); or the
                           image's channel count: one table per channel */
    int per_sample;     /* 0 (default): the same tables for every sample;
                           1: sample i uses tables + i * 256 * table_channels */
} pf_lut_opts;

PF_API pf_lut_opts pf_lut_opts_defaults(void);

/* pf_lut: dst = table[c][src] for u8 images (OpenCV cv::LUT). `tables` is
 * table_channels consecutive 256-byte tables (per sample when per_sample).
 * HWC or CHW (same layout on both sides); dst may be src (in place). */
PF_API pf_status pf_lut(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                        const uint8_t *tables, const pf_lut_opts *opts);

/* ============================================================= geometry */

/* Border modes; values equal OpenCV's cv::BorderTypes. For a row
 * "abcdefgh": CONSTANT iiii|abcdefgh|iiii (i = the given value),
 * REPLICATE aaaa|abcdefgh|hhhh, REFLECT dcba|abcdefgh|hgfe,
 * WRAP efgh|abcdefgh|abcd, REFLECT_101 edcb|abcdefgh|gfed. */
typedef enum pf_border {
    PF_BORDER_CONSTANT = 0,
    PF_BORDER_REPLICATE = 1,
    PF_BORDER_REFLECT = 2,
    PF_BORDER_WRAP = 3,
    PF_BORDER_REFLECT_101 = 4
} pf_border;

/* Flip codes: the first three equal OpenCV's flipCode argument of
 * cv::flip; PF_FLIP_NONE (pixflow) copies, so a batch can flip some
 * samples and not others. */
typedef enum pf_flip_code {
    PF_FLIP_BOTH = -1,      /* around both axes (= rotate 180) */
    PF_FLIP_VERTICAL = 0,   /* upside down: row y <- row H-1-y */
    PF_FLIP_HORIZONTAL = 1, /* mirror: column x <- column W-1-x */
    PF_FLIP_NONE = 2
} pf_flip_code;

/* Quarter turns; values equal OpenCV's cv::RotateFlags, plus
 * PF_ROTATE_NONE (pixflow) for "copy". */
typedef enum pf_rotate_code {
    PF_ROTATE_90_CLOCKWISE = 0,
    PF_ROTATE_180 = 1,
    PF_ROTATE_90_COUNTERCLOCKWISE = 2,
    PF_ROTATE_NONE = 3
} pf_rotate_code;

/*
 * pf_flip: dst[i] = src[i] flipped by codes[i] (ncodes == count), or by
 * codes[0] for every sample (ncodes == 1). Equals cv::flip bit for bit.
 * pf_rotate: quarter turns (dst is H x W for 90-degree codes), equals
 * cv::rotate. pf_transpose: dst(x, y) = src(y, x), equals cv::transpose.
 *
 * All three: any dtype, 1..4 channels, HWC or CHW (same layout on both
 * sides), any strides (negative included). src and dst must not overlap
 * (no in-place). Single pass: pixflow's rotate does not go through a
 * transpose + flip like OpenCV's.
 * Backends: pf_flip also runs on CUDA device views (any dtype, alignment
 * and layout above; per-sample codes; the same bytes); pf_rotate and
 * pf_transpose are CPU only.
 */
PF_API pf_status pf_flip(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                         const pf_flip_code codes[], int ncodes);
PF_API pf_status pf_rotate(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                           const pf_rotate_code codes[], int ncodes);
PF_API pf_status pf_transpose(pf_stream *stream, int count, const pf_image src[], pf_image dst[]);

/* Border geometry of one sample for pf_copy_make_border: src is placed at
 * (left, top) inside dst; the right and bottom border widths follow from
 * dst's size (dst.width - src.width - left, ...), and must be >= 0. */
typedef struct pf_border_params {
    int32_t top, left;
    pf_border mode;
    double value[4]; /* PF_BORDER_CONSTANT: per-channel value (saturated to the dtype) */
} pf_border_params;

/*
 * pf_copy_make_border: pads src[i] into dst[i] with params[i]
 * (nparams == count) or params[0] for all (nparams == 1). Equals
 * cv::copyMakeBorder bit for bit. Any dtype, 1..4 channels, HWC or CHW,
 * any strides; REFLECT_101 and WRAP work for borders wider than the image
 * as OpenCV's borderInterpolate does (REFLECT_101 of a 1-pixel axis
 * replicates). src and dst must not overlap.
 */
PF_API pf_status pf_copy_make_border(pf_stream *stream, int count, const pf_image src[],
                                     pf_image dst[], const pf_border_params params[], int nparams);

/* ================================================================ warps */

/* OpenCV's BORDER_TRANSPARENT for the warps: output pixels whose source
 * neighbourhood is not inside the image are left untouched. */
#define PF_BORDER_TRANSPARENT ((pf_border)5)

/* pf_warp_opts.flags: the matrix maps dst -> src (OpenCV's
 * WARP_INVERSE_MAP); without it the matrix maps src -> dst and is inverted
 * in double precision as OpenCV does. */
#define PF_WARP_INVERSE_MAP 16

typedef struct pf_warp_opts {
    pf_interp interp;       /* NEAREST, LINEAR (default) or CUBIC */
    pf_border border;       /* default PF_BORDER_CONSTANT; any pf_border or PF_BORDER_TRANSPARENT */
    double border_value[4]; /* CONSTANT: per-channel value, saturated to the dtype (default 0) */
    int flags;              /* 0 (default) or PF_WARP_INVERSE_MAP; pf_remap requires 0 */
} pf_warp_opts;

PF_API pf_warp_opts pf_warp_opts_defaults(void);

/*
 * pf_warp_affine: dst[i](x, y) = src[i](M * (x, y, 1)) with M the 2x3
 * matrix matrices[6*i .. 6*i+5] (row-major, nmatrices == count), or the
 * first one for every sample (nmatrices == 1). Without
 * PF_WARP_INVERSE_MAP the matrices map src -> dst and are inverted first.
 * pf_warp_perspective: the same with 3x3 matrices (9 doubles each) and a
 * division by the third coordinate.
 * pf_remap: dst[i](x, y) = src[i](map_x[i](x, y), map_y[i](x, y)); the
 * maps are 1-channel f32 images of dst[i]'s size (any strides).
 *
 * All three equal OpenCV 4.x cv::warpAffine / cv::warpPerspective /
 * cv::remap (float maps): source positions are quantised to 1/32 pixel
 * (NEAREST: to the pixel) exactly as OpenCV does, so
 *   - u8: bit-exact for every interp, border and channel count;
 *   - u16, f32: the same operations in the same order (float weights);
 *     bit-identical in every tested case (contract: f32 within 1e-4
 *     relative, u16 within 1).
 * dtypes u8, u16, f32; 1..4 channels; HWC, or CHW (each plane warped with
 * the same coordinates; src and dst in the same layout); any strides;
 * src and dst may differ in size.
 *
 * Backends: host views run on the CPU. pf_warp_affine and
 * pf_warp_perspective also run on CUDA device views (stream of that
 * device, or NULL for synchronous), with the same coverage as the CPU
 * (every interp, border, dtype, channel count, layout, stride, per-sample
 * matrix and INVERSE_MAP; the inversion runs on the host with the CPU's
 * code) and the same bits as the CPU path (docs/exactness.md, "GPU
 * warps"). pf_remap is host only (device views: PF_ERR_UNSUPPORTED).
 *
 * Not supported (clear error): AREA / LANCZOS4 / NEAREST_EXACT interp,
 * matrices with NaN or infinite entries, a singular matrix to invert
 * (OpenCV silently uses zeros there), in-place or overlapping src/dst
 * (maps may not overlap dst either), images wider or taller than 32767
 * (OpenCV's int16 coordinates).
 */
PF_API pf_status pf_warp_affine(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                                const double matrices[], int nmatrices, const pf_warp_opts *opts);
PF_API pf_status pf_warp_perspective(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                                     const double matrices[], int nmatrices, const pf_warp_opts *opts);
PF_API pf_status pf_remap(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                          const pf_image map_x[], const pf_image map_y[], const pf_warp_opts *opts);

/* Matrix helpers; each equals its OpenCV counterpart bit for bit (points
 * are float like OpenCV's Point2f, results double).
 * pf_rotation_matrix_2d = cv::getRotationMatrix2D (degrees, counter-
 * clockwise for positive angles with the y axis down, about (cx, cy)).
 * pf_affine_from_points = cv::getAffineTransform: src/dst are 3 (x, y)
 * pairs; pf_perspective_from_points = cv::getPerspectiveTransform: 4
 * pairs (Gaussian elimination with partial pivoting, as OpenCV's
 * DECOMP_LU); collinear / degenerate points give PF_ERR_INVALID_ARGUMENT.
 * pf_invert_affine = cv::invertAffineTransform (singular: an error). */
PF_API pf_status pf_rotation_matrix_2d(float cx, float cy, double angle_deg, double scale, double m[6]);
PF_API pf_status pf_affine_from_points(const float src[6], const float dst[6], double m[6]);
PF_API pf_status pf_perspective_from_points(const float src[8], const float dst[8], double m[9]);
PF_API pf_status pf_invert_affine(const double m[6], double inv[6]);

/* ========================================================== photometric */

/*
 * Photometric augmentation ops: torchvision.transforms.v2.functional
 * semantics (adjust_brightness/contrast/saturation/hue/gamma,
 * rgb_to_grayscale, invert, solarize, posterize, autocontrast, equalize,
 * gaussian_noise, erase), plus pf_color_twist (a 3x4 colour matrix).
 *
 * Common rules:
 *  - dtypes PF_U8 (0..255) and PF_F32 (values in [0, 1], as torchvision);
 *    src[i] and dst[i] have the same size, dtype and layout.
 *  - Per-sample parameters are arrays of n entries: n == count (sample i
 *    uses entry i) or n == 1 (every sample uses entry 0), like pf_flip.
 *    Factors are doubles because torchvision takes Python floats: each is
 *    rounded to float32 where torch does, and 1 - factor is formed in
 *    double first, as torch does.
 *  - Channel-wise ops (brightness, gamma, invert, solarize, posterize,
 *    autocontrast, equalize, gaussian_noise, erase): 1..4 channels, HWC or
 *    CHW. Colour ops (contrast, saturation, hue, grayscale, color_twist):
 *    3 channels (RGB order) HWC; contrast, saturation, hue and grayscale
 *    also take 1 channel as torchvision does (saturation and hue: a copy;
 *    contrast: blend with the image mean; grayscale: copy or repeat).
 *  - dst may be src (the same view: in place); any other overlap is
 *    rejected. Results never depend on the thread count.
 *  - Exactness against torchvision (a numpy transcription of its float32
 *    arithmetic; docs/exactness.md): u8 bit-exact for every op except
 *    contrast (torch's mean reduction order), gamma (torch's SLEEF powf)
 *    and hue; f32 within a few ulp. gaussian_noise uses pixflow's Philox
 *    stream, not torch's generator.
 */

/* dst = clamp(src * factor, 0, max); factor >= 0 (max = 255 or 1). */
PF_API pf_status pf_adjust_brightness(pf_stream *stream, int count, const pf_image src[],
                                      pf_image dst[], const double factors[], int n);
/* Blend with the mean of the (floored, for u8) grayscale image;
 * factor >= 0. */
PF_API pf_status pf_adjust_contrast(pf_stream *stream, int count, const pf_image src[],
                                    pf_image dst[], const double factors[], int n);
/* Blend with the (floored, for u8) grayscale pixel; factor >= 0. */
PF_API pf_status pf_adjust_saturation(pf_stream *stream, int count, const pf_image src[],
                                      pf_image dst[], const double factors[], int n);
/* Hue rotation through torchvision's float HSV round trip;
 * hue in [-0.5, 0.5] (fractions of a turn). */
PF_API pf_status pf_adjust_hue(pf_stream *stream, int count, const pf_image src[],
                               pf_image dst[], const double hues[], int n);
/* dst = clamp(gain * (src/max)^gamma, 0, 1) * max; gamma >= 0, gain >= 0
 * and finite. gains may be NULL (gain 1 for all: no clamp, as torch). */
PF_API pf_status pf_adjust_gamma(pf_stream *stream, int count, const pf_image src[],
                                 pf_image dst[], const double gammas[], const double gains[],
                                 int n);
/* Luma 0.2989 R + 0.587 G + 0.114 B (truncated for u8); dst has 1 channel
 * or 3 (the luma repeated). A 1-channel src is copied or repeated. */
PF_API pf_status pf_rgb_to_grayscale(pf_stream *stream, int count, const pf_image src[],
                                     pf_image dst[]);
/* dst = max - src: 255 - x for u8 (bit-exact to cv::bitwise_not), 1 - x for
 * f32; 1..4 channels, HWC or CHW, in place allowed. */
PF_API pf_status pf_invert(pf_stream *stream, int count, const pf_image src[], pf_image dst[]);
/* dst = src >= threshold ? max - src : src; threshold <= max (dtype units:
 * 0..255 for u8, 0..1 for f32), not NaN. */
PF_API pf_status pf_solarize(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                             const double thresholds[], int n);
/* Keep the top `bits` bits (0..8, torchvision's range; 0 gives black).
 * f32: floor(x * 2^bits) clamped to [0, 2^bits - 1], times 2^-bits. */
PF_API pf_status pf_posterize(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                              const int bits[], int n);
/* Per channel: stretch [min, max] of the image to [0, max]. */
PF_API pf_status pf_autocontrast(pf_stream *stream, int count, const pf_image src[],
                                 pf_image dst[]);
/* Per channel histogram equalization with torchvision's (= PIL's) LUT
 * rule; f32 goes through u8 (trunc(x * 255.999)) and back (/255). */
PF_API pf_status pf_equalize(pf_stream *stream, int count, const pf_image src[], pf_image dst[]);

/*
 * pf_color_twist: dst[c] = M[c][0] R + M[c][1] G + M[c][2] B + M[c][3],
 * with M a row-major 3x4 float matrix (12 floats per entry of
 * `matrices`; n == 1 or count), evaluated in float32 as
 * ((M0 R + M1 G) + M2 B) + M3 without fused multiply-adds, on pixel
 * values in the dtype's units (0..255 for u8). u8: rounded half to even
 * and saturated (OpenCV saturate_cast); f32: not clamped. 3 channels, HWC.
 */
PF_API pf_status pf_color_twist(pf_stream *stream, int count, const pf_image src[],
                                pf_image dst[], const float matrices[], int n);

typedef struct pf_noise_opts {
    uint64_t seed;               /* Philox key; default 0 */
    bool clip;                   /* default true: clamp to [0, max] */
    const uint64_t *sample_ids;  /* optional, count entries: the id that keys each
                                    sample's stream (default: its batch index) */
} pf_noise_opts;

PF_API pf_noise_opts pf_noise_opts_defaults(void);

/*
 * pf_gaussian_noise: dst = src + (mean + sigma * z), z standard normal,
 * means/sigmas in [0, 1] units for both dtypes (torchvision v2
 * GaussianNoise); sigma >= 0, both finite. f32: added in float, then
 * clamped to [0, 1] when clip. u8 (torchvision 0.29's rule): the noise
 * mean*255 + z*sigma*255 is truncated toward zero to an integer, added,
 * then clamped to [0, 255] (clip) or wrapped modulo 256 (no clip).
 * z comes from Philox4x32-10 keyed by (seed, sample id): element
 * (c, y, x) of a sample takes normal number (y*W + x)*C + c of its
 * stream, whatever the layout, batch position or thread count.
 * opts may be NULL.
 */
PF_API pf_status pf_gaussian_noise(pf_stream *stream, int count, const pf_image src[],
                                   pf_image dst[], const double means[], const double sigmas[],
                                   int n, const pf_noise_opts *opts);

/* A rectangle for pf_erase: pixels [x, x + width) x [y, y + height) get
 * value[c] in channel c (saturated to the dtype, rounded for u8). */
typedef struct pf_erase_rect {
    int32_t x, y, width, height; /* width/height 0 = nothing; must lie inside the image */
    double value[4];
} pf_erase_rect;

/*
 * pf_erase (torchvision erase / RandomErasing with constant values):
 * dst = src with rectangles filled. Sample i uses rect_counts[i]
 * rectangles taken consecutively from `rects` (sample 0's first) when
 * ncounts == count, or the same rect_counts[0] rectangles
 * rects[0 .. rect_counts[0]) when ncounts == 1. Later rectangles paint
 * over earlier ones. u8, u16 or f32, 1..4 channels, HWC or CHW; in place
 * (dst == src) writes only the rectangles.
 */
PF_API pf_status pf_erase(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                          const pf_erase_rect rects[], const int32_t rect_counts[], int ncounts);


/* ============================================================== filters */

/*
 * Neighbourhood filters. Common rules for every op of this section:
 * - u8 and f32 samples (every op) and u16 (Gaussian, box, median 3 and 5,
 *   erode / dilate; filter_2d and sharpen return PF_ERR_UNSUPPORTED for
 *   u16), 1..4 channels, HWC or CHW (same layout on both
 *   sides; a CHW plane is filtered on its own), any strides (negative
 *   included); dst has src's size, dtype and channel count. src and dst
 *   must not overlap (no in-place).
 * - Per-sample parameters: params[i] (nparams == count) or params[0] for
 *   every sample (nparams == 1).
 * - Borders are pf_border modes with cv::borderInterpolate semantics;
 *   PF_BORDER_CONSTANT reads 0 outside the image (OpenCV's filters do the
 *   same) except for erode/dilate (see pf_morph_params). PF_BORDER_WRAP is
 *   rejected, as OpenCV's filters reject it.
 * - A view has no parent image: pixels outside it are never read. This
 *   equals OpenCV on a whole Mat or with BORDER_ISOLATED (a cv::Mat ROI
 *   without BORDER_ISOLATED reads its parent's pixels instead).
 * - Kernel sides are at most 1023 (median: 255).
 * - Results do not depend on the thread count or the SIMD level (f32
 *   included: the SIMD kernels keep the reference's operation order).
 * - u16: Gaussian bit-exact (OpenCV's 16.16 fixed-point path), median and
 *   erode / dilate bit-exact, box within 1 (OpenCV's f64 tail columns).
 * Exactness vs OpenCV 4.6 per op is stated below and in docs/exactness.md.
 */

/* cv::GaussianBlur parameters. ksize: odd >= 1, or 0 to derive it from
 * sigma (OpenCV's rule: round(sigma * (u8 ? 6 : 8) + 1) | 1). sigma <= 0
 * derives sigma from ksize (0.3 * ((k - 1) * 0.5 - 1) + 0.8, with OpenCV's
 * fixed tables for k <= 9); sigma_y <= 0 means sigma_y = sigma_x. */
typedef struct pf_gaussian_params {
    int32_t ksize_x, ksize_y;
    double sigma_x, sigma_y;
    pf_border border; /* default PF_BORDER_REFLECT_101 */
} pf_gaussian_params;

/* 3x3, sigma 0 (from ksize), PF_BORDER_REFLECT_101. */
PF_API void pf_gaussian_params_defaults(pf_gaussian_params *params);

/* pf_gaussian_blur: equals cv::GaussianBlur. u8: bit-exact (OpenCV's
 * 8.8 fixed-point separable path: kernel quantized to 1/256 with error
 * diffusion, horizontal sums exact, vertical sum rounded at 16 bits).
 * f32: separable float filter, within 1e-5 relative of OpenCV. */
PF_API pf_status pf_gaussian_blur(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                                  const pf_gaussian_params params[], int nparams);

/* cv::blur (normalized box filter) parameters; anchor -1 = centre. */
typedef struct pf_box_params {
    int32_t ksize_x, ksize_y; /* >= 1, any parity */
    int32_t anchor_x, anchor_y;
    pf_border border; /* default PF_BORDER_REFLECT_101 */
} pf_box_params;

/* 3x3, anchor centre, PF_BORDER_REFLECT_101. */
PF_API void pf_box_params_defaults(pf_box_params *params);

/* pf_box_blur: equals cv::blur. u8 with ksize_x * ksize_y <= 256:
 * bit-exact (OpenCV's exact integer division of the window sum); larger
 * u8 windows round sum * (float)(1/area) in float like OpenCV's SIMD body
 * (its scalar tail columns use double and may differ by 1). f32: sums in
 * double, within 1e-5 relative. */
PF_API pf_status pf_box_blur(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                             const pf_box_params params[], int nparams);

/* pf_median_blur: equals cv::medianBlur bit for bit, whose border is
 * always replicate. ksizes[i] (nksizes 1 or count): odd; 1 copies; 3 and 5
 * for u8 and f32; 7 and above for u8 only, and then 1, 3 or 4 channels
 * (OpenCV's limits). */
PF_API pf_status pf_median_blur(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                                const int32_t ksizes[], int nksizes);

/* cv::filter2D parameters (correlation, like OpenCV: the kernel is not
 * flipped). kernel: ksize_y rows of ksize_x floats, row-major. */
typedef struct pf_filter2d_params {
    const float *kernel;
    int32_t ksize_x, ksize_y; /* >= 1 */
    int32_t anchor_x, anchor_y; /* -1 = centre (ksize / 2) */
    double delta;               /* added to every output */
    pf_border border;           /* default PF_BORDER_REFLECT_101 */
} pf_filter2d_params;

/* kernel NULL, ksize 0 (the caller must set both), anchor centre,
 * delta 0, PF_BORDER_REFLECT_101. */
PF_API void pf_filter2d_params_defaults(pf_filter2d_params *params);

/* pf_filter_2d: dst = saturate(round(delta + sum k * src)) for u8 (round
 * half to even), accumulated in f32 over the non-zero taps in row-major
 * order, no FMA. Matches cv::filter2D within 1 for u8 (OpenCV's AVX2 body
 * uses FMA, and kernels of >= 130 taps go through its DFT path) and within
 * 1e-4 relative for f32. */
PF_API pf_status pf_filter_2d(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                              const pf_filter2d_params params[], int nparams);

/* cv::erode / cv::dilate with a rectangular structuring element. */
typedef struct pf_morph_params {
    int32_t ksize_x, ksize_y;   /* >= 1 */
    int32_t anchor_x, anchor_y; /* -1 = centre */
    int32_t iterations;         /* >= 0; 0 copies */
    pf_border border;           /* default PF_BORDER_CONSTANT */
    /* PF_BORDER_CONSTANT only. 0 (default): OpenCV's
     * morphologyDefaultBorderValue, i.e. outside pixels never win (erode
     * reads the dtype's max, dilate its min). 1: border_value[c],
     * saturated to the dtype. */
    int32_t use_border_value;
    double border_value[4];
} pf_morph_params;

/* 3x3, anchor centre, 1 iteration, PF_BORDER_CONSTANT with OpenCV's
 * default border value. */
PF_API void pf_morph_params_defaults(pf_morph_params *params);

/* pf_erode / pf_dilate: windowed min / max, bit-exact with cv::erode /
 * cv::dilate. Like OpenCV, n iterations of a k x k rectangle run as one
 * pass of a (k - 1) * n + 1 rectangle with the anchor scaled by n. */
PF_API pf_status pf_erode(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                          const pf_morph_params params[], int nparams);
PF_API pf_status pf_dilate(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                           const pf_morph_params params[], int nparams);

/*
 * pf_sharpen: torchvision's adjust_sharpness(img, factor) (factors[i],
 * nfactors 1 or count; >= 0, finite). With the 3x3 smoothing kernel
 * [[1,1,1],[1,5,1],[1,1,1]] / 13 (f32 weights):
 *   blurred = the kernel applied to interior pixels (rounded half to even
 *             for u8); the first/last row and column keep the source;
 *   dst = clamp(factor * src + (1 - factor) * blurred, 0, 1 or 255),
 *         computed in f32 and truncated to u8 (torchvision's _blend).
 * Images with width or height <= 2 are copied. factor 1 = identity,
 * 0 = the blurred image, > 1 sharpens. No border mode: torchvision keeps
 * the border pixels.
 */
PF_API pf_status pf_sharpen(pf_stream *stream, int count, const pf_image src[], pf_image dst[],
                            const float factors[], int nfactors);

#ifdef __cplusplus
}
#endif

#endif /* PIXFLOW_OPS_H */
