/* pf_invert on the CPU: u8 samples through the photo family's invert kernel (255 - x
 * is x ^ 0xFF: a plain XOR over each row's bytes, no table); f32 samples
 * compute torchvision's 1.0 - x element by element. */
#include "core/error.h"
#include "core/image_util.h"
#include "cpu/batch_rows.h"
#include "cpu/cpu_kernels.h"
#include "cpu/photo_cpu.h"

typedef struct inv_job {
    const pf_image *src;
    pf_image *dst;
    pfi_bytes_fn fast;
} inv_job;

static void inv_rows(void *ctx, int i, int32_t y0, int32_t y1) {
    const inv_job *j = ctx;
    const pf_image *s = &j->src[i];
    const pf_image *d = &j->dst[i];
    int planes = s->layout == PF_CHW ? s->channels : 1;
    int32_t n = s->width * (s->layout == PF_CHW ? 1 : s->channels);
    int u8 = s->dtype == PF_U8;
    size_t es = pf_dtype_size(s->dtype);
    if (planes == 1 && pfi_photo_rows_packed(s, d, (size_t)n * es, (size_t)n * es, y0, y1, n)) {
        n *= y1 - y0; /* one long row */
        y1 = y0 + 1;
    }
    int32_t done = !u8 || j->fast == pfi_invert_u8_ref ? 0 : n / PFI_INVERT_BLOCK * PFI_INVERT_BLOCK;
    for (int32_t y = y0; y < y1; y++)
        for (int pl = 0; pl < planes; pl++) {
            const void *sr = pfi_row_ptr(s, pl, y);
            void *dr = pfi_row_ptr(d, pl, y);
            if (u8) {
                if (done) j->fast(sr, dr, done);
                if (done < n) pfi_invert_u8_ref((const uint8_t *)sr + done, (uint8_t *)dr + done, n - done);
            } else {
                const float *a = sr;
                float *b = dr;
                for (int32_t x = 0; x < n; x++) b[x] = 1.0f - a[x];
            }
        }
}

pf_status pfi_cpu_invert(pf_stream *stream, int count, const pf_image src[], pf_image dst[]) {
    inv_job j = {src, dst,
                 ((const pfi_photo_kernels *)pfi_kfamily_table(&pfi_photo_family, pf_stream_isa(stream)))->invert_u8};
    pfi_photo_rows(stream, count, src, inv_rows, &j);
    return PF_OK;
}
