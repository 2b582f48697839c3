"""Value types of the engine interface: search limits, progress reports and results."""

from __future__ import annotations

from dataclasses import dataclass

from gridgames.gomoku.board import as_whole
from gridgames.gomoku.notation import shown_value

Point = tuple[int, int]
# The largest limit taken: the search counts in 64-bit integers, and no search comes
# near this many nodes or milliseconds (nine thousand years).
MAX_LIMIT = 2**48


@dataclass(frozen=True)
class Limit:
    """How long to search. ``None`` everywhere means the engine's default.

    ``depth=0`` asks for the greedy one-look scorer (level 1) instead of a search.
    When several limits are given the search stops at whichever is reached first.

    >>> Limit(time_ms=500)
    Limit(time_ms=500, nodes=None, depth=None)
    >>> Limit(depth=0).is_greedy
    True
    >>> Limit(nodes=2**49)
    Traceback (most recent call last):
    ...
    ValueError: Limit.nodes must be a whole number from 0 to 2**48, or None; got 562949953421312
    """

    time_ms: int | None = None
    nodes: int | None = None
    depth: int | None = None

    def __post_init__(self) -> None:
        for name in ("time_ms", "nodes", "depth"):
            value = getattr(self, name)
            if value is None:
                continue
            number = as_whole(value)
            if number is None or not 0 <= number <= MAX_LIMIT:
                raise ValueError(f"Limit.{name} must be a whole number from 0 to 2**48, "
                                 f"or None; got {shown_value(value)}")
            object.__setattr__(self, name, number)  # numpy's integers kept as plain ints

    @property
    def is_greedy(self) -> bool:
        return self.depth == 0


def score_text(score: int, mate: int | None) -> str:
    """Human-readable score from the side to move's point of view.

    >>> score_text(35, None), score_text(-120, None), score_text(0, None)
    ('+35', '-120', '0')
    >>> score_text(29995, 3), score_text(-29990, -4)
    ('win in 3', 'loss in 4')
    """
    if mate is not None:
        return f"win in {mate}" if mate > 0 else f"loss in {-mate}"
    return f"{score:+d}" if score else "0"


@dataclass(frozen=True)
class SearchInfo:
    """Progress report sent after each completed iteration of the search."""

    depth: int
    score: int
    mate: int | None
    nodes: int
    nps: int
    time_ms: int
    pv: tuple[Point, ...]

    @property
    def score_text(self) -> str:
        return score_text(self.score, self.mate)


@dataclass(frozen=True)
class SearchResult:
    """The move chosen by the engine and what it thinks of it.

    ``score`` is in centi-stones from the side to move's point of view; ``mate`` is
    ``+N`` for a forced win in N of our own moves and ``-N`` for a forced loss in N.
    A ``depth`` of 0 marks a move chosen without looking ahead (level 1, or while
    the kernels compile on a first run): its ``score`` is 0 and tells nothing.
    """

    move: Point
    score: int
    mate: int | None
    depth: int
    pv: tuple[Point, ...]
    nodes: int
    time_ms: int
    nps: int

    @property
    def score_text(self) -> str:
        return score_text(self.score, self.mate)
