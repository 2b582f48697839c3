"""Pooled results of engine matches, read from their game records.

    python benchmarks/match_report.py games/seed153 games/seed154 games/seed155 \\
        --engine pbrain-gridgames [--alias NAME] [--rule renju] [--sprt 0,20] \\
        [--json report.json]

Reads the ``game-NNNN.psq`` records that ``gridgames match --out DIR`` writes and
pools every directory given: the named engine's wins, losses and draws, in all
and by colour; the score with its 95% interval over single games (a draw is half
a point); the Elo difference with its 95% interval over the game pairs (games
2k-1 and 2k of a directory: one opening, the colours swapped), as ``gridgames
match`` computes it; with ``--sprt``, the log-likelihood ratio of that test. So
runs of the same two engines with several seeds give one figure, by colour. Where
the same engine played some runs under another name (its brain's file named
otherwise), ``--alias NAME`` counts that name's games as the engine's.
Black's score over every game, whichever engine had black, with its interval
over the pairs, shows how far the openings lean to black: between two copies of
one engine, it is the openings' balance in play.

With ``--paired BASE_DIR...`` the directories given are compared game by game
with runs of another version on the same openings (the same ``--seed``, so game
N is the same opening with the same colours; runs of several seeds are matched
by the openings they played): the difference of the two versions' scores, each
pair's averaged over each version's runs, with its 95% interval over the
openings' pairs of games. The
opening's share of the variance cancels: on 200-game screens against Rapfi the
interval came out about a quarter narrower than that of two separate scores.

A game lost off the board (on time, by a crash, an illegal move or a protocol
error of the brain to move) is counted as the match counted it: its record ends
in the code that says so (see ``gridgames.gomoku.records``), and the report says
how many games ended that way. A record with no result (no five, no full board,
no such code: written before records kept it, say) has no known winner: such
games are counted apart and left out of the score, and their pairs with them.

Each engine's thinking time per move (mean, median, longest) is read from the
records' times. The stones of the match's opening are not moves: they are the
leading stones with no time on them (the match places them), or the first
``--opening-stones N`` where a brain may answer the opening in under a millisecond.

Games that repeat an earlier one move for move (at a fixed node count, a match of
more games than twice its openings replays them) are counted as the match counted
them, and the report says how many there were.

A match killed while it saved a record (SIGKILL) leaves that record's hidden
temporary file (``.game-NNNN.psq.1a2b3c4d.tmp``) in place of it: the report names
each such file and leaves it out, and ``--json`` lists them as ``interrupted_writes``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import asdict, dataclass, field, replace
from math import sqrt
from pathlib import Path
from statistics import fmean, median, stdev

from gridgames.gomoku.match import PAIR_POINTS, MatchStats, Sprt, pair_index
from gridgames.gomoku.records import GameRecord, RecordError, interrupted_saves, load
from gridgames.gomoku.rules import Rule

RECORD_NAME = re.compile(r"game-(\d+)\.psq")
OUTCOME_INDEX = {1.0: 0, 0.0: 1, 0.5: 2}  # a game's points: its place in [wins, losses, draws]


def half_width(values: list[float]) -> float:
    """Half the width of the 95% interval of the values' mean (normal approximation)."""
    return 1.96 * stdev(values) / sqrt(len(values))


def points_of(record: GameRecord, engine: str) -> float | None:
    """``engine``'s points in a recorded game, or None where the record has no result
    (no five, no full board, and no code of a game lost off the board)."""
    if engine not in (record.black, record.white):
        raise ValueError(f"{engine!r} played neither side of a game "
                         f"({record.black} against {record.white})")
    if record.result == "1/2-1/2":
        return 0.5
    if record.result in ("1-0", "0-1"):
        return 1.0 if (record.result == "1-0") == (record.black == engine) else 0.0
    if not record.to_board().legal_moves:
        return 0.5  # renju: only forbidden points left for black, a draw as matches call it
    return None


def opening_stones(record: GameRecord) -> int:
    """How many of a record's first stones the match placed: those with no time on them."""
    times = record.times_ms or []
    placed = 0
    while placed < len(times) and times[placed] == 0:
        placed += 1
    return placed


def moves_timed(record: GameRecord, opening: int | None = None) -> list[tuple[str, int]]:
    """(player, thinking time in ms) of each move of a record, the first ``opening``
    stones (by default :func:`opening_stones`) left out."""
    first = opening_stones(record) if opening is None else opening
    return [(record.black if index % 2 == 0 else record.white, spent)  # black's are even
            for index, spent in enumerate(record.times_ms or []) if index >= first]


@dataclass
class MoveTimes:
    """Each player's thinking times over the moves of the records counted."""

    by_engine: dict[str, list[int]] = field(default_factory=dict)

    def add(self, record: GameRecord, opening: int | None = None) -> None:
        for name, spent in moves_timed(record, opening):
            self.by_engine.setdefault(name, []).append(spent)

    def summary(self) -> dict[str, dict[str, float]]:
        """By player: moves, and their mean, median and longest time in ms."""
        return {name: {"moves": len(times), "mean": round(fmean(times), 1),
                       "median": median(times), "max": max(times)}
                for name, times in self.by_engine.items()}

    def line(self) -> str:
        return "  time a move (ms): " + ("; ".join(
            f"{name} mean {s['mean']:.0f}, median {s['median']:g}, longest {s['max']:g} "
            f"over {s['moves']} moves" for name, s in self.summary().items())
            or "no move times in the records")


@dataclass(kw_only=True)
class ColourTally:
    """Wins, losses and draws by colour."""

    black: list[int] = field(default_factory=lambda: [0, 0, 0])  # wins, losses, draws
    white: list[int] = field(default_factory=lambda: [0, 0, 0])

    def count(self, as_black: bool, points: float) -> None:
        (self.black if as_black else self.white)[OUTCOME_INDEX[points]] += 1

    @property
    def stats(self) -> MatchStats:
        """Wins, losses and draws with both colours together, counted game by game."""
        wins, losses, draws = (b + w for b, w in zip(self.black, self.white, strict=True))
        return MatchStats(wins, losses, draws)

    def interval(self) -> tuple[float, float]:
        """95% interval of the score (normal approximation over the per-game results)."""
        stats = self.stats
        if not stats.games:
            return 0.0, 1.0
        half = stats.score_error
        return max(0.0, stats.score - half), min(1.0, stats.score + half)


@dataclass
class PooledResults(ColourTally):
    engine: str
    opponents: list[str] = field(default_factory=list)
    pairs: list[int] = field(default_factory=lambda: [0] * len(PAIR_POINTS))
    undecided: int = 0  # games with no result in the record: no winner known
    off_the_board: int = 0  # games decided off the board (time, a brain's error): counted
    black_pairs: list[float] = field(default_factory=list)  # black's mean in each pair
    move_times: MoveTimes = field(default_factory=MoveTimes)
    replays: int = 0  # games that repeat an earlier one move for move: counted
    games_seen: set[tuple[object, ...]] = field(default_factory=set)

    @property
    def paired(self) -> MatchStats:
        """The same games with their complete pairs (the statistics then count pairs)."""
        stats = self.stats
        stats.pairs = list(self.pairs)
        return stats

    def add_directory(self, directory: Path, rule: Rule, aliases: Aliases | None = None,
                      opening: int | None = None) -> None:
        # each decided game's points: the engine's, then black's
        first_of_pair: dict[int, tuple[float, float] | None] = {}
        for number, record in numbered_records(directory, rule, aliases):
            points = self.add_game(record)
            self.move_times.add(record, opening)
            decided = None if points is None else (
                points, points if record.black == self.engine else 1.0 - points)
            pair = pair_index(number)
            if pair not in first_of_pair:
                first_of_pair[pair] = decided
                continue
            first = first_of_pair.pop(pair)
            if first is not None and decided is not None:
                self.pairs[PAIR_POINTS.index(first[0] + decided[0])] += 1
                self.black_pairs.append((first[1] + decided[1]) / 2)

    def add_game(self, record: GameRecord) -> float | None:
        """Count one game; the engine's points, or None where the record has no winner."""
        points = points_of(record, self.engine)
        as_black = record.black == self.engine
        opponent = record.white if as_black else record.black
        if opponent not in self.opponents:
            self.opponents.append(opponent)
        game = (record.black, record.white, tuple(record.moves))
        if game in self.games_seen:
            self.replays += 1
        self.games_seen.add(game)
        if points is None:
            self.undecided += 1
        else:
            self.count(as_black, points)
            if record.termination:
                self.off_the_board += 1
        return points

    def black_share(self) -> tuple[float, float, float]:
        """Black's score over every game, whichever engine had black, with its 95%
        interval over the complete pairs (one opening each): how the openings lean."""
        b, w = self.black, self.white
        games = sum(b) + sum(w)
        if not games:
            return 0.5, 0.0, 1.0
        score = (b[0] + w[1] + (b[2] + w[2]) / 2) / games
        if len(self.black_pairs) < 2:
            return score, 0.0, 1.0
        half = half_width(self.black_pairs)
        return score, max(0.0, score - half), min(1.0, score + half)

    def lines(self, sprt: Sprt | None = None) -> list[str]:
        games, paired = self.stats, self.paired
        score_low, score_high = self.interval()
        low, high = paired.elo_interval
        basis = (f"over {sum(self.pairs)} game pairs" if paired.by_pairs
                 else f"over {games.games} single games")
        b, w = self.black, self.white
        black, black_low, black_high = self.black_share()
        lines = [
            f"{self.engine} against {', '.join(self.opponents)}: {games.games} games, "
            f"{games.wins}-{games.losses}-{games.draws} (W-L-D), score {games.score:.3f} "
            f"(95% interval {score_low:.3f} to {score_high:.3f})",
            f"  as black {b[0]}-{b[1]}-{b[2]}, as white {w[0]}-{w[1]}-{w[2]}",
            f"  black's score, both engines: {black:.3f} (95% interval {black_low:.3f} to "
            f"{black_high:.3f}, over {len(self.black_pairs)} pairs)",
            f"  Elo {games.elo:+.1f} (95% interval {low:+.1f} to {high:+.1f}, {basis}); "
            f"pairs by points (0, 1/2, 1, 1 1/2, 2): {', '.join(map(str, self.pairs))}",
        ]
        if sprt is not None:
            lower, upper = sprt.bounds
            lines.append(f"  SPRT [{sprt.elo0:g}, {sprt.elo1:g}]: llr {sprt.llr(paired):.2f} "
                         f"(bounds {lower:.2f}, {upper:.2f})")
        lines.append(f"  games decided off the board (time, crash, illegal move, protocol; "
                     f"counted): {self.off_the_board}")
        lines.append(f"  games with no result in their record (left out): {self.undecided}")
        if self.replays:
            # at a fixed node count, a match longer than twice its openings replays them
            lines.append(f"  games that repeat an earlier game move for move (counted): "
                         f"{self.replays}")
        lines.append(self.move_times.line())
        return lines


# Other names of an engine in the records, each to the name reported on.
Aliases = dict[str, str]


def numbered_records(directory: Path, rule: Rule, aliases: Aliases | None = None
                     ) -> list[tuple[int, GameRecord]]:
    """The game records of a ``gridgames match --out`` directory, by game number, each
    player named as ``aliases`` has it."""
    if not directory.is_dir():
        raise ValueError(f"{directory}: not a directory of game records")
    numbered = sorted((int(m[1]), path) for path in directory.iterdir()
                      if (m := RECORD_NAME.fullmatch(path.name)))
    if not numbered:
        left_out = "".join(f"; {interrupted_note(path)}" for path in interrupted_saves(directory))
        raise ValueError(f"{directory}: no game records (game-NNNN.psq) in it{left_out}")
    aliases = aliases or {}
    records = []
    for number, path in numbered:
        try:
            record = load(path, rule)
        except RecordError as error:
            raise ValueError(f"{path}: {error}") from None
        named = replace(record, black=aliases.get(record.black, record.black),
                        white=aliases.get(record.white, record.white))
        if named.black == named.white and record.black != record.white:
            raise ValueError(f"{path}: --alias makes both players {named.black!r} "
                             f"({record.black} against {record.white})")
        records.append((number, named))
    return records


def interrupted_note(path: Path) -> str:
    """What the report says of the temporary file of a record whose write was interrupted."""
    return (f"left out {path}: the temporary file of a record whose write was interrupted "
            "(its match was killed while saving it); that game is not counted")


# Moves compared to tell that two runs played game N from the same opening.
OPENING_CHECK = 3


@dataclass(frozen=True)
class PairedDifference:
    """Two versions' scores on the same openings, over the pairs both completed."""

    pairs: int
    score: float  # the version compared, over those pairs
    base: float  # the base runs', averaged
    half_width: float  # of the difference's 95% interval

    @property
    def difference(self) -> float:
        return self.score - self.base

    def line(self, runs: int, base_engine: str, base_runs: int) -> str:
        return (f"  {_runs(runs)} paired with {_runs(base_runs)} of {base_engine} on the "
                f"same openings: {self.pairs} pairs, score {self.score:.3f} against "
                f"{self.base:.3f}, difference {self.difference:+.3f} "
                f"(95% interval {self.difference - self.half_width:+.3f} to "
                f"{self.difference + self.half_width:+.3f})")


def _runs(count: int) -> str:
    return f"{count} run{'s' if count > 1 else ''}"


GameScores = dict[int, tuple[float | None, tuple[object, ...]]]


def _points_by_game(directory: Path, engine: str, rule: Rule, aliases: Aliases | None
                    ) -> GameScores:
    """``engine``'s points in each game of a directory, with what must match in
    another run of the same openings: the engine's colour and the first moves."""
    return {number: (points_of(record, engine),
                     (record.black == engine, *record.moves[:OPENING_CHECK]))
            for number, record in numbered_records(directory, rule, aliases)}


def paired_difference(directories: list[Path], engine: str, bases: list[Path],
                      base_engine: str, rule: Rule = Rule.FREESTYLE,
                      aliases: Aliases | None = None) -> PairedDifference:
    """Compare ``engine``'s games in ``directories`` with ``base_engine``'s in
    ``bases``, game N with game N of the runs on the same openings (runs of several
    seeds are matched by the openings they played): the mean difference of the
    pairs' scores (each side's averaged over its runs) and its 95% interval over the
    pairs. ``aliases`` name ``engine`` in ``directories`` only."""
    ours = _opening_sets([_points_by_game(d, engine, rule, aliases) for d in directories],
                         directories)
    theirs = _opening_sets([_points_by_game(b, base_engine, rule, None) for b in bases], bases)
    for unmatched, other in ((ours, theirs), (theirs, ours)):
        for key, runs in unmatched.items():
            if key not in other:
                path = runs[0][1]
                raise ValueError(
                    f"game {key[0]} of {path} is not the same opening with the same colours "
                    f"as in any of {', '.join(str(r[1]) for v in other.values() for r in v)}: "
                    "were both played with the same --seed?")
    scores: list[tuple[float, float]] = []
    for key, runs in ours.items():
        scores += _pair_scores(runs, theirs[key])
    n = len(scores)
    if n < 2:
        raise ValueError(f"{', '.join(map(str, directories + bases))}: fewer than two "
                         "complete pairs of games in common to compare")
    return PairedDifference(n, fmean(s for s, _ in scores), fmean(b for _, b in scores),
                            half_width([s - b for s, b in scores]))


def _opening_sets(runs: list[GameScores], paths: list[Path]
                  ) -> dict[tuple[int, tuple[object, ...]], list[tuple[GameScores, Path]]]:
    """Runs grouped by the openings they played, known by their first game's."""
    sets: dict[tuple[int, tuple[object, ...]], list[tuple[GameScores, Path]]] = {}
    for run, path in zip(runs, paths, strict=True):
        first = min(run)
        sets.setdefault((first, run[first][1]), []).append((run, path))
    return sets


def _pair_scores(ours: list[tuple[GameScores, Path]], theirs: list[tuple[GameScores, Path]]
                 ) -> list[tuple[float, float]]:
    """Each pair's score for either side, averaged over its runs of the same openings."""
    first = ours[0][0]
    pairs: dict[int, list[int]] = {}
    for number in first:
        pairs.setdefault(pair_index(number), []).append(number)
    scores = []
    for numbers in pairs.values():
        if len(numbers) != 2 or not all(n in run for run, _ in ours + theirs for n in numbers):
            continue
        for run, path in ours + theirs:
            for number in numbers:
                if run[number][1] != first[number][1]:
                    raise ValueError(f"game {number} of {path} is not the same opening with "
                                     f"the same colours as in {ours[0][1]}: were both "
                                     "played with the same --seed?")
        points = [run[n][0] for run, _ in ours for n in numbers]
        base_points = [run[n][0] for run, _ in theirs for n in numbers]
        if None in points or None in base_points:
            continue  # a game the board did not decide
        scores.append((sum(p or 0.0 for p in points) / len(points),
                       sum(p or 0.0 for p in base_points) / len(base_points)))
    return scores


def pool(directories: list[Path], engine: str, rule: Rule = Rule.FREESTYLE,
         aliases: Aliases | None = None, opening: int | None = None) -> PooledResults:
    results = PooledResults(engine)
    for directory in directories:
        results.add_directory(directory, rule, aliases, opening)
    return results


def engine_aliases(engine: str, names: list[str], paired_engine: str | None) -> Aliases:
    """``--alias`` names, each to ``engine``; a ValueError for a name that is already
    one of the engines compared."""
    for name in names:
        if name in (engine, paired_engine):
            raise ValueError(f"--alias {name}: that is the name of an engine compared, "
                             "not another name of --engine")
    return dict.fromkeys(names, engine)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path,
                        help="directories written by gridgames match --out")
    parser.add_argument("--engine", required=True,
                        help="the engine to report on, as named in the records")
    parser.add_argument("--rule", default="freestyle", choices=[r.value for r in Rule],
                        help="the rule the games were played under (not stored in .psq)")
    parser.add_argument("--sprt", help="elo0,elo1[,alpha,beta]: print that test's llr too")
    parser.add_argument("--json", help="write the pooled counts to this file too")
    parser.add_argument("--paired", nargs="+", type=Path, metavar="BASE_DIR",
                        help="runs of another version on the same openings (the same "
                             "--seed): compare the directories given with them, game by "
                             "game")
    parser.add_argument("--paired-engine",
                        help="that version's name in its records (default: --engine)")
    parser.add_argument("--alias", action="append", default=[], metavar="NAME",
                        help="another name of the engine in some of the records: its games "
                             "count as --engine's (may be given more than once)")
    parser.add_argument("--opening-stones", type=int, metavar="N",
                        help="the stones of each game's opening, left out of the move "
                             "times (default: the leading stones with no time on them)")
    args = parser.parse_args(argv)
    base_engine = args.paired_engine or args.engine
    try:
        aliases = engine_aliases(args.engine, args.alias, args.paired_engine)
        sprt = Sprt.parse(args.sprt) if args.sprt else None
        if args.opening_stones is not None and args.opening_stones < 0:
            raise ValueError(f"--opening-stones {args.opening_stones}: a count of stones, "
                             "0 or more")
        results = pool(args.dirs, args.engine, Rule(args.rule), aliases, args.opening_stones)
        paired_diff = None
        if args.paired:
            paired_diff = paired_difference(args.dirs, args.engine, args.paired,
                                            base_engine, Rule(args.rule), aliases)
    except ValueError as error:
        parser.error(str(error))
    # A match killed while it saved a record: its folder lacks that game, and perhaps more.
    left_out = [path for directory in dict.fromkeys([*args.dirs, *(args.paired or [])])
                for path in interrupted_saves(directory)]
    print("\n".join(results.lines(sprt)))
    if paired_diff is not None:
        print(paired_diff.line(len(args.dirs), base_engine, len(args.paired)))
    for path in left_out:
        print(f"  {interrupted_note(path)}")
    if args.json:
        games, paired = results.stats, results.paired
        black, black_low, black_high = results.black_share()
        data = {**asdict(results), "score": games.score,
                "black_score": black, "black_score_interval": [black_low, black_high],
                "score_interval": list(results.interval()),
                "elo": games.elo, "elo_interval": list(paired.elo_interval),
                "interval_over_pairs": paired.by_pairs}
        del data["black_pairs"], data["move_times"], data["games_seen"]
        data["move_ms"] = results.move_times.summary()
        data["opening_stones"] = args.opening_stones
        data["aliases"] = args.alias
        data["interrupted_writes"] = [str(path) for path in left_out]
        if sprt is not None:
            data["sprt"] = {"elo0": sprt.elo0, "elo1": sprt.elo1, "llr": sprt.llr(paired)}
        if paired_diff is not None:
            data["paired"] = {**asdict(paired_diff), "difference": paired_diff.difference,
                              "base_engine": base_engine,
                              "base_dirs": [str(d) for d in args.paired]}
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
