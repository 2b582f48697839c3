"""Completing a partial placement of queens, and hints.

:func:`solve` first tries a fast incomplete method when there is a lot of
room left: min-conflicts local search over the free rows (Sosic & Gu's
permutation-and-swap scheme) with the given queens pinned. If that does not
finish within its budget, or the board is nearly full (where completions are
rare and local search wastes its time), an exact search settles the question:
depth-first search that always branches on the free row *or* free column with
the fewest usable squares, with forward checking on both, restarted with a
doubling node limit so an unlucky start does not trap it (the limit grows
without end, so "no solution" is a proof). Where local search applies, it
takes turns with the exact search, its budget growing too.

Diagonals are indexed ``row - col + n - 1`` and anti-diagonals ``row + col``.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numba import njit

from gridgames.numbers import as_whole
from gridgames.prepare import KernelGroup, Report, prepare
from gridgames.queens.board import Placement, Square, check_size, check_square

DEFAULT_SEED = 20170101
# Local search pays off when far more free rows are left than a completion
# needs (Gent, Jefferson & Nightingale 2017 put the solvability threshold near
# n ≈ 0.19 × free²); below this margin the exact search goes first.
LOCAL_SEARCH_MIN_FREE = 32
LOCAL_SEARCH_MARGIN = 4.0
FIRST_NODE_LIMIT = 1000
MAX_SOLVE_N = 10_000_000
"""The largest board :func:`solve` takes (some 20 s of computing and 2 GB of memory)."""


@njit(cache=True)
def _min_conflicts(
    n: int,
    rows: np.ndarray,
    cols: np.ndarray,
    diag: np.ndarray,
    anti: np.ndarray,
    seed: int,
    max_steps: int,
    out: np.ndarray,
) -> bool:
    """Give each free row a distinct free column with no diagonal attack.

    ``diag``/``anti`` count the pinned queens on each line and are updated in
    place. On success ``out[i]`` is the column of ``rows[i]``.
    """
    np.random.seed(seed)
    m = rows.shape[0]
    pool = cols.copy()
    np.random.shuffle(pool)
    order = np.random.permutation(m)
    deferred = np.empty(m, np.int64)
    n_deferred = 0
    taken = 0  # pool[:taken] are assigned
    # Greedy start: a few random tries per row for an unattacked column;
    # rows that find none take whatever is left at the end.
    for t in range(m):
        i = order[t]
        r = rows[i]
        placed = False
        for _ in range(32):
            left = m - taken
            if left == 0:
                break
            pick = taken + np.random.randint(left)
            c = pool[pick]
            if diag[r - c + n - 1] == 0 and anti[r + c] == 0:
                pool[pick] = pool[taken]
                pool[taken] = c
                taken += 1
                out[i] = c
                diag[r - c + n - 1] += 1
                anti[r + c] += 1
                placed = True
                break
        if not placed:
            deferred[n_deferred] = i
            n_deferred += 1
    for t in range(n_deferred):
        i = deferred[t]
        r = rows[i]
        c = pool[taken]
        taken += 1
        out[i] = c
        diag[r - c + n - 1] += 1
        anti[r + c] += 1

    # Repair: swap the columns of an attacked row and a random row when that
    # lowers the number of attacking pairs (sideways moves now and then, to
    # walk off plateaus).
    steps = 0
    while steps < max_steps:
        attacked = False
        for i in range(m):
            r = rows[i]
            c = out[i]
            if diag[r - c + n - 1] < 2 and anti[r + c] < 2:
                continue
            attacked = True
            for _ in range(64):
                steps += 1
                j = np.random.randint(m)
                if j == i:
                    continue
                s = rows[j]
                d = out[j]
                # Move both queens, counting pairs lost and gained; undo if worse.
                lost = diag[r - c + n - 1] - 1
                diag[r - c + n - 1] -= 1
                lost += anti[r + c] - 1
                anti[r + c] -= 1
                lost += diag[s - d + n - 1] - 1
                diag[s - d + n - 1] -= 1
                lost += anti[s + d] - 1
                anti[s + d] -= 1
                gained = diag[r - d + n - 1]
                diag[r - d + n - 1] += 1
                gained += anti[r + d]
                anti[r + d] += 1
                gained += diag[s - c + n - 1]
                diag[s - c + n - 1] += 1
                gained += anti[s + c]
                anti[s + c] += 1
                delta = gained - lost
                if delta < 0 or (delta == 0 and np.random.random() < 0.1):
                    out[i] = d
                    out[j] = c
                    if delta < 0:
                        break
                    c = d
                    if diag[r - c + n - 1] < 2 and anti[r + c] < 2:
                        break
                else:
                    diag[r - d + n - 1] -= 1
                    anti[r + d] -= 1
                    diag[s - c + n - 1] -= 1
                    anti[s + c] -= 1
                    diag[r - c + n - 1] += 1
                    anti[r + c] += 1
                    diag[s - d + n - 1] += 1
                    anti[s + d] += 1
        if not attacked:
            return True
    return False


@njit(cache=True)
def _usable(
    n: int, r: int, c: int, col_used: np.ndarray, diag: np.ndarray, anti: np.ndarray
) -> bool:
    return col_used[c] == 0 and diag[r - c + n - 1] == 0 and anti[r + c] == 0


@njit(cache=True)
def _place(n: int, i: int, k: int, state: tuple, undo: np.bool_) -> bool:
    """Put (or with ``undo``, take back) the queen on ``(rows[i], cols[k])``.

    ``state`` holds the search's arrays (see :func:`_exact_search`):
    ``row_options[j]`` counts the usable squares of each unplaced row,
    ``col_options[k]`` the unplaced rows that can still use each untaken free
    column. Returns True if some row or column is left with no option.
    """
    rows, cols, col_index, placed, col_taken, row_options, col_options, col_used, diag, anti = (
        state)
    m = rows.shape[0]
    r = rows[i]
    c = cols[k]
    step = 1 if undo else -1
    wiped_out = False
    if undo:
        col_used[c] -= 1
        diag[r - c + n - 1] -= 1
        anti[r + c] -= 1
        col_taken[k] = False
    else:
        # Row i leaves the pool: its squares stop counting for their columns.
        for kk in range(m):
            if not col_taken[kk] and _usable(n, r, cols[kk], col_used, diag, anti):
                col_options[kk] -= 1
                if col_options[kk] == 0 and kk != k:
                    wiped_out = True
        placed[i] = True
        col_taken[k] = True
    # The new queen covers at most three squares of every other free row.
    for j in range(m):
        if placed[j]:
            continue
        s = rows[j]
        dist = s - r
        for cc in (c, c + dist, c - dist):
            if cc < 0 or cc >= n:
                continue
            kk = col_index[cc]
            if kk < 0 or not _usable(n, s, cc, col_used, diag, anti):
                continue
            row_options[j] += step
            if row_options[j] == 0:
                wiped_out = True
            if kk != k:
                col_options[kk] += step
                if col_options[kk] == 0:
                    wiped_out = True
    if undo:
        placed[i] = False
        for kk in range(m):
            if not col_taken[kk] and _usable(n, r, cols[kk], col_used, diag, anti):
                col_options[kk] += 1
    else:
        col_used[c] += 1
        diag[r - c + n - 1] += 1
        anti[r + c] += 1
    return wiped_out


@njit(cache=True)
def _exact_search(
    n: int,
    rows: np.ndarray,
    cols: np.ndarray,
    col_used: np.ndarray,
    diag: np.ndarray,
    anti: np.ndarray,
    seed: int,
    node_limit: int,
    out: np.ndarray,
) -> int:
    """Complete the free rows, or prove it cannot be done.

    ``col_used``/``diag``/``anti`` count the pinned queens on each line (the
    caller's arrays are left as they were). Returns 1 with ``out[i]`` the
    column of ``rows[i]``, 0 if there is no completion, -1 if more than
    ``node_limit`` queens were tried (``node_limit < 0``: no limit).
    """
    np.random.seed(seed)
    m = rows.shape[0]
    col_used = col_used.copy()
    diag = diag.copy()
    anti = anti.copy()
    col_index = np.full(n, -1, np.int64)
    for k in range(m):
        col_index[cols[k]] = k
    placed = np.zeros(m, np.bool_)
    col_taken = np.zeros(m, np.bool_)
    row_options = np.zeros(m, np.int64)
    col_options = np.zeros(m, np.int64)
    for i in range(m):
        for k in range(m):
            if _usable(n, rows[i], cols[k], col_used, diag, anti):
                row_options[i] += 1
                col_options[k] += 1
    # Random orders break ties differently on each restart.
    row_order = np.random.permutation(m)
    col_order = np.random.permutation(m)
    state = (rows, cols, col_index, placed, col_taken, row_options, col_options, col_used, diag,
             anti)
    # Per depth: branching on a row (0) or a column (1), which one, the next
    # candidate to try, and the queen placed there.
    kind = np.zeros(m, np.int64)
    var = np.zeros(m, np.int64)
    next_try = np.zeros(m, np.int64)
    queen_row = np.zeros(m, np.int64)
    queen_col = np.zeros(m, np.int64)
    nodes = 0
    depth = 0
    choose = True
    while True:
        if choose:
            if depth == m:
                for d in range(m):
                    out[queen_row[d]] = cols[queen_col[d]]
                return 1
            best = m + 1
            for t in range(m):
                i = row_order[t]
                if not placed[i] and row_options[i] < best:
                    best = row_options[i]
                    kind[depth] = 0
                    var[depth] = i
            for t in range(m):
                k = col_order[t]
                if not col_taken[k] and col_options[k] < best:
                    best = col_options[k]
                    kind[depth] = 1
                    var[depth] = k
            next_try[depth] = 0
            choose = False
        # Next usable square for this depth's row or column.
        i = -1
        k = -1
        t = next_try[depth]
        while t < m:
            if kind[depth] == 0:
                i = var[depth]
                k = col_order[t]
                if not col_taken[k] and _usable(n, rows[i], cols[k], col_used, diag, anti):
                    break
            else:
                k = var[depth]
                i = row_order[t]
                if not placed[i] and _usable(n, rows[i], cols[k], col_used, diag, anti):
                    break
            t += 1
        next_try[depth] = t + 1
        if t >= m:
            if depth == 0:
                return 0
            depth -= 1
            # np.bool_, not a literal: numba would compile _place once per literal
            _place(n, queen_row[depth], queen_col[depth], state, np.bool_(True))
            continue
        nodes += 1
        if node_limit >= 0 and nodes > node_limit:
            return -1
        queen_row[depth] = i
        queen_col[depth] = k
        if _place(n, i, k, state, np.bool_(False)):
            _place(n, i, k, state, np.bool_(True))
            continue
        depth += 1
        choose = True


def check_fixed(n: int, fixed: Iterable[Square]) -> list[Square]:
    """Validate pinned queens: on the board, no duplicates, no two attacking.

    Returns them as a sorted list; raises ValueError saying what is wrong.
    """
    if isinstance(fixed, str) or not isinstance(fixed, Iterable):
        raise TypeError(f"the fixed queens are a list of (row, col) squares, not {fixed!r}")
    squares = list(fixed)
    if len(squares) == 2 and all(as_whole(value) is not None for value in squares):
        raise ValueError(f"the fixed queens are a list of squares, not one square: "
                         f"write [{tuple(squares)!r}] for a queen on {tuple(squares)!r}")
    placement = Placement(n)
    for square in squares:
        row, col = check_square(n, square)
        if (row, col) in placement:
            raise ValueError(f"queen ({row}, {col}) is given twice")
        attack = placement.attacker(row, col)
        if attack is not None:
            other, line = attack
            raise ValueError(
                f"queens {other} and ({row}, {col}) attack each other along the {line}"
            )
        placement.place(row, col)
    return placement.queens


def solve(n: int, fixed: Iterable[Square] = (), *, seed: int = DEFAULT_SEED) -> list[Square] | None:
    """A solution of the N×N puzzle containing every queen in ``fixed``, or None.

    None means no such solution exists (proved by exhaustive search). The
    result is a list of ``(row, col)`` sorted by row, the same for the same
    ``seed``.

    >>> solve(4)
    [(0, 2), (1, 0), (2, 3), (3, 1)]
    >>> solve(8, [(0, 0), (1, 2)]) is None
    True
    >>> solution = solve(1000, [(0, 0), (999, 500)])
    >>> (0, 0) in solution and (999, 500) in solution and len(solution) == 1000
    True
    """
    n = check_size(n)
    if n > MAX_SOLVE_N:  # its arrays would fill the memory of most machines
        raise ValueError(f"board size must be at most {MAX_SOLVE_N:,} to solve, not {n:,}")
    pinned = check_fixed(n, fixed)
    seed_value = as_whole(seed)
    if seed_value is None or seed_value < 0:
        raise ValueError(f"seed must be a whole number of 0 or more, not {seed!r}")
    if len(pinned) == n:
        return pinned
    row_free = np.ones(n, np.bool_)
    col_used = np.zeros(n, np.int64)
    diag = np.zeros(2 * n - 1, np.int64)
    anti = np.zeros(2 * n - 1, np.int64)
    for row, col in pinned:
        row_free[row] = False
        col_used[col] = 1
        diag[row - col + n - 1] = 1
        anti[row + col] = 1
    rows = np.flatnonzero(row_free).astype(np.int64)
    cols = np.flatnonzero(col_used == 0).astype(np.int64)
    free = rows.shape[0]
    out = np.empty(free, np.int64)
    rng = np.random.default_rng(seed_value)
    local = free >= LOCAL_SEARCH_MIN_FREE and 0.19 * free * free >= LOCAL_SEARCH_MARGIN * n
    steps = 50 * free + 100_000
    node_limit = FIRST_NODE_LIMIT
    # Local search and the exact search take turns, each with a growing budget:
    # some boards that local search completes in milliseconds keep the exact
    # search busy for hours, and only the exact search can prove "no solution".
    while True:
        if local and _min_conflicts(
            n, rows, cols, diag.copy(), anti.copy(), int(rng.integers(2**31)), steps, out
        ):
            break
        status = _exact_search(
            n, rows, cols, col_used, diag, anti, int(rng.integers(2**31)), node_limit, out
        )
        if status == 0:
            return None
        if status == 1:
            break
        # The next turn: about as much work as that exact run.
        steps = max(2 * steps, node_limit * free)
        node_limit *= 2
    solution = pinned + [(int(r), int(c)) for r, c in zip(rows, out, strict=True)]
    return sorted(solution)


def hint(placement: Placement, *, seed: int = DEFAULT_SEED) -> Square | None:
    """A square for the next queen that still leaves the board completable.

    None when the placement is already complete or cannot be completed (which
    includes queens attacking each other). The square is in the topmost empty
    row.

    >>> board = Placement.from_queens(8, [(0, 0)])
    >>> square = hint(board)
    >>> board.place(*square)
    >>> solve(8, board.queens) is not None
    True
    >>> hint(Placement.from_queens(8, [(0, 0), (1, 2)])) is None
    True
    """
    if not isinstance(placement, Placement):
        raise TypeError(f"hint takes a Placement, not {placement!r}")
    if placement.is_complete or placement.conflicts:
        return None
    solution = solve(placement.n, placement.queens, seed=seed)
    if solution is None:
        return None
    taken_rows = {row for row, _ in placement.queens}
    return next(square for square in solution if square[0] not in taken_rows)


def _load_solver() -> None:
    solve(4)  # exact search
    solve(64)  # local search


def _load_counter() -> None:
    from gridgames.queens.counter import count_solutions

    count_solutions(1)


KERNEL_GROUPS = (KernelGroup("queens solver", _load_solver),
                 KernelGroup("queens counter", _load_counter))


def warm_up(report: Report | None = None) -> None:
    """Load the compiled kernels now (compiling them on first use), so that timing
    a later call measures the search alone; ``report`` hears of the progress
    (see :func:`gridgames.prepare.prepare`)."""
    prepare(KERNEL_GROUPS, report)
