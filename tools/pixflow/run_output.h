/* What `pixflow run` writes: batches as .npy files (+ labels) and a PNG
 * contact sheet of de-normalized samples. */
#ifndef PIXFLOW_TOOL_RUN_OUTPUT_H
#define PIXFLOW_TOOL_RUN_OUTPUT_H

#include "pixflow/pixflow.h"

/* DIR/batch_<epoch>_<index>.npy (shape n,C,H,W or n,H,W,C; bf16 as raw
 * '<u2' bits: numpy has no bfloat16) and labels_<epoch>_<index>.npy
 * ('<i4'). Each is written under a hidden temporary name (.NAME.part)
 * and renamed once complete, labels first, so a reader never sees a
 * partial batch. Returns 0, or prints why (the OS error by name), removes
 * what it wrote of this batch and returns 1. */
int run_write_npy(const char *dir, const pf_batch *b);

/* A contact sheet: collects up to `cap` samples, then writes them as an
 * 8-column grid PNG. Samples are de-normalized with the desc: u8 =
 * round((v * std + mean) / scale), clamped. */
typedef struct run_sheet run_sheet;
run_sheet *run_sheet_create(const pf_preprocess_desc *desc, int cap);
/* Adds samples from a batch until full; returns 1 when full. */
int run_sheet_add(run_sheet *s, const pf_batch *b);
int run_sheet_write(run_sheet *s, const char *path); /* 0 ok, 1 error (printed) */
void run_sheet_destroy(run_sheet *s);

#endif
