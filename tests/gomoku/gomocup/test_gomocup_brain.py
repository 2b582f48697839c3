"""Protocol conformance of the brain, driven in-process line by line (the real engine thinks)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.gomocup.brain import Brain
from gridgames.gomoku.gomocup.protocol import parse_about, parse_forbid, parse_xy
from gridgames.gomoku.notation import shown

Talk = Callable[..., list[str]]

# A 5x5 board filled without a five: X = black (13), O = white (12).
FULL_5X5 = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"]


@pytest.fixture
def brain() -> Brain:
    return Brain(lambda line: None, warm_up=False, seed=1)


@pytest.fixture
def talk() -> Talk:
    """Send lines to a fresh brain; get the replies they caused (MESSAGE lines dropped)."""
    replies: list[str] = []
    brain = Brain(replies.append, warm_up=False, seed=1)

    def send(*lines: str, messages: bool = False) -> list[str]:
        start = len(replies)
        for line in lines:
            brain.handle(line)
        new = replies[start:]
        return new if messages else [r for r in new if not r.startswith("MESSAGE")]

    send.brain = brain  # type: ignore[attr-defined]
    return send


def board_lines(own: list[tuple[int, int]], other: list[tuple[int, int]]) -> list[str]:
    return [f"{x},{y},1" for x, y in own] + [f"{x},{y},2" for x, y in other]


def quick(talk: Talk, size: int = 15, rule: int | None = None) -> None:
    """START a game in which every move is played at once."""
    lines = [f"START {size}", "INFO timeout_turn 0"]
    if rule is not None:
        lines.insert(0, f"INFO rule {rule}")
    assert talk(*lines) == ["OK"]


# -- START / RECTSTART / RESTART -------------------------------------------------------


@pytest.mark.parametrize("command", ["START 15", "start 20", "Start 5", "START 64",
                                     "RECTSTART 20,15", "rectstart 7,30"])
def test_start_sizes(talk: Talk, command: str) -> None:
    assert talk(command) == ["OK"]


@pytest.mark.parametrize(("command", "says"), [
    ("START 4", "5 to 64"), ("START 65", "5 to 64"), ("START", "whole number"),
    ("START fifteen", "whole number"), ("START 15.0", "whole number"),
    ("RECTSTART 20", "width,height"), ("RECTSTART 3,20", "5 to 64"),
    ("RECTSTART 20,x", "x,y"),
])
def test_start_refuses_bad_sizes(talk: Talk, command: str, says: str) -> None:
    (reply,) = talk(command)
    assert reply.startswith("ERROR") and says in reply


@pytest.mark.parametrize("command", ["BEGIN", "TURN 7,7", "RESTART", "TAKEBACK 7,7",
                                     "YXSHOWFORBID", "YXNBEST 2", "PLAY 7,7"])
def test_commands_before_start(talk: Talk, command: str) -> None:
    (reply,) = talk(command)
    assert reply.startswith("ERROR") and "START" in reply


def test_board_before_start(talk: Talk) -> None:
    (reply,) = talk("BOARD", "7,7,1", "DONE")
    assert reply.startswith("ERROR") and "START" in reply


def test_restart_clears_the_board(talk: Talk) -> None:
    quick(talk)
    talk("TURN 7,7")
    assert talk("RESTART") == ["OK"]
    assert parse_xy(talk("BEGIN")[0]) == (7, 7)


def test_unknown_commands(talk: Talk) -> None:
    assert talk("FOO")[0].startswith("UNKNOWN")
    assert talk("DONE")[0].startswith("UNKNOWN")
    assert talk("", "   ") == []
    assert talk("START 15") == ["OK"]  # still serving


def test_long_input_is_quoted_cut_short_as_everywhere_else(talk: Talk) -> None:
    """Whatever the brain quotes of a command is cut by notation.shown, the one cut."""
    word, digits = "X" * 5000, "5" * 5000
    assert talk(word)[0].split(";")[0] == f"UNKNOWN command {shown(word)}"
    quick(talk)
    assert talk(f"TURN {digits}") == [
        f"ERROR TURN {shown(digits)}: expected a point as two numbers x,y (like 7,7), got "
        f"{shown(digits)!r}"]
    assert talk(f"INFO timeout_turn {digits}x", messages=True) == [
        f"MESSAGE INFO timeout_turn {shown(digits + 'x')} ignored: timeout_turn must be a "
        f"whole number, got {shown(digits + 'x')!r}"]
    # more digits than Python converts, and a refused rule held back for the next command
    assert talk(f"TURN 1,{digits}") == [
        f"ERROR TURN {shown('1,' + digits)}: y {shown(digits)} has too many digits to be read"]
    talk(f"INFO rule {digits}")
    assert talk("BEGIN") == [f"ERROR INFO rule {shown(digits)}: rule {shown(digits)} has too "
                             "many digits to be read"]


# -- moves -----------------------------------------------------------------------------


def test_begin_plays_the_centre(talk: Talk) -> None:
    quick(talk)
    assert talk("BEGIN") == ["7,7"]
    (reply,) = talk("BEGIN")
    assert reply.startswith("ERROR") and "not empty" in reply


def test_turn_answers_a_legal_move(talk: Talk) -> None:
    quick(talk)
    board = Board(15)
    for _ in range(3):
        opponent = next(p for p in [(7, 7), (9, 9), (3, 12), (0, 0)] if board.is_legal(p))
        board.push(opponent)
        (reply,) = talk(f"TURN {opponent[0]},{opponent[1]}")
        move = parse_xy(reply)
        assert board.is_legal(move)
        board.push(move)


@pytest.mark.parametrize(("command", "says"), [
    ("TURN 15,0", "15,0 is off the 15x15 board"), ("TURN -1,3", "-1,3 is off the 15x15"),
    ("TURN 7", "x,y"), ("TURN a,b", "x,y"), ("TURN", "x,y"), ("TURN 7,7,7", "x,y"),
])
def test_turn_bad_arguments(talk: Talk, command: str, says: str) -> None:
    quick(talk)
    (reply,) = talk(command)
    assert reply.startswith("ERROR") and says in reply
    assert len(talk("TURN 7,7")) == 1  # still serving


def test_turn_on_an_occupied_point(talk: Talk) -> None:
    quick(talk)
    move = talk("TURN 7,7")[0]
    (reply,) = talk(f"TURN {move}")
    # the point named as the protocol names it, then in renju notation
    assert reply.startswith(f"ERROR TURN {move}: {move} (") and "is occupied by" in reply


def test_turn_that_ends_the_game(talk: Talk) -> None:
    quick(talk)
    # The opponent has four in a row; after its five there is no move to make.
    own = [(0, 0), (0, 2), (0, 4), (0, 6)]
    other = [(3, 7), (4, 7), (5, 7), (6, 7)]
    assert talk("YXBOARD", *board_lines(own, other), "DONE", "PLAY 14,14") == ["14,14"]
    (reply,) = talk("TURN 7,7")
    assert reply.startswith("ERROR") and "game is over" in reply and "won" in reply
    assert talk("RESTART") == ["OK"]


def test_last_empty_point_and_full_board(talk: Talk) -> None:
    quick(talk, size=5)
    own = [(x, y) for y in range(5) for x in range(5) if FULL_5X5[y][x] == "X"]
    other = [(x, y) for y in range(5) for x in range(5) if FULL_5X5[y][x] == "O"]
    own.remove((4, 4))
    assert talk("BOARD", *board_lines(own, other), "DONE") == ["4,4"]
    talk("YXBOARD", *board_lines(own, other), "DONE")
    (reply,) = talk("TURN 4,4")  # the opponent fills the board: a draw
    assert reply.startswith("ERROR") and "draw" in reply


def test_takeback(talk: Talk) -> None:
    quick(talk)
    move = talk("TURN 7,7")[0]
    (reply,) = talk("TAKEBACK 7,7")
    assert reply.startswith("ERROR") and move in reply
    assert talk(f"TAKEBACK {move}") == ["OK"]
    assert talk("TAKEBACK 7,7") == ["OK"]
    (reply,) = talk("TAKEBACK 7,7")
    assert reply.startswith("ERROR") and "empty" in reply
    assert talk("BEGIN") == ["7,7"]


def test_play_forces_a_move(talk: Talk) -> None:
    quick(talk)
    assert talk("PLAY 3,4") == ["3,4"]
    assert talk("TAKEBACK 3,4") == ["OK"]


# -- BOARD -----------------------------------------------------------------------------


def test_board_as_black_and_as_white(talk: Talk) -> None:
    quick(talk)
    own, other = [(7, 7)], [(8, 8)]
    move = parse_xy(talk("BOARD", *board_lines(own, other), "DONE")[0])
    assert move not in own + other
    board: Board = talk.brain.board  # type: ignore[attr-defined]
    assert board[move] is board[(7, 7)]  # we were black: our stones and the reply match
    other = [(7, 7), (9, 9)]
    move = parse_xy(talk("BOARD", *board_lines([(8, 8)], other), "DONE")[0])
    board = talk.brain.board  # type: ignore[attr-defined]
    assert board[move] is board[(8, 8)]


def test_board_is_case_insensitive(talk: Talk) -> None:
    quick(talk)
    (reply,) = talk("board", "7,7,2", "done")
    assert parse_xy(reply) != (7, 7)


def test_board_replaces_the_position(talk: Talk) -> None:
    quick(talk)
    talk("BOARD", "7,7,2", "DONE")
    talk("BOARD", "3,3,2", "DONE")
    board: Board = talk.brain.board  # type: ignore[attr-defined]
    assert board[(7, 7)] is None and len(board) == 2


@pytest.mark.parametrize(("lines", "says"), [
    (["15,3,1"], "off the"), (["7,7,1", "7,7,2"], "twice"), (["7,7,5"], "field must be"),
    (["7,7"], "x,y,field"), (["a,b,1"], "x,y"), (["7,7,x"], "whole number"),
    (["7,7,1", "8,8,1"], "cannot be this brain's turn"),
])
def test_board_bad_lines(talk: Talk, lines: list[str], says: str) -> None:
    quick(talk)
    (reply,) = talk("BOARD", *lines, "DONE")
    assert reply.startswith("ERROR") and says in reply


def test_board_with_a_five_already(talk: Talk) -> None:
    quick(talk)
    own = [(0, 0), (0, 2), (0, 4), (14, 14), (14, 12)]
    other = [(3, 7), (4, 7), (5, 7), (6, 7), (7, 7)]
    (reply,) = talk("BOARD", *board_lines(own, other), "DONE")
    assert reply.startswith("ERROR BOARD: ") and "over" in reply


def test_board_without_done(talk: Talk) -> None:
    quick(talk)
    replies = talk("BOARD", "7,7,2", "START 15")
    assert replies[0].startswith("ERROR") and "DONE" in replies[0]
    assert replies[1] == "OK"


def test_renju_board_in_move_order_and_a_foul(talk: Talk) -> None:
    quick(talk, rule=4)
    # black 7,7 8,7 then 9,7 would be fine; listing black's double three as played is a foul
    lines = ["7,5,1", "0,0,2", "7,6,1", "0,2,2", "5,7,1", "0,4,2", "6,7,1", "0,6,2", "7,7,1",
             "0,8,2"]
    (reply,) = talk("BOARD", *lines, "DONE")
    assert reply.startswith("ERROR") and "forbidden" in reply


# -- INFO ------------------------------------------------------------------------------


def test_info_is_never_answered(talk: Talk) -> None:
    assert talk("INFO timeout_turn 1000", "INFO timeout_match 100000", "INFO time_left 90000",
                "INFO max_memory 367001600", "INFO game_type 1", "INFO rule 1",
                "INFO folder /tmp", "INFO evaluate 7,7", "INFO no_such_key 3",
                "INFO thread_num 4") == []
    brain: Brain = talk.brain  # type: ignore[attr-defined]
    assert (brain.timeout_turn, brain.timeout_match, brain.time_left) == (1000, 100000, 90000)
    assert brain.rule is Rule.STANDARD
    assert brain.threads == 4


def test_an_unknown_rule_refuses_the_next_command(talk: Talk) -> None:
    """Playing on under another rule would be wrong, and managers read no reply to INFO."""
    assert talk("START 15") == ["OK"]
    assert talk("INFO rule 5", "INFO game_type 1") == []
    (reply,) = talk("TURN 7,7")
    assert reply.startswith("ERROR INFO rule 5") and "unknown Gomocup rule" in reply
    assert len(talk("INFO timeout_turn 0", "TURN 7,7")) == 1  # reported once, then serving


@pytest.mark.parametrize(("info", "says"), [
    ("INFO max_memory 1000", "too little memory"), ("INFO timeout_turn -5", "0 or more"),
    ("INFO timeout_turn soon", "whole number"), ("INFO time_left", "whole number"),
    ("INFO thread_num 0", "1 or more"),
])
def test_an_unusable_info_value_is_ignored_and_the_game_goes_on(talk: Talk, info: str,
                                                                says: str) -> None:
    """A manager that sends one must not see its next command go unanswered."""
    assert talk("START 15", "INFO timeout_turn 100", "INFO max_memory 367001600") == ["OK"]
    brain: Brain = talk.brain  # type: ignore[attr-defined]
    before = (brain.timeout_turn, brain.time_left, brain.threads, brain.max_memory)
    (message,) = talk(info, messages=True)
    assert message.startswith(f"MESSAGE {info} ignored:") and says in message
    assert (brain.timeout_turn, brain.time_left, brain.threads, brain.max_memory) == before
    (reply,) = talk("TURN 7,7")
    assert brain.board is not None and brain.board.move_stack[-1] == parse_xy(reply)


def test_more_threads_than_the_brain_uses_are_capped(talk: Talk) -> None:
    (message,) = talk("INFO thread_num 64", messages=True)
    assert message == "MESSAGE INFO thread_num 64: searching on 8 threads, the most this brain uses"
    assert talk.brain.threads == 8  # type: ignore[attr-defined]


def test_huge_info_values_are_no_limit_rather_than_a_failed_search(talk: Talk) -> None:
    """max_node past the engine's 64-bit counters once failed every move
    (ERROR TURN failed: OverflowError; over the pipes, an instant move instead of a search)."""
    huge = "9" * 30
    assert talk("START 15", "INFO timeout_turn 150", f"INFO max_node {huge}",
                f"INFO max_depth {huge}", f"INFO timeout_match {huge}",
                f"INFO time_left {huge}") == ["OK"]
    brain: Brain = talk.brain  # type: ignore[attr-defined]
    assert (brain.max_nodes, brain.max_depth) == (None, None)
    assert brain.timeout_match == brain.time_left == 2147483647
    (reply,) = talk("TURN 7,7")
    assert brain.board is not None and brain.board.move_stack[-1] == parse_xy(reply)
    assert talk(f"INFO timeout_turn {huge}") == []
    assert brain.timeout_turn == 2147483647
    assert talk("INFO timeout_turn 100", "INFO max_node 3000") == []
    assert brain.max_nodes == 3000


def test_a_good_value_replaces_a_refused_one_before_it_is_reported(talk: Talk) -> None:
    assert talk("INFO rule 99", "INFO rule 4", "START 15") == ["OK"]
    assert talk.brain.board.rule is Rule.RENJU  # type: ignore[attr-defined]
    # a good value of another key leaves the refusal standing
    talk("INFO rule 99", "INFO timeout_turn 100")
    (reply,) = talk("START 15")
    assert reply.startswith("ERROR INFO rule 99") and "allowed: 0 (freestyle)" in reply


def test_pending_error_on_board_comes_after_done(talk: Talk) -> None:
    quick(talk)
    talk("INFO rule 77")
    (reply,) = talk("BOARD", "7,7,2", "DONE")
    assert reply.startswith("ERROR") and "77" in reply


@pytest.mark.parametrize(("number", "rule"), [(0, Rule.FREESTYLE), (1, Rule.STANDARD),
                                              (2, Rule.RENJU), (4, Rule.RENJU),
                                              (8, Rule.CARO), (9, Rule.CARO_EXACT)])
def test_info_rule(talk: Talk, number: int, rule: Rule) -> None:
    talk(f"INFO rule {number}", "START 15")
    assert talk.brain.board.rule is rule  # type: ignore[attr-defined]


def test_a_match_clock_is_paced_by_a_time_control(brain: Brain) -> None:
    import time

    from gridgames.gomoku.ai import get_level

    now = time.perf_counter()
    board = Board(15)
    brain.timeout_turn = 5000
    assert brain.time_control(board, now) is None  # no match clock: the turn budget
    brain.time_left = 2147483647
    assert brain.time_control(board, now) is None  # an unlimited match
    brain.time_left = 20_000
    control = brain.time_control(board, now)
    assert control is not None
    assert 600 < control.soft_ms < 1200 < 2 * control.soft_ms < control.hard_ms < 5000 - 150
    brain.level = get_level(3)  # bounded by depth and nodes: a fixed limit, not a clock
    assert brain.time_control(board, now) is None
    brain.level = get_level("max")
    assert brain.time_control(board, now) is not None
    # INFO max_depth / max_node cap the paced search (Yixin-Board sends 100 and 10^9 with
    # every time-based setting, which once turned the pacing off)
    brain.max_depth, brain.max_nodes = 100, 10**9
    assert brain.time_control(board, now) is not None
    assert brain.limit_for(control.hard_ms).depth == 100


def test_a_nearly_spent_clock_plays_at_once(talk: Talk) -> None:
    import time

    from gridgames.gomoku.ai import GREEDY_GROUPS, warm_up

    warm_up(groups=GREEDY_GROUPS)  # loading the kernels is not the move's time
    assert talk("START 15", "INFO timeout_turn 5000", "INFO timeout_match 20000",
                "INFO time_left 100") == ["OK"]
    started = time.perf_counter()
    reply = talk("TURN 7,7")
    assert (time.perf_counter() - started) < 0.1  # the greedy scorer, not a search
    assert parse_xy(reply[0]) != (7, 7)


def test_the_previous_score_is_kept_for_the_next_move(talk: Talk) -> None:
    assert talk("START 15", "INFO timeout_turn 300", "INFO timeout_match 20000",
                "INFO time_left 5000") == ["OK"]
    brain = talk.brain  # type: ignore[attr-defined]
    talk("TURN 7,7")
    assert brain._previous_score is not None  # the last iteration's score
    talk("RESTART")
    assert brain._previous_score is None


def test_budget_respects_turn_time_and_time_left(brain: Brain) -> None:
    brain.timeout_turn = 2000
    assert 1500 <= brain.move_budget_ms() < 2000
    brain.time_left = 2147483647  # unlimited
    assert 1500 <= brain.move_budget_ms() < 2000
    brain.time_left = 3000
    assert 0 < brain.move_budget_ms() <= 300
    brain.time_left = -50
    assert brain.move_budget_ms() == 0
    assert brain.limit_for(0).time_ms is None  # instant play: a shallow fixed depth


def test_level_caps_the_limit() -> None:
    from gridgames.gomoku.ai import get_level

    brain = Brain(lambda line: None, warm_up=False, level=get_level(2))
    limit = brain.limit_for(800)
    assert limit.depth == get_level(2).limit.depth and limit.time_ms == 800
    brain.max_depth = 1
    assert brain.limit_for(800).depth == 1


# -- ABOUT and the Yixin extensions -------------------------------------------------------


def test_about(talk: Talk) -> None:
    (reply,) = talk("ABOUT")
    about = parse_about(reply)
    assert about["name"] == "gridgames" and about["version"]


RENJU_DOUBLE_THREE = ["5,7,1", "0,0,2", "6,7,1", "0,2,2", "7,5,1", "0,4,2", "7,6,1", "0,6,2"]


def test_yxshowforbid(talk: Talk) -> None:
    quick(talk, rule=4)
    assert talk("YXBOARD", *RENJU_DOUBLE_THREE, "DONE") == []
    (reply,) = talk("YXSHOWFORBID")
    assert (7, 7) in parse_forbid(reply) and reply.endswith(".")
    assert reply == "FORBID " + "".join(f"{x:02d}{y:02d}" for x, y in sorted(
        parse_forbid(reply), key=lambda p: (p[1], p[0]))) + "."
    white_to_move = ["5,7,2", "0,0,1", "6,7,2", "0,2,1", "7,5,2", "0,4,1", "7,6,2"]
    assert talk("YXBOARD", *white_to_move, "DONE") == []
    assert talk("YXSHOWFORBID") == ["FORBID ."]


def test_yxshowforbid_outside_renju(talk: Talk) -> None:
    quick(talk)
    talk("YXBOARD", *RENJU_DOUBLE_THREE, "DONE")
    assert talk("YXSHOWFORBID") == ["FORBID ."]


def test_black_never_plays_a_foul(talk: Talk) -> None:
    quick(talk, rule=4)
    (reply,) = talk("BOARD", *RENJU_DOUBLE_THREE, "DONE")
    assert parse_xy(reply) != (7, 7)


def test_yxboard_errors(talk: Talk) -> None:
    quick(talk)
    (reply,) = talk("YXBOARD", "7,7,1", "7,7,2", "DONE")
    assert reply.startswith("ERROR")


def test_yxnbest(talk: Talk) -> None:
    quick(talk)
    replies = talk("YXBOARD", "7,7,2", "8,7,1", "6,6,2", "DONE", "YXNBEST 3", messages=True)
    messages = [r for r in replies if r.startswith("MESSAGE")]
    assert 1 <= len(messages) <= 3 and all("multipv" in m and " pv " in m for m in messages)
    move = parse_xy(replies[-1])
    assert move not in [(7, 7), (8, 7), (6, 6)]
    for bad in ("YXNBEST 0", "YXNBEST x"):
        assert talk(bad)[0].startswith("ERROR")


def test_stop_when_idle_and_hash_and_info(talk: Talk) -> None:
    assert talk("YXSTOP", "STOP") == []
    assert talk("YXHASHCLEAR", messages=True)[0].startswith("MESSAGE")
    replies = talk("YXSHOWINFO", messages=True)
    assert replies and all(r.startswith("MESSAGE") for r in replies)


@pytest.mark.parametrize("clear", ["YXHASHCLEAR", "RESTART", "START 15"])
def test_tables_are_kept_between_moves_until_a_new_game_or_hash_clear(talk: Talk,
                                                                      clear: str) -> None:
    assert talk("START 15", "INFO timeout_turn 400") == ["OK"]
    talk("BEGIN")
    talk("TURN 8,8")
    brain = talk.brain  # type: ignore[attr-defined]
    table = brain._search_memory(brain.board).table(brain.board)
    assert (table[:, 1] != 0).sum() > 100
    talk(clear)
    board = brain.board
    assert (brain._search_memory(board).table(board)[:, 1] != 0).sum() == 0


def test_search_messages_while_thinking(talk: Talk) -> None:
    talk("START 15", "INFO timeout_turn 300")
    replies = talk("TURN 7,7", messages=True)
    assert any(r.startswith("MESSAGE depth") and " pv " in r for r in replies[:-1])
    parse_xy(replies[-1])


def test_a_win_found_before_the_first_iteration_is_reported_too(talk: Talk) -> None:
    # Black (to move) wins by continuous fours: the threat solvers find it before the
    # search's first iteration, and a manager still hears the depth, score and nodes.
    moves = [(7, 7), (5, 5), (9, 8), (5, 9), (8, 9), (5, 8), (7, 10), (5, 6), (5, 7),
             (6, 11)]
    talk("START 15", "INFO timeout_turn 300")
    replies = talk("BOARD", *board_lines(moves[::2], moves[1::2]), "DONE", messages=True)
    messages = [r for r in replies[:-1] if r.startswith("MESSAGE depth")]
    assert messages and " ev +M" in messages[-1] and " pv " in messages[-1]
    assert parse_xy(replies[-1]) == parse_xy(messages[-1].split(" pv ")[1].split()[0])


# -- Swap2 -------------------------------------------------------------------------------


def test_swap2_first_three_stones(talk: Talk) -> None:
    talk("START 15", "INFO timeout_turn 300")
    (reply,) = talk("SWAP2BOARD", "DONE")
    stones = [parse_xy(p) for p in reply.split()]
    assert len(stones) == 3 and len(set(stones)) == 3
    Board(15).push_many(stones)


def test_swap2_three_stones(talk: Talk) -> None:
    talk("START 15", "INFO timeout_turn 300")
    (reply,) = talk("SWAP2BOARD", "7,7", "8,7", "9,9", "DONE")
    board = Board(15)
    board.push_many([(7, 7), (8, 7), (9, 9)])
    if reply != "SWAP":
        moves = [parse_xy(p) for p in reply.split()]
        assert len(moves) in (1, 2)
        board.push_many(moves)


def test_swap2_five_stones(talk: Talk) -> None:
    talk("START 15", "INFO timeout_turn 300")
    (reply,) = talk("SWAP2BOARD", "7,7", "8,7", "9,9", "8,8", "8,6", "DONE")
    if reply != "SWAP":
        board = Board(15)
        board.push_many([(7, 7), (8, 7), (9, 9), (8, 8), (8, 6)])
        board.push(parse_xy(reply))


@pytest.mark.parametrize("lines", [["7,7"], ["7,7", "8,8", "9,9", "1,1"], ["7,7", "7,7", "1,1"],
                                   ["99,0", "1,1", "2,2"]])
def test_swap2_bad_positions(talk: Talk, lines: list[str]) -> None:
    quick(talk)
    (reply,) = talk("SWAP2BOARD", *lines, "DONE")
    assert reply.startswith("ERROR")


# -- fuzzing ------------------------------------------------------------------------------

_WORDS = ["START", "RECTSTART", "RESTART", "BEGIN", "TURN", "BOARD", "YXBOARD", "SWAP2BOARD",
          "DONE", "INFO", "TAKEBACK", "PLAY", "ABOUT", "YXSHOWFORBID", "YXNBEST", "YXSTOP",
          "timeout_turn", "rule", "7,7", "1,2,1", "0,0,2", "99", "-1", "5", "9", "x,y", ","]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(
    st.lists(st.sampled_from(_WORDS), min_size=1, max_size=3).map(" ".join),
    st.text(max_size=12),
), max_size=12))
def test_no_input_breaks_it(lines: list[str]) -> None:
    replies: list[str] = []
    brain = Brain(replies.append, warm_up=False, seed=0)
    brain.handle("INFO timeout_turn 0")
    for line in lines:
        brain.handle(line)
    for reply in replies:
        assert "\n" not in reply and "\r" not in reply
        assert reply.split(" ")[0] in ("OK", "ERROR", "UNKNOWN", "MESSAGE", "FORBID", "SWAP") \
            or reply.startswith("name=") or all(parse_xy(p) for p in reply.split()), reply
        assert "failed:" not in reply, reply  # no internal error, only explained refusals
    # close any block; a refused rule is reported by the first START, not by ABOUT
    for line in ("DONE", "ABOUT", "START 9", "START 9"):
        brain.handle(line)
    assert replies[-1] == "OK"
