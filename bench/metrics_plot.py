"""Renders docs/observability.png: a real Prometheus (loopback, temp dir,
stopped by PID) scrapes `pixflow run --metrics` every second; the run's
second half has a slow consumer (a second run with --consumer-delay-ms
after the first), and the dashboard's main queries are fetched with
/api/v1/query_range and drawn with matplotlib.
  python3 bench/metrics_plot.py PIXFLOW SOURCE OUT.png   (needs prometheus, matplotlib)"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def get(base, path, **params):
    with urllib.request.urlopen(base + path + "?" + urllib.parse.urlencode(params), timeout=10) as r:
        return json.load(r)


def main():
    cli, src, out = sys.argv[1:4]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    work = tempfile.mkdtemp(prefix="pixflow_plot_")
    target = f"127.0.0.1:{free_port()}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with open(os.path.join(work, "prometheus.yml"), "w") as f:
        f.write(f"global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: pixflow\n"
                f"    static_configs:\n      - targets: ['{target}']\n")
    prom = subprocess.Popen([shutil.which("prometheus"), f"--config.file={work}/prometheus.yml",
                             f"--storage.tsdb.path={work}/tsdb", f"--web.listen-address=127.0.0.1:{port}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(120):
            try:
                if urllib.request.urlopen(base + "/-/ready", timeout=2).status == 200:
                    break
            except OSError:
                time.sleep(0.25)
        t0 = time.time()
        # phase 1: full speed; phase 2: a slow consumer (the backlog fills, the workers idle)
        for extra in (["--epochs", "200"], ["--epochs", "40", "--consumer-delay-ms", "40", "--prefetch", "10"]):
            subprocess.run([cli, "run", src, "--quiet", "--workers", "2", "--batch", "8", "--metrics", target, "--metrics-linger", "2",
                            *extra], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300, check=True)
        t1 = time.time()
        panels = [
            ("throughput (samples/s)", [("rate(pixflow_samples_total[5s])", "samples/s")]),
            ("stage latency (ms)", [
                (f"1000 * histogram_quantile({q}, sum by (le, stage) (rate(pixflow_stage_latency_seconds_bucket[5s])))",
                 f"{{stage}} p{int(q * 100)}") for q in (0.5, 0.99)]),
            ("backlog (batches)", [("pixflow_backlog_batches", "backlog")]),
            ("ratios", [("rate(pixflow_consumer_wait_seconds_total[5s])", "consumer starving"),
                        ("rate(pixflow_device_busy_seconds_total[5s]) / on(instance, job, device) pixflow_device_workers",
                         "device utilization")]),
        ]
        fig, axes = plt.subplots(len(panels), 1, figsize=(9, 10), sharex=True)
        for ax, (title, queries) in zip(axes, panels):
            for q, legend in queries:
                r = get(base, "/api/v1/query_range", query=q, start=t0, end=t1, step=1)
                for series in r["data"]["result"]:
                    xs = [float(v[0]) - t0 for v in series["values"]]
                    ys = [float(v[1]) for v in series["values"]]
                    label = legend.replace("{stage}", series["metric"].get("stage", ""))
                    ax.plot(xs, ys, label=label)
            ax.set_title(title, fontsize=10)
            ax.legend(fontsize=7, loc="upper right", ncol=2)
            ax.grid(alpha=0.3)
        axes[-1].set_xlabel("seconds (a full-speed run, then one with a slow consumer)")
        fig.suptitle("pixflow run --metrics, scraped by Prometheus every 1 s")
        fig.tight_layout()
        fig.savefig(out, dpi=80)
        print(f"wrote {out} ({t1 - t0:.0f} s of metrics)")
    finally:
        os.kill(prom.pid, signal.SIGTERM)
        prom.wait(15)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
