"""Text forms of points and positions; every conversion to ``(x, y)`` happens here.

Four forms are read and written:

- renju form ``h8``: column letter, then the row number counted from the
  *bottom* (1-based), as on renju boards;
- the seed's form ``14 A``: row number counted from the *top* (1-based), a
  space, then the column letter;
- Gomocup form ``7,7``: 0-based ``x,y`` with y from the top;
- position strings ``h8i9j10``: renju points one after another.

Columns past ``z`` continue ``aa``, ``ab``, ... (boards are up to 64 wide).

>>> format_renju((7, 7), 15), parse_renju("h8", 15, 15)
('h8', (7, 7))
>>> format_seed((0, 13)), parse_seed("14 A", 19, 19)
('14 A', (0, 13))
>>> parse_point("a1", 15, 15), parse_point("1 A", 15, 15), parse_point("0,14", 15, 15)
((0, 14), (0, 0), (0, 14))
>>> parse_position("h8i9j10", 15, 15)
[(7, 7), (8, 6), (9, 5)]
>>> format_position([(7, 7), (8, 6), (9, 5)], 15)
'h8i9j10'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from gridgames.gomoku.board import IllegalMoveError, InvalidMoveError, Point

_RENJU = re.compile(r"([a-z]+)\s*(\d+)")
_SEED = re.compile(r"(\d+)\s*([a-z]+)")
_GOMOCUP = re.compile(r"(-?\d+)\s*,\s*(-?\d+)")


def column_letters(index: int) -> str:
    """The lower-case letters of a 0-based column: 0 → ``a``, 25 → ``z``, 26 → ``aa``."""
    if index < 0:
        raise ValueError(f"column index must be 0 or more, got {index}")
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def column_index(letters: str) -> int:
    """The 0-based column of ``letters`` (case-insensitive): ``a`` → 0, ``aa`` → 26."""
    text = letters.strip().lower()
    if not text or not text.isascii() or not text.isalpha():
        raise InvalidMoveError(f"{letters!r} is not a column; columns are letters such as a or AB")
    index = 0
    for char in text:
        index = index * 26 + (ord(char) - ord("a") + 1)
    return index - 1


def _describe(width: int, height: int) -> str:
    return f"columns a to {column_letters(width - 1)}, rows 1 to {height}"


def _checked(text: str, point: Point, width: int, height: int) -> Point:
    x, y = point
    if not (0 <= x < width and 0 <= y < height):
        raise IllegalMoveError(
            f"{text.strip()} is off the {width}x{height} board ({_describe(width, height)})"
        )
    return point


def parse_renju(text: str, width: int, height: int) -> Point:
    """Read renju form (``h8``, rows counted from the bottom)."""
    match = _RENJU.fullmatch(text.strip().lower())
    if match is None:
        raise InvalidMoveError(f"cannot read {text!r}: expected a column letter and a row, like h8")
    x = column_index(match[1])
    row = int(match[2])
    return _checked(text, (x, height - row), width, height)


def format_renju(point: Point, height: int) -> str:
    x, y = point
    return f"{column_letters(x)}{height - y}"


def parse_seed(text: str, width: int, height: int) -> Point:
    """Read the seed's form (``14 A``: row counted from the top, then the column letter)."""
    match = _SEED.fullmatch(text.strip().lower())
    if match is None:
        raise InvalidMoveError(
            f"cannot read {text!r}: expected a row and a column letter, like 14 A"
        )
    row = int(match[1])
    x = column_index(match[2])
    return _checked(text, (x, row - 1), width, height)


def format_seed(point: Point) -> str:
    x, y = point
    return f"{y + 1} {column_letters(x).upper()}"


def parse_gomocup(text: str, width: int, height: int) -> Point:
    """Read Gomocup form (``x,y``, 0-based, y from the top)."""
    match = _GOMOCUP.fullmatch(text.strip())
    if match is None:
        raise InvalidMoveError(f"cannot read {text!r}: expected two numbers x,y like 7,7")
    return _checked(text, (int(match[1]), int(match[2])), width, height)


def format_gomocup(point: Point) -> str:
    return f"{point[0]},{point[1]}"


def parse_point(text: str, width: int, height: int) -> Point:
    """Read any single-point form: ``h8`` (renju), ``14 A`` (seed) or ``7,7`` (Gomocup)."""
    stripped = text.strip()
    if "," in stripped:
        return parse_gomocup(stripped, width, height)
    if stripped[:1].isdigit():
        return parse_seed(stripped, width, height)
    if stripped[:1].isalpha():
        return parse_renju(stripped, width, height)
    raise InvalidMoveError(
        f"cannot read {text!r}: type a point like h8 (column, row from the bottom), "
        "14 A (row from the top, column) or 7,7 (x,y)"
    )


def parse_position(text: str, width: int, height: int) -> list[Point]:
    """Read a position string of renju points (``h8i9j10``; spaces allowed)."""
    compact = re.sub(r"[\s,;]+", "", text.lower())
    points: list[Point] = []
    pos = 0
    for match in _RENJU.finditer(compact):
        if match.start() != pos:
            break
        points.append(parse_renju(match[0], width, height))
        pos = match.end()
    if pos != len(compact):
        raise InvalidMoveError(
            f"cannot read the position {text!r} after {compact[:pos]!r}: "
            "expected renju points like h8i9j10"
        )
    return points


def format_position(moves: Iterable[Point], height: int) -> str:
    return "".join(format_renju(m, height) for m in moves)
