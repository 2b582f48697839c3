"""Forced wins that another engine finds and ours misses, and the other way round.

    python benchmarks/fit_eval.py label DIR --out rated.jsonl --judge pbrain-rapfi --ms 50
    python benchmarks/threat_agreement.py rated.jsonl --ms 50 --positions 2000

Reads games written by ``fit_eval.py label``: a judge's score before some of their
quiet positions, a win or loss it found written as +-5000 (``fit_eval.MATE_SCORE``).
Our engine searches a random sample of those positions (``--seed``) for ``--ms``
each, or ``--nodes`` (the same result on every run). The script prints how often each
of the judge's verdicts (a forced win for the side to move, a forced loss, neither)
met each of ours. A judge's win or loss that ours did not report is a threat our
search missed in that time; a forced result ours reported where the judge saw none
is one it missed. Give both the same time a position on an idle machine.
"""

from __future__ import annotations

import argparse
import builtins
import json
import platform
import random
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from fit_eval import MATE_SCORE, for_each_game  # beside this script
from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import Limit, think, warm_up

VERDICTS = ("win", "loss", "neither")


def judge_verdict(score: int) -> str:
    return "win" if score >= MATE_SCORE else "loss" if score <= -MATE_SCORE else "neither"


def our_verdict(task: tuple[dict, int, Limit]) -> str:
    """Our engine's verdict on the position before ``ply`` of a written game."""
    game, ply, limit = task
    board = Board(game["width"], game["height"], rule=Rule[game["rule"].upper()])
    board.push_many([tuple(move) for move in game["moves"][:ply]])
    mate = think(board, limit).mate
    return "neither" if mate is None else "win" if mate > 0 else "loss"


def _warm(_: int) -> None:
    warm_up()


def agreement(path: Path, rule: Rule, limit: Limit, positions: int, seed: int,
              workers: int) -> dict[str, dict[str, int]]:
    """``{judge's verdict: {ours: count}}`` over a sample of the scored positions."""
    games = for_each_game([str(path)], rule, lambda game: game)
    scored = [(game, ply, score) for game in games
              for ply, score in enumerate(game.get("scores") or []) if score is not None]
    if not scored:
        raise SystemExit(f"{path}: no scored position (write one with fit_eval.py label)")
    sample = random.Random(seed).sample(scored, min(positions, len(scored)))
    counts = {judge: dict.fromkeys(VERDICTS, 0) for judge in VERDICTS}
    tasks = [(game, ply, limit) for game, ply, _ in sample]
    # one worker searches in this process; more, each in a process of its own
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        # compiled before any clock runs
        list((pool or builtins).map(_warm, range(workers)))
        verdicts = (pool or builtins).map(our_verdict, tasks)
        for (_, _, score), ours in zip(sample, verdicts, strict=True):
            counts[judge_verdict(score)][ours] += 1
    finally:
        if pool is not None:
            pool.shutdown()
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rated", type=Path, help="games written by fit_eval.py label")
    parser.add_argument("--rule", choices=[r.name.lower() for r in Rule], default="freestyle")
    parser.add_argument("--ms", type=int, default=50, help="our time a position (default 50)")
    parser.add_argument("--nodes", type=int, help="our nodes a position, instead of --ms")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, help="write the counts to this file too")
    args = parser.parse_args()
    if min(args.ms, args.positions, args.workers, 1 if args.nodes is None else args.nodes) <= 0:
        parser.error("--ms, --nodes, --positions and --workers must be above 0")
    limit = Limit(nodes=args.nodes) if args.nodes else Limit(time_ms=args.ms)
    start = time.monotonic()
    counts = agreement(args.rated, Rule[args.rule.upper()], limit, args.positions, args.seed,
                       args.workers)
    total = sum(sum(row.values()) for row in counts.values())
    what = f"{args.nodes:,} nodes" if args.nodes else f"{args.ms} ms"
    print(f"{platform.machine()}, {time.strftime('%Y-%m-%d')}: {total} positions of "
          f"{args.rated.name}, ours at {what} a position ({time.monotonic() - start:.0f} s)")
    print(f"{'the judge saw':<16}" + "".join(f"{'ours: ' + v:>16}" for v in VERDICTS))
    for judge in VERDICTS:
        print(f"{'a ' + judge if judge != 'neither' else 'neither':<16}"
              + "".join(f"{counts[judge][v]:>16}" for v in VERDICTS))
    forced = ("win", "loss")
    both = sum(counts[v][v] for v in forced)
    judge_only = sum(counts[v]["neither"] for v in forced)
    ours_only = sum(counts["neither"][v] for v in forced)
    opposite = counts["win"]["loss"] + counts["loss"]["win"]
    print(f"forced results both found: {both}; the judge's alone: {judge_only}; "
          f"ours alone: {ours_only}; opposite verdicts: {opposite}")
    if args.json:
        args.json.write_text(json.dumps({"positions": total, "limit": what, "counts": counts},
                                        indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
