"""Prometheus metrics of pixflow Loaders (docs/observability.md).

``pixflow.data.Loader(..., metrics_port=9464)`` serves them at
``http://127.0.0.1:9464/metrics``; or by hand::

    from pixflow.metrics import serve
    server = serve(loader, port=9464)      # a prometheus_client server on its own thread
    ...
    server.close()

The values are the C library's own snapshot (``include/pixflow/metrics.h``,
rendered by ``pf_metrics_write_text``): the collector parses that text with
prometheus_client's parser and hands the families on, so Python keeps no
counters of its own and the names are the same as ``pixflow run
--metrics``'s. Needs ``prometheus_client``. Not covered: ``python -m pixflow
<app> --metrics`` (an infer run's stats are final-only) and the dispatcher."""

import threading


def _client():
    try:
        import prometheus_client  # noqa: F401
        from prometheus_client import parser, registry
    except ImportError as e:  # a clear message instead of a bare ImportError deep inside
        raise ImportError("pixflow.metrics needs prometheus_client (pip install prometheus_client)") from e
    return parser, registry


class LoaderCollector:
    """A prometheus_client collector over Loaders' C snapshots (one scrape: one snapshot each;
    a Loader with no running pipeline contributes nothing)."""

    def __init__(self, *loaders):
        self._loaders = list(loaders)
        self._lock = threading.Lock()

    def add(self, loader):
        with self._lock:
            self._loaders.append(loader)

    def text(self):
        """The exposition text of every Loader's running pipeline."""
        with self._lock:
            loaders = list(self._loaders)
        parts = []
        for ld in loaders:
            pipe = getattr(ld, "_pipe", None)
            if pipe is None:
                continue
            try:
                parts.append(pipe.metrics_text(device=ld.device or "cpu"))
            except Exception:  # closed between the check and the call: nothing to report
                continue
        return "".join(parts)

    def collect(self):
        parser, _ = _client()
        yield from parser.text_string_to_metric_families(self.text())


class MetricsServer:
    """The HTTP server serve() started; close() stops it."""

    def __init__(self, httpd, thread, registry, collector):
        self._httpd, self._thread, self.registry, self.collector = httpd, thread, registry, collector
        self.address, self.port = httpd.server_address[0], httpd.server_address[1]

    @property
    def url(self):
        return f"http://{self.address}:{self.port}/metrics"

    def close(self):
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._thread.join(10)
            self._httpd = None


def serve(loader, port, addr="127.0.0.1"):
    """Serves loader's metrics on addr:port (loopback by default; port 0 picks a free one, see
    .port) from a registry of its own. A port in use raises OSError naming the address."""
    _, registry = _client()
    from prometheus_client import start_http_server

    reg = registry.CollectorRegistry(auto_describe=False)
    col = LoaderCollector(loader)
    reg.register(col)
    try:
        httpd, thread = start_http_server(int(port), addr=addr, registry=reg)
    except OSError as e:
        raise OSError(e.errno, f"metrics_port: cannot listen on {addr}:{port}: {e.strerror}") from e
    return MetricsServer(httpd, thread, reg, col)
