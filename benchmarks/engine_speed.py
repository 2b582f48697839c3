"""Engine speed: nodes per second and depth reached at a fixed time per move, per rule.

    python benchmarks/engine_speed.py              # 1 s per position
    python benchmarks/engine_speed.py --time-ms 3000 --rules renju

The positions (15x15) are a fixed set: openings, middle games and tactical ones.
The node count of the depth-limited pass doubles as a determinism check.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import Limit, think, warm_up
from gridgames.gomoku.notation import parse_position

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-ms", type=int, default=1000)
    parser.add_argument("--rules", nargs="*", default=[r.value for r in Rule])
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    warm_up()
    print(f"engine speed, {args.time_ms} ms a move, {len(POSITIONS)} positions, "
          f"{time.strftime('%Y-%m-%d %H:%M')} on {platform.machine()} {platform.python_version()}")
    all_nps: list[int] = []
    for rule_name in args.rules:
        rule = Rule.from_name(rule_name)
        nps_list, depths, nodes_list = [], [], []
        for name, moves in POSITIONS.items():
            board = Board(15, rule=rule)
            try:
                board.push_many(parse_position(moves, 15, 15))
            except ValueError:
                continue  # e.g. a renju foul in a freestyle line
            if board.outcome() is not None:
                continue
            result = think(board, Limit(time_ms=args.time_ms))
            if result.mate is None:
                nps_list.append(result.nps)
            depths.append(result.depth)
            nodes_list.append(result.nodes)
            if args.verbose:
                print(f"  {rule_name:10s} {name:11s} depth {result.depth:2d}  "
                      f"{result.nodes:8d} nodes  {result.nps:7d} n/s  {result.score_text}")
        all_nps += nps_list
        print(f"{rule_name:10s} median {statistics.median(nps_list):9.0f} nodes/s   "
              f"median depth {statistics.median(depths):4.1f}   "
              f"(min {min(depths)}, max {max(depths)})")
    print(f"{'all':10s} median {statistics.median(all_nps):9.0f} nodes/s")
    board = Board(15)
    board.push_many(parse_position(POSITIONS["middle-3"], 15, 15))
    a = think(board, Limit(depth=6))
    b = think(board, Limit(depth=6))
    print(f"determinism: depth 6 on middle-3 gives {a.nodes} and {b.nodes} nodes, "
          f"move {a.move} and {b.move}")


if __name__ == "__main__":
    main()
