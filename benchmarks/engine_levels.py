"""Levels against each other, and the top level against a 10x shorter time of itself.

    python benchmarks/engine_levels.py                      # adjacent levels, 20 games each
    python benchmarks/engine_levels.py --games 10 --scale 0.1 --pairs 2-1 6-5
    python benchmarks/engine_levels.py --pairs --self-ms 1000   # max level: 1 s vs 0.1 s
    python benchmarks/engine_levels.py --pairs n200000-n25000 d3n5000-d2  # bare limits (n, t, d)
    python benchmarks/engine_levels.py --json benchmarks/results/engine-levels-DATE.json

Games start from the rule's shipped balanced openings; each opening is played twice with the
colours swapped. ``--scale`` multiplies every level's time and node budget (the top
levels think for seconds otherwise), keeping their order. Prints wins/losses/draws per pairing
from the first-named side.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import time
from dataclasses import replace

from gridgames.gomoku import Board, Color, Rule
from gridgames.gomoku.ai import MAX_LEVEL, Limit, get_level, think, warm_up
from gridgames.gomoku.notation import parse_position
from gridgames.gomoku.openings import default_openings


def openings(count: int, seed: int, rule: Rule) -> list[list[tuple[int, int]]]:
    """``count`` of the rule's shipped balanced openings, in an order set by ``seed``."""
    shipped = default_openings(rule)
    random.Random(seed).shuffle(shipped)
    return [parse_position(shipped[i % len(shipped)], 15, 15) for i in range(count)]


def play(opening: list[tuple[int, int]], black: Limit, white: Limit, rule: Rule,
         seed: int) -> Color | None:
    board = Board(15, rule=rule)
    board.push_many(opening)
    while board.outcome() is None:
        limit = black if board.to_move is Color.BLACK else white
        board.push(think(board, limit, seed=seed + len(board)).move)
    return board.outcome().winner  # type: ignore[union-attr]


def match(name: str, first: Limit, second: Limit, games: int, rule: Rule, seed: int
          ) -> dict[str, object]:
    wins = losses = draws = 0
    started = time.perf_counter()
    for i, opening in enumerate(openings((games + 1) // 2, seed, rule)):
        for first_is_black in (True, False):
            if wins + losses + draws >= games:
                break
            black, white = (first, second) if first_is_black else (second, first)
            winner = play(opening, black, white, rule, seed + 1000 * i)
            if winner is None:
                draws += 1
            elif (winner is Color.BLACK) == first_is_black:
                wins += 1
            else:
                losses += 1
    minutes = (time.perf_counter() - started) / 60
    print(f"{name:28s} {rule.value:9s} W {wins:3d}  L {losses:3d}  D {draws:3d}   "
          f"({minutes:.1f} min)", flush=True)
    return {"pair": name, "rule": rule.value, "games": wins + losses + draws, "wins": wins,
            "losses": losses, "draws": draws}


def scaled(number: int, factor: float) -> Limit:
    """A level's limit with its time and nodes (not its depth) multiplied by ``factor``."""
    limit = get_level(number).limit
    if limit.time_ms is not None:
        limit = replace(limit, time_ms=max(int(limit.time_ms * factor), 10))
    if limit.nodes is not None:
        limit = replace(limit, nodes=max(int(limit.nodes * factor), 100))
    return limit


def limit_of(spec: str, factor: float) -> Limit:
    """A level number, or a bare limit: ``n25000`` (nodes), ``t500`` (ms), ``d3`` (depth),
    or several of them together (``d3n5000``)."""
    kinds = {"n": "nodes", "t": "time_ms", "d": "depth"}
    if spec[0] in kinds:
        bounds = re.findall(r"([ntd])(\d+)", spec)
        if "".join(kind + number for kind, number in bounds) != spec:
            raise SystemExit(f"bad limit {spec!r}: use n<nodes>, t<ms>, d<depth>, e.g. d3n5000")
        return Limit(**{kinds[kind]: int(number) for kind, number in bounds})
    try:
        return scaled(int(spec), factor)
    except ValueError as error:
        raise SystemExit(f"bad pair member {spec!r}: {error}") from None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="factor on every level's time and nodes per move")
    parser.add_argument("--pairs", nargs="*",
                        default=[f"{n + 1}-{n}" for n in range(1, MAX_LEVEL)])
    parser.add_argument("--self-ms", type=int, default=0, help="top level at this time vs 1/10")
    parser.add_argument("--rule", default="freestyle")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="also write the results to FILE "
                        "(the format benchmarks/plots.py reads)")
    args = parser.parse_args()
    rule = Rule.from_name(args.rule)
    warm_up()
    started = time.strftime('%Y-%m-%d %H:%M')
    pairings = []
    print(f"level matches, {args.games} games a pairing, level budgets x{args.scale}, "
          f"{time.strftime('%Y-%m-%d %H:%M')}; W/L/D for the first-named side")
    for pair in args.pairs:
        a, b = pair.split("-")
        pairings.append(match(f"{a} vs {b}", limit_of(a, args.scale), limit_of(b, args.scale),
                              args.games, rule, args.seed))
    if args.self_ms:
        top = get_level("max")
        pairings.append(match(f"max {args.self_ms} ms vs {args.self_ms // 10} ms",
                              top.limit_for(args.self_ms), top.limit_for(args.self_ms // 10),
                              args.games, rule, args.seed))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"benchmark": "engine_levels", "date": started,
                       "machine": f"{platform.machine()}, {os.cpu_count()} cpus",
                       "python": platform.python_version(), "scale": args.scale,
                       "seed": args.seed, "pairings": pairings}, out, indent=2)


if __name__ == "__main__":
    main()
