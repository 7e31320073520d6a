/* The device dispatcher's internals (include/pixflow/dispatch.h): one
 * batch of the fused preprocess over several devices. This room is the
 * device dispatcher; src/dispatch/ is the CPU kernel-family (ISA)
 * dispatch engine, a different thing. It is a front-end of front-ends:
 * it calls the public pf_preprocess_run per device, never a backend. */
#ifndef PF_HETERO_H
#define PF_HETERO_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "pixflow/dispatch.h"

#define PFI_HX_MAX_DEVICES 16
#define PFI_HX_SHAPE_LEN 96
#define PFI_HX_NAME_LEN 32

/* One (device, plan shape) entry of the cost model. */
typedef struct pfi_hx_cost {
    char device[PFI_HX_NAME_LEN];
    char shape[PFI_HX_SHAPE_LEN];
    double ms;          /* per sample */
    uint64_t samples;   /* measured so far (0 for an entry loaded with 0) */
} pfi_hx_cost;

/* Per shape: the batch time per sample with the best device alone and
 * with the devices together. Devices can share resources (PoCL runs on
 * the CPU's cores), so per-device costs measured side by side do not say
 * whether the hybrid beats the best device alone; these do. */
typedef struct pfi_hx_batchrec {
    char shape[PFI_HX_SHAPE_LEN];
    int solo_dev;        /* the best device when last placed */
    double solo_ms, hybrid_ms;
    uint64_t since_probe;
    /* config.measure_split (hetero_probe.c): the whole-chain batches'
     * time per sample, whatever their placement, and the split chain's in
     * each direction over the two cheapest devices (0: geometry on the
     * cheapest) */
    double whole_ms, split_ms[2];
    uint64_t whole_n;    /* whole-chain batches measured */
    int split_g[2], split_p[2];
    uint64_t split_since;
} pfi_hx_batchrec;

#define PFI_HX_BATCHRECS 8
#define PFI_HX_REPROBE 64 /* batches between re-measurements of the other placement */

typedef struct pfi_hx_model {
    pfi_hx_cost *e;
    int n, cap;
} pfi_hx_model;

/* The op classes of the fused preprocess (dispatch.h, "Op classes") and
 * which plan of a device a job runs: the whole chain or one stage. */
enum { PFI_HX_GEOMETRY = 0, PFI_HX_POINTWISE = 1, PFI_HX_NCLASS = 2 };
/* GEOMETRY1: stage 1 of 1-channel sources (a 1-channel canvas) */
enum { PFI_HX_STAGE_WHOLE = 0, PFI_HX_STAGE_GEOMETRY = 1, PFI_HX_STAGE_GEOMETRY1 = 2, PFI_HX_STAGE_POINTWISE = 3 };

/* What a chunk runs: sources, params, destination (dst_dev: the device
 * holding it, or -1 for host), info, and which of the device's plans.
 * The batch is one job; a split batch is two (stage 1 into the host u8
 * intermediate, stage 2 from it into dst). */
typedef struct pfi_hx_job {
    const pf_image *src;
    const pf_aug_params *params;
    pf_tensor dst;
    int dst_dev;
    pf_letterbox_info *info;
    int stage;
} pfi_hx_job;

/* A device of the dispatcher, with what it keeps between batches. */
typedef struct pfi_hx_dev {
    char name[PFI_HX_NAME_LEN];
    pf_device_kind kind;
    int index;
    pf_device *dev;             /* NULL for the CPU */
    pf_stream *stream;
    pf_preprocess_plan *plan;   /* for the dispatcher's current desc */
    pf_preprocess_plan *plan_geo, *plan_geo1, *plan_pt; /* its split stages (made on a split batch's first use) */
    void *img_buf, *out_buf;    /* device staging (GPU devices), grown on demand */
    size_t img_cap, out_cap;
    void *host_buf;             /* host staging when dst is another device's */
    size_t host_cap;
    pf_stream *dst_stream;      /* a stream of dst's device, for those uploads */
    int dst_stream_of;          /* which device it is a stream of */
    pf_dispatch_device_stats st;
    double weight_override;     /* < 0: none */
    int64_t delay_us, fail_after; /* test hooks */
    int64_t stage_delay_us[2];  /* test hook: per sample of each op class it runs (hetero_probe.c) */
    uint64_t hook_samples;      /* samples run since the failure hook was armed */
    /* per batch */
    double share;               /* planned fraction of the batch */
    int active;                 /* takes chunks from the cursor */
    _Atomic int failed;         /* failed in this batch: takes nothing more (read by the others' tail rule) */
    int range_a, range_b;       /* static placement (no work stealing) */
    int static_taken;           /* static placement: its range was handed out */
    uint64_t b_samples, b_chunks, b_up, b_down;
    double b_busy_ms, b_grab_ms;
    double first_ms;            /* its first chunk of the batch (program builds, first allocations) */
    uint64_t first_n;
    pf_status err;
    char errmsg[320];
} pfi_hx_dev;

struct pf_dispatch {
    pf_dispatch_config cfg;
    char devices_text[256];
    int ndev;
    pfi_hx_dev dev[PFI_HX_MAX_DEVICES];
    int pin;                    /* device index, or -1 */
    pf_preprocess_desc desc;    /* the plans' desc */
    int have_desc;
    int warm;                   /* the devices ran their warm-up for desc */
    char shape[PFI_HX_SHAPE_LEN];
    pfi_hx_model model;
    pf_dispatch_stats st;
    /* the stats as of the last finished batch, for the getters on any
     * thread (pfi_hx_publish) */
    pthread_mutex_t pub_mu;
    pf_dispatch_stats pub_st;
    pf_dispatch_device_stats pub_dev[PFI_HX_MAX_DEVICES];
    /* the batch being run; mu guards the retry list and the abort text */
    pthread_mutex_t mu;
    int count;
    _Atomic int cursor;         /* next sample to hand out (lock-free: a preempted grab blocks nobody) */
    int calibrating;
    int cost_placed;            /* every active device's share is its measured speed */
    int solo;                   /* this batch: the best device alone (probe or rule) */
    pfi_hx_batchrec *rec;       /* the shape's batch record when cost-placed with >= 2 devices */
    pfi_hx_batchrec recs[PFI_HX_BATCHRECS];
    int nrecs, next_rec;
    int retry_a[2 * PFI_HX_MAX_DEVICES + 2], retry_b[2 * PFI_HX_MAX_DEVICES + 2];
    _Atomic int nretry;         /* changed under mu; read without it on the fast path */
    _Atomic int abort;          /* a caller error (invalid argument): stop taking chunks */
    pf_status abort_status;
    char abort_msg[320];
    pfi_hx_job job;             /* the batch (job.dst_dev: the device holding dst, or -1) */
    /* rules (hetero_rules.c): the device of each op class, or -1 */
    int rule[PFI_HX_NCLASS];
    /* split batches (hetero_split.c) */
    int split;                  /* this batch runs split: geometry on split_g, pointwise on split_p */
    int split_g, split_p;
    int split_dir;              /* measured split: the batch record's direction; -1: by rules */
    char split_note[112];       /* measured split: what the whole-chain batch's reasons add */
    int split_warm;             /* the stage plans ran their warm-up for desc */
    pf_preprocess_desc geo_desc, pt_desc;
    uint8_t *mid;               /* the u8 intermediate, count x H x W x 3 */
    size_t mid_cap;
    pf_image *mid_im;
    pf_aug_params *geo_prm, *pt_prm;
    int split_cap;              /* entries of mid_im, geo_prm, pt_prm */
    _Atomic int mid_ready;      /* samples of stage 1 done (the pipeline's hand-over) */
    _Atomic int split_stop;     /* a stage failed: the other stops */
};

double pfi_hx_now_ms(void);
/* Copies the stats for the getters (hetero_open.c). */
void pfi_hx_publish(pf_dispatch *d);

/* Cost model (hetero_costs.c). */
pfi_hx_cost *pfi_hx_cost_find(pfi_hx_model *m, const char *device, const char *shape);
pf_status pfi_hx_cost_set(pfi_hx_model *m, const char *device, const char *shape, double ms,
                          uint64_t samples);
void pfi_hx_model_free(pfi_hx_model *m);
/* The shape key of a desc (docs in dispatch.h). */
void pfi_hx_shape_key(const pf_preprocess_desc *desc, char out[PFI_HX_SHAPE_LEN]);
/* Parses "cpu", "cuda:N", "opencl[:N]"; 0 on a malformed name. */
int pfi_hx_parse_name(const char *name, pf_device_kind *kind, int *index);
/* Validates and parses the JSON text into a new model (hetero_json.c). */
pf_status pfi_hx_parse_json(const char *fn, const char *json, pfi_hx_model *out);

/* Placement (hetero_place.c): shares, reasons, drops for this batch;
 * an error when no device may take samples. */
pf_status pfi_hx_place(pf_dispatch *d);
/* The rules' placement (hetero_rules.c): 0 when no rule is set; else
 * the weights (one device: the chain whole there) and reasons, and
 * d->split set when the batch runs split. */
int pfi_hx_rule_place(pf_dispatch *d, double w[]);
/* config.measure_split (hetero_probe.c), nact the devices the cost
 * model would give samples: 1 when this batch runs split
 * (a probe, or the split measured faster than the whole chain), with
 * d->split and the reasons set; 0 otherwise (d->rec set to the shape's
 * record, d->split_note to what the reasons add). */
int pfi_hx_split_choice(pf_dispatch *d, int nact);
/* The shape's batch record (hetero_place.c). */
pfi_hx_batchrec *pfi_hx_batch_rec(pf_dispatch *d);
/* After a batch: EWMA cost updates and stats (hetero_place.c). */
void pfi_hx_account(pf_dispatch *d, double wall_ms);

/* Runs samples [a, b) of the batch (run_chunk) or of job j (run_job) on
 * device x (hetero_chunk.c); on failure sets x->err and x->errmsg. */
pf_status pfi_hx_run_chunk(pf_dispatch *d, pfi_hx_dev *x, int a, int b);
/* With d->mu held, after x's chunk failed with s: an invalid argument
 * (the caller's batch) aborts the batch with x's message and returns 0; any
 * other error marks x failed (counted) and returns 1. */
int pfi_hx_chunk_failed(pf_dispatch *d, pfi_hx_dev *x, pf_status s);
pf_status pfi_hx_run_job(pf_dispatch *d, const pfi_hx_job *j, pfi_hx_dev *x, int a, int b);
/* Runs sample 0 of j on x once, untimed, without hooks: kernel builds,
 * first allocations and scratch growth are not a device's cost per sample. */
void pfi_hx_warm_up(pf_dispatch *d, const pfi_hx_job *j, pfi_hx_dev *x);
pf_preprocess_plan *pfi_hx_plan_of(const pfi_hx_dev *x, int stage);

/* Splitting the chain (hetero_split.c). The two stages' descs of desc, or
 * 0 with the reason in why when it cannot be split exactly. */
int pfi_hx_split_descs(const pf_preprocess_desc *desc, pf_preprocess_desc *geo, pf_preprocess_desc *pt, char *why,
                       size_t why_len);
/* One sample's params for the two stages (p NULL: identity). */
void pfi_hx_split_params(const pf_aug_params *p, pf_aug_params *geo, pf_aug_params *pt);
/* Whether this batch of desc may be split exactly; else 0 and why. */
int pfi_hx_split_batch_ok(const pf_preprocess_desc *desc, int count, const pf_aug_params params[], char *why,
                          size_t why_len);
/* Runs the batch split: stage 1 on the geometry rule's device, stage 2 on
 * the pointwise one, pipelined; a failure re-runs the batch whole on a
 * healthy device. */
pf_status pfi_hx_run_split(pf_dispatch *d, double *overhead_ms);
/* Splits the batch's chains: geometry (desc geo) on device g, pointwise
 * (pt) on p; dir: the measured direction (0/1), -1 for a rule's split. */
void pfi_hx_split_select(pf_dispatch *d, const pf_preprocess_desc *geo, const pf_preprocess_desc *pt, int g, int p,
                         int dir);
void pfi_hx_split_free(pf_dispatch *d);
/* Bytes of the u8 intermediate per sample of desc. */
uint64_t pfi_hx_split_bytes(const pf_preprocess_desc *desc);
/* The class name / index ("geometry", "pointwise"). */
const char *pfi_hx_class_name(int c);

#endif
