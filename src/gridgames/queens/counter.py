"""Counting and listing every solution of the N-Queens puzzle.

Both walk the same search: one queen per row, top to bottom, with the
columns and the two diagonal directions still free kept as bitmasks, so a
row's free squares are ``~(columns | left | right)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from gridgames.numbers import as_whole
from gridgames.queens.board import Square, check_size

MAX_N = 62  # the bitmasks are 64-bit integers


@njit(cache=True)
def _count_from(n: int, row: int, cols: int, left: int, right: int) -> int:
    """Completions of rows ``row`` .. n-1 below queens that attack ``cols``, ``left`` and
    ``right`` in row ``row`` (``left`` and ``right`` already shifted onto that row)."""
    if row == n:
        return 1
    full = (1 << n) - 1
    first = row
    last = n - 1
    free = np.empty(n, np.int64)
    col_masks = np.empty(n, np.int64)
    left_masks = np.empty(n, np.int64)
    right_masks = np.empty(n, np.int64)
    col_masks[row] = cols
    left_masks[row] = left
    right_masks[row] = right
    free[row] = full & ~(cols | left | right)
    count = 0
    depth = row
    while depth >= first:
        options = free[depth]
        if options == 0:
            depth -= 1
            continue
        if depth == last:
            # The last row has at most one free square.
            count += 1
            depth -= 1
            continue
        bit = options & -options
        free[depth] = options ^ bit
        c = col_masks[depth] | bit
        lo = ((left_masks[depth] | bit) << 1) & full
        ro = (right_masks[depth] | bit) >> 1
        depth += 1
        col_masks[depth] = c
        left_masks[depth] = lo
        right_masks[depth] = ro
        free[depth] = full & ~(c | lo | ro)
    return count


@njit(cache=True)
def _count_many(n: int, rows: np.ndarray, cols: np.ndarray, left: np.ndarray,
                right: np.ndarray, weights: np.ndarray) -> int:
    """The weighted sum of the completions of several partial boards."""
    total = 0
    for k in range(rows.shape[0]):
        total += weights[k] * _count_from(n, rows[k], cols[k], left[k], right[k])
    return total


@dataclass(frozen=True)
class Subproblem:
    """The queens of the first ``rows`` rows, as the masks they attack in the next row.

    ``weight`` is how many solutions each completion stands for: 2 when the top
    queen is in the left half (its mirror image is counted with it), else 1.
    """

    rows: int
    cols: int
    left: int
    right: int
    weight: int


def split(n: int, rows: int) -> list[Subproblem]:
    """Every placement of the first ``rows`` rows that the count must search below.

    The top queen stays in the left half (and the middle column, for odd n):
    a solution's mirror image has its top queen in the other half.

    >>> parts = split(8, 2)
    >>> len(parts), count_subproblems(8, parts)
    (21, 92)
    """
    n = _check_countable(n)
    if not 1 <= rows <= n:
        raise ValueError(f"rows must be between 1 and {n}, not {rows}")
    full = (1 << n) - 1
    parts = []
    for col in range((n + 1) // 2):
        bit = 1 << col
        weight = 1 if 2 * col == n - 1 else 2
        frontier = [(1, bit, (bit << 1) & full, bit >> 1)]
        while frontier and frontier[0][0] < rows:
            deeper = []
            for row, cols, left, right in frontier:
                free = full & ~(cols | left | right)
                while free:
                    low = free & -free
                    free ^= low
                    deeper.append((row + 1, cols | low, ((left | low) << 1) & full,
                                   (right | low) >> 1))
            frontier = deeper
        parts += [Subproblem(row, cols, left, right, weight)
                  for row, cols, left, right in frontier]
    return parts


def count_subproblems(n: int, parts: Sequence[Subproblem]) -> int:
    """The solutions below ``parts``, each counted ``weight`` times."""
    n = _check_countable(n)
    if not parts:
        return 0

    def column(values: Iterable[int]) -> np.ndarray:
        return np.fromiter(values, np.int64, len(parts))

    return int(_count_many(n, column(p.rows for p in parts), column(p.cols for p in parts),
                           column(p.left for p in parts), column(p.right for p in parts),
                           column(p.weight for p in parts)))


@njit(cache=True)
def _count_all(n: int) -> int:
    # A solution's mirror image has its top queen in the other half, so count
    # the left half twice; the middle column (odd n) is its own mirror.
    full = (1 << n) - 1
    total = 0
    for col in range((n + 1) // 2):
        bit = 1 << col
        below = _count_from(n, 1, bit, (bit << 1) & full, bit >> 1)
        total += below if 2 * col == n - 1 else 2 * below
    return total


def count_solutions(n: int, *, cluster: str | None = None) -> int:
    """The number of ways to place N non-attacking queens on an N×N board.

    With ``cluster`` (a Ray address, or ``"auto"``), the search is split by the
    placements of the first rows into many tasks run on that Ray cluster; this
    needs the ``cluster`` extra (``pip install 'gridgames[cluster]'``).

    >>> [count_solutions(n) for n in range(1, 9)]
    [1, 0, 0, 2, 10, 4, 40, 92]
    """
    n = _check_countable(n)
    if cluster is not None and not isinstance(cluster, str):
        raise TypeError(f"cluster is a Ray address (text such as 'auto'), not {cluster!r}")
    if cluster is not None:
        # Imported here so that counting on one machine never needs Ray.
        from gridgames.cluster.queens import count_on_cluster

        return count_on_cluster(n, cluster)
    return int(_count_all(n))


@njit(cache=True)
def _next_solutions(
    n: int, state: np.ndarray, free: np.ndarray, masks: np.ndarray, out: np.ndarray
) -> int:
    """Fill ``out`` (rows of column numbers) with the next solutions; return how many.

    The search resumes from ``state[0]`` (the current row, -1 when done), the
    free squares left to try in each row and ``masks`` (columns, left and right
    diagonals attacked in each row); ``out[k, row]`` is the column of that row.
    """
    full = (1 << n) - 1
    depth = state[0]
    found = 0
    while depth >= 0 and found < out.shape[0]:
        options = free[depth]
        if options == 0:
            depth -= 1
            continue
        bit = options & -options
        free[depth] = options ^ bit
        col = 0
        while (bit >> col) != 1:
            col += 1
        state[1 + depth] = col
        if depth == n - 1:
            for row in range(n):
                out[found, row] = state[1 + row]
            found += 1
            continue
        c = masks[depth, 0] | bit
        lo = ((masks[depth, 1] | bit) << 1) & full
        ro = (masks[depth, 2] | bit) >> 1
        depth += 1
        masks[depth, 0] = c
        masks[depth, 1] = lo
        masks[depth, 2] = ro
        free[depth] = full & ~(c | lo | ro)
    state[0] = depth
    return found


def solutions(n: int, batch: int = 4096) -> Iterator[list[Square]]:
    """Every solution, as sorted ``(row, col)`` lists, in lexicographic order of columns.

    >>> for solution in solutions(4):
    ...     print(solution)
    [(0, 1), (1, 3), (2, 0), (3, 2)]
    [(0, 2), (1, 0), (2, 3), (3, 1)]
    """
    n = _check_countable(n)
    size = as_whole(batch)
    if size is None or size < 1:
        raise ValueError(f"batch must be a whole number of 1 or more, not {batch!r}")
    state = np.zeros(n + 1, np.int64)  # current row, then the column chosen in each row
    free = np.zeros(n, np.int64)
    free[0] = (1 << n) - 1
    masks = np.zeros((n, 3), np.int64)
    out = np.empty((size, n), np.int64)
    while state[0] >= 0:
        found = _next_solutions(n, state, free, masks, out)
        for k in range(found):
            yield [(row, int(col)) for row, col in enumerate(out[k])]


def _check_countable(n: int) -> int:
    n = check_size(n)
    if n > MAX_N:
        raise ValueError(f"board size must be at most {MAX_N} for counting, not {n}")
    return n
