"""Move quality judged by another engine: how much win probability our moves give away.

    python benchmarks/move_quality.py --judge /path/to/pbrain-rapfi --games DIR [DIR ...]
    python benchmarks/move_quality.py --judge ... --games DIR --ms 300 1000 3000 --positions 200
    python benchmarks/move_quality.py --judge ... --games DIR --nodes 300000 \
        --brains "pbrain-gridgames" "env PYTHONPATH=/other/checkout/src pbrain-gridgames"

Positions come from the ``.psq`` games in the folders (a match's ``--out``), from
the 7th to the 30th move, drawn at random (``--seed``); those the judge already
rates as decided (beyond ``--balanced`` for the side to move) are skipped. For
each position our engine chooses a move at every time in ``--ms``, or under
``--nodes`` (the same move on every run), or each of ``--brains`` (Gomocup
brains, a fresh process a move; two versions of our engine, say) does at that
limit; the judge (any Gomocup brain, ``--judge-ms`` a move) rates the position
before the move and after each distinct move. A rating becomes a win probability for the side to
move, 1 / (1 + exp(-score / --scale)), a mate 1 or 0. A move's loss is the
judge's value of the position before it minus its value after: what the move
gives away in the judge's eyes (negative where it finds more than the judge saw).

It prints, for each player and limit: the mean loss per move, how many moves lose more than
0.1 and 0.2, the share of the judge's own moves played, and, against the first
time, the paired difference with its standard error. The judge's own noise is in
every figure, so compare times and versions measured in the same run (a move
that two of them chose is rated once, so only the moves that differ count).
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
TOLERANCE_MS = 10_000  # lateness forgiven: a loaded machine must not end the run
Point = tuple[int, int]
Position = tuple[int, int, list[Point]]  # width, height, moves
Player = tuple[str | None, Limit]  # a brain's command (None: our engine here) and its limit

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
    with Engine(judge, tolerance_ms=TOLERANCE_MS) as engine:
        played = engine.play(board, Limit(time_ms=judge_ms))
    return win_probability(played.info.score, played.info.mate, scale), played.move


def _move(player: Player, board: Board) -> Point:
    command, limit = player
    if command is None:
        return think(board, limit).move
    with Engine(command, tolerance_ms=TOLERANCE_MS) as engine:
        return engine.play(board, limit).move


def examine(task: tuple[str, Position, list[Player], int, float, float]
            ) -> tuple[float, Point, list[tuple[Point, float]]] | None:
    """Each player's move and the judge's value after it, or None for a decided
    position (the judge's value beyond ``balanced``) or one it would not rate."""
    judge, (width, height, moves), players, judge_ms, scale, balanced = task
    board = Board(width, height)
    board.push_many(moves)
    before, judge_move = _judge_value(judge, board, judge_ms, scale)
    if before is None or abs(before - 0.5) > balanced:
        return None
    ours = [_move(player, board) for player in players]
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
           labels: list[str]) -> None:
    losses = [[before - value for _, value in ours] for before, _, ours in results]
    print(f"{len(results)} positions; loss = judge's value before the move minus after")
    width = max(len(label) for label in labels)
    print(f"{'':>{width}} {'mean loss':>10} {'> 0.1':>6} {'> 0.2':>6} {'judge move':>10} "
          f"{'vs first (paired)':>20}")
    for k, label in enumerate(labels):
        column = [row[k] for row in losses]
        same = sum(1 for _, judge_move, ours in results if ours[k][0] == judge_move)
        diffs = [row[0] - row[k] for row in losses]  # positive: loses less than the first
        error = statistics.stdev(diffs) / math.sqrt(len(diffs))
        paired = "" if k == 0 else f"{statistics.mean(diffs):+.4f} ± {error:.4f}"
        print(f"{label:>{width}} {statistics.mean(column):>10.4f} "
              f"{sum(v > 0.1 for v in column):>6} {sum(v > 0.2 for v in column):>6} "
              f"{same / len(results):>10.0%} {paired:>20}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--judge", required=True, help="the judging Gomocup brain's command")
    parser.add_argument("--games", required=True, type=Path, nargs="+",
                        help="folders of .psq games (freestyle) to take positions from")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--ms", type=int, nargs="+", default=[300, 1000],
                        help="times a move, the first being the reference")
    parser.add_argument("--nodes", type=int,
                        help="a node limit instead of the times (brains: INFO max_node)")
    parser.add_argument("--brains", nargs="+", metavar="CMD",
                        help="Gomocup brains to rate instead of our engine, the first "
                             "being the reference")
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
    if args.nodes is not None and args.nodes < 1:
        parser.error(f"--nodes must be 1 or more, got {args.nodes}")
    if args.scale <= 0 or not 0 < args.balanced <= 0.5:
        parser.error("--scale must be above 0 and --balanced within (0, 0.5]")
    for folder in args.games:
        if not folder.is_dir():
            parser.error(f"--games: {folder} is not a folder")

    if args.nodes is not None:  # the time only keeps a brain from waiting on its default
        limits = [(f"{args.nodes} nodes", Limit(time_ms=600_000, nodes=args.nodes))]
    else:
        limits = [(f"{ms} ms", Limit(time_ms=ms)) for ms in args.ms]
    commands: list[str | None] = list(args.brains or [None])
    players = [(command, limit) for command in commands for _, limit in limits]
    labels = [label if command is None else f"brain {number}, {label}"
              for number, command in enumerate(commands, 1) for label, _ in limits]
    for number, command in enumerate(args.brains or [], 1):
        print(f"brain {number}: {command}")

    candidates = sample_positions(args.games, args.positions, args.seed)
    tasks = [(args.judge, position, players, args.judge_ms, args.scale, args.balanced)
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
        raise SystemExit(f"a brain (the judge or a player) failed: {error}") from None
    if len(results) < 2:
        raise SystemExit("fewer than two positions the judge rated as undecided")
    print(f"{platform.machine()}, {time.strftime('%Y-%m-%d')}: judge {args.judge} at "
          f"{args.judge_ms} ms, {time.perf_counter() - started:.0f} s")
    report(results, labels)


if __name__ == "__main__":
    main()
