"""Round-robin tournaments: every engine plays a match against every other.

Each pairing is a :func:`~gridgames.gomoku.match.run_match` of the same settings
(openings, times, rule), so every engine meets the same openings with both
colours. The standings give each engine's points and a rating: the Elo of the
Bradley-Terry model fitted to all the games at once (a draw counts half a win
for each side), with one drawn game added to every pairing so that an engine
that won every game still gets a finite rating; the ratings average zero.

>>> ratings([[0, 3], [1, 0]], [[0, 4], [4, 0]])  # 3 of 4, with a draw added: 3.5 of 5
[73.6, -73.6]
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from gridgames.gomoku.match import (
    EngineSpec,
    GameResult,
    MatchConfig,
    MatchReport,
    MatchStats,
    records_folder,
    run_match,
    unique_names,
)

# The drawn games added to every pairing before the ratings are fitted.
PRIOR_DRAWS = 1


def pairings(count: int) -> list[tuple[int, int]]:
    """Every pair of ``count`` engines once, in the order they are played.

    >>> pairings(3)
    [(0, 1), (0, 2), (1, 2)]
    """
    return [(i, j) for i in range(count) for j in range(i + 1, count)]


def ratings(points: Sequence[Sequence[float]], games: Sequence[Sequence[int]],
            prior_draws: int = PRIOR_DRAWS) -> list[float]:
    """Elo ratings averaging zero, fitted by maximum likelihood (Hunter's MM steps) to
    ``points[i][j]``, what engine i scored in ``games[i][j]`` games against j, with
    ``prior_draws`` (one or more) drawn games added to every pairing played."""
    n = len(points)
    # every pairing played gets its drawn games more
    added = [[prior_draws if i != j and games[i][j] else 0 for j in range(n)] for i in range(n)]
    played = [[games[i][j] + added[i][j] for j in range(n)] for i in range(n)]
    scored = [sum(points[i][j] + added[i][j] / 2 for j in range(n)) for i in range(n)]
    strength = [1.0] * n
    for _ in range(10_000):
        new = []
        for i in range(n):
            denominator = sum(played[i][j] / (strength[i] + strength[j])
                              for j in range(n) if j != i and played[i][j])
            new.append(scored[i] / denominator if denominator else strength[i])
        # keep the geometric mean at one: the ratings are only defined up to a shift
        scale = math.exp(sum(math.log(s) for s in new) / n)
        new = [s / scale for s in new]
        done = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True)) < 1e-10
        strength = new
        if done:
            break
    return [round(400 * math.log10(s), 1) for s in strength]


@dataclass
class TournamentReport:
    """Every pairing's match report, and the standings they add up to."""

    engines: list[EngineSpec]
    matches: dict[tuple[int, int], MatchReport] = field(default_factory=dict)

    def points(self) -> list[list[float]]:
        """``points[i][j]``: what engine i scored against engine j."""
        n = len(self.engines)
        table = [[0.0] * n for _ in range(n)]
        for (i, j), report in self.matches.items():
            own = sum(result.points for result in report.results)
            table[i][j] += own
            table[j][i] += len(report.results) - own
        return table

    def games(self) -> list[list[int]]:
        n = len(self.engines)
        table = [[0] * n for _ in range(n)]
        for (i, j), report in self.matches.items():
            table[i][j] = table[j][i] = len(report.results)
        return table

    def standings_lines(self) -> list[str]:
        """The standings, best first, then the crosstable."""
        points, games = self.points(), self.games()
        elo = ratings(points, games)
        names = [spec.name for spec in self.engines]
        width = max(len("engine"), *(len(name) for name in names))
        order = sorted(range(len(names)), key=lambda i: (-elo[i], -sum(points[i]), i))
        lines = [f"  #  {'engine':<{width}}  points  games  score     Elo"]
        for rank, i in enumerate(order, 1):
            total = sum(games[i])
            score = sum(points[i]) / total if total else 0.0
            lines.append(f"{rank:>3}  {names[i]:<{width}}  {sum(points[i]):>6g}  {total:>5}  "
                         f"{score:>5.3f}  {elo[i]:>+6.0f}")
        cell = max(7, *(len(name) for name in names))
        lines.append("Crosstable (points of the row's engine against the column's):")
        lines.append(" " * (width + 2) + "".join(f"  {names[j]:>{cell}}" for j in order))
        for i in order:
            row = "".join(f"  {'-' if i == j else f'{points[i][j]:g}/{games[i][j]}':>{cell}}"
                          for j in order)
            lines.append(f"{names[i]:<{width + 2}}{row}")
        return lines


def run_tournament(engines: Sequence[EngineSpec], settings: MatchConfig, *,
                   on_game: Callable[[tuple[int, int], GameResult, MatchStats], None]
                   | None = None,
                   on_match: Callable[[tuple[int, int], MatchReport], None] | None = None,
                   ) -> TournamentReport:
    """Play every pairing of ``engines`` (two or more) as a match of ``settings`` (whose
    own engines are replaced), each from the same openings in the same order; with
    ``settings.out_dir``, each pairing's records go to a folder of their own in it,
    named by the two engines' places (``1-2``, ``1-3``...)."""
    specs = unique_names(engines)
    if len(specs) < 2:
        raise ValueError(f"a tournament needs two engines or more, got {len(specs)}")
    if settings.seed is None:  # one order of the openings for every pairing
        settings = replace(settings, seed=random.randrange(1 << 31))
    folders: dict[tuple[int, int], Path | None] = {}
    for i, j in pairings(len(specs)):
        # all made before the first game: a folder that cannot be is refused before any
        folders[i, j] = (None if settings.out_dir is None else
                         records_folder(Path(settings.out_dir) / f"{i + 1}-{j + 1}"))
    report = TournamentReport(specs)
    for pair in pairings(len(specs)):
        i, j = pair
        config = replace(settings, engines=(specs[i], specs[j]), out_dir=folders[pair],
                         sprt=None)
        callback = None if on_game is None else (
            lambda result, stats, pair=pair: on_game(pair, result, stats))
        report.matches[pair] = run_match(config, on_game=callback)
        if on_match is not None:
            on_match(pair, report.matches[pair])
    return report

