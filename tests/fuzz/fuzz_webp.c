/* Fuzz target: pf_decode of webp inputs with options drawn from the input
 * bytes (ROI, DCT scale, pixel format, orientation, strict warnings). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pff_decode(data, size, PF_FORMAT_WEBP);
    return 0;
}
