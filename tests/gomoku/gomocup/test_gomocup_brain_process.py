"""The brain as a real subprocess: pipes, the reader thread, time limits, YXSTOP and END."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from gomocup_helpers import BrainProcess

from gridgames.gomoku import Board
from gridgames.gomoku.gomocup.protocol import parse_about, parse_xy

# How late a reply may be on this shared two-core machine (Piskvork allows 1000 ms).
TOLERANCE_S = 0.35


def test_a_game_over_the_pipes_within_the_turn_time(shared_brain: BrainProcess) -> None:
    brain = shared_brain
    brain.send("RESTART", "INFO timeout_turn 700", "INFO timeout_match 0", "INFO rule 0")
    assert brain.read() == "OK"
    board = Board(15)
    sent = brain.send("BEGIN")
    stamp, reply = brain.read_stamped()
    assert stamp - sent <= 0.7 + TOLERANCE_S
    board.push(parse_xy(reply))
    for _ in range(2):
        opponent = next(p for p in [(8, 8), (6, 8), (0, 0), (14, 14)] if board.is_legal(p))
        board.push(opponent)
        sent = brain.send(f"TURN {opponent[0]},{opponent[1]}")
        messages, reply = brain.messages_until_reply()
        stamp = time.perf_counter()
        assert stamp - sent <= 0.7 + TOLERANCE_S, f"reply after {stamp - sent:.3f} s"
        assert any(" pv " in m for m in messages)
        board.push(parse_xy(reply))


def test_helper_threads_in_the_forked_search_keep_the_turn_time(
        shared_brain: BrainProcess) -> None:
    brain = shared_brain
    brain.send("RESTART", "INFO timeout_turn 500", "INFO timeout_match 0", "INFO rule 0",
               "INFO thread_num 2")
    assert brain.read() == "OK"
    board = Board(15)
    try:
        for opponent in [(7, 7), (9, 9), (5, 9)]:
            if not board.is_legal(opponent):
                continue
            board.push(opponent)
            sent = brain.send(f"TURN {opponent[0]},{opponent[1]}")
            messages, reply = brain.messages_until_reply()
            assert time.perf_counter() - sent <= 0.5 + TOLERANCE_S
            assert any(" pv " in m for m in messages)
            board.push(parse_xy(reply))
    finally:
        brain.send("INFO thread_num 1")


def test_a_bad_thread_count_on_the_command_line_is_refused() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gridgames.cli.main", "brain", "--threads", "0"],
        input=b"", capture_output=True, timeout=120,
    )
    assert result.returncode == 2
    assert b"argument --threads: must be a whole number from 1 to 8, got 0" in result.stderr


@pytest.mark.parametrize("command", [["brain"], []])
def test_a_bad_level_on_the_command_line_is_refused(command: list[str]) -> None:
    module = "gridgames.cli.main" if command else "gridgames.gomoku.gomocup.brain"
    result = subprocess.run(
        [sys.executable, "-m", module, *command, "--level", "9"],
        input=b"", capture_output=True, timeout=120,
    )
    assert result.returncode == 2
    assert b"Traceback" not in result.stderr
    assert b"argument --level: unknown level '9'; use 1..6" in result.stderr


def test_time_left_is_respected(shared_brain: BrainProcess) -> None:
    brain = shared_brain
    brain.send("RESTART", "INFO timeout_turn 30000", "INFO timeout_match 60000",
               "INFO time_left 1500")
    assert brain.read() == "OK"
    sent = brain.send("TURN 7,7")
    stamp, reply = brain.read_stamped()
    parse_xy(reply)
    assert stamp - sent <= 1.5 / 10 + TOLERANCE_S  # a share of the time left, not all of it
    brain.send("INFO time_left 2147483647", "INFO timeout_match 0", "INFO timeout_turn 0")


def test_timeout_turn_zero_plays_at_once(shared_brain: BrainProcess) -> None:
    brain = shared_brain
    brain.send("RESTART", "INFO timeout_turn 0")
    assert brain.read() == "OK"
    board = Board(15)
    for _ in range(3):
        x, y = next(p for p in [(7, 7), (0, 0), (14, 0), (0, 14), (14, 14)] if board.is_legal(p))
        board.push((x, y))
        sent = brain.send(f"TURN {x},{y}")
        stamp, reply = brain.read_stamped()
        board.push(parse_xy(reply))
        assert stamp - sent < 0.3


def test_yxstop_returns_a_move_promptly(shared_brain: BrainProcess) -> None:
    brain = shared_brain
    brain.send("RESTART", "INFO timeout_turn 60000")
    assert brain.read() == "OK"
    brain.send("TURN 7,7")
    time.sleep(0.3)
    sent = brain.send("YXSTOP")
    stamp, reply = brain.read_stamped()
    parse_xy(reply)
    assert stamp - sent < 0.5
    brain.send("INFO timeout_turn 0")


def test_yxstop_right_behind_the_command_stops_its_search(shared_brain: BrainProcess) -> None:
    """A stop read before the search it is meant for began was once ignored, and the
    brain thought for the whole turn."""
    brain = shared_brain
    brain.send("RESTART", "INFO timeout_turn 60000")
    assert brain.read() == "OK"
    sent = brain.send(raw=b"TURN 7,7\r\nYXSTOP\r\n")
    stamp, reply = brain.read_stamped(timeout=30)
    parse_xy(reply)
    assert stamp - sent < 10.0  # not the turn's 60 s
    brain.send("INFO timeout_turn 0")


def test_bad_input_keeps_it_serving(shared_brain: BrainProcess) -> None:
    brain = shared_brain
    brain.send(raw=b"\xff\xfe\x00garbage\r\n")
    assert brain.read().startswith("UNKNOWN")
    brain.send(raw=b"ABOUT\nABOUT\r")  # LF or CR alone end a line too
    assert parse_about(brain.read())["name"] == "gridgames"
    assert parse_about(brain.read())["name"] == "gridgames"
    brain.send("TURN 99,99")
    assert brain.read().startswith("ERROR")
    brain.send("RESTART")
    assert brain.read() == "OK"


def test_end_while_thinking_exits_within_a_second() -> None:
    brain = BrainProcess()
    try:
        brain.send("START 15", "INFO timeout_turn 60000")
        assert brain.read(timeout=120) == "OK"
        brain.send("TURN 7,7")
        time.sleep(0.3)
        sent = brain.send("END")
        brain.proc.wait(timeout=5)
        assert time.perf_counter() - sent < 1.0
        assert brain.proc.returncode == 0
    finally:
        brain.close()


def test_end_of_input_exits() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gridgames.cli.main", "brain"],
        input=b"START 9\r\nINFO timeout_turn 0\r\nBEGIN\r\nABOUT\r\n", capture_output=True,
        timeout=120,
    )
    lines = [line for line in result.stdout.decode().splitlines()
             if not line.startswith("MESSAGE")]
    assert result.returncode == 0
    assert lines[:2] == ["OK", "4,4"] and parse_about(lines[2])["name"] == "gridgames"


def test_an_unlimited_match_forgets_the_time_left_of_the_match_before(
        shared_brain: BrainProcess) -> None:
    """timeout_match 0 is an unlimited match, and a manager need not send time_left then
    (our own Engine does not): the last time_left of a match before once made every
    move an instant one."""
    brain = shared_brain
    brain.send("RESTART", "INFO timeout_turn 300", "INFO timeout_match 20000",
               "INFO time_left 150")
    assert brain.read() == "OK"
    brain.send("TURN 7,7")
    parse_xy(brain.read())
    brain.send("RESTART", "INFO timeout_match 0")
    assert brain.read() == "OK"
    brain.send("TURN 7,7")
    messages, reply = brain.messages_until_reply()
    parse_xy(reply)
    depths = [int(m.split()[2]) for m in messages if m.startswith("MESSAGE depth ")]
    assert depths and max(depths) >= 4, messages  # a search, not the instant depth 2


# Our brain with every search process slow to exit, as on a busy machine, where a killed
# search took up to a quarter of a second: os.waitpid, which waits for it, sleeps first.
SLOW_EXIT = (
    "import os, time\n"
    "reap = os.waitpid\n"
    "os.waitpid = lambda pid, options: (time.sleep(3), reap(pid, options))[1]\n"
    "from gridgames.gomoku.gomocup.brain import main\n"
    "main([])\n"
)


def test_a_reply_does_not_wait_for_the_search_process_to_exit() -> None:
    brain = BrainProcess(command=[sys.executable, "-c", SLOW_EXIT])
    try:
        brain.send("START 15", "INFO timeout_turn 300")
        assert brain.read(timeout=120) == "OK"
        for opponent in ("7,7", "9,9"):
            sent = brain.send(f"TURN {opponent}")
            stamp, reply = brain.read_stamped()
            parse_xy(reply)
            # well short of the 3 s the search process takes to exit, on a loaded machine too
            assert stamp - sent < 2.0, f"reply after {stamp - sent:.3f} s"
    finally:
        brain.close()


# Our brain where no process can be forked (a process limit, or a sandbox that forbids it).
NO_FORK = (
    "import errno, os\n"
    "def fork():\n"
    "    raise OSError(errno.EAGAIN, 'Resource temporarily unavailable')\n"
    "os.fork = fork\n"
    "from gridgames.gomoku.gomocup.brain import main\n"
    "main([])\n"
)


def test_a_brain_that_cannot_fork_searches_in_its_own_process() -> None:
    """Each search runs in a forked process; where none can be forked, a move was once
    refused (ERROR TURN failed: OSError), which loses the game."""
    brain = BrainProcess(command=[sys.executable, "-c", NO_FORK])
    try:
        brain.send("START 15", "INFO timeout_turn 300")
        assert brain.read(timeout=120) == "OK"
        sent = brain.send("TURN 7,7")
        messages, reply = brain.messages_until_reply()
        assert parse_xy(reply) != (7, 7)
        assert time.perf_counter() - sent <= 0.3 + TOLERANCE_S
        assert any(" pv " in m for m in messages)  # a search, not the instant move
    finally:
        brain.close()


POSITION = ["7,7,1", "8,8,2", "6,8,1", "8,7,2"]


def _nodes_by_depth(brain: BrainProcess) -> dict[int, int]:
    """Search POSITION (BOARD replaces whatever was there): the nodes each depth took."""
    brain.send("BOARD", *POSITION, "DONE")
    messages, reply = brain.messages_until_reply()
    parse_xy(reply)
    found = (re.match(r"MESSAGE depth (\d+) ev \S+ n (\d+) ", m) for m in messages)
    return {int(m[1]): int(m[2]) for m in found if m}


def test_a_forked_search_starts_from_the_table_of_the_game_so_far(
        brain_process: BrainProcess) -> None:
    """The searches run in forked processes fill one table that the brain keeps from move
    to move (once, each fork made its own, and every move started from an empty table);
    a new game starts from an empty one again.

    A long search fills the table; a short one started from it reaches the deepest depth
    it shares with a short one from an empty table in fewer nodes. (Two searches of the
    same length once compared their deepest depth: from where the clock cut the first
    one, the second now and then took more nodes there.)"""
    brain = brain_process
    brain.send("START 15", "INFO timeout_turn 1500")
    assert brain.read(timeout=120) == "OK"
    first = _nodes_by_depth(brain)
    brain.send("INFO timeout_turn 300")
    again = _nodes_by_depth(brain)  # the same position, the table of the first search kept
    brain.send("RESTART")
    assert brain.read(timeout=30) == "OK"
    anew = _nodes_by_depth(brain)
    deepest = max(again.keys() & anew.keys())
    assert again[deepest] < anew[deepest], (again, anew)
    both = sorted(first.keys() & anew.keys())
    assert len(both) >= 4 and all(first[d] == anew[d] for d in both), (first, anew)


def test_end_inside_a_stone_list_ends_without_a_word(brain_process: BrainProcess) -> None:
    """After END the brain writes nothing more, even when END cuts a BOARD short."""
    brain = brain_process
    brain.send("START 15", "INFO timeout_turn 0")
    assert brain.read(timeout=120) == "OK"
    brain.send("BOARD", "7,7,2", "END")
    assert brain.rest() == []
    assert brain.proc.returncode == 0


def _peak_memory(pid: int) -> int:
    """The peak working set of a process, in bytes (what Piskvork holds to max_memory)."""
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"^VmHWM:\s+(\d+) kB", status, re.MULTILINE)
    assert match is not None
    return int(match[1]) << 10


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_memory_limit_the_brain_cannot_keep_is_said(brain_process: BrainProcess) -> None:
    """Piskvork rejects a move once the brain's peak working set passes max_memory. A
    limit of 128 MB was once taken in silence while the brain used some 200 MB; the
    brain must say so, and the least memory it names must be enough for it."""
    brain = brain_process
    brain.send("START 15")
    assert brain.read(timeout=120) == "OK"
    brain.send("INFO max_memory 134217728", "INFO timeout_turn 300", "TURN 7,7")
    messages, reply = brain.messages_until_reply()
    refusal = [m for m in messages if m.startswith("MESSAGE INFO max_memory")]
    assert refusal and "too little memory" in refusal[0], messages
    match = re.search(r"needs at least (\d+) MB", refusal[0])
    assert match is not None
    needs = int(match[1]) << 20
    board = Board(15)
    board.push_many([(7, 7), parse_xy(reply)])
    # searches forked and in this process (timeout_turn 0), and the table cleared
    for command in ["INFO timeout_turn 0", "YXHASHCLEAR", "INFO timeout_turn 300"]:
        brain.send(command)
        opponent = next(p for p in [(9, 9), (5, 9), (3, 3), (11, 4)] if board.is_legal(p))
        board.push(opponent)
        brain.send(f"TURN {opponent[0]},{opponent[1]}")
        board.push(parse_xy(brain.read()))
    assert _peak_memory(brain.proc.pid) < needs


@pytest.mark.slow
def test_instant_moves_do_not_wait_for_a_first_run_compile(tmp_path: Path) -> None:
    """On a first run the search's kernels compile after START's answer. timeout_turn 0
    asks for a move at once: it once waited for that compile (34 s here)."""
    brain = BrainProcess(env={"NUMBA_CACHE_DIR": str(tmp_path)})
    try:
        brain.send("START 15", "INFO timeout_turn 0")
        assert brain.read(timeout=300) == "OK"
        if sum("the engine is ready" in line for line in brain.errors) > 1:
            pytest.skip("the kernels compiled within START's wait")
        for command in (["TURN 7,7"], ["YXNBEST 2"],
                        ["SWAP2BOARD", "7,7", "8,7", "9,9", "DONE"]):
            sent = brain.send(*command)
            stamp, reply = brain.read_stamped(timeout=300)
            # within Piskvork's 1 s of tolerance, the whole time timeout_turn 0 gives
            assert stamp - sent < 1.0, f"{command[0]} answered after {stamp - sent:.1f} s"
            assert reply == "SWAP" or all(parse_xy(point) for point in reply.split())
        assert "Traceback" not in "\n".join(brain.errors)
    finally:
        brain.close()
