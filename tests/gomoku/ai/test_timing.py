"""The time manager: the clock's budgets, the pacer's decisions, threats, and real searches."""

from __future__ import annotations

import time
from itertools import pairwise

import pytest
from ai_helpers import position
from hypothesis import given
from hypothesis import strategies as st

from gridgames.gomoku import Board
from gridgames.gomoku.ai import Limit, SearchInfo, think
from gridgames.gomoku.ai.engine import has_threats
from gridgames.gomoku.ai.timing import (
    HARD_SHARE_OF_LEFT,
    MOVES_TO_GO_MIN,
    THREAT_STRETCH,
    Pacer,
    TimeControl,
    instant_depth,
    moves_to_go,
)

MARGIN_MS = 350  # generous: a shared, busy machine


# -- the budgets of one move ------------------------------------------------------------


def test_a_match_clock_gives_a_soft_share_and_a_larger_hard_cap() -> None:
    control = TimeControl.for_clock(turn_ms=5000, time_left_ms=20000, moves_played=3)
    assert 20000 / 25 < control.soft_ms < 20000 / 15
    assert 2 * control.soft_ms < control.hard_ms <= HARD_SHARE_OF_LEFT * 20000


def test_the_turn_limit_caps_the_hard_budget() -> None:
    control = TimeControl.for_clock(turn_ms=1000, time_left_ms=100_000, moves_played=3,
                                    overhead_ms=15, safety_ms=55)
    assert control.hard_ms == 1000 - 15 - 55
    assert control.soft_ms == control.hard_ms  # a long clock: the whole turn is the share


def test_a_turn_limit_alone_is_a_fixed_budget() -> None:
    control = TimeControl.for_clock(turn_ms=700, time_left_ms=None, moves_played=10)
    assert control.soft_ms == control.hard_ms == 700
    with pytest.raises(ValueError, match="turn limit or a match clock"):
        TimeControl.for_clock(turn_ms=0, time_left_ms=None, moves_played=10)


@pytest.mark.parametrize("left", [-500, 0, 50, 120])
def test_little_time_left_means_an_instant_move(left: int) -> None:
    control = TimeControl.for_clock(turn_ms=5000, time_left_ms=left, moves_played=30,
                                    overhead_ms=15, safety_ms=30)
    assert control.is_instant and control.soft_ms == control.hard_ms == 0
    assert instant_depth(left) == 0  # the greedy scorer: a depth-2 search costs 30 ms


def test_less_time_left_never_gives_more_time() -> None:
    budgets = [TimeControl.for_clock(turn_ms=5000, time_left_ms=left, moves_played=20)
               for left in range(0, 30_000, 250)]
    assert all(a.soft_ms <= b.soft_ms and a.hard_ms <= b.hard_ms
               for a, b in pairwise(budgets))


def test_early_moves_get_a_bigger_share_than_late_ones() -> None:
    assert moves_to_go(0) > moves_to_go(30) > moves_to_go(60) > moves_to_go(200)
    assert moves_to_go(200) == MOVES_TO_GO_MIN
    # a calm game that spends each soft budget: every move gets less than the one before
    left, budgets = 20_000, []
    for played in range(3, 150, 2):
        control = TimeControl.for_clock(turn_ms=5000, time_left_ms=left, moves_played=played,
                                        overhead_ms=15, safety_ms=30)
        budgets.append(control.soft_ms)
        left -= control.soft_ms + (2 if control.is_instant else 15)  # greedy: no fork
    assert left > 0
    assert all(a >= b for a, b in pairwise(budgets))
    assert budgets[0] > 3 * budgets[30]


@given(turn=st.integers(0, 60_000), left=st.integers(-1000, 1_000_000),
       played=st.integers(0, 400), overhead=st.integers(0, 500), safety=st.integers(0, 500))
def test_the_hard_cap_fits_the_turn_and_the_time_left(turn: int, left: int, played: int,
                                                      overhead: int, safety: int) -> None:
    control = TimeControl.for_clock(turn_ms=turn, time_left_ms=left, moves_played=played,
                                    overhead_ms=overhead, safety_ms=safety)
    assert 0 <= control.soft_ms <= control.hard_ms
    if turn > 0:
        assert control.hard_ms <= max(0, turn - overhead - safety)
    assert control.hard_ms <= max(0.0, HARD_SHARE_OF_LEFT * left)


def test_a_control_with_soft_above_hard_is_refused() -> None:
    with pytest.raises(ValueError, match="soft_ms <= hard_ms"):
        TimeControl(500, 100)


# -- the pacer ---------------------------------------------------------------------------


def feed(pacer: Pacer, moves: list[tuple[int, int]], scores: list[int],
         elapsed: list[float], mate: int | None = None) -> list[int | None]:
    return [pacer.iteration_done(depth=4 + i, move=m, score=s, mate=mate, elapsed_ms=e)
            for i, (m, s, e) in enumerate(zip(moves, scores, elapsed, strict=True))]


def test_a_calm_search_stops_at_the_soft_budget() -> None:
    pacer = TimeControl(1000, 4000).pacer(has_threats(Board(15)))
    answers = feed(pacer, [(7, 7)] * 5, [30] * 5, [50, 150, 350, 590, 700])
    assert answers == [1000, 1000, 1000, 1000, None]  # no new iteration past 60% of it


def test_an_unstable_best_move_stretches_the_budget() -> None:
    pacer = TimeControl(1000, 4000).pacer()
    answers = feed(pacer, [(7, 7), (8, 8), (7, 7), (8, 8)], [30] * 4, [50, 150, 350, 700])
    assert answers == [1000, 1500, 2000, 2500]
    assert pacer.best_move_changes() == 3


def test_changes_at_shallow_depths_do_not_count() -> None:
    pacer = TimeControl(1000, 4000).pacer()
    for depth, move in [(1, (7, 7)), (2, (8, 8)), (3, (9, 9)), (4, (9, 9))]:
        pacer.iteration_done(depth=depth, move=move, score=0, mate=None, elapsed_ms=10)
    assert pacer.best_move_changes() == 0 and pacer.budget_ms() == 1000


def test_a_failing_score_stretches_the_budget() -> None:
    pacer = TimeControl(1000, 4000).pacer()
    assert feed(pacer, [(7, 7)] * 2, [40, -100], [50, 200]) == [1000, 2000]
    # against the previous move's score too
    pacer = TimeControl(1000, 4000, previous_score=50).pacer()
    assert feed(pacer, [(7, 7)], [0], [50]) == [1250]
    # a decided game is no news
    pacer = TimeControl(1000, 4000, previous_score=3000).pacer()
    assert feed(pacer, [(7, 7)], [1500], [50]) == [1000]


def test_threats_on_the_board_stretch_the_budget() -> None:
    threes = position("h8 i8 j8", "h9 i9")  # black's open three, white to move
    assert has_threats(threes)
    pacer = TimeControl(1000, 4000).pacer(has_threats(threes))
    assert pacer.budget_ms() == int(1000 * THREAT_STRETCH)


def test_the_budget_never_passes_the_hard_cap() -> None:
    threatened = has_threats(position("h8 i8 j8", "h9 i9"))
    pacer = TimeControl(1000, 1800, previous_score=200).pacer(threatened)
    answers = feed(pacer, [(7, 7), (8, 8), (7, 7), (8, 8)], [0, -150, -300, -400],
                   [50, 100, 200, 400])
    assert answers == [1800] * 4


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(-2000, 2000)), min_size=1,
                max_size=30),
       st.integers(0, 5000), st.integers(0, 5000))
def test_no_sequence_of_iterations_passes_the_hard_cap(
        iterations: list[tuple[int, int]], soft: int, extra: int) -> None:
    control = TimeControl(soft, soft + extra)
    pacer = control.pacer()
    for depth, (move, score) in enumerate(iterations, start=1):
        until = pacer.iteration_done(depth=depth, move=(move, 0), score=score, mate=None,
                                     elapsed_ms=depth)
        assert control.soft_ms <= pacer.budget_ms() <= control.hard_ms
        assert until is None or until <= control.hard_ms


def test_a_found_win_is_not_stretched_for() -> None:
    pacer = TimeControl(1000, 4000).pacer()
    answers = feed(pacer, [(7, 7), (8, 8)], [20, 29990], [50, 100], mate=None)
    assert answers[1] == 1500  # a change of mind alone stretches ...
    assert pacer.iteration_done(depth=9, move=(9, 9), score=29990, mate=3,
                                elapsed_ms=120) == 1000  # ... but not once the win is found
    assert pacer.iteration_done(depth=10, move=(9, 9), score=29990, mate=3,
                                elapsed_ms=700) is None


# -- threats on the board -----------------------------------------------------------------


@pytest.mark.parametrize(("black", "white", "expected"), [
    ("h8", "", False),
    ("h8 i8", "h9 i9", False),
    ("h8 i8 j8", "h9 i9", True),  # open three
    ("h8 i8 k8", "h9 i9", True),  # split three
    ("h8 i8 j8", "g8 i9", False),  # a three closed at one end
    ("a8 b8 c8", "h9 i9", False),  # against the edge: closed
    ("h8 i9 j10 k11", "g7 a1 a3", True),  # a four, closed at one end
    ("h8 i8 j8", "k8 g8 a1", False),  # closed at both ends
    ("h8 i8 a1", "h9 i9 j9", True),  # white's open three counts too
    ("h8 h9 h11", "a1 a3 a5", True),  # split three on a column
])
def test_has_threats(black: str, white: str, expected: bool) -> None:
    assert has_threats(position(black, white)) is expected


def test_the_threat_scan_is_cheap() -> None:
    board = position("h8 i9 j10 a1 c1 e1 g1", "b2 d2 f2 h2 j2 l2 n2")
    has_threats(board)  # the kernels loaded before timing
    started = time.perf_counter()
    for _ in range(20):
        has_threats(board)
    assert (time.perf_counter() - started) / 20 < 0.02


# -- real searches with a clock ------------------------------------------------------------


def paced_search(board: Board, control: TimeControl) -> tuple[int, list[SearchInfo]]:
    infos: list[SearchInfo] = []
    result = think(board, Limit(), clock=control, on_info=infos.append)
    return result.time_ms, infos


def test_a_search_with_a_clock_stops_where_its_pacer_said() -> None:
    board = position("h8 i9 g7", "j10 i8")
    control = TimeControl(150, 3000)
    spent, infos = paced_search(board, control)
    assert infos, "at least one iteration finished"
    # replay the finished iterations through a pacer of our own: the search may not
    # have run past the last budget it was given
    pacer = control.pacer(has_threats(board))
    budget = pacer.budget_ms()
    for info in infos:
        until = pacer.iteration_done(depth=info.depth, move=info.pv[0], score=info.score,
                                     mate=info.mate, elapsed_ms=info.time_ms)
        if until is None:
            break
        budget = until
    assert spent <= budget + MARGIN_MS
    assert spent <= control.hard_ms + MARGIN_MS


def test_the_hard_cap_bounds_a_search() -> None:
    board = position("h8 i9 g7 j8 f6", "j10 i8 k9 e5")
    control = TimeControl(400, 400)
    started = time.perf_counter()
    result = think(board, Limit(time_ms=60_000), clock=control)
    assert (time.perf_counter() - started) * 1000 <= 400 + MARGIN_MS
    assert board.is_legal(result.move)


def test_a_forced_move_is_played_long_before_the_soft_budget() -> None:
    board = position("h8 i8 j8 k8 a1", "g8 h9 i9 a15")  # white must block black's four
    started = time.perf_counter()
    result = think(board.copy(), Limit(), clock=TimeControl(3000, 6000))
    assert (time.perf_counter() - started) < 1.0
    assert result.move == (11, 7)  # l8
