/* Field tables of the augment structs and pf_nms_opts, and the generic
 * dict conversion. */
#include <string.h>

#include "fields.h"

/* fields are reached through byte offsets: memcpy keeps every access aligned-safe */
#define PUT(p, i, T, v) do { T v_ = (v); memcpy((p) + (size_t)(i) * sizeof(T), &v_, sizeof(T)); } while (0)
static float get_f32(const char *p, int i) { float v; memcpy(&v, p + (size_t)i * sizeof v, sizeof v); return v; }
static double get_f64(const char *p, int i) { double v; memcpy(&v, p + (size_t)i * sizeof v, sizeof v); return v; }
static int32_t get_i32(const char *p, int i) { int32_t v; memcpy(&v, p + (size_t)i * sizeof v, sizeof v); return v; }
static uint64_t get_u64(const char *p, int i) { uint64_t v; memcpy(&v, p + (size_t)i * sizeof v, sizeof v); return v; }
static int get_int(const char *p, int i) { int v; memcpy(&v, p + (size_t)i * sizeof v, sizeof v); return v; }


#define F(st, name, type, n) {#name, type, offsetof(st, name), n}

const pfpy_field pfpy_desc_fields[] = {
    F(pf_preprocess_desc, out_width, PFPY_F_I32, 1),   F(pf_preprocess_desc, out_height, PFPY_F_I32, 1),
    F(pf_preprocess_desc, out_channels, PFPY_F_I32, 1), F(pf_preprocess_desc, interp, PFPY_F_ENUM, 1),
    F(pf_preprocess_desc, antialias, PFPY_F_BOOL, 1),  F(pf_preprocess_desc, flavor, PFPY_F_ENUM, 1),
    F(pf_preprocess_desc, letterbox, PFPY_F_BOOL, 1),
    F(pf_preprocess_desc, letterbox_align, PFPY_F_ENUM, 1), F(pf_preprocess_desc, pad_value, PFPY_F_F64, 4),
    F(pf_preprocess_desc, swap_rb, PFPY_F_BOOL, 1),    F(pf_preprocess_desc, scale, PFPY_F_F32, 1),
    F(pf_preprocess_desc, mean, PFPY_F_F32, 4),        F(pf_preprocess_desc, std, PFPY_F_F32, 4),
    F(pf_preprocess_desc, out_dtype, PFPY_F_ENUM, 1),  F(pf_preprocess_desc, out_layout, PFPY_F_ENUM, 1),
    {NULL, PFPY_F_BOOL, 0, 0}};

const pfpy_field pfpy_policy_fields[] = {
    F(pf_aug_policy, random_resized_crop, PFPY_F_BOOL, 1), F(pf_aug_policy, rrc_scale, PFPY_F_F32, 2),
    F(pf_aug_policy, rrc_ratio, PFPY_F_F32, 2),          F(pf_aug_policy, resize_shorter, PFPY_F_I32, 1),
    F(pf_aug_policy, center_crop_w, PFPY_F_I32, 1),      F(pf_aug_policy, center_crop_h, PFPY_F_I32, 1),
    F(pf_aug_policy, hflip_p, PFPY_F_F32, 1),            F(pf_aug_policy, vflip_p, PFPY_F_F32, 1),
    F(pf_aug_policy, color_jitter, PFPY_F_BOOL, 1),      F(pf_aug_policy, brightness, PFPY_F_F32, 2),
    F(pf_aug_policy, contrast, PFPY_F_F32, 2),           F(pf_aug_policy, saturation, PFPY_F_F32, 2),
    F(pf_aug_policy, hue, PFPY_F_F32, 2),                F(pf_aug_policy, grayscale_p, PFPY_F_F32, 1),
    F(pf_aug_policy, random_affine, PFPY_F_BOOL, 1),     F(pf_aug_policy, degrees, PFPY_F_F32, 2),
    F(pf_aug_policy, translate, PFPY_F_F32, 2),          F(pf_aug_policy, scale_range, PFPY_F_F32, 2),
    F(pf_aug_policy, shear, PFPY_F_F32, 4),              F(pf_aug_policy, affine_width, PFPY_F_I32, 1),
    F(pf_aug_policy, affine_height, PFPY_F_I32, 1),      F(pf_aug_policy, flavor, PFPY_F_ENUM, 1),
    {NULL, PFPY_F_BOOL, 0, 0}};

const pfpy_field pfpy_params_fields[] = {
    F(pf_aug_params, crop_x, PFPY_F_I32, 1),      F(pf_aug_params, crop_y, PFPY_F_I32, 1),
    F(pf_aug_params, crop_w, PFPY_F_I32, 1),      F(pf_aug_params, crop_h, PFPY_F_I32, 1),
    F(pf_aug_params, flip_h, PFPY_F_BOOL, 1),     F(pf_aug_params, flip_v, PFPY_F_BOOL, 1),
    F(pf_aug_params, affine, PFPY_F_BOOL, 1),     F(pf_aug_params, angle, PFPY_F_F32, 1),
    F(pf_aug_params, translate_x, PFPY_F_F32, 1), F(pf_aug_params, translate_y, PFPY_F_F32, 1),
    F(pf_aug_params, scale, PFPY_F_F32, 1),       F(pf_aug_params, shear_x, PFPY_F_F32, 1),
    F(pf_aug_params, shear_y, PFPY_F_F32, 1),     F(pf_aug_params, brightness, PFPY_F_F32, 1),
    F(pf_aug_params, contrast, PFPY_F_F32, 1),    F(pf_aug_params, saturation, PFPY_F_F32, 1),
    F(pf_aug_params, hue, PFPY_F_F32, 1),         F(pf_aug_params, jitter_order, PFPY_F_I8, 4),
    F(pf_aug_params, grayscale, PFPY_F_BOOL, 1),  F(pf_aug_params, gamma, PFPY_F_F32, 1),
    F(pf_aug_params, resize_w, PFPY_F_I32, 1),    F(pf_aug_params, resize_h, PFPY_F_I32, 1),
    F(pf_aug_params, window_x, PFPY_F_I32, 1),    F(pf_aug_params, window_y, PFPY_F_I32, 1),
    {NULL, PFPY_F_BOOL, 0, 0}};

const pfpy_field pfpy_letterbox_fields[] = {
    F(pf_letterbox_info, scale_x, PFPY_F_F32, 1),  F(pf_letterbox_info, scale_y, PFPY_F_F32, 1),
    F(pf_letterbox_info, offset_x, PFPY_F_F32, 1), F(pf_letterbox_info, offset_y, PFPY_F_F32, 1),
    F(pf_letterbox_info, crop_x, PFPY_F_I32, 1),   F(pf_letterbox_info, crop_y, PFPY_F_I32, 1),
    {NULL, PFPY_F_BOOL, 0, 0}};

/* pf_nms_opts (post.h): the keyword options of post_nms and the heads */
const pfpy_field pfpy_nms_fields[] = {
    F(pf_nms_opts, semantics, PFPY_F_ENUM, 1),      F(pf_nms_opts, box_format, PFPY_F_ENUM, 1),
    F(pf_nms_opts, classes, PFPY_F_ENUM, 1),        F(pf_nms_opts, iou_threshold, PFPY_F_F64, 1),
    F(pf_nms_opts, score_threshold, PFPY_F_F32, 1), F(pf_nms_opts, pre_nms_top_k, PFPY_F_I32, 1),
    F(pf_nms_opts, max_output, PFPY_F_I32, 1),      F(pf_nms_opts, max_output_per_class, PFPY_F_I32, 1),
    F(pf_nms_opts, class_offset, PFPY_F_F32, 1),    F(pf_nms_opts, legacy_plus_one, PFPY_F_BOOL, 1),
    F(pf_nms_opts, eta, PFPY_F_F32, 1),             F(pf_nms_opts, soft, PFPY_F_ENUM, 1),
    F(pf_nms_opts, sigma, PFPY_F_F32, 1),           F(pf_nms_opts, order, PFPY_F_ENUM, 1),
    {NULL, PFPY_F_BOOL, 0, 0}};

static int set_one(PyObject *v, const pfpy_field *f, char *p, int i, const char *what) {
    switch (f->type) {
    case PFPY_F_BOOL: {
        int b = PyObject_IsTrue(v);
        if (b < 0) return -1;
        PUT(p, i, bool, b != 0);
        return 0;
    }
    case PFPY_F_F32:
    case PFPY_F_F64: {
        double d = PyFloat_AsDouble(v);
        if (d == -1.0 && PyErr_Occurred()) break;
        if (f->type == PFPY_F_F32)
            PUT(p, i, float, (float)d);
        else
            PUT(p, i, double, d);
        return 0;
    }
    case PFPY_F_U64: {
        unsigned long long u = PyLong_AsUnsignedLongLong(v);
        if (PyErr_Occurred()) break;
        PUT(p, i, uint64_t, u);
        return 0;
    }
    default: {
        long l = PyLong_AsLong(v);
        if (l == -1 && PyErr_Occurred()) break;
        if (f->type == PFPY_F_I8) {
            if (l < -128 || l > 127) break;
            PUT(p, i, int8_t, (int8_t)l);
        } else if (f->type == PFPY_F_I32) {
            if (l < INT32_MIN || l > INT32_MAX) break;
            PUT(p, i, int32_t, (int32_t)l);
        } else {
            if (l < INT32_MIN || l > INT32_MAX) break;
            PUT(p, i, int, (int)l); /* C enums are int-sized */
        }
        return 0;
    }
    }
    PyErr_Clear();
    char rb[96];
    pfpy_invalid("%s['%s'] = %s is not a valid %s", what, f->name, pfpy_repr(v, rb, sizeof rb),
                 f->type == PFPY_F_BOOL ? "bool" : (f->type == PFPY_F_F32 || f->type == PFPY_F_F64) ? "number"
                                                                                                  : "integer");
    return -1;
}

int pfpy_fields_from_dict(PyObject *d, const pfpy_field *fields, void *s, const char *what) {
    if (d == NULL || d == Py_None) return 0;
    if (!PyDict_Check(d)) {
        pfpy_invalid("%s must be a dict, got %s", what, Py_TYPE(d)->tp_name);
        return -1;
    }
    PyObject *key, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(d, &pos, &key, &v)) {
        const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        const pfpy_field *f = fields;
        while (k && f->name && strcmp(f->name, k) != 0) f++;
        if (k == NULL || f->name == NULL) {
            char rb[96];
            pfpy_invalid("%s has no field %s", what, pfpy_repr(key, rb, sizeof rb));
            return -1;
        }
        char *p = (char *)s + f->offset;
        if (f->count == 1) {
            if (set_one(v, f, p, 0, what) < 0) return -1;
            continue;
        }
        PyObject *seq = PySequence_Fast(v, "sequence");
        if (seq == NULL || PySequence_Fast_GET_SIZE(seq) != f->count) {
            Py_XDECREF(seq);
            PyErr_Clear();
            pfpy_invalid("%s['%s'] must be a sequence of %d numbers", what, f->name, f->count);
            return -1;
        }
        for (int i = 0; i < f->count; i++)
            if (set_one(PySequence_Fast_GET_ITEM(seq, i), f, p, i, what) < 0) {
                Py_DECREF(seq);
                return -1;
            }
        Py_DECREF(seq);
    }
    return 0;
}

static PyObject *get_one(const pfpy_field *f, const char *p, int i) {
    switch (f->type) {
    case PFPY_F_BOOL: return PyBool_FromLong(((const bool *)p)[i]);
    case PFPY_F_F32: return PyFloat_FromDouble((double)get_f32(p, i));
    case PFPY_F_F64: return PyFloat_FromDouble(get_f64(p, i));
    case PFPY_F_I8: return PyLong_FromLong(((const int8_t *)p)[i]);
    case PFPY_F_I32: return PyLong_FromLong(get_i32(p, i));
    case PFPY_F_U64: return PyLong_FromUnsignedLongLong(get_u64(p, i));
    default: return PyLong_FromLong(get_int(p, i));
    }
}

PyObject *pfpy_fields_to_dict(const pfpy_field *fields, const void *s) {
    PyObject *d = PyDict_New();
    for (const pfpy_field *f = fields; d && f->name; f++) {
        const char *p = (const char *)s + f->offset;
        PyObject *v;
        if (f->count == 1) {
            v = get_one(f, p, 0);
        } else {
            v = PyTuple_New(f->count);
            for (int i = 0; v && i < f->count; i++) PyTuple_SET_ITEM(v, i, get_one(f, p, i));
        }
        if (v == NULL || PyDict_SetItemString(d, f->name, v) < 0) {
            Py_XDECREF(v);
            Py_CLEAR(d);
            break;
        }
        Py_DECREF(v);
    }
    return d;
}
