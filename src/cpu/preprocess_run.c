/*
 * pf_preprocess_run on the CPU: per sample the u8 stage
 * (preprocess_canvas.c) into a worker's scratch and the emit pass
 * (preprocess_emit.c) into the tensor, as pfi_pp_sample_of decided.
 *
 * Two schedules, chosen from the batch shape only (never affecting bits,
 * since every stage is a pure function of its inputs):
 *  - sample-parallel: one task per sample, the whole chain inline on a
 *    worker with that worker's scratch (which stays in L2);
 *  - banded: for big outputs or batches smaller than the thread count,
 *    samples one after the other, each stage spread over the stream's
 *    threads (resize bands, row-parallel colour ops, emit row bands).
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/stream.h"
#include "cpu/batch_rows.h"
#include "cpu/convert_exec.h"
#include "cpu/cpu_kernels.h"
#include "cpu/geom_exec.h"
#include "cpu/preprocess_cpu.h"

#define OP PFI_PP_OP
/* Outputs at least this large are banded: one sample is enough work to
 * share, and a 640x640 canvas no longer fits a core's L2 anyway. */
#define BANDED_PIXELS (320 * 320)

typedef struct run_job {
    pf_preprocess_plan *plan;
    pfi_pp_cpu *cpu;
    pf_isa isa;
    const pf_image *src;
    const pf_aug_params *params;
    const pf_tensor *dst;
    const pfi_pp_sample *smp;
    const pfi_pp_source *source; /* NULL: src[] are the images */
    size_t source_off;           /* where the source image starts in a worker's scratch */
    const pfi_convert_kernels *cvt;
    const pfi_geom_kernels *geo;
    const pfi_preprocess_kernels *pp;
    int pp_simd[PFI_PP_SLOTS];
    atomic_int failed;       /* sample index + 1 of a failure, 0 when none */
    pf_status status;
} run_job;

static pf_aug_params params_of(const run_job *j, int i) {
    return j->params ? j->params[i] : pf_aug_params_identity();
}

static void emit_init(const run_job *j, int i, const pf_image *canvas, const pf_aug_params *p, pfi_pp_emit *e) {
    e->plan = j->plan;
    e->canvas = canvas;
    e->g = &j->smp[i].g;
    pf_tensor_views(j->dst, i, 1, &e->out); /* validated */
    for (int c = 0; c < 4; c++) e->order[c] = j->smp[i].order[c];
    e->flip_h = p->flip_h;
    e->flip_v = p->flip_v;
    e->cvt_table = j->cvt;
    e->geom_table = j->geo;
    e->pp_table = j->pp;
    e->cpu = j->cpu;
    for (int k = 0; k < PFI_PP_SLOTS; k++) e->pp_simd[k] = j->pp_simd[k];
}

static void fail_sample(run_job *j, int i, pf_status st) {
    int expected = 0;
    if (atomic_compare_exchange_strong(&j->failed, &expected, i + 1)) j->status = st;
}

/* Sample i's u8 stage: the source image (given, or made by the source
 * provider into the scratch behind the canvas), then the canvas. */
static pf_status canvas_of(run_job *j, pf_stream *stream, int i, unsigned char *scratch, const pf_aug_params *p,
                           pf_image *canvas) {
    const pf_image *img = &j->src[i];
    const pfi_pp_geom *g = &j->smp[i].g;
    pf_image made;
    pfi_pp_geom local;
    if (j->source) {
        pf_status st = j->source->make(j->source->ctx, i, stream, g, scratch + j->source_off, &made, &local);
        if (st != PF_OK) return st;
        img = &made;
        g = &local;
    }
    return pfi_pp_canvas_isa(j->plan, stream, j->isa, img, p, &j->smp[i], g, scratch, canvas);
}

static void sample_task(void *ctx, int i, int worker) {
    run_job *j = ctx;
    pf_aug_params p = params_of(j, i);
    pf_image canvas;
    pf_status st = canvas_of(j, NULL, i, j->cpu->scratch[worker], &p, &canvas);
    if (st != PF_OK) {
        fail_sample(j, i, st);
        return;
    }
    pfi_pp_emit e;
    emit_init(j, i, &canvas, &p, &e);
    pfi_pp_emit_rows(&e, 0, e.out.height);
}

static void emit_band(void *ctx, int sample, int32_t y0, int32_t y1) {
    (void)sample;
    pfi_pp_emit_rows(ctx, y0, y1);
}

/* Scratch per worker: the largest canvas of the batch (+ its gray plane). */
static pf_status ensure_scratch(pfi_pp_cpu *plan, int workers, size_t bytes) {
    if (workers <= plan->nscratch && bytes <= plan->scratch_bytes) return PF_OK;
    if (bytes < plan->scratch_bytes) bytes = plan->scratch_bytes;
    int n = workers > plan->nscratch ? workers : plan->nscratch;
    unsigned char **arr = calloc((size_t)n, sizeof *arr);
    if (arr == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": out of memory for scratch");
    for (int w = 0; w < n; w++) {
        arr[w] = malloc(bytes);
        if (arr[w] == NULL) {
            for (int k = 0; k < w; k++) free(arr[k]);
            free(arr);
            return pfi_fail(PF_ERR_OUT_OF_MEMORY, OP ": out of memory for %zu bytes of scratch per thread", bytes);
        }
    }
    for (int w = 0; w < plan->nscratch; w++) free(plan->scratch[w]);
    free(plan->scratch);
    plan->scratch = arr;
    plan->nscratch = n;
    plan->scratch_bytes = bytes;
    return PF_OK;
}

static void cpu_state_free(void *data) {
    pfi_pp_cpu *c = data;
    if (c == NULL) return;
    for (int w = 0; w < c->nscratch; w++) free(c->scratch[w]);
    free(c->scratch);
    free(c->smp);
    free(c);
}

pfi_pp_cpu *pfi_pp_cpu_of(pf_preprocess_plan *plan, const char *op) {
    pfi_pp_state *st = &plan->state[PF_DEVICE_CPU];
    if (st->data != NULL) return st->data;
    pfi_pp_cpu *c = calloc(1, sizeof *c);
    if (c == NULL) {
        pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
        return NULL;
    }
    const pf_preprocess_desc *d = &plan->d;
    c->rcp_exact = d->out_channels == 3 && (d->out_dtype == PF_F32 || d->out_dtype == PF_F16);
    c->norm_k.scale = d->scale;
    for (int k = 0; k < 3 && c->rcp_exact; k++) {
        c->norm_k.mean[k] = d->mean[k];
        c->norm_k.stdv[k] = d->std[k];
        c->norm_k.inv[k] = 1.0f / d->std[k];
        c->rcp_exact = pfi_pp_rcp_exact(d->scale, d->mean[k], d->std[k], c->norm_k.inv[k]);
    }
    st->data = c;
    st->free = cpu_state_free;
    return c;
}

pf_status pfi_cpu_preprocess(pf_preprocess_plan *plan, pf_stream *s, int count, const pf_image src[],
                             const pf_aug_params params[], pf_tensor *dst, pf_letterbox_info info[]) {
    return pfi_pp_execute(plan, s, count, src, NULL, params, dst, info, OP);
}

pf_status pfi_pp_execute(pf_preprocess_plan *plan, pf_stream *stream, int count, const pf_image src[],
                         const pfi_pp_source *source, const pf_aug_params params[], pf_tensor *dst,
                         pf_letterbox_info info[], const char *op) {
    pf_status st;
    pfi_pp_cpu *cpu = pfi_pp_cpu_of(plan, op);
    if (cpu == NULL) return PF_ERR_OUT_OF_MEMORY;
    if (count > cpu->nsmp) { /* grows to the largest batch; reused after */
        pfi_pp_sample *ns = realloc(cpu->smp, (size_t)count * sizeof *ns);
        if (ns == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "%s: out of memory for %d samples", op, count);
        cpu->smp = ns;
        cpu->nsmp = count;
    }
    pfi_pp_sample *smp = cpu->smp;
    size_t need = 64;
    pf_aug_params id = pf_aug_params_identity();
    for (int i = 0; i < count; i++) {
        pfi_pp_sample_of(plan, &src[i], params ? &params[i] : &id, &smp[i]);
        const pfi_pp_geom *g = &smp[i].g;
        size_t px = (size_t)g->rw * (size_t)g->rh;
        size_t b = px * (size_t)src[i].channels + (plan->d.out_channels == 1 ? px : 0) + 64;
        if (b > need) need = b;
    }
    /* the provider's image goes behind the largest canvas */
    size_t source_off = (need + 63) / 64 * 64, extra = 0;
    if (source) {
        for (int i = 0; i < count; i++) {
            size_t b = source->bytes(source->ctx, i, &smp[i].g);
            if (b > extra) extra = b;
        }
        need = source_off + extra;
    }
    int threads = pf_stream_threads(stream);
    int64_t out_px = (int64_t)plan->d.out_width * plan->d.out_height;
    int banded = threads > 1 && (out_px >= BANDED_PIXELS || count < threads);
    if ((st = ensure_scratch(cpu, banded ? 1 : threads, need)) != PF_OK) return st;
    pf_isa isa = pf_stream_isa(stream);
    run_job j = {.plan = plan, .cpu = cpu, .isa = isa, .src = src, .params = params, .dst = dst, .smp = smp,
                 .cvt = pfi_kfamily_table(&pfi_convert_family, isa),
                 .geo = pfi_kfamily_table(&pfi_geom_family, isa),
                 .pp = pfi_kfamily_table(&pfi_preprocess_family, isa), .status = PF_OK,
                 .source = source, .source_off = source_off};
    for (int k = 0; k < PFI_PP_SLOTS; k++)
        j.pp_simd[k] = pfi_kfamily_slot_isa(&pfi_preprocess_family, isa, k) != PF_ISA_SCALAR;
    atomic_init(&j.failed, 0);
    if (!banded) {
        pfi_stream_parallel(stream, count, sample_task, &j);
    } else {
        for (int i = 0; i < count && atomic_load(&j.failed) == 0; i++) {
            pf_aug_params p = params_of(&j, i);
            pf_image canvas;
            st = canvas_of(&j, stream, i, cpu->scratch[0], &p, &canvas);
            if (st != PF_OK) {
                fail_sample(&j, i, st);
                break;
            }
            pfi_pp_emit e;
            emit_init(&j, i, &canvas, &p, &e);
            int32_t rows = e.out.height, px_row = e.out.width * e.out.channels;
            pfi_run_rows(stream, 1, &rows, &px_row, 1, emit_band, &e);
        }
    }
    if (info)
        for (int i = 0; i < count; i++) info[i] = smp[i].g.info;
    int bad = atomic_load(&j.failed);
    if (bad)
        return pfi_fail(j.status, "%s: sample %d failed (%s) in its %s stage", op, bad - 1,
                        pf_status_str(j.status), source ? "colour conversion / resize / colour" : "resize / colour");
    return PF_OK;
}
