"""What the terminal Gomoku game shows and reads: the board drawing and typed moves.

The screen labels columns with capital letters (A, B, ..., Z, AA, ...) along
the top and rows with numbers 1, 2, ... down the side, row 1 at the top, as in
the original design. Moves are typed against those same labels, either row
first (``14 A``) or column first (``A14``): what you see is what you type.

>>> from gridgames.gomoku import Board
>>> board = Board(5)
>>> board.push((1, 0))
>>> print(render_board(board, Style()))
   A  B  C  D  E
1  . [o] .  .  .
2  .  .  .  .  .
3  .  .  .  .  .
4  .  .  .  .  .
5  .  .  .  .  .
>>> parse_move("1 b", 5, 5), parse_move("B1", 5, 5), format_move((1, 0))
((1, 0), (1, 0), '1 B')
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection
from dataclasses import dataclass

from gridgames.gomoku import Board, Color, IllegalMoveError, InvalidMoveError, Point, Rule
from gridgames.gomoku.notation import column_index, column_letters, read_number, shown

from .terminal import column_bands

CELL_WIDTH = 3  # a marker, the symbol, a marker: " o ", "[o]", "*o*"
EMPTY = "."
FORBIDDEN = "!"  # a renju point black may not play
RESERVED = EMPTY + FORBIDDEN + "[]*"

# ANSI styles; used only when colour is on.
_RESET = "\x1b[0m"
_STONE_COLORS = {Color.BLACK: "\x1b[1;33m", Color.WHITE: "\x1b[1;36m"}
_EMPTY_COLOR = "\x1b[2m"
_FORBIDDEN_COLOR = "\x1b[31m"
_LAST_MOVE = "\x1b[7m"
_WINNING_LINE = "\x1b[42;30m"

_ROW_FIRST = re.compile(r"(\d+)\s*([a-z]+)")
_COLUMN_FIRST = re.compile(r"([a-z]+)\s*(\d+)")


@dataclass(frozen=True)
class Style:
    """How stones look: the symbols of player 1 (black) and player 2 (white), and colour."""

    symbols: tuple[str, str] = ("o", "x")
    color: bool = False

    def symbol(self, color: Color) -> str:
        return self.symbols[0] if color is Color.BLACK else self.symbols[1]


def color_supported(stream_is_tty: bool, environ: dict[str, str] | None = None) -> bool:
    """Whether to colour output: only on a terminal, and not when ``NO_COLOR`` is set.

    >>> color_supported(True, {"TERM": "xterm"}), color_supported(False, {"TERM": "xterm"})
    (True, False)
    >>> color_supported(True, {"TERM": "xterm", "NO_COLOR": "1"})
    False
    """
    env = os.environ if environ is None else environ
    return stream_is_tty and "NO_COLOR" not in env and env.get("TERM", "") != "dumb"


def column_label(x: int) -> str:
    return column_letters(x).upper()


def clock_text(ms: int) -> str:
    """Time left on a clock: ``4:05``, or tenths under ten seconds.

    >>> clock_text(245_900), clock_text(9_360), clock_text(-20)
    ('4:05', '9.3', '0.0')
    """
    ms = max(0, ms)
    if ms < 10_000:
        return f"{ms // 100 / 10:.1f}"
    seconds = ms // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


def format_move(point: Point) -> str:
    """A point as the screen shows it: row number, space, column letter (``14 A``)."""
    x, y = point
    return f"{y + 1} {column_label(x)}"


def describe_board(width: int, height: int) -> str:
    return f"rows are 1 to {height} and columns A to {column_label(width - 1)}"


def parse_move(text: str, width: int, height: int) -> Point:
    """Read a typed move, ``14 A`` or ``A14`` (case-insensitive), against the screen labels.

    Raises InvalidMoveError for text that is not a move and IllegalMoveError
    for a point off the board, each saying what is allowed.

    >>> parse_move("15 o", 15, 15), parse_move("o 15", 15, 15)
    ((14, 14), (14, 14))
    >>> try:
    ...     parse_move("16 A", 15, 15)
    ... except IllegalMoveError as error:
    ...     print(error)
    16 A is off the board: rows are 1 to 15 and columns A to O
    """
    cleaned = text.strip().lower()
    row_first = _ROW_FIRST.fullmatch(cleaned)
    column_first = _COLUMN_FIRST.fullmatch(cleaned)
    if row_first is not None:
        row_text, letters = row_first[1], row_first[2]
    elif column_first is not None:
        letters, row_text = column_first[1], column_first[2]
    else:
        raise InvalidMoveError(
            f"Cannot read {shown(text.strip())!r} as a move: type the row number and the "
            f"column letter, like 8 H or H8 (type help for commands)"
        )
    x, y = column_index(letters), read_number(row_text) - 1
    if not (0 <= x < width and 0 <= y < height):
        raise IllegalMoveError(
            f"{shown(row_text.lstrip('0') or '0')} {shown(letters.upper())} is off the board: "
            f"{describe_board(width, height)}"
        )
    return x, y


def unplayable_reason(board: Board, point: Point, style: Style) -> str | None:
    """Why ``point`` cannot be played now, in screen terms, or ``None`` if it can."""
    name = format_move(point)
    stone = board[point]
    if stone is not None:
        return f"{name} is already taken by {style.symbol(stone)}"
    if board.rule is Rule.RENJU and board.to_move is Color.BLACK:
        foul = board.foul(point)
        if foul:
            return f"{name} is forbidden for black under renju: {foul.label}"
    reason = board.illegal_reason(point)
    return None if reason is None else f"{name} cannot be played: {reason}"


def render_board(board: Board, style: Style, *, winning_line: Collection[Point] = (),
                 max_width: int = 80) -> str:
    """The board with column letters on top and row numbers (1 at the top) down the side.

    The last move is shown as ``[o]``, the stones of ``winning_line`` as ``*o*`` and,
    under renju with black to move, the points black may not play as ``!``.
    A board wider than ``max_width`` characters is printed in bands of columns.
    """
    marks = _Marks(set(winning_line), board.forbidden_points(),
                   board.move_stack[-1] if board.move_stack else None)
    label_width = len(str(board.height))
    fitting = (max_width - label_width - 1) // CELL_WIDTH
    return "\n\n".join(_render_band(board, style, columns, marks, label_width)
                       for columns in column_bands(board.width, fitting))


@dataclass(frozen=True)
class _Marks:
    winning_line: set[Point]
    forbidden: set[Point]
    last: Point | None


def _render_band(board: Board, style: Style, columns: range, marks: _Marks,
                 label_width: int) -> str:
    header = " " * (label_width + 1) + "".join(f"{column_label(x):>2} " for x in columns)
    lines = [header.rstrip()]
    for y in range(board.height):
        cells = "".join(_render_cell(board, style, (x, y), marks) for x in columns)
        lines.append(f"{y + 1:<{label_width}} {cells}".rstrip())
    return "\n".join(lines)


def _render_cell(board: Board, style: Style, point: Point, marks: _Marks) -> str:
    stone = board[point]
    if stone is None:
        if point in marks.forbidden:
            return f" {_paint(FORBIDDEN, _FORBIDDEN_COLOR, style)} "
        return f" {_paint(EMPTY, _EMPTY_COLOR, style)} "
    symbol = style.symbol(stone)
    if point in marks.winning_line:
        return f"*{_paint(symbol, _STONE_COLORS[stone] + _WINNING_LINE, style)}*"
    if point == marks.last:
        return f"[{_paint(symbol, _STONE_COLORS[stone] + _LAST_MOVE, style)}]"
    return f" {_paint(symbol, _STONE_COLORS[stone], style)} "


def _paint(text: str, code: str, style: Style) -> str:
    return f"{code}{text}{_RESET}" if style.color else text
