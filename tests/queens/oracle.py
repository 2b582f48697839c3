"""Independent, deliberately plain checks for the queens tests (no bitmasks, no numba)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Square = tuple[int, int]


def attacks(a: Square, b: Square) -> bool:
    """True when queens on two different squares attack each other."""
    (r1, c1), (r2, c2) = a, b
    return r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2)


def is_solution(n: int, queens: Iterable[Square]) -> bool:
    queens = list(queens)
    if len(queens) != n or len(set(queens)) != n:
        return False
    if any(not (0 <= r < n and 0 <= c < n) for r, c in queens):
        return False
    return not any(attacks(a, b) for i, a in enumerate(queens) for b in queens[i + 1 :])


def completions(n: int, fixed: Iterable[Square]) -> Iterator[list[Square]]:
    """Every solution containing the fixed queens, by plain row-by-row backtracking."""
    by_row = dict(fixed)
    chosen: list[Square] = []

    def extend(row: int) -> Iterator[list[Square]]:
        if row == n:
            yield list(chosen)
            return
        columns = [by_row[row]] if row in by_row else range(n)
        for col in columns:
            square = (row, col)
            if all(not attacks(square, other) for other in chosen) and all(
                not attacks(square, f) for f in by_row.items() if f[0] != row
            ):
                chosen.append(square)
                yield from extend(row + 1)
                chosen.pop()

    yield from extend(0)


def completable(n: int, fixed: Iterable[Square]) -> bool:
    return next(completions(n, fixed), None) is not None
