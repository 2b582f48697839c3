"""The N-Queens puzzle: place N queens on an N×N board so that none attacks another.

Squares are 0-based ``(row, col)`` pairs, row 0 at the top.

>>> from gridgames.queens import Placement, solve, count_solutions
>>> board = Placement(8)
>>> board.place(0, 0)
>>> solution = solve(8, board.queens)
>>> Placement.from_queens(8, solution).is_solution
True
>>> count_solutions(8)
92
"""

from gridgames.queens.backtracking import Backtrack, Step, backtrack
from gridgames.queens.board import LINES, Placement, QueenConflictError, Square
from gridgames.queens.counter import count_solutions, solutions
from gridgames.queens.solver import DEFAULT_SEED, hint, solve, warm_up

__all__ = [
    "DEFAULT_SEED",
    "LINES",
    "Backtrack",
    "Placement",
    "QueenConflictError",
    "Square",
    "Step",
    "backtrack",
    "count_solutions",
    "hint",
    "solutions",
    "solve",
    "warm_up",
]
