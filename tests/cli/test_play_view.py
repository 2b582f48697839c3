"""The terminal Gomoku board drawing and typed-move reading."""

from __future__ import annotations

import re

import pytest

from gridgames.cli.gomoku_view import (
    Style,
    color_supported,
    format_move,
    parse_move,
    render_board,
    unplayable_reason,
)
from gridgames.gomoku import Board, IllegalMoveError, InvalidMoveError, Point, Rule

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def position(black: list[Point], white: list[Point], rule: Rule = Rule.FREESTYLE,
             size: int = 15) -> Board:
    """A board with these stones, black and white alternating (black to move when equal)."""
    board = Board(size, rule=rule)
    for index, point in enumerate(black):
        board.push(point)
        if index < len(white):
            board.push(white[index])
    return board


# -- drawing ------------------------------------------------------------------


def test_seed_board_has_letters_a_to_s_and_rows_1_to_19_from_the_top():
    board = Board(19)
    board.push((0, 13))  # the seed's "14 A"
    lines = render_board(board, Style(), max_width=200).splitlines()
    assert lines[0].split() == [chr(ord("A") + i) for i in range(19)]
    assert [line.split()[0] for line in lines[1:]] == [str(n) for n in range(1, 20)]
    assert lines[14].startswith("14 [o]")


def test_cells_line_up_for_one_and_two_digit_rows():
    board = Board(12)
    board.push((4, 2))
    board.push((4, 10))
    lines = render_board(board, Style()).splitlines()
    assert lines[3].index(" o ") == lines[11].index("[x]") == lines[0].index("E") - 1
    assert len({len(line) for line in lines[1:]}) == 1


def test_last_move_and_winning_line_are_marked():
    board = position([(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)], [(0, 1), (1, 1), (2, 1), (3, 1)],
                     size=9)
    outcome = board.outcome()
    assert outcome is not None and outcome.line
    text = render_board(board, Style(), winning_line=outcome.line)
    assert text.splitlines()[1] == "1 " + "*o*" * 5 + " .  .  .  ."
    board.pop()
    assert "[x]" in render_board(board, Style())


def test_custom_symbols():
    board = position([(2, 2)], [(3, 3)], size=5)
    text = render_board(board, Style(symbols=("@", "#")))
    assert " @ " in text and "[#]" in text and "o" not in text


def test_colour_only_when_asked():
    board = position([(2, 2)], [(3, 3)], size=5)
    plain = render_board(board, Style())
    coloured = render_board(board, Style(color=True))
    assert not ANSI.search(plain)
    assert ANSI.search(coloured)
    assert ANSI.sub("", coloured) == plain


def test_colour_follows_terminal_and_no_color():
    assert color_supported(True, {"TERM": "xterm-256color"})
    assert not color_supported(False, {"TERM": "xterm-256color"})
    assert not color_supported(True, {"TERM": "xterm", "NO_COLOR": ""})
    assert not color_supported(True, {"TERM": "dumb"})


@pytest.mark.parametrize("width", [30, 64])
def test_wide_boards_split_into_bands_that_fit(width):
    board = Board(width, 10)
    board.push((width - 1, 9))
    text = render_board(board, Style(), max_width=80)
    assert max(len(line) for line in text.splitlines()) <= 80
    bands = text.split("\n\n")
    assert len(bands) > 1
    labels = [label for band in bands for label in band.splitlines()[0].split()]
    assert labels[:3] == ["A", "B", "C"] and labels[26] == "AA"
    assert labels[-1] == format_move((width - 1, 0)).split()[1]
    assert len(labels) == width
    assert bands[-1].splitlines()[-1].endswith("[o]")


def test_a_board_that_fits_is_one_band():
    assert "\n\n" not in render_board(Board(20), Style(), max_width=80)


# -- typed moves --------------------------------------------------------------


@pytest.mark.parametrize("text", ["14 A", "14a", " 14  a ", "A14", "a 14", "a14"])
def test_both_orders_and_any_case_give_the_same_point(text):
    assert parse_move(text, 19, 19) == (0, 13)


def test_format_and_parse_round_trip_on_corners_and_centre():
    for width, height in [(15, 15), (19, 19), (64, 7), (5, 64)]:
        for point in [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1),
                      (width // 2, height // 2)]:
            text = format_move(point)
            assert parse_move(text, width, height) == point
            row, column = text.split()
            assert parse_move(column + row, width, height) == point


def test_columns_past_z():
    assert format_move((26, 0)) == "1 AA"
    assert parse_move("AB3", 30, 5) == (27, 2)


@pytest.mark.parametrize("text", ["", "hello", "14", "A", "14 A 3", "1,2", "-3 A", "A-3"])
def test_unreadable_text(text):
    with pytest.raises(InvalidMoveError, match=r"Cannot read .* like 8 H or H8"):
        parse_move(text, 15, 15)


@pytest.mark.parametrize("text", ["16 A", "0 A", "1 P", "P1", "1 ZZ"])
def test_off_the_board_says_what_is_allowed(text):
    allowed = "off the board: rows are 1 to 15 and columns A to O"
    with pytest.raises(IllegalMoveError, match=allowed):
        parse_move(text, 15, 15)


def test_occupied_point():
    board = position([(7, 7)], [(8, 8)])
    assert unplayable_reason(board, (7, 7), Style()) == "8 H is already taken by o"
    assert unplayable_reason(board, (8, 8), Style(("@", "#"))) == "9 I is already taken by #"
    assert unplayable_reason(board, (0, 0), Style()) is None


# White stones far from black, so only black's shapes matter.
FAR_WHITE = [(0, 14), (2, 14), (4, 14), (6, 14), (8, 14), (10, 14)]


@pytest.mark.parametrize(("black", "point", "foul"), [
    ([(7, 7), (8, 7), (9, 8), (9, 9)], (9, 7), "double three"),
    ([(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)], (7, 7), "double four"),
    ([(3, 7), (4, 7), (5, 7), (7, 7), (8, 7)], (6, 7), "overline"),
])
def test_renju_fouls_are_named(black, point, foul):
    board = position(black, FAR_WHITE[: len(black)], Rule.RENJU)
    reason = unplayable_reason(board, point, Style())
    assert reason == f"{format_move(point)} is forbidden for black under renju: {foul}"
    freestyle = position(black, FAR_WHITE[: len(black)], Rule.FREESTYLE)
    assert unplayable_reason(freestyle, point, Style()) is None


def test_points_forbidden_to_black_are_marked_under_renju_only():
    black, white = [(7, 7), (8, 7), (9, 8), (9, 9)], FAR_WHITE[:4]
    row_8 = render_board(position(black, white, Rule.RENJU), Style()).splitlines()[8]
    assert row_8 == "8   .  .  .  .  .  .  .  o  o  !  .  .  .  .  ."
    freestyle = render_board(position(black, white), Style())
    assert "!" not in freestyle
    board = position(black, white, Rule.RENJU)
    board.push((0, 0))  # white to move: nothing is forbidden to white
    assert "!" not in render_board(board, Style())
