/* pf_min_area_rect / pf_box_points: cv::minAreaRect and cv::boxPoints of
 * OpenCV 4.6 for integer points. The convex hull is OpenCV's Sklansky scan
 * (points sorted by x, y, index; clockwise; the cyclic shift that makes
 * hull indices monotonic), converted to float; then its rotating calipers
 * in the same float / double steps, and RotatedRect's corner formula. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "pixflow/post.h"

typedef struct ipt {
    int32_t x, y, i;
} ipt;

static int cmp_pts(const void *a, const void *b) {
    const ipt *p = a, *q = b;
    if (p->x != q->x) return p->x < q->x ? -1 : 1;
    if (p->y != q->y) return p->y < q->y ? -1 : 1;
    return p->i < q->i ? -1 : p->i > q->i;
}

static int sign64(int64_t v) { return (v > 0) - (v < 0); }

/* OpenCV's Sklansky_ over sorted points a[start..end] (either direction) */
static int sklansky(const ipt *a, int start, int end, int *stack, int nsign, int sign2) {
    int incr = end > start ? 1 : -1;
    int pprev = start, pcur = pprev + incr, pnext = pcur + incr, stacksize = 3;
    if (start == end || (a[start].x == a[end].x && a[start].y == a[end].y)) {
        stack[0] = start;
        return 1;
    }
    stack[0] = pprev;
    stack[1] = pcur;
    stack[2] = pnext;
    end += incr;
    while (pnext != end) {
        int32_t cury = a[pcur].y, nexty = a[pnext].y;
        int64_t by = (int64_t)nexty - cury;
        if (sign64(by) != nsign) {
            int64_t ax = (int64_t)a[pcur].x - a[pprev].x, bx = (int64_t)a[pnext].x - a[pcur].x;
            int64_t ay = (int64_t)cury - a[pprev].y;
            int64_t convexity = ay * bx - ax * by;
            if (sign64(convexity) == sign2 && (ax != 0 || ay != 0)) {
                pprev = pcur;
                pcur = pnext;
                pnext += incr;
                stack[stacksize] = pnext;
                stacksize++;
            } else if (pprev == start) {
                pcur = pnext;
                stack[1] = pcur;
                pnext += incr;
                stack[2] = pnext;
            } else {
                stack[stacksize - 2] = pnext;
                pcur = pprev;
                pprev = stack[stacksize - 4];
                stacksize--;
            }
        } else {
            pnext += incr;
            stack[stacksize - 1] = pnext;
        }
    }
    return --stacksize;
}

/* cv::convexHull(points, clockwise, returnPoints): hull indices */
/* Exchanges two chains (start pointer and length) of the hull's stack. */
static void swap_chain(int **a, int *na, int **b, int *nb) {
    int *t = *a, c = *na;
    *a = *b, *na = *nb;
    *b = t, *nb = c;
}

static int convex_hull(const int32_t *pts, int n, int clockwise, ipt *a, int *stack, int *hull) {
    for (int i = 0; i < n; i++) {
        a[i].x = pts[2 * i];
        a[i].y = pts[2 * i + 1];
        a[i].i = i;
    }
    qsort(a, (size_t)n, sizeof *a, cmp_pts);
    int miny = 0, maxy = 0, nout = 0;
    for (int i = 1; i < n; i++) {
        if (a[miny].y > a[i].y) miny = i;
        if (a[maxy].y < a[i].y) maxy = i;
    }
    if (a[0].x == a[n - 1].x && a[0].y == a[n - 1].y) {
        hull[nout++] = a[0].i;
        return nout;
    }
    int *tl = stack, tlc = sklansky(a, 0, maxy, tl, -1, 1);
    int *tr = stack + tlc, trc = sklansky(a, n - 1, maxy, tr, -1, -1);
    if (!clockwise) swap_chain(&tl, &tlc, &tr, &trc);
    for (int i = 0; i < tlc - 1; i++) hull[nout++] = a[tl[i]].i;
    for (int i = trc - 1; i > 0; i--) hull[nout++] = a[tr[i]].i;
    int stop = trc > 2 ? tr[1] : tlc > 2 ? tl[tlc - 2] : -1;
    int *bl = stack, blc = sklansky(a, 0, miny, bl, 1, -1);
    int *br = stack + blc, brc = sklansky(a, n - 1, miny, br, 1, 1);
    if (clockwise) swap_chain(&bl, &blc, &br, &brc);
    if (stop >= 0) {
        int check = blc > 2 ? bl[1] : blc + brc > 2 ? br[2 - blc] : -1;
        if (check == stop || (check >= 0 && a[check].x == a[stop].x && a[check].y == a[stop].y)) {
            blc = blc < 2 ? blc : 2; /* collinear: the lower part mirrors the upper */
            brc = brc < 2 ? brc : 2;
        }
    }
    for (int i = 0; i < blc - 1; i++) hull[nout++] = a[bl[i]].i;
    for (int i = brc - 1; i > 0; i--) hull[nout++] = a[br[i]].i;
    if (nout >= 3) { /* cyclic shift towards monotonic indices */
        int min_idx = 0, max_idx = 0, lt = 0, i;
        for (i = 1; i < nout; i++) {
            int idx = hull[i];
            lt += hull[i - 1] < idx;
            if (lt > 1 && lt <= i - 2) break;
            if (idx < hull[min_idx]) min_idx = i;
            if (idx > hull[max_idx]) max_idx = i;
        }
        int mmdist = abs(max_idx - min_idx);
        if ((mmdist == 1 || mmdist == nout - 1) && (lt <= 1 || lt >= nout - 2)) {
            int ascending = (max_idx + 1) % nout == min_idx;
            int i0 = ascending ? min_idx : max_idx, j = i0;
            if (i0 > 0) {
                for (i = 0; i < nout; i++) {
                    int curr = stack[i] = hull[j];
                    int nj = j + 1 < nout ? j + 1 : 0;
                    if (i < nout - 1 && (ascending != (curr < hull[nj]))) break;
                    j = nj;
                }
                if (i == nout) memcpy(hull, stack, (size_t)nout * sizeof *hull);
            }
        }
    }
    return nout;
}

typedef struct fpt {
    float x, y;
} fpt;

/* rotatingCalipers(CALIPERS_MINAREARECT): out = corner, vector1, vector2 */
static void calipers(const fpt *p, int n, fpt *vect, float *inv, fpt out[3]) {
    float minarea = FLT_MAX, base_a, base_b = 0, orientation = 0;
    int left = 0, bottom = 0, right = 0, top = 0, seq[4];
    float left_x, right_x, top_y, bottom_y;
    fpt pt0 = p[0];
    left_x = right_x = pt0.x;
    top_y = bottom_y = pt0.y;
    for (int i = 0; i < n; i++) {
        if (pt0.x < left_x) left_x = pt0.x, left = i;
        if (pt0.x > right_x) right_x = pt0.x, right = i;
        if (pt0.y > top_y) top_y = pt0.y, top = i;
        if (pt0.y < bottom_y) bottom_y = pt0.y, bottom = i;
        fpt pt = p[i + 1 < n ? i + 1 : 0];
        double dx = (double)(pt.x - pt0.x), dy = (double)(pt.y - pt0.y); /* float differences */
        vect[i].x = (float)dx;
        vect[i].y = (float)dy;
        inv[i] = (float)(1. / sqrt(dx * dx + dy * dy));
        pt0 = pt;
    }
    {
        double ax = (double)vect[n - 1].x, ay = (double)vect[n - 1].y;
        for (int i = 0; i < n; i++) {
            double bx = (double)vect[i].x, by = (double)vect[i].y, convexity = ax * by - ay * bx;
            if (convexity != 0) {
                orientation = convexity > 0 ? 1.f : -1.f;
                break;
            }
            ax = bx;
            ay = by;
        }
    }
    base_a = orientation;
    seq[0] = bottom;
    seq[1] = right;
    seq[2] = top;
    seq[3] = left;
    int best_left = 0, best_bottom = 0;
    float best_a = 0, best_w = 0, best_b = 0, best_h = 0;
    for (int k = 0; k < n; k++) {
        float dp0 = base_a * vect[seq[0]].x + base_b * vect[seq[0]].y;
        float dp1 = -base_b * vect[seq[1]].x + base_a * vect[seq[1]].y;
        float dp2 = -base_a * vect[seq[2]].x - base_b * vect[seq[2]].y;
        float dp3 = base_b * vect[seq[3]].x - base_a * vect[seq[3]].y;
        float cosalpha = dp0 * inv[seq[0]], maxcos = cosalpha;
        int main_element = 0;
        cosalpha = dp1 * inv[seq[1]];
        if (cosalpha > maxcos) main_element = 1, maxcos = cosalpha;
        cosalpha = dp2 * inv[seq[2]];
        if (cosalpha > maxcos) main_element = 2, maxcos = cosalpha;
        cosalpha = dp3 * inv[seq[3]];
        if (cosalpha > maxcos) main_element = 3, maxcos = cosalpha;
        int pindex = seq[main_element];
        float lead_x = vect[pindex].x * inv[pindex], lead_y = vect[pindex].y * inv[pindex];
        switch (main_element) {
        case 0: base_a = lead_x; base_b = lead_y; break;
        case 1: base_a = lead_y; base_b = -lead_x; break;
        case 2: base_a = -lead_x; base_b = -lead_y; break;
        default: base_a = -lead_y; base_b = lead_x; break;
        }
        seq[main_element] += 1;
        if (seq[main_element] == n) seq[main_element] = 0;
        float dx = p[seq[1]].x - p[seq[3]].x, dy = p[seq[1]].y - p[seq[3]].y;
        float width = dx * base_a + dy * base_b;
        dx = p[seq[2]].x - p[seq[0]].x;
        dy = p[seq[2]].y - p[seq[0]].y;
        float height = -dx * base_b + dy * base_a;
        float area = width * height;
        if (area <= minarea) {
            minarea = area;
            best_left = seq[3];
            best_a = base_a;
            best_w = width;
            best_b = base_b;
            best_h = height;
            best_bottom = seq[0];
        }
    }
    float A1 = best_a, B1 = best_b, A2 = -best_b, B2 = best_a;
    float C1 = A1 * p[best_left].x + p[best_left].y * B1;
    float C2 = A2 * p[best_bottom].x + p[best_bottom].y * B2;
    float idet = 1.f / (A1 * B2 - A2 * B1);
    out[0].x = (C1 * B2 - C2 * B1) * idet;
    out[0].y = (A1 * C2 - A2 * C1) * idet;
    out[1].x = A1 * best_w;
    out[1].y = B1 * best_w;
    out[2].x = A2 * best_h;
    out[2].y = B2 * best_h;
}

pf_status pf_min_area_rect(const int32_t *points, int32_t n, pf_rotated_rect *out) {
    static const char op[] = "pf_min_area_rect";
    pfi_clear_error();
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: out is NULL", op);
    if (n < 0 || (n > 0 && points == NULL))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: n is %d and points %s", op, n, points ? "set" : "NULL");
    memset(out, 0, sizeof *out);
    if (n == 0) return PF_OK;
    size_t nn = (size_t)n;
    void *mem = malloc(nn * (sizeof(ipt) + 2 * sizeof(int) + sizeof(fpt) * 2 + sizeof(float)) + 64);
    if (mem == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d points", op, n);
    ipt *a = mem;
    int *stack = (int *)(void *)(a + nn), *hull = stack + nn + 2;
    fpt *hp = (fpt *)(void *)(hull + nn), *vect = hp + nn;
    float *inv = (float *)(void *)(vect + nn);
    int h = convex_hull(points, n, 0, a, stack, hull);
    for (int i = 0; i < h; i++) {
        hp[i].x = (float)points[2 * hull[i]];
        hp[i].y = (float)points[2 * hull[i] + 1];
    }
    float angle = 0;
    if (h > 2) {
        fpt o[3];
        calipers(hp, h, vect, inv, o);
        out->cx = o[0].x + (o[1].x + o[2].x) * 0.5f;
        out->cy = o[0].y + (o[1].y + o[2].y) * 0.5f;
        out->width = (float)sqrt((double)o[1].x * (double)o[1].x + (double)o[1].y * (double)o[1].y);
        out->height = (float)sqrt((double)o[2].x * (double)o[2].x + (double)o[2].y * (double)o[2].y);
        angle = (float)atan2((double)o[1].y, (double)o[1].x);
    } else if (h == 2) {
        out->cx = (hp[0].x + hp[1].x) * 0.5f;
        out->cy = (hp[0].y + hp[1].y) * 0.5f;
        double dx = (double)(hp[1].x - hp[0].x), dy = (double)(hp[1].y - hp[0].y);
        out->width = (float)sqrt(dx * dx + dy * dy);
        out->height = 0;
        angle = (float)atan2(dy, dx);
    } else {
        out->cx = hp[0].x;
        out->cy = hp[0].y;
    }
    out->angle = (float)((double)(angle * 180) / 3.14159265358979323846);
    free(mem);
    return PF_OK;
}

pf_status pf_box_points(const pf_rotated_rect *r, float c[8]) {
    pfi_clear_error();
    if (r == NULL || c == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_box_points: %s is NULL", r ? "corners" : "rect");
    double ang = (double)r->angle * 3.14159265358979323846 / 180.;
    float b = (float)cos(ang) * 0.5f, a = (float)sin(ang) * 0.5f;
    c[0] = r->cx - a * r->height - b * r->width;
    c[1] = r->cy + b * r->height - a * r->width;
    c[2] = r->cx + a * r->height - b * r->width;
    c[3] = r->cy - b * r->height - a * r->width;
    c[4] = 2 * r->cx - c[0];
    c[5] = 2 * r->cy - c[1];
    c[6] = 2 * r->cx - c[2];
    c[7] = 2 * r->cy - c[3];
    return PF_OK;
}
