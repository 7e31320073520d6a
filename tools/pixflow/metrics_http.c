/* The /metrics endpoint of `pixflow run --metrics` (metrics_http.h). HTTP
 * is libmicrohttpd's (no hand-written parser); this file binds the socket
 * itself so a port in use is reported with the address and errno, and
 * renders one snapshot per request. */
#include "metrics_http.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int metrics_http_parse(const char *addr, char *host, size_t host_cap, char *port, size_t port_cap, char *err,
                       size_t err_cap) {
    const char *colon = NULL, *h = addr, *h_end = NULL;
    if (addr == NULL || addr[0] == '\0') {
        snprintf(err, err_cap, "the address is empty (use HOST:PORT or PORT)");
        return 1;
    }
    if (addr[0] == '[') { /* [v6]:port */
        const char *close = strchr(addr, ']');
        if (close == NULL || close[1] != ':') {
            snprintf(err, err_cap, "%s: an IPv6 address is written [ADDR]:PORT", addr);
            return 1;
        }
        h = addr + 1;
        h_end = close;
        colon = close + 1;
    } else {
        colon = strrchr(addr, ':');
        if (colon && strchr(addr, ':') != colon) {
            snprintf(err, err_cap, "%s: an IPv6 address is written [ADDR]:PORT", addr);
            return 1;
        }
        h_end = colon;
    }
    const char *p = colon ? colon + 1 : addr;
    char *end;
    long v = strtol(p, &end, 10);
    if (p[0] == '\0' || *end != '\0' || v < 0 || v > 65535) {
        snprintf(err, err_cap, "%s: the port must be 0..65535", addr);
        return 1;
    }
    size_t hl = colon ? (size_t)(h_end - h) : 0;
    if (colon && hl == 0) {
        snprintf(err, err_cap, "%s: the host is empty (omit it, or give 127.0.0.1)", addr);
        return 1;
    }
    if (hl + 1 > host_cap) {
        snprintf(err, err_cap, "%s: the host is too long", addr);
        return 1;
    }
    if (colon) {
        memcpy(host, h, hl);
        host[hl] = '\0';
    } else {
        snprintf(host, host_cap, "127.0.0.1"); /* loopback unless told otherwise */
    }
    snprintf(port, port_cap, "%ld", v);
    return 0;
}

#ifdef PF_HAVE_MHD

#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

struct metrics_http {
    struct MHD_Daemon *daemon;
    const pf_metrics_sources *src;
};

static enum MHD_Result reply(struct MHD_Connection *c, unsigned code, const char *type, char *body, size_t len,
                             int owned) {
    struct MHD_Response *r = MHD_create_response_from_buffer(len, body, owned ? MHD_RESPMEM_MUST_FREE
                                                                                : MHD_RESPMEM_PERSISTENT);
    if (r == NULL) {
        if (owned) free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    enum MHD_Result ok = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ok;
}

static char *render(const pf_metrics_sources *src, size_t *len) {
    pf_metrics_snapshot *snap = malloc(sizeof *snap);
    char *text = NULL;
    if (snap && pf_metrics_snapshot_take(src, snap) == PF_OK) {
        size_t need = 0;
        (void)pf_metrics_write_text(snap, NULL, 0, &need); /* sizes it */
        text = malloc(need + 1);
        if (text && pf_metrics_write_text(snap, text, need + 1, len) != PF_OK) {
            free(text);
            text = NULL;
        }
    }
    free(snap);
    return text;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **state) {
    (void)version;
    (void)upload;
    (void)upload_size;
    (void)state;
    metrics_http *m = cls;
    static char not_found[] = "not found: pixflow serves /metrics\n";
    static char bad_method[] = "method not allowed: use GET\n";
    static char failed[] = "pixflow: the metrics snapshot failed\n";
    if (strcmp(url, "/metrics") != 0)
        return reply(c, MHD_HTTP_NOT_FOUND, "text/plain", not_found, sizeof not_found - 1, 0);
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", bad_method, sizeof bad_method - 1, 0);
    size_t len = 0;
    char *text = render(m->src, &len);
    if (text == NULL) return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain", failed, sizeof failed - 1, 0);
    return reply(c, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8", text, len, 1);
}

/* A listening socket on host:port, or -1 with the reason in err. */
static int listen_on(const char *addr, const char *host, const char *port, int *ipv6, char *bound, size_t bound_cap,
                     char *err, size_t err_cap) {
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    int g = getaddrinfo(host, port, &hints, &res);
    if (g != 0 || res == NULL) {
        snprintf(err, err_cap, "%s: cannot resolve %s: %s", addr, host, gai_strerror(g));
        return -1;
    }
    int fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, res->ai_protocol);
    int one = 1;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(fd, res->ai_addr, res->ai_addrlen) != 0 || listen(fd, 16) != 0) {
        snprintf(err, err_cap, "%s: cannot listen: %s", addr, strerror(errno));
        if (fd >= 0) close(fd);
        freeaddrinfo(res);
        return -1;
    }
    *ipv6 = res->ai_family == AF_INET6;
    freeaddrinfo(res);
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    char hbuf[NI_MAXHOST], pbuf[NI_MAXSERV];
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0 &&
        getnameinfo((struct sockaddr *)&ss, sl, hbuf, sizeof hbuf, pbuf, sizeof pbuf, NI_NUMERICHOST | NI_NUMERICSERV) == 0)
        snprintf(bound, bound_cap, *ipv6 ? "[%s]:%s" : "%s:%s", hbuf, pbuf);
    else
        snprintf(bound, bound_cap, "%s", addr);
    return fd;
}

int metrics_http_start(const char *addr, const pf_metrics_sources *src, metrics_http **out) {
    char host[256], port[16], err[512], bound[300];
    *out = NULL;
    if (metrics_http_parse(addr, host, sizeof host, port, sizeof port, err, sizeof err) != 0) {
        fprintf(stderr, "pixflow run: --metrics %s\n", err);
        return 1;
    }
    int ipv6 = 0;
    int fd = listen_on(addr, host, port, &ipv6, bound, sizeof bound, err, sizeof err);
    if (fd < 0) {
        fprintf(stderr, "pixflow run: --metrics %s\n", err);
        return 1;
    }
    metrics_http *m = calloc(1, sizeof *m);
    if (m == NULL) {
        close(fd);
        fprintf(stderr, "pixflow run: --metrics %s: out of memory\n", addr);
        return 1;
    }
    m->src = src;
    /* one internal thread: a scrape is a few microseconds of snapshot and
     * ~10 KB of text, so connections never need their own threads */
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | (ipv6 ? MHD_USE_IPv6 : 0);
    m->daemon = MHD_start_daemon(flags, 0, NULL, NULL, on_request, m, MHD_OPTION_LISTEN_SOCKET, fd,
                                 MHD_OPTION_CONNECTION_TIMEOUT, 10u, MHD_OPTION_CONNECTION_LIMIT, 32u, MHD_OPTION_END);
    if (m->daemon == NULL) {
        close(fd);
        free(m);
        fprintf(stderr, "pixflow run: --metrics %s: libmicrohttpd could not start its server\n", addr);
        return 1;
    }
    fprintf(stderr, "metrics: http://%s/metrics\n", bound);
    *out = m;
    return 0;
}

void metrics_http_stop(metrics_http *m) {
    if (m == NULL) return;
    MHD_stop_daemon(m->daemon); /* joins its thread; closes the listening socket */
    free(m);
}

#else /* built without libmicrohttpd */

struct metrics_http {
    int unused;
};

int metrics_http_start(const char *addr, const pf_metrics_sources *src, metrics_http **out) {
    (void)src;
    *out = NULL;
    fprintf(stderr,
            "pixflow run: --metrics %s: this pixflow was built without libmicrohttpd, so it cannot serve metrics "
            "(install libmicrohttpd-dev, e.g. scripts/install_deps.sh, and rebuild)\n",
            addr);
    return 1;
}

void metrics_http_stop(metrics_http *m) { (void)m; }

#endif
