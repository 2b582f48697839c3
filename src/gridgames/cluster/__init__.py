"""Run match games and queens sub-counts as tasks on a Ray cluster.

This layer is optional (``pip install 'gridgames[cluster]'``) and is imported
only when a cluster is asked for, so the rest of gridgames never needs Ray.
It knows nothing of how a game is judged or a board counted: it ships the
work that :mod:`gridgames.gomoku.match` and :mod:`gridgames.queens` define
to Ray tasks and gathers the results.

A cluster is given by its address: ``HOST:PORT`` of the head node (what
``ray start --head`` prints; port 6379 unless chosen), or ``auto`` for the
cluster already running on this machine.

>>> check_address("auto"), check_address("10.0.0.5:6379")
('auto', '10.0.0.5:6379')
>>> check_address("10.0.0.5")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gridgames.cluster.ClusterError: a cluster address is HOST:PORT (...) or auto, not '10.0.0.5'
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

INSTALL_HINT = "pip install 'gridgames[cluster]'"
REACH_TIMEOUT_S = 5.0


class ClusterError(RuntimeError):
    """The cluster cannot do the work: Ray missing, an unreachable address, a node that lacks
    something. The message says what is wrong and what to do."""


class RayMissingError(ClusterError):
    """Ray is not installed."""


def require_ray() -> ModuleType:
    """The ``ray`` module, or :class:`RayMissingError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise RayMissingError(
            f"--cluster needs Ray, which is not installed: {INSTALL_HINT}"
        ) from None
    return ray


def check_address(address: str) -> str:
    """``address`` if it has the form of a cluster address (``auto`` or ``HOST:PORT``)."""
    text = address.strip()
    if text.lower() == "auto":
        return "auto"
    host, sep, port = text.rpartition(":")
    wrong = ClusterError(
        "a cluster address is HOST:PORT (the head node's address that 'ray start --head' "
        f"prints) or auto, not {address!r}"
    )
    if not sep or not host or not port.isdigit():
        raise wrong
    if not 1 <= int(port) <= 65535:
        raise ClusterError(f"the port of a cluster address is 1 to 65535, not {port}")
    return text


def _check_reachable(address: str) -> None:
    """Fail fast, with a plain message, where nothing listens (Ray itself waits a minute)."""
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_TIMEOUT_S):
            pass
    except OSError as error:
        reason = error.strerror or type(error).__name__
        if isinstance(error, TimeoutError | socket.timeout):
            reason = f"no answer within {REACH_TIMEOUT_S:g} s"
        raise ClusterError(
            f"cannot reach a Ray cluster at {address} ({reason}): start one with "
            "'ray start --head' and give the address it prints"
        ) from None


def package_runtime_env() -> dict[str, Any]:
    """A Ray runtime environment that sends this copy of gridgames to every node.

    For nodes where gridgames is not installed; each node then compiles the
    numba kernels once for the job (about a minute) before its first game.
    """
    import gridgames

    return {"py_modules": [str(Path(gridgames.__file__).parent)],
            "excludes": ["__pycache__", "*.pyc", "*.nbi", "*.nbc"]}


@contextmanager
def connect(address: str, *, ship_package: bool = False) -> Iterator[ModuleType]:
    """Connect this process to the Ray cluster at ``address`` for the ``with`` block.

    If the process is already connected (the caller ran ``ray.init``), that
    connection is used as it is and left open. With ``ship_package``, the
    tasks run the driver's copy of gridgames (see :func:`package_runtime_env`);
    otherwise each node runs the gridgames installed in its own environment.
    """
    ray = require_ray()
    if ray.is_initialized():
        yield ray
        return
    address = check_address(address)
    if address != "auto":
        _check_reachable(address)
    options: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False,
                               "configure_logging": True}
    if ship_package:
        options["runtime_env"] = package_runtime_env()
    try:
        ray.init(address=address, **options)
    except (ConnectionError, ValueError, RuntimeError, TimeoutError) as error:
        message = str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
        raise ClusterError(f"cannot connect to a Ray cluster at {address}: {message}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


@dataclass(frozen=True)
class NodeReport:
    """What one node of the cluster has: its host, gridgames, and the paths asked about."""

    node_id: str
    host: str
    gridgames_version: str | None  # None: gridgames cannot be imported there
    missing: tuple[str, ...]  # the paths asked about that the node lacks
    problem: str = ""  # why the node could not answer at all


def inspect_nodes(ray: ModuleType, paths: tuple[str, ...] = ()) -> list[NodeReport]:
    """One small task on every live node (pinned there by node affinity)."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    def inspect(paths: tuple[str, ...]) -> tuple[str, str | None, tuple[str, ...]]:
        # Defined in here so that Ray sends the function itself, not a reference into a
        # gridgames module, and a node without gridgames can still answer.
        import os
        import shutil
        import socket

        try:
            import gridgames

            version: str | None = gridgames.__version__
        except ImportError:
            version = None
        missing = tuple(path for path in paths
                        if not (os.path.exists(path) or shutil.which(path) is not None))
        return socket.gethostname(), version, missing

    probe = ray.remote(num_cpus=0, max_retries=0)(inspect)
    nodes = [node for node in ray.nodes() if node.get("Alive")]
    refs = [probe.options(scheduling_strategy=NodeAffinitySchedulingStrategy(
        node["NodeID"], soft=False)).remote(paths) for node in nodes]
    reports = []
    for node, ref in zip(nodes, refs, strict=True):
        where = node.get("NodeManagerAddress", "?")
        try:
            host, version, missing = ray.get(ref, timeout=120)
        except (ray.exceptions.TaskUnschedulableError, ray.exceptions.NodeDiedError):
            continue  # the node has left the cluster (Ray had not noticed yet): no work goes there
        except Exception as error:  # a node that cannot even run the probe
            first = str(error).strip().splitlines()
            reports.append(NodeReport(node["NodeID"], where, None, (),
                                      first[-1] if first else type(error).__name__))
            continue
        reports.append(NodeReport(node["NodeID"], f"{host} ({where})", version, missing))
    return reports


def check_nodes(ray: ModuleType, paths: tuple[str, ...] = (), *,
                need_gridgames: bool = True) -> list[NodeReport]:
    """Raise :class:`ClusterError` naming each node that lacks gridgames or one of ``paths``."""
    import gridgames

    reports = inspect_nodes(ray, paths)
    if not reports:
        raise ClusterError("the cluster has no live node")
    problems = []
    for node in reports:
        if node.problem:
            problems.append(f"node {node.host} cannot run a task: {node.problem}")
            continue
        if need_gridgames and node.gridgames_version is None:
            problems.append(f"node {node.host} cannot import gridgames: install it there "
                            f"({INSTALL_HINT}) or send it with --cluster-ship")
        elif need_gridgames and node.gridgames_version != gridgames.__version__:
            problems.append(f"node {node.host} has gridgames {node.gridgames_version}, this "
                            f"machine {gridgames.__version__}: install the same version there "
                            "or send this one with --cluster-ship")
        for path in node.missing:
            problems.append(f"node {node.host} lacks {path}: every node needs the engine "
                            "at the same path")
    if problems:
        raise ClusterError("; ".join(problems))
    return reports


def cluster_cpus(ray: ModuleType) -> int:
    """The CPUs of the cluster's live nodes (at least 1)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))
