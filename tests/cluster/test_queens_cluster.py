"""Counting N-Queens solutions with tasks on a local Ray cluster."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import gridgames
from gridgames.cluster import connect
from gridgames.cluster.local import LocalCluster
from gridgames.cluster.queens import plan
from gridgames.queens import count_solutions
from gridgames.queens.counter import count_subproblems, split

# OEIS A000170
KNOWN = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680,
         12: 14200, 13: 73712, 14: 365596}


@pytest.mark.parametrize("n", sorted(KNOWN))
def test_the_parts_add_up_to_the_known_counts(n: int) -> None:
    for rows in range(1, min(n, 4) + 1):
        assert count_subproblems(n, split(n, rows)) == KNOWN[n], rows


def test_many_more_tasks_than_cpus() -> None:
    for n, cpus in ((12, 2), (16, 2), (17, 8)):
        tasks = plan(n, cpus)
        assert len(tasks) >= 8 * cpus
        assert all(tasks)
        parts = [part for task in tasks for part in task]
        assert len(set(parts)) == len(parts)  # no part is counted twice
    assert sum(count_subproblems(13, task) for task in plan(13, 4)) == KNOWN[13]


def test_count_on_the_cluster(cluster: LocalCluster) -> None:
    assert count_solutions(12, cluster=cluster.address) == 14200
    assert count_solutions(4, cluster=cluster.address) == 2


def test_the_command_line_counts_on_the_cluster(cluster: LocalCluster) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gridgames.cli.main", "queens", "count", "--n", "13",
         "--cluster", cluster.address],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("73712 solutions for the 13×13 board")
    assert f"on the cluster at {cluster.address}" in done.stdout


def test_the_package_can_travel_in_the_runtime_environment(cluster: LocalCluster) -> None:
    def where_gridgames_comes_from() -> tuple[str, str]:
        import subprocess
        import sys

        import gridgames

        # Our brain runs in a subprocess of the task: it must find the same copy.
        code = "import gridgames; print(gridgames.__file__)"
        child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               check=True).stdout.strip()
        return gridgames.__file__, child

    with connect(cluster.address, ship_package=True) as ray:
        task = ray.remote(num_cpus=1)(where_gridgames_comes_from)
        in_task, in_child = ray.get(task.remote())
    installed = str(Path(gridgames.__file__).resolve())
    assert in_task == in_child != installed
    assert Path(in_task).is_relative_to(cluster.temp_dir)
