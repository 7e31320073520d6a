/* Warp matrix helpers: cv::getRotationMatrix2D, cv::getAffineTransform,
 * cv::getPerspectiveTransform, cv::invertAffineTransform, computed with
 * the same double operations in the same order (points are float, like
 * OpenCV's Point2f, and the products that OpenCV forms in float are
 * formed in float here). */
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "ops/warp_matrix.h"
#include "pixflow/ops.h"

pf_status pf_rotation_matrix_2d(float cx, float cy, double angle_deg, double scale, double m[6]) {
    pfi_clear_error();
    if (m == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_rotation_matrix_2d: m is NULL");
    if (!isfinite(cx) || !isfinite(cy) || !isfinite(angle_deg) || !isfinite(scale))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_rotation_matrix_2d: center, angle and scale must be finite");
    double angle = angle_deg * (3.14159265358979323846 / 180);
    double alpha = cos(angle) * scale, beta = sin(angle) * scale;
    m[0] = alpha;
    m[1] = beta;
    m[2] = (1 - alpha) * (double)cx - beta * (double)cy;
    m[3] = -beta;
    m[4] = alpha;
    m[5] = beta * (double)cx + (1 - alpha) * (double)cy;
    return PF_OK;
}

/* Solves a x = b (n x n, row-major, destroyed) by Gaussian elimination
 * with partial pivoting, as OpenCV's LU (DECOMP_LU): 0 when a pivot is
 * below 100 * DBL_EPSILON in magnitude (singular). */
static int lu_solve(double *a, double *b, int n) {
    const double eps = 2.2204460492503131e-16 * 100;
    for (int i = 0; i < n; i++) {
        int p = i;
        for (int j = i + 1; j < n; j++)
            if (fabs(a[j * n + i]) > fabs(a[p * n + i])) p = j;
        if (fabs(a[p * n + i]) < eps) return 0;
        if (p != i) {
            for (int j = i; j < n; j++) {
                double t = a[i * n + j];
                a[i * n + j] = a[p * n + j];
                a[p * n + j] = t;
            }
            double t = b[i];
            b[i] = b[p];
            b[p] = t;
        }
        double d = -1 / a[i * n + i];
        for (int j = i + 1; j < n; j++) {
            double alpha = a[j * n + i] * d;
            for (int k = i + 1; k < n; k++) a[j * n + k] += alpha * a[i * n + k];
            b[j] += alpha * b[i];
        }
    }
    for (int i = n - 1; i >= 0; i--) {
        double s = b[i];
        for (int k = i + 1; k < n; k++) s -= a[i * n + k] * b[k];
        b[i] = s / a[i * n + i];
    }
    return 1;
}

static pf_status finite_points(const char *op, const float *p, int n, const char *which) {
    for (int k = 0; k < n; k++)
        if (!isfinite(p[k])) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s[%d] is not finite", op, which, k);
    return PF_OK;
}

pf_status pf_affine_from_points(const float src[6], const float dst[6], double m[6]) {
    static const char op[] = "pf_affine_from_points";
    pfi_clear_error();
    if (src == NULL || dst == NULL || m == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, src == NULL ? "src" : dst == NULL ? "dst" : "m");
    pf_status st = finite_points(op, src, 6, "src");
    if (st == PF_OK) st = finite_points(op, dst, 6, "dst");
    if (st != PF_OK) return st;
    double a[36], b[6];
    memset(a, 0, sizeof a);
    for (int i = 0; i < 3; i++) {
        int j = i * 12, k = i * 12 + 6;
        a[j] = a[k + 3] = (double)src[2 * i];
        a[j + 1] = a[k + 4] = (double)src[2 * i + 1];
        a[j + 2] = a[k + 5] = 1;
        b[i * 2] = (double)dst[2 * i];
        b[i * 2 + 1] = (double)dst[2 * i + 1];
    }
    if (!lu_solve(a, b, 6))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: the three source points are collinear (or coincide)", op);
    memcpy(m, b, sizeof b);
    return PF_OK;
}

pf_status pf_perspective_from_points(const float src[8], const float dst[8], double m[9]) {
    static const char op[] = "pf_perspective_from_points";
    pfi_clear_error();
    if (src == NULL || dst == NULL || m == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, src == NULL ? "src" : dst == NULL ? "dst" : "m");
    pf_status st = finite_points(op, src, 8, "src");
    if (st == PF_OK) st = finite_points(op, dst, 8, "dst");
    if (st != PF_OK) return st;
    double a[64], b[8];
    memset(a, 0, sizeof a);
    for (int i = 0; i < 4; i++) {
        float sx = src[2 * i], sy = src[2 * i + 1], dx = dst[2 * i], dy = dst[2 * i + 1];
        double *r = a + i * 8, *q = a + (i + 4) * 8;
        r[0] = q[3] = (double)sx;
        r[1] = q[4] = (double)sy;
        r[2] = q[5] = 1;
        /* float products, as OpenCV's -src.x * dst.x on Point2f */
        r[6] = (double)(-sx * dx);
        r[7] = (double)(-sy * dx);
        q[6] = (double)(-sx * dy);
        q[7] = (double)(-sy * dy);
        b[i] = (double)dx;
        b[i + 4] = (double)dy;
    }
    if (!lu_solve(a, b, 8))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT,
                        "%s: the points are degenerate (three of them collinear, or coinciding); no unique "
                        "perspective transform",
                        op);
    memcpy(m, b, sizeof b);
    m[8] = 1.;
    return PF_OK;
}

pf_status pf_invert_affine(const double m[6], double inv[6]) {
    pfi_clear_error();
    if (m == NULL || inv == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_invert_affine: %s is NULL", m == NULL ? "m" : "inv");
    for (int k = 0; k < 6; k++)
        if (!isfinite(m[k])) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_invert_affine: m[%d] is not finite", k);
    double D = m[0] * m[4] - m[1] * m[3];
    if (D == 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_invert_affine: m is singular (determinant 0)");
    D = 1. / D;
    double a11 = m[4] * D, a22 = m[0] * D, a12 = -m[1] * D, a21 = -m[3] * D;
    double b1 = -a11 * m[2] - a12 * m[5];
    double b2 = -a21 * m[2] - a22 * m[5];
    inv[0] = a11, inv[1] = a12, inv[2] = b1;
    inv[3] = a21, inv[4] = a22, inv[5] = b2;
    return PF_OK;
}

pf_status pfi_warp_dst_to_src(const char *op, int perspective, const double *in, int mi, int flags, double m[9]) {
    int nm = perspective ? 9 : 6;
    for (int k = 0; k < nm; k++)
        if (!isfinite(in[k]))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: matrices[%d] entry %d is not finite", op, mi, k);
    memcpy(m, in, (size_t)nm * sizeof *m);
    if (!perspective) m[6] = 0, m[7] = 0, m[8] = 1;
    if (flags & PF_WARP_INVERSE_MAP) return PF_OK;
    if (!perspective) {
        double D = m[0] * m[4] - m[1] * m[3];
        if (D == 0)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: matrices[%d] is singular (determinant 0); it cannot be inverted",
                            op, mi);
        D = 1. / D;
        double a11 = m[4] * D, a22 = m[0] * D;
        m[0] = a11;
        m[1] *= -D;
        m[3] *= -D;
        m[4] = a22;
        double b1 = -m[0] * m[2] - m[1] * m[5];
        double b2 = -m[3] * m[2] - m[4] * m[5];
        m[2] = b1;
        m[5] = b2;
    } else {
        const double *a = in;
        double d = a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
                   a[2] * (a[3] * a[7] - a[4] * a[6]);
        if (d == 0)
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: matrices[%d] is singular (determinant 0); it cannot be inverted",
                            op, mi);
        d = 1. / d;
        m[0] = (a[4] * a[8] - a[5] * a[7]) * d;
        m[1] = (a[2] * a[7] - a[1] * a[8]) * d;
        m[2] = (a[1] * a[5] - a[2] * a[4]) * d;
        m[3] = (a[5] * a[6] - a[3] * a[8]) * d;
        m[4] = (a[0] * a[8] - a[2] * a[6]) * d;
        m[5] = (a[2] * a[3] - a[0] * a[5]) * d;
        m[6] = (a[3] * a[7] - a[4] * a[6]) * d;
        m[7] = (a[1] * a[6] - a[0] * a[7]) * d;
        m[8] = (a[0] * a[4] - a[1] * a[3]) * d;
    }
    for (int k = 0; k < 9; k++)
        if (!isfinite(m[k]))
            return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: the inverse of matrices[%d] is not finite (nearly singular)",
                            op, mi);
    return PF_OK;
}

void pfi_warp_cval_store(pf_dtype dt, double v, void *elem) {
    double r = isnan(v) ? 0 : nearbyint(v);
    if (dt == PF_U8) {
        uint8_t u = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
        memcpy(elem, &u, 1);
    } else if (dt == PF_U16) {
        uint16_t u = (uint16_t)(r < 0 ? 0 : r > 65535 ? 65535 : r);
        memcpy(elem, &u, 2);
    } else {
        float f = (float)v;
        memcpy(elem, &f, 4);
    }
}

pf_status pfi_warp_check_sides(const char *op, int i, const pf_image *s, const pf_image *d) {
    if (s->width >= PFI_WARP_MAX_SIDE || s->height >= PFI_WARP_MAX_SIDE || d->width >= PFI_WARP_MAX_SIDE ||
        d->height >= PFI_WARP_MAX_SIDE)
        return pfi_fail(PF_ERR_UNSUPPORTED, "%s: src[%d] is %dx%d and dst[%d] %dx%d; warps need sides below %d", op, i,
                        (int)s->width, (int)s->height, i, (int)d->width, (int)d->height, PFI_WARP_MAX_SIDE);
    return PF_OK;
}
