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
--metrics``'s. Needs ``prometheus_client``.

``serve`` takes any number of sources: a Loader, a video source
(``pixflow.video.open(...)`` or ``pixflow.Video``: frames and latency per
stream, ``pixflow_video_stream_*{stream="i"}``), or a callable returning
exposition text. ``python -m pixflow detect --metrics [HOST:]PORT`` serves
its video source and its stage table (``app_text``) this way. Not covered:
the dispatcher."""

import threading


def _client():
    try:
        import prometheus_client  # noqa: F401
        from prometheus_client import parser, registry
    except ImportError as e:  # a clear message instead of a bare ImportError deep inside
        raise ImportError("pixflow.metrics needs prometheus_client (pip install prometheus_client)") from e
    return parser, registry


def _source_text(src):
    """One source's exposition text ("" when it has nothing running)."""
    pipe = getattr(src, "_pipe", None)
    if pipe is not None:                  # a pixflow.data.Loader
        return pipe.metrics_text(device=getattr(src, "device", None) or "cpu")
    if hasattr(src, "_pipe"):             # a Loader between epochs or closed
        return ""
    video = getattr(src, "_v", None)      # a pixflow.video.VideoReader
    if video is not None:
        return video.metrics_text(name=getattr(src, "name", None))
    if hasattr(src, "metrics_text"):      # a pixflow.Video
        return src.metrics_text()
    if callable(src):
        return src()
    raise TypeError(f"pixflow.metrics: cannot take metrics from {type(src).__name__}: give a Loader, a video "
                    "source or a callable returning exposition text")


class Collector:
    """A prometheus_client collector over pixflow sources' C snapshots (one scrape: one snapshot
    each; a source that closed between two scrapes contributes nothing)."""

    def __init__(self, *sources):
        for src in sources:
            _check_source(src)
        self._sources = list(sources)
        self._lock = threading.Lock()

    def add(self, source):
        _check_source(source)
        with self._lock:
            self._sources.append(source)

    def text(self):
        """The exposition text of every source."""
        with self._lock:
            sources = list(self._sources)
        parts = []
        for src in sources:
            try:
                parts.append(_source_text(src))
            except Exception:  # closed between the check and the call: nothing to report
                continue
        return "".join(parts)

    def collect(self):
        parser, _ = _client()
        yield from parser.text_string_to_metric_families(self.text())


def _check_source(src):
    if not (hasattr(src, "_pipe") or hasattr(src, "_v") or hasattr(src, "metrics_text") or callable(src)):
        raise TypeError(f"pixflow.metrics: cannot take metrics from {type(src).__name__}: give a Loader, a video "
                        "source or a callable returning exposition text")


LoaderCollector = Collector  # the name of the first release


def _escape(v):
    return str(v).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def app_text(recorder, app):
    """An app's stage table (pixflow.apps.stages.Recorder, the numbers its table prints) as
    exposition text: items and seconds per stage, frames per stream. Counters, labelled app=."""
    totals, frames = recorder.totals_snapshot()
    a = _escape(app)
    out = ["# HELP pixflow_app_stage_items_total Items (frames or images) through an app stage.",
           "# TYPE pixflow_app_stage_items_total counter"]
    out += [f'pixflow_app_stage_items_total{{app="{a}",stage="{_escape(s)}"}} {n}'
            for s, (n, _) in sorted(totals.items())]
    out += ["# HELP pixflow_app_stage_seconds_total Time spent in an app stage.",
            "# TYPE pixflow_app_stage_seconds_total counter"]
    out += [f'pixflow_app_stage_seconds_total{{app="{a}",stage="{_escape(s)}"}} {sec!r}'
            for s, (_, sec) in sorted(totals.items())]
    out += ["# HELP pixflow_app_frames_total Frames an app finished, per stream.",
            "# TYPE pixflow_app_frames_total counter"]
    out += [f'pixflow_app_frames_total{{app="{a}",stream="{int(k)}"}} {n}' for k, n in sorted(frames.items())]
    return "\n".join(out) + "\n"


def parse_address(text, what="--metrics"):
    """[HOST:]PORT -> (host, port); loopback when HOST is left out. Raises ValueError naming it."""
    host, _, port = str(text).rpartition(":")
    try:
        p = int(port)
    except ValueError:
        p = -1
    if not 0 <= p <= 65535:
        raise ValueError(f"{what} {text}: want [HOST:]PORT with PORT 0..65535")
    return host or "127.0.0.1", p


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


def serve(*sources, port, addr="127.0.0.1"):
    """Serves the sources' metrics (Loaders, video sources, callables returning text) on
    addr:port (loopback by default; port 0 picks a free one, see .port) from a registry of its
    own. A port in use raises OSError naming the address."""
    _, registry = _client()
    from prometheus_client import start_http_server

    reg = registry.CollectorRegistry(auto_describe=False)
    col = Collector(*sources)
    reg.register(col)
    try:
        httpd, thread = start_http_server(int(port), addr=addr, registry=reg)
    except OSError as e:
        raise OSError(e.errno, f"metrics_port: cannot listen on {addr}:{port}: {e.strerror}") from e
    return MetricsServer(httpd, thread, reg, col)
