"""How often ``gridgames match --sprt`` decides wrongly, and how soon, counting games
one by one or in pairs: a simulation.

    python benchmarks/sprt_pairs.py                       # 3,000 tests a case, --sprt 0,30
    python benchmarks/sprt_pairs.py --runs 500 --pairs-needed 0 20 40
    python benchmarks/sprt_pairs.py --json benchmarks/results/sprt-pairs-DATE.json

Each simulated test plays pairs of games (the two games of an opening, one with each
engine as black) whose points follow ``--pairs``: how many pairs of real matches
scored 0, 1/2, 1, 1 1/2 and 2 points (by default the three freestyle screens of
docs/engine-history.md read again over pairs: a counter-move, internal iterative
reduction, the network's scores made smaller). That distribution is tilted
(exponentially, as little as needed) to the expected score of each hypothesis, so
that the engines differ by exactly elo0 or elo1. Each pair is two games: 0 points a
loss and a loss, 1/2 a draw and a loss, 1 a win and a loss, 1 1/2 a win and a draw,
2 two wins. The test is :class:`gridgames.gomoku.match.Sprt` on
:class:`gridgames.gomoku.match.MatchStats`, as the match runner uses them: once with
the pairs left out (the games one by one), and once with them, for each number of
complete pairs needed before pairs count (``PAIRS_NEEDED``). It prints, per case, the
share of tests that accepted the wrong hypothesis, and the median and mean number of
pairs a test took (a test that reaches ``--max-pairs`` counts as undecided).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import gridgames.gomoku.match as match
from gridgames.gomoku.match import PAIR_POINTS, MatchStats, Sprt, score_from_elo

# Pairs by points (0, 1/2, 1, 1 1/2, 2) of the freestyle screens of a counter-move,
# internal iterative reduction and the network's scores made smaller, added together.
FREESTYLE_SCREENS = (61, 28, 289, 34, 58)
# The two games of a pair scoring each number of points.
GAMES_OF_PAIR = {0.0: (0.0, 0.0), 0.5: (0.5, 0.0), 1.0: (1.0, 0.0), 1.5: (1.0, 0.5),
                 2.0: (1.0, 1.0)}


def tilted(counts: Sequence[int], score: float) -> list[float]:
    """``counts`` as probabilities, tilted by exp(t * points) so that a game's expected
    score is ``score`` (bisection on t)."""
    low, high = -20.0, 20.0
    probabilities: list[float] = []
    for _ in range(100):
        t = (low + high) / 2
        weights = [c * math.exp(t * p) for c, p in zip(counts, PAIR_POINTS, strict=True)]
        total = sum(weights)
        probabilities = [w / total for w in weights]
        mean = sum(q * p / 2 for q, p in zip(probabilities, PAIR_POINTS, strict=True))
        if mean < score:
            low = t
        else:
            high = t
    return probabilities


@dataclass
class Case:
    true_elo: float
    counting: str  # "games" or "pairs from N"
    tests: int
    accepted_h0: float
    accepted_h1: float
    median_pairs: float
    mean_pairs: float


def run_test(probabilities: Sequence[float], sprt: Sprt, by_pairs: bool, max_pairs: int,
             rng: random.Random) -> tuple[str | None, int]:
    stats = MatchStats()
    for played in range(1, max_pairs + 1):
        points = rng.choices(PAIR_POINTS, probabilities)[0]
        for game in GAMES_OF_PAIR[points]:
            stats.add(game)
        if by_pairs:
            stats.add_pair(points)
        verdict = sprt.status(stats)
        if verdict is not None:
            return verdict, played
    return None, max_pairs


def simulate(counts: Sequence[int], sprt: Sprt, runs: int, max_pairs: int,
             needed: Sequence[int], seed: int) -> list[Case]:
    rng = random.Random(seed)
    saved = match.PAIRS_NEEDED
    cases = []
    try:
        for true_elo in (sprt.elo0, sprt.elo1):
            probabilities = tilted(counts, score_from_elo(true_elo))
            for pairs_needed in (None, *needed):
                if pairs_needed is not None:
                    match.PAIRS_NEEDED = pairs_needed
                results = [run_test(probabilities, sprt, pairs_needed is not None,
                                    max_pairs, rng) for _ in range(runs)]
                lengths = [length for _, length in results]
                cases.append(Case(
                    true_elo, "games" if pairs_needed is None else f"pairs from {pairs_needed}",
                    runs, sum(v == "H0" for v, _ in results) / runs,
                    sum(v == "H1" for v, _ in results) / runs,
                    statistics.median(lengths), statistics.fmean(lengths)))
    finally:
        match.PAIRS_NEEDED = saved
    return cases


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sprt", default="0,30", help="elo0,elo1[,alpha,beta] (default 0,30)")
    parser.add_argument("--runs", type=int, default=3000, help="tests a case (default 3000)")
    parser.add_argument("--max-pairs", type=int, default=1500,
                        help="pairs after which a test counts as undecided (default 1500)")
    parser.add_argument("--pairs", default=",".join(map(str, FREESTYLE_SCREENS)),
                        help="pairs that scored 0, 1/2, 1, 1 1/2 and 2 points, by commas "
                             "(default: the freestyle screens)")
    parser.add_argument("--pairs-needed", type=int, nargs="+", default=[0, 20, 40],
                        metavar="N", help="complete pairs before pairs count (default 0 20 40)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args(argv)
    try:
        sprt = Sprt.parse(args.sprt)
    except ValueError as error:
        print(f"sprt_pairs: {error}", file=sys.stderr)
        return 2
    try:
        counts = [int(c) for c in args.pairs.split(",")]
    except ValueError:
        counts = []
    if len(counts) != len(PAIR_POINTS) or min(counts) < 0 or sum(counts) == 0:
        print(f"sprt_pairs: --pairs expects five counts of pairs, at least one above 0, "
              f"like 61,28,289,34,58; got {args.pairs!r}", file=sys.stderr)
        return 2
    cases = simulate(counts, sprt, args.runs, args.max_pairs, args.pairs_needed, args.seed)
    print(f"--sprt {args.sprt}, {args.runs} tests a case, pairs scored as {counts}, "
          f"seed {args.seed}")
    for case in cases:
        wrong = case.accepted_h1 if case.true_elo == sprt.elo0 else case.accepted_h0
        print(f"  true Elo {case.true_elo:+g}, {case.counting:14s}: wrong decision "
              f"{wrong:.3f}, pairs median {case.median_pairs:.0f}, mean {case.mean_pairs:.0f}")
    if args.json is not None:
        args.json.write_text(json.dumps({
            "benchmark": "sprt_pairs", "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "command": "benchmarks/sprt_pairs.py " + " ".join(argv or sys.argv[1:]),
            "sprt": args.sprt, "runs": args.runs,
            "max_pairs": args.max_pairs, "pairs": counts, "seed": args.seed,
            "cases": [asdict(case) for case in cases]}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
