"""CPU time one /metrics scrape costs the pixflow process (docs/observability.md):
an idle `pixflow run --metrics` (its consumer sleeps, so the pipeline is
parked on full queues) is scraped N times back to back; the process's
utime+stime delta over N is the cost of one scrape, and at one scrape a
second that over 1 s is the fraction of one core serving takes. This
resolves what an A/B of throughput on a noisy machine cannot.
  python3 bench/metrics_scrape_cpu.py PIXFLOW SOURCE [N]"""
import os
import re
import subprocess
import sys
import time
import urllib.request


def cpu_s(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    cli, src = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 3000
    p = subprocess.Popen([cli, "run", src, "--quiet", "--epochs", "1000", "--consumer-delay-ms", "60000",
                          "--metrics", "127.0.0.1:0"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = None
    for _ in range(50):
        m = re.search(r"(http://\S+/metrics)", p.stderr.readline())
        if m:
            url = m.group(1)
            break
    try:
        time.sleep(2)  # let the pipeline fill its queues and park
        size = len(urllib.request.urlopen(url, timeout=5).read())
        c0, t0 = cpu_s(p.pid), time.monotonic()
        for _ in range(n):
            urllib.request.urlopen(url, timeout=5).read()
        c1, t1 = cpu_s(p.pid), time.monotonic()
        idle0 = cpu_s(p.pid)
        time.sleep(t1 - t0)
        idle = cpu_s(p.pid) - idle0  # the parked process's own CPU over as long
        per = max(c1 - c0 - idle, 0.0) / n
        print(f"{n} scrapes of {size} bytes in {t1 - t0:.2f} s wall; process CPU {c1 - c0:.3f} s "
              f"(idle baseline {idle:.3f} s): {per * 1e6:.0f} us CPU per scrape = {per * 100:.4f}% of one core "
              f"at one scrape per second")
    finally:
        p.kill()
        p.wait(10)


if __name__ == "__main__":
    main()
