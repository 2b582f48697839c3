"""The textbook backtracking search, step by step, to watch it work.

Row by row from the top, each row's columns from the left: a queen goes on the
first square no queen attacks; when a row has no such square, the queen of the
row above is taken back and moved on. Rows that hold a queen of the player's
stay as they are. :func:`backtrack` records every queen placed and taken back,
until the first solution, a proof that none exists, or ``limit`` steps. It is
the method a learner meets first, not the fast one: :func:`~gridgames.queens.solve`
finds a solution on boards where this search would run for hours.

>>> run = backtrack(4)
>>> run.solution
[(0, 1), (1, 3), (2, 0), (3, 2)]
>>> len(run.steps), run.placed, run.taken_back
(12, 8, 4)
>>> run.steps[:3]  # doctest: +NORMALIZE_WHITESPACE
[Step(kind='place', square=(0, 0)), Step(kind='place', square=(1, 2)),
 Step(kind='remove', square=(1, 2))]
>>> backtrack(4, [(0, 0)]).solution is None  # proven: nothing completes this board
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, NamedTuple

from gridgames.numbers import as_whole
from gridgames.queens.board import Square, check_size
from gridgames.queens.solver import check_fixed

DEFAULT_LIMIT = 10_000
"""Steps recorded when no limit is given."""
MAX_LIMIT = 100_000
"""The most steps one run may record."""
MAX_N = 1000
"""The largest board: each step scans a row past the squares attacked, so a long run
on a bigger board takes minutes to hours (:func:`~gridgames.queens.solve` takes any)."""


class Step(NamedTuple):
    """One step: a queen placed on ``square`` or taken back from it."""

    kind: Literal["place", "remove"]
    square: Square


@dataclass(frozen=True)
class Backtrack:
    """The steps of one run, and how it ended.

    ``finished`` is False when the run stopped at its step limit; otherwise
    ``solution`` is the first solution found, or None when none keeps the
    player's queens.
    """

    n: int
    fixed: list[Square]
    steps: list[Step]
    solution: list[Square] | None
    finished: bool

    @property
    def placed(self) -> int:
        return sum(step.kind == "place" for step in self.steps)

    @property
    def taken_back(self) -> int:
        return len(self.steps) - self.placed


def backtrack(n: int, fixed: Iterable[Square] = (), *, limit: int = DEFAULT_LIMIT) -> Backtrack:
    """Run the backtracking search on an N×N board keeping the ``fixed`` queens (no two
    of which may attack each other), recording at most ``limit`` steps (1 to
    :data:`MAX_LIMIT`); N is at most :data:`MAX_N`. Raises ValueError saying what is
    wrong with the input."""
    n = check_size(n)
    if n > MAX_N:
        raise ValueError(f"the backtracking search is for boards of up to {MAX_N:,}×{MAX_N:,}, "
                         f"not {n:,}×{n:,}; solve() completes bigger ones")
    steps_allowed = as_whole(limit)
    if steps_allowed is None or not 1 <= steps_allowed <= MAX_LIMIT:
        raise ValueError(f"the step limit must be a whole number from 1 to {MAX_LIMIT:,}, "
                         f"not {limit!r}")
    kept = check_fixed(n, fixed)
    fixed_rows = {row for row, _ in kept}
    free_count = n - len(fixed_rows)
    # The lines holding a queen, looked up directly: the scan along a row is most of
    # the work, and on a big board a row holds many attacked squares.
    taken_cols = {col for _, col in kept}
    taken_diagonals = {row - col for row, col in kept}
    taken_anti_diagonals = {row + col for row, col in kept}
    # The free rows reached so far, from the top, and the column of each one's queen
    # (-1 for none): a run of limited steps reaches few rows of a big board.
    free_rows: list[int] = []
    columns: list[int] = []
    steps: list[Step] = []
    depth = 0
    while 0 <= depth < free_count:
        if depth == len(free_rows):
            row = free_rows[-1] + 1 if free_rows else 0
            while row in fixed_rows:
                row += 1
            free_rows.append(row)
            columns.append(-1)
        row = free_rows[depth]
        col = columns[depth]
        if col >= 0:  # moving this row's queen on: take it back first
            taken_cols.remove(col)
            taken_diagonals.remove(row - col)
            taken_anti_diagonals.remove(row + col)
            steps.append(Step("remove", (row, col)))
        col += 1
        while col < n and (col in taken_cols or row - col in taken_diagonals
                           or row + col in taken_anti_diagonals):
            col += 1
        if len(steps) >= steps_allowed:
            return Backtrack(n, kept, steps, None, finished=False)
        if col < n:
            taken_cols.add(col)
            taken_diagonals.add(row - col)
            taken_anti_diagonals.add(row + col)
            steps.append(Step("place", (row, col)))
            columns[depth] = col
            depth += 1
        else:  # no square left in this row: back to the row above
            columns[depth] = -1
            depth -= 1
    solution = (sorted(kept + list(zip(free_rows, columns, strict=True)))
                if depth == free_count else None)
    return Backtrack(n, kept, steps, solution, finished=True)
