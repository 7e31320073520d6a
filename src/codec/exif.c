/*
 * EXIF orientation from a JPEG APP1 payload: "Exif\0\0", then a TIFF
 * header (II/MM, 42, IFD0 offset) and IFD0's entries; tag 0x0112 (SHORT,
 * count 1) is the orientation. Every read is bounds-checked: the payload
 * is untrusted.
 */
#include <string.h>

#include "codec/codec_internal.h"

static unsigned rd16(const unsigned char *p, int le) {
    return le ? (unsigned)(p[0] | p[1] << 8) : (unsigned)(p[0] << 8 | p[1]);
}
static uint32_t rd32(const unsigned char *p, int le) {
    return le ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
              : (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

int32_t pfi_exif_orientation(const unsigned char *p, size_t n) {
    if (n < 6 + 8 || memcmp(p, "Exif\0\0", 6) != 0) return 1;
    const unsigned char *t = p + 6;
    size_t tn = n - 6;
    int le;
    if (t[0] == 'I' && t[1] == 'I') le = 1;
    else if (t[0] == 'M' && t[1] == 'M') le = 0;
    else return 1;
    if (rd16(t + 2, le) != 42) return 1;
    uint32_t ifd = rd32(t + 4, le);
    if (ifd > tn || tn - ifd < 2) return 1;
    unsigned count = rd16(t + ifd, le);
    for (unsigned i = 0; i < count; i++) {
        size_t e = (size_t)ifd + 2 + (size_t)i * 12;
        if (e + 12 > tn) return 1;
        if (rd16(t + e, le) != 0x0112) continue;
        if (rd16(t + e + 2, le) != 3 || rd32(t + e + 4, le) != 1) return 1;
        unsigned v = rd16(t + e + 8, le);
        return v >= 1 && v <= 8 ? (int32_t)v : 1;
    }
    return 1;
}
