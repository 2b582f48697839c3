"""Fit the evaluation weights to game results (Texel's method) and print them.

    python benchmarks/fit_eval.py generate games.jsonl --minutes 30 --nodes 25000
    python benchmarks/fit_eval.py fit games.jsonl --ridge 0.3
    python benchmarks/fit_eval.py generate renju.jsonl --rule renju
    python benchmarks/fit_eval.py fit renju.jsonl --rule renju
    python benchmarks/fit_eval.py fit match-out/ more-games/*.psq
    python benchmarks/fit_eval.py fit games.jsonl --search-weight 1

``generate`` plays the engine against itself from the shipped balanced openings,
each followed by up to two random moves near the stones, and writes one line per
game: its rule, board size, moves, winner and the engine's score before each move.
``fit`` replays the games and takes every quiet position (neither side has a five to
play, the side to move has no open four to make): the game's result for the side to
move, then for the side to move and for the other side how many empty cells have
each shape combo (the four line shapes a stone there would make). The evaluation is
a sum over those cells. Recording moves rather than features lets a later version of
the shapes be fitted to the same games. ``fit`` also reads ``.psq`` records, or
folders of them such as ``gridgames match --out`` writes: games against other
engines.

``fit`` turns each combo into the features the evaluation is linear in: its line
shapes' counts and its threat class. It first finds the logistic scale that best
turns the current evaluation into a win probability, then fits every weight but
the fixed ones (fives, and the shapes and classes worth nothing) by
ridge-regularised logistic regression pulled towards the rule's current weights.
It prints the log-loss and squared error on held-out games (the last fifth) before
and after, and the rule's ``EvalWeights`` to put into ``gridgames/gomoku/ai/patterns.py``.

The target is the game's result, or with ``--search-weight`` the engine's own score
of the position in its self-play game (a search of ``--nodes``), turned into a win
probability on the same scale, or a blend of the two.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import Limit, think, warm_up
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai.patterns import (
    C_FIVE,
    C_FLEX4,
    CLASS_NAMES,
    EVAL_SCALE,
    N_CLASSES,
    N_SHAPES,
    SHAPE_NAMES,
    combo_features,
    eval_weights,
)
from gridgames.gomoku.gomocup.openings import centred, default_openings
from gridgames.gomoku.records import RecordError, load

# Weights fitted: shapes B1..F4 and classes FLEX2..FLEX4; the rest stay as they are.
FITTED_SHAPES = range(2, 10)
FITTED_CLASSES = range(1, 12)


def features(pos: P.Position) -> tuple[list[list[list[int]]], bool]:
    """How many empty cells have each shape combo, for the side to move then the other
    (``[combo, count]`` pairs), and whether the position is tactical."""
    me = int(pos.info[P.I_SIDE]) - 1
    empty = pos.cells == 0
    histograms = []
    for c in (me, 1 - me):
        combos, counts = np.unique(pos.combo[c][empty], return_counts=True)
        histograms.append([[int(a), int(b)] for a, b in zip(combos, counts, strict=True)])
    cc = pos.class_count
    tactical = bool(cc[me, C_FIVE] or cc[me, C_FLEX4] or cc[1 - me, C_FIVE])
    return histograms, tactical


def near_moves(board: Board) -> list[tuple[int, int]]:
    return [m for m in board.legal_moves
            if any(abs(m[0] - s[0]) <= 2 and abs(m[1] - s[1]) <= 2 for s in board.move_stack)]


def opening_board(rng: random.Random, openings: list, rule: Rule) -> Board:
    """A 15x15 self-play start: a shipped opening and up to two random moves near it."""
    board = Board(15, rule=rule)
    board.push_many(centred(rng.choice(openings), 15, 15) or [])
    for _ in range(rng.randrange(3)):
        board.push(rng.choice(near_moves(board)))
    return board


def game_record(board: Board, scores: list[int | None] | None = None) -> dict:
    """The line ``generate`` writes for a finished game: rule, size, moves, winner and,
    for self-play, the engine's score before each move (None before the opening's)."""
    outcome = board.outcome()
    winner = outcome.winner if outcome is not None else None
    record = {"rule": board.rule.name.lower(), "width": board.width, "height": board.height,
              "moves": [list(m) for m in board.move_stack],
              "winner": winner.name.lower() if winner else None}
    if scores is not None:
        record["scores"] = scores
    return record


def self_play(minutes: float, nodes: int, rule: Rule, seed: int
              ) -> Iterator[tuple[Board, list[int | None]]]:
    """Engine games from the shipped openings until ``minutes`` have passed: each
    finished board, with the engine's score before every move (None before the
    opening's own moves)."""
    warm_up()
    rng = random.Random(seed)
    openings = default_openings()
    deadline = time.monotonic() + 60 * minutes
    while time.monotonic() < deadline:
        board = opening_board(rng, openings, rule)
        scores: list[int | None] = [None] * len(board.move_stack)
        while board.outcome() is None and board.legal_moves:
            result = think(board, Limit(nodes=nodes), seed=rng.randrange(1 << 30))
            scores.append(result.score)
            board.push(result.move)
        yield board, scores


def generate(out: str, minutes: float, nodes: int, rule: Rule, seed: int) -> None:
    games = 0
    with open(out, "a", encoding="utf-8") as file:
        for board, scores in self_play(minutes, nodes, rule, seed):
            file.write(json.dumps(game_record(board, scores)) + "\n")
            games += 1
            file.flush()
    print(f"{games} games written to {out}")


def quiet_positions(game: dict) -> list[list]:
    """``[result, score, side to move's combos, other side's combos]`` for each quiet
    position of a recorded game: the result for the side to move (1 won, 0.5 drawn,
    0 lost) and the engine's score there (None where the record has none)."""
    rule = Rule[game["rule"].upper()]
    board = Board(game["width"], game["height"], rule=rule)  # checks each move
    pos = P.new_position(board.width, board.height, rule.code, P.new_table(4))
    winner = {"black": 1, "white": 2, None: 0}[game["winner"]]
    scores = game.get("scores") or [None] * len(game["moves"])
    rows = []
    for move, score in zip(game["moves"], scores, strict=True):
        histograms, tactical = features(pos)
        if not tactical:
            side = int(pos.info[P.I_SIDE])
            result = 0.5 if winner == 0 else float(winner == side)
            rows.append([result, score, *histograms])
        board.push(tuple(move))
        P.make(pos, P.cell_index(pos, tuple(move)))
    return rows


def match_games(path: Path, rule: Rule) -> list[dict]:
    """The games of ``.psq`` records (a file, or a folder of them such as
    ``gridgames match --out`` writes) that ended in five or a full board: a game lost
    on time or by an error says nothing of its position."""
    files = sorted(path.glob("*.psq")) if path.is_dir() else [path]
    games = []
    for file in files:
        board = load(file, rule).to_board()
        if board.outcome() is not None:
            games.append(game_record(board))
    return games


def written_games(path: Path, rule: Rule) -> list[dict]:
    games = []
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            game = json.loads(line)
            if not isinstance(game, dict) or "moves" not in game:
                raise ValueError(f"line {number} is not a game written by 'generate'")
            if game["rule"] != rule.name.lower():
                raise ValueError(f"line {number} is a {game['rule']} game, "
                                 f"not {rule.name.lower()}")
            games.append(game)
    return games


def read_positions(paths: list[str], rule: Rule) -> list[list]:
    rows = []
    for name in paths:
        path = Path(name)
        try:
            if path.is_dir() or path.suffix.lower() == ".psq":
                games = match_games(path, rule)
            else:
                games = written_games(path, rule)
            for game in games:
                rows += quiet_positions(game)
        except (OSError, ValueError, KeyError, TypeError, RecordError) as error:
            raise SystemExit(f"cannot read {path} (games written by 'generate', .psq "
                             f"records or folders of them): {error}") from None
    if not rows:
        raise SystemExit("no positions in the given files")
    return rows


def fit(paths: list[str], ridge: float, rule: Rule, search_weight: float) -> None:
    rows = read_positions(paths, rule)
    if search_weight > 0:
        rows = [r for r in rows if r[1] is not None]
        if not rows:
            raise SystemExit("no position has an engine score: use games written by "
                             "'generate', or --search-weight 0")
    results = np.array([r[0] for r in rows])
    searched = np.array([0.0 if r[1] is None else float(r[1]) for r in rows])
    per_combo = combo_features()
    width = per_combo.shape[1]
    x = np.zeros((len(rows), 2 * width))
    for i, (_, _, mover, waiter) in enumerate(rows):
        for side, histogram in ((0, mover), (width, waiter)):
            combos = np.array([c for c, _ in histogram], dtype=np.int64)
            counts = np.array([n for _, n in histogram], dtype=float)
            x[i, side:side + width] = counts @ per_combo[combos]
    # the rule's current weights, the waiting side's negated, in centi-stones
    weights = eval_weights(rule.code)
    base = np.concatenate([weights.shape[0], weights.klass[0],
                           np.negative(weights.shape[1]), np.negative(weights.klass[1])])
    base = base.astype(float) / EVAL_SCALE
    evals = x @ base + weights.tempo

    def losses(values: np.ndarray, rows: slice, y: np.ndarray = results) -> tuple[float, float]:
        p = np.clip(1 / (1 + np.exp(-values[rows])), 1e-9, 1 - 1e-9)
        y = y[rows]
        log_loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
        return float(log_loss), float(np.mean((y - p) ** 2))

    scales = np.arange(20, 1000, 10)
    scale = float(min(scales, key=lambda k: losses(evals / k, slice(None))[1]))
    # the target: the game's result, or the engine's own search there, or a blend
    targets = (1 - search_weight) * results + search_weight / (1 + np.exp(-searched / scale))
    free = np.zeros(2 * width, dtype=bool)
    for side in (0, width):
        free[[side + s for s in FITTED_SHAPES]] = True
        free[[side + N_SHAPES + c for c in FITTED_CLASSES]] = True
    # logistic regression in centi-stones over ``scale``, the tempo as the intercept
    z = np.hstack([x[:, free], np.ones((len(x), 1))]) / scale
    offset = x[:, ~free] @ base[~free] / scale
    prior = np.append(base[free], weights.tempo)
    theta = prior.copy()
    train = slice(0, len(x) * 4 // 5)
    test = slice(len(x) * 4 // 5, None)
    for _ in range(30):  # Newton's method: the loss is convex
        p = 1 / (1 + np.exp(-(z[train] @ theta + offset[train])))
        gradient = z[train].T @ (p - targets[train]) + 2 * ridge * (theta - prior)
        hessian = (z[train] * (p * (1 - p))[:, None]).T @ z[train] + 2 * ridge * np.eye(len(theta))
        theta -= np.linalg.solve(hessian, gradient)
    fitted = base.copy()
    fitted[free] = theta[:-1]
    before = losses(evals / scale, test)
    after = losses((x @ fitted + theta[-1]) / scale, test)
    print(f"{len(x)} positions; scale {scale:.0f} centi-stones per logistic unit")
    print(f"held-out log-loss {before[0]:.4f} -> {after[0]:.4f}, "
          f"squared error {before[1]:.4f} -> {after[1]:.4f}")
    if search_weight > 0:
        before = losses(evals / scale, test, targets)
        after = losses((x @ fitted + theta[-1]) / scale, test, targets)
        print(f"against the target: log-loss {before[0]:.4f} -> {after[0]:.4f}, "
              f"squared error {before[1]:.4f} -> {after[1]:.4f}")

    def table(start: int, count: int, sign: int) -> tuple[int, ...]:
        return tuple(round(sign * v * EVAL_SCALE) for v in fitted[start:start + count])

    print("SHAPES  ", " ".join(f"{n:>6}" for n in SHAPE_NAMES))
    print("CLASSES ", " ".join(f"{n:>6}" for n in CLASS_NAMES))
    print(f"EvalWeights for {rule.name.lower()} (tempo fitted {theta[-1]:.2f}):")
    print("    shape=(")
    print(f"        {table(0, N_SHAPES, 1)},\n        {table(width, N_SHAPES, -1)},\n    ),")
    print("    klass=(")
    print(f"        {table(N_SHAPES, N_CLASSES, 1)},\n"
          f"        {table(width + N_SHAPES, N_CLASSES, -1)},\n    ),")
    print(f"    tempo={round(theta[-1])},")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gen = commands.add_parser("generate", help="play self-play games and write features")
    gen.add_argument("out")
    gen.add_argument("--minutes", type=float, default=30)
    gen.add_argument("--nodes", type=int, default=25_000)
    gen.add_argument("--rule", choices=[r.name.lower() for r in Rule], default="freestyle")
    gen.add_argument("--seed", type=int, default=1)
    fitting = commands.add_parser("fit", help="fit the weights to written games")
    fitting.add_argument("data", nargs="+",
                         help="games written by generate, .psq records or folders of them")
    fitting.add_argument("--ridge", type=float, default=0.3)
    fitting.add_argument("--rule", choices=[r.name.lower() for r in Rule], default="freestyle",
                         help="the rule the games were played under: its weights are refitted")
    fitting.add_argument("--search-weight", type=float, default=0.0,
                         help="share of the target taken from the engine's own search score "
                              "instead of the game's result, 0 to 1 (default 0)")
    args = parser.parse_args()
    if args.command == "generate":
        generate(args.out, args.minutes, args.nodes, Rule[args.rule.upper()], args.seed)
    else:
        if not 0 <= args.search_weight <= 1:
            parser.error("--search-weight must be between 0 and 1")
        fit(args.data, args.ridge, Rule[args.rule.upper()], args.search_weight)


if __name__ == "__main__":
    main()
