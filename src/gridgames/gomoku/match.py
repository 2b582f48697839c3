"""Engine matches: two Gomocup brains play a series of games, judged by our rules.

An engine is either our own engine at a level (``level:6``, ``level:max``),
run as our brain in a subprocess, or the command line of any Gomocup brain.
Each opening is played twice, once with each engine as black. Games run in
parallel when asked: every game's engines are separate processes, so a game
costs the coordinator nothing but waiting.

The judge is the core rules: a move that is off the board, on a stone or
(under renju) forbidden loses, and so does a crash, a protocol error or a
reply later than the turn time (or the time left in the game) plus the
tolerance. A full board is a draw.

Statistics: the Elo difference from the score with its 95% error bar, and an
optional sequential probability ratio test that stops the match once one of two
Elo hypotheses is accepted. Both count the two games of an opening as one pair
(the "pentanomial" model of fishtest and fastchess) once pairs are complete:
an opening that favours one colour makes the two games of a pair lean opposite
ways, so their sum varies less than two independent games would, and the
interval is narrower and the test decides sooner, at the same error rates.
Until 40 pairs are complete, and while they are all alike, the games are
counted one by one (as cutechess-cli).

>>> round(elo_from_score(0.75), 2)
190.85
>>> stats = MatchStats(wins=30, losses=20, draws=10)
>>> round(stats.score, 4), round(stats.elo, 1), round(stats.elo_error, 1)
(0.5833, 58.5, 82.8)
>>> stats = MatchStats(wins=60, losses=40, draws=20)  # twice as many games
>>> round(stats.elo_error, 1)
58.0
>>> stats.pairs = [4, 4, 28, 16, 8]  # the same 120 games, as 60 pairs
>>> round(stats.elo_error, 1)
46.0
"""

from __future__ import annotations

import contextlib
import math
import os
import queue
import random
import shlex
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from gridgames.gomoku.board import (
    Board,
    Color,
    IllegalMoveError,
    InvalidMoveError,
    Point,
    check_size,
)
from gridgames.gomoku.gomocup.client import (
    DEFAULT_START_TIMEOUT_MS,
    DEFAULT_TOLERANCE_MS,
    Engine,
    EngineError,
    EngineStartError,
    EngineTerminatedError,
    EngineTimeoutError,
    IllegalEngineMoveError,
    our_brain_command,
)
from gridgames.gomoku.gomocup.protocol import UNLIMITED_TIME
from gridgames.gomoku.notation import format_position, parse_position, shown, shown_value
from gridgames.gomoku.openings import centred, default_openings, relative_opening
from gridgames.gomoku.records import (
    TIME_FORFEIT,
    UNKNOWN,
    GameRecord,
    interrupted_saves,
    save,
)
from gridgames.gomoku.rules import Rule

# -- statistics -----------------------------------------------------------------

_Z95 = 1.959963984540054  # two-sided 95% quantile of the normal distribution


def elo_from_score(score: float) -> float:
    """The Elo difference that gives an expected ``score`` (0 < score < 1)."""
    if not 0.0 < score < 1.0:
        return math.inf if score >= 1.0 else -math.inf
    return 0.0 - 400.0 * math.log10(1.0 / score - 1.0)  # 0.0 - x: no "-0.0" at 50%


def score_from_elo(elo: float) -> float:
    """The expected score against an opponent ``elo`` points weaker.

    >>> round(score_from_elo(0), 3), round(score_from_elo(400), 4)
    (0.5, 0.9091)
    >>> score_from_elo(-1e308)  # no OverflowError: the score is 0 to a float's precision
    0.0
    """
    try:
        return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))
    except OverflowError:
        return 0.0


# The largest Elo difference an SPRT hypothesis may name: its expected score is 1 within
# 1e-10, and far beyond, two hypotheses expect the same float score (no game tells them
# apart) or the score overflows.
MAX_SPRT_ELO = 4000

# The points a game pair can score for the first engine, by index in MatchStats.pairs.
PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)
# Complete pairs needed before the statistics count pairs: the spread of fewer is too
# rough to stop a test on. Simulated (benchmarks/sprt_pairs.py: --sprt 0,30, 3,000
# tests at each hypothesis, pairs scored as on the freestyle screens), counting pairs
# from the first on let 7.2% of the tests at elo1 accept H0 where 5% were asked for;
# from 40 on, 5.6% and 5.4% decided wrongly, and a test took a median of about 160
# pairs, against about 310 counted game by game (which erred in 0.8%: single games
# overstate the noise).
PAIRS_NEEDED = 40
# The longest time a brain can be told (INFO values are 32-bit integers in Piskvork).
MAX_TIME_MS = UNLIMITED_TIME
# The most games a match (or a tournament's pairing) plays: more than any match needs
# (an SPRT decides within a few thousand pairs; a million 100 ms games is weeks of play),
# and its schedule is still made in a fraction of a second.
MAX_GAMES = 1_000_000
# The most games played at once on one machine: each game runs two brains, which need a
# core each for their times to mean anything. A cluster (--cluster) does not use it.
MAX_CONCURRENCY = 256
# The most nodes a move: what our engine's search limit takes (ai.limits MAX_LIMIT, as
# the brain's MAX_SEARCH_LIMIT; not imported here, the engine loads later).
MAX_NODES = 2**48


@dataclass
class MatchStats:
    """Wins, losses and draws of the first engine, with score and Elo; and the
    completed game pairs (the two games of an opening) by the points they scored
    for it: ``pairs[k]`` pairs scored ``PAIR_POINTS[k]``."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    pairs: list[int] = field(default_factory=lambda: [0] * len(PAIR_POINTS))

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5

    @property
    def elo(self) -> float:
        return elo_from_score(self.score)

    @property
    def by_pairs(self) -> bool:
        """Whether the statistics count game pairs: :data:`PAIRS_NEEDED` are complete,
        and not all alike."""
        return self._pair_units() is not None

    def _pair_units(self) -> tuple[int, float, float] | None:
        m = sum(self.pairs)
        if m < PAIRS_NEEDED:
            return None
        counted = list(zip(self.pairs, PAIR_POINTS, strict=True))
        mean = sum(count * points / 2 for count, points in counted) / m
        variance = sum(count * (points / 2 - mean) ** 2 for count, points in counted) / m
        return (m, mean, variance) if variance > 0 else None

    def units(self) -> tuple[int, float, float]:
        """(count, mean score, variance of one unit's mean score) of the units the
        statistics are built on: the game pairs when :attr:`by_pairs`, else the games
        one by one."""
        paired = self._pair_units()
        if paired is not None:
            return paired
        n = self.games
        if n == 0:
            return 0, 0.5, 0.0
        s = self.score
        variance = (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2
                    + self.losses * s ** 2) / n
        return n, s, variance

    @property
    def score_error(self) -> float:
        """Half the width of the 95% confidence interval of :attr:`score`.

        >>> round(MatchStats(wins=6, losses=4).score_error, 3)
        0.304
        """
        n, _, variance = self.units()
        return _Z95 * math.sqrt(variance / n) if n else 0.0

    @property
    def elo_interval(self) -> tuple[float, float]:
        """The 95% confidence interval of :attr:`elo` (infinite where the score's reaches 0 or 1).

        >>> low, high = MatchStats(wins=2, losses=18).elo_interval
        >>> low, round(high, 1)
        (-inf, -208.5)
        """
        if self.games == 0:
            return -math.inf, math.inf
        deviation = self.score_error
        return elo_from_score(self.score - deviation), elo_from_score(self.score + deviation)

    @property
    def elo_error(self) -> float:
        """Half the width of the 95% confidence interval of :attr:`elo` (as cutechess-cli)."""
        low, high = self.elo_interval
        if math.isinf(low) or math.isinf(high):
            return math.inf
        return (high - low) / 2

    def add(self, points: float) -> None:
        """Count one game: 1 a win, 0.5 a draw, 0 a loss."""
        if points == 1:
            self.wins += 1
        elif points == 0:
            self.losses += 1
        else:
            self.draws += 1

    def add_pair(self, points: float) -> None:
        """Count a completed pair, both of its games already counted by :meth:`add`:
        ``points`` is what the two games scored together (0 to 2)."""
        self.pairs[PAIR_POINTS.index(points)] += 1


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of ``elo0`` (H0) against ``elo1`` (H1).

    The log-likelihood ratio uses the normal approximation of the mean score
    (the "GSPRT" of fishtest and c-chess-cli), which needs no draws, as Gomoku
    often has none; over game pairs once there are enough of them (see
    :meth:`MatchStats.units`).

    >>> sprt = Sprt.parse("0,10")
    >>> [round(bound, 3) for bound in sprt.bounds]
    [-2.944, 2.944]
    >>> sprt.status(MatchStats(wins=60, losses=40, draws=0)) is None
    True
    >>> sprt.status(MatchStats(wins=600, losses=400, draws=0))
    'H1'
    >>> sprt.status(MatchStats(wins=400, losses=600, draws=0))
    'H0'
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """Read ``elo0,elo1[,alpha,beta]``."""
        try:
            values = [float(v) for v in text.split(",")]
        except ValueError:
            raise ValueError(
                f"--sprt expects numbers elo0,elo1[,alpha,beta], got {shown(text)!r}"
            ) from None
        if len(values) not in (2, 4):
            raise ValueError("--sprt expects elo0,elo1 or elo0,elo1,alpha,beta, "
                             f"got {shown(text)!r}")
        sprt = cls(*values)
        if not sprt.elo0 < sprt.elo1:
            raise ValueError(f"--sprt needs elo0 < elo1, got {sprt.elo0} and {sprt.elo1}")
        if not -MAX_SPRT_ELO <= sprt.elo0 < sprt.elo1 <= MAX_SPRT_ELO:
            raise ValueError(f"--sprt elo0 and elo1 must be from {-MAX_SPRT_ELO} to "
                             f"{MAX_SPRT_ELO}, got {sprt.elo0:g} and {sprt.elo1:g}")
        if not (0 < sprt.alpha < 1 and 0 < sprt.beta < 1):
            raise ValueError("--sprt alpha and beta must be between 0 and 1")
        if sprt.alpha + sprt.beta >= 1:
            # the bounds would cross, and the test accept a hypothesis before any game
            raise ValueError(f"--sprt alpha + beta must be below 1, got {sprt.alpha:g} + "
                             f"{sprt.beta:g}")
        return sprt

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): accept H0 below the lower bound, H1 above the upper one."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    def llr(self, stats: MatchStats) -> float:
        """The log-likelihood ratio of H1 against H0 after ``stats``."""
        n, s, variance = stats.units()
        if variance <= 0:
            return 0.0  # no spread in the results yet: nothing to estimate a variance from
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * variance)

    def status(self, stats: MatchStats) -> str | None:
        """``"H0"`` or ``"H1"`` once accepted, else ``None``."""
        llr = self.llr(stats)
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None


# -- engines ----------------------------------------------------------------------


@dataclass(frozen=True)
class EngineSpec:
    """How to run one side of a match: a name and a command line.

    >>> EngineSpec.parse("level:3").name, EngineSpec.parse("level:3").argv[-2:]
    ('level:3', ('--level', '3'))
    >>> EngineSpec.parse("/opt/pbrain-foo -q").argv
    ('/opt/pbrain-foo', '-q')
    """

    name: str
    argv: tuple[str, ...]
    level: int | None = None

    @classmethod
    def parse(cls, text: str) -> EngineSpec:
        stripped = text.strip()
        if stripped.lower().startswith("level:"):
            from gridgames.gomoku.ai.levels import get_level

            level = get_level(stripped)
            return cls(f"level:{stripped.split(':', 1)[1].strip().lower()}",
                       tuple(our_brain_command(level.number)), level.number)
        try:
            argv = shlex.split(stripped)
        except ValueError as error:  # an unclosed quote: say in which engine
            raise ValueError(f"cannot read the engine command {shown(stripped)!r}: "
                             f"{error}") from None
        if not argv or not argv[0]:
            raise ValueError("an engine is 'level:N', 'level:max' or a brain's command line, "
                             f"got {shown(text)!r}")
        return cls(Path(argv[0]).name, tuple(argv))

    def on_this_machine(self) -> EngineSpec:
        """The spec with our own brain's command line as this machine runs it (its Python
        may live elsewhere than the coordinator's); a brain's command line is kept."""
        if self.level is None:
            return self
        return EngineSpec(self.name, tuple(our_brain_command(self.level)), self.level)


# -- games ------------------------------------------------------------------------


def unique_names(specs: Sequence[EngineSpec]) -> list[EngineSpec]:
    """The engines with distinct names: a name met again gets " (2)", " (3)"...

    >>> [s.name for s in unique_names([EngineSpec.parse(t) for t in
    ...     ("/a/pbrain-x", "/b/pbrain-x", "level:3")])]
    ['pbrain-x', 'pbrain-x (2)', 'level:3']
    """
    seen: dict[str, int] = {}
    named = []
    for spec in specs:
        count = seen[spec.name] = seen.get(spec.name, 0) + 1
        named.append(spec if count == 1 else replace(spec, name=f"{spec.name} ({count})"))
    return named


@dataclass(frozen=True)
class MatchConfig:
    """Everything that defines a match (times in milliseconds)."""

    engines: tuple[EngineSpec, EngineSpec]
    games: int = 10
    rule: Rule = Rule.FREESTYLE
    width: int = 15
    height: int = 15
    time_ms: int = 1_000
    match_time_ms: int | None = None
    time_odds: float = 1.0  # the first engine's times are multiplied by this
    nodes: int | None = None  # both engines' nodes a move (INFO max_node), the time still a cap
    tolerance_ms: int = DEFAULT_TOLERANCE_MS
    openings: tuple[tuple[Point, ...], ...] = ()
    concurrency: int = 1
    out_dir: Path | None = None
    sprt: Sprt | None = None
    seed: int | None = None
    start_timeout_ms: int = DEFAULT_START_TIMEOUT_MS  # for the OK to START (and RESTART)

    def __post_init__(self) -> None:
        """Refuse settings no match can be played with (ValueError saying what is allowed).

        The bounds are those of ``gridgames match``'s options.

        >>> spec = EngineSpec.parse("level:1")
        >>> MatchConfig((spec, spec), tolerance_ms=-5)
        Traceback (most recent call last):
        ...
        ValueError: tolerance_ms must be a whole number from 0 to 2147483647, got -5
        >>> MatchConfig((spec, spec), games=10**3000)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: games must be a whole number from 1 to 1000000, got 1000000000000000...
        """
        # Two builds of one brain are told apart in the games' lines and records.
        object.__setattr__(self, "engines", tuple(unique_names(self.engines)))
        if not 0 < self.time_odds < math.inf:
            raise ValueError(f"time_odds must be a number above 0, got {self.time_odds!r}")
        # tolerance_ms and start_timeout_ms are not sent to a brain, but a wait that long
        # is a typing slip, and far longer ones overflow the platform's timers
        for name, minimum, maximum in (
                ("games", 1, MAX_GAMES), ("concurrency", 1, MAX_CONCURRENCY),
                ("time_ms", 0, MAX_TIME_MS), ("match_time_ms", 1, MAX_TIME_MS),
                ("tolerance_ms", 0, MAX_TIME_MS), ("nodes", 1, MAX_NODES),
                ("start_timeout_ms", 1, MAX_TIME_MS)):
            value = getattr(self, name)
            if value is None and name in ("match_time_ms", "nodes"):
                continue
            if (not isinstance(value, int) or isinstance(value, bool)
                    or not minimum <= value <= maximum):
                raise ValueError(f"{name} must be a whole number from {minimum} to {maximum}, "
                                 f"got {shown_value(value)}")
        check_size(self.width, self.height)
        for name in ("time_ms", "match_time_ms"):
            value = getattr(self, name)
            if value is not None and value * max(1.0, self.time_odds) > MAX_TIME_MS:
                raise ValueError(f"{name} {value} with time odds {self.time_odds:g} is more "
                                 f"than the protocol's {MAX_TIME_MS} ms")

    def turn_ms(self, engine: int) -> int:
        """The time a move of engine ``engine`` (0 or 1): the first one's times are
        ``time_odds`` times the second's.

        >>> spec = EngineSpec.parse("level:1")
        >>> config = MatchConfig((spec, spec), time_ms=200, time_odds=2.5)
        >>> config.turn_ms(0), config.turn_ms(1)
        (500, 200)
        """
        return self._scaled(self.time_ms, engine)

    def game_ms(self, engine: int) -> int | None:
        """The time a game of engine ``engine`` (None: no match clock)."""
        return None if self.match_time_ms is None else self._scaled(self.match_time_ms, engine)

    def _scaled(self, ms: int, engine: int) -> int:
        return round(ms * self.time_odds) if engine == 0 else ms


@dataclass
class GameResult:
    """One finished game. ``points`` is the first engine's score (1, 0.5 or 0)."""

    number: int
    black: int  # index of the engine that played black
    opening: tuple[Point, ...]
    record: GameRecord
    result: str  # "1-0", "0-1" or "1/2-1/2"
    reason: str
    errors: list[str] = field(default_factory=list)

    @property
    def points(self) -> float:
        if self.result == "1/2-1/2":
            return 0.5
        black_won = self.result == "1-0"
        return 1.0 if black_won == (self.black == 0) else 0.0


def pair_index(number: int) -> int:
    """The pair of game ``number`` (from 1): games 1 and 2 are pair 0, 3 and 4 pair 1..."""
    return (number - 1) // 2


def schedule(config: MatchConfig) -> list[tuple[int, tuple[Point, ...], int]]:
    """(game number, opening, black engine index) for every game: each opening twice,
    with the colours swapped (the two games of a pair, see :func:`pair_index`), in an
    order shuffled by the seed."""
    openings = scheduled_openings(config)
    random.Random(config.seed).shuffle(openings)
    games = []
    for number in range(1, config.games + 1):
        games.append((number, openings[pair_index(number) % len(openings)], (number - 1) % 2))
    return games


def scheduled_openings(config: MatchConfig) -> list[tuple[Point, ...]]:
    """The openings the schedule plays from: the empty board where none is given."""
    return list(config.openings) or [()]


def replayed_games(config: MatchConfig) -> int:
    """Games whose opening an earlier pair already played: the schedule runs out of
    openings and starts again from the first."""
    return max(0, config.games - 2 * len(scheduled_openings(config)))


def default_opening_moves(width: int, height: int,
                          rule: Rule = Rule.FREESTYLE) -> tuple[tuple[Point, ...], ...]:
    """The openings shipped for ``rule`` placed on a width×height board (those that fit)."""
    placed = (centred(text, width, height) for text in default_openings(rule))
    return tuple(tuple(moves) for moves in placed if moves)


def read_openings(lines: Sequence[str], width: int, height: int,
                  rule: Rule) -> tuple[tuple[Point, ...], ...]:
    """Openings read on the match board, as position strings or as Piskvork's ``dx,dy``
    pairs from the centre; raises ValueError naming a bad line."""
    openings = []
    for number, text in enumerate(lines, start=1):
        try:
            moves = relative_opening(text, width, height)
            if moves is None:
                moves = parse_position(text, width, height)
            check_opening(moves, width, height, rule)
        except InvalidMoveError as error:  # neither form
            raise ValueError(f"opening {number} ({shown_value(text)}): {error}; an opening is "
                             "a position string like h8i9j10, or dx,dy pairs from the centre "
                             "like 0,0, 1,0, 1,3") from None
        except ValueError as error:
            raise ValueError(f"opening {number} ({shown_value(text)}): {error}") from None
        openings.append(tuple(moves))
    return tuple(openings)


def play_game(engines: Sequence[Engine], config: MatchConfig, number: int,
              opening: Sequence[Point], black: int) -> GameResult:
    """Play one game between ``engines[black]`` (black) and the other engine."""
    board = Board(config.width, config.height, rule=config.rule)
    board.push_many(opening)
    times = [0] * len(opening)
    names = [spec.name for spec in config.engines]
    time_left = [config.game_ms(0), config.game_ms(1)]
    reason = ""
    loser: int | None = None
    termination = UNKNOWN  # how a brain's error lost the game, as its record says it
    errors: list[str] = []
    while not board.is_game_over():
        side = black if board.to_move is Color.BLACK else 1 - black
        engine = engines[side]
        left = time_left[side]
        try:
            reply = engine.play(board, _TurnLimit(config.turn_ms(side), config.nodes),
                                time_left_ms=left,
                                match_time_ms=config.game_ms(side))
        except EngineStartError:
            raise  # no game can be played with it: the match stops
        except IllegalEngineMoveError as error:
            loser, reason = side, f"{names[side]} played an illegal move: {error.reason}"
        except EngineTimeoutError as error:  # which command: a move, or a RESTART
            loser, reason, termination = side, f"{names[side]} lost on time: {error}", TIME_FORFEIT
        except EngineTerminatedError as error:
            loser, reason = side, f"{names[side]} crashed: {error}"
        except EngineError as error:
            loser, reason = side, f"{names[side]} broke the protocol: {error}"
        if loser is not None:
            errors.append(reason)
            break
        if left is not None:
            left -= reply.time_ms
            time_left[side] = left
            if left + config.tolerance_ms < 0:
                loser, reason = side, f"{names[side]} ran out of match time"
                termination = TIME_FORFEIT
                errors.append(reason)
                break
        board.push(reply.move)
        times.append(reply.time_ms)
    # A game lost off the board by the brain to move says so in its record (its .psq ends
    # in the code of that, which records.from_psq reads back).
    loser_color = None if loser is None else Color.BLACK if loser == black else Color.WHITE
    record = GameRecord.from_board(board, black=names[black], white=names[1 - black],
                                   times_ms=times, loser=loser_color,
                                   termination="" if loser is None else termination)
    if loser is None:
        outcome = board.outcome()
        if outcome is None or outcome.winner is None:
            reason = f"draw: {outcome.draw_reason}" if outcome else "draw"
        else:
            winner = black if outcome.winner is Color.BLACK else 1 - black
            reason = f"{names[winner]} made five"
        record.result = "1/2-1/2" if outcome is None else outcome.result
    return GameResult(number, black, tuple(opening), record, record.result, reason, errors)


@dataclass(frozen=True)
class _TurnLimit:
    time_ms: int | None
    nodes: int | None = None
    depth: int | None = None


# -- running a match ------------------------------------------------------------------


@dataclass
class MatchReport:
    """The outcome of a match: every game, the totals and why it stopped."""

    config: MatchConfig
    results: list[GameResult] = field(default_factory=list)
    stats: MatchStats = field(default_factory=MatchStats)
    sprt_result: str | None = None
    stopped_early: bool = False

    def summary_lines(self) -> list[str]:
        a, b = (spec.name for spec in self.config.engines)
        stats = self.stats
        lines = [
            f"Score of {a} vs {b}: {stats.wins} - {stats.losses} - {stats.draws} "
            f"[{stats.score:.3f}] {stats.games}",
            f"Elo difference: {_fmt_elo(stats.elo)} +/- {_fmt_elo(stats.elo_error, sign=False)}"
            f" (95% interval {_fmt_elo(stats.elo_interval[0])} to "
            f"{_fmt_elo(stats.elo_interval[1])}, {_basis(stats)})",
            f"Pairs of games by points for {a} (0, 1/2, 1, 1 1/2, 2): "
            + ", ".join(str(k) for k in stats.pairs),
        ]
        errors = sum(1 for r in self.results if r.errors)
        if errors:
            lines.append(f"Games lost by error (illegal move, time, crash, protocol): {errors}")
        sprt = self.config.sprt
        if sprt is not None:
            llr = sprt.llr(stats)
            lower, upper = sprt.bounds
            verdict = {"H1": "H1 accepted", "H0": "H0 accepted"}.get(self.sprt_result or "",
                                                                    "no decision yet")
            lines.append(f"SPRT: llr {llr:.2f} ({lower:.2f}, {upper:.2f}) "
                         f"[{sprt.elo0:g}, {sprt.elo1:g}]: {verdict}")
        return lines


def _basis(stats: MatchStats) -> str:
    """What the interval was computed over, for the summary."""
    if stats.by_pairs:
        return f"over {sum(stats.pairs)} game pairs"
    return f"over {stats.games} single games"


def _fmt_elo(value: float, *, sign: bool = True) -> str:
    if math.isinf(value):
        return ("+inf" if value > 0 else "-inf") if sign else "inf"
    return f"{value:+.1f}" if sign else f"{value:.1f}"


def game_line(result: GameResult, config: MatchConfig, total: int) -> str:
    """One progress line for a finished game."""
    names = [spec.name for spec in config.engines]
    black, white = names[result.black], names[1 - result.black]
    opening = format_position(result.opening, config.height) or "-"
    moves = len(result.record.moves)
    return (f"Game {result.number}/{total}: {black} (black) vs {white} (white) "
            f"{result.result} in {moves} moves, {result.reason} [opening {opening}]")


class MatchTally:
    """The accounting of a match, whoever plays its games (threads here, or a cluster).

    Games are counted as they finish, in any order: the totals, the record
    files, the caller's ``on_game`` and the SPRT. The SPRT decision is final:
    a game that finishes after it is not counted, so a match stops at the same
    point however its games were played.
    """

    def __init__(self, config: MatchConfig,
                 on_game: Callable[[GameResult, MatchStats], None] | None = None) -> None:
        self.config = config
        self.report = MatchReport(config)
        self.on_game = on_game
        self._pair_waiting: dict[int, float] = {}  # pair index: points of its first game
        if config.out_dir is not None:
            records_folder(config.out_dir)

    @property
    def decided(self) -> bool:
        """True once the SPRT has accepted a hypothesis: count no more games."""
        return self.report.sprt_result is not None

    def add(self, result: GameResult) -> bool:
        """Count one finished game; returns :attr:`decided`."""
        if self.decided:
            return True
        report, config = self.report, self.config
        if config.out_dir is not None:
            # first: a game whose record cannot be written is not counted either
            path = Path(config.out_dir) / f"game-{result.number:04d}.psq"
            try:
                save(result.record, path)
            except OSError as error:
                raise ValueError(f"--out {config.out_dir}: cannot write the record of game "
                                 f"{result.number} in that folder: "
                                 f"{error.strerror or error}") from None
        report.results.append(result)
        report.stats.add(result.points)
        pair = pair_index(result.number)
        if pair in self._pair_waiting:
            report.stats.add_pair(self._pair_waiting.pop(pair) + result.points)
        else:
            self._pair_waiting[pair] = result.points
        if self.on_game is not None:
            self.on_game(result, report.stats)
        if config.sprt is not None:
            report.sprt_result = config.sprt.status(report.stats)
            report.stopped_early = self.decided and len(report.results) < config.games
        return self.decided

    def finish(self) -> MatchReport:
        self.report.results.sort(key=lambda r: r.number)
        return self.report


def records_folder(path: str | Path) -> Path:
    """Make the folder for a match's game records (``out_dir``, ``--out``) if it is missing,
    and check that records can be written in it and that it holds none of another match,
    whole or interrupted while it wrote one; raises ValueError saying why not.

    The one place that makes it: a match makes it before its first game, and the
    command line calls this early to refuse a bad ``--out`` before it prints anything.
    """
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--out {folder}: that is a file, not a folder; give a folder for "
                         "the games' .psq records (it is made if missing)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"--out {folder}: cannot make that folder for the games' records: "
                         f"{error.strerror or error}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"--out {folder}: cannot write records in that folder: permission "
                         "denied")
    # Another match's records would be overwritten in part and read with this one's as one
    # match (benchmarks/match_report.py reads every game-NNNN.psq of the folder).
    earlier = sorted(record.name for record in folder.glob("game-*.psq"))
    if earlier:
        raise ValueError(f"--out {folder}: that folder holds the records of an earlier match "
                         f"({earlier[0]}, {len(earlier)} in all); give a new or empty folder")
    # What a match killed while it saved a record leaves: its folder may look complete.
    leftovers = interrupted_saves(folder)
    if leftovers:
        more = f" (and {len(leftovers) - 1} more like it)" if len(leftovers) > 1 else ""
        raise ValueError(f"--out {folder}: that folder holds {leftovers[0].name}{more}, the "
                         "temporary file of a record whose write was interrupted (its match "
                         "was killed); it holds no whole record and may be deleted, or give "
                         "a new or empty folder")
    return folder


def start_engines(config: MatchConfig) -> list[Engine]:
    """Both engines of the match, started (the first may be left running if the second fails
    to start: the caller quits the engines it gets, see :func:`play_one_game`)."""
    engines: list[Engine] = []
    try:
        for index, spec in enumerate(config.engines):
            engines.append(Engine(list(spec.argv), name=spec.name,
                                  tolerance_ms=config.tolerance_ms,
                                  start_timeout_ms=config.start_timeout_ms,
                                  default_turn_ms=config.turn_ms(index)))
    except BaseException:
        for engine in engines:
            engine.quit()
        raise
    return engines


def play_one_game(config: MatchConfig, number: int, opening: tuple[Point, ...],
                  black: int) -> GameResult:
    """Start both engines, play one scheduled game and quit them (a game on its own)."""
    engines = start_engines(config)
    try:
        return play_game(engines, config, number, opening, black)
    finally:
        for engine in engines:
            engine.quit()


def progress_line(stats: MatchStats, config: MatchConfig) -> str:
    """The score so far: games done, wins, losses and draws, Elo and its 95% interval.

    >>> config = MatchConfig((EngineSpec("a", ("a",)), EngineSpec("b", ("b",))), games=10)
    >>> progress_line(MatchStats(wins=3, losses=1), config)
    'Score of a vs b: 3 - 1 - 0 [0.750] 4/10, Elo +190.8 (95% -126.4 to +inf)'
    """
    a, b = (spec.name for spec in config.engines)
    low, high = stats.elo_interval
    return (f"Score of {a} vs {b}: {stats.wins} - {stats.losses} - {stats.draws} "
            f"[{stats.score:.3f}] {stats.games}/{config.games}, Elo {_fmt_elo(stats.elo)} "
            f"(95% {_fmt_elo(low)} to {_fmt_elo(high)})")


def run_match(config: MatchConfig, *,
              on_game: Callable[[GameResult, MatchStats], None] | None = None) -> MatchReport:
    """Play the match on this machine; ``on_game`` is called after every counted game (in the
    caller's thread). :mod:`gridgames.cluster.match` plays it on a Ray cluster instead."""
    tally = MatchTally(config, on_game)
    jobs: queue.Queue[tuple[int, tuple[Point, ...], int] | None] = queue.Queue()
    for job in schedule(config):
        jobs.put(job)
    done: queue.Queue[GameResult | BaseException] = queue.Queue()
    stop = threading.Event()
    live = _LiveEngines()
    workers = max(1, min(config.concurrency, config.games))
    for _ in range(workers):
        jobs.put(None)

    def work() -> None:
        engines: list[Engine] = []
        try:
            engines = live.start(config)
            while not stop.is_set():
                job = jobs.get()
                if job is None:
                    break
                number, opening, black = job
                done.put(play_game(engines, config, number, opening, black))
        except BaseException as error:  # reported to the caller's thread
            done.put(error)
        finally:
            for engine in engines:
                engine.quit()
            done.put(_WORKER_DONE)

    threads: list[threading.Thread] = []
    failure: BaseException | None = None

    def end() -> None:
        # No game still in play will be counted: end them now rather than play them out.
        stop.set()
        live.end()

    try:
        for number in range(workers):
            thread = threading.Thread(target=work, daemon=True, name=f"match worker {number}")
            thread.start()
            threads.append(thread)
        running = len(threads)
        while running:
            item = done.get()
            if item is _WORKER_DONE:
                running -= 1
            elif isinstance(item, BaseException):
                failure = failure or item
                end()
            elif failure is None and tally.add(item):
                end()
    except BaseException:  # Ctrl-C, say: leave no brain running behind
        # Every brain is killed and none can start: the games' threads have nothing left
        # that needs waiting for. A second Ctrl-C that cuts the first end() short is
        # dropped, and the second end() kills what the first had not.
        with contextlib.suppress(BaseException):
            end()
        end()
        raise
    for thread in threads:
        thread.join()
    if failure is not None:
        raise failure
    return tally.finish()


class _LiveEngines:
    """The engines of a match's workers, for the coordinating thread to end at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._engines: list[Engine] = []
        self._ended = False

    def start(self, config: MatchConfig) -> list[Engine]:
        """A worker's engines, started unless the match is being ended (then none): under
        the lock, so that once :meth:`end` has returned, every brain started is ended and
        no other starts."""
        with self._lock:
            if self._ended:
                return []
            engines = start_engines(config)
            self._engines += engines
        return engines

    def end(self) -> None:
        with self._lock:
            self._ended = True
            engines = list(self._engines)
        for engine in engines:
            engine.kill()


_WORKER_DONE = GameResult(0, 0, (), GameRecord(), "*", "")


def check_opening(opening: Sequence[Point], width: int, height: int, rule: Rule) -> None:
    """Raise ValueError if ``opening`` cannot start a game on the board."""
    board = Board(width, height, rule=rule)
    try:
        board.push_many(opening)
    except IllegalMoveError as error:
        raise ValueError(str(error)) from None
    if board.is_game_over():
        raise ValueError("the opening already ends the game")
