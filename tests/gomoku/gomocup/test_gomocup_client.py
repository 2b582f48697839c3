"""The client: our brain as a real subprocess, and the scripted fake brain for error paths."""

from __future__ import annotations

import os
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from gomocup_helpers import brain_command, fake_command

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import Limit
from gridgames.gomoku.gomocup import (
    Engine,
    EngineError,
    EngineStartError,
    EngineTerminatedError,
    EngineTimeoutError,
    IllegalEngineMoveError,
)


@pytest.fixture(scope="module")
def ours() -> Iterator[Engine]:
    with Engine(brain_command(), start_timeout_ms=120_000, tolerance_ms=500) as engine:
        yield engine


def test_our_brain_plays_a_game_against_itself(ours: Engine) -> None:
    board = Board(9)
    for _ in range(6):
        result = ours.play(board, Limit(time_ms=150))
        assert board.is_legal(result.move)
        assert result.time_ms <= 150 + 500
        board.push(result.move)
    assert result.info.depth is not None and result.info.pv
    assert any(m.startswith("depth") for m in result.messages)


def test_a_continued_game_is_sent_as_turn(ours: Engine) -> None:
    board = Board(15)
    board.push(ours.play(board, Limit(time_ms=0)).move)
    turns = []
    for _ in range(2):
        opponent = next(p for p in [(0, 0), (14, 14), (0, 14)] if board.is_legal(p))
        board.push(opponent)
        turns.append(f"> TURN {opponent[0]},{opponent[1]}")
        board.push(ours.play(board, Limit(time_ms=0)).move)
    sent = [line for line in ours.transcript if line.startswith("> ")]
    assert turns[0] in sent and sent[-1] == turns[1]


def test_rule_and_size_changes_start_a_new_game(ours: Engine) -> None:
    board = Board(20, 15, rule=Rule.STANDARD)
    board.push_many([(10, 7), (11, 8), (12, 9)])
    move = ours.play(board, Limit(time_ms=0)).move
    assert board.is_legal(move)
    sent = [line for line in ours.transcript if line.startswith("> ")]
    assert "> RECTSTART 20,15" in sent and "> INFO rule 1" in sent and "> BOARD" in sent


def test_about_and_forbidden_points(ours: Engine) -> None:
    assert ours.about()["name"] == "gridgames"
    board = Board(15, rule=Rule.RENJU)
    board.push_many([(5, 7), (0, 0), (6, 7), (0, 2), (7, 5), (0, 4), (7, 6), (0, 6)])
    assert ours.forbidden_points(board) == board.forbidden_points() == {(7, 7)}
    board.push((14, 14))
    assert ours.forbidden_points(board) == set()  # white to move


def test_time_left_bounds_the_move(ours: Engine) -> None:
    board = Board(15)
    board.push((7, 7))
    result = ours.play(board, Limit(time_ms=20_000), time_left_ms=400, match_time_ms=60_000)
    assert result.time_ms <= 400
    ours.play(board, Limit(time_ms=0), time_left_ms=2147483647, match_time_ms=0)


# -- the scripted fake brain ------------------------------------------------------------


def test_fake_good_and_chatty() -> None:
    with Engine(fake_command("chatty")) as engine:
        assert engine.about()["name"] == "fake-chatty"
        result = engine.play(Board(15), Limit(time_ms=500))
        assert result.move == (7, 7)
        assert result.info.depth == 4 and result.info.mate == -7 and result.info.nodes == 2000
        assert result.info.pv == ((8, 8), (7, 7))
        assert len(result.messages) == 2


def test_crash_raises_terminated() -> None:
    with Engine(fake_command("crash")) as engine, pytest.raises(EngineTerminatedError,
                                                                 match="exit code 3"):
        engine.play(Board(15), Limit(time_ms=500))


def test_hang_raises_timeout_on_time() -> None:
    with Engine(fake_command("hang"), tolerance_ms=200) as engine:
        started = time.perf_counter()
        with pytest.raises(EngineTimeoutError):
            engine.play(Board(15), Limit(time_ms=100))
        assert time.perf_counter() - started < 2.0


def test_after_a_timeout_the_engine_is_relaunched() -> None:
    with Engine(fake_command("slow", 600), tolerance_ms=100) as engine:
        first = engine.pid
        with pytest.raises(EngineTimeoutError):
            engine.play(Board(15), Limit(time_ms=100))
        result = engine.play(Board(15), Limit(time_ms=2000))
        assert result.move == (7, 7) and engine.pid != first


@pytest.mark.parametrize(("mode", "error"), [("garbage", "expected a move"),
                                             ("error", "not in the mood")])
def test_protocol_errors(mode: str, error: str) -> None:
    with Engine(fake_command(mode)) as engine:
        first = engine.pid
        with pytest.raises(EngineError, match=error):
            engine.play(Board(15), Limit(time_ms=500))
        # It may still be thinking and deaf to commands: the next request starts it afresh.
        assert engine.about()["name"] == f"fake-{mode}" and engine.pid != first


@pytest.mark.parametrize(("mode", "reason"), [("illegal", "occupied"), ("offboard", "off")])
def test_illegal_moves(mode: str, reason: str) -> None:
    board = Board(15)
    board.push((3, 3))
    with Engine(fake_command(mode)) as engine, pytest.raises(IllegalEngineMoveError) as caught:
        engine.play(board, Limit(time_ms=500))
    assert reason in caught.value.reason


@pytest.mark.parametrize("mode", ["cr", "crlf"])
def test_lines_ended_by_cr_or_crlf(mode: str) -> None:
    """crlf also pads its moves with spaces (" 6 , 6 ")."""
    with Engine(fake_command(mode)) as engine:
        assert engine.about()["name"] == f"fake-{mode}"
        board = Board(15)
        board.push(engine.play(board, Limit(time_ms=500)).move)
        board.push((0, 0))
        assert engine.play(board, Limit(time_ms=500)).move == (6, 6)


def test_suggest_is_answered_with_play() -> None:
    with Engine(fake_command("suggest")) as engine:
        assert engine.play(Board(15), Limit(time_ms=500)).move == (7, 7)
        assert "> PLAY 7,7" in engine.transcript


def test_restart_before_board(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    env = {"FAKE_BRAIN_LOG": str(log)}
    import os

    env.update({k: v for k, v in os.environ.items() if k not in env})
    with Engine(fake_command("additive"), env=env) as engine:
        board = Board(15)
        board.push_many([(7, 7), (8, 8)])
        engine.play(board, Limit(time_ms=500))
        other = Board(15)
        other.push_many([(1, 1), (2, 2)])
        assert engine.play(other, Limit(time_ms=500)).move == (7, 7)  # its old stones are gone
    lines = log.read_text().splitlines()
    assert lines.count("RESTART") == 1 and lines.index("RESTART") < len(lines) - 4
    assert "INFO timeout_turn 500" in lines and "INFO rule 0" in lines


def test_without_restart_an_additive_brain_keeps_old_stones() -> None:
    with Engine(fake_command("additive"), restart_before_board=False) as engine:
        board = Board(15)
        board.push_many([(7, 7), (8, 8)])
        engine.play(board, Limit(time_ms=500))
        other = Board(15)
        other.push_many([(1, 1), (2, 2)])
        # The brain still believes 7,7 is taken and answers with another point.
        assert engine.play(other, Limit(time_ms=500)).move != (7, 7)


@pytest.mark.parametrize("mode", ["norestart", "restart-error"])
def test_a_restart_answered_but_with_ok_relaunches(mode: str) -> None:
    """RESTART is optional: a brain may answer it UNKNOWN, or ERROR as Rapfi-like brains
    answer what they do not know. Like Piskvork, the client then starts the brain afresh
    instead of losing the game."""
    with Engine(fake_command(mode)) as engine:
        board = Board(15)
        board.push_many([(7, 7), (8, 8)])
        engine.play(board, Limit(time_ms=500))
        first = engine.pid
        other = Board(15)
        other.push_many([(1, 1), (2, 2)])
        assert engine.play(other, Limit(time_ms=500)).move == (7, 7)
        assert engine.pid != first and "> RESTART" in engine.transcript


def test_forbid_reply_of_the_fake() -> None:
    with Engine(fake_command("good")) as engine:
        board = Board(15, rule=Rule.RENJU)
        board.push_many([(7, 7), (8, 8)])
        assert engine.forbidden_points(board) == {(7, 7), (8, 8)}


def test_a_missing_program() -> None:
    with pytest.raises(EngineTerminatedError, match="cannot start"):
        Engine(["/nonexistent/pbrain-nothing"])


def test_quit_twice_and_play_after_quit() -> None:
    engine = Engine(fake_command("good"))
    engine.quit()
    engine.quit()
    assert not engine.is_alive()
    assert engine.play(Board(15), Limit(time_ms=500)).move == (7, 7)  # relaunched
    engine.quit()


def test_game_over_is_refused() -> None:
    board = Board(5)
    board.push_many([(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0)])
    with Engine(fake_command("good")) as engine, pytest.raises(ValueError, match="over"):
        engine.play(board)


def test_an_engine_command_of_the_wrong_kind_is_refused() -> None:
    for command in (None, 42, [None]):
        with pytest.raises(ValueError, match="the engine command must be a command line"):
            Engine(command)  # type: ignore[arg-type]


# -- brains that misbehave as real ones do -------------------------------------------------


def running(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting to be reaped does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the process itself
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


def ended(pid: int, within_s: float = 2.0) -> bool:
    """Whether process ``pid`` ends within ``within_s`` (a killed process takes a moment)."""
    deadline = time.monotonic() + within_s
    while running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_a_refused_start_is_a_start_error() -> None:
    """A brain that answers START with ERROR cannot play on this board: no game it could
    be given would go better, so this is not a game lost but a brain that never starts."""
    with Engine(fake_command("start-error")) as engine, pytest.raises(
            EngineStartError, match=r"never started a game: .*'ERROR Unsupported board size!' "
                                    r"to START 9$"):
        engine.play(Board(9), Limit(time_ms=500))


def test_a_brain_that_never_flushes_is_told_so() -> None:
    with Engine(fake_command("buffered"), start_timeout_ms=300) as engine, pytest.raises(
            EngineStartError, match=r"did not answer START 15 in time \(allowed 0.3 s; a brain "
                                    r"must answer OK and flush its output\)"):
        engine.play(Board(15), Limit(time_ms=500))


def test_a_line_sent_before_the_command_takes_no_time() -> None:
    """A brain that prints one move too many has its next answer waiting before the next
    command is sent. It is read as that command's answer, as Piskvork reads it, but it
    took no time: once it took less than none, and a match clock gained the difference."""
    with Engine(fake_command("extra")) as engine:
        board = Board(15)
        board.push(engine.play(board, Limit(time_ms=500)).move)
        time.sleep(0.3)  # the opponent thinks; the spare line waits
        board.push((0, 0))
        result = engine.play(board, Limit(time_ms=500))
        assert result.move == (6, 6) and result.time_ms == 0


def test_a_brain_behind_a_wrapper_ends_with_it(tmp_path: Path) -> None:
    """The brain a wrapper script starts holds the pipes: killing only the wrapper left it
    running, and closing its output waited for it (for ever, for a brain that hangs)."""
    pids = tmp_path / "pids"
    env = {**os.environ, "FAKE_BRAIN_PIDS": str(pids)}
    inner = " ".join(fake_command("slow", 8000))
    with Engine(["sh", "-c", f"{inner}; exit 0"], env=env, tolerance_ms=100) as engine:
        with pytest.raises(EngineTimeoutError):
            engine.play(Board(15), Limit(time_ms=100))
        started = time.perf_counter()
        engine.quit()
        assert time.perf_counter() - started < 3.0
    [pid] = [int(line) for line in pids.read_text().split()]
    assert ended(pid)


def test_kill_from_another_thread_abandons_the_game() -> None:
    """How a match ends its games in play (Ctrl-C): the thread that plays sees the brain
    ended at once, and the brain is not started again."""
    with Engine(fake_command("hang"), tolerance_ms=100) as engine:
        killer = threading.Timer(0.3, engine.kill)
        killer.start()
        started = time.perf_counter()
        with pytest.raises(EngineTerminatedError):
            engine.play(Board(15), Limit(time_ms=20_000))
        assert time.perf_counter() - started < 3.0
        with pytest.raises(EngineTerminatedError, match="was stopped"):
            engine.play(Board(15), Limit(time_ms=500))
        killer.join()


def test_a_crash_quotes_the_end_of_its_error_output() -> None:
    """The last words of a brain that dies (its exception), not 20 lines of its log."""
    with Engine(fake_command("crash-noisy")) as engine, pytest.raises(
            EngineTerminatedError) as caught:
        engine.play(Board(15), Limit(time_ms=500))
    message = str(caught.value)
    assert message.endswith("RuntimeError: the search went wrong")
    assert len(message) < 500


def test_much_error_output_does_not_stall_a_brain() -> None:
    with Engine(fake_command("stderr-flood")) as engine:
        board = Board(15)
        for _ in range(3):
            board.push(engine.play(board, Limit(time_ms=2000)).move)
            board.push(next(p for p in [(0, 0), (14, 14), (0, 14)] if board.is_legal(p)))


def test_an_about_of_free_text_is_kept_as_text() -> None:
    with Engine(fake_command("bad-about")) as engine:
        assert engine.about() == {"text": "fake brain 1.0 by the tests"}
    with Engine(fake_command("silent"), start_timeout_ms=200) as engine, pytest.raises(
            EngineTimeoutError, match="ABOUT"):
        engine.about()


def script_brain(tmp_path: Path, source: str) -> list[str]:
    """A brain written for one test: ``source`` is the body of its loop over the commands
    it reads, with ``word`` the command and ``say`` to answer."""
    path = tmp_path / "brain.py"
    path.write_text("import sys\n"
                    "def say(text):\n"
                    "    sys.stdout.write(text + '\\n')\n"
                    "    sys.stdout.flush()\n"
                    "for line in sys.stdin:\n"
                    "    word = line.strip().partition(' ')[0].upper()\n"
                    + textwrap.indent(textwrap.dedent(source), "    "))
    return [sys.executable, str(path)]


def test_a_line_too_long_to_keep_is_cut_not_split(tmp_path: Path) -> None:
    """A MESSAGE of 300 kB (a long PV, a search dump) is one MESSAGE, cut short: its rest
    was once read as more lines, the first of them taken for the move, and the game lost."""
    command = script_brain(tmp_path, """
        if word == "START":
            say("OK")
        elif word == "BEGIN":
            say("MESSAGE " + "pv " * 100_000)
            say("DEBUG " + "x" * 200_000)
            say("7,7")
        elif word == "END":
            break
    """)
    with Engine(command) as engine:
        result = engine.play(Board(15), Limit(time_ms=2000))
    assert result.move == (7, 7)
    [message] = result.messages
    assert message.startswith("pv pv") and len(message) < 70_000


def test_an_error_left_over_from_an_earlier_answer_says_so(tmp_path: Path) -> None:
    """An ERROR printed after a move (as an answer to some INFO, say) is read as the answer
    to the next command, as a move too many is; the game lost by it says the line came
    before the command, as for a move too many."""
    command = script_brain(tmp_path, """
        if word == "START":
            say("OK")
        elif word in ("BEGIN", "TURN"):
            say("7,7")
            say("ERROR unsupported INFO key")
        elif word == "END":
            break
    """)
    with Engine(command) as engine:
        board = Board(15)
        board.push(engine.play(board, Limit(time_ms=2000)).move)
        time.sleep(0.3)  # the opponent thinks; the ERROR waits
        board.push((0, 0))
        with pytest.raises(EngineError, match=r"answered 'ERROR unsupported INFO key' to TURN "
                                              r"0,0 \(that line came before TURN 0,0 was sent"):
            engine.play(board, Limit(time_ms=2000))
