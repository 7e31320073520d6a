"""promtool on pixflow's observability files: `check rules` and `test rules`
(tests/metrics/pixflow.rules.test.yml) on deploy/prometheus/pixflow.rules.yml,
and `check metrics` (the exposition linter) on a live scrape of `pixflow run
--metrics` and on the pool + pipeline text test_metrics writes.
Usage: promtool_checks.py SOURCE_DIR PIXFLOW TEST_METRICS WORKDIR"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics_common as mc  # noqa: E402


def main():
    src, pixflow, test_metrics, work = sys.argv[1:5]
    promtool = shutil.which("promtool")
    if promtool is None:
        return mc.skip("metrics_promtool", "promtool is missing (Debian package prometheus; scripts/install_deps.sh)")
    if mc.built_without_server(pixflow):
        return mc.skip("metrics_promtool", "pixflow was built without libmicrohttpd")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    fails = []

    def run(args, stdin=None, what=""):
        r = subprocess.run(args, input=stdin, capture_output=True, text=True, timeout=60, cwd=src)
        if r.returncode != 0:
            fails.append(f"{what or ' '.join(args)}: exit {r.returncode}\n{r.stdout}{r.stderr}")
        return r

    run([promtool, "check", "rules", "deploy/prometheus/pixflow.rules.yml"])
    r = run([promtool, "test", "rules", "tests/metrics/pixflow.rules.test.yml"])
    if "SUCCESS" not in r.stdout + r.stderr:
        fails.append("promtool test rules did not say SUCCESS")

    dump = os.path.join(work, "pool.txt")
    run([test_metrics, dump], what="test_metrics")
    with open(dump) as f:
        pool_text = f.read()
    run([promtool, "check", "metrics"], stdin=pool_text, what="check metrics (pool + pipeline)")

    ds = os.path.join(work, "ds")
    mc.make_dataset(ds)
    live = mc.Run(pixflow, [ds, "--recipe", "imagenet-eval", "--batch", "4", "--workers", "2", "--epochs", "2",
                            "--metrics-linger", "2"])
    if live.url is None:
        fails.append(f"pixflow run --metrics did not listen: {live.stderr_head}")
    else:
        _, _, text = mc.scrape(live.url)
        if "pixflow_stage_latency_seconds_bucket" not in text:
            fails.append("the live exposition has no histogram")
        run([promtool, "check", "metrics"], stdin=text, what="check metrics (live scrape)")
        rc, _, err = live.finish(60)
        if rc != 0:
            fails.append(f"pixflow run exit {rc}: {err[-300:]}")
    for f in fails:
        print("FAIL:", f)
    print(f"metrics_promtool: {6 - len(fails)} checks passed, {len(fails)} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
