"""Swap2 opening decisions for ``SWAP2BOARD``, judged by the engine's evaluation.

Swap2: the first player places three stones (black, white, black); the second
player then swaps, adds the fourth (white) stone, or adds two stones and lets
the first player choose a colour; with five stones the first player swaps or
plays the sixth (white) stone.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gridgames.gomoku import Board
from gridgames.gomoku.gomocup.openings import centred, default_openings
from gridgames.gomoku.gomocup.protocol import format_xy

if TYPE_CHECKING:
    from gridgames.gomoku.ai import Limit, SearchResult
    from gridgames.gomoku.ai.engine import StopSignal

Point = tuple[int, int]

# Within this many centi-stones of 0 a position counts as balanced.
BALANCED = 60
# How many opening candidates to compare when placing the first three stones.
CANDIDATES = 6
_WIN = 1_000_000


@dataclass(frozen=True)
class Swap2Answer:
    """The reply line and the stones it adds to the board (none for ``SWAP``)."""

    reply: str
    moves: tuple[Point, ...] = ()

    @classmethod
    def place(cls, *moves: Point) -> Swap2Answer:
        return cls(" ".join(format_xy(m) for m in moves), tuple(moves))


def value(result: SearchResult) -> int:
    """A search result's score for the side to move, with forced wins and losses outside
    any ordinary score."""
    if result.mate is not None:
        return _WIN if result.mate > 0 else -_WIN
    return result.score


def decide(board: Board, budget_ms: int, limit_for: Callable[[int], Limit], *,
           stop: StopSignal | None = None, rng: random.Random | None = None) -> Swap2Answer:
    """What to answer to ``SWAP2BOARD`` with ``board`` holding 0, 3 or 5 stones."""
    from gridgames.gomoku.ai import analyse, think

    rng = rng or random.Random()
    stones = len(board)
    if stones == 0:
        return _first_three(board, budget_ms, limit_for, stop, rng)
    if stones == 3:
        first = think(board, limit_for(budget_ms // 2), stop=stop)
        score = value(first)  # white's view
        if score < -BALANCED:
            return Swap2Answer("SWAP")
        if score > BALANCED:
            return Swap2Answer.place(first.move)
        after = board.copy()
        after.push(first.move)
        options = analyse(after, limit_for(budget_ms // 2), multipv=4, stop=stop)
        fifth = min(options, key=lambda r: abs(value(r))).move
        return Swap2Answer.place(first.move, fifth)
    if stones == 5:
        result = think(board, limit_for(budget_ms), stop=stop)
        return Swap2Answer.place(result.move) if value(result) >= 0 else Swap2Answer("SWAP")
    raise ValueError(f"Swap2 positions have 0, 3 or 5 stones, got {stones}")


def _first_three(board: Board, budget_ms: int, limit_for: Callable[[int], Limit],
                 stop: StopSignal | None, rng: random.Random) -> Swap2Answer:
    from gridgames.gomoku.ai import think

    candidates = [moves for moves in (centred(o, board.width, board.height)
                                      for o in default_openings()) if moves]
    if not candidates:  # a board too small for any opening: three stones in a corner area
        return Swap2Answer.place((0, 0), (1, 0), (0, 2))
    rng.shuffle(candidates)
    candidates = candidates[:CANDIDATES]
    if budget_ms <= 0:
        return Swap2Answer.place(*candidates[0])
    share = max(1, budget_ms // len(candidates))
    best: tuple[int, list[Point]] | None = None
    for moves in candidates:
        position = board.copy()
        position.push_many(moves)
        imbalance = abs(value(think(position, limit_for(share), stop=stop)))
        if best is None or imbalance < best[0]:
            best = (imbalance, moves)
        if stop is not None and stop.is_set():
            break
    assert best is not None
    return Swap2Answer.place(*best[1])
