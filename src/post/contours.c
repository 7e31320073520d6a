/* pf_find_contours: cv::findContours (OpenCV 4.6's Suzuki-Abe scanner,
 * CHAIN_APPROX_SIMPLE) for RETR_LIST and RETR_EXTERNAL.
 *
 * As OpenCV does: the image is copied with a one-pixel zero border and
 * binarized to 0 / 1 (int8); a raster scan finds border starts (an outer
 * border where 0 is followed by 1, a hole border where a foreground pixel
 * is followed by 0); each border is followed clockwise (outer) or
 * counter-clockwise (hole) from its start, marking its pixels 2, or -126
 * where the border passes on the pixel's right side, and the point is
 * kept whenever the chain direction changes. EXTERNAL skips holes and any
 * outer border whose last seen border pixel to the left is marked 2 (it
 * lies inside another border). Contours come out last found first, the
 * order of OpenCV's contour tree (each new contour becomes the first child
 * of the frame). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "pixflow/post.h"

struct pf_contours {
    int32_t count, cap_c;
    int64_t *start;  /* count + 1 point offsets (points, not ints) */
    int32_t *pts;
    int64_t npts, cap_p;
};

pf_status pf_contours_create(pf_contours **out) {
    pfi_clear_error();
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_contours_create: out is NULL");
    *out = calloc(1, sizeof **out);
    return *out ? PF_OK : pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_contours_create: out of memory");
}

void pf_contours_destroy(pf_contours *c) {
    if (c == NULL) return;
    free(c->start);
    free(c->pts);
    free(c);
}

int32_t pf_contours_count(const pf_contours *c) { return c ? c->count : 0; }

const int32_t *pf_contours_points(const pf_contours *c, int32_t i, int32_t *npoints) {
    if (c == NULL || i < 0 || i >= c->count) {
        if (npoints) *npoints = 0;
        return NULL;
    }
    if (npoints) *npoints = (int32_t)(c->start[i + 1] - c->start[i]);
    return c->pts + 2 * c->start[i];
}

static int push_point(pf_contours *c, int32_t x, int32_t y) {
    if (c->npts == c->cap_p) {
        int64_t cap = c->cap_p ? c->cap_p * 2 : 1024;
        int32_t *p = realloc(c->pts, (size_t)cap * 2 * sizeof *p);
        if (p == NULL) return -1;
        c->pts = p;
        c->cap_p = cap;
    }
    c->pts[2 * c->npts] = x;
    c->pts[2 * c->npts + 1] = y;
    c->npts++;
    return 0;
}

static int begin_contour(pf_contours *c) {
    if (c->count + 1 >= c->cap_c) {
        int32_t cap = c->cap_c ? c->cap_c * 2 : 64;
        int64_t *s = realloc(c->start, (size_t)cap * sizeof *s);
        if (s == NULL) return -1;
        c->start = s;
        c->cap_c = cap;
    }
    c->start[c->count] = c->npts;
    return 0;
}

static const int8_t k_dx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int8_t k_dy[8] = {0, -1, -1, -1, 0, 1, 1, 1};

/* icvFetchContour with nbd = 2 and CHAIN_APPROX_SIMPLE */
static int fetch(int8_t *i0, ptrdiff_t step, int32_t x, int32_t y, int hole, pf_contours *out) {
    ptrdiff_t d[16];
    for (int k = 0; k < 16; k++) d[k] = k_dx[k & 7] + k_dy[k & 7] * step;
    int s, s_end, prev_s;
    int8_t *i1, *i3, *i4 = NULL;
    s_end = s = hole ? 0 : 4;
    do {
        s = (s - 1) & 7;
        i1 = i0 + d[s];
    } while (*i1 == 0 && s != s_end);
    if (s == s_end) { /* a single pixel */
        *i0 = (int8_t)-126;
        return push_point(out, x, y);
    }
    i3 = i0;
    prev_s = s ^ 4;
    for (;;) {
        s_end = s;
        while (s < 15) {
            i4 = i3 + d[++s];
            if (*i4 != 0) break;
        }
        s &= 7;
        if ((unsigned)(s - 1) < (unsigned)s_end) *i3 = (int8_t)-126; /* the border's right side */
        else if (*i3 == 1) *i3 = 2;
        if (s != prev_s) {
            if (push_point(out, x, y)) return -1;
            prev_s = s;
        }
        x += k_dx[s];
        y += k_dy[s];
        if (i4 == i0 && i3 == i1) break;
        i3 = i4;
        s = (s + 4) & 7;
    }
    return 0;
}

pf_status pf_find_contours(const pf_image *src, pf_contour_mode mode, pf_contours *out) {
    static const char op[] = "pf_find_contours";
    pfi_clear_error();
    pf_status st = pf_image_validate(src, "pf_find_contours: src");
    if (st != PF_OK) return st;
    if (src->dtype != PF_U8 || src->channels != 1 || src->mem != PF_MEM_HOST)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src must be a u8 1-channel host image", op);
    if (mode != PF_RETR_EXTERNAL && mode != PF_RETR_LIST)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: mode %d must be PF_RETR_EXTERNAL or PF_RETR_LIST", op, (int)mode);
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: out is NULL", op);
    int32_t W = src->width + 2, H = src->height + 2;
    int8_t *img = calloc((size_t)W * (size_t)H, 1);
    if (img == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %dx%d", op, W, H);
    for (int32_t y = 0; y < src->height; y++) {
        const uint8_t *r = pfi_row_ptr(src, 0, y);
        int8_t *d = img + (size_t)(y + 1) * W + 1;
        for (int32_t x = 0; x < src->width; x++) d[x] = r[x] != 0;
    }
    out->count = 0;
    out->npts = 0;
    int failed = 0;
    const ptrdiff_t step = W;
    int32_t width = W - 1, height = H - 1, lnbd_x = 0, lnbd_y = 1;
    for (int32_t y = 1; y < height && !failed; y++) {
        int8_t *row = img + (size_t)y * W;
        int prev = 0;
        lnbd_x = 0;
        lnbd_y = y;
        for (int32_t x = 1; x < width; x++) {
            int p = row[x];
            if (p == prev) continue;
            int hole = 0;
            if (!(prev == 0 && p == 1)) {
                if (p != 0 || prev < 1) goto resume; /* neither an outer nor a hole border start */
                if (prev & -2) lnbd_x = x - 1;
                hole = 1;
            }
            if (mode == PF_RETR_EXTERNAL && (hole || img[(size_t)lnbd_y * W + lnbd_x] > 0)) goto resume;
            lnbd_x = x - hole;
            if (begin_contour(out) || fetch(row + x - hole, step, x - hole - 1, y - 1, hole, out)) {
                failed = 1;
                break;
            }
            out->count++;
            out->start[out->count] = out->npts;
            prev = row[x]; /* the scan resumes after the start, reading it as traced */
            continue;
        resume:
            prev = p;
            if (prev & -2) lnbd_x = x;
        }
    }
    free(img);
    if (failed) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    /* OpenCV's order: the last found first. Reverse contours in place
     * (points of each contour keep their order). */
    int64_t total = out->npts;
    int32_t *rev = malloc((size_t)(total > 0 ? total : 1) * 2 * sizeof *rev);
    int64_t *rs = malloc((size_t)(out->count + 1) * sizeof *rs);
    if (rev == NULL || rs == NULL) {
        free(rev);
        free(rs);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    }
    int64_t at = 0;
    for (int32_t i = out->count - 1, k = 0; i >= 0; i--, k++) {
        int64_t n = out->start[i + 1] - out->start[i];
        rs[k] = at;
        memcpy(rev + 2 * at, out->pts + 2 * out->start[i], (size_t)n * 2 * sizeof *rev);
        at += n;
    }
    rs[out->count] = at;
    if (out->count > 0) {
        memcpy(out->pts, rev, (size_t)total * 2 * sizeof *rev);
        memcpy(out->start, rs, (size_t)(out->count + 1) * sizeof *rs);
    }
    free(rev);
    free(rs);
    return PF_OK;
}
