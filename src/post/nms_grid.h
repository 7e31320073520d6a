/* Spatial grid over one NMS group's kept boxes (nms_grid.c). */
#ifndef PF_POST_NMS_GRID_H
#define PF_POST_NMS_GRID_H

#include "post/nms_internal.h"

/* Groups smaller than this check the whole kept list (SIMD). */
#define PFI_GRID_MIN_GROUP 512

typedef struct pfi_grid_entry {
    int32_t pos, next;
} pfi_grid_entry;

typedef struct pfi_nms_grid {
    int G;
    double lo[2], inv[2];
    int32_t *head;          /* G x G list heads into ent (-1: empty) */
    int32_t big;            /* boxes covering many cells: checked always */
    pfi_grid_entry *ent;
    int32_t n, cap;
} pfi_nms_grid;

/* Does the kept box at position k suppress the candidate at p? */
typedef int (*pfi_pair_fn)(const pfi_nms_cfg *c, const pfi_nms_set *s, int32_t k, int32_t p);

/* 0: an empty grid for the group's positions pos[0..m); -1: not
 * applicable (small group, non-finite boxes, a threshold under which
 * disjoint boxes suppress): use the plain kept list; -2: out of memory. */
int pfi_grid_init(pfi_nms_grid *g, const pfi_nms_cfg *c, const pfi_nms_set *s, const int32_t *pos, int32_t m);
int pfi_grid_add(pfi_nms_grid *g, const pfi_nms_cfg *c, const pfi_nms_set *s, int32_t p);
int pfi_grid_suppressed(const pfi_nms_grid *g, const pfi_nms_cfg *c, const pfi_nms_set *s, int32_t p,
                        pfi_pair_fn sup);
void pfi_grid_free(pfi_nms_grid *g);

#endif
