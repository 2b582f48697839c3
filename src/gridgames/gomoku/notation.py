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

from gridgames.gomoku.board import (
    MAX_SIZE,
    MIN_SIZE,
    IllegalMoveError,
    InvalidMoveError,
    Point,
    as_point,
    as_whole,
    check_size,
)

_RENJU = re.compile(r"([a-z]+)\s*(\d+)")
_SEED = re.compile(r"(\d+)\s*([a-z]+)")
_GOMOCUP = re.compile(r"(-?\d+)\s*,\s*(-?\d+)")

# A coordinate is short (a board is at most 64 wide: two letters, two digits). Longer
# letters or numbers are off every board and are not converted: Python refuses int() of
# more than 4300 digits, and column letters by the million take minutes to add up.
MAX_LETTERS = 3
MAX_DIGITS = 9
OFF_EVERY_BOARD = 10**MAX_DIGITS  # what a longer number reads as
SHOWN_CHARS = 40  # the most of the user's text an error message quotes


def shown(text: str, limit: int = SHOWN_CHARS) -> str:
    """``text`` for an error message: as it is when short, else its start and ``...``.

    >>> shown("h8"), shown("h" + "1" * 5000)
    ('h8', 'h111111111111111111111111111111111111...')
    """
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown_value(value: object) -> str:
    """``repr(value)`` for an error message, cut short by :func:`shown`; a whole number
    of more digits than Python writes out is named as such.

    >>> shown_value(-5), shown_value("x" * 50), shown_value(10**5000)
    ('-5', "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...", 'a number of over 4,300 digits')
    """
    try:
        return shown(repr(value))
    except ValueError:  # int to text stops at 4,300 digits
        return "a number of over 4,300 digits"


def read_number(digits: str) -> int:
    """The whole number ``digits`` (a sign allowed) writes, for a coordinate or a count: one
    of more than :data:`MAX_DIGITS` digits reads as ±:data:`OFF_EVERY_BOARD`, beyond every
    board, rather than being converted. Other text is read by ``int()`` (a ValueError when
    it is not a whole number).

    >>> read_number("008"), read_number("-3"), read_number("1" * 5000) == OFF_EVERY_BOARD
    (8, -3, True)
    """
    text = digits.strip()
    sign = -1 if text.startswith("-") else 1
    body = text[1:] if text[:1] in ("+", "-") else text
    if body.isdecimal():  # what int() reads, in any script; leading zeros count for it too
        body = body.lstrip("0") or "0"
        return sign * (OFF_EVERY_BOARD if len(body) > MAX_DIGITS else int(body))
    return int(digits)


def read_count(text: str) -> int | None:
    """The count ``text`` writes in plain digits (``3``, ``007``), read as
    :func:`read_number` reads it, or None for anything else (a sign, a space, a letter).

    >>> read_count("3"), read_count("-3"), read_count("3a"), read_count("") is None
    (3, None, None, True)
    """
    return read_number(text) if text.isascii() and text.isdigit() else None


def _require_text(text: object, example: str) -> str:
    if not isinstance(text, str):
        raise ValueError(f"text must be a str such as {example!r}, got {shown_value(text)}")
    return text


def column_letters(index: int) -> str:
    """The lower-case letters of a 0-based column: 0 → ``a``, 25 → ``z``, 26 → ``aa``."""
    number = as_whole(index)
    if number is None or number < 0:
        raise ValueError(f"column index must be an integer of 0 or more, got "
                         f"{shown_value(index)}")
    index = number
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def column_index(letters: str) -> int:
    """The 0-based column of ``letters`` (case-insensitive): ``a`` → 0, ``aa`` → 26; more
    than :data:`MAX_LETTERS` letters read as :data:`OFF_EVERY_BOARD`."""
    text = _require_text(letters, "h").strip().lower()
    if not text or not text.isascii() or not text.isalpha():
        raise InvalidMoveError(f"{shown(letters)!r} is not a column; columns are letters "
                               "such as a or AB")
    if len(text) > MAX_LETTERS:
        return OFF_EVERY_BOARD
    index = 0
    for char in text:
        index = index * 26 + (ord(char) - ord("a") + 1)
    return index - 1


def _describe(width: int, height: int) -> str:
    return f"columns a to {column_letters(width - 1)}, rows 1 to {height}"


def _checked(text: str, point: Point, width: int, height: int, *, xy: bool = False) -> Point:
    """``point`` if it is on the board; else an IllegalMoveError in the terms of its form
    (``xy``: Gomocup's x,y, which count from 0)."""
    x, y = point
    if not (0 <= x < width and 0 <= y < height):
        allowed = _describe_xy(width, height) if xy else _describe(width, height)
        raise IllegalMoveError(f"{shown(text.strip())} is off the {width}x{height} board "
                               f"({allowed})")
    return point


def _describe_xy(width: int, height: int) -> str:
    """What x,y may be on a board, in words."""
    if width == height:
        return f"x and y count from 0, each from 0 to {width - 1}"
    return f"x and y count from 0, x from 0 to {width - 1} and y from 0 to {height - 1}"


def _named(point: object) -> Point:
    """``point`` as a pair of ints, for naming it (a ValueError for any other value)."""
    xy = as_point(point)
    if xy is None:
        raise ValueError(f"{shown_value(point)} is not a point: a point is a pair of "
                         "integers (x, y)")
    if not (0 <= xy[0] < MAX_SIZE and 0 <= xy[1] < MAX_SIZE):
        raise ValueError(f"{shown_value(xy)} is off every board: x and y are 0 to "
                         f"{MAX_SIZE - 1}")
    return xy


def _height(height: object) -> int:
    """A board's number of rows, for naming its points (a ValueError when no board has it)."""
    return check_size(MIN_SIZE, height)[1]


def parse_renju(text: str, width: int, height: int) -> Point:
    """Read renju form (``h8``, rows counted from the bottom)."""
    width, height = check_size(width, height)
    match = _RENJU.fullmatch(_require_text(text, "h8").strip().lower())
    if match is None:
        raise InvalidMoveError(f"cannot read {shown(text)!r}: expected a column letter and a "
                               "row, like h8")
    x = column_index(match[1])
    row = read_number(match[2])
    return _checked(text, (x, height - row), width, height)


def format_renju(point: Point, height: int) -> str:
    """``point`` in renju form on a board of ``height`` rows (a ValueError when it is off
    them).

    >>> format_renju((0, 0), 15)
    'a15'
    >>> format_renju((0, 20), 15)
    Traceback (most recent call last):
    ...
    ValueError: (0, 20) is off a board of 15 rows: y must be 0 to 14
    """
    x, y = _named(point)
    height = _height(height)
    if not 0 <= y < height:
        raise ValueError(f"{(x, y)!r} is off a board of {height} rows: y must be 0 to "
                         f"{height - 1}")
    return f"{column_letters(x)}{height - y}"


def parse_seed(text: str, width: int, height: int) -> Point:
    """Read the seed's form (``14 A``: row counted from the top, then the column letter)."""
    width, height = check_size(width, height)
    match = _SEED.fullmatch(_require_text(text, "14 A").strip().lower())
    if match is None:
        raise InvalidMoveError(
            f"cannot read {shown(text)!r}: expected a row and a column letter, like 14 A"
        )
    row = read_number(match[1])
    x = column_index(match[2])
    return _checked(text, (x, row - 1), width, height)


def format_seed(point: Point) -> str:
    x, y = _named(point)
    return f"{y + 1} {column_letters(x).upper()}"


def parse_gomocup(text: str, width: int, height: int) -> Point:
    """Read Gomocup form (``x,y``, 0-based, y from the top)."""
    width, height = check_size(width, height)
    match = _GOMOCUP.fullmatch(_require_text(text, "7,7").strip())
    if match is None:
        raise InvalidMoveError(f"cannot read {shown(text)!r}: expected two numbers x,y like 7,7")
    return _checked(text, (read_number(match[1]), read_number(match[2])), width, height,
                    xy=True)


def format_gomocup(point: Point) -> str:
    x, y = _named(point)
    return f"{x},{y}"


def parse_point(text: str, width: int, height: int) -> Point:
    """Read any single-point form: ``h8`` (renju), ``14 A`` (seed) or ``7,7`` (Gomocup)."""
    check_size(width, height)
    stripped = _require_text(text, "h8").strip()
    if "," in stripped:
        return parse_gomocup(stripped, width, height)
    if stripped[:1].isdigit():
        return parse_seed(stripped, width, height)
    if stripped[:1].isalpha():
        return parse_renju(stripped, width, height)
    raise InvalidMoveError(
        f"cannot read {shown(text)!r}: type a point like h8 (column, row from the bottom), "
        "14 A (row from the top, column) or 7,7 (x,y)"
    )


def parse_position(text: str, width: int, height: int) -> list[Point]:
    """Read a position string of renju points (``h8i9j10``; spaces allowed)."""
    width, height = check_size(width, height)
    compact = re.sub(r"[\s,;]+", "", _require_text(text, "h8i9j10").lower())
    points: list[Point] = []
    pos = 0
    # matched at each point's start only: finditer would search on from every later
    # letter, and a long run of letters took minutes
    while (match := _RENJU.match(compact, pos)) is not None:
        points.append(parse_renju(match[0], width, height))
        pos = match.end()
    if pos != len(compact):
        raise InvalidMoveError(
            f"cannot read the position {shown(text)!r} after {shown(compact[:pos])!r}: "
            "expected renju points like h8i9j10"
        )
    return points


def format_position(moves: Iterable[Point], height: int) -> str:
    height = _height(height)
    return "".join(format_renju(m, height) for m in moves)
