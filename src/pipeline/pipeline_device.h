/* Device placement internals shared by pipeline_device.c (the device
 * stage, setup, consumer hooks), pipeline_staging.c (the capped staging
 * allocator the workers share) and pipeline_decode_staged.c (the workers'
 * decode-only step). */
#ifndef PF_PIPELINE_DEVICE_H
#define PF_PIPELINE_DEVICE_H

#include "pipeline/pipeline_internal.h"
#include "pixflow/runtime.h"

/* Device batch tensors: one the consumer holds, one ready, one being
 * written; upload of the next batch's images overlaps the preprocess. */
#define PLI_DTENSORS 3

typedef struct pli_dtensor {
    void *data;
    pf_event *ready;          /* recorded on the compute stream after the preprocess */
    pf_event *released;       /* recorded on the consumer stream by pf_batch_release */
    bool released_recorded;
    struct pli_dtensor *next_free;
} pli_dtensor;

typedef struct pli_device {
    pf_device *dev;           /* our own reference to config.augment_device */
    pf_mem mem;               /* memory kind of the device views */
    int32_t index;
    pf_stream *upload, *compute;
    pf_event *uploaded;       /* recorded on upload after a batch's copies */
    pf_pool *pinned;          /* staging: decoded images (workers -> upload) */
    pf_pool *device_pool;     /* uploaded images (upload -> preprocess) */
    size_t staging_cap;
    pf_preprocess_plan *plan;

    pli_dtensor dt[PLI_DTENSORS];
    pthread_mutex_t dt_mu;
    pthread_cond_t dt_cv;
    pli_dtensor *dt_free;
    int32_t ndt_free;

    pthread_t thread;
    bool started;
    int32_t cap_samples;      /* scratch arrays below hold batch_size entries */
    pf_image *hviews, *dviews;
    pf_aug_params *params;
    pf_letterbox_info *info;
    size_t *offsets;

    /* staging turns (pipeline_staging.c), under stg_mu */
    pthread_mutex_t stg_mu;
    pthread_cond_t stg_cv;
    uint64_t turn;            /* seq of the item whose turn it is to allocate */
    int32_t active;           /* workers holding an item and not waiting for staging */
    bool device_idle;         /* the device stage waits for input */
    _Atomic uint64_t progress;/* bumped by anything that can free staging */

    void **decoders;          /* per worker (pf_decoder *), codec builds */
    int32_t ndecoders;
} pli_device;

/* Waits for item seq's turn, then (bytes > 0) allocates a staging block of
 * bytes, waiting for memory when the pool is at its cap. Passes the turn
 * on in every case. PF_ERR_OUT_OF_MEMORY for an image larger than the cap
 * (this sample fails); PF_ERR_CANCELLED when the pipeline stops (also
 * when it stops because one batch cannot fit: see pipeline.h). */
pf_status pli_staging_take(pf_pipeline *p, uint64_t seq, size_t bytes, void **block);
/* Wakes workers waiting for staging memory after blocks were freed. */
void pli_staging_freed(pf_pipeline *p);
void pli_staging_set_idle(pf_pipeline *p, bool idle);

#endif
