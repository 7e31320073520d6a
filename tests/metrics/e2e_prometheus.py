"""End to end: a real Prometheus server (Debian's, loopback only, its own
temp dir and port, stopped by PID, every wait bounded) scrapes a running
`pixflow run --metrics` every second for ~10 s. Then its HTTP API must give
pixflow_samples_total equal to the run's final count, and the injected
stall (--consumer-delay-ms: a slow consumer, --prefetch 10 buffers) must
have fired PixflowBacklog from deploy/prometheus/pixflow.rules.yml (loaded
with its `for:` shortened to 0s so 10 s suffice; the expression is the
file's own). Every query of deploy/grafana/pixflow.json must run, and
have data unless it is about pools or video. Usage: e2e_prometheus.py SOURCE_DIR PIXFLOW WORKDIR"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics_common as mc  # noqa: E402


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def query(base, q):
    url = base + "/api/v1/query?" + urllib.parse.urlencode({"query": q})
    with urllib.request.urlopen(url, timeout=5) as r:
        body = json.load(r)
    assert body["status"] == "success", body
    return body["data"]["result"]


def stop(proc):
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)


def main():
    src, pixflow, work = sys.argv[1:4]
    prom_bin = shutil.which("prometheus")
    if prom_bin is None:
        return mc.skip("metrics_e2e", "the prometheus server is missing (Debian package prometheus)")
    if mc.built_without_server(pixflow):
        return mc.skip("metrics_e2e", "pixflow was built without libmicrohttpd")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    ds = os.path.join(work, "ds")
    n, broken = mc.make_dataset(ds)
    epochs = 48
    target = f"127.0.0.1:{free_port()}"  # Prometheus starts first, so it sees the run from its start
    with open(os.path.join(src, "deploy/prometheus/pixflow.rules.yml")) as f:
        rules = re.sub(r"for: \d+m", "for: 0s", f.read())
    with open(os.path.join(work, "rules.yml"), "w") as f:
        f.write(rules)
    with open(os.path.join(work, "prometheus.yml"), "w") as f:
        f.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                "rule_files: [rules.yml]\n"
                f"scrape_configs:\n  - job_name: pixflow\n    static_configs:\n      - targets: ['{target}']\n")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(os.path.join(work, "prometheus.log"), "w")
    prom = subprocess.Popen([prom_bin, f"--config.file={work}/prometheus.yml", f"--storage.tsdb.path={work}/tsdb",
                             f"--web.listen-address=127.0.0.1:{port}", "--storage.tsdb.retention.time=1h"],
                            stdout=log, stderr=subprocess.STDOUT, cwd=work)
    fails = []
    run = None
    try:
        deadline = time.monotonic() + 30
        ready = False
        while time.monotonic() < deadline and prom.poll() is None:
            try:
                with urllib.request.urlopen(base + "/-/ready", timeout=2) as r:
                    ready = r.status == 200
            except OSError:
                pass
            if ready:
                break
            time.sleep(0.25)
        if not ready:
            fails.append("Prometheus did not become ready in 30 s (see prometheus.log)")
            return 1
        run = mc.Run(pixflow, [ds, "--recipe", "imagenet-eval", "--batch", "4", "--workers", "2", "--epochs",
                               str(epochs), "--prefetch", "10", "--consumer-delay-ms", "40", "--metrics-linger", "3"],
                     addr=target)
        if run.url is None:
            fails.append(f"pixflow run --metrics {target} did not listen: {run.stderr_head}")
            return 1
        rc, out, err = run.finish(90)
        fin = mc.final_samples(out)
        if rc != 0 or fin is None:
            fails.append(f"pixflow run: exit {rc}, no final counts: {err[-300:]}")
            return 1
        if fin[1] != epochs * n:
            fails.append(f"the run delivered {fin[1]} samples, want {epochs * n}")
        # the last scrape (during the linger) is in: ask for the newest value.
        # last_over_time, not the bare series: once pixflow has exited, the
        # next failed scrape writes staleness markers and an instant query of
        # the bare series then returns nothing (CI hit that race once)
        got = query(base, 'last_over_time(pixflow_samples_total{job="pixflow"}[5m])')
        val = float(got[0]["value"][1]) if got else None
        if val != fin[1]:
            fails.append(f"Prometheus has pixflow_samples_total {val}, the run's final count is {fin[1]}")
        scrapes = query(base, 'count_over_time(up{job="pixflow"}[5m])')
        nscrapes = float(scrapes[0]["value"][1]) if scrapes else 0
        if nscrapes < 8:
            fails.append(f"only {nscrapes} scrapes over the run")
        skipped = query(base, 'last_over_time(pixflow_skipped_samples_total{job="pixflow"}[5m])')
        if not skipped or float(skipped[0]["value"][1]) != fin[2]:
            fails.append(f"skipped samples {skipped} != {fin[2]}")
        backlog = query(base, 'max_over_time(pixflow_backlog_batches{job="pixflow"}[5m])')
        if not backlog or float(backlog[0]["value"][1]) <= 5:
            fails.append(f"the slow consumer did not back up more than 5 batches: {backlog}")
        fired = query(base, 'max_over_time(ALERTS{alertname="PixflowBacklog",alertstate="firing"}[5m])')
        if not fired:
            fails.append("PixflowBacklog never fired under the injected stall")
        hist = query(base, 'sum(last_over_time(pixflow_stage_latency_seconds_count{job="pixflow",stage="decode_augment"}[5m]))')
        if not hist or float(hist[0]["value"][1]) != epochs * (n + broken):
            fails.append(f"decode_augment histogram count {hist}, want {epochs * (n + broken)}")
        # every query of the Grafana dashboard is valid PromQL and, except
        # pools and video (a CPU folder run has neither), has data
        with open(os.path.join(src, "deploy/grafana/pixflow.json")) as f:
            dash = json.load(f)
        nq = 0
        for p in dash["panels"]:
            for t in p["targets"]:
                q = t["expr"].replace("$__rate_interval", "5s").replace("$job", ".*").replace("$instance", ".*")
                nq += 1
                try:
                    res = query(base, f"max_over_time(({q})[1m:1s])")
                except (OSError, AssertionError) as e:
                    fails.append(f"dashboard panel {p['title']!r}: {q}: {e}")
                    continue
                if not res and "pool" not in q and "video" not in q:
                    fails.append(f"dashboard panel {p['title']!r}: no data for {q}")
        print(f"metrics_e2e: {nscrapes:.0f} scrapes, samples {val} == {fin[1]}, "
              f"max backlog {backlog[0]['value'][1] if backlog else '?'}, PixflowBacklog fired: {bool(fired)}, {nq} dashboard queries")
    finally:
        stop(prom)
        log.close()
        if run is not None and run.proc.poll() is None:
            run.proc.kill()
            run.proc.wait(10)
        for f in fails:
            print("FAIL:", f)
    print(f"metrics_e2e: {'FAILED' if fails else 'passed'}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
