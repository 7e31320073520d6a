/* Internal helpers on image views. */
#ifndef PF_CORE_IMAGE_UTIL_H
#define PF_CORE_IMAGE_UTIL_H

#include "pixflow/core.h"

/* [lo, hi) byte range the view can touch. */
void pfi_image_extent(const pf_image *im, const char **lo, const char **hi);
/* 1 when the byte ranges of two views intersect. */
int pfi_images_overlap(const pf_image *a, const pf_image *b);

/* Pointer to row y of plane c (c = 0 for HWC). */
static inline void *pfi_row_ptr(const pf_image *im, int c, int y) {
    return (char *)im->data + (ptrdiff_t)c * im->plane_stride + (ptrdiff_t)y * im->row_stride;
}

#endif
