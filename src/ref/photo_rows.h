/* Photometric row kernels: the reference (the specification) and the
 * contract the optimized kernels follow. The per-element arithmetic is in
 * src/kernels/photo_math.h and src/kernels/philox.h. */
#ifndef PF_REF_PHOTO_ROWS_H
#define PF_REF_PHOTO_ROWS_H

#include <stddef.h>
#include <stdint.h>

/* Per-sample constants of one call, prepared by the API layer. */
typedef struct pfi_photo_k {
    float ratio, alpha;   /* _blend: factor and float32(1 - factor) */
    float other;          /* contrast: the mean it blends with */
    float hue;            /* hue shift */
    float m[12];          /* color_twist matrix, row-major 3x4 */
    float mean, sigma;    /* noise (u8: already times 255) */
    uint32_t key[2];      /* noise: Philox key (seed) */
    uint32_t ctr[3];      /* noise: counter words 1..3 (sample id, op tag) */
    int clip;             /* noise */
    int dcn;              /* grayscale: 1 or 3 output channels */
} pfi_photo_k;

/* Pixel kernels on interleaved RGB rows: n pixels (3 channels in; 3 out,
 * or k->dcn for grayscale). Optimized kernels handle n that is a multiple
 * of PFI_PHOTO_PX_BLOCK; the caller runs the reference on the rest. */
typedef void (*pfi_photo_row_fn)(const void *src, void *dst, int32_t n, const pfi_photo_k *k);
#define PFI_PHOTO_PX_BLOCK 16

/* Sum over n RGB u8 pixels of floor(gray): exact, as an integer. */
typedef uint64_t (*pfi_graysum_u8_fn)(const uint8_t *src, int32_t n);

/* Invert on n bytes (255 - x). Optimized kernels handle n a multiple of
 * PFI_INVERT_BLOCK. */
typedef void (*pfi_bytes_fn)(const uint8_t *src, uint8_t *dst, int32_t n);
#define PFI_INVERT_BLOCK 16

/* Noise on n consecutive elements whose first is element e0 of the sample
 * (element index = (y*W + x)*C + c). Optimized kernels handle e0 % 4 == 0
 * and n a multiple of PFI_NOISE_BLOCK. */
typedef void (*pfi_noise_row_fn)(const void *src, void *dst, int32_t n, uint64_t e0,
                                 const pfi_photo_k *k);
#define PFI_NOISE_BLOCK 64

void pfi_contrast_f32_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k); /* n elements */
void pfi_saturation_u8_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k);
void pfi_saturation_f32_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k);
void pfi_hue_u8_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k);
void pfi_hue_f32_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k);
void pfi_twist_u8_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k);
void pfi_twist_f32_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k);
void pfi_gray_u8_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k);
void pfi_gray_f32_ref(const void *src, void *dst, int32_t n, const pfi_photo_k *k);
uint64_t pfi_graysum_u8_ref(const uint8_t *src, int32_t n);
void pfi_invert_u8_ref(const uint8_t *src, uint8_t *dst, int32_t n);
void pfi_noise_u8_ref(const void *src, void *dst, int32_t n, uint64_t e0, const pfi_photo_k *k);
void pfi_noise_f32_ref(const void *src, void *dst, int32_t n, uint64_t e0, const pfi_photo_k *k);

/* One normal of a sample's noise stream (element e). */
float pfi_noise_z(uint64_t e, const pfi_photo_k *k);

#endif
