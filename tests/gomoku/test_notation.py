"""Text forms of points: round trips on corners and centres of square and non-square boards."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
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


@pytest.mark.parametrize("parse", [n.parse_renju, n.parse_seed, n.parse_gomocup, n.parse_point])
def test_text_that_is_not_a_str_is_refused_naming_the_argument(parse):
    with pytest.raises(ValueError, match=r"^text must be a str such as '.+', got None$"):
        parse(None, 15, 15)
    with pytest.raises(ValueError, match=r"^text must be a str such as 'h8i9j10', got 77$"):
        n.parse_position(77, 15, 15)


@pytest.mark.parametrize("text", ["h" + "1" * 5000, "1" * 5000 + " a", "1" * 5000 + ",3",
                                  "-" + "1" * 5000 + ",3", "a" * 1_000_000 + "1",
                                  "3 " + "b" * 1_000_000, "h8" + "i" + "9" * 5000])
def test_numbers_and_letters_far_too_long_are_off_the_board(text):
    # no conversion of thousands of digits (Python refuses it), nor a slow sum of letters
    allowed = (r"x and y count from 0, each from 0 to 14" if "," in text
               else r"columns a to o, rows 1 to 15")
    with pytest.raises(IllegalMoveError, match=rf"\.\.\. is off the 15x15 board \({allowed}\)$") \
            as error:
        n.parse_position(text, 15, 15) if text.startswith("h8i") else n.parse_point(text, 15, 15)
    assert len(str(error.value)) < 120


def test_an_xy_point_off_the_board_is_told_in_xy_terms():
    """Once told in renju letters and rows, which x,y does not use."""
    with pytest.raises(IllegalMoveError, match=r"^15,0 is off the 15x20 board \(x and y count "
                                               r"from 0, x from 0 to 14 and y from 0 to 19\)$"):
        n.parse_gomocup("15,0", 15, 20)


def test_long_unreadable_text_is_quoted_clipped():
    with pytest.raises(InvalidMoveError) as error:
        n.parse_point("x" * 1_000_000, 15, 15)
    assert str(error.value).startswith(f"cannot read '{'x' * 37}...': expected a column")
    assert len(str(error.value)) < 120
    assert n.shown("h8") == "h8" and n.shown("y" * 41) == "y" * 37 + "..."


def test_read_number_stops_where_no_board_reaches():
    assert n.read_number("0008") == 8 and n.read_number("-12") == -12
    assert n.read_number("9" * n.MAX_DIGITS) == 10**n.MAX_DIGITS - 1
    assert n.read_number("1" * 5000) == n.OFF_EVERY_BOARD
    assert n.read_number("-" + "1" * 5000) == -n.OFF_EVERY_BOARD
    # leading zeros count towards Python's limit too; other scripts' digits are digits
    assert n.read_number("0" * 5000 + "8") == 8 and n.parse_point("h" + "0" * 5000 + "8", 15,
                                                                     15) == (7, 7)
    assert n.read_number("\u0661" * 5000) == n.OFF_EVERY_BOARD
    with pytest.raises(ValueError, match="invalid literal"):
        n.read_number("abcdefghijklmnop")  # not a number, however long


def test_importing_gridgames_leaves_pythons_integer_limit_alone():
    code = ("import sys; before = sys.get_int_max_str_digits(); "
            "import gridgames.cli.play, gridgames.cli.queens, gridgames.cli.puzzle, "
            "gridgames.gomoku.notation; print(before, sys.get_int_max_str_digits())")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONINTMAXSTRDIGITS"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout.split()
    assert out == ["4300", "4300"]


@pytest.mark.parametrize(("format_point", "point", "message"), [
    (lambda p: n.format_renju(p, 0), (0, 0), r"^board height 0 is out of range; allowed: 5 "
                                              r"to 64$"),
    (lambda p: n.format_renju(p, 15), (0, 15), r"^\(0, 15\) is off a board of 15 rows: y must "
                                                r"be 0 to 14$"),
    (lambda p: n.format_renju(p, 15), (-1, 3), r"^\(-1, 3\) is off every board: x and y are 0 "
                                                r"to 63$"),
    (lambda p: n.format_renju(p, 15), (99, 3), r"^\(99, 3\) is off every board"),
    (n.format_seed, (0, -1), r"^\(0, -1\) is off every board"),
    (n.format_gomocup, (64, 0), r"^\(64, 0\) is off every board"),
    (n.format_gomocup, "h8", r"^'h8' is not a point: a point is a pair of integers \(x, y\)$"),
])
def test_off_board_points_are_not_named(format_point, point, message):
    with pytest.raises(ValueError, match=message):
        format_point(point)


@pytest.mark.parametrize(("width", "message"), [
    (None, "board width must be an integer, got None"),
    ("15", "board width must be an integer, got '15'"),
    (15.0, "board width must be an integer, got 15.0"),
    (0, "board width 0 is out of range; allowed: 5 to 64"),
    (100, "board width 100 is out of range; allowed: 5 to 64"),
])
@pytest.mark.parametrize(("parse", "text"), [
    (n.parse_point, "h8"), (n.parse_renju, "h8"), (n.parse_seed, "8 H"),
    (n.parse_gomocup, "7,7"), (n.parse_position, "h8i9")])
def test_a_board_size_given_to_a_reader_is_checked(parse, text, width, message):
    """Each was read on a board of no size: None and "15" gave "'<' not supported between
    instances of 'int' and 'NoneType'", 0 "column index must be 0 or more, got -1", and
    15.0 and 100 were taken."""
    with pytest.raises(ValueError, match=f"^{message}$"):
        parse(text, width, 15)


@pytest.mark.parametrize(("height", "message"), [
    (15.0, "board height must be an integer, got 15.0"),  # was 'a15.0'
    (True, "board height must be an integer, got True"),  # was 'a1'
    (None, "board height must be an integer, got None"),
    (10**9, "board height 1000000000 is out of range; allowed: 5 to 64"),  # was 'a1000000000'
])
def test_a_point_is_named_only_on_a_board_height(height, message):
    with pytest.raises(ValueError, match=f"^{message}$"):
        n.format_renju((0, 0), height)
    with pytest.raises(ValueError, match=f"^{message}$"):
        n.format_position([(0, 0)], height)


def test_columns_are_converted_only_from_letters_and_to_whole_numbers():
    """column_index(None) was an AttributeError, column_letters(None) a TypeError."""
    with pytest.raises(ValueError, match=r"^text must be a str such as 'h', got None$"):
        n.column_index(None)  # type: ignore[arg-type]
    for index in (None, 1.5, -1):
        with pytest.raises(ValueError, match=rf"^column index must be an integer of 0 or more, "
                                             rf"got {index}$"):
            n.column_letters(index)  # type: ignore[arg-type]
    assert n.column_letters(np.int64(27)) == "ab"  # type: ignore[arg-type]


def test_a_point_of_a_number_too_long_to_write_is_named_in_a_line():
    with pytest.raises(ValueError, match=r"^a number of over 4,300 digits is off every board"):
        n.format_gomocup((10**5000, 0))
    with pytest.raises(ValueError, match=r"^text must be a str such as 'h8', got a number of "):
        n.parse_point(10**5000, 15, 15)  # type: ignore[arg-type]


@pytest.mark.timeout(20)
def test_a_long_run_of_letters_is_refused_at_once():
    # It was searched again from every letter: 100,000 of them took minutes.
    with pytest.raises(InvalidMoveError, match="expected renju points like h8i9j10"):
        n.parse_position("h8" + "z" * 100_000, 15, 15)
