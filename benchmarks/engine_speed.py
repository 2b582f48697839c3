"""Engine speed: nodes per second and depth reached at a fixed time per move, per rule.

    python benchmarks/engine_speed.py              # 1 s per position
    python benchmarks/engine_speed.py --time-ms 3000 --rules renju
    python benchmarks/engine_speed.py --engine /path/to/pbrain-rapfi
    python benchmarks/engine_speed.py --threads 2     # with a helper search thread
    python benchmarks/engine_speed.py --size 20       # the same positions, centred on 20x20
    python benchmarks/engine_speed.py --json benchmarks/results/engine-speed-DATE.json

The positions (15x15) are a fixed set: openings, middle games and tactical ones;
``--size`` places them in the centre of a larger board.
The node count of the depth-limited pass doubles as a determinism check.
``--engine`` runs a Gomocup brain on the same positions in the same run, one
fresh process per position, and prints the nodes per second and depth its MESSAGE
lines report next to ours (rules it does not know are left out). Nodes per
second count only the positions where a side searched at least half the time
(not those it solved or answered at once).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from collections.abc import Iterator

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import Limit, think, warm_up
from gridgames.gomoku.gomocup import Engine, EngineError
from gridgames.gomoku.notation import parse_position
from gridgames.gomoku.openings import centred

POSITIONS = {
    "opening-1": "h8i9",
    "opening-2": "h8i9g9",
    "opening-3": "h8j7h10j9",
    "opening-4": "h8i8i6h6i5",
    "middle-1": "h8j7h10j9j10i8g7i9g9k10h7l11",
    "middle-2": "h8f10j7f6i6f7h5f9f8g4",
    "middle-3": "h8i8i6h6i5j7h9h10i7g9i4i3i11k5j4h4",
    "middle-4": "h8i9g9g7i7h6f8j8e7d6f9f7",
    "tactical-1": "h8j7h10j9j10i8g7i9g9k10h7l11m12h9g10k9l9k6l5k8k7k12k11",
    "tactical-2": "h8f10j7f6i6f7h5f9f8g4k8l9h7h6",
    "tactical-3": "h8i8i6h6i5j7h9h10i7g9i4i3i11k5j4h4g5f5h7g8g11h11j10h12",
}


def positions(rule: Rule, size: int = 15) -> Iterator[tuple[str, Board]]:
    """The fixed positions that are playable under ``rule``, centred on a size×size board."""
    for name, moves in POSITIONS.items():
        board = Board(size, rule=rule)
        points = centred(moves, size, size)
        if points is None:
            continue
        try:
            board.push_many(points)
        except ValueError:
            continue  # e.g. a renju foul in a freestyle line
        if board.outcome() is None:
            yield name, board


def summary(label: str, nps: list[int], depths: list[int]) -> str:
    return (f"{label:16s} median {statistics.median(nps):9.0f} nodes/s   "
            f"median depth {statistics.median(depths):4.1f}   "
            f"(min {min(depths)}, max {max(depths)})")


def depth_figures(nps: list[int], depths: list[int]) -> dict[str, float]:
    return {"nps": statistics.median(nps), "depth_median": statistics.median(depths),
            "depth_min": min(depths), "depth_max": max(depths)}


def measure_engine(command: str, rule: Rule, time_ms: int, verbose: bool, size: int = 15
                   ) -> tuple[list[int], list[int]] | None:
    """The brain's nodes per second (where it searched) and depths, or None
    when it does not play ``rule``. A fresh process for each position: it starts with
    an empty hash table, as ours does."""
    nps_list, depths = [], []
    for name, board in positions(rule, size):
        with Engine(command, tolerance_ms=10_000) as engine:
            try:
                engine.play(Board(size, rule=rule), Limit(time_ms=time_ms))  # set-up, not measured
            except EngineError as error:
                print(f"  the engine does not play {rule.value}: {error}")
                return None
            info = engine.play(board, Limit(time_ms=time_ms)).info
        if info.nodes is None or info.depth is None:
            raise SystemExit(f"the engine reported no nodes or depth on {name}: "
                             "it must send MESSAGE lines with its search figures")
        if info.nps and (info.time_ms or 0) >= time_ms // 2:
            nps_list.append(info.nps)
        depths.append(info.depth)
        if verbose:
            print(f"  {'engine':10s} {name:11s} depth {info.depth:2d}  "
                  f"{info.nodes:8d} nodes  {info.nps or 0:7d} n/s")
    return (nps_list, depths) if nps_list else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-ms", type=int, default=1000)
    parser.add_argument("--rules", nargs="*", default=[r.value for r in Rule])
    parser.add_argument("--threads", type=int, default=1, help="search threads (default 1)")
    parser.add_argument("--size", type=int, default=15, choices=range(15, 65), metavar="N",
                        help="board size, 15 to 64: the positions are centred on it "
                        "(default 15)")
    parser.add_argument("--engine", metavar="COMMAND",
                        help="a Gomocup brain's command line to measure on the same positions")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE "
                        "(the format benchmarks/plots.py reads)")
    args = parser.parse_args()
    warm_up()
    started = time.strftime('%Y-%m-%d %H:%M')
    rows: list[dict[str, object]] = []
    print(f"engine speed, {args.time_ms} ms a move, {args.threads} thread(s), "
          f"{len(POSITIONS)} positions on {args.size}x{args.size}, "
          f"{time.strftime('%Y-%m-%d %H:%M')} on {platform.machine()} {platform.python_version()}")
    all_nps: list[int] = []
    for rule_name in args.rules:
        rule = Rule.from_name(rule_name)
        nps_list, depths = [], []
        for name, board in positions(rule, args.size):
            result = think(board, Limit(time_ms=args.time_ms), threads=args.threads)
            if result.time_ms >= args.time_ms // 2:
                nps_list.append(result.nps)
            depths.append(result.depth)
            if args.verbose:
                print(f"  {rule_name:10s} {name:11s} depth {result.depth:2d}  "
                      f"{result.nodes:8d} nodes  {result.nps:7d} n/s  {result.score_text}")
        all_nps += nps_list
        print(summary(rule_name, nps_list, depths))
        row: dict[str, object] = {"rule": rule.value, **depth_figures(nps_list, depths),
                                  "engine": None}
        rows.append(row)
        if args.engine:
            measured = measure_engine(args.engine, rule, args.time_ms, args.verbose,
                                      args.size)
            if measured is not None:
                row["engine"] = depth_figures(*measured)
                ratio = statistics.median(nps_list) / statistics.median(measured[0])
                print(summary("  the engine", *measured) + f"   ours/engine {ratio:.2f}")
    print(f"{'all':16s} median {statistics.median(all_nps):9.0f} nodes/s")
    board = Board(15)
    board.push_many(parse_position(POSITIONS["middle-3"], 15, 15))
    a = think(board, Limit(depth=6))
    b = think(board, Limit(depth=6))
    print(f"determinism: depth 6 on middle-3 gives {a.nodes} and {b.nodes} nodes, "
          f"move {a.move} and {b.move}")
    if args.json:
        run = {"threads": args.threads, "time_ms": args.time_ms, "positions": len(POSITIONS),
               "size": args.size,
               "engine": args.engine, "rules": rows}
        with open(args.json, "w") as out:
            json.dump({"benchmark": "engine_speed", "date": started,
                       "machine": f"{platform.machine()}, {os.cpu_count()} cpus",
                       "python": platform.python_version(), "runs": [run]}, out, indent=2)


if __name__ == "__main__":
    main()
