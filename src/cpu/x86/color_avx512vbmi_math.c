/* AVX-512 VBMI colour row kernels for the arithmetic conversions (YCrCb,
 * HSV): the 16 x 32-bit lane vocabulary, then the shared kernel source
 * color_simd_impl.h. 3-byte pixels are (de)interleaved with VBMI byte
 * permutes and 48-byte masked loads/stores, so nothing outside the call's
 * pixels is touched. Compiled with AVX-512 F/BW/DQ/VL/VBMI; installed by
 * pfi_color_fill_avx512vbmi, i.e. only at the avx512vbmi level. */
#include <immintrin.h>

#include "cpu/color_exec.h"
#include "kernels/color_math.h"
#include "pixflow/core.h"

#define PFS_N 16
#define PFS(name) name##_avx512vbmi
#define PFS_SHUFFLES 0 /* color_avx512vbmi.c has the vpermi2b shuffles */
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
#define vf_set1 _mm512_set1_ps
#define vf_from_vi _mm512_cvtepi32_ps
#define vf_mul _mm512_mul_ps
#define vf_sub _mm512_sub_ps
#define vf_div _mm512_div_ps
#define vf_fnmadd _mm512_fnmadd_ps
#define vf_floor(v) _mm512_roundscale_ps((v), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
#define vf_ge(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_GE_OQ)
#define vf_sel(m, t, f) _mm512_mask_blend_ps((m), (f), (t))
#define vi_trunc _mm512_cvttps_epi32
#define vi_round _mm512_cvtps_epi32 /* MXCSR default: round half to even */

#define PFS_MASK48 0xffffffffffffull
#define PFS_DWORD_LOW 0x1111111111111111ull

/* vpermb indexes (const, so the loops keep them in registers): channel c
 * of pixel i -> byte 4i (ld3); byte j of the 48 output bytes <- byte
 * 4 (j / 3) + j % 3 of the dwords (st3). */
static const uint8_t g_ld3_idx[3][64] __attribute__((aligned(64))) = {{
    0, 0, 0, 0, 3, 0, 0, 0, 6, 0, 0, 0, 9, 0, 0, 0, 12, 0, 0, 0, 15, 0, 0, 0, 18, 0, 0, 0, 21, 0,
    0, 0, 24, 0, 0, 0, 27, 0, 0, 0, 30, 0, 0, 0, 33, 0, 0, 0, 36, 0, 0, 0, 39, 0, 0, 0, 42, 0, 0,
    0, 45, 0, 0, 0},
{
    1, 0, 0, 0, 4, 0, 0, 0, 7, 0, 0, 0, 10, 0, 0, 0, 13, 0, 0, 0, 16, 0, 0, 0, 19, 0, 0, 0, 22, 0,
    0, 0, 25, 0, 0, 0, 28, 0, 0, 0, 31, 0, 0, 0, 34, 0, 0, 0, 37, 0, 0, 0, 40, 0, 0, 0, 43, 0, 0,
    0, 46, 0, 0, 0},
{
    2, 0, 0, 0, 5, 0, 0, 0, 8, 0, 0, 0, 11, 0, 0, 0, 14, 0, 0, 0, 17, 0, 0, 0, 20, 0, 0, 0, 23, 0,
    0, 0, 26, 0, 0, 0, 29, 0, 0, 0, 32, 0, 0, 0, 35, 0, 0, 0, 38, 0, 0, 0, 41, 0, 0, 0, 44, 0, 0,
    0, 47, 0, 0, 0}};
static const uint8_t g_st3_idx[64] __attribute__((aligned(64))) = {
    0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 16, 17, 18, 20, 21, 22, 24, 25, 26, 28, 29, 30, 32, 33,
    34, 36, 37, 38, 40, 41, 42, 44, 45, 46, 48, 49, 50, 52, 53, 54, 56, 57, 58, 60, 61, 62, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

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

#include "cpu/x86/color_simd_impl.h"

void pfi_color_fill_avx512vbmi_math(pfi_color_kernels *k) {
    PFS(fill)(k);
}
