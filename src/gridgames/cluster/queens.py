"""Count N-Queens solutions on a Ray cluster.

The search is split by the placements of the first rows
(:func:`gridgames.queens.counter.split`) into many more tasks than the
cluster has CPUs, so that fast and slow parts even out; each task counts its
parts with the same kernel as a count on one machine, and the driver adds up
the counts.
"""

from __future__ import annotations

from collections.abc import Sequence

from gridgames.cluster import ClusterError, check_nodes, cluster_cpus, connect
from gridgames.queens.counter import Subproblem, count_subproblems, split

TASKS_PER_CPU = 16
PARTS_PER_TASK = 4  # parts are split finer than tasks so each task gets an even mix
MAX_SPLIT_ROWS = 4


def plan(n: int, cpus: int) -> list[list[Subproblem]]:
    """The tasks for counting the n×n board on ``cpus`` CPUs: lists of parts.

    >>> tasks = plan(12, 2)
    >>> len(tasks), sum(count_subproblems(12, task) for task in tasks)
    (32, 14200)
    """
    wanted = TASKS_PER_CPU * max(1, cpus)
    rows = 1
    parts = split(n, rows)
    while len(parts) < wanted * PARTS_PER_TASK and rows < min(n, MAX_SPLIT_ROWS):
        rows += 1
        parts = split(n, rows)
    tasks = min(wanted, len(parts))
    # Dealt like cards: neighbouring parts (similar sizes) go to different tasks.
    return [parts[k::tasks] for k in range(tasks)] if parts else []


def _count_task(n: int, parts: Sequence[Subproblem]) -> int:
    return count_subproblems(n, parts)


def count_on_cluster(n: int, address: str, *, ship_package: bool = False) -> int:
    """The number of solutions of the n×n board, counted by tasks on the cluster."""
    with connect(address, ship_package=ship_package) as ray:
        check_nodes(ray)
        tasks = plan(n, cluster_cpus(ray))
        count = ray.remote(num_cpus=1, max_retries=3)(_count_task)
        refs = [count.remote(n, parts) for parts in tasks]
        try:
            return sum(int(value) for value in ray.get(refs))
        except ray.exceptions.RayError as error:
            for ref in refs:
                ray.cancel(ref, force=True)
            raise ClusterError(f"the count failed on the cluster: {error}") from None
