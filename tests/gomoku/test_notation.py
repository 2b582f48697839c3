"""Text forms of points: round trips on corners and centres of square and non-square boards."""

from __future__ import annotations

import pytest

from gridgames.gomoku import IllegalMoveError, InvalidMoveError
from gridgames.gomoku import notation as n

SIZES = [(5, 5), (15, 15), (19, 19), (20, 20), (9, 13), (13, 9), (60, 60), (64, 64), (64, 5)]


def corners_and_centre(width: int, height: int) -> list[tuple[int, int]]:
    return [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1),
            (width // 2, height // 2)]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_round_trips(width, height):
    for point in corners_and_centre(width, height):
        assert n.parse_renju(n.format_renju(point, height), width, height) == point
        assert n.parse_seed(n.format_seed(point), width, height) == point
        assert n.parse_gomocup(n.format_gomocup(point), width, height) == point
        for text in (n.format_renju(point, height), n.format_seed(point), n.format_gomocup(point)):
            assert n.parse_point(text, width, height) == point
    moves = corners_and_centre(width, height)
    assert n.parse_position(n.format_position(moves, height), width, height) == moves


def test_known_points():
    assert n.parse_renju("h8", 15, 15) == (7, 7)
    assert n.parse_renju("a15", 15, 15) == (0, 0)
    assert n.parse_renju("o1", 15, 15) == (14, 14)
    assert n.parse_renju("a1", 15, 15) == (0, 14)
    assert n.parse_seed("14 A", 19, 19) == (0, 13)
    assert n.parse_seed("1 s", 19, 19) == (18, 0)
    assert n.parse_seed("19S", 19, 19) == (18, 18)
    assert n.format_seed((18, 18)) == "19 S"


def test_columns_past_z():
    assert [n.column_letters(i) for i in (0, 25, 26, 27, 51, 52, 63)] == [
        "a", "z", "aa", "ab", "az", "ba", "bl"]
    assert all(n.column_index(n.column_letters(i)) == i for i in range(64))
    assert n.parse_renju("AA1", 30, 30) == (26, 29)


@pytest.mark.parametrize("text", ["", "h", "8", "hh", "h8x", "8 8", "#4", "h-8", "ä3"])
def test_unreadable_text_is_an_invalid_move(text):
    with pytest.raises(InvalidMoveError):
        n.parse_point(text, 15, 15)


@pytest.mark.parametrize("text", ["p8", "h16", "h0", "16 A", "0 A", "15,0", "-1,3", "1 P"])
def test_points_off_the_board_are_illegal(text):
    with pytest.raises(IllegalMoveError, match="off the 15x15 board"):
        n.parse_point(text, 15, 15)


def test_bad_position_strings_say_where():
    with pytest.raises(InvalidMoveError, match="after 'h8i9'"):
        n.parse_position("h8i9??", 15, 15)
    assert n.parse_position("h8 i9, j10", 15, 15) == [(7, 7), (8, 6), (9, 5)]
    assert n.parse_position("", 15, 15) == []
