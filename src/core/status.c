/* Status names and the thread-local error sentence. */
#include <stdarg.h>
#include <stdio.h>

#include "core/error.h"

/* One buffer per thread: messages never race and never allocate. */
static _Thread_local char pfi_error_text[2048]; /* room for an OpenCL compiler log */

const char *pf_status_str(pf_status status) {
    switch (status) {
    case PF_OK: return "PF_OK";
    case PF_ERR_INVALID_ARGUMENT: return "PF_ERR_INVALID_ARGUMENT";
    case PF_ERR_UNSUPPORTED: return "PF_ERR_UNSUPPORTED";
    case PF_ERR_OUT_OF_MEMORY: return "PF_ERR_OUT_OF_MEMORY";
    case PF_ERR_CORRUPT_DATA: return "PF_ERR_CORRUPT_DATA";
    case PF_ERR_IO: return "PF_ERR_IO";
    case PF_ERR_DEVICE: return "PF_ERR_DEVICE";
    case PF_ERR_CANCELLED: return "PF_ERR_CANCELLED";
    case PF_ERR_TIMEOUT: return "PF_ERR_TIMEOUT";
    case PF_ERR_INTERNAL: return "PF_ERR_INTERNAL";
    }
    return "PF_ERR_UNKNOWN";
}

const char *pf_last_error(void) { return pfi_error_text; }

void pfi_clear_error(void) { pfi_error_text[0] = '\0'; }

pf_status pfi_fail(pf_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pfi_error_text, sizeof pfi_error_text, fmt, ap);
    va_end(ap);
    return status;
}

pf_status pfi_fail_in(const char *fn, pf_status status) {
    if (status == PF_OK) return status;
    char why[sizeof pfi_error_text];
    snprintf(why, sizeof why, "%s", pfi_error_text);
    return pfi_fail(status, "%s: %s", fn, why);
}
