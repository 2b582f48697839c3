"""``gridgames play`` end to end: the real program driven through a pseudo-terminal."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from gridgames.cli.gomoku_game import Settings
from gridgames.cli.main import main
from gridgames.gomoku import Board, Color, Point, Rule
from gridgames.gomoku.ai import MAX_LEVEL
from gridgames.gomoku.records import GameRecord, load, save, to_json

PROGRAM = [sys.executable, "-m", "gridgames.cli.main", "play"]
MENU_PROMPT = "Select an option (1-5): "
# The first computer move may compile the engine's kernels on a fresh machine.
ENGINE_TIMEOUT = 180


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(NO_COLOR="1", GRIDGAMES_PAUSE="0", TERM="xterm")
    return env


def spawn(*args: str, cwd: Path) -> pexpect.spawn:
    return pexpect.spawn(PROGRAM[0], [*PROGRAM[1:], *args], env=environment(), cwd=str(cwd),
                         encoding="utf-8", timeout=60, dimensions=(50, 120))


def answer(child: pexpect.spawn, prompt: str, text: str) -> None:
    child.expect_exact(prompt)
    child.sendline(text)


def move(child: pexpect.spawn, player: str, text: str) -> None:
    """``player`` as the prompt names it, e.g. ``Player 1 (o)``."""
    answer(child, f"{player} make a move: ", text)


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in (child.before or "")
    return child.exitstatus if child.exitstatus is not None else -(child.signalstatus or 0)


def saved_position(path: Path, black: list[Point], white: list[Point],
                   rule: Rule = Rule.RENJU) -> None:
    board = Board(15, rule=rule)
    for index, point in enumerate(black):
        board.push(point)
        if index < len(white):
            board.push(white[index])
    save(GameRecord.from_board(board), path)


P1, P2 = "Player 1 (o)", "Player 2 (x)"


def test_a_human_game_from_the_menu_to_a_win_and_another(tmp_path):
    child = spawn(cwd=tmp_path)
    child.expect_exact("Welcome to Gomoku!")
    answer(child, MENU_PROMPT, "9")
    child.expect_exact("'9' is not an option: enter 1, 2, 3, 4 or 5.")
    child.expect_exact("5. Switch to a 15x15 board")
    child.expect_exact("19x19 board")  # the original game's size by default
    answer(child, MENU_PROMPT, "5")
    child.expect_exact("Board size: 15x15.")
    answer(child, MENU_PROMPT, "1")
    child.expect_exact("Instructions:")
    child.expect_exact('(ex. "14 A")')
    answer(child, "Enter anything to go back to the main menu: ", "ok")
    answer(child, MENU_PROMPT, "2")
    child.expect_exact("It is now player 1's (o) turn to move")

    # Black fills row 8 from A to E, typing each form the game accepts; white plays row 9.
    for black, white in [("8 a", "9 A"), ("B8", "b9"), ("8c", "9 C"), ("d 8", "9D")]:
        move(child, P1, black)
        child.expect_exact("It is now player 2's (x) turn to move")
        move(child, P2, white)
    move(child, P1, "banana")
    child.expect_exact("Cannot read 'banana' as a move: type the row number and the column "
                       "letter, like 8 H or H8 (type help for commands).")
    move(child, P1, "16 A")
    child.expect_exact("16 A is off the board: rows are 1 to 15 and columns A to O.")
    move(child, P1, "P8")
    child.expect_exact("8 P is off the board: rows are 1 to 15 and columns A to O.")
    move(child, P1, "9 b")
    child.expect_exact("9 B is already taken by x.")
    move(child, P1, "")
    child.expect_exact("Please type a move, like 8 H, or help.")
    move(child, P1, "8 E")
    child.expect_exact("Player 1 (o) wins! The winning line (marked *) is "
                       "8 A, 8 B, 8 C, 8 D, 8 E.")
    assert "8  *o**o**o**o**o* .  ." in (child.before or "")

    answer(child, "Play again? (Y/N): ", "maybe")
    child.expect_exact("Please answer Y or N (or save FILE to keep this game, or menu for the "
                       "main menu).")
    answer(child, "Play again? (Y/N): ", "y")
    child.expect_exact("It is now player 1's (o) turn to move")
    assert "[" not in (child.before or "") and " x " not in (child.before or "")  # empty board

    # Second game: white wins down column B.
    blacks = ["1 A", "1 C", "1 E", "1 G", "15 O"]
    whites = ["2 B", "3 B", "4 B", "5 B", "6 B"]
    for black, white in zip(blacks, whites, strict=True):
        move(child, P1, black)
        move(child, P2, white)
    child.expect_exact("Player 2 (x) wins! The winning line (marked *) is "
                       "2 B, 3 B, 4 B, 5 B, 6 B.")
    answer(child, "Play again? (Y/N): ", "N")  # the program ends, as in the original design
    child.expect_exact("Thank you for playing!")
    assert finish(child) == 0


def test_settings_then_a_game_against_the_computer_with_hint_and_undo(tmp_path):
    child = spawn(cwd=tmp_path)
    setting = "Select a setting to change (1-10): "
    answer(child, MENU_PROMPT, "3")
    answer(child, setting, "1")
    answer(child, "Choose 1-4 (Enter keeps 1): ", "7")
    child.expect_exact("'7' is not an option: enter a number from 1 to 4.")
    answer(child, "Choose 1-4 (Enter keeps 1): ", "2")
    answer(child, setting, "2")
    child.expect_exact("renju: black: exactly five wins")
    answer(child, "Choose 1-5 (Enter keeps 1): ", "3")
    answer(child, setting, "4")
    child.expect_exact("19x19 (as in the original game)")
    answer(child, "Choose 1-3 (Enter keeps 2): ", "2")
    answer(child, setting, "5")
    child.expect_exact("1. Beginner: greedy")
    child.expect_exact(f"{MAX_LEVEL}. ")
    answer(child, f"Choose 1-{MAX_LEVEL} (Enter keeps 4): ", "1")
    answer(child, setting, "6")
    prompt = "Seconds per computer move (0.1-3600, Enter keeps 3): "
    answer(child, prompt, "abc")
    child.expect_exact("'abc' is not a number.")
    answer(child, prompt, "9999")
    child.expect_exact("9999 is out of range: enter a number from 0.1 to 3600.")
    answer(child, prompt, "0.5")
    answer(child, setting, "7")
    # A bad symbol is refused at once, before the other player's is asked for.
    answer(child, "Symbol for player 1 (Enter keeps o): ", "oo")
    child.expect_exact("Cannot use that symbol: 'oo' is not a single visible character.")
    answer(child, "Symbol for player 1 (Enter keeps o): ", "#")
    answer(child, "Symbol for player 2 (Enter keeps x): ", "#")
    child.expect_exact("Cannot use those symbols: the two players need different symbols.")
    answer(child, "Symbol for player 1 (Enter keeps o): ", "@")
    answer(child, "Symbol for player 2 (Enter keeps x): ", "")
    answer(child, setting, "11")
    child.expect_exact("'11' is not an option: enter a number from 1 to 10.")
    answer(child, setting, "10")
    child.expect_exact("(Current game: human vs computer, you play player 1 (moves first); "
                       "renju; 19x19 board; computer level 1, 0.5 s per move)")

    answer(child, MENU_PROMPT, "2")
    child.expect_exact("P  Q  R  S")
    you = "Player 1 (@)"
    move(child, you, "10 J")
    # level 1 does not search: no score (it was always 0, for a five too) nor depth
    child.expect(r"Computer \(x\) plays \d+ [A-S]\r\n", timeout=ENGINE_TIMEOUT)
    move(child, you, "hint")
    child.expect(r"Hint for Player 1 \(@\): \d+ [A-S]\r\n", timeout=ENGINE_TIMEOUT)
    move(child, you, "undo")
    child.expect(r"Took back 10 J and \d+ [A-S]\.")
    move(child, you, "undo")
    child.expect_exact("Nothing to undo.")
    move(child, you, "quit")
    child.expect_exact(MENU_PROMPT)
    child.sendeof()
    child.expect_exact("Goodbye!")
    assert finish(child) == 0


def test_renju_fouls_help_save_and_load(tmp_path):
    far_white = [(0, 14), (2, 14), (4, 14), (6, 14), (8, 14), (10, 14)]
    saved_position(tmp_path / "three.json", [(7, 7), (8, 7), (9, 8), (9, 9)], far_white[:4])
    saved_position(tmp_path / "four.json", [(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)],
                   far_white)
    saved_position(tmp_path / "overline.json", [(3, 7), (4, 7), (5, 7), (7, 7), (8, 7)],
                   far_white[:5])
    (tmp_path / "bad.json").write_text("{nonsense")

    child = spawn("--rule", "renju", cwd=tmp_path)
    answer(child, MENU_PROMPT, "2")
    move(child, P1, "help")
    child.expect_exact("save FILE   save the game")
    move(child, P1, "save")
    child.expect_exact("Usage: save FILE")
    move(child, P1, "load missing.json")
    child.expect_exact("Load failed: cannot read missing.json")
    move(child, P1, "load bad.json")
    child.expect_exact("Load failed: not a JSON record")
    for name, point, foul in [("three", "8 J", "double three"), ("four", "8 H", "double four"),
                              ("overline", "8 G", "overline")]:
        move(child, P1, f"load {name}.json")
        child.expect_exact(f"Loaded {name}.json: renju, 15x15,")
        child.expect_exact(" ! ")  # the forbidden point is marked on the board
        move(child, P1, point)
        child.expect_exact(f"{point} is forbidden for black under renju: {foul}.")
    move(child, P1, "1 O")
    move(child, P2, "save game.psq")
    child.expect_exact("Saved 11 moves to game.psq.")
    move(child, P2, "save game.json")
    child.expect_exact("Saved 11 moves to game.json.")
    move(child, P2, "save no/such/dir/game.json")
    child.expect_exact("Could not save to no/such/dir/game.json")
    move(child, P2, "undo")
    child.expect_exact("Took back 1 O.")
    move(child, P1, "load game.psq")
    child.expect_exact("Loaded game.psq: renju, 15x15, 11 moves.")
    move(child, P2, "quit")
    answer(child, MENU_PROMPT, "4")
    assert finish(child) == 0
    assert (tmp_path / "game.psq").read_text().startswith("Piskvorky 15x15")
    assert '"rule": "renju"' in (tmp_path / "game.json").read_text()


def test_computer_against_computer_plays_to_the_end(tmp_path):
    child = spawn("--mode", "computer-computer", "--level", "1", "--size", "7", cwd=tmp_path)
    answer(child, MENU_PROMPT, "2")
    child.expect_exact("Computer 1 (o) plays 4 D", timeout=ENGINE_TIMEOUT)
    child.expect(r"Computer 2 \(x\) plays \d [A-G]", timeout=ENGINE_TIMEOUT)
    child.expect([r"Computer [12] \([ox]\) wins!", "the game is a draw"], timeout=60)
    answer(child, "Play again? (Y/N): ", "menu")
    answer(child, MENU_PROMPT, "4")
    assert finish(child) == 0


def test_ctrl_c_at_the_move_prompt_exits_cleanly(tmp_path):
    child = spawn(cwd=tmp_path)
    answer(child, MENU_PROMPT, "2")
    child.expect_exact(f"{P1} make a move: ")
    child.sendintr()
    child.expect_exact("Goodbye!")
    assert finish(child) == 130


ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DOCS_IMAGES = Path(__file__).resolve().parents[2] / "docs" / "img"


def test_a_game_against_the_computer_as_the_docs_show_it(tmp_path):
    """The screen after a move and the computer's reply, kept as text for the docs
    (in test-artifacts/, and in docs/img/ when GRIDGAMES_DOCS_IMAGES=1)."""
    child = spawn("--mode", "human-computer", "--level", "2", "--time", "1", "--rule", "renju",
                  "--size", "15", "--moves", "h8 i9 h9 i10", cwd=tmp_path)
    move(child, P1, "6 H")
    child.expect_exact(f"{P1} make a move: ", timeout=ENGINE_TIMEOUT)
    screen = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", child.before)
    reply = re.search(r"Computer \(x\) plays (\d+) [A-O] ", screen)
    assert reply is not None, screen
    lines = [line.rstrip() for line in screen.replace("\r\n", "\n").split("\n")]
    lines = [line.split("\r")[-1] for line in lines]
    start = max(i for i, line in enumerate(lines) if line.startswith("Computer (x) plays"))
    capture = "\n".join(["$ gridgames play --mode human-computer --level 2 --rule renju "
                          '--size 15 --moves "h8 i9 h9 i10"', "...", f"{P1} make a move: 6 H", "",
                          *lines[start:], f"{P1} make a move: "]) + "\n"
    assert "[x]" in next(line for line in lines[start:] if line.startswith(f"{reply[1]} "))
    board_rows = [line for line in lines[start:] if re.match(r"\d+ ", line)]
    assert len(board_rows) == 15 and sum(r.count(" o") + r.count("[o]") for r in board_rows) == 3
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "terminal-game.txt").write_text(capture)
    if os.environ.get("GRIDGAMES_DOCS_IMAGES") == "1":
        (DOCS_IMAGES / "terminal-game.txt").write_text(capture)
    child.sendline("quit")
    answer(child, MENU_PROMPT, "4")
    assert finish(child) == 0


def test_a_starting_position_from_the_command_line_goes_straight_to_the_game(tmp_path):
    child = spawn("--moves", "h8 i9", cwd=tmp_path)
    move(child, P1, "12 H")  # h8 counts rows from the bottom of the default 19x19 board
    child.expect_exact("12 H is already taken by o.")
    move(child, P1, "quit")
    answer(child, MENU_PROMPT, "4")
    assert finish(child) == 0


# -- non-interactive ------------------------------------------------------------


def run_play(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PROGRAM, *args], cwd=cwd, env=environment(), capture_output=True,
                          text=True, timeout=60)


def test_print_a_won_game(tmp_path):
    result = run_play("--moves", "h8 i9 h9 i10 h10 i11 h11 i12 h12", "--rule", "renju",
                      "--size", "15", "--print", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == list("ABCDEFGHIJKLMNO")
    assert lines[4].startswith("4   .  .  .  .  .  .  . *o* x ")
    assert "Moves (9, renju notation, rows counted from the bottom): h8 i9 h9" in result.stdout
    assert "Result: 1-0 (black won; winning line h12 h11 h10 h9 h8)" in result.stdout
    assert "\x1b[" not in result.stdout


def test_print_a_game_in_progress_on_a_rectangular_board(tmp_path):
    result = run_play("--moves", "a1i9", "--width", "9", "--height", "12", "--print",
                      cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].split()[-1] == "I"
    assert "12  o " in result.stdout and "4   .  .  .  .  .  .  .  . [x]" in result.stdout
    assert "Result: * (game in progress; black (o) to move)" in result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--moves", "h8 i9 h8"], "move 3 (h8) is not legal: h8 is occupied by black"),
    (["--moves", "h8 z9"], "z9 is off the 19x19 board"),
    (["--moves", "h8 ??"], "cannot read the position"),
    (["--moves", "h8", "--size", "70"],
     "argument --size: must be a whole number from 5 to 64, got 70"),
    (["--rule", "go"], "unknown rule 'go'"),
    (["--load", "missing.psq"], "cannot read missing.psq"),
])
def test_print_errors_exit_with_code_2(tmp_path, args, message):
    result = run_play(*args, "--print", cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_print_a_loaded_psq_game(tmp_path):
    (tmp_path / "game.psq").write_text("Piskvorky 10x10, 0:0, 0\n5,5,0\n6,6,0\n")
    result = run_play("--load", "game.psq", "--print", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "5   .  .  .  .  o  ." in result.stdout
    assert "6   .  .  .  .  . [x] ." in result.stdout
    assert "Moves (2, renju notation, rows counted from the bottom): e6 f5" in result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--level", "99"], "unknown level"),
    (["--symbols", "oo"], "the two players need different symbols"),
    (["--symbols", "o"], "give exactly two characters"),
    # a combining accent has no width of its own: it would shift the board's columns
    (["--symbols", "\u0301x"], "is not a single visible character"),
])
def test_bad_options(capsys, args, message):
    # --time and --pause are refused by argparse: tests/cli/test_options.py
    assert main(["play", *args, "--print"]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(("value", "pause"), [
    ("0", 0.0), ("2.5", 2.5), ("60", 60.0), ("-3", 0.0),
    # past the range, or no number: the default
    ("inf", 1.0), ("1e9", 1.0), ("nan", 1.0), ("soon", 1.0),
])
def test_the_pause_from_the_environment_stays_in_range(monkeypatch, value, pause):
    """GRIDGAMES_PAUSE=inf once ended a computer-vs-computer game in a traceback (sleep:
    timestamp out of range), and 1e9 waited for ever between two moves."""
    monkeypatch.setenv("GRIDGAMES_PAUSE", value)
    assert Settings().pause == pause


def run_typed(*args: str, lines: list[str], cwd: Path, home: Path | None = None
              ) -> subprocess.CompletedProcess[str]:
    """``gridgames play`` with ``lines`` typed on its standard input."""
    env = environment()
    if home is not None:
        env["HOME"] = str(home)
    result = subprocess.run([*PROGRAM, *args], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=120, input="".join(f"{line}\n" for line in lines))
    assert "Traceback" not in result.stderr, result.stderr
    return result


def resigned_record(path: Path, termination: str = "resignation") -> None:
    board = Board(15)
    board.push_many([(7, 7), (8, 8)])
    save(GameRecord.from_board(board, clock="5+3" if termination == "time forfeit" else "",
                               loser=Color.BLACK, termination=termination), path)


@pytest.mark.parametrize(("termination", "how"), [("resignation", "black resigned"),
                                                  ("time forfeit", "black's time ran out")])
def test_print_a_game_lost_other_than_on_the_board(tmp_path, termination, how):
    resigned_record(tmp_path / "lost.json", termination)
    result = run_play("--load", "lost.json", "--print", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"Result: 0-1 (white won: {how})" in result.stdout
    assert "game in progress" not in result.stdout


def test_a_loaded_resigned_game_is_over(tmp_path):
    resigned_record(tmp_path / "lost.json")
    result = run_typed("--load", "lost.json", lines=["n"], cwd=tmp_path)
    assert result.returncode == 0
    out = result.stdout
    assert "This game is over: black resigned (0-1)." in out
    assert "Player 1 (o) resigns: Player 2 (x) wins." in out
    assert "make a move" not in out  # nothing left to play
    assert "Play again? (Y/N): " in out


def test_a_loaded_resigned_game_is_over_after_the_load_command_too(tmp_path):
    resigned_record(tmp_path / "lost.json")
    result = run_typed("--size", "15", lines=["2", "load lost.json", "n"], cwd=tmp_path)
    assert result.returncode == 0
    assert "This game is over: black resigned (0-1)." in result.stdout
    assert result.stdout.count("make a move") == 1  # the prompt the load was typed at


def record_without_its_ending(path: Path, result: str) -> None:
    """A JSON record of three moves (no five) whose result says the game is over,
    without saying how it ended."""
    board = Board(15)
    board.push_many([(7, 7), (8, 8), (6, 6)])
    data = json.loads(to_json(GameRecord.from_board(board)))
    path.write_text(json.dumps({**data, "result": result}))


@pytest.mark.parametrize(("result", "how", "winner", "announced"), [
    ("1-0", "white lost in a way not recorded", "black won: ",
     "Player 2 (x) lost in a way not recorded: Player 1 (o) wins."),
    ("1/2-1/2", "a draw, in a way not recorded", "",
     "The game is a draw, in a way not recorded."),
])
def test_a_record_with_a_result_but_no_ending_loads_as_over(tmp_path, result, how, winner,
                                                            announced):
    """It once loaded as a game in progress, its result forgotten."""
    record_without_its_ending(tmp_path / "over.json", result)
    printed = run_play("--load", "over.json", "--print", cwd=tmp_path)
    assert printed.returncode == 0, printed.stderr
    assert f"Result: {result} ({winner}{how})" in printed.stdout
    assert "game in progress" not in printed.stdout
    more = run_play("--load", "over.json", "--moves", "a1", "--print", cwd=tmp_path)
    assert more.returncode == 2
    assert f"the game in over.json is over ({how}): no move can be added" in more.stderr
    played = run_typed("--load", "over.json", lines=["n"], cwd=tmp_path)
    assert played.returncode == 0
    assert f"This game is over: {how} ({result})." in played.stdout
    assert announced in played.stdout
    assert "make a move" not in played.stdout  # nothing left to play


def test_a_clock_the_record_names_is_said_to_be_left_out(tmp_path):
    board = Board(9)
    board.push((4, 4))
    save(GameRecord.from_board(board, clock="5+3"), tmp_path / "timed.json")
    printed = run_play("--load", "timed.json", "--print", cwd=tmp_path)
    assert "Clock: 5+3 (as recorded; the time left is not kept)" in printed.stdout
    played = run_typed("--load", "timed.json", lines=["quit", "4"], cwd=tmp_path)
    assert ("This game was played on a 5+3 clock; it goes on without one (the record keeps "
            "no time left).") in played.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--rule", "freestyle"], "--rule freestyle: the game in renju.json is renju; leave out "
                              "--rule to play it under its own rule"),
    (["--size", "9"], "--size 9: the game in renju.json is played on a 15x15 board; leave "
                      "out the size to play it at its own"),
    (["--width", "15", "--height", "12"], "--width 15 --height 12: the game in renju.json"),
])
def test_options_that_clash_with_a_loaded_record_are_refused(tmp_path, args, message):
    saved_position(tmp_path / "renju.json", [(7, 7), (8, 7)], [(0, 0)])
    result = run_play("--load", "renju.json", *args, "--print", cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.splitlines()) == 1
    agreeing = run_play("--load", "renju.json", "--rule", "renju", "--size", "15", "--print",
                        cwd=tmp_path)
    assert agreeing.returncode == 0 and "Rule: renju" in agreeing.stdout


def test_a_rule_given_for_a_psq_is_applied(tmp_path):
    (tmp_path / "game.psq").write_text("Piskvorky 15x15, 0:0, 0\n8,8,0\n9,9,0\n")
    result = run_play("--load", "game.psq", "--rule", "renju", "--print", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Rule: renju" in result.stdout


def test_a_width_alone_makes_a_square_board(tmp_path):
    result = run_play("--width", "10", "--print", cwd=tmp_path)
    assert "board 10x10" in result.stdout
    result = run_play("--width", "10", "--height", "7", "--print", cwd=tmp_path)
    assert "board 10x7" in result.stdout


def test_numbers_of_thousands_of_digits_and_huge_lines_at_the_prompts(tmp_path):
    digits = "1" * 5000
    result = run_typed("--size", "7", lines=[
        "3", "4", "3", digits, "7", "", "10",  # Settings, board size, another size: 7x7
        "2", f"{digits} A", f"A{digits}", f"hint {digits}", "x" * 1_000_000, "quit", "4"],
        cwd=tmp_path)
    assert result.returncode == 0
    out = result.stdout
    assert f"{digits[:37]}... is out of range: enter a number from 5 to 64." in out
    assert f"{digits[:37]}... A is off the board: rows are 1 to 7 and columns A to G." in out
    assert f"Usage: hint N, with N from 1 to 5 (got '{digits[:37]}...')." in out
    assert f"Cannot read '{'x' * 37}...' as a move" in out
    assert max(len(line) for line in out.splitlines()) < 300


def test_a_number_of_thousands_of_digits_in_moves(tmp_path):
    result = run_play("--moves", "h" + "1" * 5000, "--print", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == ("gridgames play: h111111111111111111111111111111111111... is off "
                             "the 19x19 board (columns a to s, rows 1 to 19)\n")


def test_save_and_load_read_a_tilde_as_the_home_folder(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    result = run_typed("--size", "9", lines=["2", "1 a", "save ~/game.json", "load ~/game.json",
                                             "quit", "4"], cwd=tmp_path, home=home)
    assert "Saved 1 move to ~/game.json." in result.stdout
    assert "Loaded ~/game.json: freestyle, 9x9, 1 move." in result.stdout
    assert (home / "game.json").is_file() and not (tmp_path / "~").exists()


def test_the_instructions_list_every_command_of_the_move_prompt(tmp_path):
    result = run_typed(lines=["1", "", "4"], cwd=tmp_path)
    text = " ".join(result.stdout.split())
    assert ("At the move prompt you can also type undo, hint, hint N (the N best moves), "
            "resign, save FILE, load FILE, help or quit (back to the main menu).") in text
    # black's, not player 1's: an opening rule may give player 1 white
    assert "when black is to move, the points black may not play" in text


def test_a_game_over_can_still_be_saved(tmp_path):
    """The move prompt goes with the game's end: save FILE at "Play again?" keeps the game,
    a resignation too, which nothing else in the terminal could record."""
    five = ["1 a", "2 a", "1 b", "2 b", "1 c", "2 c", "1 d", "2 d", "1 e"]
    result = run_typed("--size", "9", lines=["2", *five, "save won.json", "menu",
                                             "2", "5 e", "resign", "save", "save lost.json",
                                             "n"], cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.count("Type save FILE to keep a record of this game, or menu for "
                               "the main menu.") == 2
    assert "Saved 9 moves to won.json." in result.stdout
    assert "Usage: save FILE (FILE.psq for Piskvork format, else JSON)." in result.stdout
    won = load(tmp_path / "won.json")
    assert (won.result, len(won.moves)) == ("1-0", 9)
    lost = load(tmp_path / "lost.json")
    assert (lost.result, lost.termination, len(lost.moves)) == ("1-0", "resignation", 1)
