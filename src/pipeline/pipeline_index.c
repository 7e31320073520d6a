/* pf_source_index: the pipeline's own sample table (pipeline_source.c,
 * pipeline_tar.c) behind a public handle, so that code addressing samples
 * outside a pipeline (pixflow.ray, pixflow.torch) uses the same indexing
 * rules instead of a second implementation of them. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "pipeline/pipeline_source.h"

struct pf_source_index {
    pli_source src;
};

pf_status pf_source_index_open(const pf_source_desc *source, pf_source_index **out) {
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_source_index_open: out is NULL");
    *out = NULL;
    if (source == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_source_index_open: source is NULL");
    if (source->kind == PF_SOURCE_CALLBACK)
        return pfi_fail(PF_ERR_UNSUPPORTED, "pf_source_index_open: source.kind is PF_SOURCE_CALLBACK; a callback "
                                            "source is its own index (its count and name callbacks)");
    pf_source_index *ix = calloc(1, sizeof *ix);
    if (ix == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_source_index_open: out of memory");
    pf_status st = pli_source_open(source, &ix->src, "pf_source_index_open", "source");
    if (st != PF_OK) {
        pli_source_close(&ix->src);
        free(ix);
        return st;
    }
    *out = ix;
    return PF_OK;
}

uint64_t pf_source_index_count(const pf_source_index *index) { return index ? index->src.count : 0; }

pf_status pf_source_index_get(const pf_source_index *index, uint64_t i, pf_source_entry *out) {
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_source_index_get: out is NULL");
    memset(out, 0, sizeof *out);
    if (index == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_source_index_get: index is NULL");
    const pli_source *src = &index->src;
    if (i >= src->count)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_source_index_get: i = %llu is out of range; the index has %llu entries",
                        (unsigned long long)i, (unsigned long long)src->count);
    const pli_entry *e = &src->entries[i];
    out->name = src->names + e->name_off;
    out->label = e->label;
    out->shard = e->shard;
    if (src->kind == PF_SOURCE_TAR) {
        /* the name is "<shard path>:<member>" (pipeline_tar.c flush) */
        out->path = src->shard_paths[e->shard];
        /* a name cut short by its 8 KiB buffer keeps the pointer inside it */
        size_t pl = strlen(out->path), nl = strlen(out->name);
        out->member = out->name + (nl > pl ? pl + 1 : nl);
        out->offset = e->offset;
        out->size = e->size;
    } else if (src->kind == PF_SOURCE_PACK) {
        out->path = src->pack_path;
        out->offset = e->offset;
        out->size = e->size;
    } else {
        out->path = out->name;
    }
    return PF_OK;
}

void pf_source_index_close(pf_source_index *index) {
    if (index == NULL) return;
    pli_source_close(&index->src);
    free(index);
}
