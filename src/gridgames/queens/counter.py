"""Counting and listing every solution of the N-Queens puzzle.

Both walk the same search: one queen per row, top to bottom, with the
columns and the two diagonal directions still free kept as bitmasks, so a
row's free squares are ``~(columns | left | right)``.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numba import njit

from gridgames.queens.board import Square, check_size

MAX_N = 62  # the bitmasks are 64-bit integers


@njit(cache=True)
def _count_below(n: int, first_col: int) -> int:
    """Solutions with the top queen on ``first_col``."""
    full = (1 << n) - 1
    if n == 1:
        return 1
    cols = np.empty(n, np.int64)
    left = np.empty(n, np.int64)
    right = np.empty(n, np.int64)
    free = np.empty(n, np.int64)
    bit = 1 << first_col
    cols[1] = bit
    left[1] = (bit << 1) & full
    right[1] = bit >> 1
    free[1] = full & ~(cols[1] | left[1] | right[1])
    last = n - 1
    count = 0
    depth = 1
    while depth > 0:
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
        c = cols[depth] | bit
        lo = ((left[depth] | bit) << 1) & full
        ro = (right[depth] | bit) >> 1
        depth += 1
        cols[depth] = c
        left[depth] = lo
        right[depth] = ro
        free[depth] = full & ~(c | lo | ro)
    return count


@njit(cache=True)
def _count_all(n: int) -> int:
    # A solution's mirror image has its top queen in the other half, so count
    # the left half twice; the middle column (odd n) is its own mirror.
    total = 0
    for col in range(n // 2):
        total += 2 * _count_below(n, col)
    if n % 2 == 1:
        total += _count_below(n, n // 2)
    return total


def count_solutions(n: int) -> int:
    """The number of ways to place N non-attacking queens on an N×N board.

    >>> [count_solutions(n) for n in range(1, 9)]
    [1, 0, 0, 2, 10, 4, 40, 92]
    """
    n = _check_countable(n)
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
    if batch < 1:
        raise ValueError(f"batch must be at least 1, not {batch}")
    state = np.zeros(n + 1, np.int64)  # current row, then the column chosen in each row
    free = np.zeros(n, np.int64)
    free[0] = (1 << n) - 1
    masks = np.zeros((n, 3), np.int64)
    out = np.empty((batch, n), np.int64)
    while state[0] >= 0:
        found = _next_solutions(n, state, free, masks, out)
        for k in range(found):
            yield [(row, int(col)) for row, col in enumerate(out[k])]


def _check_countable(n: int) -> int:
    n = check_size(n)
    if n > MAX_N:
        raise ValueError(f"board size must be at most {MAX_N} for counting, not {n}")
    return n
