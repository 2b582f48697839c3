"""The engine entry points: first moves, errors, limits, determinism, levels and analysis."""

from __future__ import annotations

import random
import re
import threading
import time

import pytest
from ai_helpers import position, stones

from gridgames.gomoku import Board, Color, Rule
from gridgames.gomoku.ai import MAX_LEVEL, Limit, SearchInfo, analyse, get_level, think
from gridgames.gomoku.notation import parse_position

MARGIN_S = 0.35  # generous: a shared, busy machine


def middle_game(rule: Rule = Rule.FREESTYLE, size: int = 15, seed: int = 1) -> Board:
    """A position after a dozen quiet-ish engine moves."""
    board = Board(size, rule=rule)
    rng = random.Random(seed)
    centre = (size // 2, size // 2)
    board.push(centre)
    while len(board) < 12:
        x = centre[0] + rng.randint(-3, 3)
        y = centre[1] + rng.randint(-3, 3)
        if board.is_legal((x, y)):
            board.push((x, y))
            if board.outcome() is not None:
                board.pop()
    return board


@pytest.mark.parametrize(("width", "height"), [(15, 15), (20, 10), (7, 30), (64, 64), (5, 5)])
def test_first_move_is_the_centre_at_once(width: int, height: int) -> None:
    result = think(Board(width, height), Limit(time_ms=5000))
    assert result.move == (width // 2, height // 2)
    assert result.time_ms < 100


def test_game_over_and_full_board_are_errors() -> None:
    board = position("h8 i8 j8 k8 l8", "h9 i9 j9 k9")
    with pytest.raises(ValueError, match="game is over"):
        think(board, Limit(depth=2))
    full = Board(5)
    rng = random.Random(3)
    while full.outcome() is None:
        full.push(rng.choice(full.legal_moves))
    with pytest.raises(ValueError):
        think(full, Limit(depth=2))
    with pytest.raises(ValueError):
        analyse(full, Limit(depth=2))


def test_no_search_goes_deeper_than_the_empty_points() -> None:
    """Two points left on a 5x5 board: the search once reported depth 112, and spent its
    whole time repeating the same two plies."""
    board = Board(5)
    board.push_many(parse_position("a1a2a3a4b1b2b3b4c1c2c3c4d1d2d3d4e2e1e4e3a5b5c5", 5, 5))
    result = think(board, Limit(time_ms=3000))
    assert result.depth == 2


@pytest.mark.parametrize("rule", list(Rule))
def test_random_positions_get_legal_moves(rule: Rule) -> None:
    rng = random.Random(rule.code)
    for game in range(12):
        width, height = rng.choice([(15, 15), (9, 13), (19, 7), (6, 6)])
        board = Board(width, height, rule=rule)
        for _ in range(rng.randint(1, min(40, width * height - 2))):
            board.push(rng.choice(board.legal_moves))
            if board.outcome() is not None:
                board.pop()
                break
        result = think(board, Limit(nodes=1500, time_ms=3000), seed=game)
        assert board.is_legal(result.move), (board, result)
        greedy = think(board, Limit(depth=0), seed=game)
        assert board.is_legal(greedy.move)


def test_renju_black_never_plays_forbidden_points_in_self_play() -> None:
    rng = random.Random(7)
    for _ in range(3):
        board = Board(15, rule=Rule.RENJU)
        board.push((7, 7))
        while board.outcome() is None and len(board) < 60:
            limit = Limit(nodes=rng.choice([300, 1500]), time_ms=3000)
            move = think(board, limit).move
            assert board.is_legal(move), (board, move, board.foul(move))
            board.push(move)


@pytest.mark.parametrize(("width", "height"), [(9, 20), (25, 8), (64, 64)])
def test_non_square_and_large_boards(width: int, height: int) -> None:
    board = Board(width, height, rule=Rule.STANDARD)
    board.push((0, 0))  # a corner first
    board.push((width - 1, height - 1))
    board.push((1, 1))
    started = time.perf_counter()
    result = think(board, Limit(time_ms=300))
    assert time.perf_counter() - started < 0.3 + MARGIN_S
    assert board.is_legal(result.move)
    # both sides have four in a row at opposite corners: black, to move, wins first
    for move in [(width - 2, height - 1), (2, 2), (width - 3, height - 1), (3, 3)]:
        board.push(move)
    board.push((width - 4, height - 1))
    result = think(board, Limit(time_ms=300))
    assert result.move == (4, 4)
    assert result.mate == 1


@pytest.mark.parametrize("time_ms", [50, 300, 1000])
def test_time_limit_is_honoured(time_ms: int) -> None:
    board = middle_game()
    started = time.perf_counter()
    result = think(board, Limit(time_ms=time_ms))
    assert time.perf_counter() - started < time_ms / 1000 + MARGIN_S
    assert board.is_legal(result.move)


def test_large_board_time_limit() -> None:
    board = middle_game(size=64)
    started = time.perf_counter()
    think(board, Limit(time_ms=200))
    assert time.perf_counter() - started < 0.2 + MARGIN_S


def test_stop_event_ends_the_search() -> None:
    board = middle_game()
    stop = threading.Event()
    threading.Timer(0.2, stop.set).start()
    started = time.perf_counter()
    result = think(board, Limit(time_ms=60_000), stop=stop)
    assert time.perf_counter() - started < 0.2 + MARGIN_S
    assert board.is_legal(result.move)


def test_node_limit_is_deterministic() -> None:
    board = middle_game(Rule.RENJU, seed=5)
    first = think(board, Limit(nodes=20_000), seed=1)
    second = think(board, Limit(nodes=20_000), seed=1)
    assert (first.move, first.score, first.depth, first.pv, first.nodes) == (
        second.move, second.score, second.depth, second.pv, second.nodes,
    )
    assert first.nodes <= 20_000 + 256


def test_on_info_reports_each_depth() -> None:
    infos: list[SearchInfo] = []
    result = think(middle_game(), Limit(depth=4), on_info=infos.append)
    assert [i.depth for i in infos] == [1, 2, 3, 4]
    assert result.depth == 4
    assert infos[-1].pv[0] == result.move
    assert all(i.nodes > 0 for i in infos)


def test_greedy_level_blocks_a_four_and_takes_a_five() -> None:
    level = get_level(1).limit_for(1000)
    board = position("g9 a15 o15 o1", "h9 i9 j9 k9")
    assert think(board, level).move == stones("l9")[0]
    board = position("h8 i8 j8 k8", "h10 i10 j10 a1")
    assert think(board, level).move in stones("g8 l8")


def test_greedy_level_breaks_ties_at_random_but_reproducibly() -> None:
    board = Board(15)
    board.push((7, 7))
    moves = {think(board, Limit(depth=0), seed=s).move for s in range(30)}
    assert len(moves) > 1  # the eight neighbours score alike
    assert all(max(abs(x - 7), abs(y - 7)) == 1 for x, y in moves)
    assert think(board, Limit(depth=0), seed=4).move == think(board, Limit(depth=0), seed=4).move


@pytest.mark.parametrize("number", range(1, MAX_LEVEL + 1))
def test_every_level_plays(number: int) -> None:
    board = middle_game(seed=number)
    result = think(board, get_level(number).limit_for(300))
    assert board.is_legal(result.move)


def test_analyse_returns_distinct_moves_best_first() -> None:
    board = middle_game(seed=2)
    results = analyse(board, Limit(depth=3), multipv=4)
    assert len(results) == 4
    assert len({r.move for r in results}) == 4
    assert all(board.is_legal(r.move) for r in results)
    scores = [r.score for r in results]
    assert scores == sorted(scores, reverse=True)
    assert results[0].move == think(board, Limit(depth=3)).move


def test_arguments_of_the_wrong_kind_are_refused_saying_what_is_allowed() -> None:
    board = Board(15)
    board.push((7, 7))
    for call, says in [
        (lambda: think(board, None), "limit must be a Limit, such as Limit(time_ms=500)"),
        (lambda: think(board, 100), "limit must be a Limit"),
        (lambda: think("h8", Limit(depth=1)), "board must be a Board, such as Board(15)"),
        (lambda: think(board, Limit(depth=1), threads="2"),
         "threads must be a whole number from 1 to 64, got '2'"),
        (lambda: analyse(board, Limit(depth=1), multipv="3"),
         "multipv must be a whole number of 1 or more, got '3'"),
        (lambda: analyse(None, Limit(depth=1)), "board must be a Board"),
    ]:
        with pytest.raises(ValueError, match=re.escape(says)):
            call()


@pytest.mark.parametrize("limit", [Limit(depth=3), Limit(nodes=3_000), Limit(time_ms=150)])
def test_analyse_the_empty_board(limit: Limit) -> None:
    """Its lines were once a corner point "lost in one"."""
    results = analyse(Board(15, rule=Rule.RENJU), limit, multipv=3)
    assert len({r.move for r in results}) == 3
    assert (7, 7) in {r.move for r in results}
    for r in results:
        assert max(abs(r.move[0] - 7), abs(r.move[1] - 7)) <= 1
        assert r.mate is None and abs(r.score) < 300 and r.depth >= 2
        assert r.pv[0] == r.move and len(r.pv) >= 2
    assert [r.score for r in results] == sorted((r.score for r in results), reverse=True)


def test_analyse_with_few_candidates() -> None:
    board = position("g9 a15 o15 o1", "h9 i9 j9 k9")  # one move saves black
    results = analyse(board, Limit(depth=2), multipv=3)
    assert results[0].move == stones("l9")[0]
    assert len({r.move for r in results}) == len(results) >= 1


def test_white_to_move_uses_white_stones() -> None:
    board = position("h8 i8 j8 k8 a15", "g8 a1 o1 o15")
    assert board.to_move is Color.WHITE
    assert think(board, Limit(depth=0)).move == stones("l8")[0]


def played(moves: str, rule: Rule = Rule.FREESTYLE, size: int = 15) -> Board:
    board = Board(size, rule=rule)
    board.push_many(parse_position(moves, size, size))
    return board


def test_optional_arguments_of_the_wrong_kind_are_refused_before_the_search() -> None:
    """memory="m", clock=5, params=5 and weights=5 were AttributeErrors deep in the search;
    on_info=5 a TypeError after its first depth; a stop with no is_set() failed on the
    watchdog's thread, and the search ran on to its limit."""
    board = played("h8i9")
    for keyword, value, says in [
        ("memory", "m", "memory must be of type SearchMemory (such as SearchMemory()) or "
                        "None, got 'm'"),
        ("clock", 5, "clock must be of type TimeControl"),
        ("params", 5, "params must be of type SearchParams"),
        ("weights", 5, "weights must be of type EvalWeights"),
        ("on_info", 5, "on_info must be a function of a SearchInfo, got 5"),
        ("stop", True, "stop must have an is_set() method, such as a threading.Event, got True"),
    ]:
        with pytest.raises(ValueError, match=f"^{re.escape(says)}"):
            think(board, Limit(time_ms=5000), **{keyword: value})
        if keyword in ("memory", "stop"):
            with pytest.raises(ValueError, match=f"^{re.escape(says)}"):
                analyse(board, Limit(time_ms=5000), **{keyword: value})


def test_more_threads_than_the_engine_takes_are_refused() -> None:
    """threads=300 with 200 ms took twenty seconds on two cores, starting a helper each."""
    board = played("h8i9")
    with pytest.raises(ValueError, match=r"^threads must be a whole number from 1 to 64, "
                                         r"got 65$"):
        think(board, Limit(time_ms=200), threads=65)
    assert think(board, Limit(depth=1), threads=64).depth == 1  # no helpers: depth-limited


def test_numpy_integers_are_whole_numbers_for_the_engine() -> None:
    """Limit(time_ms=np.int64(500)), threads=np.int64(2) and get_level(np.int64(3)) were
    refused as not whole numbers."""
    np = pytest.importorskip("numpy")
    limit = Limit(time_ms=np.int64(500), nodes=np.int32(2000))
    assert limit == Limit(time_ms=500, nodes=2000) and type(limit.time_ms) is int
    assert get_level(np.int64(3)) is get_level(3)
    board = played("h8i9")
    assert think(board, Limit(depth=1), threads=np.int64(2)).depth == 1
    assert len(analyse(board, Limit(depth=1), multipv=np.int64(2))) == 2


def test_searches_on_two_threads_at_once_find_what_each_finds_alone() -> None:
    """The entry points keep no state between calls: two games searched at the same time
    (as the web app's players do) get the moves and scores of searches run one by one."""
    boards = [played("h8i9j10h9"), played("h8i9j10h9g7", Rule.RENJU),
              played("c3d4", size=9)]
    alone = [(r.move, r.score, r.nodes) for r in (think(b, Limit(depth=3)) for b in boards)]
    together: dict[int, tuple[object, ...]] = {}

    def search(index: int) -> None:
        result = think(boards[index], Limit(depth=3))
        together[index] = (result.move, result.score, result.nodes)

    threads = [threading.Thread(target=search, args=(i,)) for i in range(len(boards))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [together[i] for i in range(len(boards))] == alone
