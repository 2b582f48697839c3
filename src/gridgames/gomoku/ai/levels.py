"""Playing levels: named search limits from a greedy beginner to the full engine."""

from __future__ import annotations

from dataclasses import dataclass, replace

from gridgames.gomoku.board import as_whole
from gridgames.gomoku.notation import read_count, shown, shown_value

from .limits import Limit


@dataclass(frozen=True)
class Level:
    """A playing strength: front ends call ``think(board, level.limit_for(time_ms))``.

    >>> get_level(2).limit_for(100)
    Limit(time_ms=100, nodes=1000, depth=1)
    >>> get_level(1).limit_for(None).is_greedy
    True
    """

    number: int
    name: str
    description: str
    limit: Limit

    def limit_for(self, time_ms: int | None) -> Limit:
        """This level's limit, with its time capped by ``time_ms`` when given."""
        if time_ms is None:
            return self.limit
        if self.limit.time_ms is not None:
            time_ms = min(time_ms, self.limit.time_ms)
        return replace(self.limit, time_ms=time_ms)


# Levels 2-5 are bounded by depth or nodes (the same strength on any machine,
# deterministic), the top level by time; ``limit_for`` adds the caller's time cap on
# top. Each level wins at least three games in four against the one below
# (``benchmarks/engine_levels.py``): depth 2 is too close to depth 1 for that, and
# so is depth 3 under renju; each level above takes six to eight times the nodes.
LEVELS: tuple[Level, ...] = (
    Level(1, "Beginner", "greedy: plays the best-looking point, no look-ahead", Limit(depth=0)),
    Level(2, "Novice", "looks one move ahead and sees forced fours",
          Limit(depth=1, nodes=1_000)),
    Level(3, "Casual", "looks four moves ahead", Limit(depth=4, nodes=8_000)),
    Level(4, "Club", "short search", Limit(nodes=30_000)),
    Level(5, "Expert", "long search", Limit(nodes=250_000)),
    Level(6, "Master", "full engine, five seconds a move", Limit(time_ms=5_000)),
)
MAX_LEVEL = len(LEVELS)


def get_level(spec: int | str) -> Level:
    """Look up a level by number, ``"3"``, ``"level:3"`` or ``"max"``.

    >>> get_level("level:3").number, get_level("max").number
    (3, 6)
    >>> get_level(0)
    Traceback (most recent call last):
    ...
    ValueError: unknown level 0; use 1..6, 'level:N' or 'max'
    """
    number = as_whole(spec)  # numpy's integers too
    if isinstance(spec, str):
        text = spec.strip().lower()
        if text.startswith("level:"):
            text = text[len("level:"):].strip()
        number = MAX_LEVEL if text == "max" else read_count(text)
    if number is None or not 1 <= number <= MAX_LEVEL:
        said = repr(shown(spec)) if isinstance(spec, str) else shown_value(spec)
        raise ValueError(f"unknown level {said}; use 1..{MAX_LEVEL}, 'level:N' or 'max'")
    return LEVELS[number - 1]
