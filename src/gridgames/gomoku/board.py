"""The Gomoku board: stones, move stack, legality and outcome.

>>> board = Board(15, rule=Rule.FREESTYLE)
>>> for move in [(7, 7), (7, 8), (8, 7), (8, 8), (9, 7), (9, 8), (10, 7), (10, 8)]:
...     board.push(move)
>>> board.outcome() is None
True
>>> board.push((11, 7))
>>> board.outcome()
Outcome(winner=Color.BLACK, line=((7, 7), (8, 7), (9, 7), (10, 7), (11, 7)), no_legal_move=False)
>>> board.push((0, 0))
Traceback (most recent call last):
...
gridgames.gomoku.board.IllegalMoveError: a15 is not playable: the game is over (black won)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import cast

import numpy as np

from gridgames.gomoku import rules
from gridgames.gomoku.rules import DIRECTIONS, Foul, Rule
from gridgames.numbers import as_whole

Point = tuple[int, int]

MIN_SIZE = 5
MAX_SIZE = 64


class Color(IntEnum):
    """A player's colour; black moves first. The value is the grid cell value."""

    BLACK = 1
    WHITE = 2

    @property
    def other(self) -> Color:
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def label(self) -> str:
        return self.name.lower()

    def __repr__(self) -> str:
        return f"Color.{self.name}"


class InvalidMoveError(ValueError):
    """Text that does not describe a point."""


class IllegalMoveError(ValueError):
    """A point that cannot be played now (off the board, occupied, forbidden, game over)."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` is ``None`` for a draw; ``line`` is the winning stones.

    A draw comes of a full board, or under renju of black having only forbidden
    points left (``no_legal_move``): black may not pass, and no stone can be played.
    """

    winner: Color | None
    line: tuple[Point, ...] = ()
    no_legal_move: bool = False

    @property
    def draw_reason(self) -> str:
        """Why a draw is one (empty for a win)."""
        if self.winner is not None:
            return ""
        return ("only points forbidden to black are left" if self.no_legal_move
                else "the board is full")

    @property
    def result(self) -> str:
        """``"1-0"`` (black won), ``"0-1"`` (white won) or ``"1/2-1/2"``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is Color.BLACK else "0-1"

    def __str__(self) -> str:
        return "draw" if self.winner is None else f"{self.winner.label} won"


def _shown(value: object) -> str:
    """``repr(value)`` for an error message, cut short (see notation.shown_value)."""
    from gridgames.gomoku.notation import shown_value  # notation imports this module

    return shown_value(value)


def check_size(width: object, height: object) -> tuple[int, int]:
    """Validate a board size, returning it as ints (raises ValueError saying what is allowed).

    Integers of other types, such as numpy's, are taken at their value.
    """
    size = []
    for name, value in (("width", width), ("height", height)):
        number = as_whole(value)
        if number is None:
            raise ValueError(f"board {name} must be an integer, got {_shown(value)}")
        if not MIN_SIZE <= number <= MAX_SIZE:
            raise ValueError(f"board {name} {_shown(number)} is out of range; "
                             f"allowed: {MIN_SIZE} to {MAX_SIZE}")
        size.append(number)
    return size[0], size[1]


def check_rule(rule: object) -> Rule:
    """``rule`` if it is a Rule, else a ValueError pointing to ``Rule.from_name``."""
    if not isinstance(rule, Rule):
        name = rule if isinstance(rule, str) else "renju"
        raise ValueError(f"rule must be a Rule such as Rule.RENJU, got {_shown(rule)}; "
                         f"for a rule by its name, use Rule.from_name({_shown(name)})")
    return rule


def check_color(color: object, error: type[ValueError] = ValueError,
                what: str = "a colour") -> Color:
    """``color`` if it is a Color, else an ``error`` naming the two (``what`` names the
    value in the message: a clock says "a clock's side", with its own error class)."""
    if not isinstance(color, Color):
        raise error(f"{what} is Color.BLACK or Color.WHITE, got {_shown(color)}")
    return color


def check_board(board: object) -> Board:
    """``board`` if it is a Board, else a ValueError saying what is expected."""
    if not isinstance(board, Board):
        raise ValueError(f"board must be a Board, such as Board(15), got {_shown(board)}")
    return board


class Board:
    """A five-in-a-row position under a rule, with its move history.

    Points are ``(x, y)``: x is the column from the left, y the row from the
    top, both 0-based. Black moves first.
    """

    def __init__(self, width: int = 15, height: int | None = None, *, rule: Rule = Rule.FREESTYLE):
        self.width, self.height = check_size(width, width if height is None else height)
        self.rule = check_rule(rule)
        self.grid = np.zeros((self.height + 2, self.width + 2), dtype=np.int8)
        self.grid[0, :] = self.grid[-1, :] = rules.WALL
        self.grid[:, 0] = self.grid[:, -1] = rules.WALL
        self.move_stack: list[Point] = []
        self._outcomes: list[Outcome | None] = []

    # -- state ---------------------------------------------------------------

    @property
    def to_move(self) -> Color:
        return Color.BLACK if len(self.move_stack) % 2 == 0 else Color.WHITE

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height

    def __getitem__(self, point: Point) -> Color | None:
        x, y = self._on_board(point)
        value = int(self.grid[y + 1, x + 1])
        return Color(value) if value else None

    def stones(self, color: Color) -> list[Point]:
        ys, xs = np.nonzero(self.grid[1:-1, 1:-1] == check_color(color))
        return [(int(x), int(y)) for x, y in zip(xs, ys, strict=True)]

    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on, else who won (with the line) or a draw."""
        return self._outcomes[-1] if self._outcomes else None

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def contains(self, point: object) -> bool:
        xy = as_point(point)
        return xy is not None and 0 <= xy[0] < self.width and 0 <= xy[1] < self.height

    # -- legality ------------------------------------------------------------

    def foul(self, point: Point) -> Foul:
        """Why black may not play ``point`` under renju (``Foul.NONE`` if it may)."""
        x, y = self._on_board(point)
        if self.rule is not Rule.RENJU or self.grid[y + 1, x + 1] != rules.EMPTY:
            return Foul.NONE
        return Foul(int(rules.forbidden_kind(self.grid, x, y)))

    def forbidden_points(self) -> set[Point]:
        """Renju points forbidden to black now; empty unless black is to move under renju."""
        if self.rule is not Rule.RENJU or self.to_move is not Color.BLACK or self.is_game_over():
            return set()
        fouls = rules.forbidden_map(self.grid)
        ys, xs = np.nonzero(fouls)
        return {(int(x), int(y)) for x, y in zip(xs, ys, strict=True)}

    def illegal_reason(self, point: object) -> str | None:
        """Why ``point`` cannot be played now, or ``None`` if it can."""
        try:
            x, y = on_board(point, self.width, self.height)
        except IllegalMoveError as error:
            return str(error)
        outcome = self.outcome()
        stone = int(self.grid[y + 1, x + 1])
        foul = Foul.NONE
        if stone == rules.EMPTY and self.rule is Rule.RENJU and self.to_move is Color.BLACK:
            foul = Foul(int(rules.forbidden_kind(self.grid, x, y)))
        if outcome is None and stone == rules.EMPTY and not foul:
            return None  # the usual case, answered without naming the point
        name = self.point_name((x, y))
        if outcome is not None:
            return f"{name} is not playable: the game is over ({outcome})"
        if stone != rules.EMPTY:
            return f"{name} is occupied by {Color(stone).label}"
        return f"{name} is forbidden for black: {foul.label}"

    def is_legal(self, point: object) -> bool:
        return self.illegal_reason(point) is None

    @property
    def legal_moves(self) -> list[Point]:
        """Every point the side to move may play, row by row."""
        if self.is_game_over():
            return []
        ys, xs = np.nonzero(self.grid[1:-1, 1:-1] == rules.EMPTY)
        moves = [(int(x), int(y)) for x, y in zip(xs, ys, strict=True)]
        forbidden = self.forbidden_points()
        return [m for m in moves if m not in forbidden] if forbidden else moves

    # -- moves ---------------------------------------------------------------

    def push(self, point: Point) -> None:
        """Play ``point`` for the side to move; raises IllegalMoveError saying why not."""
        reason = self.illegal_reason(point)
        if reason is not None:
            raise IllegalMoveError(reason)
        x, y = cast(Point, as_point(point))  # a point: illegal_reason said so
        self.grid[y + 1, x + 1] = self.to_move
        self.move_stack.append((x, y))
        self._outcomes.append(self._judge(x, y))

    def push_many(self, points: Iterable[Point]) -> None:
        """Play ``points`` in turn. If one cannot be played, the board is left as it was
        and IllegalMoveError says which it was, counted from 1: "move 3 is not legal: …".
        """
        start = len(self.move_stack)
        for number, point in enumerate(points, start=1):
            try:
                self.push(point)
            except IllegalMoveError as error:
                while len(self.move_stack) > start:
                    self.pop()
                raise IllegalMoveError(f"move {number} is not legal: {error}") from None

    def pop(self) -> Point:
        """Take back the last move and return it (IndexError when there is none)."""
        if not self.move_stack:
            raise IndexError("no move to take back: the board is empty")
        x, y = self.move_stack.pop()
        self._outcomes.pop()
        self.grid[y + 1, x + 1] = rules.EMPTY
        return x, y

    def clear(self) -> None:
        while self.move_stack:
            self.pop()

    def _judge(self, x: int, y: int) -> Outcome | None:
        direction = int(rules.winning_direction(self.grid, x, y, self.rule.code))
        if direction >= 0:
            color = Color(int(self.grid[y + 1, x + 1]))
            return Outcome(color, self._line(x, y, DIRECTIONS[direction]))
        if len(self.move_stack) == self.width * self.height:
            return Outcome(None)
        if not self._black_can_move():
            return Outcome(None, no_legal_move=True)
        return None

    def _black_can_move(self) -> bool:
        """False only under renju with black to move and every empty point forbidden."""
        if self.rule is not Rule.RENJU or self.to_move is not Color.BLACK:
            return True
        for y, x in np.argwhere(self.grid[1:-1, 1:-1] == rules.EMPTY):
            if rules.forbidden_kind(self.grid, int(x), int(y)) == 0:
                return True
        return False

    def _line(self, x: int, y: int, direction: tuple[int, int]) -> tuple[Point, ...]:
        dx, dy = direction
        color = self.grid[y + 1, x + 1]
        sx, sy = x, y
        while self.grid[sy - dy + 1, sx - dx + 1] == color:
            sx, sy = sx - dx, sy - dy
        line = []
        while self.grid[sy + 1, sx + 1] == color:
            line.append((sx, sy))
            sx, sy = sx + dx, sy + dy
        return tuple(line)

    # -- copying, display ----------------------------------------------------

    def copy(self) -> Board:
        other = Board(self.width, self.height, rule=self.rule)
        other.grid[:] = self.grid
        other.move_stack = list(self.move_stack)
        other._outcomes = list(self._outcomes)
        return other

    def parse(self, text: str) -> Point:
        """Read a point in any text form (``h8``, ``14 A``, ``7,7``) on this board."""
        from gridgames.gomoku.notation import parse_point

        return parse_point(text, self.width, self.height)

    def point_name(self, point: Point) -> str:
        """``point`` in renju form (``h8``); IllegalMoveError when it is off the board."""
        from gridgames.gomoku.notation import format_renju

        return format_renju(self._on_board(point), self.height)

    def __iter__(self) -> Iterator[Point]:
        return iter(self.move_stack)

    def __len__(self) -> int:
        return len(self.move_stack)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board)
            and self.size == other.size
            and self.rule is other.rule
            and self.move_stack == other.move_stack
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        from gridgames.gomoku.notation import format_position

        return (
            f"Board({self.width}, {self.height}, rule=Rule.{self.rule.name}, "
            f"moves={format_position(self.move_stack, self.height)!r})"
        )

    def __str__(self) -> str:
        """The board with column letters on top and renju row numbers (1 at the bottom)."""
        from gridgames.gomoku.notation import column_letters

        last = self.move_stack[-1] if self.move_stack else None
        symbols = {0: ".", 1: "X", 2: "O"}
        width = max(len(column_letters(self.width - 1)), 1)
        header = "    " + " ".join(column_letters(x).rjust(width) for x in range(self.width))
        rows = [header]
        for y in range(self.height):
            cells = []
            for x in range(self.width):
                mark = symbols[int(self.grid[y + 1, x + 1])]
                if (x, y) == last:
                    mark = mark.lower()
                cells.append(mark.rjust(width))
            rows.append(f"{self.height - y:>3} " + " ".join(cells))
        return "\n".join(rows)

    def _on_board(self, point: Point) -> Point:
        return on_board(point, self.width, self.height)


def on_board(point: object, width: int, height: int) -> Point:
    """``point`` as plain ints if it is on a ``width`` × ``height`` board, else an
    IllegalMoveError saying what a point of that board is."""
    xy = as_point(point)
    if xy is None:
        raise IllegalMoveError(f"{_shown(point)} is not a point: a point is a pair of "
                               f"integers (x, y), x 0 to {width - 1} and y 0 to {height - 1}")
    if not (0 <= xy[0] < width and 0 <= xy[1] < height):
        raise IllegalMoveError(f"{_shown(xy)} is off the board; x must be 0 to {width - 1} "
                               f"and y 0 to {height - 1}")
    return xy


def as_point(point: object) -> Point | None:
    """``point`` as a pair of plain ints, or ``None`` if it is not a pair of integers.

    Integers of other types, such as numpy's, are taken at their value:

    >>> as_point((np.int64(3), 4)), as_point((3.0, 4)), as_point("h8"), as_point((True, 1))
    ((3, 4), None, None, None)
    """
    if not isinstance(point, tuple) or len(point) != 2:
        return None
    x, y = as_whole(point[0]), as_whole(point[1])
    return None if x is None or y is None else (x, y)


def replay(moves: Iterable[Point], width: int = 15, height: int | None = None,
           *, rule: Rule = Rule.FREESTYLE) -> Board:
    """A new board with ``moves`` played in order."""
    board = Board(width, height, rule=rule)
    board.push_many(moves)
    return board
