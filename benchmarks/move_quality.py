"""Move quality judged by another engine: how much win probability our moves give away.

    python benchmarks/move_quality.py --judge /path/to/pbrain-rapfi --games DIR [DIR ...]
    python benchmarks/move_quality.py --judge ... --games DIR --ms 300 1000 3000 --positions 200

Positions come from the ``.psq`` games in the folders (a match's ``--out``), from
the 7th to the 30th move, drawn at random (``--seed``); those the judge already
rates as decided (beyond ``--balanced`` for the side to move) are skipped. For
each position our engine chooses a move at every time in ``--ms``; the judge (any
Gomocup brain, ``--judge-ms`` a move) rates the position before the move and
after each distinct move. A rating becomes a win probability for the side to
move, 1 / (1 + exp(-score / --scale)), a mate 1 or 0. A move's loss is the
judge's value of the position before it minus its value after: what the move
gives away in the judge's eyes (negative where it finds more than the judge saw).

It prints, for each time: the mean loss per move, how many moves lose more than
0.1 and 0.2, the share of the judge's own moves played, and, against the first
time, the paired difference with its standard error. The judge's own noise is in
every figure, so compare times and versions measured in the same run.
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from gridgames.gomoku import Board
from gridgames.gomoku.ai import Limit, think, warm_up
from gridgames.gomoku.gomocup import Engine, EngineError
from gridgames.gomoku.records import RecordError, load

FIRST_PLY, LAST_PLY = 6, 30
Point = tuple[int, int]
Position = tuple[int, int, list[Point]]  # width, height, moves

def sample_positions(folders: list[Path], count: int, seed: int) -> list[Position]:
    """Positions from the games in ``folders``, shuffled, ``count`` times three of them
    at most (the judge then drops the decided ones)."""
    games = sorted(path for folder in folders for path in folder.glob("*.psq"))
    if not games:
        raise SystemExit(f"no .psq games in {', '.join(map(str, folders))}")
    candidates = []
    for path in games:
        try:
            record = load(path)
        except RecordError as error:
            raise SystemExit(f"cannot read {path}: {error}") from None
        for ply in range(FIRST_PLY, min(LAST_PLY, len(record.moves) - 1)):
            candidates.append((record.width, record.height, record.moves[:ply]))
    random.Random(seed).shuffle(candidates)
    return candidates[: 3 * count]


def win_probability(result_score: int | None, mate: int | None, scale: float) -> float | None:
    """The judge's rating as a win probability for the side to move (None: no rating)."""
    if mate is not None:
        return 1.0 if mate > 0 else 0.0
    if result_score is None:
        return None
    return 1 / (1 + math.exp(-result_score / scale))


def _judge_value(judge: str, board: Board, judge_ms: int, scale: float
                 ) -> tuple[float | None, Point]:
    """The judge's win probability for the side to move, and the move it chose.

    A fresh judge process each time: what it kept from the last position (its
    hash table) would make some verdicts deeper than others.
    """
    with Engine(judge) as engine:
        played = engine.play(board, Limit(time_ms=judge_ms))
    return win_probability(played.info.score, played.info.mate, scale), played.move


def examine(task: tuple[str, Position, list[int], int, float, float]
            ) -> tuple[float, Point, list[tuple[Point, float]]] | None:
    """Our moves at each time and the judge's value after each, or None for a decided
    position (the judge's value beyond ``balanced``) or one it would not rate."""
    judge, (width, height, moves), times_ms, judge_ms, scale, balanced = task
    board = Board(width, height)
    board.push_many(moves)
    before, judge_move = _judge_value(judge, board, judge_ms, scale)
    if before is None or abs(before - 0.5) > balanced:
        return None
    ours = [think(board, Limit(time_ms=ms)).move for ms in times_ms]
    after: dict[Point, float] = {}
    for move in dict.fromkeys(ours):
        board.push(move)
        value, _ = _judge_value(judge, board, judge_ms, scale)
        board.pop()
        if value is None:
            return None
        after[move] = 1 - value  # the judge rates the position for the opponent
    return before, judge_move, [(move, after[move]) for move in ours]


def report(results: list[tuple[float, Point, list[tuple[Point, float]]]],
           times_ms: list[int]) -> None:
    losses = [[before - value for _, value in ours] for before, _, ours in results]
    print(f"{len(results)} positions; loss = judge's value before our move minus after")
    print(f"{'ms':>6} {'mean loss':>10} {'> 0.1':>6} {'> 0.2':>6} {'judge move':>10} "
          f"{'vs first (paired)':>20}")
    for k, ms in enumerate(times_ms):
        column = [row[k] for row in losses]
        same = sum(1 for _, judge_move, ours in results if ours[k][0] == judge_move)
        diffs = [row[0] - row[k] for row in losses]  # positive: loses less than the first
        error = statistics.stdev(diffs) / math.sqrt(len(diffs))
        paired = "" if k == 0 else f"{statistics.mean(diffs):+.4f} ± {error:.4f}"
        print(f"{ms:>6} {statistics.mean(column):>10.4f} {sum(v > 0.1 for v in column):>6} "
              f"{sum(v > 0.2 for v in column):>6} {same / len(results):>10.0%} {paired:>20}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--judge", required=True, help="the judging Gomocup brain's command")
    parser.add_argument("--games", required=True, type=Path, nargs="+",
                        help="folders of .psq games (freestyle) to take positions from")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--ms", type=int, nargs="+", default=[300, 1000],
                        help="our engine's times a move, the first being the reference")
    parser.add_argument("--judge-ms", type=int, default=1000)
    parser.add_argument("--scale", type=float, default=200,
                        help="the judge's score that means a 73%% chance to win")
    parser.add_argument("--balanced", type=float, default=0.3,
                        help="skip positions the judge rates further than this from 0.5")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.positions < 2 or min(args.ms) < 1 or args.judge_ms < 1 or args.workers < 1:
        parser.error("--positions needs 2 or more; --ms, --judge-ms and --workers 1 or more")
    if args.scale <= 0 or not 0 < args.balanced <= 0.5:
        parser.error("--scale must be above 0 and --balanced within (0, 0.5]")
    for folder in args.games:
        if not folder.is_dir():
            parser.error(f"--games: {folder} is not a folder")

    candidates = sample_positions(args.games, args.positions, args.seed)
    tasks = [(args.judge, position, args.ms, args.judge_ms, args.scale, args.balanced)
             for position in candidates]
    started = time.perf_counter()
    results = []
    try:
        with ProcessPoolExecutor(args.workers, initializer=warm_up) as pool:
            for result in pool.map(examine, tasks):
                if result is not None:
                    results.append(result)
                if len(results) >= args.positions:
                    pool.shutdown(cancel_futures=True)  # let the running ones end, start no more
                    break
    except EngineError as error:
        raise SystemExit(f"the judge failed: {error}") from None
    if len(results) < 2:
        raise SystemExit("fewer than two positions the judge rated as undecided")
    print(f"{platform.machine()}, {time.strftime('%Y-%m-%d')}: judge {args.judge} at "
          f"{args.judge_ms} ms, {time.perf_counter() - started:.0f} s")
    report(results, args.ms)


if __name__ == "__main__":
    main()
