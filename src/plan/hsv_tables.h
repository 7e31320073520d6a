/* OpenCV's u8 HSV division tables: built once, read by the reference
 * rows, the CPU kernels and the CUDA colour jobs (which upload them). */
#ifndef PF_PLAN_HSV_TABLES_H
#define PF_PLAN_HSV_TABLES_H

#include <stdint.h>

typedef struct pfi_hsv_tables {
    int32_t sdiv[256];
    int32_t hdiv180[256];
    int32_t hdiv256[256];
} pfi_hsv_tables;

/* The tables, built on the first call (thread-safe). */
const pfi_hsv_tables *pfi_hsv_tables_get(void);

#endif
