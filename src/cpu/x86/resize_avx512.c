/* AVX-512 (F+BW+VL) resize row kernels: 16 x 32-bit lanes, same kernel
 * source as AVX2. Compiled with -mavx512f -mavx512bw -mavx512vl for this
 * file only; reached only when the CPU and OS support them. */
#include <immintrin.h>
#include <string.h>

#include "cpu/resize_exec.h"
#include "cpu/x86/resize_c1_x86.h"
#include "cpu/x86/resize_tv_x86.h"
#include "cpu/x86/resize_x86_pixel.h"
#include "cpu/x86/resize_x86_pairs.h"
#include "kernels/resize_math.h"

#define PFS_N 16
#define PFS(name) name##_avx512
typedef __m512i VI;
typedef __m512 VF;
#define vi_load(p) _mm512_loadu_si512((const void *)(p))
#define vi_store(p, v) _mm512_storeu_si512((void *)(p), (v))
#define vi_set1(x) _mm512_set1_epi32((int)(x))
#define vi_zero() _mm512_setzero_si512()
#define vi_add _mm512_add_epi32
#define vi_mullo _mm512_mullo_epi32
#define vi_srai(v, n) _mm512_srai_epi32((v), (n))
#define vi_slli(v, n) _mm512_slli_epi32((v), (n))
#define vi_and _mm512_and_si512
#define vi_or _mm512_or_si512
#define vi_madd16 _mm512_madd_epi16
#define vi_gather8(b, i) _mm512_i32gather_epi32((i), (const void *)(b), 1)
#define vi_gather16(b, i) _mm512_i32gather_epi32((i), (const void *)(b), 2)
#define vi_gather32(b, i) _mm512_i32gather_epi32((i), (const void *)(b), 4)
#define vf_load(p) _mm512_loadu_ps(p)
#define vf_store(p, v) _mm512_storeu_ps((p), (v))
#define vf_set1 _mm512_set1_ps
#define vf_add _mm512_add_ps
#define vf_mul _mm512_mul_ps
#define vf_from_vi _mm512_cvtepi32_ps
#define vf_cast_vi _mm512_castsi512_ps
#define vi_round _mm512_cvtps_epi32 /* MXCSR default: round half to even */

static inline VI vi_load_u8(const uint8_t *p) {
    return _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)p));
}
static inline void store_u8_sat(uint8_t *d, VI v) {
    v = _mm512_max_epi32(v, _mm512_setzero_si512());
    _mm_storeu_si128((__m128i *)(void *)d, _mm512_cvtusepi32_epi8(v));
}
static inline void store_u16_sat(uint16_t *d, VI v) {
    v = _mm512_max_epi32(v, _mm512_setzero_si512());
    _mm256_storeu_si256((__m256i *)(void *)d, _mm512_cvtusepi32_epi16(v));
}

static inline void store_i16(int16_t *d, VI v) {
    _mm256_storeu_si256((__m256i *)(void *)d, _mm512_cvtepi32_epi16(v)); /* values fit int16 */
}
#define vs_set1(x) _mm512_set1_epi16((short)(x))
#define vs_mulhi _mm512_mulhi_epi16
#define vs_add _mm512_add_epi16
#define vs_srai(v, n) _mm512_srai_epi16((v), (n))
static inline void store_u8_from16(uint8_t *d, VI v) {
    v = _mm512_max_epi16(v, _mm512_setzero_si512());
    _mm256_storeu_si256((__m256i *)(void *)d, _mm512_cvtusepi16_epi8(v));
}

#define vi_sra(v, n) _mm512_sra_epi32((v), _mm_cvtsi32_si128(n))
#define vb_unpacklo8 _mm512_unpacklo_epi8
#define vb_unpackhi8 _mm512_unpackhi_epi8
#define vi_packs32 _mm512_packs_epi32
#define vi_packus16 _mm512_packus_epi16
#define PFS_TV_PIXELS pfi_x86_tv_pixels
#define PFS_C1_TV pfi_x86_c1_tv
#define PFS_C1_LIN16 pfi_x86_c1_lin16
#define PFS_C1_AA pfi_x86_c1_aa
#define PFS_C1_I32 pfi_x86_c1_i32
/* the torchvision vertical pass's last < 16 elements, with masked loads
 * and stores (3-channel rows are rarely a multiple of 16) */
static inline int tv_vtail_avx512(const pfi_vrow *r, int x, int x1) {
    if (x >= x1 || x1 - x >= 16) return x;
    __mmask16 m = (__mmask16)((1u << (x1 - x)) - 1);
    __m512i acc = _mm512_set1_epi32(1 << (r->shift - 1));
    for (int k = 0; k < r->ksize; k++) {
        __m512i v = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, (const uint8_t *)r->rows[k] + x));
        acc = _mm512_add_epi32(acc, _mm512_mullo_epi32(v, _mm512_set1_epi32(r->icoef[k])));
    }
    acc = _mm512_max_epi32(_mm512_sra_epi32(acc, _mm_cvtsi32_si128(r->shift)), _mm512_setzero_si512());
    _mm_mask_storeu_epi8((uint8_t *)r->dst + x, m, _mm512_cvtusepi32_epi8(acc));
    return x1;
}
#define PFS_TV_VTAIL tv_vtail_avx512
#define PFS_AA_PIXELS pfi_x86_aa_pixels
#define PFS_PAIR16_PIXELS pfi_x86_pair16_pixels
#define PFS_PAIR_PIXELS pfi_x86_pair_pixels
#include "cpu/x86/resize_simd_impl.h"

/* The VBMI file's LINEAR kernel continues with this one where its
 * byte-permute blocks stop. */
int pfi_rz_h_u8_lin16_avx512(const pfi_hrow *r, int x0, int x1) { return PFS(h_u8_lin16)(r, x0, x1); }
/* ... and its torchvision kernel with this one. */
int pfi_rz_h_tv_u8_avx512(const pfi_hrow *r, int x0, int x1) { return PFS(h_tv_u8)(r, x0, x1); }
/* ... and its torchvision vertical pass with this one, for row ends. */
int pfi_rz_v_tv_u8_avx512(const pfi_vrow *r, int x0, int x1) { return PFS(v_tv_u8)(r, x0, x1); }

void pfi_resize_fill_avx512(pfi_resize_kernels *k) {
    PFS(fill)(k);
    k->tv_quads_two_rows = 1; /* pfi_x86_tv_pixels takes src2 */
    k->c1_groups = 1;        /* pfi_x86_c1_tv, _aa, _lin16, _i32 */
    k->lin16_pixels_whole = 1; /* pfi_x86_pair16_pixels ends rows on their copy */
}
