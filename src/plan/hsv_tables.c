/* The tables are pure functions of the index (kernels/color_math.h);
 * pthread_once builds them once whichever thread converts first. */
#include <pthread.h>

#include "kernels/color_math.h"
#include "plan/hsv_tables.h"

static pfi_hsv_tables g_hsv_tables;
static pthread_once_t g_hsv_once = PTHREAD_ONCE_INIT;

static void hsv_tables_init(void) {
    for (int32_t i = 0; i < 256; i++) {
        g_hsv_tables.sdiv[i] = pfk_hsv_sdiv(i);
        g_hsv_tables.hdiv180[i] = pfk_hsv_hdiv(i, 180);
        g_hsv_tables.hdiv256[i] = pfk_hsv_hdiv(i, 256);
    }
}

const pfi_hsv_tables *pfi_hsv_tables_get(void) {
    pthread_once(&g_hsv_once, hsv_tables_init);
    return &g_hsv_tables;
}
