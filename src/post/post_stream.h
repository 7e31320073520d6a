/* Which memory a post-processing call reads: functions that take plain
 * pointers (NMS, heads, IoU, logits, protos) follow their stream: a CPU
 * stream or NULL means host memory. */
#ifndef PF_POST_STREAM_H
#define PF_POST_STREAM_H

#include "core/error.h"
#include "core/stream.h"

/* PF_ERR_UNSUPPORTED naming op when stream is a device stream and the
 * function has no device path. */
static inline pf_status pfi_post_host_stream(const char *op, const pf_stream *stream) {
    if (stream != NULL && stream->kind != PF_DEVICE_CPU)
        return pfi_fail(PF_ERR_UNSUPPORTED,
                        "%s: a device stream was given; this function reads host memory and runs on a CPU stream "
                        "(or NULL)", op);
    return PF_OK;
}

#endif
