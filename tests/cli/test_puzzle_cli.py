"""``gridgames puzzle``, run as a command with its input on stdin."""

from __future__ import annotations

import subprocess
import sys

import pexpect

from gridgames.cli.gomoku_view import format_move
from gridgames.gomoku.puzzles import VcfProver, get_puzzle, load_puzzles

COMMAND = [sys.executable, "-m", "gridgames.cli.main", "puzzle"]


def run(*args: str, lines: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    text = "".join(f"{line}\n" for line in lines or [])
    result = subprocess.run([*COMMAND, *args], input=text, capture_output=True, text=True,
                            timeout=120)
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    return result


def test_solving_a_puzzle_by_typed_moves():
    puzzle = get_puzzle(1)
    mine = [format_move(p) for p in puzzle.solution[::2]]
    result = run("--id", "1", lines=[*mine, "next", "quit"])
    assert result.returncode == 0
    out = result.stdout
    assert f"Puzzle 1 of {len(load_puzzles())}" in out
    assert f"You play {puzzle.to_move.label}" in out
    reply = format_move(puzzle.solution[1])
    assert f"{mine[0]} makes a four; {puzzle.to_move.other.label} must block at {reply}" in out
    assert f"{mine[-1]} makes five: solved! Type next for the next puzzle." in out
    assert "Puzzle 2 of" in out  # next


def test_a_move_that_is_no_four_fails_and_the_puzzle_starts_again():
    puzzle = get_puzzle(1)
    board = puzzle.board()
    fours = set(VcfProver(board).fours(puzzle.to_move))
    quiet = next(p for p in board.legal_moves if p not in fours)
    result = run("--id", "1", lines=[format_move(quiet), "solution", "quit"])
    assert result.returncode == 0
    assert f"Not this time: {format_move(quiet)} is not a four" in result.stdout
    assert "Back to the start" in result.stdout
    assert result.stdout.count("Puzzle 1 of") == 2
    assert f"Solution (you, then the reply): 1. {format_move(puzzle.solution[0])} " \
        in result.stdout


def test_bad_input_gets_a_message_and_the_prompt_again():
    puzzle = get_puzzle(1)
    occupied = format_move(puzzle.moves[0])
    result = run("--id", "1", lines=["zz top", "99 A", "20,3", occupied, "hint", "help", "quit"])
    assert result.returncode == 0
    out = result.stdout
    assert "Cannot read 'zz top' as a move" in out
    assert "99 A is off the board: rows are 1 to 15 and columns A to O" in out
    assert "(20, 3) is off the board" in out or "20,3" in out
    assert f"Refused: {occupied} is already taken by" in out
    assert "Hint: make a four on the" in out
    assert "Commands:" in out


def test_end_of_input_leaves_quietly():
    result = run("--id", "2", lines=["h8"])
    assert result.returncode == 0
    assert "error" not in result.stderr.lower()
    assert result.stdout.rstrip().endswith("puzzle 2>")


def test_ctrl_c_at_the_prompt_leaves_cleanly():
    child = pexpect.spawn(COMMAND[0], [*COMMAND[1:], "--id", "1", "--no-color"],
                          encoding="utf-8", timeout=60, dimensions=(50, 120))
    child.expect(r"puzzle 1> ")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in (child.before or "")


def test_list_and_bad_options():
    listed = run("--list", "--rule", "caro")
    assert listed.returncode == 0
    rows = listed.stdout.splitlines()
    assert rows[0].split() == ["id", "rule", "size", "to", "move", "win", "in", "themes"]
    assert len(rows) == 1 + len(load_puzzles("caro"))
    assert all(" caro " in row for row in rows[1:])
    unknown = run("--id", "100000")
    assert unknown.returncode == 2
    assert "gridgames puzzle: no puzzle 100000; the puzzles are numbered 1 to" in unknown.stderr
    rule = run("--rule", "chess")
    assert rule.returncode == 2 and "unknown rule 'chess'" in rule.stderr
