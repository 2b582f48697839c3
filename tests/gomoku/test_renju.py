"""Renju fouls against the published test positions (rules.md §3.3)."""

from __future__ import annotations

import pytest

from gridgames.gomoku import Board, Color, Foul, IllegalMoveError, Rule
from gridgames.gomoku.notation import parse_position, parse_renju


def position(black: str, white: str) -> Board:
    """A renju board with the given stones placed directly, black to move."""
    board = Board(15, rule=Rule.RENJU)
    blacks = [parse_renju(p, 15, 15) for p in black.split()]
    whites = [parse_renju(p, 15, 15) for p in white.split()]
    for x, y in blacks:
        board.grid[y + 1, x + 1] = Color.BLACK
    for x, y in whites:
        board.grid[y + 1, x + 1] = Color.WHITE
    # keep the move count even so black is to move
    board.move_stack = [*blacks, *whites]
    board._outcomes = [None] * len(board.move_stack)
    if len(board.move_stack) % 2:
        board.move_stack.append((-1, -1))
        board._outcomes.append(None)
    return board


A = (
    "a10 b11 b3 b4 c12 d2 d3 d8 e11 e12 e13 e8 g8 h8 i8 j12 j5 k11 k13 k14 k15 k3 k4 l12 m12 m5"
    " n12 o12"
)
NESTED_BLACK = "e10 f5 f6 f9 g8 h10 h8 h9 i7 i9 j7"
NESTED_WHITE = "d11 e5 e9 f4 g11 g7 g9 h7 j10"
MULTI_BLACK = "d8 d9 e7 f7 g6 g9 h12 h8 i9 j7 j9 k6 k9 l6 m11 m9 n10"
MULTI_WHITE = "b7 c9 e5 e8 f10 f8 h9 i8 l9 m10 m6"

CASES = [
    ("basic", A, "e10", {"e14": Foul.DOUBLE_FOUR, "f8": Foul.OVERLINE, "k5": Foul.DOUBLE_THREE}),
    ("pseudo 1", "e5 e6 e7 e8 f6 g6 g9 h8", "e4 e9 f7 f9 h9 i10 i9", {"f8": Foul.DOUBLE_THREE}),
    ("pseudo 2", "f9 g9 h7 h8 i6 j6 k6", "f10 g7 g8 h11 i7 i8 l6", {}),
    ("pseudo 3", "f10 f6 f7 g6 g9 h8 i8 j5 j6 j9", "e11 e6 f5 h5 h7 h9 i6 i7 i9", {}),
    ("pseudo 4", "f10 f6 f7 g9 h7 h8 i9 j10 j7 j8", "e12 f11 f5 g10 g7 i10 i7 i8 j6 k7", {}),
    (
        "single nested",
        "d7 e5 e7 f6 f7 f8 f9 g7 h10 h11 h8 h9 i7",
        "c7 d4 f10 f5 g5 g9 h12 h6 h7 i9 j6 j8",
        {"e8": Foul.DOUBLE_THREE, "e6": Foul.DOUBLE_THREE},
    ),
    ("double nested 1", NESTED_BLACK, NESTED_WHITE, {"i8": Foul.DOUBLE_THREE}),
    (
        "double nested 2",
        NESTED_BLACK,
        NESTED_WHITE + " g6 k8",
        {"g10": Foul.DOUBLE_THREE, "i10": Foul.DOUBLE_THREE, "i8": Foul.DOUBLE_THREE},
    ),
    (
        "pseudo double nested",
        "f11 f7 g8 h6 h8 i8 j5 k10 k8 l9",
        "f8 j11 j8 k9",
        {"h9": Foul.DOUBLE_THREE, "h7": Foul.DOUBLE_THREE, "i6": Foul.DOUBLE_THREE},
    ),
    (
        "multiple nested 1",
        MULTI_BLACK,
        MULTI_WHITE,
        {"g7": Foul.DOUBLE_THREE, "j10": Foul.DOUBLE_THREE, "j8": Foul.DOUBLE_THREE,
         "k7": Foul.DOUBLE_THREE},
    ),
    (
        "multiple nested 2",
        MULTI_BLACK + " o11",
        MULTI_WHITE,
        {"d7": Foul.DOUBLE_THREE, "g7": Foul.DOUBLE_THREE, "j10": Foul.DOUBLE_THREE,
         "j8": Foul.DOUBLE_THREE},
    ),
    (
        "recursive",
        "f7 f8 g6 g7 g8 g9 h6 h7 h8 h9 i7 i8",
        "e7 e8 g10 g5 h10 h5 j7 j8",
        {"f9": Foul.DOUBLE_THREE, "f6": Foul.DOUBLE_THREE, "i9": Foul.DOUBLE_THREE,
         "i6": Foul.DOUBLE_THREE},
    ),
    (
        "single line",
        "c2 e10 e14 e2 e6 f6 g10 g14 g2 h10 h2 h6 i14 k10 k14 k2 k6 l2 l6 n2",
        "e12 e4 e8 f12 f4 f8 g12 g4 g8 h12 h4 h8 i12 i4 i8 j12 j4 j8 k12 k4 k8",
        {"h14": Foul.DOUBLE_FOUR, "i10": Foul.DOUBLE_FOUR, "i6": Foul.DOUBLE_FOUR},
    ),
]


@pytest.mark.parametrize(("name", "black", "white", "expected"), CASES, ids=[c[0] for c in CASES])
def test_forbidden_points_match_the_published_answers(name, black, white, expected):
    board = position(black, white)
    found = {board.point_name(p): board.foul(p) for p in board.forbidden_points()}
    assert found == expected


def test_forbidden_move_is_refused_with_the_reason():
    board = position(A, "e10")
    with pytest.raises(IllegalMoveError, match="k5 is forbidden for black: double three"):
        board.push(parse_renju("k5", 15, 15))
    with pytest.raises(IllegalMoveError, match="f8 is forbidden for black: overline"):
        board.push(parse_renju("f8", 15, 15))
    assert parse_renju("k5", 15, 15) not in board.legal_moves


def test_exact_five_wins_even_where_it_also_makes_a_double_four():
    # Black f8 on row 8 gives d8..h8 = five only if i8 is not black; here black
    # completes a five that also forms fours elsewhere.
    board = Board(15, rule=Rule.RENJU)
    moves = ["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7",
             "g9", "a9", "g10", "a11", "g11", "a13", "f9", "c1", "e9", "c3"]
    for m in moves:
        board.push(board.parse(m))
    target = parse_renju("g8", 15, 15)
    # g8 makes the five g8-k8 and also a vertical four g8-g11: the five wins
    assert board.foul(target) is Foul.NONE
    board.push(target)
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is Color.BLACK
    assert len(outcome.line) == 5


def test_white_may_make_overlines_and_double_threes():
    board = Board(15, rule=Rule.RENJU)
    for m in ["a1", "c8", "a3", "d8", "a5", "f8", "a7", "g8", "a9", "h8", "a11", "i8", "c1"]:
        board.push(board.parse(m))
    assert board.forbidden_points() == set()  # white to move
    board.push(board.parse("e8"))  # c8..i8: seven white stones
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is Color.WHITE
    assert len(outcome.line) == 7


def test_a_completion_that_makes_a_five_elsewhere_does_not_make_a_three():
    # g7 gives a row three (completions f7, j7) and a split three g5 _ g7 g8 in
    # its column whose only straight-four completion g6 also completes the
    # five g6-h7-i8-j9-k10: that wins outright, so the column is no three and
    # g7 is legal.
    board = Board(15, rule=Rule.RENJU)
    board.push_many(parse_position(
        "j9l8m7k6i8i10g8e9f11g11h12i14k13j12i12j14l13m12n10m9n11m13o12o13m14l15k14l14"
        "j13k15i13j11k10l9j8i6g5i5k4j5i7h6h7f5", 15, 15))
    assert board.to_move is Color.BLACK
    assert board.foul(parse_renju("g7", 15, 15)) is Foul.NONE
    assert board.foul(parse_renju("g6", 15, 15)) is Foul.NONE  # the five itself
