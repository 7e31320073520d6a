"""Ray fault tolerance on one machine: a loopback 2-node cluster (tests/python/ray_cluster.py),
the second node's raylet killed mid-epoch; every sample_id exactly once, and every sample's
bytes hash equal to a single-node run's. The run (ray_fault_run.py) goes in a child process
inside a private network + PID namespace when unshare allows it (then Ray's wildcard gRPC
listeners reach loopback only, and the kernel ends whatever the run leaves), bounded by a
timeout, and the cluster is ended by PID inside it in any case.

The kill lands mid-epoch by construction, not by timing: the read tasks of the second half
of the sample ids wait at a gate (a file the run's driver creates), and the raylet is killed
once a batch is in and one of those held reads runs on the second node; then the gate opens.
240 samples in 24 blocks.

Default: 1 repetition with Ray's own recovery, plus 2 with it switched off (no task retries,
no object reconstruction, no actor restarts), where the held read on the dead node fails
for good, the iterator raises, and pixflow.ray.iter_torch_batches must resume over the
missing sample ids: every one of them must have resumed (attempts >= 2).
PIXFLOW_RAY_STRESS=1: the stress variant, 20 (+4 without Ray's recovery); without it that
test is deselected (marker `stress`, tests/python/conftest.py), not skipped.

The child gets a fake HOME holding a stray ~/.ray/auth_token (what Ray 2.60 leaves after any
local ray.init(); a `ray start --head` that finds one turns token auth on, and the cluster's
second node and driver then fail with InvalidAuthToken): the run must pass anyway, and
leave that HOME as it was (the run's driver and nodes use their own HOME, token auth off)."""
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
COPIES = 20  # each sample photo this many times: 12 photos -> 240 samples


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


def home_files(home):
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*")) if not p.is_dir()}


def run_fault(tmp_path, reps, no_retry, timeout):
    lst = tmp_path / "list.txt"
    photos = photo_paths()
    lst.write_text("".join(f"{p} {k}\n" for k in range(COPIES) for p in photos))
    # the user's HOME as the child sees it, with a stray token in it
    home = tmp_path / "home"
    (home / ".ray").mkdir(parents=True)
    (home / ".ray" / "auth_token").write_text("a-stray-token-from-an-earlier-ray-init")
    before = home_files(home)
    out = tmp_path / "fault.json"
    cmd = isolated_prefix() + [sys.executable, str(HERE / "ray_fault_run.py"), str(lst), str(out),
                               "--reps", str(reps), "--no-retry-reps", str(no_retry)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, start_new_session=True,
                       env=dict(os.environ, HOME=str(home)))
    assert out.exists(), f"the fault run wrote no result (exit {p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-6000:]}"
    r = json.loads(out.read_text())
    r["isolated"] = bool(cmd[0] != sys.executable)
    assert p.returncode == 0, f"exit {p.returncode}:\n{p.stderr[-6000:]}"
    assert home_files(home) == before, "the run wrote into the HOME it was given"
    return r, len(photos) * COPIES


def check(r, n, reps, no_retry):
    assert r["n"] == n
    assert r["single_node"] == {**r["single_node"], "count": n, "unique": n}
    assert len(r["ref"]) == n
    assert [rep["no_retry"] for rep in r["reps"]] == [False] * reps + [True] * no_retry
    for k, rep in enumerate(r["reps"]):
        killed = rep["killed"]
        assert killed.get("raylet") and "error" not in killed, f"rep {k}: the raylet was not killed: {killed}"
        # the gate held the second half's reads, one of them on the killed node
        assert killed["held_on_worker"] >= 1 and killed["delivered"] <= n // 2, f"rep {k}: {killed}"
        assert rep["ids_ok"] and rep["count"] == n and rep["unique"] == n, rep
        assert rep["bytes_equal"] == n, rep
        if rep["no_retry"]:
            # Ray's recovery off: the held read died with its node, so the iterator must
            # have raised and pixflow must have resumed over the missing ids
            assert rep["attempts"] >= 2 and rep["errors"], f"rep {k}: no resume without Ray's recovery: {rep}"
    assert r["left"] == [], f"cluster processes left running: {r['left']}"


def summary(r):
    return (f"fault run: {r['s']:.1f} s, isolated={r['isolated']}, attempts {[x['attempts'] for x in r['reps']]}, "
            f"duplicates {[x['duplicates'] for x in r['reps']]}, "
            f"delivered at the kill {[x['killed'].get('delivered') for x in r['reps']]} of {r['n']}")


def test_raylet_kill_exactly_once(tmp_path):
    r, n = run_fault(tmp_path, reps=1, no_retry=2, timeout=600)
    check(r, n, 1, 2)
    print(summary(r))


@pytest.mark.stress
def test_raylet_kill_exactly_once_stress(tmp_path):
    r, n = run_fault(tmp_path, reps=20, no_retry=4, timeout=3000)
    check(r, n, 20, 4)
    print(summary(r))
