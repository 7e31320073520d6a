/* PPM/PGM header parsing (the pixels are already u8 HWC after it). */
#include "pipeline/pipeline_pnm.h"

#include <string.h>

#include "core/error.h"

static int skip_space(const uint8_t *d, size_t n, size_t *i) {
    for (;;) {
        while (*i < n && (d[*i] == ' ' || d[*i] == '\t' || d[*i] == '\n' || d[*i] == '\r')) (*i)++;
        if (*i < n && d[*i] == '#') {
            while (*i < n && d[*i] != '\n') (*i)++;
            continue;
        }
        return *i < n;
    }
}

static int read_uint(const uint8_t *d, size_t n, size_t *i, int32_t *out) {
    if (!skip_space(d, n, i)) return -1;
    int64_t v = 0;
    size_t start = *i;
    while (*i < n && d[*i] >= '0' && d[*i] <= '9' && v < (1 << 30)) v = v * 10 + (d[(*i)++] - '0');
    if (*i == start || v >= (1 << 30)) return -1;
    *out = (int32_t)v;
    return 0;
}

int pli_is_codec_format(const void *data, size_t size) {
    const unsigned char *b = data;
    return size >= 4 && ((b[0] == 0xFF && b[1] == 0xD8) || (b[0] == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G') ||
                         (size >= 12 && memcmp(b, "RIFF", 4) == 0 && memcmp(b + 8, "WEBP", 4) == 0));
}

pf_status pli_pnm_header(const void *data, size_t size, int32_t *width, int32_t *height,
                         int32_t *channels, size_t *pixel_offset) {
    const uint8_t *d = data;
    if (size == 0) return pfi_fail(PF_ERR_CORRUPT_DATA, "the file is empty (0 bytes)");
    if (size < 2 || d[0] != 'P' || (d[1] != '6' && d[1] != '5'))
        return pfi_fail(PF_ERR_UNSUPPORTED, "unknown image format (first bytes %02x %02x %02x %02x): the pipeline decodes %s",
                        d[0], size > 1 ? d[1] : 0, size > 2 ? d[2] : 0, size > 3 ? d[3] : 0,
#ifdef PF_HAVE_CODEC
                        "JPEG, PNG, WebP and binary PPM/PGM (P6/P5)"
#else
                        "binary PPM/PGM (P6/P5) only: this pixflow was built without the image codec"
#endif
        );
    size_t i = 2;
    int32_t w, h, maxval;
    if (read_uint(d, size, &i, &w) || read_uint(d, size, &i, &h) || read_uint(d, size, &i, &maxval))
        return pfi_fail(PF_ERR_CORRUPT_DATA, "PPM header is malformed at byte %zu", i);
    if (w < 1 || h < 1 || maxval != 255)
        return pfi_fail(PF_ERR_CORRUPT_DATA, "PPM header says %dx%d maxval %d; need sizes >= 1 and maxval 255", (int)w, (int)h, (int)maxval);
    if (i >= size) return pfi_fail(PF_ERR_CORRUPT_DATA, "PPM ends after its header");
    i++; /* the single whitespace byte before the pixels */
    int32_t ch = d[1] == '6' ? 3 : 1;
    uint64_t need = (uint64_t)w * (uint64_t)h * (uint64_t)ch;
    if (size - i < need)
        return pfi_fail(PF_ERR_CORRUPT_DATA, "PPM is truncated: %zu pixel bytes of %llu", size - i, (unsigned long long)need);
    *width = w;
    *height = h;
    *channels = ch;
    *pixel_offset = i;
    return PF_OK;
}
