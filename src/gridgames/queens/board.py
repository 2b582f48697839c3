"""Queens on an N×N board: placing, removing and checking for attacks.

Squares are 0-based ``(row, col)`` pairs, row 0 at the top, column 0 on the
left. A *diagonal* runs from top-left to bottom-right (``row - col`` is
constant), an *anti-diagonal* from top-right to bottom-left (``row + col`` is
constant).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from gridgames.numbers import as_whole

Square = tuple[int, int]

LINES = ("row", "column", "diagonal", "anti-diagonal")


def line_keys(row: int, col: int) -> tuple[int, int, int, int]:
    """The index of each line through a square, in the order of :data:`LINES`."""
    return (row, col, row - col, row + col)


class QueenConflictError(ValueError):
    """A queen was placed where another queen attacks it.

    ``square`` is where the queen was to go, ``attacker`` the queen already
    on the board that attacks it, ``line`` one of :data:`LINES`.
    """

    def __init__(self, square: Square, attacker: Square, line: str) -> None:
        super().__init__(
            f"cannot place a queen on {square}: the queen on {attacker} attacks it along the {line}"
        )
        self.square = square
        self.attacker = attacker
        self.line = line


def check_size(n: object) -> int:
    """Return ``n`` as an int if it is a valid board size (a whole number ≥ 1), else
    raise ValueError."""
    size = as_whole(n)
    if size is None:
        raise ValueError(f"board size must be an integer, not {n!r}")
    if size < 1:
        raise ValueError(f"board size must be at least 1, not {size}")
    return size


def check_square(n: int, square: object) -> Square:
    """Return ``square`` as a ``(row, col)`` tuple if it lies on an N×N board."""
    if not isinstance(square, tuple | list) or len(square) != 2:
        raise ValueError(f"a square is a (row, col) pair, not {square!r}")
    row, col = as_whole(square[0]), as_whole(square[1])
    if row is None or col is None:
        raise ValueError(f"a square is a pair of integers, not {square!r}")
    if not (0 <= row < n and 0 <= col < n):
        raise ValueError(
            f"square ({row}, {col}) is off the {n}×{n} board: "
            f"row and column must be between 0 and {n - 1}"
        )
    return (row, col)


class Placement:
    """Queens on an N×N board, kept free of attacks by :meth:`place`.

    >>> board = Placement(4)
    >>> board.place(0, 1)
    >>> board.place(1, 3)
    >>> board.place(2, 2)
    Traceback (most recent call last):
    ...
    gridgames.queens.board.QueenConflictError: cannot place a queen on (2, 2): \
the queen on (1, 3) attacks it along the anti-diagonal
    >>> board.place(2, 0)
    >>> board.place(3, 2)
    >>> board.is_solution
    True
    >>> print(board)
    . Q . .
    . . . Q
    Q . . .
    . . Q .
    """

    def __init__(self, n: int) -> None:
        self._n = check_size(n)
        self._queens: set[Square] = set()
        # For each kind of line, its index -> the queens on it.
        self._lines: tuple[dict[int, set[Square]], ...] = ({}, {}, {}, {})

    @classmethod
    def from_queens(cls, n: int, queens: Iterable[Square], *, check: bool = True) -> Placement:
        """Build a placement from squares.

        With ``check=True`` every queen goes through :meth:`place`, so an attack
        raises :class:`QueenConflictError`; with ``check=False`` attacking queens
        are accepted (see :attr:`conflicts`).

        >>> Placement.from_queens(3, [(0, 0), (1, 1)], check=False).conflicts
        [((0, 0), (1, 1))]
        """
        placement = cls(n)
        for square in queens:
            row, col = check_square(placement.n, square)
            if check:
                placement.place(row, col)
            else:
                if (row, col) in placement._queens:
                    raise ValueError(f"two queens on the same square ({row}, {col})")
                placement._add(row, col)
        return placement

    @property
    def n(self) -> int:
        """The board size."""
        return self._n

    @property
    def queens(self) -> list[Square]:
        """The queens, sorted by row then column."""
        return sorted(self._queens)

    def __len__(self) -> int:
        return len(self._queens)

    def __contains__(self, square: object) -> bool:
        return square in self._queens

    def __iter__(self) -> Iterator[Square]:
        return iter(self.queens)

    def attacker(self, row: int, col: int) -> tuple[Square, str] | None:
        """The queen attacking ``(row, col)`` and the line it attacks along, or None.

        When several queens attack the square, the nearest one on the first line
        of :data:`LINES` that has one is given.

        >>> Placement.from_queens(8, [(0, 0)]).attacker(5, 5)
        ((0, 0), 'diagonal')
        """
        row, col = check_square(self._n, (row, col))
        for line, table, key in zip(LINES, self._lines, line_keys(row, col), strict=True):
            on_line = table.get(key)
            if on_line:
                nearest = min(on_line, key=lambda q: (max(abs(q[0] - row), abs(q[1] - col)), q))
                return nearest, line
        return None

    def place(self, row: int, col: int) -> None:
        """Put a queen on ``(row, col)``.

        Raises ValueError if the square is off the board or taken, and
        :class:`QueenConflictError` if a queen on the board attacks it.
        """
        row, col = check_square(self._n, (row, col))
        if (row, col) in self._queens:
            raise ValueError(f"there is already a queen on ({row}, {col})")
        attack = self.attacker(row, col)
        if attack is not None:
            raise QueenConflictError((row, col), *attack)
        self._add(row, col)

    def remove(self, row: int, col: int) -> None:
        """Take the queen off ``(row, col)``; ValueError if there is none."""
        row, col = check_square(self._n, (row, col))
        if (row, col) not in self._queens:
            raise ValueError(f"there is no queen on ({row}, {col}) to remove")
        self._queens.discard((row, col))
        for table, key in zip(self._lines, line_keys(row, col), strict=True):
            on_line = table[key]
            on_line.discard((row, col))
            if not on_line:
                del table[key]

    def clear(self) -> None:
        """Take every queen off the board."""
        self._queens.clear()
        for table in self._lines:
            table.clear()

    def copy(self) -> Placement:
        """An independent copy."""
        return Placement.from_queens(self._n, self._queens, check=False)

    @property
    def conflicts(self) -> list[tuple[Square, Square]]:
        """Every pair of queens that attack each other, each pair sorted, the list sorted.

        >>> Placement.from_queens(4, [(0, 0), (0, 3), (3, 3)], check=False).conflicts
        [((0, 0), (0, 3)), ((0, 0), (3, 3)), ((0, 3), (3, 3))]
        """
        pairs: set[tuple[Square, Square]] = set()
        for table in self._lines:
            for on_line in table.values():
                ordered = sorted(on_line)
                for i, first in enumerate(ordered):
                    for second in ordered[i + 1 :]:
                        pairs.add((first, second))
        return sorted(pairs)

    @property
    def is_complete(self) -> bool:
        """True when there are N queens on the board (attacking or not)."""
        return len(self._queens) == self._n

    @property
    def is_solution(self) -> bool:
        """True when N queens are placed and none attacks another."""
        return self.is_complete and all(
            len(on_line) == 1 for table in self._lines for on_line in table.values()
        )

    def _add(self, row: int, col: int) -> None:
        self._queens.add((row, col))
        for table, key in zip(self._lines, line_keys(row, col), strict=True):
            table.setdefault(key, set()).add((row, col))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Placement):
            return NotImplemented
        return self._n == other._n and self._queens == other._queens

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        unchecked = ", check=False" if self.conflicts else ""
        return f"Placement.from_queens({self._n}, {self.queens!r}{unchecked})"

    def __str__(self) -> str:
        return "\n".join(
            " ".join("Q" if (row, col) in self._queens else "." for col in range(self._n))
            for row in range(self._n)
        )
