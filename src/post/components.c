/* pf_connected_components: cv::connectedComponentsWithStats with CV_32S
 * labels. Two passes of union-find (the smaller label becomes the root),
 * then final labels numbered in OpenCV's order: its 8-connectivity
 * algorithms (BBDT, Spaghetti) scan 2x2 blocks, and all four pixels of a
 * block belong to one component, so a component's label follows its first
 * block in block raster order; with 4-connectivity the scan is per pixel.
 * Statistics start from OpenCV's initial values (INT_MAX / INT_MIN) so a
 * label without pixels (the background of a full image) gets OpenCV's
 * numbers too. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/image_util.h"
#include "pixflow/post.h"

static int32_t find(int32_t *parent, int32_t a) {
    while (parent[a] != a) {
        parent[a] = parent[parent[a]];
        a = parent[a];
    }
    return a;
}

static void unite(int32_t *parent, int32_t a, int32_t b) {
    a = find(parent, a);
    b = find(parent, b);
    if (a < b) parent[b] = a;
    else if (b < a) parent[a] = b;
}

pf_status pf_connected_components(const pf_image *src, int connectivity, pf_image *labels, int32_t *nlabels,
                                  pf_cc_stats stats[], int32_t stats_capacity) {
    static const char op[] = "pf_connected_components";
    pfi_clear_error();
    pf_status st = pf_image_validate(src, "pf_connected_components: src");
    if (st != PF_OK) return st;
    if ((st = pf_image_validate(labels, "pf_connected_components: labels")) != PF_OK) return st;
    if (src->dtype != PF_U8 || src->channels != 1 || src->mem != PF_MEM_HOST)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src must be a u8 1-channel host image", op);
    if (labels->dtype != PF_S32 || labels->channels != 1 || labels->mem != PF_MEM_HOST ||
        labels->width != src->width || labels->height != src->height)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: labels must be s32, 1 channel, %dx%d (src's size), host", op,
                        src->width, src->height);
    if (connectivity != 4 && connectivity != 8)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: connectivity %d must be 4 or 8", op, connectivity);
    if (nlabels == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: nlabels is NULL", op);
    if (stats_capacity < 0 || (stats == NULL && stats_capacity > 0))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: stats_capacity %d needs stats (or 0)", op, stats_capacity);
    if (pfi_images_overlap(src, labels))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: src and labels overlap", op);
    int32_t w = src->width, h = src->height;
    size_t np = (size_t)w * (size_t)h;
    if (np > (size_t)INT32_MAX - 2) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: image too large", op);
    int32_t *parent = malloc((np / 2 + 2) * sizeof *parent);
    int32_t *final = NULL;
    if (parent == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    /* pass 1: provisional labels (1..) into the labels image, unions */
    int32_t next = 1;
    parent[0] = 0;
    for (int32_t y = 0; y < h; y++) {
        const uint8_t *s = pfi_row_ptr(src, 0, y);
        int32_t *l = pfi_row_ptr(labels, 0, y), *u = y ? pfi_row_ptr(labels, 0, y - 1) : NULL;
        for (int32_t x = 0; x < w; x++) {
            if (!s[x]) {
                l[x] = 0;
                continue;
            }
            /* the decision tree of Wu et al.'s SAUF: the up neighbour, when
             * set, is connected to the others already (8-connectivity) */
            int32_t best;
            int32_t left = x > 0 ? l[x - 1] : 0, up = u ? u[x] : 0;
            if (connectivity == 8) {
                int32_t ul = u && x > 0 ? u[x - 1] : 0, ur = u && x + 1 < w ? u[x + 1] : 0;
                if (up) best = up;
                else if (ur) {
                    best = ur;
                    if (ul) unite(parent, ur, ul);
                    else if (left) unite(parent, ur, left);
                } else if (ul) best = ul;
                else if (left) best = left;
                else {
                    best = next;
                    parent[next] = next;
                    next++;
                }
            } else {
                if (up && left) {
                    best = up;
                    if (up != left) unite(parent, up, left);
                } else if (up) best = up;
                else if (left) best = left;
                else {
                    best = next;
                    parent[next] = next;
                    next++;
                }
            }
            l[x] = best;
        }
    }
    /* final numbering in OpenCV's scan order */
    final = calloc((size_t)next, sizeof *final);
    if (final == NULL) {
        free(parent);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    }
    for (int32_t k = 1; k < next; k++) parent[k] = find(parent, k); /* every entry its root */
    int32_t count = 1;
    int32_t by = connectivity == 8 ? 2 : 1;
    for (int32_t y0 = 0; y0 < h; y0 += by) {
        int32_t *r0 = pfi_row_ptr(labels, 0, y0), *r1 = y0 + 1 < h && by == 2 ? pfi_row_ptr(labels, 0, y0 + 1) : NULL;
        /* a column with the same labels as the one before it numbers
         * nothing new: only changes are looked up */
        int32_t p0 = 0, p1 = 0;
        for (int32_t x = 0; x < w; x++) {
            int32_t c0 = r0[x], c1 = r1 ? r1[x] : 0;
            if (c0 == p0 && c1 == p1) continue;
            p0 = c0;
            p1 = c1;
            if (c0 && !final[parent[c0]]) final[parent[c0]] = count++;
            if (c1 && !final[parent[c1]]) final[parent[c1]] = count++;
        }
    }
    /* provisional label -> final label (pass 2 is then a lookup) */
    for (int32_t k = 1; k < next; k++) parent[k] = final[parent[k]];
    /* pass 2: final labels and statistics */
    int32_t ns = count < stats_capacity ? count : stats_capacity;
    uint64_t *sums = calloc((size_t)(ns > 0 ? ns : 1) * 2, sizeof *sums);
    if (sums == NULL) {
        free(parent);
        free(final);
        return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    }
    for (int32_t i = 0; i < ns; i++) {
        stats[i].left = stats[i].top = INT_MAX;
        stats[i].width = stats[i].height = INT_MIN; /* running max x / y until the end */
        stats[i].area = 0;
    }
    /* per run of one provisional label: the pixels get their final label,
     * the statistics one update per run (the run's x sum is
     * n * (first + last) / 2, exact: n * (first + last) is even), the
     * same numbers as per pixel */
    for (int32_t y = 0; y < h; y++) {
        int32_t *l = pfi_row_ptr(labels, 0, y);
        for (int32_t x = 0; x < w;) {
            int32_t p = l[x], v = parent[p], x0 = x; /* parent[0] = 0: background */
            do l[x++] = v;
            while (x < w && l[x] == p);
            if (v < ns) {
                pf_cc_stats *s = &stats[v];
                uint64_t n = (uint64_t)(x - x0);
                if (x0 < s->left) s->left = x0;
                if (x - 1 > s->width) s->width = x - 1;
                if (y < s->top) s->top = y;
                if (y > s->height) s->height = y;
                s->area += (int32_t)n;
                sums[2 * v] += n * (uint64_t)(x0 + x - 1) / 2;
                sums[2 * v + 1] += n * (uint64_t)y;
            }
        }
    }
    for (int32_t i = 0; i < ns; i++) {
        pf_cc_stats *s = &stats[i];
        if (s->area == 0) { /* a label without pixels (the background of a full image): OpenCV 4.6 reports these */
            s->left = -1;
            s->top = INT_MAX;
            s->width = s->height = 0;
            s->cx = s->cy = (double)NAN;
            continue;
        }
        s->width = (int32_t)((uint32_t)s->width - (uint32_t)s->left + 1u);
        s->height = (int32_t)((uint32_t)s->height - (uint32_t)s->top + 1u);
        double area = (double)(uint32_t)s->area;
        s->cx = (double)sums[2 * i] / area;
        s->cy = (double)sums[2 * i + 1] / area;
    }
    *nlabels = count;
    free(parent);
    free(final);
    free(sums);
    return PF_OK;
}
