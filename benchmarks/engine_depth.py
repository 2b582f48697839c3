"""The cost of a fixed-depth search on positions from games: nodes, CPU time, moves.

    python benchmarks/engine_depth.py              # depth 8
    python benchmarks/engine_depth.py --depth 9

The positions (``data/game_positions.txt``: 73 freestyle positions after 8, 16
and 24 moves of engine games) are searched one after another, one thread. Nodes
and moves are the same on every run: a change that only speeds the search up
keeps both (the digest of the moves tells), one that changes the search shows
in them. Time is the process's CPU time, steadier than wall time on a shared
machine.
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import time
from collections.abc import Iterator
from pathlib import Path

from gridgames.gomoku import Board
from gridgames.gomoku.ai import Limit, think, warm_up
from gridgames.gomoku.notation import format_position, parse_position

POSITIONS = Path(__file__).parent / "data" / "game_positions.txt"


def positions() -> Iterator[Board]:
    for line in POSITIONS.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            board = Board(15)
            board.push_many(parse_position(line, 15, 15))
            yield board


def parse_depth(doc: str) -> int:
    """The ``--depth`` of the command line (8 by default) of a script on these
    positions, ``doc`` its docstring."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--depth", type=int, default=8)
    args = parser.parse_args()
    if args.depth < 1:
        parser.error(f"--depth must be 1 or more, got {args.depth}")
    return int(args.depth)


def main() -> None:
    depth = parse_depth(__doc__)
    warm_up()
    nodes = 0
    moves = []
    started = time.process_time()
    for board in positions():
        result = think(board, Limit(depth=depth))
        nodes += result.nodes
        moves.append(result.move)
    cpu = time.process_time() - started
    digest = hashlib.sha1(format_position(moves, 15).encode()).hexdigest()[:12]
    print(f"{platform.machine()}, {time.strftime('%Y-%m-%d')}: depth {depth}, "
          f"{len(moves)} positions, {nodes:,} nodes, {cpu:.1f} s CPU, moves {digest}")


if __name__ == "__main__":
    main()
