/* Fuzz target: pf_decode_augment (probe -> sample -> crop mapped to a
 * DCT-scaled ROI -> decode -> fused preprocess) on any bytes, with DCT
 * scaling on and off, imagenet-train at 32x32 with RandomAffine. */
#include <stdlib.h>

#include "fuzz_common.h"
#include "pixflow/pixflow.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static pf_decode_augmenter *aug[2];
    static float out[3 * 32 * 32];
    if (aug[0] == NULL) {
        pf_preprocess_desc d;
        pf_aug_policy p;
        if (pf_recipe("imagenet-train", &d, &p) != PF_OK) abort();
        d.out_width = d.out_height = 32;
        p.random_affine = true;
        p.degrees[0] = -30.0f;
        p.degrees[1] = 30.0f;
        for (int k = 0; k < 2; k++) {
            pf_decode_aug_opts o = pf_decode_aug_opts_defaults();
            o.dct_scale = k == 1;
            o.max_pixels = 1u << 22;
            if (pf_decode_augmenter_create(&d, &p, &o, &aug[k]) != PF_OK) abort();
        }
    }
    if (size == 0) return 0;
    uint32_t h = pff_hash(data, size);
    pf_tensor t = pf_tensor_nchw(out, 1, 3, 32, 32, PF_F32);
    const void *ptr[1] = {data};
    pf_decode_aug_result r;
    pf_status st = pf_decode_augment(aug[h & 1], NULL, 1, ptr, &size, h, 0, h >> 8, &t, &r);
    if (st == PF_OK && (r.width < 1 || r.height < 1)) abort();
    return 0;
}
