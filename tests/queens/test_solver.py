from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridgames.queens import Placement, hint, solve, solver

from .oracle import attacks, completable, is_solution


def non_attacking_subsets(n: int) -> list[list[tuple[int, int]]]:
    """Every set of non-attacking queens on an n×n board (small n only)."""
    squares = [(r, c) for r in range(n) for c in range(n)]
    found: list[list[tuple[int, int]]] = []

    def extend(start: int, chosen: list[tuple[int, int]]) -> None:
        found.append(list(chosen))
        for index in range(start, len(squares)):
            square = squares[index]
            if all(not attacks(square, q) for q in chosen):
                chosen.append(square)
                extend(index + 1, chosen)
                chosen.pop()

    extend(0, [])
    return found


def random_partial(n: int, count: int, rng: random.Random) -> list[tuple[int, int]]:
    """Up to ``count`` non-attacking queens on random squares."""
    board = Placement(n)
    rows = rng.sample(range(n), count)
    for row in rows:
        options = [c for c in range(n) if board.attacker(row, c) is None]
        if options:
            board.place(row, rng.choice(options))
    return board.queens


def check_result(
    n: int, fixed: list[tuple[int, int]], result: list[tuple[int, int]] | None
) -> None:
    if result is None:
        assert not completable(n, fixed)
    else:
        assert is_solution(n, result)
        assert set(fixed) <= set(result)
        assert result == sorted(result)


@pytest.mark.parametrize("n", range(1, 31))
def test_empty_boards(n: int) -> None:
    result = solve(n)
    if n in (2, 3):
        assert result is None
    else:
        assert result is not None and is_solution(n, result)


@pytest.mark.parametrize("n", range(1, 7))
def test_every_partial_placement_on_small_boards(n: int) -> None:
    """Exhaustive: every non-attacking partial placement, checked against brute force."""
    for fixed in non_attacking_subsets(n):
        check_result(n, fixed, solve(n, fixed))


@settings(max_examples=150, deadline=None)
@given(st.integers(4, 9), st.integers(0, 2**32 - 1), st.floats(0, 1))
def test_random_partial_placements(n: int, seed: int, fraction: float) -> None:
    rng = random.Random(seed)
    fixed = random_partial(n, round(fraction * n), rng)
    check_result(n, fixed, solve(n, fixed, seed=seed))


def test_hard_instances_near_the_threshold() -> None:
    """n ≈ 0.19 × free²: about half of these have no completion."""
    rng = random.Random(7)
    outcomes = set()
    for _ in range(12):
        fixed = random_partial(20, 10, rng)
        result = solve(20, fixed)
        check_result(20, fixed, result)
        outcomes.add(result is None)
    assert outcomes == {True, False}


@pytest.mark.parametrize(("n", "count"), [(200, 150), (1000, 100), (1000, 500), (3000, 0)])
def test_large_boards_keep_queens_from_a_solution(n: int, count: int) -> None:
    rng = random.Random(n + count)
    base = solve(n, seed=1)
    assert base is not None
    fixed = rng.sample(base, count)
    result = solve(n, fixed)
    assert result is not None and is_solution(n, result) and set(fixed) <= set(result)


@pytest.mark.parametrize("seed", range(8))
def test_larger_threshold_instances_agree_with_brute_force(seed: int) -> None:
    n, free = 40, 15  # 0.19 × 15² ≈ 43
    fixed = random_partial(n, n - free, random.Random(seed))
    check_result(n, fixed, solve(n, fixed))


def test_seed_makes_it_deterministic() -> None:
    fixed = [(0, 5), (10, 10)]
    assert solve(60, fixed, seed=3) == solve(60, fixed, seed=3)
    assert solve(60, fixed) == solve(60, fixed)
    assert is_solution(60, solve(60, fixed, seed=4) or [])


@pytest.mark.parametrize(
    ("n", "fixed", "message"),
    [
        (0, [], "at least 1"),
        (8, [(8, 0)], "between 0 and 7"),
        (8, [(0, -1)], "between 0 and 7"),
        (8, [(1, 1), (1, 1)], "given twice"),
        (8, [(0, 0), (5, 5)], "attack each other along the diagonal"),
        (8, [(0, 0), (0, 5)], "attack each other along the row"),
        (8, [(1, 2)], None),
        (8, [(1, 2, 3)], "pair"),
    ],
)
def test_invalid_input(n: int, fixed: list[tuple[int, int]], message: str | None) -> None:
    if message is None:
        assert solve(n, fixed) is not None
        return
    with pytest.raises(ValueError, match=message):
        solve(n, fixed)


@pytest.mark.parametrize("seed", [-1, 1.5, "7", None, True])
def test_a_bad_seed_is_refused_by_name(seed: object) -> None:
    """A negative seed was once numpy's 'expected non-negative integer' (a traceback from
    gridgames queens solve --seed -1), a fraction its TypeError about SeedSequence."""
    with pytest.raises(ValueError, match="seed must be a whole number of 0 or more, not"):
        solve(8, seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seed must be a whole number of 0 or more, not"):
        hint(Placement(8), seed=seed)  # type: ignore[arg-type]
    assert solve(8, seed=2**70) is not None  # any size of whole number


def test_hint_keeps_board_completable() -> None:
    rng = random.Random(3)
    for _ in range(40):
        n = rng.randint(4, 9)
        board = Placement.from_queens(n, random_partial(n, rng.randint(0, n - 1), rng))
        square = hint(board)
        if square is None:
            assert not completable(n, board.queens)
            continue
        assert square not in board
        board.place(*square)
        assert completable(n, board.queens)


def test_hint_none_when_complete_stuck_or_attacking() -> None:
    assert hint(Placement.from_queens(4, [(0, 1), (1, 3), (2, 0), (3, 2)])) is None
    assert hint(Placement.from_queens(8, [(0, 0), (1, 2)])) is None
    assert hint(Placement.from_queens(8, [(0, 0), (1, 1)], check=False)) is None
    assert hint(Placement(3)) is None
    assert hint(Placement(1)) == (0, 0)


def test_a_knights_move_staircase_on_a_large_board_is_completed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Queens on a1, c2, e3, ... (the textbook construction's start): local search
    completes 400 of them on 1000×1000 in milliseconds, but it had one short try, and
    then the exact search alone ran on for hours. The runs are counted, not timed."""
    limits: list[int] = []
    exact_search = solver._exact_search

    def counted(*args: Any) -> int:
        limits.append(args[7])  # its node limit
        assert len(limits) <= 3, "the exact search was left to go on alone"
        return exact_search(*args)

    monkeypatch.setattr(solver, "_exact_search", counted)
    fixed = [(row, 2 * row) for row in range(400)]
    result = solve(1000, fixed)
    assert result is not None and is_solution(1000, result) and set(fixed) <= set(result)


@pytest.mark.parametrize(("fixed", "error", "says"), [
    (None, TypeError, "the fixed queens are a list of \\(row, col\\) squares, not None"),
    (5, TypeError, "the fixed queens are a list of \\(row, col\\) squares, not 5"),
    ("a1", TypeError, "the fixed queens are a list of \\(row, col\\) squares, not 'a1'"),
    ((0, 0), ValueError, "not one square: write \\[\\(0, 0\\)\\] for a queen on \\(0, 0\\)"),
])
def test_fixed_queens_of_the_wrong_shape_are_named(fixed: object, error: type[Exception],
                                                    says: str) -> None:
    """None or 5 was "'NoneType' object is not iterable"; one square, (0, 0), was "a
    square is a (row, col) pair, not 0"."""
    with pytest.raises(error, match=says):
        solve(8, fixed)  # type: ignore[arg-type]


def test_numpy_whole_numbers_are_taken() -> None:
    result = solve(np.int64(8), [(np.int64(0), np.int64(0))], seed=np.int64(3))
    assert result is not None and is_solution(8, result) and (0, 0) in result


def test_hint_names_a_wrong_argument() -> None:
    """It was AttributeError: 'int' object has no attribute 'is_complete'."""
    with pytest.raises(TypeError, match="hint takes a Placement, not 8"):
        hint(8)  # type: ignore[arg-type]


def test_a_board_too_big_to_hold_is_refused_by_name() -> None:
    """solve(10**9) filled the memory (numpy's MemoryError, or the machine's swap)."""
    with pytest.raises(ValueError, match="board size must be at most 10,000,000 to solve, "
                       "not 1,000,000,000"):
        solve(10**9)
