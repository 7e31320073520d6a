/* pf_box_iou: torchvision's IoU / GIoU / DIoU / CIoU matrices. Row i is
 * box a[i] against every b[j]; b is transposed once into columns (with
 * torchvision's areas) so the SIMD row kernels read it contiguously; rows
 * run in parallel bands on the stream (each row written by one task). */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/stream.h"
#include "kernels/box_math.h"
#include "pixflow/post.h"
#include "post/post_kernels.h"
#include "core/backend.h"

typedef struct iou_job {
    pf_iou_kind kind;
    const float *a;
    int32_t n, m, rows_per_task;
    pfi_nms_cols b;
    float eps;
    float *out;
    const pfi_post_kernels *k;
} iou_job;

/* torchvision complete_box_iou, with libm atanf for torch.atan */
static void ciou_row(const float a5[5], const pfi_nms_cols *b, int32_t m, float eps, float *out) {
    const float c = (float)(4 / (3.14159265358979323846 * 3.14159265358979323846));
    pfk_iou_box ab = {a5[0], a5[1], a5[2], a5[3], a5[4]};
    float wp = a5[2] - a5[0], hp = a5[3] - a5[1];
    float tp = atanf(wp / hp);
    for (int32_t j = 0; j < m; j++) {
        pfk_iou_box bb = {b->x1[j], b->y1[j], b->x2[j], b->y2[j], b->area[j]};
        float iou, diou = pfk_box_diou(&ab, &bb, eps, &iou);
        float wg = bb.x2 - bb.x1, hg = bb.y2 - bb.y1;
        float d = tp - atanf(wg / hg);
        float v = c * (d * d);
        float alpha = v / (((1 - iou) + v) + eps);
        out[j] = diou - alpha * v;
    }
}

static void iou_task(void *ctx, int t, int worker) {
    (void)worker;
    const iou_job *j = ctx;
    int32_t r0 = t * j->rows_per_task, r1 = r0 + j->rows_per_task;
    if (r1 > j->n) r1 = j->n;
    int slot = j->kind == PF_CIOU ? 0 : (int)j->kind; /* IoU, GIoU, DIoU */
    pfi_iou_row_fn fn = j->k->iou_row[slot];
    static const pfi_iou_row_fn refs[3] = {pfi_iou_row_ref, pfi_giou_row_ref, pfi_diou_row_ref};
    for (int32_t i = r0; i < r1; i++) {
        const float *p = j->a + 4 * (size_t)i;
        float a5[5] = {p[0], p[1], p[2], p[3], (p[2] - p[0]) * (p[3] - p[1])};
        float *row = j->out + (size_t)i * (size_t)j->m;
        if (j->kind == PF_CIOU) {
            ciou_row(a5, &j->b, j->m, j->eps, row);
            continue;
        }
        int32_t done = fn(a5, &j->b, j->m, j->eps, row);
        if (done < j->m) {
            pfi_nms_cols rest = {j->b.x1 + done, j->b.y1 + done, j->b.x2 + done, j->b.y2 + done, j->b.area + done};
            refs[slot](a5, &rest, j->m - done, j->eps, row + done);
        }
    }
}

pf_status pf_box_iou(pf_stream *stream, pf_iou_kind kind, int32_t n, const float *a, int32_t m, const float *b,
                     float eps, float *out) {
    static const char op[] = "pf_box_iou";
    pfi_clear_error();
    pf_status hs = pfi_route_host_only(op, stream);
    if (hs != PF_OK) return hs;
    if ((unsigned)kind > PF_CIOU) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: kind %d is not a pf_iou_kind", op, (int)kind);
    if (n < 0 || m < 0) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: n (%d) and m (%d) must be >= 0", op, n, m);
    if (n == 0 || m == 0) return PF_OK;
    if (a == NULL || b == NULL || out == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, a == NULL ? "a" : b == NULL ? "b" : "out");
    if (isnan(eps)) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: eps is NaN", op);
    float *cols = malloc((size_t)m * 5 * sizeof *cols);
    if (cols == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d boxes", op, m);
    for (int32_t j = 0; j < m; j++) {
        const float *p = b + 4 * (size_t)j;
        cols[j] = p[0];
        cols[(size_t)m + j] = p[1];
        cols[2 * (size_t)m + j] = p[2];
        cols[3 * (size_t)m + j] = p[3];
        cols[4 * (size_t)m + j] = (p[2] - p[0]) * (p[3] - p[1]);
    }
    iou_job job = {kind, a, n, m, 1, {cols, cols + m, cols + 2 * (size_t)m, cols + 3 * (size_t)m, cols + 4 * (size_t)m},
                   eps, out, pfi_post_kernels_for(stream)};
    /* about 64K pairs per task */
    int64_t per = 65536 / m;
    job.rows_per_task = (int32_t)(per < 1 ? 1 : per > n ? n : per);
    int tasks = (int)((n + job.rows_per_task - 1) / job.rows_per_task);
    if (tasks > 1) pfi_stream_parallel(stream, tasks, iou_task, &job);
    else iou_task(&job, 0, 0);
    free(cols);
    return PF_OK;
}
