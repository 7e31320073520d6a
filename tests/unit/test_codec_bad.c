/*
 * Broken inputs (tests/fuzz/corpus/bad_*, made by make_corpus.py): each
 * gives its status with a message that says what is wrong (and where,
 * when known); the same decoder keeps working afterwards; nothing leaks
 * (run under ASan in the sanitizer build).
 */
#include <stdlib.h>
#include <string.h>

#include "pixflow/codec.h"
#include "test_util.h"
#include "unit/codec_test_io.h"

typedef struct bad_case {
    const char *file;
    pf_status want;
    const char *needle;   /* part of the message */
} bad_case;

static const bad_case k_cases[] = {
    {"bad_truncated.jpg", PF_ERR_CORRUPT_DATA, "truncated: data ends at byte"},
    {"bad_header_only.jpg", PF_ERR_CORRUPT_DATA, "before a frame header"},
    {"bad_magic.jpg", PF_ERR_UNSUPPORTED, "unknown image format"},
    {"bad_zero_height.jpg", PF_ERR_CORRUPT_DATA, "61x0"},
    {"bad_zero_width.jpg", PF_ERR_CORRUPT_DATA, "0x45"},
    {"bad_huge.jpg", PF_ERR_UNSUPPORTED, "over the limit"},
    {"bad_cmyk_no_adobe.jpg", PF_ERR_UNSUPPORTED, "Adobe"},
    {"bad_truncated.png", PF_ERR_CORRUPT_DATA, "PNG"},
    {"bad_crc.png", PF_ERR_CORRUPT_DATA, "CRC"},
    {"bad_huge.png", PF_ERR_UNSUPPORTED, "over the limit"},
    {"bad_zero.png", PF_ERR_CORRUPT_DATA, "0x21"},
    {"bad_truncated.webp", PF_ERR_CORRUPT_DATA, "WebP"},
    {"bad_gif.gif", PF_ERR_UNSUPPORTED, "unknown image format"},
    {"bad_empty.bin", PF_ERR_CORRUPT_DATA, "empty"},
    {"bad_text.txt", PF_ERR_UNSUPPORTED, "unknown image format"},
};

/* Full RGB decode through dec (query first, so probe-level failures come
 * from the query); returns the status. */
static pf_status try_decode(pf_decoder *dec, const unsigned char *d, size_t n, const pf_decode_opts *o,
                            pf_decode_result *r) {
    pf_decode_opts def = pf_decode_opts_defaults();
    if (o == NULL) o = &def;
    pf_decode_result q;
    pf_status st = pf_decode_query(d, n, o, &q);
    /* decode anyway on a plausible buffer: pf_decode must fail the same way */
    int32_t w = st == PF_OK ? q.width : 1, h = st == PF_OK ? q.height : 1, c = st == PF_OK ? q.channels : 3;
    unsigned char *px = malloc((size_t)w * (size_t)h * (size_t)c);
    pf_image img = pf_image_hwc(px, w, h, c, PF_U8, 0);
    pf_status st2 = pf_decode(dec, d, n, o, &img, r);
    free(px);
    if (st != PF_OK && st2 != st) {
        fprintf(stderr, "query said %s, decode %s\n", pf_status_str(st), pf_status_str(st2));
        return PF_ERR_INTERNAL;
    }
    return st2;
}

int main(void) {
    pf_decoder *dec = NULL;
    CHECK_STATUS(pf_decoder_create(&dec), PF_OK);
    size_t gn;
    unsigned char *good = pft_load(PF_CORPUS_DIR, "ok_420.jpg", &gn);
    pf_decode_result r;
    unsigned char ref[61 * 45 * 3], got[61 * 45 * 3];
    pf_image gi = pf_image_hwc(ref, 61, 45, 3, PF_U8, 0);
    CHECK_STATUS(pf_decode(NULL, good, gn, NULL, &gi, &r), PF_OK);
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
        size_t n;
        unsigned char *d = pft_load(PF_CORPUS_DIR, k_cases[i].file, &n);
        pf_status st = try_decode(dec, d, n, NULL, &r);
        if (st != k_cases[i].want)
            fprintf(stderr, "%s: got %s (%s), want %s\n", k_cases[i].file, pf_status_str(st), pf_last_error(),
                    pf_status_str(k_cases[i].want));
        CHECK(st == k_cases[i].want);
        CHECK_MSG(k_cases[i].needle);
        printf("  %-24s %-22s %s\n", k_cases[i].file, pf_status_str(st), pf_last_error());
        /* the decoder still decodes a good file to the same bits */
        pf_image img = pf_image_hwc(got, 61, 45, 3, PF_U8, 0);
        CHECK_STATUS(pf_decode(dec, good, gn, NULL, &img, &r), PF_OK);
        CHECK(memcmp(ref, got, sizeof ref) == 0);
        free(d);
    }
    size_t n;
    unsigned char *d;
    /* corrupt Huffman data: libjpeg decodes it with warnings (counted);
     * strict mode turns them into an error */
    d = pft_load(PF_CORPUS_DIR, "bad_huffman.jpg", &n);
    pf_status st = try_decode(dec, d, n, NULL, &r);
    CHECK(st == PF_ERR_CORRUPT_DATA || (st == PF_OK && r.warnings > 0));
    printf("  bad_huffman.jpg          %s, %d warnings\n", pf_status_str(st), (int)r.warnings);
    pf_decode_opts strict = pf_decode_opts_defaults();
    strict.warnings_are_errors = true;
    CHECK_STATUS(try_decode(dec, d, n, &strict, &r), PF_ERR_CORRUPT_DATA);
    CHECK_MSG("byte");
    printf("  bad_huffman.jpg strict   %s\n", pf_last_error());
    free(d);
    /* a truncated baseline JPEG: a ROI above the cut decodes (early stop) */
    d = pft_load(PF_CORPUS_DIR, "bad_truncated.jpg", &n);
    pf_decode_opts top = pf_decode_opts_defaults();
    top.roi_x = 0, top.roi_y = 0, top.roi_w = 61, top.roi_h = 8;
    CHECK_STATUS(try_decode(dec, d, n, &top, &r), PF_OK);
    free(d);
    /* the pixel limit is configurable both ways: the huge JPEG passes the
     * limit check with a bigger limit; its scan then ends (at the file's
     * EOI) long before the frame does: libjpeg's "premature end of data
     * segment" warning, an error in strict mode */
    d = pft_load(PF_CORPUS_DIR, "bad_huge.jpg", &n);
    pf_decode_opts big = pf_decode_opts_defaults();
    big.max_pixels = 5000000000ull;
    big.roi_w = 64, big.roi_h = 64; /* keep the buffer small */
    CHECK_STATUS(try_decode(dec, d, n, &big, &r), PF_OK);
    CHECK(r.warnings > 0);
    big.warnings_are_errors = true;
    CHECK_STATUS(try_decode(dec, d, n, &big, &r), PF_ERR_CORRUPT_DATA);
    CHECK_MSG("premature end");
    free(d);
    /* every prefix of a good JPEG / PNG / WebP fails cleanly or decodes */
    const char *files[] = {"ok_420.jpg", "ok_progressive.jpg", "ok_interlaced.png", "ok_lossy.webp", "ok_cmyk_adobe.jpg"};
    for (int f = 0; f < 5; f++) {
        d = pft_load(PF_CORPUS_DIR, files[f], &n);
        int ok = 0, fail = 0;
        for (size_t len = 0; len < n; len += 1 + len / 16) {
            st = try_decode(dec, d, len, NULL, &r);
            ok += st == PF_OK;
            fail += st == PF_ERR_CORRUPT_DATA || st == PF_ERR_UNSUPPORTED;
        }
        CHECK(ok + fail > 0 && fail > 0);
        CHECK(try_decode(dec, d, n, NULL, &r) == PF_OK);
        free(d);
    }
    free(good);
    pf_decoder_destroy(dec);
    return pft_summary("test_codec_bad");
}
