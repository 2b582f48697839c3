"""SearchMemory: the transposition table kept from one search to the next."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest
from ai_helpers import stones

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import Limit, SearchMemory, engine, think, warm_up
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai import search as S


@pytest.fixture(autouse=True, scope="module")
def compiled() -> None:
    warm_up()  # loading the kernels must not eat the timed searches' budget


def game(moves: str, rule: Rule = Rule.FREESTYLE) -> Board:
    board = Board(15, rule=rule)
    board.push_many(stones(moves))
    return board


def filled(table: np.ndarray) -> int:
    return int(np.count_nonzero(table[:, 1]))


def test_a_timed_search_leaves_its_table_for_the_next_one() -> None:
    board = game("h8 i8 i6 h6 i5")
    memory = SearchMemory()
    first = think(board, Limit(time_ms=300), memory=memory)
    entries = filled(memory.table(board))
    assert entries > 1000
    board.push(first.move)
    board.push(think(board, Limit(time_ms=200), memory=memory).move)
    assert board.outcome() is None
    assert filled(memory.table(board)) >= entries  # kept and added to, not cleared


def test_node_limited_searches_stay_reproducible_with_a_memory() -> None:
    board = game("h8 i9 g9 g7 i7")
    memory = SearchMemory()
    think(board, Limit(time_ms=200), memory=memory)
    with_memory = think(board, Limit(nodes=3000), memory=memory)
    without = think(board, Limit(nodes=3000))
    assert (with_memory.move, with_memory.score, with_memory.nodes) == (
        without.move, without.score, without.nodes)


def test_a_new_board_size_or_rule_gets_a_fresh_table() -> None:
    memory = SearchMemory()
    board = game("h8 i9 g9")
    think(board, Limit(time_ms=100), memory=memory)
    renju = game("h8 i9 g9", Rule.RENJU)
    assert filled(memory.table(renju)) == 0


def test_a_shared_table_is_filled_by_a_forked_search() -> None:
    board = game("h8 j7 h10 j9")
    memory = SearchMemory(shared=True)
    table = memory.table(board)
    pid = os.fork()
    if pid == 0:  # the child searches and leaves without clean-up, as the brain's workers do
        try:
            think(board, Limit(time_ms=200), memory=memory)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    assert filled(table) > 1000


def test_clear_forgets_everything() -> None:
    board = game("h8 i8 i6 h6 i5")
    memory = SearchMemory()
    think(board, Limit(time_ms=100), memory=memory)
    memory.clear()
    assert filled(memory.table(board)) == 0


# -- replacement: two slots a bucket, entries of earlier moves give way ------------------


def _tt_position(age: int):  # type: ignore[no-untyped-def]
    from gridgames.gomoku.ai import position as P

    pos = P.new_position(15, 15, Rule.FREESTYLE.code, P.new_table(4))
    pos.info[P.I_AGE] = age
    return pos


def test_a_bucket_keeps_two_keys_and_a_new_search_replaces_the_stale_one() -> None:
    from gridgames.gomoku.ai import position as P
    from gridgames.gomoku.ai import search as S

    size = 16
    pos = _tt_position(5)
    k1, k2, k3, k4 = (0x1234 + size * i for i in range(4))  # all in one bucket
    S._tt_store(pos, k1, 9, 10, S.EXACT, 100, 0)
    S._tt_store(pos, k2, 8, 20, S.EXACT, 101, 0)
    assert S._tt_entry(pos, k1) >= 0 and S._tt_entry(pos, k2) >= 0
    pos.info[P.I_AGE] = 7  # two stones later: both entries are from an earlier move
    S._tt_store(pos, k3, 1, 30, S.LOWER, 102, 0)
    assert S._tt_entry(pos, k3) & 0xFFFF == 102
    assert S._tt_entry(pos, k2) == -1  # the shallower stale entry gave way
    S._tt_store(pos, k4, 1, 40, S.UPPER, 103, 0)
    assert S._tt_entry(pos, k1) == -1  # stale, however deep, before this search's
    assert S._tt_entry(pos, k3) >= 0 and S._tt_entry(pos, k4) >= 0


def test_a_shallow_bound_does_not_overwrite_a_deeper_entry_of_the_same_search() -> None:
    from gridgames.gomoku.ai import search as S

    pos = _tt_position(3)
    S._tt_store(pos, 0x77, 6, 50, S.EXACT, 200, 0)
    S._tt_store(pos, 0x77, 2, -5, S.UPPER, 201, 0)
    entry = S._tt_entry(pos, 0x77)
    assert entry & 0xFFFF == 200 and ((entry >> 32) & 255) - 128 == 6


# -- helper threads ------------------------------------------------------------------------


def test_helper_threads_leave_node_limited_searches_reproducible() -> None:
    board = game("h8 i9 g9 g7 i7")
    alone = think(board, Limit(nodes=4000))
    helped = think(board, Limit(nodes=4000), threads=2)
    assert (helped.move, helped.score, helped.nodes) == (alone.move, alone.score, alone.nodes)


def test_a_timed_search_with_helpers_keeps_time_and_blocks_an_open_four_threat() -> None:
    # black has an open three h8-i8-j8 (g8 and k8 open): white must stop it at an end
    board = game("h8 h9 i8 i9 j8")
    result = think(board, Limit(time_ms=400), threads=3)
    assert result.move in {(6, 7), (10, 7), (5, 7), (11, 7)}
    assert result.time_ms <= 400 + 100
    assert result.nodes > 0 and result.nps > 0


def test_a_thread_count_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="threads must be a whole number from 1 to 64, got 0"):
        think(game("h8 i9"), Limit(time_ms=100), threads=0)


def test_helpers_keep_the_move_of_their_deepest_finished_iteration() -> None:
    board = game("h8 i9 g9 g7 i7")
    pos = engine.load_position(board)
    count = int(S.prepare_root(pos))
    helpers = engine.Helpers(board, pos, 2)
    time.sleep(0.3)
    helpers.stop()
    deepest = helpers.deepest()
    assert deepest is not None
    depth, move, score, pv = deepest
    assert depth >= 3  # the second helper starts at depth 3
    assert move in {int(m) for m in pos.root[0, :count]}
    assert pv[0] == P.cell_point(pos, move) and abs(score) < S.INF
