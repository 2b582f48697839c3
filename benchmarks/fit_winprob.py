"""Fit the score -> win-probability curve of game review to engine games and print it.

    python benchmarks/fit_winprob.py play games.jsonl --minutes 4 --nodes 20000
    python benchmarks/fit_winprob.py fit games.jsonl
    python benchmarks/fit_winprob.py fit match-out/ more-games/*.psq --nodes 20000

``play`` lets the engine play itself from the shipped balanced openings, each
followed by up to two random moves near the stones, and writes one line per game:
rule, board size, moves, the engine's score before each move (from the side to
move's view) and the winner. ``fit`` reads such lines, and also ``.psq`` / JSON
records or folders of them (``gridgames match --out``), whose positions it
scores with a search of ``--nodes`` nodes. Every position whose score is not a
forced win or loss gives a pair (score, result for the side to move: 1, 0.5 or 0);
``fit`` finds the scale ``s`` that maximises the likelihood of the results under
``P(win) = 1 / (1 + exp(-score / s))`` and prints it with the log-loss, to be put
into ``WIN_PROBABILITY_SCALE`` in ``gridgames/gomoku/analysis.py``.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import time
from pathlib import Path

from fit_eval import self_play  # beside this script
from gridgames.gomoku import Board, Color, Rule
from gridgames.gomoku.ai import Limit, think
from gridgames.gomoku.analysis import MATE_BOUND
from gridgames.gomoku.records import RecordError, load

# The first moves of a game say little about its result and are scored 0 by the engine.
SKIP_PLIES = 4


def play(out: str, minutes: float, nodes: int, rule: Rule, seed: int) -> None:
    games = 0
    with open(out, "a", encoding="utf-8") as file:
        for board, scores in self_play(minutes, nodes, rule, seed):
            outcome = board.outcome()
            winner = outcome.winner if outcome is not None else None
            file.write(json.dumps({
                "rule": rule.value, "width": 15, "height": 15,
                "moves": [list(m) for m in board.move_stack], "scores": scores,
                "winner": winner.label if winner else None}) + "\n")
            file.flush()
            games += 1
    print(f"{games} games written to {out}")


def _pairs_of(moves: list[tuple[int, int]], scores: list[int | None],
              winner: Color | None) -> list[tuple[int, float]]:
    pairs = []
    for ply, score in enumerate(scores):
        if ply < SKIP_PLIES or score is None or abs(score) >= MATE_BOUND:
            continue
        mover = Color.BLACK if ply % 2 == 0 else Color.WHITE
        result = 0.5 if winner is None else float(winner is mover)
        pairs.append((score, result))
    return pairs


def _scored(moves: list[tuple[int, int]], width: int, height: int, rule: Rule,
            nodes: int) -> list[int | None]:
    board = Board(width, height, rule=rule)
    scores: list[int | None] = []
    for move in moves:
        scores.append(think(board, Limit(nodes=nodes)).score if len(scores) >= SKIP_PLIES
                      else None)
        board.push(move)
    return scores


def read_pairs(paths: list[str], nodes: int, rule: Rule) -> list[tuple[int, float]]:
    pairs: list[tuple[int, float]] = []
    for name in paths:
        path = Path(name)
        files = sorted(path.rglob("*")) if path.is_dir() else [path]
        for file in files:
            if file.suffix == ".jsonl":
                for line in file.read_text(encoding="utf-8").splitlines():
                    game = json.loads(line)
                    winner = {"black": Color.BLACK, "white": Color.WHITE}.get(game["winner"])
                    pairs += _pairs_of(game["moves"], game["scores"], winner)
            elif file.suffix in (".psq", ".json"):
                try:
                    record = load(file, rule)
                except RecordError as error:
                    print(f"skipped {file}: {error}")
                    continue
                winner = {"1-0": Color.BLACK, "0-1": Color.WHITE}.get(record.result)
                scores = _scored(record.moves, record.width, record.height, record.rule, nodes)
                pairs += _pairs_of(record.moves, scores, winner)
    return pairs


def log_loss(pairs: list[tuple[int, float]], scale: float) -> float:
    total = 0.0
    for score, result in pairs:
        p = 1 / (1 + math.exp(-score / scale))
        p = min(max(p, 1e-9), 1 - 1e-9)
        total -= result * math.log(p) + (1 - result) * math.log(1 - p)
    return total / len(pairs)


def best_scale(pairs: list[tuple[int, float]]) -> float:
    """Golden-section search of the log-loss over log(scale) (it is unimodal there)."""
    low, high = math.log(10), math.log(20000)
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a = high - ratio * (high - low)
        b = low + ratio * (high - low)
        if log_loss(pairs, math.exp(a)) < log_loss(pairs, math.exp(b)):
            high = b
        else:
            low = a
    return math.exp((low + high) / 2)


def fit(paths: list[str], nodes: int, rule: Rule) -> None:
    pairs = read_pairs(paths, nodes, rule)
    if not pairs:
        raise SystemExit("no scored positions found")
    scale = best_scale(pairs)
    wins = sum(result for _, result in pairs) / len(pairs)
    print(f"{len(pairs)} positions, side to move scored {wins:.3f} on average")
    print(f"log-loss {log_loss(pairs, scale):.4f} at the best scale "
          f"(coin flip {math.log(2):.4f})")
    print(f"WIN_PROBABILITY_SCALE = {scale:.0f}")
    print(f"machine: {platform.machine()} {platform.processor() or ''} "
          f"{time.strftime('%Y-%m-%d')}".strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    play_parser = commands.add_parser("play", help="self-play games with scores into a file")
    play_parser.add_argument("out")
    play_parser.add_argument("--minutes", type=float, default=4.0)
    play_parser.add_argument("--nodes", type=int, default=20_000)
    play_parser.add_argument("--rule", default="freestyle")
    play_parser.add_argument("--seed", type=int, default=1)
    fit_parser = commands.add_parser("fit", help="fit the scale to games and records")
    fit_parser.add_argument("paths", nargs="+")
    fit_parser.add_argument("--nodes", type=int, default=20_000,
                            help="search size for records without scores")
    fit_parser.add_argument("--rule", default="freestyle", help="rule of .psq records")
    args = parser.parse_args()
    rule = Rule.from_name(args.rule)
    if args.command == "play":
        play(args.out, args.minutes, args.nodes, rule, args.seed)
    else:
        fit(args.paths, args.nodes, rule)


if __name__ == "__main__":
    main()
