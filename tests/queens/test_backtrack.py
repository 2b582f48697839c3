"""The step-by-step backtracking search against every solution the counter lists."""

from __future__ import annotations

import numpy as np
import pytest

from gridgames.queens import Placement, Step, backtrack, solutions
from gridgames.queens.backtracking import MAX_LIMIT, MAX_N


@pytest.mark.parametrize("n", range(1, 10))
def test_the_first_solution_in_column_order(n: int) -> None:
    """Row by row, columns from the left: the lexicographically first solution, or a
    proof that none exists (2 and 3)."""
    run = backtrack(n, limit=MAX_LIMIT)
    assert run.finished
    assert run.solution == next(solutions(n), None)


@pytest.mark.parametrize(("n", "fixed"), [(6, [(0, 2)]), (8, [(3, 3), (7, 1)]),
                                          (8, [(0, 0), (1, 2)]), (5, [(4, 4)])])
def test_fixed_queens_are_kept(n: int, fixed: list[tuple[int, int]]) -> None:
    run = backtrack(n, fixed)
    keeping = [s for s in solutions(n) if set(fixed) <= set(s)]
    assert run.finished and run.solution == (keeping[0] if keeping else None)
    # Replayed, the steps never leave two queens attacking, nor touch a fixed queen.
    board = Placement.from_queens(n, fixed)
    for kind, square in run.steps:
        assert square not in fixed
        if kind == "place":
            board.place(*square)  # raises if attacked
        else:
            board.remove(*square)
    assert run.solution is None or board.queens == run.solution
    assert run.placed - run.taken_back == len(board) - len(fixed)


def test_the_limit_stops_it() -> None:
    run = backtrack(20, limit=30)
    assert (len(run.steps), run.finished, run.solution) == (30, False, None)


@pytest.mark.parametrize(("args", "says"), [
    ((8, [], 0), "step limit"), ((8, [], MAX_LIMIT + 1), "step limit"),
    ((8, [(0, 0), (1, 1)], 10), "attack each other"), ((0, [], 10), "at least 1"),
])
def test_bad_input_says_what_is_wrong(args: tuple[int, list[tuple[int, int]], int],
                                      says: str) -> None:
    n, fixed, limit = args
    with pytest.raises(ValueError, match=says):
        backtrack(n, fixed, limit=limit)


def test_a_big_board_is_refused_by_name() -> None:
    """Each step scans its row past the attacked squares: a long run on 100,000×100,000
    took hours, and one on 10**9 rows first built a list of a billion rows."""
    with pytest.raises(ValueError, match="boards of up to 1,000×1,000, not 1,001×1,001; "
                       "solve\\(\\) completes bigger ones"):
        backtrack(MAX_N + 1, limit=10)
    run = backtrack(MAX_N, [(5, 3)], limit=20)
    assert run.steps[:2] == [Step("place", (0, 0)), Step("place", (1, 2))]
    assert not run.finished


def test_numpy_whole_numbers_are_taken() -> None:
    run = backtrack(np.int64(4), limit=np.int64(100))
    assert run.n == 4 and type(run.n) is int and run.solution == next(solutions(4))
