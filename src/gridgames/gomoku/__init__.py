"""Five in a row: Gomoku (freestyle and standard), Renju and Caro.

>>> from gridgames.gomoku import Board, Rule
>>> board = Board(15, rule=Rule.RENJU)
>>> board.push(board.parse("h8"))
>>> board.to_move
Color.WHITE
"""

from gridgames.gomoku.board import (
    MAX_SIZE,
    MIN_SIZE,
    Board,
    Color,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
    Point,
    replay,
)
from gridgames.gomoku.rules import Foul, Rule

__all__ = [
    "MAX_SIZE",
    "MIN_SIZE",
    "Board",
    "Color",
    "Foul",
    "IllegalMoveError",
    "InvalidMoveError",
    "Outcome",
    "Point",
    "Rule",
    "replay",
]
