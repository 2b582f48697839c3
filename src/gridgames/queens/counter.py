"""Counting and listing every solution of the N-Queens puzzle.

Both walk the same search: one queen per row, top to bottom, with the
columns and the two diagonal directions still free kept as bitmasks, so a
row's free squares are ``~(columns | left | right)``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from gridgames.numbers import as_whole, is_number
from gridgames.queens.board import Square, check_size

MAX_N = 62  # the bitmasks are 64-bit integers
UNLIMITED = (1 << 63) - 1  # a budget of dead ends that never runs out


@njit(cache=True)
def _search(n: int, last: int, depth: int, free: np.ndarray, col_masks: np.ndarray,
            left_masks: np.ndarray, right_masks: np.ndarray,
            budget: int) -> tuple[int, int, int]:
    """Go on with the search from row ``depth`` until it is over (row -1) or ``budget``
    dead ends (rows with no free square) are met: (solutions found, the row it stopped
    at, the budget left).

    Rows are numbered from the first one searched, so that the bound checked is a
    constant: numba then drops its checks for negative indices, which slowed the count
    by some 40%.
    For each row, ``free`` holds the free squares not tried yet, and the masks the
    columns and diagonals attacked there.
    """
    full = (1 << n) - 1
    count = 0
    while depth >= 0:
        options = free[depth]
        if options == 0:
            depth -= 1
            budget -= 1
            if budget == 0:
                break
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
    return count, depth, budget


@njit(cache=True)
def _count_parts(n: int, rows: np.ndarray, cols: np.ndarray, left: np.ndarray,
                 right: np.ndarray, weights: np.ndarray, state: np.ndarray,
                 stack: np.ndarray, budget: int) -> int:
    """Go on with the search below the parts until it is over or ``budget`` dead ends
    are met; return the solutions found, each completion of a part counted ``weights``
    times.

    Part ``k`` is the queens of rows 0 .. ``rows[k]``-1, as the columns and diagonals
    (``left`` and ``right`` already shifted) they attack in row ``rows[k]``. ``state``
    is where the search stands: the part under way, and the row it is at, counted from
    the part's first free row (-1 before it starts); ``stack`` holds :func:`_search`'s
    rows. ``state[0]`` reaches the number of parts when the search is over.
    """
    full = (1 << n) - 1
    part = state[0]
    depth = state[1]
    count = 0
    while part < rows.shape[0] and budget > 0:
        first = rows[part]
        if first == n:  # every row is placed: the part is a solution
            count += weights[part]
            part += 1
            continue
        free = stack[0, first:]
        col_masks = stack[1, first:]
        left_masks = stack[2, first:]
        right_masks = stack[3, first:]
        if depth < 0:
            col_masks[0] = cols[part]
            left_masks[0] = left[part]
            right_masks[0] = right[part]
            free[0] = full & ~(cols[part] | left[part] | right[part])
            depth = 0
        found, depth, budget = _search(n, n - 1 - first, depth, free, col_masks,
                                       left_masks, right_masks, budget)
        count += found * weights[part]
        if depth < 0:
            part += 1
    state[0] = part
    state[1] = depth
    return count


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
    search = _Search(_check_countable(n), parts)
    search.run()
    return search.solutions


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
    return count_subproblems(n, split(n, 1))


@dataclass(frozen=True)
class CountProgress:
    """How far a count has got: ``solutions`` found in the ``searched`` share (0 to 1,
    an estimate) of the search; when ``finished``, ``solutions`` is the total."""

    solutions: int
    searched: float
    finished: bool


PROGRESS_PARTS = 256  # enough parts, taken in a shuffled order, for a fair share done


def count_progress(n: int, *, step: float = 0.25) -> Iterator[CountProgress]:
    """Count as :func:`count_solutions` does, in steps of about ``step`` seconds, telling
    after each how far the count has got; the last is finished and holds the total.
    Stopping the iteration stops the count.

    The search is split into parts by the queens of the first rows, searched in a
    shuffled order, so that the share of parts done estimates the share of the work done.

    >>> *_, last = count_progress(8)
    >>> last
    CountProgress(solutions=92, searched=1.0, finished=True)
    """
    n = _check_countable(n)
    if not (is_number(step) and step > 0):
        raise ValueError(f"step must be a number of seconds above 0, not {step!r}")
    rows = 1
    parts = split(n, rows)
    while len(parts) < PROGRESS_PARTS and rows < n:
        rows += 1
        parts = split(n, rows)
    random.Random(n).shuffle(parts)
    search = _Search(n, parts)
    budget = 1 << 12  # dead ends per step, then set from the speed seen
    while True:
        started = time.perf_counter()
        search.run(budget)
        took = time.perf_counter() - started
        yield CountProgress(search.solutions, search.searched(), search.finished)
        if search.finished:
            return
        budget = max(1 << 10, int(budget * min(4.0, step / max(took, 1e-6))))


class _Search:
    """The search below a list of parts, run all at once or in steps."""

    def __init__(self, n: int, parts: Sequence[Subproblem]) -> None:
        def column(values: Iterable[int]) -> np.ndarray:
            return np.fromiter(values, np.int64, len(parts))

        self.n = n
        self.parts = (column(p.rows for p in parts), column(p.cols for p in parts),
                      column(p.left for p in parts), column(p.right for p in parts),
                      column(p.weight for p in parts))
        self.state = np.array([0, -1], np.int64)  # see _count_parts
        self.stack = np.zeros((4, n), np.int64)
        self.solutions = 0

    @property
    def finished(self) -> bool:
        return bool(self.state[0] == len(self.parts[0]))

    def run(self, budget: int = UNLIMITED) -> None:
        self.solutions += int(_count_parts(self.n, *self.parts, self.state, self.stack,
                                           budget))

    def searched(self) -> float:
        """The share of the search done: the parts done, and of the part under way the
        share of its tree behind the current square, as if its branches were alike."""
        part, depth = (int(value) for value in self.state)
        total = len(self.parts[0])
        if part == total:
            return 1.0
        full = (1 << self.n) - 1
        free, cols, left, right = ([int(value) for value in row] for row in self.stack)
        first = int(self.parts[0][part])
        behind, share = 0.0, 1.0
        for row in range(first, first + depth + 1):
            options = (full & ~(cols[row] | left[row] | right[row])).bit_count()
            if options == 0:
                break
            under_way = 1 if row < first + depth else 0
            behind += share * (options - free[row].bit_count() - under_way) / options
            share /= options
        return (part + behind) / total


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
