"""A Ray cluster of 1..n nodes on loopback, for tests and bench/ (not part of pixflow: we
start Ray's own `ray start`, we never manage a cluster ourselves).

Every address is 127.0.0.1 (ray.cluster_utils.Cluster may bind the host's
address), every node has explicit ports picked free on loopback, the cluster
has its own --temp-dir, every wait is bounded, and stop() ends exactly the
processes this cluster started: `ray start --block` runs each node in a new
session, and a node's processes are the ones in that session plus any whose
command line names this cluster's temp dir (Ray's daemons and workers all
do). SIGTERM first, SIGKILL for what survives it (head processes can).

Nothing of the user's Ray state is read or written (private_env below): the
nodes run with their own HOME under the cluster's temp dir, token auth off
and none of the caller's RAY_* variables.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

RAY = os.path.join(os.path.dirname(sys.executable), "ray")
# A loopback address that Ray keeps: it rewrites "127.0.0.1" and "localhost"
# to the host's routable address (ray._private.services.resolve_ip_for_localhost),
# so the cluster lives on 127.0.0.2 (127.0.0.0/8 is all loopback on Linux).
IP = "127.0.0.2"


def private_env(root, env=None):
    """A copy of env (default os.environ) for Ray processes that must not see the user's Ray
    state: HOME is root/home (created, empty), none of env's RAY_* variables gets through
    (RAY_ADDRESS, RAY_AUTH_TOKEN, ...), token auth is off and its token path points into that
    home, where there is none. Why: Ray 2.60 leaves ~/.ray/auth_token after any local
    ray.init(); `ray start --head` finding one switches token auth on, and the nodes joining
    it and a driver given its address then fail ("InvalidAuthToken"). These clusters listen
    on loopback only and belong to one run, so they need no token."""
    home = os.path.join(root, "home")
    os.makedirs(home, exist_ok=True)
    out = {k: v for k, v in (os.environ if env is None else env).items() if not k.startswith("RAY_")}
    out.update(HOME=home, RAY_AUTH_MODE="disabled", RAY_AUTH_TOKEN_PATH=os.path.join(home, ".ray", "auth_token"))
    return out


def free_port():
    with socket.socket() as s:
        s.bind((IP, 0))
        return s.getsockname()[1]


def _procs():
    """{pid: (session id, cmdline)} of every process we can read."""
    out = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                stat = f.read()
            with open(f"/proc/{d}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        out[int(d)] = (int(fields[3]), cmd)  # fields[3]: session id
    return out


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _end(pids, grace=5.0):
    """SIGTERM, wait up to grace seconds, then SIGKILL what is left; returns the PIDs killed hard."""
    pids = [p for p in pids if p != os.getpid()]
    for p in pids:
        try:
            os.kill(p, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.1)
    hard = [p for p in pids if _alive(p)]
    for p in hard:
        try:
            os.kill(p, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return hard


class Node:
    def __init__(self, proc, ports, temp_dir, head):
        self.proc, self.ports, self.temp_dir, self.head = proc, ports, temp_dir, head

    def pids(self):
        """This node's live processes: its `ray start` session (Ray's daemons and workers
        start in it, or name their node-manager port on the command line)."""
        sid = self.proc.pid
        nm = f"--node_manager_port={self.ports['node_manager']}"
        return sorted(p for p, (s, cmd) in _procs().items()
                      if p != os.getpid() and _alive(p) and (s == sid or nm in cmd))

    def raylet_pid(self):
        nm = f"--node_manager_port={self.ports['node_manager']}"
        hits = [p for p, (_, cmd) in _procs().items() if "raylet" in cmd.split(" ", 1)[0] and nm in cmd]
        return hits[0] if hits else None


class LoopbackCluster:
    """with LoopbackCluster(num_cpus=3) as c: c.add_node(num_cpus=2); ray.init(address=c.address)"""

    def __init__(self, num_cpus=2, object_store_bytes=80_000_000, timeout=60):
        # short: Ray's unix socket paths live under it (108-byte limit)
        self.temp_dir = tempfile.mkdtemp(prefix="pfray-", dir="/tmp")
        self.timeout = timeout
        self.object_store = int(object_store_bytes)
        self.nodes = []
        self.port = free_port()
        self.address = f"{IP}:{self.port}"
        # a dead node is declared dead after ~1.5 s of failed health checks
        # (Ray's default is ~30 s), which keeps the fault tests short
        self.env = dict(private_env(self.temp_dir), RAY_USAGE_STATS_ENABLED="0", RAY_DISABLE_IMPORT_WARNING="1",
                        RAY_ACCEL_ENV_VAR_OVERRIDE_ON_ZERO="0", PYTHONUNBUFFERED="1",
                        RAY_health_check_initial_delay_ms="1000", RAY_health_check_period_ms="500",
                        RAY_health_check_timeout_ms="500", RAY_health_check_failure_threshold="3")
        try:
            self._start(num_cpus, head=True)
        except BaseException:
            self.stop()
            raise

    def _start(self, num_cpus, head, resources=None):
        ports = {k: free_port() for k in ("node_manager", "object_manager", "metrics", "agent_grpc",
                                          "agent_http", "runtime_env")}
        args = [RAY, "start", "--block", f"--node-ip-address={IP}", f"--num-cpus={num_cpus}", "--num-gpus=0",
                f"--object-store-memory={self.object_store}", f"--node-manager-port={ports['node_manager']}",
                f"--object-manager-port={ports['object_manager']}", f"--metrics-export-port={ports['metrics']}",
                f"--dashboard-agent-grpc-port={ports['agent_grpc']}",
                f"--dashboard-agent-listen-port={ports['agent_http']}",
                f"--runtime-env-agent-port={ports['runtime_env']}", "--disable-usage-stats"]
        if head:
            args += ["--head", f"--port={self.port}", "--include-dashboard=false", f"--temp-dir={self.temp_dir}"]
        else:
            args += [f"--address={self.address}"]
        if resources:
            args.append("--resources=" + json.dumps(resources))
        log = open(os.path.join(self.temp_dir, f"start-{len(self.nodes)}.log"), "wb")
        proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=self.env, start_new_session=True)
        log.close()
        node = Node(proc, ports, self.temp_dir, head)
        self.nodes.append(node)
        self._wait_up(node)
        return node

    def _wait_up(self, node):
        # up: `ray start` says so (it waits for its raylet to register with
        # the head's GCS) and the raylet process runs
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if node.proc.poll() is not None:
                raise RuntimeError(f"ray start exited {node.proc.returncode}: {self.start_log(node)}")
            if "Ray runtime started" in self.start_log(node) and node.raylet_pid() is not None:
                return
            time.sleep(0.2)
        raise TimeoutError(f"node on port {node.ports['node_manager']} not up in {self.timeout} s: "
                           f"{self.start_log(node)}")

    def start_log(self, node):
        i = self.nodes.index(node)
        try:
            with open(os.path.join(self.temp_dir, f"start-{i}.log"), errors="replace") as f:
                return f.read()[-3000:]
        except OSError:
            return ""

    def add_node(self, num_cpus=2, resources=None):
        return self._start(num_cpus, head=False, resources=resources)

    def kill_raylet(self, node):
        """SIGKILL of the node's raylet (a node failure as Ray sees one)."""
        pid = node.raylet_pid()
        if pid is None:
            raise RuntimeError("the node has no raylet running")
        os.kill(pid, signal.SIGKILL)
        return pid

    def stop_node(self, node):
        hard = _end(node.pids() + [node.proc.pid])
        for _ in range(5):
            left = node.pids()
            if not left:
                break
            hard += _end(left)
        return hard

    def pids(self):
        """Every live process of this cluster (all nodes, and anything naming its temp dir)."""
        sids = {n.proc.pid for n in self.nodes}
        nms = [f"--node_manager_port={n.ports['node_manager']}" for n in self.nodes]
        return sorted(p for p, (s, cmd) in _procs().items()
                      if p != os.getpid() and _alive(p) and (s in sids or self.temp_dir in cmd or any(m in cmd for m in nms)))

    def stop(self):
        """Ends exactly this cluster's processes (workers first, then the head) and removes its temp
        dir; returns the PIDs that needed SIGKILL."""
        hard = []
        for n in reversed(self.nodes):
            hard += _end(n.pids() + [n.proc.pid])
        # a raylet may have forked a worker while we were ending it: look again
        for _ in range(5):
            left = self.pids()
            if not left:
                break
            hard += _end(left)
        for n in self.nodes:
            try:
                n.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        shutil.rmtree(self.temp_dir, ignore_errors=True)
        return hard

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
