/* Events: record on a stream, make another stream wait, query, wait on the
 * host, time between two. Each event belongs to one device. */
#include <stdlib.h>

#include "core/device.h"
#include "core/error.h"
#include "core/stream.h"

struct pf_event {
    pf_device *dev;
    void *impl;
};

pf_status pf_event_create(pf_device *device, pf_event **out) {
    pfi_clear_error();
    if (out == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_event_create: out is NULL");
    *out = NULL;
    if (device == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_event_create: device is NULL");
    pf_event *e = calloc(1, sizeof *e);
    if (e == NULL) return pfi_fail(PF_ERR_OUT_OF_MEMORY, "pf_event_create: out of memory");
    pf_status st = device->be->event_create(device->index, &e->impl);
    if (st != PF_OK) {
        free(e);
        return pfi_fail_in("pf_event_create", st);
    }
    e->dev = pfi_device_ref(device);
    *out = e;
    return PF_OK;
}

void pf_event_destroy(pf_event *e) {
    if (e == NULL) return;
    e->dev->be->event_destroy(e->dev->index, e->impl);
    pf_device_close(e->dev);
    free(e);
}

/* The stream to use for an event operation: NULL means the device's
 * implicit stream on device backends; otherwise it must be the event's
 * device. */
static pf_status event_stream(const char *fn, pf_event *e, pf_stream *s, void **impl) {
    if (s == NULL) {
        if (e->dev->kind == PF_DEVICE_CPU) {
            *impl = NULL;
            return PF_OK;
        }
        pf_stream *use;
        const pfi_backend *be;
        pfi_view_ref v = {pfi_mem_of_kind(e->dev->kind), e->dev->index, "event", -1};
        pf_status st = pfi_route(fn, NULL, &v, 1, &be, &use);
        if (st != PF_OK) return st;
        *impl = use->impl;
        return PF_OK;
    }
    if (s->kind != e->dev->kind || (s->kind != PF_DEVICE_CPU && s->device != e->dev->index))
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "%s: stream and event belong to different devices", fn);
    *impl = s->impl;
    return PF_OK;
}

pf_status pf_event_record(pf_event *e, pf_stream *s) {
    pfi_clear_error();
    if (e == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_event_record: event is NULL");
    void *impl = NULL;
    pf_status st = event_stream("pf_event_record", e, s, &impl);
    if (st != PF_OK) return st;
    return pfi_fail_in("pf_event_record", e->dev->be->event_record(e->dev->index, e->impl, impl));
}

pf_status pf_stream_wait_event(pf_stream *s, pf_event *e) {
    pfi_clear_error();
    if (e == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_stream_wait_event: event is NULL");
    /* a CPU stream waits for any event on the host: its work runs at once */
    if (s == NULL || s->kind == PF_DEVICE_CPU) return pf_event_synchronize(e);
    if (s->kind != e->dev->kind)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_stream_wait_event: stream and event are of different kinds");
    return pfi_fail_in("pf_stream_wait_event", s->be->event_wait(s->device, s->impl, e->impl));
}

pf_status pf_event_query(pf_event *e, int *done) {
    pfi_clear_error();
    if (e == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_event_query: event is NULL");
    if (done == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_event_query: done is NULL");
    return pfi_fail_in("pf_event_query", e->dev->be->event_query(e->dev->index, e->impl, done));
}

pf_status pf_event_synchronize(pf_event *e) {
    pfi_clear_error();
    if (e == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_event_synchronize: event is NULL");
    return pfi_fail_in("pf_event_synchronize", e->dev->be->event_synchronize(e->dev->index, e->impl));
}

pf_status pf_event_elapsed_ms(pf_event *start, pf_event *end, float *ms) {
    pfi_clear_error();
    if (start == NULL || end == NULL)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_event_elapsed_ms: %s is NULL", start ? "end" : "start");
    if (ms == NULL) return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_event_elapsed_ms: ms is NULL");
    if (start->dev != end->dev)
        return pfi_fail(PF_ERR_INVALID_ARGUMENT, "pf_event_elapsed_ms: start and end belong to different devices");
    return pfi_fail_in("pf_event_elapsed_ms", start->dev->be->event_elapsed_ms(start->dev->index, start->impl, end->impl, ms));
}

