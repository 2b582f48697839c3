"""Cold start: compile time per kernel group, and time from process start to a first move.

    python benchmarks/cold_start.py              # one cold and one warm start
    python benchmarks/cold_start.py --runs 3     # the median of three of each
    python benchmarks/cold_start.py --json results.json

Each run starts a fresh process on an empty cache folder (numba's cache and the
pattern tables both go there), prepares the engine group by group as
``warm_up`` does, then plays a move at 1 s on a 3-stone opening. A warm run
then does the same on the cache the cold run left. Times are wall-clock, from
the moment the process is started to the move's arrival.

With ``--front-ends`` it also times what a user waits for, cold and then warm,
each front end on a cache folder of its own: ``gridgames serve`` from its start
to the line with its URL, and ``pbrain-gridgames`` from its start to its answer
to ``START 15``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import NamedTuple

CHILD = r"""
import json, sys, time
started = time.perf_counter()
from gridgames.gomoku import Board
from gridgames.gomoku.ai import Limit, think, warm_up
groups = []
cpu = [time.process_time()]
def report(done, total, name, seconds):
    if seconds is not None:
        groups.append((name, seconds, time.process_time() - cpu[0]))
    cpu[0] = time.process_time()
warm_up(report)
prepared = time.perf_counter()
board = Board(15)
board.push_many([(7, 7), (8, 8), (6, 8)])
result = think(board, Limit(time_ms=1000))
print(json.dumps({"groups": groups, "prepare_s": prepared - started,
                  "prepare_cpu_s": time.process_time(),
                  "move_s": time.perf_counter() - prepared, "move": result.move}))
"""


class Run(NamedTuple):
    groups: dict[str, tuple[float, float]]  # each group's load or compile: wall and CPU s
    prepare_s: float  # from the child's start to the end of warm_up
    prepare_cpu_s: float  # the CPU time of that (steadier on a busy machine)
    to_first_move_s: float  # from starting the process to the move's arrival


def run_once(cache: Path) -> Run:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache / "numba"),
               XDG_CACHE_HOME=str(cache / "xdg"))
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, check=True,
                         capture_output=True, text=True).stdout
    total = time.perf_counter() - started
    figures = json.loads(out.strip().splitlines()[-1])
    groups = {name: (wall, cpu) for name, wall, cpu in figures["groups"]}
    return Run(groups, figures["prepare_s"], figures["prepare_cpu_s"], total)


# A front end that has printed nothing by then is taken to have failed.
FRONT_END_LIMIT_S = 300.0
# What --front-ends waits for, by the keys front_ends() gives.
FRONT_END_WAITS = {"serve": "gridgames serve URL printed",
                   "brain": "pbrain-gridgames START answered"}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _first_line(command: list[str], env: dict[str, str], wanted: str,
                send: str = "") -> float:
    """Seconds from starting ``command`` to its first stdout line that starts with
    ``wanted`` (after writing ``send`` to its stdin); the process is then stopped,
    and stopped anyway after FRONT_END_LIMIT_S."""
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdin is not None and process.stdout is not None
    limit = threading.Timer(FRONT_END_LIMIT_S, process.kill)
    limit.start()
    try:
        process.stdin.write(send)
        process.stdin.flush()
        for line in process.stdout:
            if line.startswith(wanted):
                return time.perf_counter() - started
        raise SystemExit(f"{command[2]} printed no line starting {wanted!r} within "
                         f"{FRONT_END_LIMIT_S:.0f} s")
    finally:
        limit.cancel()
        process.kill()
        process.wait()


def front_ends(folder: Path) -> dict[str, float]:
    """The wait for the web app's URL and for the brain's answer to START, each on a
    cache folder of its own under ``folder`` (empty the first time)."""
    def env(name: str) -> dict[str, str]:
        return dict(os.environ, NUMBA_CACHE_DIR=str(folder / name / "numba"),
                    XDG_CACHE_HOME=str(folder / name / "xdg"))

    serve = [sys.executable, "-m", "gridgames.cli.main", "serve", "--port",
             str(_free_port()), "--db", str(folder / "games.sqlite3")]
    brain = [sys.executable, "-m", "gridgames.gomoku.gomocup.brain"]
    waits = {"serve": _first_line(serve, env("serve"), "gridgames is running at"),
             "brain": _first_line(brain, env("brain"), "OK", send="START 15\n")}
    # the brain may answer before it has compiled everything: finish its cache
    subprocess.run([sys.executable, "-c", "from gridgames.gomoku.ai import warm_up; warm_up()"],
                   env=env("brain"), check=True, capture_output=True)
    return waits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="cold and warm runs (median)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--front-ends", action="store_true",
                        help="also time the web app's URL and the Gomocup brain's START")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error(f"--runs must be 1 or more, got {args.runs}")
    cold, warm = [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="gridgames-cold-") as folder:
            cold.append(run_once(Path(folder)))
            warm.append(run_once(Path(folder)))
    print(f"cold start, {args.runs} run(s), {time.strftime('%Y-%m-%d %H:%M')} on "
          f"{platform.machine()} ({os.cpu_count()} cores), Python {platform.python_version()}")
    table: dict[str, dict[str, float]] = {}
    for name in cold[0].groups:
        cold_s = statistics.median(r.groups[name][0] for r in cold)
        cold_cpu = statistics.median(r.groups[name][1] for r in cold)
        warm_s = statistics.median(r.groups[name][0] for r in warm)
        table[name] = {"cold_s": cold_s, "cold_cpu_s": cold_cpu, "warm_s": warm_s}
        print(f"  {name:22s} cold {cold_s:6.1f} s ({cold_cpu:5.1f} s CPU)   "
              f"warm {warm_s:5.2f} s")
    summary = {}
    for label, runs in (("cold", cold), ("warm", warm)):
        prepare_s = statistics.median(r.prepare_s for r in runs)
        prepare_cpu = statistics.median(r.prepare_cpu_s for r in runs)
        first = statistics.median(r.to_first_move_s for r in runs)
        summary[label] = {"prepare_s": prepare_s, "prepare_cpu_s": prepare_cpu,
                          "to_first_move_s": first}
        print(f"  {label}: prepared in {prepare_s:5.1f} s ({prepare_cpu:5.1f} s CPU), first "
              f"move (1 s search) {first:5.1f} s after the process started")
    if args.front_ends:
        waits: dict[str, list[float]] = {}
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory(prefix="gridgames-cold-") as folder:
                for label in ("cold", "warm"):
                    for name, seconds in front_ends(Path(folder)).items():
                        waits.setdefault(f"{name} {label}", []).append(seconds)
        summary["front_ends"] = {key: statistics.median(v) for key, v in waits.items()}
        for key, seconds in summary["front_ends"].items():
            name, label = key.split()
            print(f"  {label}: {FRONT_END_WAITS[name]} {seconds:5.1f} s after the process "
                  "started")
    if args.json:
        args.json.write_text(json.dumps({
            "date": time.strftime("%Y-%m-%d"), "machine": platform.machine(),
            "cores": os.cpu_count(), "runs": args.runs, "groups": table, **summary,
        }, indent=2) + "\n")


if __name__ == "__main__":
    main()
