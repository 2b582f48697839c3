"""SearchMemory: the transposition table kept from one search to the next."""

from __future__ import annotations

import os

import numpy as np
import pytest
from ai_helpers import stones

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import Limit, SearchMemory, think, warm_up


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
