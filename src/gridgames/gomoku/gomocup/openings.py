"""Opening positions for matches and Swap2: one position string per line (``h8i9j10``).

The default set (``gridgames/gomoku/data/openings-15.txt``) is written for a
15×15 board; :func:`centred` moves an opening so that it keeps its place
relative to the centre of any board.

>>> openings = default_openings()
>>> len(openings) >= 20
True
>>> centred("h8i9j10", 15, 15), centred("h8i9j10", 20, 20)
([(7, 7), (8, 6), (9, 5)], [(10, 10), (11, 9), (12, 8)])
>>> centred("a1b2c3", 5, 5) is None
True
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from gridgames.gomoku.board import InvalidMoveError, Point
from gridgames.gomoku.notation import parse_position

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


def default_openings() -> list[str]:
    """The balanced 3-stone openings shipped with the package (for 15×15)."""
    text = (resources.files("gridgames.gomoku") / "data" / "openings-15.txt").read_text("utf-8")
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
