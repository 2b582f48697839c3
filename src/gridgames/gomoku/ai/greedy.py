"""Level 1: the greedy one-look scorer of the Caro seed.

Every empty point gets an attack score from the longest run of the mover's stones
it would make (5 -> a win, 4 -> 2000, 3 -> 500, 2 -> 300, 1 -> 100) plus a defence
score from the longest run of the opponent's stones it touches (4 -> 999999,
3 -> 1000, 2 -> 400, 1 -> 10, 0 -> 0). The engine plays one of the best points at
random.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames.gomoku.rules import DIRECTIONS

WIN_SCORE = 10**9
ATTACK = np.array([0, 100, 300, 500, 2000, WIN_SCORE], dtype=np.int64)
DEFENCE = np.array([0, 10, 400, 1000, 999999], dtype=np.int64)
_DX = np.array([d[0] for d in DIRECTIONS], dtype=np.int64)
_DY = np.array([d[1] for d in DIRECTIONS], dtype=np.int64)


@njit(cache=True)
def _longest_run(grid, gx, gy, color):
    """Longest line of ``color`` through (gx, gy) counting the point itself (4 each way)."""
    best = 0
    for d in range(4):
        dx, dy = _DX[d], _DY[d]
        count = 1
        for sign in (1, -1):
            for step in range(1, 5):
                if grid[gy + sign * dy * step, gx + sign * dx * step] != color:
                    break
                count += 1
        if count > best:
            best = count
    return best


@njit(cache=True)
def greedy_scores(grid, color):
    """Seed scores of every point for ``color`` to move, shape (height, width); -1 if taken."""
    height, width = grid.shape[0] - 2, grid.shape[1] - 2
    out = np.full((height, width), -1, dtype=np.int64)
    for y in range(height):
        for x in range(width):
            if grid[y + 1, x + 1] != 0:
                continue
            own = min(_longest_run(grid, x + 1, y + 1, color), 5)
            theirs = min(_longest_run(grid, x + 1, y + 1, 3 - color) - 1, 4)
            out[y, x] = ATTACK[own] + DEFENCE[theirs]
    return out
