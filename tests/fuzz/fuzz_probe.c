/* Fuzz target: pf_image_probe on any bytes (the hand-written JPEG marker
 * walk, PNG IHDR / chunk scan, EXIF parser, WebP features). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pf_image_info info;
    if (pf_image_probe(data, size, &info) == PF_OK && (info.width < 1 || info.height < 1)) abort();
    return 0;
}
