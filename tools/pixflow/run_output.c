/* .npy batches and the PNG contact sheet of `pixflow run`. */
#include <errno.h>
#include <math.h>
#ifdef PF_HAVE_PNG
#include <png.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_output.h"

/* Writes one .npy to `tmp` (a name readers do not look for), closed and
 * checked; 0, or prints why (the OS error by name) and removes `tmp`. */
static int write_npy(const char *tmp, const char *path, const char *descr, const int64_t *shape, int ndim,
                     const void *data, size_t bytes) {
    char hdr[256];
    int n = snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    for (int i = 0; i < ndim; i++) n += snprintf(hdr + n, sizeof hdr - (size_t)n, "%lld,%s", (long long)shape[i], i + 1 < ndim ? " " : "");
    n += snprintf(hdr + n, sizeof hdr - (size_t)n, "), }");
    /* magic(6) + version(2) + len(2) + header, padded with spaces to 64, ending in \n */
    int total = 10 + n + 1;
    int pad = (64 - total % 64) % 64;
    FILE *f = fopen(tmp, "wb");
    if (f == NULL) {
        fprintf(stderr, "pixflow run: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    unsigned hlen = (unsigned)(n + pad + 1);
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xff), (unsigned char)(hlen >> 8)};
    char head[10 + sizeof hdr + 64];
    memcpy(head, pre, 10);
    memcpy(head + 10, hdr, (size_t)n);
    memset(head + 10 + n, ' ', (size_t)pad);
    head[10 + n + pad] = '\n';
    size_t hbytes = (size_t)(10 + n + pad + 1), want = hbytes + bytes, done = 0;
    /* errno of the first failure: fwrite's, else the flush in fclose's
     * (buffered data meets a full disk there) */
    int err = 0;
    errno = 0;
    done = fwrite(head, 1, hbytes, f);
    if (done == hbytes) done += fwrite(data, 1, bytes, f);
    if (done != want) err = errno ? errno : EIO;
    errno = 0;
    if (fclose(f) != 0 && err == 0) err = errno ? errno : EIO;
    if (err != 0) {
        if (done == want)
            fprintf(stderr, "pixflow run: cannot write %s: %s (on close)\n", path, strerror(err));
        else
            fprintf(stderr, "pixflow run: cannot write %s: %s (%zu of %zu bytes written)\n", path, strerror(err),
                    done, want);
        remove(tmp);
        return 1;
    }
    return 0;
}

static void npy_paths(char *path, char *tmp, size_t size, const char *dir, const char *what, const pf_batch *b) {
    snprintf(path, size, "%s/%s_%04llu_%06llu.npy", dir, what, (unsigned long long)b->epoch,
             (unsigned long long)b->batch_index);
    snprintf(tmp, size, "%s/.%s_%04llu_%06llu.npy.part", dir, what, (unsigned long long)b->epoch,
             (unsigned long long)b->batch_index);
}

int run_write_npy(const char *dir, const pf_batch *b) {
    const pf_tensor *t = &b->tensor;
    const char *descr = t->dtype == PF_F32 ? "<f4" : t->dtype == PF_F16 ? "<f2" : t->dtype == PF_U8 ? "|u1" : "<u2";
    int64_t shape[4] = {t->n, t->layout == PF_CHW ? t->channels : t->height,
                        t->layout == PF_CHW ? t->height : t->width, t->layout == PF_CHW ? t->width : t->channels};
    char path[4096], tmp[4096], lpath[4096], ltmp[4096];
    npy_paths(path, tmp, sizeof path, dir, "batch", b);
    npy_paths(lpath, ltmp, sizeof lpath, dir, "labels", b);
    size_t bytes = (size_t)t->n * (size_t)t->sample_stride;
    int64_t n = b->count;
    if (write_npy(tmp, path, descr, shape, 4, t->data, bytes)) return 1;
    if (write_npy(ltmp, lpath, "<i4", &n, 1, b->labels, (size_t)b->count * sizeof(int32_t))) {
        remove(tmp);
        return 1;
    }
    /* both complete: labels first, so a reader that sees the batch file
     * finds its labels (rename replaces atomically within the folder) */
    const char *failed = NULL;
    if (rename(ltmp, lpath) != 0) failed = lpath;
    else if (rename(tmp, path) != 0) failed = path;
    if (failed != NULL) {
        int err = errno;
        fprintf(stderr, "pixflow run: cannot rename %s.part into place: %s\n", failed, strerror(err));
        if (failed == path) remove(lpath); /* no labels without their batch */
        remove(ltmp);
        remove(tmp);
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------ contact sheet */

struct run_sheet {
    pf_preprocess_desc d;
    int cap, count, w, h, cols, rows, gap;
    unsigned char *rgb; /* the sheet */
};

run_sheet *run_sheet_create(const pf_preprocess_desc *desc, int cap) {
    run_sheet *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->d = *desc;
    s->cap = cap;
    s->w = desc->out_width;
    s->h = desc->out_height;
    s->gap = 2;
    s->cols = cap < 8 ? cap : 8;
    s->rows = (cap + s->cols - 1) / s->cols;
    size_t sw = (size_t)s->cols * (size_t)(s->w + s->gap) + (size_t)s->gap;
    size_t sh = (size_t)s->rows * (size_t)(s->h + s->gap) + (size_t)s->gap;
    s->rgb = malloc(sw * sh * 3);
    if (!s->rgb) { free(s); return NULL; }
    memset(s->rgb, 40, sw * sh * 3); /* dark gray background */
    return s;
}

static float half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    float v;
    if (e == 0) v = ldexpf((float)m, -24);
    else if (e == 31) v = m ? NAN : INFINITY;
    else v = ldexpf((float)(m | 0x400), (int)e - 25);
    return sign ? -v : v;
}

static float element(const pf_tensor *t, const unsigned char *p) {
    switch (t->dtype) {
    case PF_F32: { float v; memcpy(&v, p, 4); return v; }
    case PF_F16: { uint16_t h; memcpy(&h, p, 2); return half_to_float(h); }
    case PF_BF16: { uint16_t h; memcpy(&h, p, 2); uint32_t u = (uint32_t)h << 16; float v; memcpy(&v, &u, 4); return v; }
    default: return (float)*p;
    }
}

int run_sheet_add(run_sheet *s, const pf_batch *b) {
    const pf_tensor *t = &b->tensor;
    size_t es = pf_dtype_size(t->dtype);
    size_t sw = (size_t)s->cols * (size_t)(s->w + s->gap) + (size_t)s->gap;
    for (int i = 0; i < b->count && s->count < s->cap; i++, s->count++) {
        int gx = s->gap + (s->count % s->cols) * (s->w + s->gap), gy = s->gap + (s->count / s->cols) * (s->h + s->gap);
        const unsigned char *base = (const unsigned char *)t->data + (size_t)i * (size_t)t->sample_stride;
        for (int y = 0; y < s->h; y++)
            for (int x = 0; x < s->w; x++)
                for (int c = 0; c < 3; c++) {
                    int cc = t->channels == 1 ? 0 : c;
                    const unsigned char *p = t->layout == PF_CHW
                        ? base + (size_t)cc * (size_t)t->plane_stride + (size_t)y * (size_t)t->row_stride + (size_t)x * es
                        : base + (size_t)y * (size_t)t->row_stride + ((size_t)x * (size_t)t->channels + (size_t)cc) * es;
                    float v = element(t, p);
                    if (t->dtype != PF_U8) {
                        float sd = s->d.std[cc] != 0.0f ? s->d.std[cc] : 1.0f;
                        float sc = s->d.scale != 0.0f ? s->d.scale : 1.0f;
                        v = (v * sd + s->d.mean[cc]) / sc;
                    }
                    float r = v < 0.0f ? 0.0f : v > 255.0f ? 255.0f : v;
                    s->rgb[((size_t)(gy + y) * sw + (size_t)(gx + x)) * 3 + (size_t)c] = (unsigned char)lrintf(r);
                }
    }
    return s->count >= s->cap;
}

#ifdef PF_HAVE_PNG
int run_sheet_write(run_sheet *s, const char *path) {
    int rows = s->count ? (s->count + s->cols - 1) / s->cols : 1;
    png_uint_32 sw = (png_uint_32)(s->cols * (s->w + s->gap) + s->gap);
    png_uint_32 sh = (png_uint_32)(rows * (s->h + s->gap) + s->gap);
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        fprintf(stderr, "pixflow run: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        fprintf(stderr, "pixflow run: libpng failed writing %s\n", path);
        return 1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, sw, sh, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (png_uint_32 y = 0; y < sh; y++) png_write_row(png, s->rgb + (size_t)y * sw * 3);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return fclose(f) != 0;
}
#else
int run_sheet_write(run_sheet *s, const char *path) {
    (void)s;
    fprintf(stderr, "pixflow run: cannot write %s: this pixflow was built without libpng\n", path);
    return 1;
}
#endif

void run_sheet_destroy(run_sheet *s) {
    if (!s) return;
    free(s->rgb);
    free(s);
}
