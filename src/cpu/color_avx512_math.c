/* AVX-512 colour row kernels for the arithmetic conversions (YCrCb, HSV):
 * the 16 x 32-bit lane vocabulary, then the shared kernel source
 * color_simd_impl.h. 3-byte pixels are (de)interleaved with VBMI byte
 * permutes and 48-byte masked loads/stores, so nothing outside the call's
 * pixels is touched. Compiled with AVX-512 F/BW/VL/VBMI; installed by
 * pfi_color_fill_avx512 only when the CPU has VBMI. */
#include <immintrin.h>

#include "cpu/color_exec.h"
#include "kernels/color_math.h"
#include "pixflow/core.h"

#define PFS_N 16
#define PFS(name) name##_avx512
#define PFS_SHUFFLES 0 /* color_avx512.c has the vpermi2b shuffles */
#define PFS_FMA 1
typedef __m512i VI;
typedef __m512 VF;
typedef __mmask16 VM;

#define vi_set1(x) _mm512_set1_epi32((int)(x))
#define vi_add _mm512_add_epi32
#define vi_sub _mm512_sub_epi32
#define vi_mullo _mm512_mullo_epi32
#define vi_srai(v, n) _mm512_srai_epi32((v), (n))
#define vi_slli(v, n) _mm512_slli_epi32((v), (n))
#define vi_min _mm512_min_epi32
#define vi_max _mm512_max_epi32
#define vi_eq _mm512_cmpeq_epi32_mask
#define vi_lt _mm512_cmplt_epi32_mask
#define vi_sel(m, t, f) _mm512_mask_blend_epi32((m), (f), (t))
#define vi_gather(t, i) _mm512_i32gather_epi32((i), (const void *)(t), 4)
#define vf_set1 _mm512_set1_ps
#define vf_from_vi _mm512_cvtepi32_ps
#define vf_mul _mm512_mul_ps
#define vf_sub _mm512_sub_ps
#define vf_fnmadd _mm512_fnmadd_ps
#define vf_floor(v) _mm512_roundscale_ps((v), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
#define vf_ge(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_GE_OQ)
#define vf_sel(m, t, f) _mm512_mask_blend_ps((m), (f), (t))
#define vi_trunc _mm512_cvttps_epi32
#define vi_round _mm512_cvtps_epi32 /* MXCSR default: round half to even */

#define PFS_MASK48 0xffffffffffffull
#define PFS_DWORD_LOW 0x1111111111111111ull

/* vpermb indexes: channel c of pixel i -> byte 4i (ld3); byte j of the
 * 48 output bytes <- byte 4 (j / 3) + j % 3 of the dwords (st3). */
static uint8_t g_ld3_idx[3][64], g_st3_idx[64];

static void idx_init(void) {
    for (int i = 0; i < 16; i++)
        for (int c = 0; c < 3; c++) g_ld3_idx[c][4 * i] = (uint8_t)(3 * i + c);
    for (int j = 0; j < 64; j++) g_st3_idx[j] = (uint8_t)(j < 48 ? 4 * (j / 3) + j % 3 : 0);
}

static inline VI ld1(const uint8_t *p) {
    return _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)p));
}

static inline void ld3(const uint8_t *p, VI *a, VI *b, VI *c) {
    __m512i v = _mm512_maskz_loadu_epi8(PFS_MASK48, p);
    *a = _mm512_maskz_permutexvar_epi8(PFS_DWORD_LOW, _mm512_loadu_si512(g_ld3_idx[0]), v);
    *b = _mm512_maskz_permutexvar_epi8(PFS_DWORD_LOW, _mm512_loadu_si512(g_ld3_idx[1]), v);
    *c = _mm512_maskz_permutexvar_epi8(PFS_DWORD_LOW, _mm512_loadu_si512(g_ld3_idx[2]), v);
}

static inline void ld4(const uint8_t *p, VI *a, VI *b, VI *c) {
    __m512i v = _mm512_loadu_si512(p);
    const __m512i m = _mm512_set1_epi32(0xff);
    *a = _mm512_and_si512(v, m);
    *b = _mm512_and_si512(_mm512_srli_epi32(v, 8), m);
    *c = _mm512_and_si512(_mm512_srli_epi32(v, 16), m);
}

static inline void st3(uint8_t *p, VI a, VI b, VI c) {
    __m512i v = _mm512_or_si512(_mm512_or_si512(a, _mm512_slli_epi32(b, 8)), _mm512_slli_epi32(c, 16));
    v = _mm512_permutexvar_epi8(_mm512_loadu_si512(g_st3_idx), v);
    _mm512_mask_storeu_epi8(p, PFS_MASK48, v);
}

static inline void st4(uint8_t *p, VI a, VI b, VI c, VI d) {
    __m512i v = _mm512_or_si512(_mm512_or_si512(a, _mm512_slli_epi32(b, 8)),
                                _mm512_or_si512(_mm512_slli_epi32(c, 16), _mm512_slli_epi32(d, 24)));
    _mm512_storeu_si512(p, v);
}

#include "cpu/color_simd_impl.h"

void pfi_color_fill_avx512_math(pfi_kfn *slots) {
    idx_init();
    PFS(fill)(slots);
}
