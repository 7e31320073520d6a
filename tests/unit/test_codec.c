/*
 * Codec unit tests: argument checks, probe fields of every data/ photo and
 * corpus file, ROI decode == the same rectangle of a full decode (every
 * DCT scale, every pixel format), pixel-format relations, EXIF
 * orientation, opts.row_margin (in-place rows, nothing written outside
 * the margins), decoder reuse. OpenCV equality is in
 * tests/parity/parity_decode.cpp; broken inputs in test_codec_bad.c.
 */
#include <stdlib.h>
#include <string.h>

#include "pixflow/codec.h"
#include "test_util.h"
#include "unit/codec_test_io.h"

static const char *k_photos[] = {"astronaut_500x375.jpg", "camera_gray_512x512.jpg", "chelsea_333x251.jpg",
                                 "coffee_500x375.jpg", "green_leaf_1920x1080.jpg", "hubble_640x480_progressive.jpg",
                                 "ladybird_375x500.jpg", "rocket_500x375.jpg", "storm_road_1920x1080.jpg",
                                 "water_drop_1920x1080.jpg", "yellow_flower_500x375.jpg"};
enum { NPHOTO = sizeof k_photos / sizeof k_photos[0] };

/* Decodes with opts into a fresh buffer; returns NULL on failure. */
static unsigned char *decode(pf_decoder *dec, const unsigned char *d, size_t n, const pf_decode_opts *o,
                             pf_decode_result *r) {
    if (pf_decode_query(d, n, o, r) != PF_OK) return NULL;
    unsigned char *px = malloc((size_t)r->width * (size_t)r->height * (size_t)r->channels);
    pf_image img = pf_image_hwc(px, r->width, r->height, r->channels, PF_U8, 0);
    if (pf_decode(dec, d, n, o, &img, r) != PF_OK) {
        fprintf(stderr, "decode failed: %s\n", pf_last_error());
        free(px);
        return NULL;
    }
    return px;
}

/* A test file (corpus "ok_*" files or data/ photos) and its probe. */
static unsigned char *load_probed(const char *name, size_t *n, pf_image_info *info) {
    const char *dir = strncmp(name, "ok_", 3) == 0 ? PF_CORPUS_DIR : PF_DATA_DIR;
    unsigned char *d = pft_load(dir, name, n);
    pf_image_probe(d, *n, info);
    return d;
}

/* A random non-empty ROI inside the image. */
static void random_roi(uint64_t *rng, const pf_image_info *info, pf_decode_opts *o) {
    o->roi_x = pft_range(rng, 0, info->width - 1);
    o->roi_y = pft_range(rng, 0, info->height - 1);
    o->roi_w = pft_range(rng, 1, info->width - o->roi_x);
    o->roi_h = pft_range(rng, 1, info->height - o->roi_y);
}

static void test_args(void) {
    size_t n;
    unsigned char *d = pft_load(PF_DATA_DIR, "chelsea_333x251.jpg", &n);
    pf_image_info info;
    pf_decode_result r;
    CHECK_STATUS(pf_image_probe(d, n, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("info");
    CHECK_STATUS(pf_image_probe(NULL, 5, &info), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("data");
    CHECK_STATUS(pf_decode_query(d, n, NULL, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("result");
    pf_decode_opts o = pf_decode_opts_defaults();
    o.scale_num = 9;
    CHECK_STATUS(pf_decode_query(d, n, &o, &r), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts.scale_num");
    o = pf_decode_opts_defaults();
    o.pixel_format = (pf_pixel_format)7;
    CHECK_STATUS(pf_decode_query(d, n, &o, &r), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts.pixel_format");
    o = pf_decode_opts_defaults();
    o.roi_x = 300;
    o.roi_w = 40;
    o.roi_h = 10;
    CHECK_STATUS(pf_decode_query(d, n, &o, &r), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts.roi");
    o = pf_decode_opts_defaults();
    o.roi_x = -1;
    o.roi_w = 10;
    o.roi_h = 10;
    CHECK_STATUS(pf_decode_query(d, n, &o, &r), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("opts.roi");
    o = pf_decode_opts_defaults();
    o.max_pixels = 1000;
    CHECK_STATUS(pf_decode_query(d, n, &o, &r), PF_ERR_UNSUPPORTED);
    CHECK_MSG("limit");
    /* dst checks */
    unsigned char *px = malloc(333 * 251 * 4);
    pf_image bad = pf_image_hwc(px, 332, 251, 3, PF_U8, 0);
    CHECK_STATUS(pf_decode(NULL, d, n, NULL, &bad, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("pf_decode_query");
    bad = pf_image_hwc(px, 333, 251, 4, PF_U8, 0);
    CHECK_STATUS(pf_decode(NULL, d, n, NULL, &bad, NULL), PF_ERR_INVALID_ARGUMENT);
    bad = pf_image_chw(px, 333, 251, 3, PF_U8, 0, 0);
    CHECK_STATUS(pf_decode(NULL, d, n, NULL, &bad, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("HWC");
    CHECK_STATUS(pf_decode(NULL, d, n, NULL, NULL, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("dst");
    /* a negative stride view (bottom-up) gets the same pixels */
    pf_image up = pf_image_hwc(px, 333, 251, 3, PF_U8, 0);
    CHECK_STATUS(pf_decode(NULL, d, n, NULL, &up, &r), PF_OK);
    unsigned char *px2 = malloc(333 * 251 * 3);
    pf_image down = pf_image_hwc(px2 + 250 * 333 * 3, 333, 251, 3, PF_U8, -333 * 3);
    CHECK_STATUS(pf_decode(NULL, d, n, NULL, &down, &r), PF_OK);
    int same = 1;
    for (int y = 0; y < 251; y++) same &= memcmp(px + y * 999, px2 + (250 - y) * 999, 999) == 0;
    CHECK(same);
    pf_decoder_destroy(NULL);
    CHECK_STATUS(pf_decoder_create(NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(pf_image_format_name(PF_FORMAT_WEBP), "webp") == 0);
    CHECK(strcmp(pf_image_format_name((pf_image_format)42), "unknown") == 0);
    free(px);
    free(px2);
    free(d);
}

static void test_probe_photos(void) {
    for (int i = 0; i < NPHOTO; i++) {
        size_t n;
        unsigned char *d = pft_load(PF_DATA_DIR, k_photos[i], &n);
        pf_image_info info;
        CHECK_STATUS(pf_image_probe(d, n, &info), PF_OK);
        int w = 0, h = 0;
        const char *u = strrchr(k_photos[i], '_');
        if (strstr(k_photos[i], "progressive")) u = strstr(k_photos[i], "_640");
        sscanf(u + 1, "%dx%d", &w, &h);
        int gray = strstr(k_photos[i], "gray") != NULL;
        CHECK(info.format == PF_FORMAT_JPEG && info.width == w && info.height == h);
        CHECK(info.channels == (gray ? 1 : 3) && info.bit_depth == 8 && !info.has_alpha);
        CHECK(info.jpeg_colorspace == (gray ? PF_JPEG_CS_GRAY : PF_JPEG_CS_YCBCR));
        CHECK(info.jpeg_subsampling == (gray ? PF_SUBSAMP_NONE : PF_SUBSAMP_420)); /* LICENSES.md: 4:2:0 */
        CHECK(info.progressive == (strstr(k_photos[i], "progressive") != NULL));
        CHECK(info.orientation == 1 && !info.adobe_marker);
        free(d);
    }
    size_t n;
    unsigned char *d = pft_load(PF_DATA_DIR, "chelsea_rgba_320x240.png", &n);
    pf_image_info info;
    CHECK_STATUS(pf_image_probe(d, n, &info), PF_OK);
    CHECK(info.format == PF_FORMAT_PNG && info.width == 320 && info.height == 240 && info.channels == 4 &&
          info.has_alpha && info.bit_depth == 8 && !info.interlaced && !info.palette);
    free(d);
    /* corpus files with known properties */
    struct { const char *f; pf_image_format fmt; int w, h, ch, depth, alpha, extra; } k[] = {
        {"ok_444.jpg", PF_FORMAT_JPEG, 61, 45, 3, 8, 0, PF_SUBSAMP_444},
        {"ok_422.jpg", PF_FORMAT_JPEG, 61, 45, 3, 8, 0, PF_SUBSAMP_422},
        {"ok_cmyk_adobe.jpg", PF_FORMAT_JPEG, 40, 30, 4, 8, 0, -1},
        {"ok_exif_orient6.jpg", PF_FORMAT_JPEG, 48, 32, 3, 8, 0, -6},
        {"ok_interlaced.png", PF_FORMAT_PNG, 35, 23, 3, 8, 0, -2},
        {"ok_gray16.png", PF_FORMAT_PNG, 27, 15, 1, 16, 0, 0},
        {"ok_palette_trns.png", PF_FORMAT_PNG, 26, 19, 3, 8, 1, -3},
        {"ok_la.png", PF_FORMAT_PNG, 22, 14, 2, 8, 1, 0},
        {"ok_alpha.webp", PF_FORMAT_WEBP, 24, 18, 4, 8, 1, 0},
        {"ok_lossy.webp", PF_FORMAT_WEBP, 41, 27, 3, 8, 0, 0},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        d = pft_load(PF_CORPUS_DIR, k[i].f, &n);
        pf_status st = pf_image_probe(d, n, &info);
        CHECK_STATUS(st, PF_OK);
        int ok = info.format == k[i].fmt && info.width == k[i].w && info.height == k[i].h &&
                 info.channels == k[i].ch && info.bit_depth == k[i].depth && info.has_alpha == (k[i].alpha != 0);
        if (k[i].extra > 0) ok &= info.jpeg_subsampling == (pf_jpeg_subsampling)k[i].extra;
        if (k[i].extra == -1) ok &= info.jpeg_colorspace == PF_JPEG_CS_CMYK && info.adobe_marker;
        if (k[i].extra == -6) ok &= info.orientation == 6;
        if (k[i].extra == -2) ok &= info.interlaced;
        if (k[i].extra == -3) ok &= info.palette;
        if (!ok) fprintf(stderr, "probe of %s: unexpected fields\n", k[i].f);
        CHECK(ok);
        free(d);
    }
}

/* ROI (and DCT scale) decode == the same rectangle of the full decode at
 * that scale, for every pixel format; decoder reused throughout. */
static void test_roi(pf_decoder *dec) {
    const char *files[] = {"chelsea_333x251.jpg", "camera_gray_512x512.jpg", "hubble_640x480_progressive.jpg",
                           "ok_444.jpg", "ok_422.jpg", "ok_cmyk_adobe.jpg", "ok_rgb8.png", "ok_interlaced.png",
                           "ok_lossy.webp", "ok_restart.jpg", "ok_restart_3.jpg", "ok_restart_rows.jpg",
                           "ok_restart_444.jpg", "ok_restart_422.jpg", "ok_restart_gray.jpg"};
    uint64_t rng = 77;
    int cases = 0, bad = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        size_t n;
        pf_image_info info;
        unsigned char *d = load_probed(files[f], &n, &info);
        for (int m = 1; m <= 8; m++) {
            for (int pix = 0; pix < 4; pix++) {
                pf_decode_opts o = pf_decode_opts_defaults();
                o.scale_num = m;
                o.pixel_format = (pf_pixel_format)pix;
                pf_decode_result fr;
                unsigned char *full = decode(dec, d, n, &o, &fr);
                CHECK(full != NULL);
                if (full == NULL) continue;
                for (int t = 0; t < 6; t++) {
                    random_roi(&rng, &info, &o);
                    pf_decode_result rr;
                    unsigned char *roi = decode(dec, d, n, &o, &rr);
                    cases++;
                    if (roi == NULL) {
                        bad++;
                        continue;
                    }
                    size_t ch = (size_t)rr.channels, rw = (size_t)rr.width * ch;
                    int same = rr.x + rr.width <= fr.width && rr.y + rr.height <= fr.height;
                    for (int y = 0; same && y < rr.height; y++)
                        same = memcmp(roi + (size_t)y * rw,
                                      full + ((size_t)(rr.y + y) * (size_t)fr.width + (size_t)rr.x) * ch, rw) == 0;
                    if (!same) {
                        bad++;
                        fprintf(stderr, "ROI %s m=%d pix=%d roi (%d,%d %dx%d) differs from the full decode\n",
                                files[f], m, pix, o.roi_x, o.roi_y, o.roi_w, o.roi_h);
                    }
                    free(roi);
                }
                free(full);
            }
        }
        free(d);
    }
    printf("ROI == crop of full decode: %d cases, %d bad\n", cases, bad);
    CHECK(bad == 0 && cases > 1000);
}

/* opts.row_margin: the pixels are those of a margin-free decode, nothing is
 * written outside the margins the caller allowed (guard bytes around them),
 * the in-place path really runs (some margin byte changes), and a stride
 * that would make the rows overlap is refused naming the option. */
static void test_row_margin(pf_decoder *dec) {
    const char *files[] = {"chelsea_333x251.jpg", "camera_gray_512x512.jpg", "hubble_640x480_progressive.jpg",
                           "ok_444.jpg", "ok_422.jpg", "ok_cmyk_adobe.jpg", "ok_restart.jpg", "ok_rgb8.png"};
    enum { GUARD = 64, SENT = 0xA5 };
    uint64_t rng = 91;
    int cases = 0, bad = 0, in_place = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        size_t n;
        pf_image_info info;
        unsigned char *d = load_probed(files[f], &n, &info);
        for (int t = 0; t < 40; t++) {
            pf_decode_opts o = pf_decode_opts_defaults();
            o.scale_num = 1 << pft_range(&rng, 0, 3);
            o.pixel_format = (pf_pixel_format)pft_range(&rng, 0, 3);
            random_roi(&rng, &info, &o);
            pf_decode_result want_r, r;
            unsigned char *want = decode(dec, d, n, &o, &want_r);
            CHECK(want != NULL);
            if (want == NULL) continue;
            int32_t M = t % 3 == 0 ? 7 : 128;
            o.row_margin = M;
            CHECK_STATUS(pf_decode_query(d, n, &o, &r), PF_OK);
            size_t rb = (size_t)r.width * (size_t)r.channels, S = rb + (size_t)M + (size_t)pft_range(&rng, 0, 3);
            size_t total = GUARD + (size_t)M + S * (size_t)r.height + (size_t)M + GUARD;
            unsigned char *buf = malloc(total);
            memset(buf, SENT, total);
            unsigned char *px = buf + GUARD + M;
            pf_image img = pf_image_hwc(px, r.width, r.height, r.channels, PF_U8, (ptrdiff_t)S);
            cases++;
            if (pf_decode(dec, d, n, &o, &img, &r) != PF_OK) {
                fprintf(stderr, "row_margin decode failed: %s\n", pf_last_error());
                bad++;
            } else {
                int ok = 1, touched = 0;
                for (int32_t y = 0; ok && y < r.height; y++) ok = memcmp(px + (size_t)y * S, want + (size_t)y * rb, rb) == 0;
                for (size_t k = 0; k < GUARD; k++) ok = ok && buf[k] == SENT && buf[total - 1 - k] == SENT;
                for (int32_t y = 0; y < r.height; y++)
                    for (size_t k = rb; k < S; k++) touched |= px[(size_t)y * S + k] != SENT;
                in_place += touched;
                if (!ok) {
                    bad++;
                    fprintf(stderr, "row_margin %d: %s m=%d pix=%d roi (%d,%d %dx%d) wrong pixels or guard\n", (int)M,
                            files[f], o.scale_num, (int)o.pixel_format, o.roi_x, o.roi_y, o.roi_w, o.roi_h);
                }
            }
            free(buf);
            free(want);
        }
        free(d);
    }
    printf("row_margin: %d cases, %d bad, %d decoded in place\n", cases, bad, in_place);
    CHECK(bad == 0 && in_place > cases / 4);

    size_t n;
    unsigned char *d = pft_load(PF_DATA_DIR, "chelsea_333x251.jpg", &n);
    pf_decode_opts o = pf_decode_opts_defaults();
    o.row_margin = -1;
    pf_decode_result r;
    CHECK_STATUS(pf_decode_query(d, n, &o, &r), PF_ERR_INVALID_ARGUMENT);
    CHECK(strstr(pf_last_error(), "opts.row_margin") != NULL);
    o.row_margin = PF_DECODE_MAX_ROW_MARGIN + 1;
    CHECK_STATUS(pf_decode_query(d, n, &o, &r), PF_ERR_INVALID_ARGUMENT);
    o.row_margin = 16;
    CHECK_STATUS(pf_decode_query(d, n, &o, &r), PF_OK);
    unsigned char *px = malloc((size_t)r.width * 3 * (size_t)r.height);
    pf_image packed = pf_image_hwc(px, r.width, r.height, 3, PF_U8, 0);
    CHECK_STATUS(pf_decode(dec, d, n, &o, &packed, &r), PF_ERR_INVALID_ARGUMENT);
    CHECK(strstr(pf_last_error(), "opts.row_margin") != NULL);
    free(px);
    free(d);
}

/* RGB, BGR, RGBA, GRAY of the same file agree with each other. */
static void test_formats(pf_decoder *dec) {
    const char *files[] = {"ok_rgb8.png", "ok_lossy.webp", "ok_420.jpg", "ok_rgba8.png", "ok_alpha.webp",
                           "ok_palette_trns.png", "ok_gray16.png", "ok_rgb16.png", "ok_la.png", "ok_gray1.png"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        size_t n;
        unsigned char *d = pft_load(PF_CORPUS_DIR, files[f], &n);
        pf_decode_opts o = pf_decode_opts_defaults();
        pf_decode_result r;
        unsigned char *px[4];
        for (int p = 0; p < 4; p++) {
            o.pixel_format = (pf_pixel_format)p;
            px[p] = decode(dec, d, n, &o, &r);
        }
        CHECK(px[0] && px[1] && px[2] && px[3]);
        if (px[0] && px[1] && px[3]) {
            size_t np = (size_t)r.width * (size_t)r.height;
            int ok = 1;
            for (size_t i = 0; i < np; i++)
                for (int c = 0; c < 3; c++)
                    ok &= px[0][i * 3 + (size_t)c] == px[1][i * 3 + 2 - (size_t)c] &&
                          px[0][i * 3 + (size_t)c] == px[3][i * 4 + (size_t)c];
            if (!ok) fprintf(stderr, "%s: RGB / BGR / RGBA disagree\n", files[f]);
            CHECK(ok);
        }
        for (int p = 0; p < 4; p++) free(px[p]);
        free(d);
    }
}

/* apply_orientation: the oriented decode is the plain decode rotated /
 * flipped as the EXIF tag says (also with a ROI and a DCT scale). */
static void test_orientation(pf_decoder *dec) {
    int tags[] = {3, 6, 8};
    for (int k = 0; k < 3; k++) {
        char name[64];
        snprintf(name, sizeof name, "ok_exif_orient%d.jpg", tags[k]);
        size_t n;
        unsigned char *d = pft_load(PF_CORPUS_DIR, name, &n);
        for (int variant = 0; variant < 2; variant++) {
            pf_decode_opts o = pf_decode_opts_defaults();
            if (variant) {
                o.roi_x = 5, o.roi_y = 3, o.roi_w = 30, o.roi_h = 21, o.scale_num = 4;
            }
            pf_decode_result pr, orr;
            unsigned char *plain = decode(dec, d, n, &o, &pr);
            o.apply_orientation = true;
            unsigned char *ori = decode(dec, d, n, &o, &orr);
            CHECK(plain && ori && orr.orientation == tags[k]);
            if (!plain || !ori) continue;
            int W = pr.width, H = pr.height, ok = 1;
            CHECK(tags[k] == 3 ? orr.width == W && orr.height == H : orr.width == H && orr.height == W);
            for (int y = 0; y < orr.height; y++)
                for (int x = 0; x < orr.width; x++) {
                    int sx = x, sy = y;
                    if (tags[k] == 3) sx = W - 1 - x, sy = H - 1 - y;
                    if (tags[k] == 6) sx = y, sy = H - 1 - x;
                    if (tags[k] == 8) sx = W - 1 - y, sy = x;
                    ok &= memcmp(ori + ((size_t)y * (size_t)orr.width + (size_t)x) * 3,
                                 plain + ((size_t)sy * (size_t)W + (size_t)sx) * 3, 3) == 0;
                }
            CHECK(ok);
            free(plain);
            free(ori);
        }
        free(d);
    }
}

/* The DCT-scaled decode is a low-pass version of the image: its pixels
 * stay close to the full decode box-averaged over the same cells. */
static void test_dct_scale_bound(pf_decoder *dec) {
    size_t n;
    unsigned char *d = pft_load(PF_DATA_DIR, "water_drop_1920x1080.jpg", &n);
    pf_decode_opts o = pf_decode_opts_defaults();
    pf_decode_result fr, sr;
    unsigned char *full = decode(dec, d, n, &o, &fr);
    o.scale_num = 2; /* 1/4: each output pixel is a 4x4 cell */
    unsigned char *sc = decode(dec, d, n, &o, &sr);
    CHECK(full && sc && sr.width == 480 && sr.height == 270);
    double sum = 0;
    int maxd = 0;
    for (int y = 0; full && sc && y < 270; y++)
        for (int x = 0; x < 480; x++)
            for (int c = 0; c < 3; c++) {
                int acc = 0;
                for (int j = 0; j < 4; j++)
                    for (int i = 0; i < 4; i++) acc += full[((size_t)(4 * y + j) * 1920 + (size_t)(4 * x + i)) * 3 + (size_t)c];
                int dv = abs((acc + 8) / 16 - sc[((size_t)y * 480 + (size_t)x) * 3 + (size_t)c]);
                sum += dv;
                if (dv > maxd) maxd = dv;
            }
    double mean = sum / (480.0 * 270 * 3);
    printf("DCT 1/4 vs 4x4 box of the full decode (water_drop): max %d, mean %.3f u8\n", maxd, mean);
    CHECK(mean < 2.0 && maxd < 96);
    free(full);
    free(sc);
    free(d);
}

int main(void) {
    pf_decoder *dec = NULL;
    CHECK_STATUS(pf_decoder_create(&dec), PF_OK);
    test_args();
    test_probe_photos();
    test_roi(dec);
    test_row_margin(dec);
    test_formats(dec);
    test_orientation(dec);
    test_dct_scale_bound(dec);
    pf_decoder_destroy(dec);
    return pft_summary("test_codec");
}
