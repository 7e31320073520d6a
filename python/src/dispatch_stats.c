/* The dispatcher's stats (pf_dispatch_stats and one pf_dispatch_device_stats
 * per device) as a dict: Loader(devices=[...]).stats()["dispatch"]. */
#include "pfpy.h"

static PyObject *device_dict(const pf_dispatch_device_stats *s) {
    return Py_BuildValue("{s:s,s:K,s:K,s:K,s:K,s:d,s:d,s:K,s:K,s:d,s:K,s:d,s:O,s:s}", "name", s->name, "samples",
                         (unsigned long long)s->samples, "batches", (unsigned long long)s->batches, "chunks",
                         (unsigned long long)s->chunks, "failures", (unsigned long long)s->failures, "busy_ms",
                         s->busy_ms, "utilization", s->utilization, "upload_bytes",
                         (unsigned long long)s->upload_bytes, "download_bytes", (unsigned long long)s->download_bytes,
                         "cost_ms", s->cost_ms, "last_samples", (unsigned long long)s->last_samples, "last_share",
                         s->last_share, "dropped", s->dropped ? Py_True : Py_False, "reason", s->reason);
}

PyObject *pfpy_dispatch_stats(const pf_dispatch *d) {
    pf_dispatch_stats s;
    pf_status st = pf_dispatch_stats_get(d, &s);
    if (st != PF_OK) return pfpy_raise(st);
    int n = pf_dispatch_device_count(d);
    PyObject *devs = PyList_New(n > 0 ? n : 0);
    for (int i = 0; devs && i < n; i++) {
        pf_dispatch_device_stats ds;
        if ((st = pf_dispatch_device_stats_get(d, i, &ds)) != PF_OK) {
            Py_DECREF(devs);
            return pfpy_raise(st);
        }
        PyObject *e = device_dict(&ds);
        if (e == NULL) Py_CLEAR(devs);
        else PyList_SET_ITEM(devs, i, e);
    }
    if (devs == NULL) return NULL;
    char rules[128];
    if ((st = pf_dispatch_rules_get(d, rules, sizeof rules)) != PF_OK) {
        Py_DECREF(devs);
        return pfpy_raise(st);
    }
    return Py_BuildValue("{s:K,s:K,s:d,s:d,s:d,s:d,s:K,s:K,s:s,s:N}", "batches", (unsigned long long)s.batches,
                         "samples", (unsigned long long)s.samples, "wall_ms", s.wall_ms, "overhead_ms", s.overhead_ms,
                         "last_wall_ms", s.last_wall_ms, "last_overhead_ms", s.last_overhead_ms, "split_batches",
                         (unsigned long long)s.split_batches, "moved_bytes", (unsigned long long)s.moved_bytes,
                         "rules", rules, "devices", devs);
}
