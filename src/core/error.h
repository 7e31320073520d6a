/* Internal error reporting: every failing path sets the thread-local
 * message with pfi_fail() and returns its status. */
#ifndef PF_CORE_ERROR_H
#define PF_CORE_ERROR_H

#include "pixflow/core.h"

#if defined(__GNUC__) || defined(__clang__)
#  define PFI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#  define PFI_PRINTF(a, b)
#endif

/* Sets pf_last_error() to the formatted sentence and returns status. */
pf_status pfi_fail(pf_status status, const char *fmt, ...) PFI_PRINTF(2, 3);
/* Prefixes the current error sentence with the public function's name
 * ("pf_event_record: cudaEventRecord failed: ...") when status is not
 * PF_OK; returns status. For backend entries, which name only their call. */
pf_status pfi_fail_in(const char *fn, pf_status status);
/* Clears the thread's error text (called at the start of public entry points). */
void pfi_clear_error(void);

#endif
