/* `pixflow run --metrics ADDR`: the /metrics endpoint (Prometheus text
 * exposition of include/pixflow/metrics.h) served by libmicrohttpd on its
 * own thread. Without libmicrohttpd at build time, starting fails with a
 * message saying so. */
#ifndef PF_TOOLS_METRICS_HTTP_H
#define PF_TOOLS_METRICS_HTTP_H

#include <stddef.h>

#include "pixflow/metrics.h"

typedef struct metrics_http metrics_http;

/* Splits ADDR ("HOST:PORT", "[V6]:PORT" or "PORT": loopback) into host and
 * port; 0 on success, else 1 with a sentence in err. */
int metrics_http_parse(const char *addr, char *host, size_t host_cap, char *port, size_t port_cap, char *err,
                       size_t err_cap);

/* Binds ADDR and serves GET /metrics from a snapshot of *src taken per
 * request (src and what it points to must stay valid until
 * metrics_http_stop). Prints the address it listens on ("metrics:
 * http://HOST:PORT/metrics", the real port when PORT was 0) to stderr.
 * Returns 0, or 1 after printing why (the message names ADDR). */
int metrics_http_start(const char *addr, const pf_metrics_sources *src, metrics_http **out);

/* Stops serving: closes the listening socket, waits for a request in
 * progress, frees everything. NULL: no-op. */
void metrics_http_stop(metrics_http *m);

#endif
