"""Opening positions for matches and Swap2: one position string per line (``h8i9j10``),
or, as in Piskvork's and Gomocup's opening files, ``dx,dy`` pairs from the centre.

The default sets are written for a 15×15 board: 3-stone openings
(``gridgames/gomoku/data/openings-15.txt``) for every rule but renju, and
5-stone openings made from the 26 canonical renju openings
(``openings-renju-15.txt``, see ``benchmarks/make_openings.py``) for renju.
:func:`centred` moves an opening so that it keeps its place relative to the
centre of any board.

>>> openings = default_openings()
>>> len(openings) >= 20
True
>>> len(default_openings(Rule.RENJU)[0]) > len(openings[0])  # five stones, not three
True
>>> centred("h8i9j10", 15, 15), centred("h8i9j10", 20, 20)
([(7, 7), (8, 6), (9, 5)], [(10, 10), (11, 9), (12, 8)])
>>> centred("a1b2c3", 5, 5) is None
True
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from gridgames.gomoku.board import InvalidMoveError, Point
from gridgames.gomoku.notation import parse_position
from gridgames.gomoku.rules import Rule

REFERENCE_SIZE = 15


def parse_openings(text: str) -> list[str]:
    """The position strings in ``text``: one a line; blank lines and ``#`` comments skipped.

    >>> parse_openings("# balanced\\nh8i9j10\\n\\nh8 h9 j8  # a comment\\n")
    ['h8i9j10', 'h8 h9 j8']
    """
    openings = []
    for line in text.splitlines():
        body = line.split("#", 1)[0].strip()
        if body:
            openings.append(body)
    return openings


_RELATIVE = re.compile(r"\s*-?\d{1,6}\s*(,\s*-?\d{1,6}\s*)*,?\s*")


def relative_opening(text: str, width: int, height: int) -> list[Point] | None:
    """The points of an opening written as Piskvork writes them (``0,0, 1,0, 1,3``: black
    first, each stone's ``dx,dy`` from the centre, which is (width/2, height/2) rounded
    down, as Piskvork places them without its random shift), or None if ``text`` is not
    in that form. Raises ValueError for an odd count of numbers or a stone off the board.

    >>> relative_opening("0,0, 1,0, 1,3", 15, 15)
    [(7, 7), (8, 7), (8, 10)]
    >>> relative_opening("-1,-1, 0,0,", 20, 20)
    [(9, 9), (10, 10)]
    >>> relative_opening("h8i9j10", 15, 15) is None
    True
    """
    if _RELATIVE.fullmatch(text) is None:
        return None
    numbers = [int(n) for n in text.replace(",", " ").split()]
    if len(numbers) % 2:
        raise ValueError(f"an odd count of numbers ({len(numbers)}): a relative opening "
                         "is dx,dy pairs, such as 0,0, 1,0, 1,3")
    cx, cy = width // 2, height // 2
    for dx, dy in zip(numbers[::2], numbers[1::2], strict=True):
        if not (0 <= cx + dx < width and 0 <= cy + dy < height):
            raise ValueError(f"the stone {dx},{dy} falls off the {width}x{height} board: from "
                             f"the centre, dx may be {-cx} to {width - 1 - cx} and dy "
                             f"{-cy} to {height - 1 - cy}")
    return [(cx + dx, cy + dy) for dx, dy in zip(numbers[::2], numbers[1::2], strict=True)]


def load_openings(path: str | Path) -> list[str]:
    """Read an openings file; raises ValueError saying what was wrong."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read the openings file {path}: {error}") from None
    openings = parse_openings(text)
    if not openings:
        raise ValueError(f"the openings file {path} holds no openings")
    return openings


# The rules with openings of their own; the others play the freestyle set.
_OPENINGS_FILES = {Rule.RENJU: "openings-renju-15.txt"}


def default_openings(rule: Rule = Rule.FREESTYLE) -> list[str]:
    """The balanced openings shipped with the package for ``rule`` (for 15×15)."""
    name = _OPENINGS_FILES.get(rule, "openings-15.txt")
    text = (resources.files("gridgames.gomoku") / "data" / name).read_text("utf-8")
    return parse_openings(text)


def centred(opening: str, width: int, height: int,
            reference: int = REFERENCE_SIZE) -> list[Point] | None:
    """The points of a ``reference``-sized opening moved to the centre of a width×height
    board, or ``None`` when it does not fit."""
    try:
        points = parse_position(opening, reference, reference)
    except (InvalidMoveError, ValueError):
        return None
    dx, dy = width // 2 - reference // 2, height // 2 - reference // 2
    moved = [(x + dx, y + dy) for x, y in points]
    if any(not (0 <= x < width and 0 <= y < height) for x, y in moved):
        return None
    return moved
