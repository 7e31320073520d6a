/* A backend object (its path puts it in room cpu) that calls an op
 * front-end, pf_warp_affine. Never linked: the ctest layering_rejects runs
 * check_layering.cmake on the library's objects plus this one and passes
 * only when the check names this call, so the rule "backends call
 * executors, never front-ends" is shown to fail when it should. */
#include "pixflow/ops.h"

pf_status pfi_layering_fixture(pf_stream *s, const pf_image *src, pf_image *dst, const double m[6]);

pf_status pfi_layering_fixture(pf_stream *s, const pf_image *src, pf_image *dst, const double m[6]) {
    return pf_warp_affine(s, 1, src, dst, m, 1, NULL);
}
