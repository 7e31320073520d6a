/* The GPU resize path on the CPU: jobs built by src/gpu/resize_jobs.c
 * into an emulated arena (device address == host address), the grid run
 * by a plain loop over pfk_resize_at (src/kernels/gpu_resize.h), and the
 * result compared BIT-EXACTLY with pf_resize on the CPU, including the
 * bytes between rows and planes (canaries: a grid that is too small leaves
 * pixels unwritten, a kernel that writes outside its sample's output
 * changes padding). Random cases (fixed seed) cover every interpolation,
 * antialias, u8/u16/f32, 1..4 channels, HWC and CHW, odd sizes, padded,
 * negative and misaligned strides, and varshape batches. Also checks
 * pfk_resize_u8_value and pfk_resize_u8_pixel on u8 HWC crop views (the
 * fused preprocess's use).
 *
 * Re-run one case: test_gpu_resize <case> (prints its parameters). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/resize_jobs.h"
#include "pixflow/pixflow.h"
#include "test_util.h"

#define MAXB 4

static const pf_interp k_interps[] = {PF_INTERP_NEAREST, PF_INTERP_LINEAR,   PF_INTERP_CUBIC,
                                      PF_INTERP_AREA,    PF_INTERP_LANCZOS4, PF_INTERP_NEAREST_EXACT};
static const pf_dtype k_types[] = {PF_U8, PF_U16, PF_F32};
static const char *const k_interp_names[] = {"NEAREST", "LINEAR", "CUBIC", "AREA", "LANCZOS4", "?", "NEAREST_EXACT"};

/* One image buffer: the view plus its allocation (with canary padding). */
typedef struct img {
    pf_image v;
    char *mem;
    size_t bytes;
} img;

static void fill_values(char *p, size_t n, pf_dtype dt, uint64_t *rng) {
    for (size_t i = 0; i < n; i++) {
        uint64_t r = pft_rand(rng);
        if (dt == PF_U8) p[i] = (char)(uint8_t)r;
        else if (dt == PF_U16) { uint16_t v = (uint16_t)r; memcpy(p + 2 * i, &v, 2); }
        else { float v = (float)((int)(r % 200001) - 100000) / 997.f; memcpy(p + 4 * i, &v, 4); }
    }
}

/* A w x h view with `pad` extra bytes per row (and per plane), rows
 * stored bottom-up when `flip`, data starting `mis` bytes into the
 * allocation (misaligned for u16/f32 when mis is odd). Every byte,
 * padding included, gets random values from rng (or 0xA5 when canary). */
static int make_img(img *m, int w, int h, int cn, pf_dtype dt, pf_layout lay, int pad, int flip, int mis,
                    int canary, uint64_t *rng) {
    size_t es = pf_dtype_size(dt);
    int planar = lay == PF_CHW && cn > 1;
    size_t row = (size_t)w * (planar ? 1 : (size_t)cn) * es + (size_t)pad;
    size_t plane = row * (size_t)h + (size_t)pad;
    size_t total = planar ? plane * (size_t)cn : row * (size_t)h;
    m->bytes = total + (size_t)mis + 64;
    m->mem = malloc(m->bytes);
    if (m->mem == NULL) return 0;
    if (canary) memset(m->mem, 0xA5, m->bytes);
    else fill_values(m->mem, m->bytes / es, dt, rng);
    char *base = m->mem + mis + (flip ? row * (size_t)(h - 1) : 0);
    ptrdiff_t rs = flip ? -(ptrdiff_t)row : (ptrdiff_t)row;
    m->v = lay == PF_CHW ? pf_image_chw(base, w, h, cn, dt, rs, (ptrdiff_t)plane) : pf_image_hwc(base, w, h, cn, dt, rs);
    return 1;
}

/* A copy of src's pixels into a fresh view with other strides (same
 * pixels), so GPU and CPU read the same values through different views. */
static void copy_pixels(const pf_image *from, const pf_image *to) {
    int planar = from->layout == PF_CHW && from->channels > 1;
    size_t es = pf_dtype_size(from->dtype);
    size_t row = (size_t)from->width * (planar ? 1 : (size_t)from->channels) * es;
    for (int p = 0; p < (planar ? from->channels : 1); p++)
        for (int y = 0; y < from->height; y++)
            memcpy((char *)to->data + p * to->plane_stride + y * to->row_stride,
                   (const char *)from->data + p * from->plane_stride + y * from->row_stride, row);
}

static void run_grid(const pfk_resize_batch *b, pfi_grid g) {
    for (int32_t n = 0; n < g.n; n++)
        for (int32_t y = 0; y < g.h; y++)
            for (int32_t x = 0; x < g.w; x++) pfk_resize_at(b, n, x, y);
}

/* Largest absolute element difference between two equally shaped views. */
static double max_diff(const pf_image *a, const pf_image *b) {
    int planar = a->layout == PF_CHW && a->channels > 1;
    int cn = planar ? 1 : a->channels;
    double m = 0;
    for (int p = 0; p < (planar ? a->channels : 1); p++)
        for (int y = 0; y < a->height; y++)
            for (int e = 0; e < a->width * cn; e++) {
                const char *ra = (const char *)a->data + p * a->plane_stride + y * a->row_stride;
                const char *rb = (const char *)b->data + p * b->plane_stride + y * b->row_stride;
                double va, vb;
                if (a->dtype == PF_U8) { va = (uint8_t)ra[e]; vb = (uint8_t)rb[e]; }
                else if (a->dtype == PF_U16) {
                    uint16_t u, w;
                    memcpy(&u, ra + 2 * e, 2); memcpy(&w, rb + 2 * e, 2);
                    va = u; vb = w;
                } else {
                    float u, w;
                    memcpy(&u, ra + 4 * e, 4); memcpy(&w, rb + 4 * e, 4);
                    va = (double)u; vb = (double)w;
                }
                double d = va > vb ? va - vb : vb - va;
                if (d > m || d != d) m = d != d ? 1e30 : d;
            }
    return m;
}

/* Picks output sizes that reach every plan branch: random, integer
 * downscales (area fast, LINEAR 2x -> AREA), exact 2x, upscales, same
 * size (copy), strong downscales (wide antialias / area cells). */
static void pick_sizes(uint64_t *rng, int *sw, int *sh, int *dw, int *dh) {
    int mode = pft_range(rng, 0, 6);
    *sw = pft_range(rng, 1, 90);
    *sh = pft_range(rng, 1, 70);
    switch (mode) {
    case 1: { int fx = pft_range(rng, 2, 5), fy = pft_range(rng, 2, 5);
              *dw = pft_range(rng, 1, 20); *dh = pft_range(rng, 1, 15); *sw = *dw * fx; *sh = *dh * fy; break; }
    case 2: *dw = pft_range(rng, 1, 40); *dh = pft_range(rng, 1, 30); *sw = 2 * *dw; *sh = 2 * *dh; break;
    case 3: *dw = *sw + pft_range(rng, 1, 60); *dh = *sh + pft_range(rng, 1, 50); break;
    case 4: *dw = *sw; *dh = *sh; break;
    case 5: *sw = pft_range(rng, 60, 200); *sh = pft_range(rng, 40, 150);
            *dw = pft_range(rng, 1, 12); *dh = pft_range(rng, 1, 10); break;
    default: *dw = pft_range(rng, 1, 90); *dh = pft_range(rng, 1, 70); break;
    }
}

/* Photo-sized cases the random ones do not reach: wide antialias and area
 * cells, long rows (every SIMD-lane split), big upscales. Case numbers
 * BIG0 + i. */
typedef struct big_case {
    pf_dtype dt;
    pf_interp ip;
    int aa, cn;
    pf_layout lay;
    int sw, sh, dw, dh;
} big_case;
#define BIG0 10000
static const big_case k_big[] = {
    {PF_U8, PF_INTERP_LINEAR, 1, 3, PF_HWC, 1920, 1080, 224, 224},
    {PF_U8, PF_INTERP_LINEAR, 0, 3, PF_HWC, 1920, 1080, 224, 224},
    {PF_U8, PF_INTERP_LINEAR, 0, 3, PF_HWC, 1280, 720, 640, 360},
    {PF_U8, PF_INTERP_AREA, 0, 3, PF_HWC, 1920, 1080, 640, 360},
    {PF_U8, PF_INTERP_AREA, 0, 1, PF_HWC, 1000, 700, 333, 233},
    {PF_U8, PF_INTERP_CUBIC, 0, 3, PF_HWC, 640, 480, 300, 500},
    {PF_U8, PF_INTERP_CUBIC, 1, 4, PF_HWC, 800, 600, 120, 90},
    {PF_U8, PF_INTERP_LANCZOS4, 0, 3, PF_HWC, 120, 90, 640, 480},
    {PF_U8, PF_INTERP_LANCZOS4, 1, 1, PF_HWC, 900, 900, 100, 100},
    {PF_U16, PF_INTERP_AREA, 0, 2, PF_CHW, 1200, 800, 300, 200},
    {PF_U16, PF_INTERP_CUBIC, 1, 3, PF_CHW, 700, 500, 256, 256},
    {PF_F32, PF_INTERP_LINEAR, 0, 3, PF_CHW, 1024, 768, 224, 224},
    {PF_F32, PF_INTERP_AREA, 0, 4, PF_HWC, 1024, 768, 512, 384},
    {PF_F32, PF_INTERP_LANCZOS4, 0, 1, PF_HWC, 513, 257, 1000, 600},
    {PF_F32, PF_INTERP_AREA, 1, 3, PF_HWC, 1000, 1000, 77, 55},
};
#define NBIG ((int)(sizeof k_big / sizeof k_big[0]))

static int g_cases, g_samples;
static double g_maxdiff;
static int g_tv_big; /* the photo-sized cases again, with the torchvision flavour */

static void run_case(int ci) {
    uint64_t rng = 0x9e3779b97f4a7c15ull ^ ((uint64_t)ci * 0x100000001b3ull);
    pft_rand(&rng);
    pf_dtype dt = k_types[pft_range(&rng, 0, 2)];
    pf_interp ip = k_interps[pft_range(&rng, 0, 5)];
    int aa = pft_range(&rng, 0, 2) == 0;
    int cn = pft_range(&rng, 1, 4);
    pf_layout lay = pft_range(&rng, 0, 2) == 0 ? PF_CHW : PF_HWC;
    int count = pft_range(&rng, 1, MAXB);
    const big_case *big = ci >= BIG0 && ci < BIG0 + NBIG ? &k_big[ci - BIG0] : NULL;
    if (big != NULL) { dt = big->dt; ip = big->ip; aa = big->aa; cn = big->cn; lay = big->lay; count = 1; }
    /* every third random case and the second round of photo-sized ones:
     * torchvision (no AREA there; its LANCZOS needs antialias) */
    pf_resize_flavor fl = (big == NULL && ci % 3 == 2) || (big != NULL && g_tv_big) ? PF_RESIZE_TORCHVISION
                                                                                   : PF_RESIZE_OPENCV;
    if (fl == PF_RESIZE_TORCHVISION && ip == PF_INTERP_AREA) ip = PF_INTERP_CUBIC;
    if (fl == PF_RESIZE_TORCHVISION && ip == PF_INTERP_LANCZOS4) aa = 1;
    pf_resize_opts o = {ip, aa != 0, fl};
    size_t es = pf_dtype_size(dt);

    img src[MAXB], gsrc[MAXB], dcpu[MAXB], dgpu[MAXB];
    pf_image sv[MAXB], gsv[MAXB], dcv[MAXB], dgv[MAXB];
    char desc[MAXB][96];
    /* one shape for the whole batch (tables shared between samples) or
     * one per sample */
    int uniform = pft_range(&rng, 0, 2) == 0;
    int sw0 = 0, sh0 = 0, dw0 = 0, dh0 = 0;
    for (int i = 0; i < count; i++) {
        int sw, sh, dw, dh;
        pick_sizes(&rng, &sw, &sh, &dw, &dh);
        if (uniform && i > 0) { sw = sw0; sh = sh0; dw = dw0; dh = dh0; }
        sw0 = sw; sh0 = sh; dw0 = dw; dh0 = dh;
        if (big != NULL) { sw = big->sw; sh = big->sh; dw = big->dw; dh = big->dh; }
        int pad = pft_range(&rng, 0, 3) * (int)es, flip = pft_range(&rng, 0, 3) == 0;
        int gmis = pft_range(&rng, 0, 1) ? 1 : 0; /* the GPU view may be misaligned */
        int gpad = pft_range(&rng, 0, 9);
        int dpad = pft_range(&rng, 0, 2) * (int)es + (int)es;
        int dmis = pft_range(&rng, 0, 1);
        make_img(&src[i], sw, sh, cn, dt, lay, pad, flip, 0, 0, &rng);
        make_img(&gsrc[i], sw, sh, cn, dt, lay, gpad, !flip, gmis, 0, &rng);
        copy_pixels(&src[i].v, &gsrc[i].v);
        /* CPU output aligned, GPU output possibly misaligned: compare
         * through pixels, canary padding through the bytes around them */
        make_img(&dcpu[i], dw, dh, cn, dt, lay, dpad, 0, 0, 1, &rng);
        make_img(&dgpu[i], dw, dh, cn, dt, lay, dpad, 0, dmis, 1, &rng);
        sv[i] = src[i].v; gsv[i] = gsrc[i].v; dcv[i] = dcpu[i].v; dgv[i] = dgpu[i].v;
        snprintf(desc[i], sizeof desc[i], "%dx%d -> %dx%d pad %d/%d flip %d mis %d/%d", sw, sh, dw, dh, pad, gpad,
                 flip, gmis, dmis);
    }

    CHECK_STATUS(pf_resize(NULL, count, sv, dcv, &o), PF_OK);
    size_t scratch = 1;
    size_t bytes = pfi_gpu_resize_bytes(count, gsv, dgv, &o, &scratch);
    CHECK(scratch == 0);
    pfi_arena a;
    CHECK_STATUS(pfi_arena_emulated(bytes, scratch, &a), PF_OK);
    a.cap = bytes; /* the estimate itself is the bound under test */
    const pfk_resize_batch *b = NULL;
    pfi_grid g;
    pf_status st = pfi_gpu_resize_build(&a, count, gsv, dgv, &o, &b, &g);
    CHECK_STATUS(st, PF_OK);
    if (st != PF_OK) fprintf(stderr, "  build: %s\n", pf_last_error());
    if (st == PF_OK) {
        CHECK(g.n == count);
        run_grid(b, g);
    }
    for (int i = 0; i < count; i++) {
        /* pixels: bit-exact */
        double d = st == PF_OK ? max_diff(&dcv[i], &dgv[i]) : 1e30;
        int same_bits = 1;
        {
            int planar = lay == PF_CHW && cn > 1;
            size_t row = (size_t)dcv[i].width * (planar ? 1 : (size_t)cn) * es;
            for (int p = 0; p < (planar ? cn : 1) && same_bits; p++)
                for (int y = 0; y < dcv[i].height && same_bits; y++)
                    same_bits = memcmp((char *)dcv[i].data + p * dcv[i].plane_stride + y * dcv[i].row_stride,
                                       (char *)dgv[i].data + p * dgv[i].plane_stride + y * dgv[i].row_stride,
                                       row) == 0;
        }
        /* everything around the pixels: untouched canaries in both */
        int dmis = (int)((char *)dgpu[i].v.data - dgpu[i].mem);
        int canary_ok = memcmp(dcpu[i].mem, dgpu[i].mem + dmis, dcpu[i].bytes - 64) == 0 || !same_bits;
        for (int k = 0; k < dmis; k++) canary_ok = canary_ok && (uint8_t)dgpu[i].mem[k] == 0xA5;
        CHECK(same_bits);
        CHECK(canary_ok);
        if (!same_bits || !canary_ok)
            fprintf(stderr, "  case %d sample %d: %s %s aa=%d flavor=%d c%d %s %s: max diff %g%s\n", ci, i,
                    pf_dtype_name(dt), k_interp_names[ip], aa, (int)fl, cn, lay == PF_CHW ? "CHW" : "HWC", desc[i], d,
                    canary_ok ? "" : " (canary changed)");
        if (d > g_maxdiff) g_maxdiff = d;
        g_samples++;
    }

    /* pfk_resize_u8_value on a crop (ROI) of a u8 HWC source */
    if (dt == PF_U8 && lay == PF_HWC && sv[0].width > 2 && sv[0].height > 2) {
        pf_image roi;
        int rx = pft_range(&rng, 0, sv[0].width / 2), ry = pft_range(&rng, 0, sv[0].height / 2);
        int rw = pft_range(&rng, 1, sv[0].width - rx), rh = pft_range(&rng, 1, sv[0].height - ry);
        CHECK_STATUS(pf_image_roi(&sv[0], rx, ry, rw, rh, &roi), PF_OK);
        int dw = dcv[0].width, dh = dcv[0].height;
        uint8_t *ref = malloc((size_t)dw * dh * cn);
        pf_image rv = pf_image_hwc(ref, dw, dh, cn, PF_U8, 0);
        CHECK_STATUS(pf_resize(NULL, 1, &roi, &rv, &o), PF_OK);
        size_t jb = pfi_gpu_resize_job_bytes(&roi, dw, dh, &o);
        pfi_arena ja;
        CHECK_STATUS(pfi_arena_emulated(jb, 0, &ja), PF_OK);
        ja.cap = jb;
        pfk_resize_job job;
        CHECK_STATUS(pfi_gpu_resize_job_fill(&ja, &roi, dw, dh, &o, NULL, &job), PF_OK);
        int bad = 0, badpx = 0;
        for (int y = 0; y < dh; y++)
            for (int x = 0; x < dw; x++) {
                uint8_t px[4];
                pfk_resize_u8_pixel(&job, x, y, px);
                for (int c = 0; c < cn; c++) {
                    bad += pfk_resize_u8_value(&job, x, y, c) != ref[((size_t)y * dw + x) * cn + c];
                    badpx += px[c] != ref[((size_t)y * dw + x) * cn + c];
                }
            }
        CHECK(bad == 0);
        CHECK(badpx == 0);
        if (bad || badpx)
            fprintf(stderr, "  case %d: u8_value / u8_pixel on ROI %dx%d -> %dx%d: %d / %d mismatches\n", ci, rw, rh,
                    dw, dh, bad, badpx);
        pfi_arena_emulated_free(&ja);
        free(ref);
    }
    pfi_arena_emulated_free(&a);
    for (int i = 0; i < count; i++) { free(src[i].mem); free(gsrc[i].mem); free(dcpu[i].mem); free(dgpu[i].mem); }
    g_cases++;
}

int main(int argc, char **argv) {
    if (argc > 1) {
        run_case(atoi(argv[1]));
    } else {
        for (int ci = 0; ci < 700; ci++) run_case(ci);
        for (int ci = BIG0; ci < BIG0 + NBIG; ci++) run_case(ci);
        g_tv_big = 1;
        for (int ci = BIG0; ci < BIG0 + NBIG; ci++) run_case(ci);
    }
    printf("gpu_emul_resize: %d cases, %d samples, max diff %g\n", g_cases, g_samples, g_maxdiff);
    return pft_summary("gpu_emul_resize");
}
