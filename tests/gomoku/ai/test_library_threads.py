"""Helper threads keep the time limit, however many there are and however few the cores."""

from __future__ import annotations

import threading
import time

import pytest

from gridgames.gomoku import Board
from gridgames.gomoku.ai import Limit, engine, think, warm_up
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai import search as S
from gridgames.gomoku.notation import parse_position

# A freestyle position after 16 moves of an engine game, neither side winning yet.
MIDDLE_GAME = "h8j8f9h6i7j6j7k7i5i6k6h9f7i9h10f8"


@pytest.fixture(autouse=True, scope="module")
def compiled() -> None:
    warm_up()  # loading the kernels must not eat the timed searches' budget


def middle_game() -> Board:
    board = Board(15)
    board.push_many(parse_position(MIDDLE_GAME, 15, 15))
    return board


def test_a_timed_search_on_64_threads_keeps_its_time_on_few_cores() -> None:
    """On two cores, 200 ms with threads=64 took 1.4 to 9 s: the helpers were built and
    started one by one while those already started held both cores, and were only
    stopped after the main search."""
    board = middle_game()
    started = time.perf_counter()
    result = think(board, Limit(time_ms=200), threads=64)
    wall = time.perf_counter() - started
    assert wall < 1.0, f"a 200 ms search on 64 threads took {wall:.2f} s"
    assert board.is_legal(result.move) and result.depth >= 1


def test_a_stop_signal_ends_a_search_on_64_threads_promptly() -> None:
    board = middle_game()
    stop = threading.Event()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    started = time.perf_counter()
    result = think(board, Limit(time_ms=60_000), threads=64, stop=stop)
    wall = time.perf_counter() - started
    timer.cancel()
    assert wall < 1.5, f"stopped after 0.2 s, a search on 64 threads took {wall:.2f} s"
    assert board.is_legal(result.move)


def test_no_helper_starts_once_the_search_is_stopped() -> None:
    """Helpers were all started, each searching a few hundred nodes, even when the
    deadline had passed before they were."""
    board = middle_game()
    pos = engine.load_position(board)
    assert S.prepare_root(pos) > 1
    pos.info[P.I_STOP] = 1
    helpers = engine.Helpers(board, pos, 63)
    helpers.stop()
    assert (helpers.positions, helpers.nodes, helpers.deepest()) == ([], 0, None)


def test_stopping_reaches_the_helpers_still_building_their_boards() -> None:
    board = middle_game()
    pos = engine.load_position(board)
    assert S.prepare_root(pos) > 1
    helpers = engine.Helpers(board, pos, 8)
    helpers.stop()  # at once: most have not built their boards yet
    assert len(helpers.positions) == 8
    assert helpers.nodes <= 8 * 256  # each ends at its first look at the flag, if it searches


def test_helpers_build_the_position_they_were_given_if_the_board_moves_on() -> None:
    board = middle_game()
    pos = engine.load_position(board)
    assert S.prepare_root(pos) > 1
    helpers = engine.Helpers(board, pos, 4)
    board.push(board.legal_moves[0])  # the caller plays on while the helpers build
    helpers.stop()
    assert [int(helper.info[P.I_COUNT]) for helper in helpers.positions] == [16] * 4
