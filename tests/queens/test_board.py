from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridgames.queens import LINES, Placement, QueenConflictError

from .oracle import attacks, is_solution


def test_place_and_remove() -> None:
    board = Placement(8)
    board.place(3, 4)
    board.place(0, 0)
    assert board.queens == [(0, 0), (3, 4)]
    assert (3, 4) in board and len(board) == 2
    board.remove(3, 4)
    assert board.queens == [(0, 0)]


@pytest.mark.parametrize(
    ("square", "line"),
    [((2, 6), "row"), ((7, 3), "column"), ((4, 5), "diagonal"), ((0, 5), "anti-diagonal")],
)
def test_conflict_names_attacker_and_line(square: tuple[int, int], line: str) -> None:
    board = Placement(8)
    board.place(2, 3)
    with pytest.raises(QueenConflictError) as caught:
        board.place(*square)
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.attacker == (2, 3)
    assert error.line == line
    assert error.square == square
    assert "(2, 3)" in str(error) and line in str(error)
    assert board.queens == [(2, 3)]


def test_conflict_reports_nearest_attacker() -> None:
    board = Placement.from_queens(8, [(0, 0), (7, 1)])
    assert board.attacker(2, 2) == ((0, 0), "diagonal")
    assert board.attacker(5, 3) == ((7, 1), "anti-diagonal")
    assert board.attacker(1, 3) is None


def test_off_board_square_says_allowed_range() -> None:
    board = Placement(5)
    for row, col in [(5, 0), (0, 5), (-1, 2), (2, -1)]:
        with pytest.raises(ValueError, match="between 0 and 4"):
            board.place(row, col)
    with pytest.raises(ValueError, match="off the 5×5 board"):
        board.remove(9, 9)


def test_occupied_square_and_missing_queen() -> None:
    board = Placement(4)
    board.place(1, 1)
    with pytest.raises(ValueError, match="already a queen on \\(1, 1\\)") as caught:
        board.place(1, 1)
    assert not isinstance(caught.value, QueenConflictError)
    with pytest.raises(ValueError, match="no queen on \\(2, 2\\)"):
        board.remove(2, 2)


@pytest.mark.parametrize("n", [0, -3, 2.5, True, "8"])
def test_bad_size(n: object) -> None:
    with pytest.raises(ValueError, match="board size"):
        Placement(n)  # type: ignore[arg-type]


@pytest.mark.parametrize("square", [(1,), (1, 2, 3), ("a", 1), (1.0, 2), 5])
def test_bad_square_type(square: object) -> None:
    with pytest.raises(ValueError, match="square"):
        Placement.from_queens(4, [square])  # type: ignore[list-item]


def test_from_queens_checked_and_unchecked() -> None:
    with pytest.raises(QueenConflictError):
        Placement.from_queens(4, [(0, 0), (3, 3)])
    board = Placement.from_queens(4, [(0, 0), (3, 3), (0, 2)], check=False)
    assert board.conflicts == [((0, 0), (0, 2)), ((0, 0), (3, 3))]
    assert not board.is_solution
    with pytest.raises(ValueError, match="same square"):
        Placement.from_queens(4, [(1, 1), (1, 1)], check=False)


def test_is_solution_copy_clear_str_repr() -> None:
    board = Placement.from_queens(4, [(0, 1), (1, 3), (2, 0), (3, 2)])
    assert board.is_solution and board.is_complete and board.conflicts == []
    assert str(board) == ". Q . .\n. . . Q\nQ . . .\n. . Q ."
    assert eval(repr(board)) == board
    twin = board.copy()
    twin.remove(0, 1)
    assert board.is_solution and not twin.is_solution and twin != board
    board.clear()
    assert board.queens == [] and str(board).count("Q") == 0
    board.place(0, 0)  # the line indexes were cleared too
    unchecked = Placement.from_queens(3, [(0, 0), (1, 1)], check=False)
    assert eval(repr(unchecked)) == unchecked


def test_full_board_with_attacks_is_not_a_solution() -> None:
    board = Placement.from_queens(3, [(0, 0), (1, 1), (2, 2)], check=False)
    assert board.is_complete and not board.is_solution
    assert board.conflicts == [((0, 0), (1, 1)), ((0, 0), (2, 2)), ((1, 1), (2, 2))]


def test_lines_constant() -> None:
    assert LINES == ("row", "column", "diagonal", "anti-diagonal")


squares = st.tuples(st.integers(0, 5), st.integers(0, 5))


@given(st.lists(squares, max_size=40))
def test_place_toggle_matches_plain_rules(moves: list[tuple[int, int]]) -> None:
    """Toggle squares at random; the board always agrees with the plain attack rule."""
    board = Placement(6)
    model: set[tuple[int, int]] = set()
    for square in moves:
        if square in model:
            board.remove(*square)
            model.discard(square)
            continue
        attackers = [q for q in model if attacks(q, square)]
        if attackers:
            with pytest.raises(QueenConflictError) as caught:
                board.place(*square)
            assert caught.value.attacker in attackers
        else:
            board.place(*square)
            model.add(square)
        assert board.queens == sorted(model)
        assert board.conflicts == []
        assert board.is_solution == is_solution(6, model)


@given(st.sets(squares, max_size=12))
def test_conflicts_match_plain_rule(queens: set[tuple[int, int]]) -> None:
    board = Placement.from_queens(6, queens, check=False)
    expected = sorted((a, b) for a in queens for b in queens if a < b and attacks(a, b))
    assert board.conflicts == expected


def test_numpy_whole_numbers_are_whole_numbers() -> None:
    """A board read from a numpy array was refused: "board size must be an integer, not
    np.int64(8)"."""
    board = Placement(np.int64(8))
    board.place(np.int64(2), np.int32(3))
    assert board.n == 8 and board.queens == [(2, 3)]
    assert type(board.n) is int and all(type(v) is int for v in board.queens[0])
    with pytest.raises(ValueError, match="a square is a pair of integers"):
        board.place(np.bool_(True), 0)  # type: ignore[arg-type]
