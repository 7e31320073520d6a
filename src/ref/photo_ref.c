/* Reference photometric row kernels (see photo_rows.h). */
#include "kernels/philox.h"
#include "kernels/photo_math.h"
#include "ref/photo_rows.h"

void pfi_contrast_f32_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const float *s = src;
    float *d = dst;
    for (int32_t j = 0; j < n; j++) d[j] = pfk_blend_f32(s[j], k->ratio, k->other, k->alpha);
}

void pfi_saturation_u8_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const uint8_t *s = src;
    uint8_t *d = dst;
    for (int32_t j = 0; j < 3 * n; j += 3) pfk_saturation_px_u8(s + j, d + j, k->ratio, k->alpha);
}

void pfi_saturation_f32_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const float *s = src;
    float *d = dst;
    for (int32_t j = 0; j < 3 * n; j += 3) {
        float g = pfk_gray(s[j], s[j + 1], s[j + 2]);
        float r = pfk_blend_f32(s[j], k->ratio, g, k->alpha);
        float gg = pfk_blend_f32(s[j + 1], k->ratio, g, k->alpha);
        float b = pfk_blend_f32(s[j + 2], k->ratio, g, k->alpha);
        d[j] = r;
        d[j + 1] = gg;
        d[j + 2] = b;
    }
}

void pfi_hue_u8_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const uint8_t *s = src;
    uint8_t *d = dst;
    for (int32_t j = 0; j < 3 * n; j += 3) pfk_hue_px_u8(s + j, d + j, k->hue);
}

void pfi_hue_f32_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const float *s = src;
    float *d = dst;
    for (int32_t j = 0; j < 3 * n; j += 3) {
        float r = s[j], g = s[j + 1], b = s[j + 2];
        pfk_hue_shift(&r, &g, &b, k->hue);
        d[j] = r;
        d[j + 1] = g;
        d[j + 2] = b;
    }
}

void pfi_twist_u8_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const uint8_t *s = src;
    uint8_t *d = dst;
    for (int32_t j = 0; j < 3 * n; j += 3) {
        float r = s[j], g = s[j + 1], b = s[j + 2];
        float o0 = pfk_twist(k->m, r, g, b), o1 = pfk_twist(k->m + 4, r, g, b),
              o2 = pfk_twist(k->m + 8, r, g, b);
        d[j] = pfk_sat_u8_f(o0);
        d[j + 1] = pfk_sat_u8_f(o1);
        d[j + 2] = pfk_sat_u8_f(o2);
    }
}

void pfi_twist_f32_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const float *s = src;
    float *d = dst;
    for (int32_t j = 0; j < 3 * n; j += 3) {
        float r = s[j], g = s[j + 1], b = s[j + 2];
        d[j] = pfk_twist(k->m, r, g, b);
        d[j + 1] = pfk_twist(k->m + 4, r, g, b);
        d[j + 2] = pfk_twist(k->m + 8, r, g, b);
    }
}

void pfi_gray_u8_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const uint8_t *s = src;
    uint8_t *d = dst;
    for (int32_t i = 0; i < n; i++) {
        uint8_t g = pfk_gray_u8(s[3 * i], s[3 * i + 1], s[3 * i + 2]);
        for (int c = 0; c < k->dcn; c++) d[i * k->dcn + c] = g;
    }
}

void pfi_gray_f32_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k) {
    const float *s = src;
    float *d = dst;
    for (int32_t i = 0; i < n; i++) {
        float g = pfk_gray(s[3 * i], s[3 * i + 1], s[3 * i + 2]);
        for (int c = 0; c < k->dcn; c++) d[i * k->dcn + c] = g;
    }
}

uint64_t pfi_graysum_u8_ref(const uint8_t *src, int32_t n) {
    uint64_t sum = 0;
    for (int32_t j = 0; j < 3 * n; j += 3)
        sum += pfk_gray_floor_u8(src[j], src[j + 1], src[j + 2]);
    return sum;
}

void pfi_invert_u8_ref(const uint8_t *src, uint8_t *dst, int32_t n) {
    for (int32_t j = 0; j < n; j++) dst[j] = (uint8_t)(255 - src[j]);
}

float pfi_noise_z(uint64_t e, const pfi_photo_k *k) {
    uint32_t ctr[4] = {(uint32_t)(e >> 2), k->ctr[0], k->ctr[1], k->ctr[2]};
    float z[4];
    pfk_philox_normal4(ctr, k->key[0], k->key[1], z);
    return z[e & 3u];
}

/* One Philox block serves four consecutive elements. */
#define NOISE_LOOP(T, APPLY)                                                        \
    do {                                                                            \
        const T *s = src;                                                           \
        T *d = dst;                                                                 \
        float z[4];                                                                 \
        uint64_t have = UINT64_MAX;                                                 \
        for (int32_t j = 0; j < n; j++) {                                           \
            uint64_t e = e0 + (uint64_t)j;                                          \
            if ((e >> 2) != have) {                                                 \
                have = e >> 2;                                                      \
                uint32_t ctr[4] = {(uint32_t)have, k->ctr[0], k->ctr[1], k->ctr[2]}; \
                pfk_philox_normal4(ctr, k->key[0], k->key[1], z);                   \
            }                                                                       \
            d[j] = APPLY(s[j], z[e & 3u], k->mean, k->sigma, k->clip);              \
        }                                                                           \
    } while (0)

void pfi_noise_u8_ref(const void *src, void *dst, int32_t n, uint64_t e0, const pfi_photo_k *k) {
    NOISE_LOOP(uint8_t, pfk_noise_u8);
}

void pfi_noise_f32_ref(const void *src, void *dst, int32_t n, uint64_t e0, const pfi_photo_k *k) {
    NOISE_LOOP(float, pfk_noise_f32);
}
