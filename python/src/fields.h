/* Struct <-> dict by field tables: the preprocess description, the
 * augmentation policy and per-sample parameters cross into Python as
 * dicts whose keys are the C field names (documented in augment.h). */
#ifndef PFPY_FIELDS_H
#define PFPY_FIELDS_H

#include <stddef.h>

#include "pfpy.h"

typedef enum { PFPY_F_BOOL, PFPY_F_I32, PFPY_F_F32, PFPY_F_F64, PFPY_F_ENUM, PFPY_F_I8, PFPY_F_U64 } pfpy_ftype;

typedef struct pfpy_field {
    const char *name;
    pfpy_ftype type;
    size_t offset;
    int count; /* 1: a scalar; > 1: a tuple of that many */
} pfpy_field;

/* Sets the fields named in dict d (others keep their value); an unknown
 * key or a value of the wrong kind raises InvalidArgument naming
 * "<what>['key']". Returns 0 or -1. */
int pfpy_fields_from_dict(PyObject *d, const pfpy_field *fields, void *s, const char *what);
PyObject *pfpy_fields_to_dict(const pfpy_field *fields, const void *s);

extern const pfpy_field pfpy_desc_fields[];
extern const pfpy_field pfpy_policy_fields[];
extern const pfpy_field pfpy_params_fields[];
extern const pfpy_field pfpy_letterbox_fields[];
extern const pfpy_field pfpy_nms_fields[];

/* pf_nms_opts from keyword arguments: the defaults, then the fields named
 * (post_nms.c; the heads use it too). 0 or -1. */
int pfpy_nms_opts_from(PyObject *kw, pf_nms_opts *o);

#endif
