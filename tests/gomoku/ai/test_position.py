"""The engine board's incremental threat tables agree with a fresh computation."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import patterns
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.rules import winning_direction

STATE = ("cells", "grid", "keys", "shape", "combo", "near", "class_count")


def fresh(board: Board) -> P.Position:
    pos = P.new_position(board.width, board.height, board.rule.code, P.new_table(4))
    for point in board.move_stack:
        P.make(pos, P.cell_index(pos, point))
    return pos


def same_state(a: P.Position, b: P.Position) -> None:
    cells = a.cells == 0
    for name in STATE:
        x, y = getattr(a, name), getattr(b, name)
        if name in ("shape",):
            x, y = x[:, np.repeat(cells, 4)], y[:, np.repeat(cells, 4)]
        elif name == "combo":
            x, y = x[:, cells], y[:, cells]
        assert np.array_equal(x, y), name
    assert a.info[P.I_HASH] == b.info[P.I_HASH]
    assert a.info[P.I_VALUE] == b.info[P.I_VALUE]
    assert a.info[P.I_VALUE + 1] == b.info[P.I_VALUE + 1]


@pytest.mark.parametrize("rule", list(Rule))
def test_make_unmake_match_fresh_state(rule: Rule) -> None:
    rng = random.Random(rule.code)
    board = Board(11, 9, rule=rule)
    pos = fresh(board)
    for _ in range(60):
        if board.outcome() is not None:
            break
        move = rng.choice(board.legal_moves)
        board.push(move)
        P.make(pos, P.cell_index(pos, move))
        if rng.random() < 0.3:
            P.unmake(pos)
            board.pop()
        same_state(pos, fresh(board))


@pytest.mark.parametrize("rule", list(Rule))
def test_five_cells_agree_with_the_rule_kernel(rule: Rule) -> None:
    """A cell is classed FIVE exactly when playing it wins by the rule kernel."""
    rng = random.Random(100 + rule.code)
    for _ in range(6):
        board = Board(9, rule=rule)
        pos = fresh(board)
        for _ in range(45):
            if board.outcome() is not None:
                break
            move = rng.choice(board.legal_moves)
            board.push(move)
            P.make(pos, P.cell_index(pos, move))
        grid = board.grid.copy()
        for color in (1, 2):
            for y in range(board.height):
                for x in range(board.width):
                    if grid[y + 1, x + 1]:
                        continue
                    grid[y + 1, x + 1] = color
                    wins = winning_direction(grid, x, y, rule.code) >= 0
                    grid[y + 1, x + 1] = 0
                    idx = P.cell_index(pos, (x, y))
                    cls = pos.combo_table[P.T_CLASS, pos.combo[color - 1, idx]]
                    assert (cls == patterns.C_FIVE) == wins, (rule, color, x, y)
