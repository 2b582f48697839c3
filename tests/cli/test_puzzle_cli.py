"""``gridgames puzzle``, run as a command with its input on stdin."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from gridgames.cli.gomoku_view import format_move
from gridgames.gomoku.puzzles import VcfProver, get_puzzle, load_puzzles

COMMAND = [sys.executable, "-m", "gridgames.cli.main", "puzzle"]


@pytest.fixture(autouse=True)
def own_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test keeps its solved puzzles in a folder of its own, not the user's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data" / "gridgames" / "puzzles-solved.json"


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
    # x,y from 0 is told its own range, not the renju letters and rows of another notation
    assert "20,3 is off the 15x15 board (x and y count from 0, each from 0 to 14)" in out
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
    assert rows[0].split() == ["id", "rule", "size", "to", "move", "win", "in", "solved",
                               "themes"]
    assert len(rows) == 1 + len(load_puzzles("caro"))
    assert all(" caro " in row for row in rows[1:])
    unknown = run("--id", "100000")
    assert unknown.returncode == 2
    assert "gridgames puzzle: no puzzle 100000; the puzzles are numbered 1 to" in unknown.stderr
    rule = run("--rule", "chess")
    assert rule.returncode == 2
    # only the rules that have puzzles: caro-exact has none
    assert rule.stderr.strip() == ("gridgames puzzle: unknown rule 'chess'; puzzles are for "
                                   "freestyle, standard, renju, caro")


def solve_lines(puzzle_id: int) -> list[str]:
    return [format_move(p) for p in get_puzzle(puzzle_id).solution[::2]]


def test_solved_puzzles_are_remembered_between_runs(own_data_folder: Path) -> None:
    first = run(lines=[*solve_lines(1), "quit"])
    assert "Puzzle 1 of" in first.stdout and "; 0 solved" in first.stdout
    assert json.loads(own_data_folder.read_text()) == {"solved": [1]}
    again = run(lines=["quit"])  # starts at the first puzzle not solved
    assert "Puzzle 2 of" in again.stdout and "; 1 solved" in again.stdout
    listed = run("--list").stdout.splitlines()
    assert listed[1].split()[:6] == ["1", "freestyle", *listed[1].split()[2:5], "yes"]
    assert "yes" not in listed[2]
    # next skips the solved ones, wrapping round to the first not solved
    last = load_puzzles()[-1].id
    wrap = run("--id", str(last), lines=["next", "quit"])
    assert "Back to the first puzzle you have not solved." in wrap.stdout
    assert "Puzzle 2 of" in wrap.stdout


def test_an_unreadable_progress_file_is_left_alone(tmp_path: Path) -> None:
    broken = tmp_path / "progress.json"
    broken.write_text("{not json")
    result = run("--progress", str(broken), "--id", "1", lines=[*solve_lines(1), "quit"])
    assert result.returncode == 0
    assert f"cannot read the solved puzzles from {broken}" in result.stderr
    assert "solved!" in result.stdout
    assert broken.read_text() == "{not json"


def test_a_progress_file_that_cannot_be_written_costs_only_the_record(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = run("--progress", str(blocker / "progress.json"), "--id", "1",
                 lines=[*solve_lines(1), "next", "quit"])
    assert result.returncode == 0
    assert "solved!" in result.stdout
    assert f"(Cannot save your progress to {blocker / 'progress.json'}:" in result.stdout
    assert "Puzzle 2 of" in result.stdout


def test_goto_a_puzzle_and_words_that_are_not_moves():
    last = load_puzzles()[-1]
    renju = load_puzzles("renju")[0]
    result = run("--id", "1", lines=[f"goto {last.id}", "goto 99999", "goto x", "hint 3",
                                     "jump 5", "quit"])
    assert result.returncode == 0
    out = result.stdout
    assert f"Puzzle {last.id} of {len(load_puzzles())}: {last.rule.value}" in out
    assert f"puzzle {last.id}> There is no puzzle 99999: type list to see the puzzles' " \
           "numbers." in out
    assert "Usage: goto N, with N the number of a puzzle (type list to see them)." in out
    assert "hint takes nothing after it: type just hint." in out
    assert "Unknown command 'jump': type a move like 8 H, or help for the commands." in out
    assert "is off the board" not in out
    elsewhere = run("--rule", "freestyle", "--id", "1", lines=[f"goto {renju.id}", "quit"])
    assert (f"Puzzle {renju.id} is a renju puzzle, not one of those here; type list to see "
            "them.") in elsewhere.stdout
    assert "goto N      go to puzzle N" in run("--id", "1", lines=["help", "quit"]).stdout


def test_a_move_of_thousands_of_digits():
    digits = "1" * 5000
    result = run("--id", "1", lines=[f"{digits} A", f"{digits},3", "quit"])
    assert result.returncode == 0
    assert f"{digits[:37]}... A is off the board: rows are 1 to 15 and columns A to O" \
        in result.stdout
    assert f"{digits[:37]}... is off the 15x15 board (x and y count from 0" in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) < 300
