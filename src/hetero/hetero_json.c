/* Reads the cost model's JSON (format in include/pixflow/dispatch.h) and
 * validates all of it before anything is used: a service that loads a
 * damaged file gets a status naming the field, never a half-loaded model.
 * A small recursive-descent reader of exactly what JSON allows (RFC 8259),
 * with a depth limit; objects are checked field by field. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "hetero/hetero.h"

typedef struct rd {
    const char *s, *p;
    const char *fn;
    pf_status status;
} rd;

static int fail_at(rd *r, const char *what) {
    if (r->status == PF_OK)
        r->status = pfi_fail(PF_ERR_CORRUPT_DATA, "%s: JSON syntax error at byte %ld: %s", r->fn, (long)(r->p - r->s),
                             what);
    return 0;
}

static void ws(rd *r) {
    while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r') r->p++;
}

static int lit(rd *r, char c) {
    ws(r);
    if (*r->p != c) return 0;
    r->p++;
    return 1;
}

/* A string into out (cap bytes incl. NUL). Escapes are accepted (\uXXXX
 * only below 0x80: names and keys are ASCII); a longer string is an error. */
static int str(rd *r, char *out, size_t cap) {
    ws(r);
    if (*r->p != '"') return fail_at(r, "expected a string");
    r->p++;
    size_t n = 0;
    for (;;) {
        unsigned char c = (unsigned char)*r->p;
        if (c == '\0') return fail_at(r, "unterminated string");
        if (c < 0x20) return fail_at(r, "control character in a string");
        r->p++;
        if (c == '"') break;
        if (c == '\\') {
            char e = *r->p++;
            switch (e) {
            case '"': case '\\': case '/': c = (unsigned char)e; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'u': {
                unsigned v = 0;
                for (int i = 0; i < 4; ++i) {
                    char h = *r->p++;
                    v <<= 4;
                    if (h >= '0' && h <= '9') v |= (unsigned)(h - '0');
                    else if (h >= 'a' && h <= 'f') v |= (unsigned)(h - 'a' + 10);
                    else if (h >= 'A' && h <= 'F') v |= (unsigned)(h - 'A' + 10);
                    else return fail_at(r, "bad \\u escape");
                }
                if (v == 0 || v >= 0x80) return fail_at(r, "\\u escape outside ASCII (names and keys are ASCII)");
                c = (unsigned char)v;
                break;
            }
            default: return fail_at(r, "bad escape");
            }
        }
        if (n + 1 >= cap) return fail_at(r, "string too long");
        out[n++] = (char)c;
    }
    out[n] = '\0';
    return 1;
}

/* A JSON number (strict grammar), as a double. */
static int num(rd *r, double *v) {
    ws(r);
    const char *q = r->p;
    if (*q == '-') q++;
    if (*q == '0') q++;
    else if (*q >= '1' && *q <= '9') while (*q >= '0' && *q <= '9') q++;
    else return fail_at(r, "expected a number");
    if (*q == '.') {
        q++;
        if (!(*q >= '0' && *q <= '9')) return fail_at(r, "expected a digit after '.'");
        while (*q >= '0' && *q <= '9') q++;
    }
    if (*q == 'e' || *q == 'E') {
        q++;
        if (*q == '+' || *q == '-') q++;
        if (!(*q >= '0' && *q <= '9')) return fail_at(r, "expected an exponent");
        while (*q >= '0' && *q <= '9') q++;
    }
    char tmp[64];
    size_t len = (size_t)(q - r->p);
    if (len >= sizeof tmp) return fail_at(r, "number too long");
    memcpy(tmp, r->p, len);
    tmp[len] = '\0';
    *v = strtod(tmp, NULL);
    r->p = q;
    return 1;
}

/* Skips any value (unknown fields are allowed, for later versions). */
static int skip(rd *r, int depth) {
    if (depth > 32) return fail_at(r, "nested deeper than 32");
    ws(r);
    char c = *r->p;
    char tmp[4096];
    double v;
    if (c == '"') return str(r, tmp, sizeof tmp);
    if (c == '{') {
        r->p++;
        if (lit(r, '}')) return 1;
        do {
            if (!str(r, tmp, sizeof tmp) || !(lit(r, ':') || fail_at(r, "expected ':'")) || !skip(r, depth + 1))
                return 0;
        } while (lit(r, ','));
        return lit(r, '}') || fail_at(r, "expected ',' or '}'");
    }
    if (c == '[') {
        r->p++;
        if (lit(r, ']')) return 1;
        do {
            if (!skip(r, depth + 1)) return 0;
        } while (lit(r, ','));
        return lit(r, ']') || fail_at(r, "expected ',' or ']'");
    }
    if (strncmp(r->p, "true", 4) == 0) { r->p += 4; return 1; }
    if (strncmp(r->p, "false", 5) == 0) { r->p += 5; return 1; }
    if (strncmp(r->p, "null", 4) == 0) { r->p += 4; return 1; }
    return num(r, &v);
}

static int field_fail(rd *r, const char *field, const char *what) {
    if (r->status == PF_OK) r->status = pfi_fail(PF_ERR_CORRUPT_DATA, "%s: %s %s", r->fn, field, what);
    return 0;
}

static int shape_ok(const char *s) {
    if (*s == '\0') return 0;
    for (; *s; ++s)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '/' || *s == '_' || *s == '.'))
            return 0;
    return 1;
}

static int entry(rd *r, int i, pfi_hx_model *m) {
    char key[64], dev[PFI_HX_NAME_LEN + 8] = "", shape[PFI_HX_SHAPE_LEN + 8] = "", f[96];
    double ms = 0, samples = 0;
    int have_dev = 0, have_shape = 0, have_ms = 0, have_samples = 0;
    if (!lit(r, '{')) {
        snprintf(f, sizeof f, "entries[%d]", i);
        return field_fail(r, f, "must be an object");
    }
    if (!lit(r, '}')) {
        do {
            if (!str(r, key, sizeof key) || !(lit(r, ':') || fail_at(r, "expected ':'"))) return 0;
            snprintf(f, sizeof f, "entries[%d].%s", i, key);
            ws(r);
            if (strcmp(key, "device") == 0) {
                if (*r->p != '"') return field_fail(r, f, "must be a string");
                if (!str(r, dev, sizeof dev)) return 0;
                pf_device_kind k;
                int idx;
                if (strlen(dev) >= PFI_HX_NAME_LEN || !pfi_hx_parse_name(dev, &k, &idx))
                    return field_fail(r, f, "is not a device name (cpu, cuda:N, opencl:N)");
                have_dev = 1;
            } else if (strcmp(key, "shape") == 0) {
                if (*r->p != '"') return field_fail(r, f, "must be a string");
                if (!str(r, shape, sizeof shape)) return 0;
                if (strlen(shape) >= PFI_HX_SHAPE_LEN || !shape_ok(shape))
                    return field_fail(r, f, "is not a shape key (like 224x224x3/f32/chw/linear/aa0/opencv/lb0)");
                have_shape = 1;
            } else if (strcmp(key, "ms_per_sample") == 0) {
                if (!(*r->p == '-' || (*r->p >= '0' && *r->p <= '9'))) return field_fail(r, f, "must be a number");
                if (!num(r, &ms)) return 0;
                if (!(ms > 0) || !isfinite(ms)) return field_fail(r, f, "must be a positive finite number");
                have_ms = 1;
            } else if (strcmp(key, "samples") == 0) {
                if (!(*r->p == '-' || (*r->p >= '0' && *r->p <= '9'))) return field_fail(r, f, "must be a number");
                if (!num(r, &samples)) return 0;
                if (!(samples >= 0) || samples > 1.8e19 || samples != floor(samples))
                    return field_fail(r, f, "must be a whole number >= 0");
                have_samples = 1;
            } else if (!skip(r, 1)) {
                return 0;
            }
        } while (lit(r, ','));
        if (!lit(r, '}')) return fail_at(r, "expected ',' or '}'");
    }
    const char *missing = !have_dev ? "device" : !have_shape ? "shape" : !have_ms ? "ms_per_sample" : NULL;
    if (missing) {
        snprintf(f, sizeof f, "entries[%d].%s", i, missing);
        return field_fail(r, f, "is missing");
    }
    (void)have_samples; /* optional: 0 */
    if (pfi_hx_cost_find(m, dev, shape) != NULL) {
        snprintf(f, sizeof f, "entries[%d]", i);
        return field_fail(r, f, "repeats a (device, shape) pair of an earlier entry");
    }
    if (pfi_hx_cost_set(m, dev, shape, ms, (uint64_t)samples) != PF_OK) {
        r->status = PF_ERR_OUT_OF_MEMORY;
        return 0;
    }
    return 1;
}

pf_status pfi_hx_parse_json(const char *fn, const char *json, pfi_hx_model *out) {
    rd r = {json, json, fn, PF_OK};
    char key[64];
    int have_format = 0, have_version = 0, have_entries = 0;
    int ok = lit(&r, '{') || fail_at(&r, "expected '{' (the file is a JSON object)");
    if (ok && !lit(&r, '}')) {
        do {
            ok = str(&r, key, sizeof key) && (lit(&r, ':') || fail_at(&r, "expected ':'"));
            if (!ok) break;
            ws(&r);
            if (strcmp(key, "format") == 0) {
                char v[64];
                if (*r.p != '"') { ok = field_fail(&r, "format", "must be a string"); break; }
                ok = str(&r, v, sizeof v);
                if (ok && strcmp(v, "pixflow-dispatch-costs") != 0)
                    ok = field_fail(&r, "format", "must be \"pixflow-dispatch-costs\"");
                have_format = 1;
            } else if (strcmp(key, "version") == 0) {
                double v;
                if (!(*r.p == '-' || (*r.p >= '0' && *r.p <= '9'))) { ok = field_fail(&r, "version", "must be a number"); break; }
                ok = num(&r, &v);
                if (ok && v != 1) ok = field_fail(&r, "version", "must be 1 (the only version this pixflow reads)");
                have_version = 1;
            } else if (strcmp(key, "entries") == 0) {
                if (!lit(&r, '[')) { ok = field_fail(&r, "entries", "must be an array"); break; }
                int i = 0;
                if (!lit(&r, ']')) {
                    do {
                        ok = entry(&r, i++, out);
                    } while (ok && lit(&r, ','));
                    ok = ok && (lit(&r, ']') || fail_at(&r, "expected ',' or ']'"));
                }
                have_entries = 1;
            } else {
                ok = skip(&r, 1);
            }
        } while (ok && lit(&r, ','));
        ok = ok && (lit(&r, '}') || fail_at(&r, "expected ',' or '}'"));
    }
    if (ok) {
        ws(&r);
        if (*r.p != '\0') ok = fail_at(&r, "text after the JSON object");
    }
    if (ok && !(have_format && have_version && have_entries))
        ok = field_fail(&r, !have_format ? "format" : !have_version ? "version" : "entries", "is missing");
    if (!ok) {
        pfi_hx_model_free(out);
        return r.status != PF_OK ? r.status : PF_ERR_CORRUPT_DATA;
    }
    return PF_OK;
}
