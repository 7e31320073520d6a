/*
 * pf_aug_sample bad arguments: every rejected value names its field, and
 * a failing call writes nothing to out[].
 */
#include <float.h>
#include <math.h>

#include "pixflow/augment.h"
#include "test_util.h"

static int32_t g_w[3] = {640, 480, 32}, g_h[3] = {480, 640, 32};
static pf_aug_params g_out[3];

/* Runs the policy, expects PF_ERR_INVALID_ARGUMENT mentioning `needle`,
 * and out[] untouched. */
static void expect_bad(const pf_aug_policy *p, const char *needle) {
    memset(g_out, 0xa5, sizeof g_out);
    CHECK_STATUS(pf_aug_sample(p, 1, 0, 0, 3, g_w, g_h, g_out), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG(needle);
    const unsigned char *b = (const unsigned char *)g_out;
    size_t intact = 0;
    for (size_t i = 0; i < sizeof g_out; i++) intact += b[i] == 0xa5;
    CHECK(intact == sizeof g_out);
}

#define BAD_FIELD(stmt, needle)                              \
    do {                                                     \
        pf_aug_policy p_ = pf_aug_policy_defaults();         \
        stmt;                                                \
        expect_bad(&p_, needle);                             \
    } while (0)

static void test_policy_fields(void) {
    /* probabilities */
    BAD_FIELD(p_.hflip_p = 1.5f, "hflip_p");
    BAD_FIELD(p_.hflip_p = -0.1f, "hflip_p");
    BAD_FIELD(p_.vflip_p = NAN, "vflip_p");
    BAD_FIELD(p_.grayscale_p = 2.0f, "grayscale_p");
    /* RandomResizedCrop: (0, 1] area fractions, positive increasing ratios */
    BAD_FIELD(p_.rrc_scale[0] = 0.0f, "rrc_scale");
    BAD_FIELD(p_.rrc_scale[1] = 1.5f, "rrc_scale");
    BAD_FIELD((p_.rrc_scale[0] = 0.9f, p_.rrc_scale[1] = 0.5f), "rrc_scale");
    BAD_FIELD(p_.rrc_scale[0] = NAN, "rrc_scale");
    BAD_FIELD(p_.rrc_ratio[0] = -1.0f, "rrc_ratio");
    BAD_FIELD((p_.rrc_ratio[0] = 2.0f, p_.rrc_ratio[1] = 1.0f), "rrc_ratio");
    BAD_FIELD(p_.rrc_ratio[1] = INFINITY, "rrc_ratio");
    /* eval sizes */
    BAD_FIELD(p_.resize_shorter = -1, "resize_shorter");
    BAD_FIELD(p_.flavor = (pf_resize_flavor)9, "policy->flavor is 9");
    BAD_FIELD(p_.center_crop_w = 224, "center_crop_w/h");
    BAD_FIELD((p_.center_crop_w = -2, p_.center_crop_h = 5), "center_crop_w/h");
    /* ColorJitter ranges */
    BAD_FIELD(p_.brightness[0] = -0.1f, "brightness");
    BAD_FIELD((p_.contrast[0] = 1.5f, p_.contrast[1] = 0.5f), "contrast");
    BAD_FIELD(p_.saturation[1] = NAN, "saturation");
    BAD_FIELD(p_.hue[1] = 0.6f, "hue");
    BAD_FIELD(p_.hue[0] = -0.7f, "hue");
    /* RandomAffine */
    BAD_FIELD((p_.degrees[0] = 10.0f, p_.degrees[1] = -10.0f), "degrees");
    BAD_FIELD(p_.degrees[1] = INFINITY, "degrees");
    BAD_FIELD((p_.degrees[0] = -FLT_MAX, p_.degrees[1] = FLT_MAX), "degrees"); /* width overflows */
    BAD_FIELD(p_.translate[0] = 1.5f, "translate[0]");
    BAD_FIELD(p_.translate[1] = -0.1f, "translate[1]");
    BAD_FIELD(p_.scale_range[0] = 0.0f, "scale_range");
    BAD_FIELD((p_.shear[0] = 5.0f, p_.shear[1] = 1.0f), "shear[0..1]");
    BAD_FIELD(p_.shear[3] = NAN, "shear[2..3]");
    BAD_FIELD((p_.random_affine = true, p_.translate[0] = 0.1f), "affine_width/height");
    /* bad values are rejected even in a transform that is off */
    BAD_FIELD((p_.color_jitter = false, p_.hue[0] = 1.0f), "hue");
}

static void test_fine_values(void) {
    pf_aug_policy p = pf_aug_policy_defaults();
    /* negative degree ranges, p at 0 and 1, scale 1, translate without affine */
    p.random_affine = true;
    p.degrees[0] = -180.0f;
    p.degrees[1] = -90.0f;
    p.hflip_p = 1.0f;
    p.vflip_p = 0.0f;
    p.rrc_scale[0] = p.rrc_scale[1] = 1.0f;
    p.random_resized_crop = true;
    CHECK_STATUS(pf_aug_sample(&p, 1, 0, 0, 3, g_w, g_h, g_out), PF_OK);
    CHECK(g_out[0].flip_h && !g_out[0].flip_v && g_out[0].angle <= -90.0f && g_out[0].angle >= -180.0f);
    /* scale 1 with ratio {1, 1}: a square of side min(w, h), or the fallback */
    p.translate[0] = 0.25f; /* ignored with random_affine off */
    p.random_affine = false;
    CHECK_STATUS(pf_aug_sample(&p, 1, 0, 0, 3, g_w, g_h, g_out), PF_OK);
    /* huge sizes: the resized long side saturates instead of overflowing */
    pf_aug_policy e = pf_aug_policy_defaults();
    e.resize_shorter = INT32_MAX;
    e.center_crop_w = e.center_crop_h = 224;
    int32_t bw = INT32_MAX, bh = 1;
    CHECK_STATUS(pf_aug_sample(&e, 1, 0, 0, 1, &bw, &bh, g_out), PF_OK);
    CHECK(g_out[0].crop_w >= 1 && g_out[0].crop_x + g_out[0].crop_w <= bw && g_out[0].crop_h == 1);
    /* count 0 with NULL arrays */
    CHECK_STATUS(pf_aug_sample(&p, 1, 0, 0, 0, NULL, NULL, NULL), PF_OK);
}

static void test_call_args(void) {
    pf_aug_policy p = pf_aug_policy_defaults();
    CHECK_STATUS(pf_aug_sample(NULL, 1, 0, 0, 3, g_w, g_h, g_out), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("policy");
    CHECK_STATUS(pf_aug_sample(&p, 1, 0, 0, -1, g_w, g_h, g_out), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("count");
    CHECK_STATUS(pf_aug_sample(&p, 1, 0, 0, 3, NULL, g_h, g_out), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("widths");
    CHECK_STATUS(pf_aug_sample(&p, 1, 0, 0, 3, g_w, NULL, g_out), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("heights");
    CHECK_STATUS(pf_aug_sample(&p, 1, 0, 0, 3, g_w, g_h, NULL), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("out");
    CHECK_STATUS(pf_aug_sample(&p, 1, 1ull << 32, 0, 3, g_w, g_h, g_out), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("epoch");
    CHECK_STATUS(pf_aug_sample(&p, 1, 0, UINT64_MAX - 1, 3, g_w, g_h, g_out), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("first_index");
    CHECK_STATUS(pf_aug_sample(&p, 1, 0, UINT64_MAX - 2, 3, g_w, g_h, g_out), PF_OK);
    int32_t w[3] = {640, 0, 32}, h[3] = {480, 640, -3};
    memset(g_out, 0xa5, sizeof g_out);
    CHECK_STATUS(pf_aug_sample(&p, 1, 0, 0, 3, w, g_h, g_out), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("widths[1]");
    CHECK(((unsigned char *)g_out)[0] == 0xa5); /* sample 0 was valid but nothing was written */
    CHECK_STATUS(pf_aug_sample(&p, 1, 0, 0, 3, g_w, h, g_out), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("heights[2]");
    /* the error text is cleared by the next good call */
    CHECK_STATUS(pf_aug_sample(&p, 1, 0, 0, 3, g_w, g_h, g_out), PF_OK);
    CHECK(strlen(pf_last_error()) == 0);
}

int main(void) {
    test_policy_fields();
    test_fine_values();
    test_call_args();
    return pft_summary("test_aug_sampler_args");
}
