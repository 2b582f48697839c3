"""The search's entry points, called through their addresses, and the position layout
they read."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit, typeof
from numba.core.errors import TypingError

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai import search as S
from gridgames.gomoku.ai.calls import prefetch_row
from gridgames.gomoku.ai.engine import load_position


@pytest.mark.parametrize("rule", list(Rule))
@pytest.mark.parametrize("shared", [False, True])
def test_every_position_has_the_layout_the_entry_points_read(rule: Rule, shared: bool) -> None:
    table = P.new_table(10, shared=shared)
    assert typeof(P.new_position(7, 12, rule.code, table)) == P.POSITION_TYPE
    assert typeof(load_position(Board(15, rule=rule))) == P.POSITION_TYPE


def test_a_position_of_another_layout_is_refused_before_the_search_runs() -> None:
    board = Board(9)
    board.push_many([(4, 4), (5, 5), (3, 3)])
    pos = load_position(board)
    assert S.prepare_root(pos) > 0
    # the same position with one array strided instead of contiguous
    wider = np.zeros((P.MAX_PLY, 2 * pos.pv.shape[1]), dtype=np.int32)
    strided = pos._replace(pv=wider[:, ::2])
    with pytest.raises(TypingError, match="entry points take a position of type"):
        S.search_root(strided, 2, -S.INF, S.INF, 0)
    assert pos.info[P.I_NODES] == 0  # nothing was searched


def test_a_prefetch_changes_nothing_and_takes_only_a_table_row() -> None:
    @njit
    def first_after_prefetch(table: np.ndarray, row: int) -> int:
        prefetch_row(table, row)
        return int(table[row, 0])

    table = np.arange(64, dtype=np.int64).reshape(32, 2)
    assert first_after_prefetch(table, 5) == 10
    assert np.array_equal(table, np.arange(64).reshape(32, 2))
    with pytest.raises(TypingError, match="prefetch_row takes a C-contiguous 2-d array"):
        first_after_prefetch(np.arange(8), 1)
