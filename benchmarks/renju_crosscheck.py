"""Cross-check our renju forbidden points against another Gomocup engine.

Plays random renju games (moves near the last one, as in real play) and, at
every position with black to move, compares ``Board.forbidden_points()`` with
the engine's answer to ``YXSHOWFORBID``. Prints each disagreement as a
position string and the totals.

Run: .venv/bin/python benchmarks/renju_crosscheck.py /path/to/pbrain-engine [POSITIONS] [SEED]
"""

from __future__ import annotations

import argparse
import datetime
import random
from collections.abc import Iterator

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.gomocup import Engine, EngineError
from gridgames.gomoku.notation import format_position


def random_positions(count: int, seed: int) -> Iterator[Board]:
    """Yield ``count`` renju positions with black to move, from random local play."""
    rng = random.Random(seed)
    produced = 0
    while produced < count:
        board = Board(15, rule=Rule.RENJU)
        while not board.is_game_over() and len(board) < 120 and produced < count:
            moves = board.legal_moves
            x0, y0 = board.move_stack[-1] if board.move_stack else (7, 7)
            near = [m for m in moves if abs(m[0] - x0) <= 2 and abs(m[1] - y0) <= 2]
            board.push(rng.choice(near or moves))
            if board.to_move.name == "BLACK" and not board.is_game_over() and len(board) >= 10:
                produced += 1
                yield board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine", help="the other engine's command (a Gomocup brain)")
    parser.add_argument("positions", type=int, nargs="?", default=3000,
                        help="positions to compare (3000)")
    parser.add_argument("seed", type=int, nargs="?", default=7, help="random seed (7)")
    args = parser.parse_args()
    if args.positions < 1:
        parser.error(f"positions must be 1 or more, got {args.positions}")
    try:
        check(args.engine, args.positions, args.seed)
    except EngineError as error:
        raise SystemExit(f"the engine failed: {error}") from None


def check(command: str, count: int, seed: int) -> None:
    checked = with_forbidden = disagreements = 0
    with Engine(command) as engine:
        for board in random_positions(count, seed):
            ours = board.forbidden_points()
            theirs = engine.forbidden_points(board)
            checked += 1
            with_forbidden += bool(ours)
            if ours != theirs:
                disagreements += 1
                print(f"disagree: {format_position(board.move_stack, 15)}"
                      f" ours={sorted(board.point_name(p) for p in ours)}"
                      f" theirs={sorted(board.point_name(p) for p in theirs)}")
    print(f"{datetime.date.today()} seed {seed}: {checked} positions "
          f"({with_forbidden} with forbidden points), {disagreements} disagreements")


if __name__ == "__main__":
    main()
