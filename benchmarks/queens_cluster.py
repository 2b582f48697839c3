"""N-Queens counts on a local Ray cluster: the speed-up of 2 CPUs against 1.

For each CPU count a cluster is started on this machine (Ray's ``ray start``,
see gridgames.cluster.local), warmed up with a small count (workers started,
kernels loaded), then each board is counted and timed; the result is checked
against OEIS A000170. A count in this process, without Ray, is the reference.

    .venv/bin/python benchmarks/queens_cluster.py [--n 16 17] [--cpus 1 2]

Needs the cluster extra (pip install 'gridgames[cluster]').
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import time

from gridgames.cluster.local import LocalCluster
from gridgames.queens import count_solutions

KNOWN = {12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512, 17: 95815104,
         18: 666090624}  # OEIS A000170


def machine() -> str:
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{platform.node()}: {model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"


def timed(n: int, address: str | None) -> float:
    start = time.perf_counter()
    count = count_solutions(n, cluster=address)
    elapsed = time.perf_counter() - start
    if count != KNOWN[n]:
        raise SystemExit(f"wrong count for n = {n}: {count}, expected {KNOWN[n]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[16, 17], choices=sorted(KNOWN))
    parser.add_argument("--cpus", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    print(f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, {machine()}")
    print(f"before: {load()}")
    count_solutions(8)  # compile or load the kernel
    reference = {n: timed(n, None) for n in args.n}
    times: dict[int, dict[int, float]] = {}
    for cpus in args.cpus:
        with LocalCluster(cpus=cpus) as cluster:
            timed(12, cluster.address)  # start the workers, load the kernel in them
            times[cpus] = {n: timed(n, cluster.address) for n in args.n}
    print(f"after: {load()}")
    header = "  n   one process" + "".join(f"   {cpus} CPU{'s' if cpus > 1 else ' '}"
                                           for cpus in args.cpus)
    first = args.cpus[0]
    print(header + "".join(f"   {cpus} vs {first}" for cpus in args.cpus[1:]))
    for n in args.n:
        row = f"{n:>3}   {reference[n]:9.2f} s" + "".join(
            f"  {times[cpus][n]:6.2f} s" for cpus in args.cpus)
        row += "".join(f"   {times[first][n] / times[cpus][n]:5.2f}x" for cpus in args.cpus[1:])
        print(row)


if __name__ == "__main__":
    main()
