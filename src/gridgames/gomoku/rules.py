"""The five-in-a-row rules: which lines win and which points are forbidden.

The rules are numba kernels over a padded grid: an ``int8`` array of shape
``(height + 2, width + 2)`` whose border cells hold :data:`WALL`, so a walk
along a line stops at the edge without bounds checks. Point ``(x, y)`` lives
at ``grid[y + 1, x + 1]``. These kernels *are* the rules: the board, the
engine and the front ends all decide wins and renju fouls through them.

The kernels are internal and check nothing, as they run in the engine's hot
loops: the grid must be a board's (``int8``, walled), and a point must be on
it (``0 <= x < width``, ``0 <= y < height``). An off-board point reads, and
the foul check writes, the walls or memory outside the array. Public calls
check first: :class:`~gridgames.gomoku.board.Board` refuses an off-board
point before it asks a kernel.

>>> from gridgames.gomoku import Rule
>>> Rule.RENJU.gomocup, Rule.from_gomocup(9)
(4, <Rule.CARO_EXACT: 'caro-exact'>)
"""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import Any

import numpy as np
from numba import njit

EMPTY, BLACK, WHITE, WALL = 0, 1, 2, 3

# The rule kernels allocate, so they keep numba's memory runtime even when a search
# kernel, compiled without it, is the first to call them (numba hands the caller's
# setting on to a callee that sets none). ``_nrt`` is missing from numba's stubs.
_KERNEL_OPTIONS: dict[str, Any] = {"cache": True, "_nrt": True}
rule_kernel = njit(**_KERNEL_OPTIONS)

# Line directions as (dx, dy): horizontal, vertical, diagonal, anti-diagonal.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (1, 1), (1, -1))
_DX = np.array([d[0] for d in DIRECTIONS], dtype=np.int64)
_DY = np.array([d[1] for d in DIRECTIONS], dtype=np.int64)

# Kernel codes of the rules (Rule.code).
FREESTYLE_CODE, STANDARD_CODE, RENJU_CODE, CARO_CODE, CARO_EXACT_CODE = 0, 1, 2, 3, 4


class Rule(Enum):
    """A five-in-a-row rule set; the value is its name in text forms."""

    FREESTYLE = "freestyle"
    STANDARD = "standard"
    RENJU = "renju"
    CARO = "caro"
    CARO_EXACT = "caro-exact"

    @property
    def code(self) -> int:
        """The small integer the kernels use for this rule."""
        return _CODES[self]

    @property
    def gomocup(self) -> int:
        """The Gomocup protocol's ``INFO rule`` number."""
        return _GOMOCUP[self]

    @property
    def description(self) -> str:
        return _DESCRIPTIONS[self]

    @classmethod
    def from_gomocup(cls, number: int) -> Rule:
        """The rule for a Gomocup ``INFO rule`` value (2 is renju in the Yixin dialect)."""
        # board and notation import this module
        from gridgames.gomoku.board import as_whole
        from gridgames.gomoku.notation import shown_value

        whole = as_whole(number)  # 4.0, True or "4" would match 4 or 1 by equality
        for rule, value in _GOMOCUP.items():
            if whole is not None and value == whole:
                return rule
        if whole == 2:
            return cls.RENJU
        allowed = ", ".join(f"{v} ({r.value})" for r, v in _GOMOCUP.items())
        raise ValueError(f"unknown Gomocup rule {shown_value(number)}; allowed: {allowed}, "
                         "or 2 (renju, as Yixin numbers it)")

    @classmethod
    def from_name(cls, name: str) -> Rule:
        """Parse a rule name such as ``"renju"`` or ``"caro_exact"`` (case-insensitive)."""
        from gridgames.gomoku.notation import shown, shown_value  # notation imports this module

        allowed = ", ".join(r.value for r in cls)
        if not isinstance(name, str):
            raise ValueError(f"a rule's name must be a str such as 'renju', got "
                             f"{shown_value(name)}; allowed: {allowed}")
        key = name.strip().lower().replace("_", "-")
        for rule in cls:
            if rule.value == key:
                return rule
        raise ValueError(f"unknown rule {shown(name)!r}; allowed: {allowed}")


_CODES = {
    Rule.FREESTYLE: FREESTYLE_CODE,
    Rule.STANDARD: STANDARD_CODE,
    Rule.RENJU: RENJU_CODE,
    Rule.CARO: CARO_CODE,
    Rule.CARO_EXACT: CARO_EXACT_CODE,
}
_GOMOCUP = {Rule.FREESTYLE: 0, Rule.STANDARD: 1, Rule.RENJU: 4, Rule.CARO: 8, Rule.CARO_EXACT: 9}
_DESCRIPTIONS = {
    Rule.FREESTYLE: "five or more in a row wins",
    Rule.STANDARD: "exactly five in a row wins; an overline does not",
    Rule.RENJU: "black: exactly five wins, double three, double four and overline are "
    "forbidden; white: five or more wins",
    Rule.CARO: "five or more wins, but an exact five blocked at both ends does not",
    Rule.CARO_EXACT: "exactly five wins, and not when blocked at both ends",
}


class Foul(IntEnum):
    """Why a point is forbidden for black under renju (``NONE`` when it is not)."""

    NONE = 0
    DOUBLE_THREE = 1
    DOUBLE_FOUR = 2
    OVERLINE = 3

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", " ")


@rule_kernel
def _run(grid, gx, gy, dx, dy, color):
    """Stones of ``color`` contiguous with (gx, gy) along a line: (back, forward)."""
    back = 0
    while grid[gy - dy * (back + 1), gx - dx * (back + 1)] == color:
        back += 1
    forward = 0
    while grid[gy + dy * (forward + 1), gx + dx * (forward + 1)] == color:
        forward += 1
    return back, forward


@rule_kernel
def winning_direction(grid, x, y, rule_code):
    """Index into DIRECTIONS of a winning line through the stone at (x, y), or -1."""
    gx, gy = x + 1, y + 1
    color = grid[gy, gx]
    opponent = 3 - color
    for d in range(4):
        dx, dy = _DX[d], _DY[d]
        back, forward = _run(grid, gx, gy, dx, dy, color)
        length = back + forward + 1
        if length < 5:
            continue
        if rule_code == FREESTYLE_CODE:
            return d
        if rule_code == STANDARD_CODE:
            if length == 5:
                return d
        elif rule_code == RENJU_CODE:
            if length == 5 or color == WHITE:
                return d
        else:  # caro: an exact five must not be blocked by the opponent at both ends
            if length > 5:
                if rule_code == CARO_CODE:
                    return d
                continue
            before = grid[gy - dy * (back + 1), gx - dx * (back + 1)]
            after = grid[gy + dy * (forward + 1), gx + dx * (forward + 1)]
            if not (before == opponent and after == opponent):
                return d
    return -1


@rule_kernel
def makes_five(grid, x, y, color, rule_code):
    """Whether a ``color`` stone on the empty point (x, y) would make a winning line."""
    grid[y + 1, x + 1] = color
    wins = winning_direction(grid, x, y, rule_code) >= 0
    grid[y + 1, x + 1] = EMPTY
    return wins


@rule_kernel
def five_points(grid, color, rule_code, out):
    """Every empty point where ``color`` would make a winning line, as y * width + x
    into ``out`` in reading order; returns the count."""
    height, width = grid.shape[0] - 2, grid.shape[1] - 2
    n = 0
    for y in range(height):
        for x in range(width):
            if grid[y + 1, x + 1] == EMPTY and makes_five(grid, x, y, color, rule_code):
                out[n] = y * width + x
                n += 1
    return n


@rule_kernel
def _five_completions(grid, gx, gy, dx, dy):
    """Black's completion squares to an exact five through (gx, gy) on one line.

    Returns (count, first, last) with first/last as offsets along the line; a
    straight four counts once (its two completions are five apart).
    """
    count = 0
    first = 0
    last = 0
    for sign in (-1, 1):
        for s in range(1, 5):
            cx, cy = gx + dx * s * sign, gy + dy * s * sign
            v = grid[cy, cx]
            if v == BLACK:
                continue
            if v != EMPTY:
                break
            grid[cy, cx] = BLACK
            back, forward = _run(grid, cx, cy, dx, dy, BLACK)
            grid[cy, cx] = EMPTY
            t = s * sign
            # the five must be exact and contain the stone at offset 0
            if back + forward + 1 == 5 and t - back <= 0 <= t + forward:
                if count == 0 or t < first:
                    first = t
                if count == 0 or t > last:
                    last = t
                count += 1
    if count == 2 and last - first == 5:
        count = 1
    return count


@rule_kernel
def _is_straight_four(grid, gx, gy, dx, dy):
    """Black's unbroken four through (gx, gy) that two squares complete to exact fives."""
    back, forward = _run(grid, gx, gy, dx, dy, BLACK)
    if back + forward + 1 != 4:
        return False
    bx, by = gx - dx * (back + 1), gy - dy * (back + 1)
    fx, fy = gx + dx * (forward + 1), gy + dy * (forward + 1)
    if grid[by, bx] != EMPTY or grid[fy, fx] != EMPTY:
        return False
    # a completion next to another black stone would make an overline
    return grid[by - dy, bx - dx] != BLACK and grid[fy + dy, fx + dx] != BLACK


@rule_kernel
def _black_neighbours(grid, gx, gy):
    """Black stones within four squares of (gx, gy) along its four lines."""
    count = 0
    for d in range(4):
        dx, dy = _DX[d], _DY[d]
        for sign in (-1, 1):
            for s in range(1, 5):
                v = grid[gy + dy * s * sign, gx + dx * s * sign]
                if v == WALL:
                    break
                if v == BLACK:
                    count += 1
    return count


_UNDECIDED = -1


@rule_kernel
def _foul_without_threes(grid, gx, gy):
    """Foul code for black at (gx, gy) from fives, overlines and fours alone.

    Returns (code, four_mask). When the code is _UNDECIDED the threes still
    have to be counted: the stone is then left on the grid and bit d of
    four_mask tells that direction d already holds a four.
    """
    # Every foul needs at least four black stones on the lines through the point.
    if _black_neighbours(grid, gx, gy) < 4:
        return 0, 0
    grid[gy, gx] = BLACK
    overline = False
    for d in range(4):
        back, forward = _run(grid, gx, gy, _DX[d], _DY[d], BLACK)
        length = back + forward + 1
        if length == 5:  # an exact five wins before any foul counts
            grid[gy, gx] = EMPTY
            return 0, 0
        if length > 5:
            overline = True
    if overline:
        grid[gy, gx] = EMPTY
        return 3, 0
    fours = 0
    four_mask = 0
    for d in range(4):
        n = _five_completions(grid, gx, gy, _DX[d], _DY[d])
        if n > 0:
            four_mask |= 1 << d
            fours += n
    if fours >= 2:
        grid[gy, gx] = EMPTY
        return 2, 0
    return _UNDECIDED, four_mask


@rule_kernel
def _three_completion(grid, gx, gy, d, k):
    """Candidate k (0..7) on line d that turns black's stone at (gx, gy) into a straight four.

    Returns (status, qx, qy): status 1 = q completes a straight four without
    making a five anywhere, 0 = not this candidate, -1 = blocked, skip the rest
    of this side.
    """
    dx, dy = _DX[d], _DY[d]
    sign = -1 if k < 4 else 1
    s = k % 4 + 1
    for t in range(1, s + 1):
        v = grid[gy + dy * t * sign, gx + dx * t * sign]
        if v != BLACK and v != EMPTY:
            return -1, 0, 0
        if t == s and v != EMPTY:
            return 0, 0, 0
    qx, qy = gx + dx * s * sign, gy + dy * s * sign
    grid[qy, qx] = BLACK
    # A stone that makes a five (on any line) wins rather than completing a three.
    straight = _is_straight_four(grid, gx, gy, dx, dy)
    for e in range(4):
        back, forward = _run(grid, qx, qy, _DX[e], _DY[e], BLACK)
        if back + forward + 1 >= 5:
            straight = False
    grid[qy, qx] = EMPTY
    return (1 if straight else 0), qx, qy


@rule_kernel
def _foul(grid, gx, gy):
    """Foul code for black at the empty padded cell (gx, gy).

    A three counts only if a square completing it to a straight four is itself
    not forbidden (with the stone placed): a depth-first search over nested
    positions, run on an explicit stack because cached numba code must not recurse.
    """
    code, mask = _foul_without_threes(grid, gx, gy)
    if code != _UNDECIDED:
        return code
    cap = grid.size + 1
    # one frame per nested stone: x, y, direction, candidate, threes found, four mask
    frames = np.zeros((cap, 6), dtype=np.int64)
    frames[0, 0], frames[0, 1], frames[0, 5] = gx, gy, mask
    top = 0
    child = _UNDECIDED  # result of the frame just finished, if any
    while True:
        f = frames[top]
        if child != _UNDECIDED:
            if child == 0:  # the completion is legal: a real three on this line
                f[4] += 1
                if f[4] >= 2:
                    grid[f[1], f[0]] = EMPTY
                    if top == 0:
                        return 1
                    top -= 1
                    child = 1
                    continue
                f[2] += 1
                f[3] = 0
            else:
                f[3] += 1
            child = _UNDECIDED
        found = False
        qx = qy = 0
        while f[2] < 4 and not found:
            if (f[5] >> f[2]) & 1:
                f[2] += 1
                f[3] = 0
                continue
            while f[3] < 8:
                status, qx, qy = _three_completion(grid, f[0], f[1], f[2], f[3])
                if status == 1:
                    found = True
                    break
                if status == -1 and f[3] < 4:
                    f[3] = 4
                elif status == -1:
                    f[3] = 8
                else:
                    f[3] += 1
            if not found:
                f[2] += 1
                f[3] = 0
        if found:
            code, mask = _foul_without_threes(grid, qx, qy)
            if code != _UNDECIDED:
                child = code
                continue
            top += 1
            g = frames[top]
            g[0], g[1], g[2], g[3], g[4], g[5] = qx, qy, 0, 0, 0, mask
            continue
        grid[f[1], f[0]] = EMPTY  # fewer than two real threes: legal
        if top == 0:
            return 0
        top -= 1
        child = 0


@rule_kernel
def forbidden_kind(grid, x, y):
    """Renju foul for black at the empty point (x, y): a :class:`Foul` value as int.

    An exact five is never forbidden. The grid is written during the check and
    restored before returning.
    """
    return _foul(grid, x + 1, y + 1)


@rule_kernel
def forbidden_map(grid):
    """Foul codes for black at every empty point, shape (height, width)."""
    height = grid.shape[0] - 2
    width = grid.shape[1] - 2
    out = np.zeros((height, width), dtype=np.int8)
    for y in range(height):
        for x in range(width):
            if grid[y + 1, x + 1] == EMPTY:
                out[y, x] = _foul(grid, x + 1, y + 1)
    return out
