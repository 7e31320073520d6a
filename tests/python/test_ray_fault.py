"""Ray fault tolerance on one machine: a loopback 2-node cluster (tests/python/ray_cluster.py),
the second node's raylet killed mid-epoch; every sample_id exactly once, and every sample's
bytes hash equal to a single-node run's. The run (ray_fault_run.py) goes in a child process
inside a private network + PID namespace when unshare allows it (then Ray's wildcard gRPC
listeners reach loopback only, and the kernel ends whatever the run leaves), bounded by a
timeout, and the cluster is ended by PID inside it in any case.

Default: 2 repetitions, plus one with Ray's own recovery switched off (no task retries, no
object reconstruction, no actor restarts), where the node's death reaches the iterator as an
error and pixflow.ray.iter_torch_batches must resume over the missing sample ids.
PIXFLOW_RAY_STRESS=1: the stress variant, 20 (+2 without Ray's recovery), outside the default run."""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("ray")

from conftest import photo_paths  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent


def isolated_prefix():
    """`unshare` into new net + PID namespaces with lo up, or [] where that is not allowed."""
    un = shutil.which("unshare")
    if un is None or shutil.which("ip") is None:
        return []
    probe = [un, "--net", "--pid", "--fork", "--mount-proc", "sh", "-c", "ip link set lo up"]
    try:
        if subprocess.run(probe, capture_output=True, timeout=20).returncode != 0:
            return []
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [un, "--net", "--pid", "--fork", "--mount-proc", "--kill-child", "sh", "-c",
            'ip link set lo up && exec "$@"', "sh"]


def run_fault(tmp_path, reps, no_retry, timeout):
    lst = tmp_path / "list.txt"
    photos = photo_paths()
    lst.write_text("".join(f"{p} {k}\n" for k in range(4) for p in photos))
    out = tmp_path / "fault.json"
    cmd = isolated_prefix() + [sys.executable, str(HERE / "ray_fault_run.py"), str(lst), str(out),
                               "--reps", str(reps), "--no-retry-reps", str(no_retry)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, start_new_session=True)
    assert out.exists(), f"the fault run wrote no result (exit {p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-6000:]}"
    r = json.loads(out.read_text())
    r["isolated"] = bool(cmd[0] != sys.executable)
    assert p.returncode == 0, f"exit {p.returncode}:\n{p.stderr[-6000:]}"
    return r, len(photos) * 4


def check(r, n, reps, no_retry):
    assert r["n"] == n
    assert r["single_node"] == {**r["single_node"], "count": n, "unique": n}
    assert len(r["ref"]) == n
    assert len(r["reps"]) == reps + no_retry
    # Ray's recovery off: the kill must break the iterator so that pixflow's resume path
    # runs. A kill can land after every block is already out (nothing to resume: CI saw
    # it), so there are several such repetitions and at least one must have resumed;
    # every one of them must still deliver exactly once (checked below).
    assert all(rep["no_retry"] for rep in r["reps"][reps:])
    resumed = [rep for rep in r["reps"][reps:] if rep["attempts"] >= 2 and rep["errors"]]
    assert resumed, f"no repetition without Ray's recovery broke the iterator: {r['reps'][reps:]}"
    for k, rep in enumerate(r["reps"]):
        assert rep["killed"].get("raylet"), f"rep {k}: the raylet was not killed"
        assert rep["killed"]["after_batch"] < -(-n // 4), f"rep {k}: killed after the epoch"
        assert rep["ids_ok"] and rep["count"] == n and rep["unique"] == n, rep
        assert rep["bytes_equal"] == n, rep
    assert r["left"] == [], f"cluster processes left running: {r['left']}"


def test_raylet_kill_exactly_once(tmp_path):
    r, n = run_fault(tmp_path, reps=2, no_retry=4, timeout=600)
    check(r, n, 2, 4)
    print(f"fault run: {r['s']:.1f} s, isolated={r['isolated']}, "
          f"attempts {[x['attempts'] for x in r['reps']]}, duplicates {[x['duplicates'] for x in r['reps']]}")


@pytest.mark.skipif(os.environ.get("PIXFLOW_RAY_STRESS") != "1", reason="stress: set PIXFLOW_RAY_STRESS=1 (20 repetitions)")
def test_raylet_kill_exactly_once_stress(tmp_path):
    r, n = run_fault(tmp_path, reps=20, no_retry=4, timeout=3000)
    check(r, n, 20, 4)
