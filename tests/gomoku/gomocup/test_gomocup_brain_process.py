"""The brain as a real subprocess: pipes, the reader thread, time limits, YXSTOP and END."""

from __future__ import annotations

import subprocess
import sys
import time

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
