/* Image loading for benchmarks through OpenCV's imgcodecs (a benchmark
 * convenience until pixflow's own codec lands; never used by the library). */
#ifndef PIXFLOW_BENCH_OPENCV_IO_H
#define PIXFLOW_BENCH_OPENCV_IO_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Loads an image as interleaved u8 RGB (channels == 3) or gray
 * (channels == 1); *pixels is malloc'ed, free() it. Returns 0 on success. */
int pfb_cv_load_u8(const char *path, int channels, uint8_t **pixels, int *width, int *height);

#ifdef __cplusplus
}
#endif

#endif
