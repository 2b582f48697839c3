"""The queens front end, driven as a user would: through a terminal and as a command."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import pexpect
import pytest

COMMAND = [sys.executable, "-m", "gridgames.cli.main", "queens"]


def spawn(*extra: str) -> pexpect.spawn:
    child = pexpect.spawn(
        COMMAND[0],
        [*COMMAND[1:], *extra],
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 120),
    )
    child.expect("Press Enter to continue")
    child.sendline("")
    return child


def prompt(child: pexpect.spawn) -> None:
    child.expect(r"queens \(\d+/\d+\)> ")


def quit_game(child: pexpect.spawn) -> None:
    """Leave at the prompt: the game says goodbye and ends with status 0."""
    child.sendline("quit")
    child.expect("Bye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_play_session() -> None:
    child = spawn()
    assert "no two\r\nqueens may share a row" in child.before  # the instructions came first
    child.expect(r"a b c d e f g h")
    prompt(child)
    child.sendline("c3")
    child.expect("Placed a queen on c3")
    prompt(child)
    child.sendline("4 D")
    child.expect("Refused: the queen on c3 attacks d4 along the diagonal.")
    prompt(child)
    child.sendline("c7")
    child.expect("Refused: the queen on c3 attacks c7 along the column.")
    prompt(child)
    child.sendline("a2")
    child.expect("Placed a queen on a2")
    prompt(child)
    child.sendline("C3")  # the same square again removes it
    child.expect("Removed the queen on c3")
    prompt(child)
    child.sendline("nonsense")
    child.expect("'nonsense' is not a square: write it like c3, 3 c or 3,3")
    prompt(child)
    child.sendline("z9")
    child.expect("Row 9 is off the board: rows go from 1 to 8")
    prompt(child)
    child.sendline("i1")
    child.expect("Column 9 is off the board: columns go from a to h")
    prompt(child)
    child.sendline("size 40")
    child.expect("Board size must be between 1 and 26, not 40")
    prompt(child)
    child.sendline("")
    child.expect("Type a square such as c3, or help")
    prompt(child)
    child.sendline("hint")
    child.expect(r"Try a queen on [a-h][1-8]\.")
    prompt(child)
    child.sendline("solve")
    child.expect(r"Solved in [\d.]+ m?s: kept your 1 queen and placed 7 more\.")
    child.expect(r"2  Q")  # a2 is kept
    prompt(child)
    child.sendline("restart")
    child.expect("New board")
    prompt(child)
    child.sendline("a1")
    prompt(child)
    child.sendline("c2")
    prompt(child)
    child.sendline("solve")
    child.expect(r"No solution exists with your 2 queens \(proved in [\d.]+ m?s\)")
    prompt(child)
    child.sendline("count")
    child.expect("The 8×8 board has 92 solutions")
    prompt(child)
    child.sendline("help")
    child.expect("size N")
    prompt(child)
    quit_game(child)


def test_solving_by_hand_is_congratulated() -> None:
    child = spawn("--n", "4")
    for square in ["b1", "d2", "a3"]:
        prompt(child)
        child.sendline(square)
    prompt(child)
    child.sendline("4c")
    child.expect("Congratulations! All 4 queens are placed")
    prompt(child)
    child.sendline("size 5")
    child.expect("New 5×5 board")
    prompt(child)
    child.sendeof()
    child.expect("Bye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_leaves_cleanly() -> None:
    child = spawn()
    prompt(child)
    child.sendintr()
    child.expect("Bye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in (child.before or "")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_solve_command_prints_board_and_time() -> None:
    result = run("solve", "--n", "8", "--fixed", "1,1 e2")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("solution for the 8×8 board with 2 fixed queens, found in")
    assert lines[1].split() == list("abcdefgh")
    rows = [line.split()[1:] for line in lines[2:10]]
    assert rows[0][0] == "Q" and rows[1][4] == "Q"
    assert all(row.count("Q") == 1 for row in rows)


def test_solve_command_large_board_lists_squares() -> None:
    result = run("solve", "--n", "200", "--fixed", "")
    assert result.returncode == 0, result.stderr
    squares = result.stdout.splitlines()[1].split()
    assert len(squares) == 200
    assert {int(s.split(",")[0]) for s in squares} == set(range(1, 201))


def test_solve_command_without_solution() -> None:
    result = run("solve", "--n", "8", "--fixed", "1,1 2,3")
    assert result.returncode == 1
    assert result.stdout.startswith("no solution: the 2 fixed queens cannot be completed")


def test_backtrack_command_shows_every_step() -> None:
    result = run("backtrack", "--n", "4")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:3] == [" 1. place a1", " 2. place c2", " 3. take back c2"]
    assert lines[12] == "the first solution (8 queens placed, 4 taken back):"
    assert [line.split()[1:] for line in lines[14:]] == [
        [".", "Q", ".", "."], [".", ".", ".", "Q"], ["Q", ".", ".", "."], [".", ".", "Q", "."]]
    kept = run("backtrack", "--n", "6", "--fixed", "c1")
    assert kept.returncode == 0 and "c1" not in kept.stdout.split("the first")[0]


@pytest.mark.parametrize(("args", "status", "says"), [
    (["--n", "4", "--fixed", "a1"], 1, "no solution keeps the fixed queens"),
    (["--n", "20", "--limit", "7"], 3, "stopped at the step limit, 7, before a solution"),
    (["--n", "8", "--limit", "0"], 2, "the step limit must be between 1 and 100000, not 0"),
    (["--n", "8", "--fixed", "a1 b2"], 2, "fixed queens a1 and b2 attack each other"),
    (["--n", "27"], 2, "board size must be between 1 and 26"),
])
def test_backtrack_command_endings_and_errors(args: list[str], status: int, says: str) -> None:
    result = run("backtrack", *args)
    assert result.returncode == status
    assert says in result.stdout + result.stderr and "Traceback" not in result.stderr


def test_a_size_without_any_solution_is_not_blamed_on_queens() -> None:
    result = run("solve", "--n", "3")
    assert result.returncode == 1
    assert result.stdout.startswith("no solution: the 3×3 board has none at all")
    child = spawn("--n", "3")
    prompt(child)
    child.sendline("solve")
    child.expect(r"The 3×3 board has no solution at all \(proved in [\d.]+ m?s\)\. "
                 r"Try another size")
    prompt(child)
    child.sendline("quit")
    child.expect("Bye.")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "--n", "eight"], "board size must be a whole number, not 'eight'"),
        (["solve", "--n", "0"], "board size must be between 1 and"),
        (["solve", "--n", "8", "--fixed", "1,1 2,2"], "fixed queens a1 and b2 attack each other"),
        (["solve", "--n", "8", "--fixed", "9,1"], "row 9 is off the board"),
        (["solve", "--n", "8", "--fixed", "1,1 1,1"], "given twice"),
        (["solve", "--n", "8", "--fixed", "x"], "'x' is not a square"),
        (["solve", "--n", "8", "--seed", "-1"], "seed must be a whole number of 0 or more"),
        (["solve", "--n", "8", "--seed", "1.5"], "seed must be a whole number of 0 or more"),
        (["solve"], "the following arguments are required: --n"),
        (["count", "--n", "-2"], "board size must be between 1 and 62"),
        (["--n", "99"], "board size must be between 1 and 26"),
        (["--frobnicate"], "unrecognized arguments"),
        (["solve", "--n", "8", "--fixed", "1" * 5000 + ",1"],
         "row 1111111111111111111111111111111111111... is off the board: rows go from 1 to 8"),
        (["solve", "--n", "8", "--fixed", "c" + "1" * 5000],
         "row 1111111111111111111111111111111111111... is off the board"),
        (["solve", "--n", "1" * 5000],
         "board size must be between 1 and 10000000, not 1111111111111111111111111111111111111..."),
        (["solve", "--n", "8", "--seed", "1" * 5000], "seed must be a whole number of 0 or more"),
        (["backtrack", "--n", "8", "--limit", "1" * 5000], "the step limit must be between 1 and"),
    ],
)
def test_bad_input_is_one_line_on_stderr(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and len(result.stderr) < 200
    assert "Traceback" not in result.stderr


def test_a_size_without_any_solution_is_said_so_when_no_queen_was_given() -> None:
    traced = run("backtrack", "--n", "3")
    assert traced.returncode == 1
    assert traced.stdout.splitlines()[-1].startswith(
        "no solution: the 3×3 board has none at all; every way was tried (")
    assert "fixed queens" not in traced.stdout
    child = spawn("--n", "3")
    prompt(child)
    child.sendline("hint")
    child.expect_exact("The 3×3 board has no solution at all: try another size, like size 8.")
    prompt(child)
    child.sendline("quit")
    child.expect("Bye.")


def test_a_size_without_any_solution_is_said_so_with_queens_on_it() -> None:
    """With a queen on a 3×3 board, solve and hint said to remove a queen, which cannot
    help: the size has no solution at all."""
    replies = game_replies(["size 3", "a1", "hint", "solve", "size 4", "a1", "hint"])
    assert replies[2] == "The 3×3 board has no solution at all: try another size, like size 8."
    assert replies[3].startswith("The 3×3 board has no solution at all (proved in ")
    assert replies[6] == "No square keeps this board solvable: remove a queen or type restart."
    for command in ("solve", "backtrack"):
        result = run(command, "--n", "3", "--fixed", "a1")
        assert result.returncode == 1
        assert "the 3×3 board has none at all" in result.stdout.splitlines()[-1]
        assert "fixed queen" not in result.stdout


def test_solve_on_an_empty_board_keeps_no_queens_of_yours() -> None:
    """It said "kept your 0 queens and placed 8 more"."""
    reply = game_replies(["solve"])[0]
    assert reply.startswith("Solved in ") and reply.endswith(": placed 8 queens.")


def test_a_board_wider_than_the_terminal_is_shown_in_bands() -> None:
    """26 columns take 55 characters: on a narrow terminal every line wrapped."""
    result = subprocess.run([*COMMAND, "solve", "--n", "26"], capture_output=True, text=True,
                            timeout=60, check=False, env={**os.environ, "COLUMNS": "40"})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()[1:]  # the board, after a sentence
    assert max(len(line) for line in lines) <= 40
    headers = [line for line in lines if line.startswith(("    a", "    n"))]
    assert " ".join(headers).split() == list("abcdefghijklmnopqrstuvwxyz")
    assert sum(line.count("Q") for line in lines) == 26


def game_replies(lines: list[str]) -> list[str]:
    """What the game answers to each line typed (through a pipe), first line only."""
    result = subprocess.run([*COMMAND], input="".join(f"{line}\n" for line in ["", *lines]),
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    return [line.split("> ", 1)[1] for line in result.stdout.splitlines() if "> " in line]


def test_numbers_of_thousands_of_digits_in_the_game() -> None:
    digits = "1" * 5000  # longer than a terminal's line: typed on a pipe
    lines = ["", f"{digits},1", f"c{digits}", f"size {digits}", "quit"]
    result = subprocess.run([*COMMAND], input="".join(f"{line}\n" for line in lines),
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    replies = [line.split("> ", 1)[1] for line in result.stdout.splitlines() if "> " in line]
    assert replies[:3] == [
        "Row 1111111111111111111111111111111111111... is off the board: rows go from 1 to 8. "
        "Type help for the commands.",
        "Row 1111111111111111111111111111111111111... is off the board: rows go from 1 to 8. "
        "Type help for the commands.",
        "Board size must be between 1 and 26, not 1111111111111111111111111111111111111..."]


@pytest.mark.parametrize("command", ["solve", "count", "backtrack"])
def test_the_size_may_come_before_the_command(command: str) -> None:
    """"gridgames queens --n 6 solve" said "the following arguments are required: --n"."""
    result = run("--n", "6", command)
    assert result.returncode == 0, result.stderr
    assert "6×6" in result.stdout or "the first solution" in result.stdout


def test_count_command() -> None:
    result = run("count", "--n", "8")
    assert result.returncode == 0
    assert result.stdout.startswith("92 solutions for the 8×8 board (counted in")


def test_ctrl_c_stops_a_long_solve_at_once() -> None:
    """It runs in one compiled call, where Python never saw Ctrl+C: a solve of a large
    board went on after it."""
    from gridgames.queens import warm_up

    warm_up()  # compiled (on a fresh machine) before the command starts, not during it
    child = pexpect.spawn(COMMAND[0], [*COMMAND[1:], "solve", "--n", "10000000"],
                          encoding="utf-8", timeout=60)
    time.sleep(1.5)  # well into the compiled call
    child.sendintr()
    pressed = time.monotonic()
    child.expect(pexpect.EOF, timeout=10)
    child.close()
    assert time.monotonic() - pressed < 5
    assert child.signalstatus == signal.SIGINT
    assert "Traceback" not in (child.before or "")


PROGRESS = (r"18×18: (\d+\.\d)% searched in \d+ s, "
            r"(about [\w ]+ left|time left not known yet); (\d+) solutions so far")
PARTIAL = (r"stopped by {why} after \d+ s: a partial count, (\d+) solutions for the 18×18 "
           r"board in the (\d+\.\d)% of the search done \(not the total\)")


def test_a_long_count_shows_its_progress_in_lines_and_ctrl_c_gives_a_partial_count() -> None:
    """The count of 18×18 (minutes) ran in silence, and Ctrl-C ended it with nothing."""
    process = subprocess.Popen([*COMMAND, "count", "--n", "18"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stderr is not None
    line = process.stderr.readline()  # a line every 5 s: stderr is no terminal
    while line.startswith(("preparing", "  [", "the queens solver is ready")):
        line = process.stderr.readline()  # the first run compiles the kernels
    progress = re.fullmatch(PROGRESS, line.rstrip("\n"))
    assert progress, line
    assert progress[2].startswith("about")  # seconds into the count: an estimate
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 130
    partial = re.fullmatch(PARTIAL.format(why="Ctrl-C"), stdout.rstrip("\n"))
    assert partial, stdout
    assert int(progress[3]) <= int(partial[1]) < 666090624  # the total, for 18×18
    assert float(progress[1]) <= float(partial[2]) < 100
    assert "Traceback" not in stderr


def count_on_a_terminal(*args: str) -> tuple[pexpect.spawn, list[str]]:
    """A count of 18×18 on a terminal, after its progress was shown twice."""
    child = pexpect.spawn(COMMAND[0], [*COMMAND[1:], *args], encoding="utf-8", timeout=60,
                          dimensions=(24, 120))
    shown = []
    for _ in range(2):
        child.expect("\r" + PROGRESS + "\x1b\\[K")  # one line, written over in place
        shown.append(child.match[0])
    return child, shown


def test_a_count_on_a_terminal_updates_one_line_and_stops_on_ctrl_c() -> None:
    child, shown = count_on_a_terminal("count", "--n", "18")
    assert "\n" not in "".join(shown)
    child.sendintr()
    child.expect("\r\x1b\\[K")  # the progress line is cleared
    child.expect(PARTIAL.format(why="Ctrl-C"))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in (child.before or "")


def test_sigterm_stops_a_count_as_ctrl_c_does() -> None:
    child, _ = count_on_a_terminal("count", "--n", "18")
    child.kill(signal.SIGTERM)
    child.expect(PARTIAL.format(why="SIGTERM"))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 128 + signal.SIGTERM


def test_ctrl_c_stops_a_count_in_the_game_and_the_game_goes_on() -> None:
    """The game offered counting only up to 16×16 ("use gridgames queens count"), and
    Ctrl-C during a count left the game."""
    child = spawn("--n", "18")
    prompt(child)
    child.sendline("count")
    child.expect("\r" + PROGRESS)
    child.sendintr()
    child.expect(PARTIAL.format(why="Ctrl-C").replace("stopped", "Stopped") + "\\.")
    prompt(child)
    quit_game(child)


def test_a_reader_that_stops_early_ends_the_command_without_a_traceback() -> None:
    """As in ``gridgames queens backtrack --n 20 | head``: the output (190 kB, more
    than a pipe holds) loses its reader after the first line."""
    process = subprocess.Popen([*COMMAND, "backtrack", "--n", "20"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline().strip() == "1. place a1"
    process.stdout.close()
    stderr = process.stderr.read()
    assert process.wait(timeout=60) == 1
    assert stderr == ""


def test_one_queen_and_bad_sizes_are_told_in_sentences() -> None:
    child = spawn()
    prompt(child)
    child.sendline("size 0")
    child.expect_exact("Board size must be between 1 and 26, not 0.\r\n")
    prompt(child)
    child.sendline("size 1")
    child.expect_exact("New 1×1 board: place 1 queen.")
    prompt(child)
    child.sendline("a1")
    child.expect_exact("Congratulations! The queen is placed, and nothing can attack it.")
    prompt(child)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_reset_clears_the_board_as_restart_does() -> None:
    """The seed's Restart button is often called reset: it said "'reset' is not a
    square"."""
    replies = game_replies(["a1", "reset", "solve"])
    assert replies[1] == "New board."
    assert replies[2].endswith(": placed 8 queens.")
