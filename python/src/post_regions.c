/* Regions for pixflow.post (the C family: src/post/components.c,
 * contours.c, min_area_rect.c, fill_poly.c): connected components,
 * contours, rotated rectangles, polygon fill and mean score. */
#include <string.h>

#include "pfpy.h"

static pf_image image_of(const pfpy_buf *b, pf_dtype dt) {
    return pf_image_hwc(b->v.buf, (int32_t)pfpy_buf_dim(b, 1), (int32_t)pfpy_buf_dim(b, 0), 1, dt, 0);
}

/* Only what the binding itself needs: the (h, w) extents fit the int32 of
 * a pf_image. Whether the image is empty is the C function's check (its
 * message names the argument). */
static int image_dims_ok(const pfpy_buf *b) {
    if (pfpy_buf_dim(b, 0) > INT32_MAX || pfpy_buf_dim(b, 1) > INT32_MAX) {
        pfpy_invalid("the image is %zd x %zd; pixflow images have at most INT32_MAX rows and columns",
                     pfpy_buf_dim(b, 0), pfpy_buf_dim(b, 1));
        return 0;
    }
    return 1;
}

static PyObject *py_connected_components(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *img;
    int conn;
    if (!PyArg_ParseTuple(args, "Oi", &img, &conn)) return NULL;
    pfpy_buf bi;
    if (pfpy_buf_get(img, "image", 'B', 2, 0, 0, &bi) < 0) return NULL;
    PyObject *res = NULL, *lab = NULL, *stats = NULL, *cent = NULL;
    pf_cc_stats *cs = NULL;
    if (!image_dims_ok(&bi)) goto done;
    Py_ssize_t shape[2] = {pfpy_buf_dim(&bi, 0), pfpy_buf_dim(&bi, 1)};
    lab = pfpy_numpy_empty_named(2, shape, "int32");
    Py_ssize_t cap = shape[0] * shape[1] / (conn == 4 ? 2 : 4) + 4;
    cs = PyMem_Malloc((size_t)cap * sizeof *cs);
    if (!lab || !cs) {
        if (!cs) PyErr_NoMemory();
        goto done;
    }
    pf_image src = image_of(&bi, PF_U8), li = pf_image_hwc(pfpy_numpy_data(lab), (int32_t)shape[1], (int32_t)shape[0], 1, PF_S32, 0);
    int32_t n = 0;
    pf_status st;
    PFPY_CALL(st, pf_connected_components(&src, conn, &li, &n, cs, (int32_t)cap));
    if (st != PF_OK) {
        pfpy_raise(st);
        goto done;
    }
    Py_ssize_t s5[2] = {n, 5}, s2[2] = {n, 2};
    stats = pfpy_numpy_empty_named(2, s5, "int32");
    cent = pfpy_numpy_empty_named(2, s2, "float64");
    if (!stats || !cent) goto done;
    int32_t *ps = pfpy_numpy_data(stats);
    double *pc = pfpy_numpy_data(cent);
    for (int32_t i = 0; i < n && i < cap; i++) {
        ps[5 * i] = cs[i].left;
        ps[5 * i + 1] = cs[i].top;
        ps[5 * i + 2] = cs[i].width;
        ps[5 * i + 3] = cs[i].height;
        ps[5 * i + 4] = cs[i].area;
        pc[2 * i] = cs[i].cx;
        pc[2 * i + 1] = cs[i].cy;
    }
    res = Py_BuildValue("(iOOO)", n, lab, stats, cent);
done:
    Py_XDECREF(lab);
    Py_XDECREF(stats);
    Py_XDECREF(cent);
    PyMem_Free(cs);
    pfpy_buf_release(&bi);
    return res;
}

/* find_contours(image u8 (h, w), mode) -> list of (k, 1, 2) int32 arrays */
static PyObject *py_find_contours(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *img;
    int mode;
    if (!PyArg_ParseTuple(args, "Oi", &img, &mode)) return NULL;
    pfpy_buf bi;
    if (pfpy_buf_get(img, "image", 'B', 2, 0, 0, &bi) < 0) return NULL;
    PyObject *list = NULL;
    pf_contours *c = NULL;
    pf_status st = PF_OK;
    if (!image_dims_ok(&bi)) goto done;
    if ((st = pf_contours_create(&c)) != PF_OK) {
        pfpy_raise(st);
        goto done;
    }
    pf_image src = image_of(&bi, PF_U8);
    PFPY_CALL(st, pf_find_contours(&src, (pf_contour_mode)mode, c));
    if (st != PF_OK) {
        pfpy_raise(st);
        goto done;
    }
    int32_t n = pf_contours_count(c);
    list = PyList_New(n);
    for (int32_t i = 0; list && i < n; i++) {
        int32_t np_ = 0;
        const int32_t *p = pf_contours_points(c, i, &np_);
        Py_ssize_t shape[3] = {np_, 1, 2};
        PyObject *a = pfpy_numpy_empty_named(3, shape, "int32");
        if (a == NULL) {
            Py_CLEAR(list);
            break;
        }
        memcpy(pfpy_numpy_data(a), p, (size_t)np_ * 8);
        PyList_SET_ITEM(list, i, a);
    }
done:
    pf_contours_destroy(c);
    pfpy_buf_release(&bi);
    return list;
}

static PyObject *py_min_area_rect(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *p;
    if (!PyArg_ParseTuple(args, "O", &p)) return NULL;
    pfpy_buf bp;
    if (pfpy_buf_get(p, "points", 'i', -1, 0, 0, &bp) < 0) return NULL;
    PyObject *res = NULL;
    Py_ssize_t n = bp.v.len / 8;
    if (bp.v.len % 8 || n > INT32_MAX) {
        pfpy_invalid("points must be int32 (x, y) pairs");
    } else {
        pf_rotated_rect r;
        pf_status st = pf_min_area_rect(bp.v.buf, (int32_t)n, &r);
        if (st != PF_OK) pfpy_raise(st);
        else res = Py_BuildValue("((dd)(dd)d)", (double)r.cx, (double)r.cy, (double)r.width, (double)r.height,
                                 (double)r.angle);
    }
    pfpy_buf_release(&bp);
    return res;
}

static PyObject *py_box_points(PyObject *self, PyObject *args) {
    (void)self;
    pf_rotated_rect r;
    if (!PyArg_ParseTuple(args, "((ff)(ff)f)", &r.cx, &r.cy, &r.width, &r.height, &r.angle)) return NULL;
    Py_ssize_t shape[2] = {4, 2};
    PyObject *out = pfpy_numpy_empty_named(2, shape, "float32");
    if (out) {
        pf_status st = pf_box_points(&r, pfpy_numpy_data(out));
        if (st != PF_OK) {
            Py_CLEAR(out);
            pfpy_raise(st);
        }
    }
    return out;
}

static PyObject *py_fill_poly(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *img, *p;
    int value;
    if (!PyArg_ParseTuple(args, "OOi", &img, &p, &value)) return NULL;
    pfpy_buf bi, bp;
    if (pfpy_buf_get(img, "image", 'B', 2, 1, 0, &bi) < 0) return NULL;
    if (pfpy_buf_get(p, "points", 'i', -1, 0, 0, &bp) < 0) {
        pfpy_buf_release(&bi);
        return NULL;
    }
    PyObject *res = NULL;
    if (image_dims_ok(&bi)) {
        pf_image im = image_of(&bi, PF_U8);
        pf_status st = bp.v.len % 8 ? pfpy_invalid("points must be int32 (x, y) pairs"), PF_ERR_INVALID_ARGUMENT
                                    : pf_fill_poly(&im, bp.v.buf, (int32_t)(bp.v.len / 8), (uint8_t)value);
        if (st == PF_OK) res = Py_NewRef(Py_None);
        else if (!PyErr_Occurred()) pfpy_raise(st);
    }
    pfpy_buf_release(&bi);
    pfpy_buf_release(&bp);
    return res;
}

static PyObject *py_poly_mean_score(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *img, *p;
    if (!PyArg_ParseTuple(args, "OO", &img, &p)) return NULL;
    pfpy_buf bi, bp;
    if (pfpy_buf_get(img, "score", 'f', 2, 0, 0, &bi) < 0) return NULL;
    if (pfpy_buf_get(p, "points", 'f', -1, 0, 0, &bp) < 0) {
        pfpy_buf_release(&bi);
        return NULL;
    }
    PyObject *res = NULL;
    if (image_dims_ok(&bi)) {
        pf_image im = image_of(&bi, PF_F32);
        double mean = 0;
        pf_status st = bp.v.len % 8 ? pfpy_invalid("points must be float32 (x, y) pairs"), PF_ERR_INVALID_ARGUMENT
                                    : pf_poly_mean_score(&im, bp.v.buf, (int32_t)(bp.v.len / 8), &mean);
        if (st == PF_OK) res = PyFloat_FromDouble(mean);
        else if (!PyErr_Occurred()) pfpy_raise(st);
    }
    pfpy_buf_release(&bi);
    pfpy_buf_release(&bp);
    return res;
}

PyMethodDef pfpy_post_regions_methods[] = {
    {"post_connected_components", py_connected_components, METH_VARARGS,
     "post_connected_components(image, connectivity, /)\n--\n\npf_connected_components: (n, labels, stats, "
     "centroids) as cv2.connectedComponentsWithStats."},
    {"post_find_contours", py_find_contours, METH_VARARGS,
     "post_find_contours(image, mode, /)\n--\n\npf_find_contours: a list of (k, 1, 2) int32 arrays."},
    {"post_min_area_rect", py_min_area_rect, METH_VARARGS,
     "post_min_area_rect(points, /)\n--\n\npf_min_area_rect of int32 points: ((cx, cy), (w, h), angle)."},
    {"post_box_points", py_box_points, METH_VARARGS, "post_box_points(rect, /)\n--\n\npf_box_points: (4, 2) float32."},
    {"post_fill_poly", py_fill_poly, METH_VARARGS,
     "post_fill_poly(image, points, value, /)\n--\n\npf_fill_poly into a uint8 (h, w) array."},
    {"post_poly_mean_score", py_poly_mean_score, METH_VARARGS,
     "post_poly_mean_score(score, points, /)\n--\n\npf_poly_mean_score (PaddleOCR's box_score_fast)."},
    {NULL, NULL, 0, NULL}};
