"""A Ray cluster made of processes on this machine, for the tests and the benchmarks.

Each node is Ray's own ``ray start --block``, in a session of its own, with
ports chosen free and its files in a temporary folder, so it clashes with no
other cluster on the machine. Stopping ends exactly the processes it started
(``ray stop`` would end every Ray on the machine).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

START_TIMEOUT_S = 90.0


def free_ports(count: int) -> list[int]:
    """``count`` distinct TCP ports that nothing listens on just now."""
    sockets = []
    try:
        for _ in range(count):
            sock = socket.socket()
            sock.bind(("127.0.0.1", 0))
            sockets.append(sock)
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def ray_command() -> str:
    """The ``ray`` command of this Python's environment."""
    beside = Path(sys.executable).parent / "ray"
    found = str(beside) if beside.exists() else shutil.which("ray")
    if found is None:
        raise RuntimeError("the 'ray' command is not installed: pip install 'gridgames[cluster]'")
    return found


class LocalNode:
    """One ``ray start --block`` process and everything it started (its process group)."""

    def __init__(self, argv: list[str], log_path: Path) -> None:
        self.log_path = log_path
        env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
        with open(log_path, "wb") as log:
            self.process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, env=env,
                                            start_new_session=True)
        self.group = self.process.pid  # start_new_session: the group is the leader's pid

    def wait_started(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            text = self.log_path.read_text(errors="replace")
            if "Ray runtime started" in text:
                return
            if self.process.poll() is not None:
                raise RuntimeError(f"ray start failed:\n{text[-3000:]}")
            time.sleep(0.2)
        raise RuntimeError(f"ray start did not finish in {START_TIMEOUT_S:g} s")

    def processes(self) -> list[tuple[int, str]]:
        """(pid, command line) of the live processes of this node: the ``ray start``
        process and all its descendants (Ray's workers start sessions of their own, so
        the process group is not enough)."""
        table: dict[int, tuple[int, str]] = {}  # pid: (parent pid, command line)
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(
                    errors="replace")
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            table[int(entry.name)] = (parent, command)
        found = {self.process.pid} if self.process.pid in table else set()
        grew = True
        while grew:
            grew = False
            for pid, (parent, _) in table.items():
                if parent in found and pid not in found:
                    found.add(pid)
                    grew = True
        return [(pid, table[pid][1]) for pid in sorted(found)]

    def _kill_all(self, pids: list[int]) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.group, signal.SIGKILL)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)

    def kill(self) -> None:
        """End the node and everything it runs at once, as a machine that disappears."""
        self._kill_all([pid for pid, _ in self.processes()])
        self.process.wait()

    def stop(self) -> None:
        """Stop the node (Ray drains it on SIGTERM), then kill whatever is left of it."""
        left = [pid for pid, _ in self.processes() if pid != self.process.pid]
        if self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=40)
        self._kill_all([pid for pid in left if _alive(pid)])
        self.process.wait()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


class LocalCluster:
    """A head node and any number of worker nodes on this machine::

        with LocalCluster(cpus=2) as cluster:
            count_solutions(12, cluster=cluster.address)  # 14200
    """

    def __init__(self, cpus: int = 2, *, temp_dir: Path | None = None) -> None:
        self.cpus = cpus
        # Ray's socket paths must stay short: a folder right under /tmp, not pytest's.
        self._own_temp = temp_dir is None
        self.temp_dir = Path(temp_dir or tempfile.mkdtemp(prefix="gg-ray-", dir="/tmp"))
        self.nodes: list[LocalNode] = []
        self.port = 0

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def _node_ports(self) -> list[str]:
        node_manager, object_manager, agent_listen, agent_grpc, runtime_env, metrics = (
            free_ports(6))
        return ["--node-manager-port", str(node_manager),
                "--object-manager-port", str(object_manager),
                "--dashboard-agent-listen-port", str(agent_listen),
                "--dashboard-agent-grpc-port", str(agent_grpc),
                "--runtime-env-agent-port", str(runtime_env),
                "--metrics-export-port", str(metrics)]

    def start(self) -> LocalCluster:
        self.port, dashboard = free_ports(2)
        argv = [ray_command(), "start", "--head", "--block", "--disable-usage-stats",
                "--num-cpus", str(self.cpus), "--port", str(self.port),
                "--include-dashboard", "false", "--dashboard-port", str(dashboard),
                "--temp-dir", str(self.temp_dir), *self._node_ports()]
        self._launch(argv, "head")
        return self

    def add_node(self, cpus: int) -> LocalNode:
        """Start a worker node that joins the head."""
        argv = [ray_command(), "start", "--address", self.address, "--block",
                "--disable-usage-stats", "--num-cpus", str(cpus), *self._node_ports()]
        return self._launch(argv, f"node{len(self.nodes)}")

    def _launch(self, argv: list[str], name: str) -> LocalNode:
        node = LocalNode(argv, self.temp_dir / f"{name}.log")
        self.nodes.append(node)
        node.wait_started()
        return node

    def stop(self) -> None:
        """Stop every node, workers first, then the head; remove the temporary folder."""
        for node in reversed(self.nodes):
            node.stop()
        self.nodes.clear()
        if self._own_temp:
            shutil.rmtree(self.temp_dir, ignore_errors=True)

    def __enter__(self) -> LocalCluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()
