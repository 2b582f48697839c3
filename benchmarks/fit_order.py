"""Fit move-ordering weights to a strong engine's moves, beside the engine's own ordering.

    python benchmarks/fit_order.py match-out/ more-games/ --player rapfi
    python benchmarks/fit_order.py renju-games/ --player rapfi --rule renju
    python benchmarks/fit_order.py match-out/ --player rapfi --quiet

Reads ``.psq`` records (files, or folders such as ``gridgames match --out`` writes)
and takes every quiet position (neither side has a five or an open four to make)
where the player whose name contains ``--player`` chose a move after the opening
(moves recorded with no thinking time are the opening's). The candidates are the
moves the search generates there (empty cells near the stones); each is described
by the line shapes and threat class a stone there makes for the side to move and
would make for the opponent.

It fits an ordering linear in those, a weight per line shape and per class for
each side, by softmax regression over each position's candidates: the likelihood
that the player's move comes first (Newton's method, a small ridge). Line shapes
count from an open end (DEAD is 0), the class from none (NONE is 0); what no quiet
position shows (fours and fives) is not fitted.

With ``--quiet`` it fits and compares the order of the quiet moves only (they make
no three for either side), in the positions where the player's move was one.

It prints, for the positions of the last fifth of the games (held out), how often
the player's move comes first, in the first three and in the first eight, and its
mean rank, by the engine's ordering (``search._order`` without the history) and by
the fitted one; then the fitted weights, in logits. How well an ordering predicts
the strong engine's choice is not how well it serves the search: see
``docs/engine-history.md``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from gridgames.gomoku import Rule
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai.patterns import (
    C_FIVE,
    C_FLEX3,
    C_FLEX4,
    CLASS_NAMES,
    COMBO_CLASS,
    N_CLASSES,
    N_SHAPES,
    SHAPE_NAMES,
    combo_features,
)
from gridgames.gomoku.records import RecordError, load

RIDGE = 1e-3
# The engine's ordering scores in logits: the scale that best predicts strong moves
# on the games of 2026-11-26 (an ordering unit is a fiftieth of a logit).
ORDER_UNITS_PER_LOGIT = 50


def engine_order(table: np.ndarray, mover: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The engine's ordering score of moves from their combos, as ``search._order``
    gives it before the history and killers: our evaluation three times, the other's
    once."""
    return (table[mover, P.T_EVAL_MOVER] * 3 + table[other, P.T_EVAL_MOVER]) // 20


class Positions:
    """The candidates of every position, flat: each one's combos for the side to move
    and the other, which position it belongs to, and which candidate was played."""

    def __init__(self) -> None:
        self.mover: list[np.ndarray] = []
        self.other: list[np.ndarray] = []
        self.played: list[int] = []
        self.game: list[int] = []

    def add(self, mover: np.ndarray, other: np.ndarray, played: int, game: int) -> None:
        self.mover.append(mover)
        self.other.append(other)
        self.played.append(played)
        self.game.append(game)

    def __len__(self) -> int:
        return len(self.played)


def read_positions(paths: list[str], rule: Rule, player: str) -> Positions:
    positions = Positions()
    games = 0
    for name in paths:
        path = Path(name)
        files = sorted(path.glob("*.psq")) if path.is_dir() else [path]
        for file in files:
            try:
                record = load(file, rule)
                record.to_board()  # every move legal, or the record is refused
            except (OSError, RecordError) as error:
                raise SystemExit(f"cannot read {file}: {error}") from None
            games += 1
            pos = P.new_position(record.width, record.height, rule.code, P.new_table(4))
            times = record.times_ms or [1] * len(record.moves)
            for ply, (move, spent) in enumerate(zip(record.moves, times, strict=True)):
                me = ply % 2
                mover = record.black if me == 0 else record.white
                idx = P.cell_index(pos, move)
                counts = pos.class_count
                quiet = not (counts[me, C_FIVE] or counts[me, C_FLEX4]
                             or counts[1 - me, C_FIVE] or counts[1 - me, C_FLEX4])
                if spent > 0 and quiet and player in mover:
                    candidates = np.flatnonzero((pos.cells == 0) & (pos.near > 0))
                    where = np.flatnonzero(candidates == idx)
                    if len(where):
                        positions.add(pos.combo[me, candidates].astype(np.int64),
                                      pos.combo[1 - me, candidates].astype(np.int64),
                                      int(where[0]), games)
                P.make(pos, idx)
    if not positions:
        raise SystemExit(f"no quiet position where a player named like {player!r} moved")
    return positions


def quiet_only(positions: Positions) -> Positions:
    """The positions whose played move is quiet, each with its quiet candidates only."""
    part = Positions()
    for mover, other, played, game in zip(positions.mover, positions.other,
                                          positions.played, positions.game, strict=True):
        quiet = (COMBO_CLASS[mover] < C_FLEX3) & (COMBO_CLASS[other] < C_FLEX3)
        if quiet[played] and quiet.sum() > 1:
            kept = np.flatnonzero(quiet)
            part.add(mover[kept], other[kept], int(np.flatnonzero(kept == played)[0]), game)
    return part


class Softmax:
    """The softmax over each position's candidates of a score linear in features."""

    def __init__(self, positions: Positions, features: np.ndarray) -> None:
        sizes = np.array([len(m) for m in positions.mover])
        self.group = np.repeat(np.arange(len(positions)), sizes)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        self.played = starts + np.array(positions.played)
        self.n = len(positions)
        mover = np.concatenate(positions.mover)
        other = np.concatenate(positions.other)
        self.x = np.hstack([features[mover], features[other]])
        self.attack = COMBO_CLASS[mover] >= C_FLEX3  # makes a three or more
        self.defence = (COMBO_CLASS[other] >= C_FLEX3) & ~self.attack  # only stops one

    def probabilities(self, score: np.ndarray) -> np.ndarray:
        top = np.full(self.n, -np.inf)
        np.maximum.at(top, self.group, score)
        e = np.exp(score - top[self.group])
        return e / np.bincount(self.group, weights=e, minlength=self.n)[self.group]

    def loss(self, score: np.ndarray) -> float:
        return float(-np.mean(np.log(self.probabilities(score)[self.played])))

    def fit(self, columns: np.ndarray) -> np.ndarray:
        """Weights of the given feature columns (the others stay 0)."""
        x = self.x[:, columns]

        def objective(theta: np.ndarray) -> float:
            return self.loss(x @ theta) + RIDGE / 2 * float(theta @ theta)

        theta = np.zeros(x.shape[1])
        for _ in range(50):  # Newton's method, halving steps that overshoot
            p = self.probabilities(x @ theta)
            gradient = (x.T @ p - x[self.played].sum(axis=0)) / self.n + RIDGE * theta
            per_group = np.stack([np.bincount(self.group, weights=p * x[:, j], minlength=self.n)
                                  for j in range(x.shape[1])], axis=1)
            hessian = ((x.T @ (x * p[:, None]) - per_group.T @ per_group) / self.n
                       + RIDGE * np.eye(len(theta)))
            step = np.linalg.solve(hessian, gradient)
            before = objective(theta)
            while objective(theta - step) > before and np.abs(step).max() > 1e-9:
                step /= 2
            theta -= step
            if np.abs(step).max() < 1e-5:
                break
        return theta

    def ranks(self, score: np.ndarray) -> np.ndarray:
        """The played move's rank among its position's candidates (ties count half)."""
        mine = score[self.played][self.group]
        above = np.bincount(self.group, weights=score > mine, minlength=self.n)
        level = np.bincount(self.group, weights=score == mine, minlength=self.n) - 1
        return above + level / 2

    def places(self, score: np.ndarray) -> np.ndarray:
        """Every candidate's place in its position's order (0 first; ties by index)."""
        order = np.lexsort((-score, self.group))
        starts = np.searchsorted(self.group[order], np.arange(self.n))
        places = np.empty(len(score), dtype=np.int64)
        places[order] = np.arange(len(score)) - starts[self.group[order]]
        return places


def subset(positions: Positions, keep: np.ndarray) -> Positions:
    part = Positions()
    for i in np.flatnonzero(keep):
        part.add(positions.mover[i], positions.other[i], positions.played[i],
                 positions.game[i])
    return part


def report(name: str, model: Softmax, score: np.ndarray) -> None:
    """How the scores (in logits) rank the played moves of the model's positions."""
    rank = model.ranks(score)
    print(f"{name:>8}: first {np.mean(rank < 0.5):.3f}, in the first three "
          f"{np.mean(rank < 2.5):.3f}, in the first eight {np.mean(rank < 7.5):.3f}, "
          f"mean rank {rank.mean():.2f}, log-loss {model.loss(score):.3f}")
    places = model.places(score)

    def mean_place(kind: np.ndarray) -> str:
        return f"{places[kind].mean():.2f}" if kind.any() else "(none)"

    print(f"{'':>8}  mean place of the moves that make a three or more "
          f"{mean_place(model.attack)}, that only stop one {mean_place(model.defence)}")


def fit(paths: list[str], rule: Rule, player: str, quiet: bool) -> None:
    positions = read_positions(paths, rule, player)
    if quiet:
        positions = quiet_only(positions)
        if not positions:
            raise SystemExit("no position where the player's move was quiet")
    games = np.array(positions.game)
    held_out = games > np.quantile(games, 0.8)
    features = combo_features()
    train = Softmax(subset(positions, ~held_out), features)
    held = subset(positions, held_out)
    test = Softmax(held, features)
    width = N_SHAPES + N_CLASSES
    seen = train.x.sum(axis=0) > 0
    fixed = [0, N_SHAPES, width, width + N_SHAPES]  # DEAD and NONE of each side
    columns = np.array([j for j in range(2 * width) if seen[j] and j not in fixed])
    weights = np.zeros(2 * width)
    weights[columns] = train.fit(columns)
    ordered = engine_order(P.combo_table(rule.code), np.concatenate(held.mover),
                           np.concatenate(held.other))
    print(f"{len(positions)} positions ({len(held)} held out) of {games.max()} games; "
          f"held out:")
    report("engine", test, ordered / ORDER_UNITS_PER_LOGIT)
    report("fitted", test, test.x @ weights)

    def row(values: np.ndarray) -> str:
        return "(" + ", ".join(f"{v:.2f}" for v in values) + ")"

    print("SHAPES  ", " ".join(f"{n:>6}" for n in SHAPE_NAMES))
    print("CLASSES ", " ".join(f"{n:>6}" for n in CLASS_NAMES))
    print(f"fitted weights for {rule.name.lower()}, in logits (the side to move, then the other):")
    print(f"    shape=(\n        {row(weights[:N_SHAPES])},\n"
          f"        {row(weights[width:width + N_SHAPES])},\n    ),")
    print(f"    klass=(\n        {row(weights[N_SHAPES:width])},\n"
          f"        {row(weights[width + N_SHAPES:])},\n    ),")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+", help=".psq records or folders of them")
    parser.add_argument("--player", required=True,
                        help="whose moves to learn: part of the name the records give")
    parser.add_argument("--rule", choices=[r.name.lower() for r in Rule], default="freestyle")
    parser.add_argument("--quiet", action="store_true",
                        help="the order of the quiet moves only (no three made or stopped)")
    args = parser.parse_args()
    fit(args.data, Rule[args.rule.upper()], args.player, args.quiet)


if __name__ == "__main__":
    main()
