"""What the evaluation misses: a linear correction beside it, fitted to game results.

    python benchmarks/eval_residuals.py match-out/ more-match-out/
    python benchmarks/eval_residuals.py games.jsonl --rule renju --folds 5 --ridge 10

Each quiet position of the games (as ``fit_eval.py fit`` takes them, from the 7th
move on) gives the engine's static evaluation (network and all) and, for each side,
how many lines through empty cells have each line shape, how many empty cells have
each threat class, and the shapes split finer as Rapfi splits them: a three by its
ways to an open four (one or more), a two by its ways to a three (two, three, four
or more), a blocked three by its ways to a four (two, three or more).

The games' results are then predicted by logistic regression on the evaluation
alone, and on the evaluation plus a correction linear in each set of features
(ridge-regularised). Each fit is tested on games of openings it was not fitted on
(``--folds`` groups of the openings, each held out once), so a feature that only
recognises an opening's usual result earns nothing. Printed: the held-out log-loss
of each fit, and the correction fitted to all the games as the ``EvalWeights`` of
``gridgames/gomoku/ai/patterns.py`` (in its units; row 0 the side to move's, row 1
the other side's).
"""

from __future__ import annotations

import argparse
import zlib
from collections.abc import Callable

import numpy as np

from fit_eval import for_each_game, log_loss_and_error, quiet_replay  # beside this script
from gridgames.gomoku import Rule
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai.patterns import (
    B3,
    B4,
    CLASS_NAMES,
    EVAL_SCALE,
    F2,
    F3,
    F4,
    N_CLASSES,
    N_SHAPES,
    SHAPE_NAMES,
    line_table,
)
from gridgames.gomoku.ai.search import evaluate

KEYS = 1 << 20
# The finer shapes: (line shape, shape one more stone makes, least ways, most ways or None).
FINE_SHAPES = ((F3, F4, 1, 1), (F3, F4, 2, None), (F2, F3, 2, 2), (F2, F3, 3, 3),
               (F2, F3, 4, None), (B3, B4, 2, 2), (B3, B4, 3, None))
FINE_NAMES = ("F3/1", "F3/2+", "F2/2", "F2/3", "F2/4+", "B3/2", "B3/3+")
# Line shapes and classes a correction is fitted for: the others are never seen in a
# quiet position, or are worth the same everywhere (dead lines, the cells of no threat).
FITTED_SHAPES = tuple(range(SHAPE_NAMES.index("B1"), SHAPE_NAMES.index("F5")))
FITTED_CLASSES = tuple(range(1, CLASS_NAMES.index("FIVE")))


def fine_table(rule: Rule) -> np.ndarray:
    """For each colour and line key, the finer shape (1 + its index in FINE_SHAPES), or 0."""
    table = line_table(rule.code)
    keys = np.arange(KEYS, dtype=np.int64)
    fine = np.zeros((2, KEYS), dtype=np.uint8)
    for c in range(2):
        ways = {shape: np.zeros(KEYS, dtype=np.int64) for shape in (F4, F3, B4)}
        for slot in range(10):
            empty = (keys >> (2 * slot)) & 3 == 0
            after = table[c, np.where(empty, keys | ((c + 1) << (2 * slot)), 0)]
            for shape, count in ways.items():
                count += empty & (after == shape)
        for i, (shape, step, least, most) in enumerate(FINE_SHAPES):
            n = ways[step]
            fine[c, (table[c] == shape) & (n >= least) & (n <= (most or 10))] = i + 1
    return fine


def position_rows(rule: Rule) -> Callable[[dict], list[list[float]]]:
    """What :func:`main` needs of each quiet position of a game, from the 7th move on:
    the result for the side to move, the evaluation, the opening, then each side's
    line shapes, classes and finer shapes (the side to move's first)."""
    shapes = line_table(rule.code)
    fine = fine_table(rule)

    def rows(game: dict) -> list[list[float]]:
        opening = zlib.crc32(repr(game["moves"][:3]).encode())
        winner = {"black": 1, "white": 2, None: 0}[game["winner"]]
        out = []
        for ply, pos, _ in quiet_replay(game):
            if ply < 6:
                continue
            side = int(pos.info[P.I_SIDE])
            keys = pos.keys.reshape(-1, 4)[pos.cells == 0].ravel()
            row = [0.5 if winner == 0 else float(winner == side), float(evaluate(pos)),
                   float(opening)]
            for c in (side - 1, 2 - side):
                row += np.bincount(shapes[c, keys], minlength=N_SHAPES).tolist()
                row += pos.class_count[c].tolist()
                row += np.bincount(fine[c, keys], minlength=len(FINE_SHAPES) + 1)[1:].tolist()
            out.append(row)
        return out

    return rows


def fit_logistic(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """Weights of ``x``'s columns (the first, the evaluation, unregularised and pulled
    towards 1; the others towards 0) by Newton's method on the log-loss."""
    w = np.zeros(x.shape[1])
    w[0] = 1.0
    prior = w.copy()
    penalty = np.full(x.shape[1], ridge)
    penalty[0] = 0
    for _ in range(40):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -50, 50)))
        gradient = x.T @ (p - y) + penalty * (w - prior)
        hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty) + 1e-9 * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+",
                        help="games written by fit_eval.py, .psq records or folders of them")
    parser.add_argument("--rule", choices=[r.name.lower() for r in Rule], default="freestyle")
    parser.add_argument("--ridge", type=float, default=0.1)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.folds < 2 or args.ridge < 0:
        parser.error("--folds must be 2 or more and --ridge 0 or more")
    rule = Rule[args.rule.upper()]
    rows = np.array([r for game in for_each_game(args.data, rule, position_rows(rule))
                     for r in game])
    if len(rows) == 0:
        raise SystemExit("no quiet positions from the 7th move on in the given games")
    y, evals, openings = rows[:, 0], rows[:, 1], rows[:, 2].astype(np.int64)
    side = N_SHAPES + N_CLASSES + len(FINE_SHAPES)
    columns = {"shapes": [3 + s for s in FITTED_SHAPES],
               "classes": [3 + N_SHAPES + k for k in FITTED_CLASSES],
               "finer shapes": [3 + N_SHAPES + N_CLASSES + i for i in range(len(FINE_SHAPES))]}
    columns = {k: v + [c + side for c in v] for k, v in columns.items()}
    scales = np.arange(20, 2000, 10)
    scale = float(min(scales, key=lambda k: log_loss_and_error(evals / k, y)[0]))
    unique = np.unique(openings)
    print(f"{len(rows)} positions from {len(unique)} openings; the evaluation's scale "
          f"{scale:.0f} centi-stones per logistic unit")
    if len(unique) < args.folds:
        raise SystemExit(f"{len(unique)} openings cannot be split into {args.folds} folds")
    folds = np.random.default_rng(args.seed).permutation(unique)
    fits = {"evaluation alone": [], "shapes": ["shapes"], "shapes, classes": ["shapes", "classes"],
            "shapes, classes, finer shapes": ["shapes", "classes", "finer shapes"]}
    for name, parts in fits.items():
        chosen = [c for part in parts for c in columns[part]]
        x = np.column_stack([evals, rows[:, chosen]]) / scale
        losses = []
        for fold in range(args.folds):
            test = np.isin(openings, folds[fold::args.folds])
            w = fit_logistic(x[~test], y[~test], args.ridge)
            losses.append(log_loss_and_error(x[test] @ w, y[test])[0] * test.sum())
        print(f"  {name:30s} held-out log-loss {sum(losses) / len(rows):.4f}")
    chosen = columns["shapes"] + columns["classes"]
    w = fit_logistic(np.column_stack([evals, rows[:, chosen]]) / scale, y, args.ridge)
    # centi-stones beside the evaluation at its full weight, in the tables' units
    units = w[1:] / w[0] * EVAL_SCALE
    n, k = len(FITTED_SHAPES), len(FITTED_CLASSES)

    def table(values: np.ndarray, fitted: tuple[int, ...], size: int) -> tuple[int, ...]:
        out = [0] * size
        for i, v in zip(fitted, values, strict=True):
            out[i] = round(float(v))
        return tuple(out)

    correction = rows[:, chosen] @ w[1:] / w[0]
    print(f"the correction's standard deviation over the positions: {correction.std():.0f} "
          f"centi-stones (the evaluation's: {evals.std():.0f})")
    print(f"the evaluation's weight in the fit to all games: {w[0]:.3f}; the correction:")
    print(f"    shape=({table(units[:n], FITTED_SHAPES, N_SHAPES)},\n"
          f"           {table(-units[n:2 * n], FITTED_SHAPES, N_SHAPES)}),")
    print(f"    klass=({table(units[2 * n:2 * n + k], FITTED_CLASSES, N_CLASSES)},\n"
          f"           {table(-units[2 * n + k:], FITTED_CLASSES, N_CLASSES)}),")


if __name__ == "__main__":
    main()
