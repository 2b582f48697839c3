"""Swap2 opening decisions for ``SWAP2BOARD``: the computer's Swap2 choices
(:mod:`gridgames.gomoku.ai.opening_play`) in the protocol's terms.

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
from gridgames.gomoku.gomocup.protocol import format_xy
from gridgames.gomoku.opening_rules import Opening, OpeningRule

if TYPE_CHECKING:
    from gridgames.gomoku.ai import Limit
    from gridgames.gomoku.ai.engine import StopSignal

Point = tuple[int, int]


@dataclass(frozen=True)
class Swap2Answer:
    """The reply line and the stones it adds to the board (none for ``SWAP``)."""

    reply: str
    moves: tuple[Point, ...] = ()

    @classmethod
    def place(cls, *moves: Point) -> Swap2Answer:
        return cls(" ".join(format_xy(m) for m in moves), tuple(moves))


def decide(board: Board, budget_ms: int, limit_for: Callable[[int], Limit], *,
           stop: StopSignal | None = None, rng: random.Random | None = None) -> Swap2Answer:
    """What to answer to ``SWAP2BOARD`` with ``board`` holding 0, 3 or 5 stones."""
    from gridgames.gomoku.ai.opening_play import decide as decide_action

    if len(board) not in (0, 3, 5):
        raise ValueError(f"Swap2 positions have 0, 3 or 5 stones, got {len(board)}")
    opening = Opening.replay(OpeningRule.SWAP2, Board(board.width, board.height, rule=board.rule),
                             [f"place {board.point_name(p)}" for p in board.move_stack])
    decision = decide_action(opening, budget_ms, limit_for, stop=stop, rng=rng)
    if decision.actions == ("choose black",):
        return Swap2Answer("SWAP")
    if decision.actions == ("choose white",):
        assert decision.move is not None
        return Swap2Answer.place(decision.move)
    return Swap2Answer.place(*(board.parse(action.split()[1]) for action in decision.actions))
