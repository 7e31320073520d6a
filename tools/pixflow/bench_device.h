/* `pixflow bench <op> --device opencl:N | cuda:N`: every op of the bench
 * that the device backend routes, timed on the device (inputs and outputs
 * resident in device memory, medians of whole rounds ended by a stream
 * synchronize) BESIDE the CPU backend (a 2-thread CPU stream) in the same
 * run and on the same inputs, with the upload of the inputs and the
 * download of the outputs timed apart. Each device output is compared with
 * the CPU's byte for byte over whole buffers (same canary bytes around
 * them); a difference makes the bench exit 1. Needs no OpenCV: the
 * reference is the CPU backend. */
#ifndef PIXFLOW_TOOL_BENCH_DEVICE_H
#define PIXFLOW_TOOL_BENCH_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "pixflow/pixflow.h"

enum { BD_MAX_BUFS = 8 };

/* One buffer of a case: a host copy (the CPU side reads and writes it) and
 * a device copy of the same bytes; outputs start as the same canaries. */
typedef struct bd_buf {
    uint8_t *host, *dev;
    size_t bytes;
    int out;
} bd_buf;

typedef struct bd_case {
    pf_device *dev;
    pf_mem mem;
    int32_t index;
    int quick;
    bd_buf buf[BD_MAX_BUFS];
    int nbuf;
    char size[48]; /* shown in the table: "960x540 -> 320x180" */
    void *state;   /* the case's own (a plan, parameters) */
} bd_case;

typedef struct bd_op {
    const char *bench; /* the `pixflow bench <name>` it belongs to */
    const char *name;
    /* adds the buffers (bd_add) and fills the inputs' host bytes; 0 or -1 */
    int (*setup)(bd_case *c);
    /* one call on the CPU side (dev 0, host views) or the device (dev 1) */
    pf_status (*run)(bd_case *c, pf_stream *s, int dev);
    void (*teardown)(bd_case *c); /* frees c->state; may be NULL */
    /* differing bytes of the outputs (back[i]: the device's buffer i), of
     * *total compared; NULL: every byte of every output buffer. For
     * outputs whose tail the op leaves unspecified (pf_nms's keep). */
    size_t (*differs)(const bd_case *c, uint8_t *const back[], size_t *total);
} bd_op;

/* Adds a buffer of `bytes` (host malloc + pf_malloc on the device); the
 * host pointer, or NULL (the message printed) on failure. Inputs get
 * smooth random content (overwrite it in setup for structured inputs). */
uint8_t *bd_add(bd_case *c, size_t bytes, int out);
/* The data pointer of buffer i on one side. */
void *bd_ptr(const bd_case *c, int i, int dev);
/* An image view of buffer i (packed) on one side. */
pf_image bd_img(const bd_case *c, int i, int dev, int32_t w, int32_t h, int32_t ch, pf_dtype dt, pf_layout lay);

/* The cases (bench_device_ops.c, bench_device_pp.c). */
extern const bd_op bd_image_ops[];
extern const int bd_image_op_count;
extern const bd_op bd_pp_ops[];
extern const int bd_pp_op_count;

/* Entry point from cmd_bench.c: `what` is "all" or a bench name; device
 * the --device value. 0, 1 (a failure or a difference) or 2 (usage: an
 * unknown device, a bench without device ops). */
int bench_device(const char *what, const char *device, int argc, char **argv);

#endif
