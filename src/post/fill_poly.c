/* pf_fill_poly: cv::fillPoly (LINE_8, shift 0) of one integer polygon as
 * OpenCV 4.6 draws it: each edge is first drawn as an 8-connected
 * Bresenham line (LineIterator, clipped to the image), then the edge list
 * (16.16 fixed-point x per scanline, from the unclipped vertices: 4.6
 * predates OpenCV's clipped-edge variant, which fills differently near the
 * image border) is filled scanline by scanline with the spans between
 * pairs of active edges.
 * pf_poly_mean_score: PaddleOCR's box_score_fast on top of it. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "pixflow/post.h"

#define XY_SHIFT 16
#define XY_ONE ((int64_t)1 << XY_SHIFT)

/* cv::clipLine(Size2l, Point2l&, Point2l&) */
static int clip_line(int64_t w, int64_t h, int64_t *x1, int64_t *y1, int64_t *x2, int64_t *y2) {
    int64_t right = w - 1, bottom = h - 1;
    if (w <= 0 || h <= 0) return 0;
    int c1 = (*x1 < 0) + (*x1 > right) * 2 + (*y1 < 0) * 4 + (*y1 > bottom) * 8;
    int c2 = (*x2 < 0) + (*x2 > right) * 2 + (*y2 < 0) * 4 + (*y2 > bottom) * 8;
    if ((c1 & c2) == 0 && (c1 | c2) != 0) {
        int64_t a;
        if (c1 & 12) {
            a = c1 < 8 ? 0 : bottom;
            *x1 += (int64_t)((double)(a - *y1) * (double)(*x2 - *x1) / (double)(*y2 - *y1));
            *y1 = a;
            c1 = (*x1 < 0) + (*x1 > right) * 2;
        }
        if (c2 & 12) {
            a = c2 < 8 ? 0 : bottom;
            *x2 += (int64_t)((double)(a - *y2) * (double)(*x2 - *x1) / (double)(*y2 - *y1));
            *y2 = a;
            c2 = (*x2 < 0) + (*x2 > right) * 2;
        }
        if ((c1 & c2) == 0 && (c1 | c2) != 0) {
            if (c1) {
                a = c1 == 1 ? 0 : right;
                *y1 += (int64_t)((double)(a - *x1) * (double)(*y2 - *y1) / (double)(*x2 - *x1));
                *x1 = a;
                c1 = 0;
            }
            if (c2) {
                a = c2 == 1 ? 0 : right;
                *y2 += (int64_t)((double)(a - *x2) * (double)(*y2 - *y1) / (double)(*x2 - *x1));
                *x2 = a;
                c2 = 0;
            }
        }
    }
    return (c1 | c2) == 0;
}

/* Line(img, pt1, pt2, color, 8): LineIterator with leftToRight */
static void swap_int(int *a, int *b) {
    int t = *a;
    *a = *b;
    *b = t;
}

static void line8(pf_image *img, int64_t ax, int64_t ay, int64_t bx, int64_t by, uint8_t v) {
    int32_t x1 = (int32_t)ax, y1 = (int32_t)ay, x2 = (int32_t)bx, y2 = (int32_t)by;
    if ((unsigned)x1 >= (unsigned)img->width || (unsigned)x2 >= (unsigned)img->width ||
        (unsigned)y1 >= (unsigned)img->height || (unsigned)y2 >= (unsigned)img->height) {
        int64_t p1x = x1, p1y = y1, p2x = x2, p2y = y2;
        if (!clip_line(img->width, img->height, &p1x, &p1y, &p2x, &p2y)) return;
        x1 = (int32_t)p1x;
        y1 = (int32_t)p1y;
        x2 = (int32_t)p2x;
        y2 = (int32_t)p2y;
    }
    int dx_ = 1, dy_ = 1;
    int dx = x2 - x1, dy = y2 - y1;
    if (dx < 0) {
        dx = -dx;
        dy = -dy;
        x1 = x2;
        y1 = y2;
    }
    if (dy < 0) {
        dy = -dy;
        dy_ = -1;
    }
    int vert = dy > dx;
    if (vert) {
        swap_int(&dx, &dy);
        swap_int(&dx_, &dy_);
    }
    int err = dx - (dy + dy), plus_delta = dx + dx, minus_delta = -(dy + dy);
    int minus_shift = dx_, plus_shift = 0, minus_step = 0, plus_step = dy_, count = dx + 1;
    if (vert) {
        swap_int(&plus_step, &plus_shift);
        swap_int(&minus_step, &minus_shift);
    }
    int32_t px = x1, py = y1;
    for (int i = 0; i < count; i++) {
        ((uint8_t *)pfi_row_ptr(img, 0, py))[px] = v;
        int mask = err < 0 ? -1 : 0;
        err += minus_delta + (plus_delta & mask);
        px += minus_shift + (plus_shift & mask);
        py += minus_step + (plus_step & mask);
    }
}

typedef struct edge {
    int32_t y0, y1;
    int64_t x, dx;
    int32_t next; /* active list link (index; -1 = none) */
} edge;

static int edge_less(const edge *a, const edge *b) {
    if (a->y0 != b->y0) return a->y0 < b->y0;
    if (a->x != b->x) return a->x < b->x;
    return a->dx < b->dx;
}

static void fill_edges(pf_image *img, edge *e, int total, uint8_t v) {
    int32_t y_max = INT_MIN, y_min = INT_MAX;
    int64_t x_max = -1, x_min = INT64_MAX; /* OpenCV starts x_max at 0xFFFF...: -1 */
    if (total < 2) return;
    for (int i = 0; i < total; i++) {
        int64_t x1 = e[i].x + (int64_t)(e[i].y1 - e[i].y0) * e[i].dx;
        if (e[i].y0 < y_min) y_min = e[i].y0;
        if (e[i].y1 > y_max) y_max = e[i].y1;
        if (e[i].x < x_min) x_min = e[i].x;
        if (e[i].x > x_max) x_max = e[i].x;
        if (x1 < x_min) x_min = x1;
        if (x1 > x_max) x_max = x1;
    }
    if (y_max < 0 || y_min >= img->height || x_max < 0 || x_min >= ((int64_t)img->width * XY_ONE)) return;
    /* stable insertion sort (OpenCV: std::sort with the same comparator) */
    for (int i = 1; i < total; i++) {
        edge t = e[i];
        int j = i - 1;
        while (j >= 0 && edge_less(&t, &e[j])) {
            e[j + 1] = e[j];
            j--;
        }
        e[j + 1] = t;
    }
    /* e[total] is the sentinel (y0 = INT_MAX); tmp is the list head */
    e[total].y0 = INT_MAX;
    edge tmp;
    tmp.next = -1;
    const int TMP = total + 1; /* index standing for &tmp */
#define NODE(k) ((k) == TMP ? &tmp : &e[k])
    int i = 0, cur = 0;
    if (y_max > img->height) y_max = img->height;
    for (int32_t y = e[cur].y0; y < y_max; y++) {
        int prelast = TMP, last = tmp.next, keep_prelast, draw = 0, clipline = y < 0;
        while (last >= 0 || e[cur].y0 == y) {
            if (last >= 0 && e[last].y1 == y) { /* the edge ends here */
                NODE(prelast)->next = e[last].next;
                last = e[last].next;
                continue;
            }
            keep_prelast = prelast;
            if (last >= 0 && (e[cur].y0 > y || e[last].x < e[cur].x)) {
                prelast = last;
                last = e[last].next;
            } else if (i < total) { /* the edge starts here */
                NODE(prelast)->next = cur;
                e[cur].next = last;
                prelast = cur;
                cur = ++i;
            } else {
                break;
            }
            if (draw) {
                if (!clipline) {
                    edge *kp = NODE(keep_prelast), *pl = NODE(prelast);
                    int32_t x1, x2;
                    if (kp->x > pl->x) {
                        x1 = (int32_t)((pl->x + XY_ONE - 1) >> XY_SHIFT);
                        x2 = (int32_t)(kp->x >> XY_SHIFT);
                    } else {
                        x1 = (int32_t)((kp->x + XY_ONE - 1) >> XY_SHIFT);
                        x2 = (int32_t)(pl->x >> XY_SHIFT);
                    }
                    if (x1 < img->width && x2 >= 0) {
                        if (x1 < 0) x1 = 0;
                        if (x2 >= img->width) x2 = img->width - 1;
                        if (x1 <= x2) memset((uint8_t *)pfi_row_ptr(img, 0, y) + x1, v, (size_t)(x2 - x1 + 1));
                    }
                }
                NODE(keep_prelast)->x += NODE(keep_prelast)->dx;
                NODE(prelast)->x += NODE(prelast)->dx;
            }
            draw ^= 1;
        }
        /* bubble sort of the active list by x */
        keep_prelast = -1;
        do {
            prelast = TMP;
            last = tmp.next;
            int last_exchange = -1;
            while (last != keep_prelast && last >= 0 && e[last].next >= 0) {
                int te = e[last].next;
                if (e[last].x > e[te].x) {
                    NODE(prelast)->next = te;
                    e[last].next = e[te].next;
                    e[te].next = last;
                    prelast = te;
                    last_exchange = prelast;
                } else {
                    prelast = last;
                    last = te;
                }
            }
            if (last_exchange < 0) break;
            keep_prelast = last_exchange;
        } while (keep_prelast != tmp.next && keep_prelast != TMP);
    }
#undef NODE
}

static pf_status fill_poly(pf_image *img, const int32_t *pts, int32_t n, uint8_t v) {
    if (n == 0) return PF_OK;
    edge *e = malloc(((size_t)n + 1) * sizeof *e);
    if (e == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_fill_poly: out of memory");
    int total = 0;
    int64_t p0x = (int64_t)pts[2 * (n - 1)] * XY_ONE, p0y = pts[2 * (n - 1) + 1];
    for (int32_t i = 0; i < n; i++) {
        int64_t p1x = (int64_t)pts[2 * i] * XY_ONE, p1y = pts[2 * i + 1];
        int64_t t0x = (p0x + (XY_ONE >> 1)) >> XY_SHIFT, t0y = p0y;
        int64_t t1x = (p1x + (XY_ONE >> 1)) >> XY_SHIFT, t1y = p1y;
        line8(img, t0x, t0y, t1x, t1y, v);
        if (p0y != p1y) { /* edges from the unclipped vertices */
            edge *ed = &e[total++];
            if (p0y < p1y) {
                ed->y0 = (int32_t)p0y;
                ed->y1 = (int32_t)p1y;
                ed->x = p0x;
            } else {
                ed->y0 = (int32_t)p1y;
                ed->y1 = (int32_t)p0y;
                ed->x = p1x;
            }
            ed->dx = (p1x - p0x) / (p1y - p0y);
        }
        p0x = p1x;
        p0y = p1y;
    }
    fill_edges(img, e, total, v);
    free(e);
    return PF_OK;
}

static pf_status check_poly(const char *op, const void *points, int32_t n) {
    if (n < 0 || (n > 0 && points == NULL))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: n is %d and points %s", op, n, points ? "set" : "NULL");
    return PF_OK;
}

pf_status pf_fill_poly(pf_image *img, const int32_t *points, int32_t n, uint8_t value) {
    static const char op[] = "pf_fill_poly";
    pfi_clear_error();
    pf_status st = pf_image_validate(img, "pf_fill_poly: img");
    if (st != PF_OK) return st;
    if (img->dtype != PF_U8 || img->channels != 1 || img->mem != PF_MEM_HOST)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: img must be a u8 1-channel host image", op);
    if ((st = check_poly(op, points, n)) != PF_OK) return st;
    for (int32_t i = 0; i < 2 * n; i++)
        if (points[i] < -(1 << 28) || points[i] > (1 << 28))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: points[%d] = %d is beyond +-2^28", op, i, points[i]);
    return fill_poly(img, points, n, value);
}

pf_status pf_poly_mean_score(const pf_image *score, const float *points, int32_t n, double *mean) {
    static const char op[] = "pf_poly_mean_score";
    pfi_clear_error();
    pf_status st = pf_image_validate(score, "pf_poly_mean_score: score");
    if (st != PF_OK) return st;
    if (score->dtype != PF_F32 || score->channels != 1 || score->mem != PF_MEM_HOST)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: score must be an f32 1-channel host image", op);
    if ((st = check_poly(op, points, n)) != PF_OK) return st;
    if (mean == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: mean is NULL", op);
    if (n == 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: the polygon has no points", op);
    float mnx = points[0], mxx = points[0], mny = points[1], mxy = points[1];
    for (int32_t i = 0; i < n; i++) {
        float x = points[2 * i], y = points[2 * i + 1];
        if (!isfinite(x) || !isfinite(y) || fabsf(x) > 1e8f || fabsf(y) > 1e8f)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: point %d (%g, %g) is not finite or beyond 1e8", op, i,
                            (double)x, (double)y);
        mnx = x < mnx ? x : mnx;
        mxx = x > mxx ? x : mxx;
        mny = y < mny ? y : mny;
        mxy = y > mxy ? y : mxy;
    }
    int32_t w = score->width, h = score->height;
    /* np.clip(np.floor(min).astype(int32), 0, w - 1) and the like */
    int32_t xmin = (int32_t)floorf(mnx), xmax = (int32_t)ceilf(mxx), ymin = (int32_t)floorf(mny),
            ymax = (int32_t)ceilf(mxy);
    xmin = xmin < 0 ? 0 : xmin > w - 1 ? w - 1 : xmin;
    xmax = xmax < 0 ? 0 : xmax > w - 1 ? w - 1 : xmax;
    ymin = ymin < 0 ? 0 : ymin > h - 1 ? h - 1 : ymin;
    ymax = ymax < 0 ? 0 : ymax > h - 1 ? h - 1 : ymax;
    if (xmax < xmin || ymax < ymin) { /* numpy would make an empty mask: mean 0 */
        *mean = 0;
        return PF_OK;
    }
    int32_t mw = xmax - xmin + 1, mh = ymax - ymin + 1;
    uint8_t *m = calloc((size_t)mw * (size_t)mh, 1);
    int32_t *ip = malloc((size_t)n * 2 * sizeof *ip);
    if (m == NULL || ip == NULL) {
        free(m);
        free(ip);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    }
    for (int32_t i = 0; i < n; i++) { /* box - (xmin, ymin) in float32, then astype(int32) */
        ip[2 * i] = (int32_t)(points[2 * i] - (float)xmin);
        ip[2 * i + 1] = (int32_t)(points[2 * i + 1] - (float)ymin);
    }
    pf_image mi = pf_image_hwc(m, mw, mh, 1, PF_U8, 0);
    st = fill_poly(&mi, ip, n, 1);
    if (st == PF_OK) { /* cv2.mean: sequential double sum times 1 / count */
        double s = 0;
        size_t count = 0;
        for (int32_t y = 0; y < mh; y++) {
            const float *r = (const float *)pfi_row_ptr(score, 0, ymin + y) + xmin;
            const uint8_t *mr = m + (size_t)y * mw;
            for (int32_t x = 0; x < mw; x++)
                if (mr[x]) {
                    s += (double)r[x];
                    count++;
                }
        }
        *mean = s * (count ? 1. / (double)count : 0);
    }
    free(m);
    free(ip);
    return st;
}
