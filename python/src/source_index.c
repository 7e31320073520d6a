/* Pipeline sources from Python (the C family: src/pipeline/pipeline_source.c
 * and pipeline_index.c). The source dict {"kind": "folder"|"list"|"tar",
 * "path": str, "shards": [str], "extensions": str} becomes a
 * pf_source_desc here, for Pipeline and for source_index(source):
 * pf_source_index as a list, so the Python side (pixflow._samples,
 * pixflow.ray, pixflow.torch) addresses samples by the C pipeline's own
 * index instead of a second implementation of its rules. */
#include <stdint.h>
#include <string.h>

#include "pfpy.h"

static char *dup_str(PyObject *o, const char *name) {
    const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
    if (s == NULL) {
        PyErr_Clear();
        pfpy_invalid("%s must be a string", name);
        return NULL;
    }
    size_t n = strlen(s) + 1;
    char *c = PyMem_RawMalloc(n);
    if (c == NULL) return (char *)PyErr_NoMemory();
    memcpy(c, s, n);
    return c;
}

void pfpy_source_strings_free(const char **strings) {
    if (strings == NULL) return;
    /* [0] path and [1] extensions may be NULL; the shards end at a NULL */
    for (int i = 0; strings[i] || i < 2; i++) PyMem_RawFree((void *)strings[i]);
    PyMem_RawFree(strings);
}

int pfpy_source_desc(PyObject *src, pf_source_desc *out, const char ***strings) {
    *strings = NULL;
    if (!PyDict_Check(src)) return pfpy_invalid("source must be a dict"), -1;
    PyObject *kind = PyDict_GetItemString(src, "kind"), *path = PyDict_GetItemString(src, "path");
    PyObject *shards = PyDict_GetItemString(src, "shards"), *ext = PyDict_GetItemString(src, "extensions");
    const char *k = kind && PyUnicode_Check(kind) ? PyUnicode_AsUTF8(kind) : "";
    if (k == NULL) {
        PyErr_Clear();
        k = "";
    }
    Py_ssize_t nsh = shards ? PySequence_Size(shards) : 0;
    if (nsh < 0) return pfpy_invalid("source['shards'] must be a list of paths"), -1;
    /* one block of copies: [0] path, [1] extensions, [2..] shards, NULL */
    const char **keep = PyMem_RawCalloc((size_t)nsh + 3, sizeof(char *));
    if (keep == NULL) return PyErr_NoMemory(), -1;
    memset(out, 0, sizeof *out);
    if (strcmp(k, "folder") == 0 || strcmp(k, "list") == 0) {
        out->kind = k[0] == 'f' ? PF_SOURCE_FOLDER : PF_SOURCE_FILE_LIST;
        if (path == NULL || (keep[0] = dup_str(path, "source['path']")) == NULL) {
            if (!PyErr_Occurred()) pfpy_invalid("source['path'] is missing");
            goto fail;
        }
        out->path = keep[0];
    } else if (strcmp(k, "pack") == 0) {
        out->kind = PF_SOURCE_PACK;
        if (path == NULL || (keep[0] = dup_str(path, "source['path']")) == NULL) {
            if (!PyErr_Occurred()) pfpy_invalid("source['path'] is missing");
            goto fail;
        }
        out->path = keep[0];
    } else if (strcmp(k, "tar") == 0) {
        out->kind = PF_SOURCE_TAR;
        for (Py_ssize_t i = 0; i < nsh; i++) {
            PyObject *e = PySequence_GetItem(shards, i);
            keep[2 + i] = e ? dup_str(e, "source['shards'][i]") : NULL;
            Py_XDECREF(e);
            if (keep[2 + i] == NULL) goto fail;
        }
        out->shards = keep + 2;
        out->shard_count = (int32_t)nsh;
    } else {
        char rb[96];
        pfpy_invalid("source['kind'] = %s; use 'folder', 'list', 'tar' or 'pack'", pfpy_repr(kind, rb, sizeof rb));
        goto fail;
    }
    if (ext && ext != Py_None) {
        if ((keep[1] = dup_str(ext, "source['extensions']")) == NULL) goto fail;
        out->extensions = keep[1];
    }
    *strings = keep;
    return 0;
fail:
    pfpy_source_strings_free(keep);
    return -1;
}

/* One entry as (name, label, None) for a file, (name, label, (shard path,
 * offset, size)) for a tar member. Names are file system strings (UTF-8,
 * undecodable bytes as surrogates, like os.listdir), so open() gets the
 * same bytes back. */
static PyObject *entry_tuple(const pf_source_entry *e) {
    PyObject *name = PyUnicode_DecodeFSDefault(e->name);
    if (name == NULL) return NULL;
    PyObject *loc;
    if (e->member != NULL || (e->size > 0 && strcmp(e->path, e->name) != 0)) { /* a tar member or a packed sample */
        PyObject *shard = PyUnicode_DecodeFSDefault(e->path);
        loc = shard ? Py_BuildValue("(NKK)", shard, (unsigned long long)e->offset, (unsigned long long)e->size) : NULL;
    } else {
        Py_INCREF(Py_None);
        loc = Py_None;
    }
    if (loc == NULL) {
        Py_DECREF(name);
        return NULL;
    }
    return Py_BuildValue("(NiN)", name, (int)e->label, loc);
}

static PyObject *py_source_index(PyObject *self, PyObject *src) {
    (void)self;
    pf_source_desc desc;
    const char **strings;
    if (pfpy_source_desc(src, &desc, &strings) < 0) return NULL;
    pf_source_index *ix = NULL;
    pf_status st;
    PFPY_CALL(st, pf_source_index_open(&desc, &ix));
    pfpy_source_strings_free(strings); /* the index holds its own copies */
    if (st != PF_OK) return pfpy_raise(st);
    uint64_t n = pf_source_index_count(ix);
    PyObject *list = n <= (uint64_t)(SIZE_MAX / 2) /* Py_ssize_t's range */ ? PyList_New((Py_ssize_t)n) : PyErr_NoMemory();
    for (uint64_t i = 0; list && i < n; i++) {
        pf_source_entry e;
        st = pf_source_index_get(ix, i, &e);
        PyObject *t = st == PF_OK ? entry_tuple(&e) : pfpy_raise(st);
        if (t == NULL) Py_CLEAR(list);
        else PyList_SET_ITEM(list, (Py_ssize_t)i, t);
    }
    pf_source_index_close(ix);
    return list;
}

PyMethodDef pfpy_source_methods[] = {
    {"source_index", py_source_index, METH_O,
     "source_index(source, /)\n--\n\n"
     "pf_source_index: the samples of a source dict {'kind': 'folder'|'list'|'tar'|'pack', 'path', 'shards', "
     "'extensions'} in the C pipeline's dataset order, as [(name, label, loc)]: loc is None for a file, "
     "(shard path, offset, size) for a tar member, (pack path, offset, size) for a packed sample."},
    {NULL, NULL, 0, NULL}};
