"""Shared by the metrics tests (tests/metrics/*.py): a small PPM dataset,
starting `pixflow run --metrics 127.0.0.1:0` and reading the port it
printed, scraping, and the skip policy (tests/skip_policy.h: a missing tool
is a failure under CI=true)."""
import os
import random
import re
import subprocess
import sys
import time
import urllib.request

SKIP = 77


def in_ci():
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def skip(test, why):
    if in_ci():
        print(f"{test}: FAILED: CI=true and {why} (a skip is a failure in CI)")
        return 1
    print(f"{test}: SKIPPED: {why}")
    return SKIP


def make_dataset(root, n=24, classes=2, broken=1):
    """root/c<k>/i<n>.ppm, plus `broken` files that do not decode."""
    rnd = random.Random(7)
    for k in range(classes):
        os.makedirs(os.path.join(root, f"c{k}"), exist_ok=True)
    for i in range(n):
        w, h = 32 + (i * 7) % 40, 32 + (i * 11) % 30
        body = bytes(rnd.getrandbits(8) for _ in range(w * h * 3))
        with open(os.path.join(root, f"c{i % classes}", f"i{i:03d}.ppm"), "wb") as f:
            f.write(b"P6\n%d %d\n255\n" % (w, h) + body)
    for j in range(broken):
        with open(os.path.join(root, "c0", f"broken{j}.ppm"), "wb") as f:
            f.write(b"not an image")
    return n, broken


class Run:
    """A `pixflow run ... --metrics ADDR` child (default 127.0.0.1:0: a free
    port); .url once it listens."""

    def __init__(self, pixflow, args, timeout=20.0, addr="127.0.0.1:0"):
        self.proc = subprocess.Popen([pixflow, "run", *args, "--metrics", addr, "--quiet"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = None
        self.stderr_head = ""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                break
            self.stderr_head += line
            m = re.search(r"metrics: (http://\S+/metrics)", line)
            if m:
                self.url = m.group(1)
                break
        if self.url is None:
            self.proc.kill()
            self.proc.wait(10)

    def finish(self, timeout=60.0):
        """(rc, stdout, stderr) or raises subprocess.TimeoutExpired (after killing it)."""
        try:
            out, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.communicate()
            raise
        return self.proc.returncode, out, self.stderr_head + err


def scrape(url, timeout=5.0):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.status, r.headers.get("Content-Type", ""), r.read().decode()


def value(text, prefix):
    for line in text.splitlines():
        if line.startswith(prefix + " "):
            return float(line.split()[-1])
    return None


def final_samples(stdout):
    m = re.search(r"batches (\d+), samples (\d+), skipped (\d+)", stdout)
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


def built_without_server(pixflow):
    r = subprocess.run([pixflow, "run", "/nonexistent", "--metrics", "127.0.0.1:0"], capture_output=True, text=True,
                       timeout=30)
    return "built without libmicrohttpd" in r.stderr


if __name__ == "__main__":
    sys.exit("a module, not a test")
