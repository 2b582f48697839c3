"""Spending a match clock: how long one move may think, decided as the search goes.

Under a match clock (Gomocup's ``timeout_match``, with ``time_left`` before every
move) a :class:`TimeControl` holds two figures for the move: a *soft* budget, the
normal share of the clock, and a *hard* cap that is never passed. The search asks
a :class:`Pacer` after each finished iteration how far it may go: a calm position
stops at the soft budget; an unstable best move, a failing score or threats on the
board stretch the budget towards the hard cap; a win or loss found is not
stretched for (and the search stops on a forced move or a proven result as it
always does). Everything here is plain arithmetic on the figures passed in (no
clock is read), so the policy is tested without searching.

>>> control = TimeControl.for_clock(turn_ms=5000, time_left_ms=20000, moves_played=4)
>>> control.soft_ms, control.hard_ms
(1025, 4103)
>>> TimeControl.for_clock(turn_ms=5000, time_left_ms=150, moves_played=60).is_instant
True
>>> control = TimeControl.for_clock(turn_ms=0, time_left_ms=60000, moves_played=4,
...                                 increment_ms=2000)  # a 1+2 game clock
>>> control.soft_ms, control.hard_ms
(4687, 15178)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

Point = tuple[int, int]

# Own moves a game is expected to last at the first move, and the fewest still
# expected however long it has gone on: engine games of gomoku are mostly decided
# within 15 to 30 moves a side, and rarely go past 60.
MOVES_TO_GO_START = 20
MOVES_TO_GO_MIN = 8
# Each own move played lowers the expectation by this much, so the opening moves
# (where games are decided) get a bigger share than a late forced sequence.
MOVES_TO_GO_DROP = 0.3
# The hard cap: at most this many soft budgets, and this share of the time left.
MAX_STRETCH = 4.0
HARD_SHARE_OF_LEFT = 0.22
# The share of a clock's increment (time added after each move) a move spends.
INCREMENT_SPENT = 0.8
# Below this many milliseconds a search is not worth starting: play at once.
MIN_SEARCH_MS = 20
# Kept back from the time left for the manager's own accounting and the reply, and
# for the instant moves that follow once the clock is nearly gone.
LEFT_RESERVE_MS = 100
# An instant move is a depth-2 search (some 30 ms); with less than this left, the
# greedy scorer's move instead (about a millisecond).
GREEDY_BELOW_MS = 150
INSTANT_DEPTH = 2

# Stretch factors of the soft budget (multiplied together, then capped by the hard cap).
UNSTABLE_STRETCH = 0.5  # per change of the best move over the last iterations
UNSTABLE_WINDOW = 3  # iterations looked back at for changes of the best move
UNSTABLE_MIN_DEPTH = 4  # shallower iterations change their mind too easily to count
SCORE_DROPS = ((120, 2.0), (60, 1.6), (25, 1.25))  # (centi-stones lost, stretch)
DECIDED_SCORE = 1000  # beyond this (a 99% win or loss) a score drop is no news
THREAT_STRETCH = 1.5
# After a finished iteration no new one starts past this share of the budget: the
# next would take longer than what remains. (The unfinished one is still used.)
NEXT_ITERATION_START = 0.6


def instant_depth(time_left_ms: int | None) -> int:
    """The search depth of a move played at once: 0 (the greedy scorer) when even a
    short search would eat into the last of the clock.

    >>> instant_depth(None), instant_depth(400), instant_depth(100)
    (2, 2, 0)
    """
    if time_left_ms is not None and time_left_ms < GREEDY_BELOW_MS:
        return 0
    return INSTANT_DEPTH


def moves_to_go(moves_played: int) -> float:
    """Own moves the rest of the game is expected to take, from the stones on the board.

    >>> moves_to_go(0), moves_to_go(20), moves_to_go(200)
    (20.0, 17.0, 8.0)
    """
    own_moves = moves_played // 2
    return max(float(MOVES_TO_GO_MIN), MOVES_TO_GO_START - MOVES_TO_GO_DROP * own_moves)


@dataclass(frozen=True)
class TimeControl:
    """How long one move may think, in milliseconds from the start of its search.

    ``soft_ms`` is the normal target, ``hard_ms`` the cap that is never passed;
    ``previous_score`` is what our search thought of our previous move (centi-stones,
    our point of view), so a score that has fallen since then asks for more time.
    """

    soft_ms: int
    hard_ms: int
    previous_score: int | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.soft_ms <= self.hard_ms:
            raise ValueError(f"TimeControl needs 0 <= soft_ms <= hard_ms, got soft_ms="
                             f"{self.soft_ms}, hard_ms={self.hard_ms}")

    @classmethod
    def for_clock(cls, *, turn_ms: int, time_left_ms: int | None, moves_played: int,
                  overhead_ms: int = 0, safety_ms: int = 0, increment_ms: int = 0,
                  previous_score: int | None = None) -> TimeControl:
        """The budget of one move under a turn limit and a match clock.

        ``turn_ms`` is the limit of one move (0: none), ``time_left_ms`` what is left
        of the game's clock (None: no match clock), ``moves_played`` the stones on the
        board. ``overhead_ms`` is what the caller spends around the search (starting
        it, passing the reply), taken off both figures; ``safety_ms`` is kept back
        from the hard cap only, for a search that stops late. ``increment_ms`` is
        added to the clock after each move (a Fischer clock): most of it is spent.
        """
        soft: float
        if time_left_ms is None:
            if turn_ms <= 0:
                raise ValueError("a time control needs a turn limit or a match clock")
            soft = hard = float(turn_ms)
        else:
            usable = time_left_ms - LEFT_RESERVE_MS
            soft = usable / moves_to_go(moves_played) + increment_ms * INCREMENT_SPENT
            hard = min(usable * HARD_SHARE_OF_LEFT + increment_ms, soft * MAX_STRETCH, usable)
            if turn_ms > 0:
                hard = min(hard, turn_ms)
        hard = max(0.0, hard - overhead_ms - safety_ms)
        soft = max(0.0, min(soft - overhead_ms, hard))
        if hard < MIN_SEARCH_MS:
            return cls(0, 0, previous_score)
        return cls(int(soft), int(hard), previous_score)

    @property
    def is_instant(self) -> bool:
        """Whether there is no time to search: the move should be played at once."""
        return self.hard_ms <= 0

    def pacer(self, threatened: bool = False) -> Pacer:
        """A pacer for one search; ``threatened``: a four or an open three is on the
        board (see :func:`gridgames.gomoku.ai.engine.has_threats`), which stretches
        the budget."""
        return Pacer(self, threatened=threatened)


@dataclass
class Pacer:
    """Follows one search's iterations and says how long it may still run.

    >>> pacer = TimeControl(1000, 3000).pacer()
    >>> pacer.iteration_done(depth=6, move=(7, 7), score=20, mate=None, elapsed_ms=300)
    1000
    >>> pacer.iteration_done(depth=7, move=(8, 8), score=20, mate=None, elapsed_ms=500)
    1500
    >>> pacer.iteration_done(depth=8, move=(8, 8), score=-60, mate=None, elapsed_ms=1400)
    2400
    >>> pacer.iteration_done(depth=9, move=(8, 8), score=-60, mate=None, elapsed_ms=2000)
    """

    control: TimeControl
    threatened: bool = False
    moves: list[Point] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    depths: list[int] = field(default_factory=list)

    def budget_ms(self) -> int:
        """The time this search may take after the iterations seen so far."""
        stretch = 1.0
        if self.threatened:
            stretch *= THREAT_STRETCH
        stretch *= 1.0 + UNSTABLE_STRETCH * self.best_move_changes()
        stretch *= self._score_drop_stretch()
        budget = min(float(self.control.hard_ms), self.control.soft_ms * stretch)
        return int(budget)

    def best_move_changes(self) -> int:
        """How often the best move changed over the last iterations deep enough to count."""
        recent = [m for m, d in zip(self.moves, self.depths, strict=True)
                  if d >= UNSTABLE_MIN_DEPTH][-(UNSTABLE_WINDOW + 1):]
        return sum(1 for a, b in pairwise(recent) if a != b)

    def _score_drop_stretch(self) -> float:
        if not self.scores:
            return 1.0
        score = self.scores[-1]
        if abs(score) >= DECIDED_SCORE:
            return 1.0
        references = self.scores[-2:-1]
        if self.control.previous_score is not None:
            references.append(self.control.previous_score)
        drop = max((ref - score for ref in references), default=0)
        for lost, stretch in SCORE_DROPS:
            if drop >= lost:
                return stretch
        return 1.0

    def iteration_done(self, *, depth: int, move: Point, score: int, mate: int | None,
                       elapsed_ms: float) -> int | None:
        """Record a finished iteration; the time the search may run to (ms from its
        start), or None when it should stop now."""
        self.moves.append(move)
        self.scores.append(score)
        self.depths.append(depth)
        # a win or loss found is not stretched for: more time would not change it
        budget = self.control.soft_ms if mate is not None else self.budget_ms()
        if elapsed_ms >= NEXT_ITERATION_START * budget:
            return None
        return budget
