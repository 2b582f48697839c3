"""N-Queens figures: counting speed against C, completion times, big boards.

    .venv/bin/python benchmarks/queens_bench.py            # everything (~2 minutes)
    .venv/bin/python benchmarks/queens_bench.py --quick    # smaller counts, fewer instances
    .venv/bin/python benchmarks/queens_bench.py --only scaling --json FILE  # against N

Prints medians (the machine may be shared), the machine and the date.
Sections:

* ``count``: ``count_solutions(N)`` against ``benchmarks/c/nqueens_count.c``
  compiled with ``gcc -O2`` (same algorithm), and the ratio.
* ``fixed``: ``solve(1000, fixed)`` with 100, 300 and 500 queens taken from a
  random solution.
* ``transition``: completion instances near the phase transition of Gent,
  Jefferson & Nightingale (2017), n ≈ 0.19 × free², from random partial
  placements of non-attacking queens; solvable and unsolvable.
* ``empty``: ``solve(10**6)``.
* ``scaling`` (only when asked for): ``solve(N)`` on an empty board for N from 8
  to a million, and ``count_solutions(N)`` against C for N from 8 to 15; the
  figures ``benchmarks/plots.py`` draws against N.

``--json FILE`` also writes the figures of the sections that keep them (``scaling``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from gridgames.queens import Placement, count_solutions, solve, warm_up
from gridgames.queens.board import Square

T = TypeVar("T")

C_SOURCE = Path(__file__).parent / "c" / "nqueens_count.c"
KNOWN_COUNTS = {14: 365596, 15: 2279184, 16: 14772512, 17: 95815104}


def timed(func: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, float]:
    start = time.perf_counter()
    result = func(*args, **kwargs)
    return result, time.perf_counter() - start


def is_completion(n: int, fixed: list[Square], solution: list[Square]) -> bool:
    """Independent check: N queens, all fixed ones kept, no two attacking."""
    if len(solution) != n or not set(fixed) <= set(solution):
        return False
    lines = [set(), set(), set(), set()]  # type: ignore[var-annotated]
    for row, col in solution:
        for seen, key in zip(lines, (row, col, row - col, row + col), strict=True):
            if key in seen:
                return False
            seen.add(key)
    return True


def bench_count(n: int, repeats: int) -> None:
    print(f"\n== count_solutions({n}) vs C (gcc -O2), median of {repeats}, runs interleaved")
    gcc = shutil.which("gcc")
    if gcc is None:
        print("gcc not found: C comparison skipped")
    with tempfile.TemporaryDirectory() as tmp:
        binary = Path(tmp) / "nqueens_count"
        if gcc is not None:
            subprocess.run([gcc, "-O2", "-o", str(binary), str(C_SOURCE)], check=True)
        # Wall time and CPU time: the CPU time is less disturbed by other jobs.
        numba_wall, numba_cpu, c_wall, c_cpu = [], [], [], []
        for _ in range(repeats):
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            count = count_solutions(n)
            numba_wall.append(time.perf_counter() - wall_start)
            numba_cpu.append(time.process_time() - cpu_start)
            if gcc is None:
                continue
            children = resource.getrusage(resource.RUSAGE_CHILDREN)
            wall_start = time.perf_counter()
            output = subprocess.run(
                [str(binary), str(n)], check=True, capture_output=True, text=True
            ).stdout
            c_wall.append(time.perf_counter() - wall_start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            c_cpu.append(after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime)
    med = statistics.median
    expected = KNOWN_COUNTS.get(n)
    ok = "" if expected is None else ("  (correct)" if count == expected else "  (WRONG)")
    print(f"numba : wall {med(numba_wall):7.3f} s, cpu {med(numba_cpu):7.3f} s   count {count}{ok}")
    if gcc is None:
        return
    print(f"C     : wall {med(c_wall):7.3f} s, cpu {med(c_cpu):7.3f} s   count {output.strip()}")
    print(
        f"ratio numba/C: wall {med(numba_wall) / med(c_wall):.2f}, "
        f"cpu {med(numba_cpu) / med(c_cpu):.2f}"
    )


def bench_fixed(n: int, sizes: list[int], instances: int) -> None:
    print(f"\n== solve({n}, fixed) with queens from a random solution, {instances} instances each")
    for size in sizes:
        times = []
        for seed in range(instances):
            rng = random.Random(seed)
            solution = solve(n, seed=rng.randrange(2**31))
            assert solution is not None
            fixed = rng.sample(solution, size)
            result, seconds = timed(solve, n, fixed)
            assert result is not None and is_completion(n, fixed, result)
            times.append(seconds)
        print(
            f"{size:4d} fixed: median {statistics.median(times) * 1000:7.2f} ms, "
            f"max {max(times) * 1000:7.2f} ms"
        )


def random_partial(n: int, count: int, rng: random.Random) -> list[Square]:
    """``count`` non-attacking queens, each on a random free square of a random free row."""
    while True:
        board = Placement(n)
        free_rows = list(range(n))
        rng.shuffle(free_rows)
        for row in free_rows[:count]:
            options = [col for col in range(n) if board.attacker(row, col) is None]
            if not options:
                break
            board.place(row, rng.choice(options))
        else:
            return board.queens


def bench_transition(sizes: list[int], instances: int) -> None:
    print(f"\n== completion near the phase transition (n ≈ 0.19 × free²), {instances} per size")
    all_times = []
    for n in sizes:
        free = round((n / 0.19) ** 0.5)
        rng = random.Random(n)
        times = []
        solvable = 0
        for _ in range(instances):
            fixed = random_partial(n, n - free, rng)
            result, seconds = timed(solve, n, fixed)
            if result is not None:
                assert is_completion(n, fixed, result)
                solvable += 1
            times.append(seconds)
        all_times += times
        print(
            f"n={n:4d} free={free:3d}: {solvable:3d}/{instances} solvable, "
            f"median {statistics.median(times) * 1000:8.2f} ms, max {max(times) * 1000:8.2f} ms"
        )
    slow = sum(1 for t in all_times if t >= 1.0)
    print(f"all {len(all_times)} settled; {slow} took 1 s or more; max {max(all_times):.3f} s")


def bench_empty(n: int, repeats: int) -> None:
    print(f"\n== solve({n}) on an empty board, median of {repeats}")
    times = []
    for _ in range(repeats):
        result, seconds = timed(solve, n)
        times.append(seconds)
    assert result is not None and is_completion(n, [], result)
    print(f"median {statistics.median(times):.3f} s, max {max(times):.3f} s")


def compiled_c_counter(tmp: str) -> Path | None:
    gcc = shutil.which("gcc")
    if gcc is None:
        return None
    binary = Path(tmp) / "nqueens_count"
    subprocess.run([gcc, "-O2", "-o", str(binary), str(C_SOURCE)], check=True)
    return binary


def bench_scaling(solve_sizes: list[int], count_sizes: list[int], repeats: int
                  ) -> dict[str, list[dict[str, float]]]:
    print(f"\n== scaling with N, median of {repeats}")
    solved = []
    for n in solve_sizes:
        times = []
        for _ in range(repeats):
            result, seconds = timed(solve, n)
            times.append(seconds)
        assert result is not None and is_completion(n, [], result)
        solved.append({"n": n, "seconds": statistics.median(times)})
        print(f"solve({n}) on an empty board: {statistics.median(times) * 1000:10.2f} ms")
    counted = []
    with tempfile.TemporaryDirectory() as tmp:
        binary = compiled_c_counter(tmp)
        for n in count_sizes:
            numba_times, c_times = [], []
            for _ in range(repeats):
                count, seconds = timed(count_solutions, n)
                numba_times.append(seconds)
                if binary is not None:
                    output, seconds = timed(subprocess.run, [str(binary), str(n)], check=True,
                                            capture_output=True, text=True)
                    assert int(output.stdout) == count
                    c_times.append(seconds)
            row = {"n": n, "solutions": count, "numba_seconds": statistics.median(numba_times)}
            if c_times:
                row["c_seconds"] = statistics.median(c_times)
            counted.append(row)
            print(f"count_solutions({n}) = {count}: numba {row['numba_seconds'] * 1000:9.2f} ms"
                  + (f", C {row['c_seconds'] * 1000:9.2f} ms (wall, with process start)"
                     if c_times else ""))
    return {"solve_empty": solved, "count": counted}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller and fewer runs")
    parser.add_argument(
        "--only",
        choices=["count", "fixed", "transition", "empty", "scaling"],
        action="append",
        help="run only these sections",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE "
                        "(the format benchmarks/plots.py reads)")
    args = parser.parse_args()
    started = datetime.datetime.now(datetime.UTC)
    sections = set(args.only or ["count", "fixed", "transition", "empty"])
    print("gridgames N-Queens benchmark")
    print(f"date    : {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M UTC}")
    print(f"machine : {platform.machine()}, {os.cpu_count()} cpus, {platform.processor() or '?'}")
    print(f"system  : {platform.platform()}")
    print(f"python  : {sys.version.split()[0]}")
    warm_up()  # compile or load the kernels before timing anything
    if "count" in sections:
        bench_count(14 if args.quick else 16, 1 if args.quick else 3)
    if "fixed" in sections:
        bench_fixed(1000, [100, 300, 500], 5 if args.quick else 21)
    if "transition" in sections:
        bench_transition([20, 50, 100, 200, 400], 6 if args.quick else 30)
    if "empty" in sections:
        bench_empty(10**6, 1 if args.quick else 3)
    figures: dict[str, object] = {}
    if "scaling" in sections:
        figures["scaling"] = bench_scaling(
            [8, 30, 100, 1000, 10**4, 10**5, 10**6], list(range(8, 14 if args.quick else 16)),
            1 if args.quick else 3)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"benchmark": "queens", "date": f"{started:%Y-%m-%d %H:%M} UTC",
                       "machine": f"{platform.machine()}, {os.cpu_count()} cpus, "
                                  f"{platform.processor() or '?'}",
                       "python": sys.version.split()[0], **figures}, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
