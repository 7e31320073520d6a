"""`pixflow run --metrics`: the endpoint serves the exposition while the
run goes on and its last values equal the run's final counts; 404/405 for
other paths and methods; a port in use and a bad address are errors naming
the address; scrapes hammering the server while the run shuts down neither
crash it nor hang it. Usage: cli_metrics.py PIXFLOW WORKDIR"""
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics_common as mc  # noqa: E402

fails = 0
passes = 0


def check(cond, what):
    global fails, passes
    if cond:
        passes += 1
    else:
        fails += 1
        print("FAIL:", what)


def main():
    pixflow, work = sys.argv[1], sys.argv[2]
    if mc.built_without_server(pixflow):
        return mc.skip("metrics_cli", "pixflow was built without libmicrohttpd")
    shutil.rmtree(work, ignore_errors=True)
    ds = os.path.join(work, "ds")
    n, broken = mc.make_dataset(ds)
    base = [ds, "--recipe", "imagenet-eval", "--batch", "4", "--workers", "2"]

    # 1. live values, then the final ones during the linger
    run = mc.Run(pixflow, base + ["--epochs", "6", "--consumer-delay-ms", "30", "--metrics-linger", "2"])
    check(run.url is not None and run.url.startswith("http://127.0.0.1:"), f"listens on loopback: {run.stderr_head}")
    if run.url is None:
        return 1
    status, ctype, text = mc.scrape(run.url)
    check(status == 200 and ctype.startswith("text/plain; version=0.0.4"), f"200 text/plain 0.0.4, got {status} {ctype}")
    check(mc.value(text, 'pixflow_samples_total{device="cpu"}') is not None, "pixflow_samples_total is there")
    try:
        urllib.request.urlopen(run.url.replace("/metrics", "/other"), timeout=5)
        check(False, "/other must be 404")
    except urllib.error.HTTPError as e:
        check(e.code == 404, f"/other: 404, got {e.code}")
    try:
        urllib.request.urlopen(urllib.request.Request(run.url, data=b"x", method="POST"), timeout=5)
        check(False, "POST must be 405")
    except urllib.error.HTTPError as e:
        check(e.code == 405, f"POST: 405, got {e.code}")
    # wait for the run's end (the stage table on stdout comes at the end, so poll the counter)
    last = None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and run.proc.poll() is None:
        try:
            _, _, text = mc.scrape(run.url, timeout=2)
            last = text
        except (urllib.error.URLError, ConnectionError, OSError):
            break
        if mc.value(text, "pixflow_batches_total{device=\"cpu\"}") == 6 * ((n + broken) // 4 + ((n + broken) % 4 > 0)) or \
                mc.value(text, 'pixflow_samples_total{device="cpu"}') == 6 * n:
            break
        time.sleep(0.2)
    rc, out, err = run.finish(60)
    check(rc == 0, f"run exit 0, got {rc}: {err[-500:]}")
    fin = mc.final_samples(out)
    check(fin is not None and fin[1] == 6 * n, f"final samples {fin}")
    check(last is not None and mc.value(last, 'pixflow_samples_total{device="cpu"}') == fin[1],
          "the last scrape's samples equal the run's final count")
    check(mc.value(last, 'pixflow_skipped_samples_total{device="cpu"}') == fin[2] == 6 * broken,
          "skipped files counted")

    # 1b. --devices: the pipeline's dispatcher is in the same scrape (one CPU device here, so
    # every build runs it: its share is 1 and its samples are the run's)
    run = mc.Run(pixflow, base + ["--epochs", "2", "--devices", "cpu", "--metrics-linger", "2"])
    check(run.url is not None, f"--devices run listens: {run.stderr_head}")
    last = None
    deadline = time.monotonic() + 60
    while run.url and time.monotonic() < deadline and run.proc.poll() is None:
        try:
            _, _, last = mc.scrape(run.url, timeout=2)
        except (urllib.error.URLError, ConnectionError, OSError):
            break
        if mc.value(last, 'pixflow_samples_total{device="cpu"}') == 2 * n:
            break
        time.sleep(0.2)
    rc, out, err = run.finish(60)
    check(rc == 0, f"--devices run exit 0, got {rc}: {err[-500:]}")
    check(last is not None and mc.value(last, 'pixflow_dispatch_samples_total{device="cpu"}') == 2 * n,
          "the dispatcher's samples on cpu equal the run's")
    check(last is not None and mc.value(last, 'pixflow_dispatch_share_ratio{device="cpu"}') == 1,
          "a one-device dispatcher's share is 1")

    # 2. a port in use: an error naming the address
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    addr = f"127.0.0.1:{s.getsockname()[1]}"
    r = subprocess.run([pixflow, "run", ds, "--metrics", addr, "--quiet"], capture_output=True, text=True, timeout=60)
    s.close()
    check(r.returncode == 1 and addr in r.stderr and "in use" in r.stderr, f"port in use: {r.returncode} {r.stderr}")
    for bad in ("127.0.0.1:99999", "::1:80", "127.0.0.1:", ":9464"):
        r = subprocess.run([pixflow, "run", ds, "--metrics", bad], capture_output=True, text=True, timeout=60)
        check(r.returncode == 2 and f"--metrics {bad}" in r.stderr, f"bad address {bad}: {r.returncode} {r.stderr}")

    # 3. scrapes during shutdown: 4 threads scrape without pause until the
    # process is gone; it must exit 0 in bounded time. The linger keeps the
    # server up for a second after the run, so some scrapes are answered
    # however fast the run itself went (on a loaded machine the threads
    # may first connect after the last batch), and the shutdown that
    # follows still happens under the hammering.
    run = mc.Run(pixflow, base + ["--epochs", "3", "--metrics-linger", "1"])
    check(run.url is not None, "second run listens")
    stop = threading.Event()
    counts = [0] * 4

    def hammer(k):
        while not stop.is_set():
            try:
                mc.scrape(run.url, timeout=2)
                counts[k] += 1
            except (urllib.error.URLError, ConnectionError, OSError, ValueError):
                pass

    threads = [threading.Thread(target=hammer, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    try:
        rc, out, err = run.finish(60)
        check(rc == 0, f"exit 0 under scrapes, got {rc}: {err[-300:]}")
    except subprocess.TimeoutExpired:
        check(False, "the run hung under scrapes during shutdown")
    stop.set()
    for t in threads:
        t.join(10)
    check(sum(counts) > 0, f"some scrapes were answered ({sum(counts)})")
    print(f"metrics_cli: {passes} passed, {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
