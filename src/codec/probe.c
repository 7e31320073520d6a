/*
 * pf_image_probe: format from the magic bytes, then a header-only parse.
 * JPEG is parsed here (markers up to the first SOS, no libjpeg state, no
 * allocation) with libjpeg's rules for the colour space, so a probe costs
 * microseconds; PNG reads IHDR (and scans chunk headers up to IDAT for a
 * tRNS); WebP asks libwebp's WebPGetFeatures.
 */
#include <string.h>

#include <webp/decode.h>

#include "codec/codec_internal.h"
#include "core/error.h"

#define OP "pf_image_probe"

static unsigned be16(const unsigned char *p) { return (unsigned)(p[0] << 8 | p[1]); }
static uint32_t be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static pf_jpeg_subsampling subsampling_of(const unsigned char *comps, int n) {
    if (n != 3) return PF_SUBSAMP_NONE;
    unsigned h0 = comps[1] >> 4, v0 = comps[1] & 15, h1 = comps[4] >> 4, v1 = comps[4] & 15;
    if (comps[4 + 3] != comps[4] || h1 == 0 || v1 == 0 || h0 % h1 || v0 % v1) return PF_SUBSAMP_OTHER;
    unsigned h = h0 / h1, v = v0 / v1;
    if (h == 1 && v == 1) return PF_SUBSAMP_444;
    if (h == 2 && v == 1) return PF_SUBSAMP_422;
    if (h == 2 && v == 2) return PF_SUBSAMP_420;
    if (h == 1 && v == 2) return PF_SUBSAMP_440;
    if (h == 4 && v == 1) return PF_SUBSAMP_411;
    return PF_SUBSAMP_OTHER;
}

pf_status pfi_probe_jpeg(const unsigned char *d, size_t n, pf_image_info *info) {
    int jfif = 0, adobe = 0, transform = -1, have_sof = 0;
    unsigned char comps[3 * 4] = {0};
    int ncomp = 0;
    size_t pos = 2;
    for (;;) {
        if (pos >= n) break;
        if (d[pos] != 0xFF)
            return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": JPEG marker expected at byte %zu, found 0x%02x", pos, d[pos]);
        while (pos < n && d[pos] == 0xFF) pos++;
        if (pos >= n) break;
        unsigned m = d[pos++];
        if (m == 0xD8 || m == 0x01 || (m >= 0xD0 && m <= 0xD7)) continue; /* no length */
        if (m == 0xD9 || m == 0xDA) {
            if (!have_sof)
                return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": JPEG has no frame header (SOF) before byte %zu", pos - 2);
            break;
        }
        if (n - pos < 2) break;
        unsigned len = be16(d + pos);
        if (len < 2) return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": JPEG segment length %u at byte %zu", len, pos);
        if (n - pos < len) break;
        const unsigned char *p = d + pos + 2;
        size_t pl = len - 2;
        if (m == 0xE0 && pl >= 5 && memcmp(p, "JFIF\0", 5) == 0) jfif = 1;
        if (m == 0xE1 && info->orientation == 1) info->orientation = pfi_exif_orientation(p, pl);
        if (m == 0xEE && pl >= 12 && memcmp(p, "Adobe", 5) == 0) {
            adobe = 1;
            transform = p[11];
        }
        if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC && !have_sof) {
            if (pl < 6) return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": JPEG frame header at byte %zu is short", pos);
            info->bit_depth = p[0];
            info->height = (int32_t)be16(p + 1);
            info->width = (int32_t)be16(p + 3);
            ncomp = p[5];
            if (ncomp < 1 || ncomp > 4 || pl < 6 + 3 * (size_t)ncomp)
                return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": JPEG frame header at byte %zu has %d components", pos,
                                ncomp);
            memcpy(comps, p + 6, 3 * (size_t)ncomp);
            info->progressive = m == 0xC2 || m == 0xC6 || m == 0xCA || m == 0xCE;
            if (info->width == 0 || info->height == 0)
                return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": JPEG frame header at byte %zu says %dx%d pixels", pos,
                                (int)info->width, (int)info->height);
            have_sof = 1;
        }
        pos += len;
    }
    if (!have_sof) return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": JPEG data ends at byte %zu before a frame header", n);
    info->channels = ncomp;
    info->adobe_marker = adobe;
    info->jpeg_subsampling = subsampling_of(comps, ncomp);
    if (ncomp == 1) info->jpeg_colorspace = PF_JPEG_CS_GRAY;
    else if (ncomp == 3) {
        int rgb = adobe ? transform == 0 : (!jfif && comps[0] == 'R' && comps[3] == 'G' && comps[6] == 'B');
        info->jpeg_colorspace = jfif ? PF_JPEG_CS_YCBCR : rgb ? PF_JPEG_CS_RGB : PF_JPEG_CS_YCBCR;
    } else if (ncomp == 4) info->jpeg_colorspace = adobe && transform == 2 ? PF_JPEG_CS_YCCK : PF_JPEG_CS_CMYK;
    else info->jpeg_colorspace = PF_JPEG_CS_OTHER;
    return PF_OK;
}

pf_status pfi_probe_png(const unsigned char *d, size_t n, pf_image_info *info) {
    if (n < 8 + 8 + 13 || memcmp(d + 12, "IHDR", 4) != 0 || be32(d + 8) != 13)
        return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": PNG has no IHDR chunk at byte 8");
    const unsigned char *h = d + 16;
    uint32_t w = be32(h), ht = be32(h + 4);
    unsigned depth = h[8], ct = h[9], il = h[12];
    if (w == 0 || ht == 0 || w > 0x7fffffffu || ht > 0x7fffffffu)
        return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": PNG IHDR at byte 16 says %ux%u pixels", (unsigned)w, (unsigned)ht);
    int ok_depth = (ct == 0 && (depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16)) ||
                   (ct == 3 && (depth == 1 || depth == 2 || depth == 4 || depth == 8)) ||
                   ((ct == 2 || ct == 4 || ct == 6) && (depth == 8 || depth == 16));
    if (!ok_depth || il > 1)
        return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": PNG IHDR at byte 16: colour type %u, bit depth %u, interlace %u",
                        ct, depth, il);
    info->width = (int32_t)w;
    info->height = (int32_t)ht;
    info->bit_depth = (int32_t)depth;
    info->interlaced = il == 1;
    info->palette = ct == 3;
    info->channels = ct == 0 ? 1 : ct == 4 ? 2 : ct == 6 ? 4 : 3;
    info->has_alpha = ct == 4 || ct == 6;
    /* a tRNS chunk before IDAT gives palette / gray / RGB images alpha */
    size_t pos = 8 + 25;
    while (!info->has_alpha && pos < n && n - pos >= 8) {
        uint32_t len = be32(d + pos);
        if (memcmp(d + pos + 4, "IDAT", 4) == 0 || len > n - pos - 8) break;
        if (memcmp(d + pos + 4, "tRNS", 4) == 0) info->has_alpha = true;
        if ((size_t)len + 12 > n - pos) break;
        pos += (size_t)len + 12;
    }
    return PF_OK;
}

pf_status pfi_probe_webp(const unsigned char *d, size_t n, pf_image_info *info) {
    WebPBitstreamFeatures f;
    VP8StatusCode st = WebPGetFeatures(d, n, &f);
    if (st == VP8_STATUS_NOT_ENOUGH_DATA)
        return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": WebP header truncated (%zu bytes)", n);
    if (st != VP8_STATUS_OK) return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": WebP header does not parse (libwebp status %d)", (int)st);
    if (f.has_animation) return pfi_fail(PF_ERR_UNSUPPORTED, OP ": animated WebP is not supported");
    if (f.width <= 0 || f.height <= 0)
        return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": WebP says %dx%d pixels", f.width, f.height);
    info->width = f.width;
    info->height = f.height;
    info->bit_depth = 8;
    info->has_alpha = f.has_alpha != 0;
    info->channels = f.has_alpha ? 4 : 3;
    return PF_OK;
}

const char *pf_image_format_name(pf_image_format format) {
    switch (format) {
    case PF_FORMAT_JPEG: return "jpeg";
    case PF_FORMAT_PNG: return "png";
    case PF_FORMAT_WEBP: return "webp";
    case PF_FORMAT_UNKNOWN: break;
    }
    return "unknown";
}

pf_status pf_image_probe(const void *data, size_t size, pf_image_info *info) {
    pfi_clear_error();
    if (info == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": info is NULL");
    if (data == NULL && size > 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, OP ": data is NULL but size is %zu", size);
    memset(info, 0, sizeof *info);
    info->orientation = 1;
    const unsigned char *d = data;
    if (size >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF) {
        info->format = PF_FORMAT_JPEG;
        return pfi_probe_jpeg(d, size, info);
    }
    if (size >= 8 && memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0) {
        info->format = PF_FORMAT_PNG;
        return pfi_probe_png(d, size, info);
    }
    if (size >= 12 && memcmp(d, "RIFF", 4) == 0 && memcmp(d + 8, "WEBP", 4) == 0) {
        info->format = PF_FORMAT_WEBP;
        return pfi_probe_webp(d, size, info);
    }
    if (size == 0) return pfi_fail(PF_ERR_CORRUPT_DATA, OP ": data is empty (0 bytes)");
    return pfi_fail(PF_ERR_UNSUPPORTED, OP ": unknown image format (first bytes %02x %02x %02x %02x; "
                                           "JPEG, PNG and WebP are supported)",
                    d[0], size > 1 ? d[1] : 0, size > 2 ? d[2] : 0, size > 3 ? d[3] : 0);
}
