"""The computer player: levels, search limits and the ``think`` / ``analyse`` entry points.

``think(board, limit)`` picks a move for the side to move. Level 1 is a greedy
one-look scorer (``Limit(depth=0)``); every other limit runs the search: a threat
solver at the root (wins by continuous fours, then by fours and threes), then
iterative-deepening alpha-beta over pattern tables with a VCF quiescence search.
Front ends play a level with ``think(board, get_level(n).limit_for(time_ms))``.

The kernels are numba-compiled and cached on disk: the first call in a fresh
install compiles them (with progress on stderr); later processes load them in
about a second. Call :func:`warm_up` at start-up to pay that cost before the
first timed move.

>>> from gridgames.gomoku import Board
>>> from gridgames.gomoku.ai import Limit, think
>>> think(Board(15), Limit(time_ms=100)).move   # the first move goes to the centre
(7, 7)
"""

from gridgames.gomoku.ai.engine import (
    GREEDY_GROUPS,
    KERNEL_GROUPS,
    SearchMemory,
    analyse,
    is_ready,
    playing_threads,
    think,
    warm_up,
)
from gridgames.gomoku.ai.levels import LEVELS, MAX_LEVEL, Level, get_level
from gridgames.gomoku.ai.limits import Limit, SearchInfo, SearchResult
from gridgames.gomoku.ai.params import SearchParams, default_params

__all__ = [
    "GREEDY_GROUPS",
    "KERNEL_GROUPS",
    "LEVELS",
    "MAX_LEVEL",
    "Level",
    "Limit",
    "SearchInfo",
    "SearchMemory",
    "SearchParams",
    "SearchResult",
    "analyse",
    "default_params",
    "get_level",
    "is_ready",
    "playing_threads",
    "think",
    "warm_up",
]
