/* CPU streams for op calls. A pf_stream serializes its callers, and op
 * calls release the GIL, so each call checks a stream out of a free list
 * (under the GIL: no lock needed) and puts it back after; concurrent
 * Python threads get distinct streams and never wait on each other.
 * pixflow.set_num_threads(n) sets the threads per stream (like
 * cv2.setNumThreads); 1 runs ops on the calling thread alone. Inside
 * `with stream:` (stream_type.c) op calls use that stream instead, and
 * it stays the caller's (release leaves it alone). */
#include <unistd.h>

#include "pfpy.h"

#define MAX_FREE 64

static pf_stream *free_list[MAX_FREE];
static int nfree;
static int num_threads = -1; /* -1: not chosen yet (online CPUs) */
static unsigned generation;   /* bumped by set_num_threads: older streams are dropped */
static unsigned gen_of[MAX_FREE];

static int threads_now(void) {
    if (num_threads < 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        num_threads = n > 0 ? (int)(n > 256 ? 256 : n) : 1;
    }
    return num_threads;
}

pf_stream *pfpy_stream_acquire(void) {
    pfpy_stream *active = pfpy_active_stream();
    if (active != NULL) return active->stream;
    if (threads_now() <= 1) return NULL;
    while (nfree > 0) {
        nfree--;
        if (gen_of[nfree] == generation) return free_list[nfree];
        pf_stream_destroy(free_list[nfree]);
    }
    pf_stream *s = NULL;
    /* on failure (no threads left) the op runs on the calling thread */
    if (pf_stream_create_cpu(num_threads, &s) != PF_OK) return NULL;
    return s;
}

void pfpy_stream_release(pf_stream *s) {
    pfpy_stream *active = pfpy_active_stream();
    if (s == NULL || (active != NULL && s == active->stream)) return;
    if (nfree < MAX_FREE && pf_stream_threads(s) == num_threads) {
        gen_of[nfree] = generation;
        free_list[nfree++] = s;
        return;
    }
    Py_BEGIN_ALLOW_THREADS
    pf_stream_destroy(s);
    Py_END_ALLOW_THREADS
}

void pfpy_streams_free(void) {
    while (nfree > 0) pf_stream_destroy(free_list[--nfree]);
}

PyObject *pfpy_set_num_threads(PyObject *self, PyObject *arg) {
    (void)self;
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return pfpy_invalid("set_num_threads: nthreads must be an integer");
    }
    if (n > 256) return pfpy_invalid("set_num_threads: nthreads is %ld; at most 256", n);
    if (n <= 0) { /* cv2: <= 0 means the default */
        num_threads = -1;
        threads_now();
    } else {
        num_threads = (int)n;
    }
    generation++;
    Py_RETURN_NONE;
}

PyObject *pfpy_get_num_threads(PyObject *self, PyObject *noarg) {
    (void)self;
    (void)noarg;
    return PyLong_FromLong(threads_now());
}
