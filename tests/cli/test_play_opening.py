"""Opening rules in the terminal game: the opening phase driven in-process with scripted
input, and ``gridgames play --opening`` end to end."""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest
from cli_helpers import ScriptedConsole

from gridgames.cli import play
from gridgames.cli.gomoku_game import Console, Game, GameEnd, Mode, Settings
from gridgames.cli.gomoku_opening import OpeningPhase, input_forms, parse_points, typed_action
from gridgames.cli.gomoku_view import Style, format_move, parse_move
from gridgames.cli.main import main
from gridgames.gomoku import Board, Color, InvalidMoveError, Point, Rule
from gridgames.gomoku.opening_rules import Opening, OpeningError, OpeningRule, Player
from gridgames.gomoku.records import GameRecord, load, save

CENTRE = (7, 7)  # 8 H on 15x15
MENU_PROMPT = "Select an option (1-5): "
# The first computer move may compile the engine's kernels on a fresh machine.
ENGINE_TIMEOUT = 180


def steps_from_centre(point: Point) -> int:
    return max(abs(point[0] - CENTRE[0]), abs(point[1] - CENTRE[1]))


# -- reading what is typed ----------------------------------------------------------


def test_the_openings_points_are_named_as_the_screen_labels_them():
    phase = OpeningPhase(Settings(opening=OpeningRule.SOOSORV, width=15, height=15),
                         Console(color=False))
    phase.opening.apply("place h8")
    assert phase.step_line(Player.FIRST) == (
        "Player 1: place the 2nd stone (white) in the central 3×3, 9 G to 7 I")
    with pytest.raises(OpeningError, match=r"^8 H is occupied by black$"):
        phase.opening.apply(typed_action(phase.opening, "8 H", phase.style))
    # what the player typed is quoted as typed
    phase.opening.apply("place i9")
    phase.opening.apply("place j8")
    with pytest.raises(OpeningError, match="choose black or white, not 'a1'"):
        phase.opening.apply(typed_action(phase.opening, "choose a1", phase.style))


def test_taraguchi_fifth_one_point_placed_several_offered():
    style = Style(color=False)
    taraguchi = Opening.replay(OpeningRule.TARAGUCHI, Board(15), [
        "place h8", "choose black", "place i9", "choose black", "place j8", "choose white",
        "place g6", "choose white"])
    assert input_forms(taraguchi) == "a point, or 10 points to offer"
    assert typed_action(taraguchi, "8 G", style) == "place g8"
    ten = ", ".join(f"{row} A" for row in range(1, 11))
    assert typed_action(taraguchi, ten, style).startswith("offer a15 a14 ")


@pytest.mark.parametrize("text", ["6 H, 7 J, 10 G", "H6 J7 G10", "6h 7j 10g", "h 6, 7 j g10"])
def test_several_points_in_any_of_the_screen_forms(text):
    assert parse_points(text, 15, 15) == [(7, 5), (9, 6), (6, 9)]


@pytest.mark.parametrize("text", ["", "6 H 7", "H6 banana", "6 H; 7"])
def test_points_that_cannot_be_read(text):
    with pytest.raises(InvalidMoveError, match="type them as on the board"):
        parse_points(text, 15, 15)


def test_short_and_full_forms_become_the_openings_actions():
    style = Style()
    opening = Opening(OpeningRule.SWAP2, Board(15))
    assert typed_action(opening, "8 H", style) == "place h8"
    assert typed_action(opening, "place H8", style) == "place h8"
    assert typed_action(opening, "1 A", style) == "place a15"  # row 1 is the top row
    for text in ["place h8", "place h9", "place h10"]:
        opening.apply(text)
    # Swap2's second player may choose or place: a colour word chooses, a point places.
    assert typed_action(opening, "w", style) == "choose white"
    assert typed_action(opening, "Black", style) == "choose black"
    assert typed_action(opening, "x", style) == "choose white"  # white's symbol
    assert typed_action(opening, "7 J", style) == "place j9"
    with pytest.raises(OpeningError, match="Cannot read 'banana': type black, white or a point"):
        typed_action(opening, "banana", style)

    soosorv = Opening(OpeningRule.SOOSORV, Board(15))
    for text in ["place h8", "place h9", "place h10", "choose white", "place h4"]:
        soosorv.apply(text)
    assert typed_action(soosorv, "3", style) == "declare 3"
    soosorv.apply("declare 2")
    soosorv.apply("choose black")
    assert typed_action(soosorv, "8 A, 9 A", style) == "offer a8 a7"
    soosorv.apply("offer a8 a7")
    assert typed_action(soosorv, "9 A", style) == "pick a7"


# -- humans against each other ------------------------------------------------------


def test_a_swap2_opening_between_humans_then_a_game_to_a_win_and_another_opening():
    settings = Settings(mode=Mode.HUMAN_HUMAN, opening=OpeningRule.SWAP2, width=15, height=15,
                        pause=0)
    console = ScriptedConsole([
        "2",                                # main menu: start game
        "8 H", "8 I", "place 7 J",          # player 1: black, white, black
        "9 J", "6 F",                       # player 2 places two more (white, black)
        "w",                                # player 1 takes white, so moves next
        "undo",                             # the opening's stones stay
        "1 A", "undo", "1 A",               # undo takes back a move of the game
        "15 A", "1 B", "15 C", "1 C", "15 E", "1 D", "15 G", "1 E",
        "y",                                # play again: a new opening
        "quit",                             # leave it at its first step
        "4",
    ])
    play.main_menu(settings, console)
    text = console.text
    assert "(Current game: human vs human; freestyle; Swap2 opening; 15x15 board)" in text
    assert "Player 1: place the 1st stone (black)" in console.output
    assert "Player 1: place the 3rd stone (black)" in console.output
    assert console.after("Player 2: choose black, choose white (and play the 4th stone), "
                         "or place two more stones") == "Player 2, type black, white or a point: "
    assert "Player 2: place the 5th stone (black)" in console.output
    assert console.after("Player 1: choose a colour: black or white") == (
        "Player 1, type black or white: ")
    assert "The opening is over: player 1 plays white (x); player 2 plays black (o)." in text
    assert "White (x) moves next." in text
    assert "Nothing to undo: the opening's stones cannot be taken back." in text
    assert "Took back 1 A." in text
    assert "Player 1 (x) make a move: " in console.output
    assert "Player 2 (o) make a move: " in console.output
    assert "Player 1 (x) wins! The winning line (marked *) is 1 A, 1 B, 1 C, 1 D, 1 E." in text
    assert text.count("Swap2 opening: the first player places three stones") == 2
    assert console.output[-1] == "Thank you for playing!"


def test_bad_inputs_get_a_clear_message_and_the_prompt_again(tmp_path: Path):
    settings = Settings(mode=Mode.HUMAN_HUMAN, opening=OpeningRule.SOOSORV, rule=Rule.RENJU,
                        width=15, height=15, pause=0)
    console = ScriptedConsole([
        "help", "banana", "1 A", "8 H",     # the 1st stone must be the centre
        "6 H", "undo", "7 H",               # the 2nd in the central 3x3
        "6 H",                              # the 3rd in the central 5x5
        "purple", "place 5 H", "w",         # player 2 takes white
        "11 H",                             # the 4th stone, anywhere
        "declare 99", "many", "2",
        "black",                            # player 1 keeps black
        "8 A 8 O", "8 A", "8 A, 9 A",       # the stones are symmetric left to right
        "8 O", "9 A",                       # white picks
        f"save {tmp_path / 'game.json'}", "quit",
    ])
    phase = OpeningPhase(settings, console)
    assert phase.run()
    out = console.output
    step_1 = "Player 1: place the 1st stone (black) at the centre, 8 H"
    assert "During the opening, type what the line above the prompt asks for:" in console.text
    for message in [
        "Cannot read 'banana': type a point (or help).",
        "1 A is outside that area: the 1st stone goes at the centre, 8 H.",
    ]:
        assert console.after(message) == step_1  # and then the prompt again
    assert console.after(step_1) == "Player 1, type a point: "
    assert console.after("6 H is outside that area: the 2nd stone goes in the central 3×3, "
                         "9 G to 7 I.") == ("Player 1: place the 2nd stone (white) in the "
                                            "central 3×3, 9 G to 7 I")
    assert "Undo is not available during the opening." in out
    assert "Choose black or white, not 'purple'." in out
    assert ("Cannot place now: choose a colour: black or white (the opening is 1D Kansei)."
            in out)
    assert "Declare 1 to 8 5th moves, not 99." in out
    assert "Declare a number of 5th moves, not 'many'." in out
    assert console.after("Declare a number of 5th moves, not 'many'.") == (
        "Player 2: declare how many 5th moves black must offer (1 to 8)")
    assert ("8 A and 8 O are symmetric: offer points no two of which are symmetric."
            in out)
    assert "Offer exactly 2 5th moves, not 1." in out
    assert "Pick one of the offers: 8 A, 9 A." in out
    assert ("The opening is over (1D Kansei): player 1 plays black (o); player 2 plays white "
            "(x)." in out)
    assert phase.opening.board.move_stack == [(7, 7), (7, 6), (7, 5), (7, 10), (0, 8)]
    assert phase.opening.history[-3:] == ["choose black", "offer a8 a7", "pick a7"]

    game = phase.game()
    assert game.play() is GameEnd.QUIT
    assert "Player 2 (x) make a move: " in console.output
    # A saved game holds the opening's stones too, and the opening itself.
    saved = load(tmp_path / "game.json")
    assert saved.moves == phase.opening.board.move_stack
    assert (saved.opening, saved.opening_actions) == (OpeningRule.SOOSORV,
                                                      phase.opening.history)


def test_a_game_loaded_with_its_opening_keeps_its_stones_and_colours(tmp_path: Path):
    # Player 1 ends the Swap opening with white; the game goes on two moves.
    opening = Opening.replay(OpeningRule.SWAP, Board(15),
                             ["place h8", "place i8", "place j6", "choose black"])
    board = opening.board.copy()
    board.push_many([(0, 0), (14, 14)])
    save(GameRecord.from_board(board, opening=opening), tmp_path / "swap.json")
    console = ScriptedConsole([f"load {tmp_path / 'swap.json'}", "undo", "undo", "undo", "quit"])
    game = Game(Settings(mode=Mode.HUMAN_HUMAN, width=15, height=15, pause=0), console)
    assert game.play() is GameEnd.QUIT
    assert game.player(Color.WHITE) is Player.FIRST  # the colours the opening gave
    assert "Player 1 (x) make a move: " in console.output
    assert console.text.count("Took back") == 2
    assert "Nothing to undo: the opening's stones cannot be taken back." in console.output
    assert game.board.move_stack == opening.board.move_stack


# -- against the computer -----------------------------------------------------------


def human_point(board: Board, allowed: Callable[[Point], bool] = lambda p: True) -> str:
    """A point a human may play now (not forbidden to black under renju), as typed on screen."""
    point = next(p for p in sorted(board.legal_moves, key=steps_from_centre)
                 if board.illegal_reason(p) is None and allowed(p))
    return format_move(point)


@pytest.mark.parametrize("swap", ["black", "white"])
def test_a_soosorv_opening_under_renju_with_the_human_first_then_play_goes_on(swap):
    """The human's colour choices (``swap``) lead to either the human or the computer
    offering the 5th moves; the game goes on with the colours the opening gave."""
    settings = Settings(mode=Mode.HUMAN_COMPUTER, opening=OpeningRule.SOOSORV, rule=Rule.RENJU,
                        width=15, height=15, level=1, seconds_per_move=0.5, pause=0)
    typed: list[Point] = []
    game: Game | None = None

    def human(prompt: str) -> str:
        """Each step of the opening as a human would answer it, then two moves and quit."""
        if game is not None:
            if len(typed) >= 2 or not prompt.endswith("make a move: "):
                return "quit"
            text = human_point(game.board)
            typed.append(parse_move(text, 15, 15))
            return text
        opening = phase.opening
        stones = len(opening.board)
        if prompt == "You, type a point: " and stones < 3:
            return human_point(opening.board, lambda p: steps_from_centre(p) == stones)
        if prompt == "You, type a point: ":
            return human_point(opening.board)
        if prompt == "You, type black or white: ":
            return swap
        if prompt == "You, type a number: ":
            return "2"
        offer = re.fullmatch(r"You, type (\d+) points?: ", prompt)
        if offer:
            groups = opening.fifth_move_classes()[: int(offer[1])]  # no two symmetric
            return ", ".join(format_move(group[0]) for group in groups)
        if prompt == "You, type one of the offered points: ":
            return format_move(opening.offers[0])
        raise AssertionError(f"unexpected prompt {prompt!r}")

    console = ScriptedConsole(human)
    phase = OpeningPhase(settings, console, rng=random.Random(7))
    assert phase.run()
    opening = phase.opening
    stones = list(opening.board.move_stack)
    assert len(stones) == 5
    assert [steps_from_centre(p) for p in stones[:3]] == [0, 1, 2]  # the human's choices
    assert "You: place the 1st stone (black) at the centre, 8 H" in console.output
    assert "You: place the 2nd stone (white) in the central 3×3, 9 G to 7 I" in console.output
    assert re.search(r"Computer chooses (black|white) \([ox]\)\.", console.text)
    assert stones[4] in opening.offers

    human_color = opening.color(Player.FIRST)
    computer_color = human_color.other
    # Black offers the 5th moves and white picks one.
    said = "offers" if computer_color is Color.BLACK else "picks"
    assert re.search(rf"Computer {said} \d+ [A-O]", console.text)
    symbol = {Color.BLACK: "o", Color.WHITE: "x"}
    assert (f"The opening is over ({opening.renju_name}): you play {human_color.label} "
            f"({symbol[human_color]}); the computer plays {computer_color.label} "
            f"({symbol[computer_color]}).") in console.output

    game = phase.game()
    # The human plays two moves and quits, unless the computer wins first.
    assert game.play() in (GameEnd.QUIT, GameEnd.FINISHED)
    moves = game.board.move_stack
    assert moves[:5] == stones  # the game goes on from the opening's position
    assert typed and len(moves) > 5
    assert f"Player 1 ({symbol[human_color]}) make a move: " in console.output
    assert re.search(rf"Computer \({symbol[computer_color]}\) plays \d+ [A-O]", console.text)
    for index, point in enumerate(moves[5:], start=5):
        color = Color.BLACK if index % 2 == 0 else Color.WHITE
        assert color is (human_color if point in typed else computer_color)


def test_the_computer_as_first_player_under_swap():
    settings = Settings(mode=Mode.COMPUTER_HUMAN, opening=OpeningRule.SWAP, width=15,
                        height=15, level=1, seconds_per_move=0.5, pause=0)
    console = ScriptedConsole(["2", "black", "quit", "4"])
    play.main_menu(settings, console)
    text = console.text
    assert ("(Current game: human vs computer, you play player 2 (the computer begins the "
            "opening); freestyle; Swap opening; 15x15 board; computer level 1, 0.5 s per move)"
            in text)
    assert "The computer is player 1 and begins the opening; you are player 2." in text
    assert "Computer: place the 1st stone (black)" in console.output
    placed = re.search(r"Computer places (\d+ [A-O]), (\d+ [A-O]) and (\d+ [A-O])\.", text)
    assert placed is not None, text
    assert console.after("You: choose a colour: black or white") == "You, type black or white: "
    assert "The opening is over: you play black (o); the computer plays white (x)." in text
    # White plays the 4th stone: the computer, which holds white, moves first.
    reply = re.search(r"Computer \(x\) plays (\d+ [A-O])", text)
    assert reply is not None and reply[1] not in placed.groups()
    assert text.index("Computer (x) plays") < text.index("Player 2 (o) make a move: ")


def test_taraguchi_between_two_computers_then_the_game():
    settings = Settings(mode=Mode.COMPUTER_COMPUTER, opening=OpeningRule.TARAGUCHI,
                        rule=Rule.RENJU, width=15, height=15, level=1,
                        seconds_per_move=0.2, pause=0)
    phase = OpeningPhase(settings, ScriptedConsole([]), rng=random.Random(4))
    assert phase.run()
    opening = phase.opening
    assert opening.done and len(opening.board) == 5
    # a swap was offered after each stone placed in an area
    assert [a.split()[0] for a in opening.history[:8]] == ["place", "choose"] * 4
    for ring, point in enumerate(opening.board.move_stack[:4]):
        assert steps_from_centre(point) <= ring
    game = phase.game()
    assert game.board.move_stack == opening.board.move_stack


@pytest.mark.parametrize("size", [5, 7])
def test_taraguchi_between_two_computers_on_a_board_smaller_than_its_areas(size: int):
    settings = Settings(mode=Mode.COMPUTER_COMPUTER, opening=OpeningRule.TARAGUCHI,
                        rule=Rule.RENJU, width=size, height=size, level=1,
                        seconds_per_move=0.2, pause=0)
    console = ScriptedConsole([])
    phase = OpeningPhase(settings, console, rng=random.Random(4))
    assert phase.run()
    assert phase.opening.done and len(phase.opening.board) == 5
    # the 7×7 area covers the board: the prompt names none
    assert any(re.fullmatch(r"Computer [12]: place the 4th stone \(white\)", line)
               for line in console.output), console.text
    assert "The opening is over" in console.text


def test_taraguchi_on_a_7x7_board_in_the_real_program(tmp_path: Path):
    lines = ["2", "4 D", "black", "3 D", "black", "2 E", "black", "1 G", "black", "1 A",
             "white"]
    result = subprocess.run(
        [sys.executable, "-m", "gridgames.cli.main", "play", "--opening", "taraguchi",
         "--size", "7", "--rule", "renju"], input="\n".join(lines) + "\n",
        capture_output=True, text=True, cwd=tmp_path, timeout=ENGINE_TIMEOUT,
        env={**os.environ, "NO_COLOR": "1", "GRIDGAMES_PAUSE": "0"})
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0
    assert ("Player 1: place the 5th stone (black), or offer 10 5th moves anywhere, no two of "
            "them symmetric") in result.stdout
    assert "The opening is over" in result.stdout


def test_long_pro_on_an_8x8_board_states_and_plays_its_third_stone():
    settings = Settings(mode=Mode.HUMAN_HUMAN, opening=OpeningRule.LONG_PRO, width=8,
                        height=8, pause=0)
    console = ScriptedConsole(["5 E", "2 B", "5 A"])
    phase = OpeningPhase(settings, console)
    assert phase.run()
    assert ("Player 1: place the 3rd stone (black) at least 4 intersections from the "
            "centre, 5 E") in console.output
    assert phase.opening.board.move_stack[2] == (0, 4)


def test_yamaguchi_between_two_computers():
    settings = Settings(mode=Mode.COMPUTER_COMPUTER, opening=OpeningRule.YAMAGUCHI,
                        rule=Rule.RENJU, width=15, height=15, level=1,
                        seconds_per_move=0.2, pause=0)
    console = ScriptedConsole([])
    phase = OpeningPhase(settings, console, rng=random.Random(5))
    assert phase.run()
    opening = phase.opening
    kinds = [a.split()[0] for a in opening.history]
    assert kinds == ["place"] * 3 + ["declare", "choose", "place", "offer", "pick"]
    assert opening.renju_name is not None and len(opening.board) == 5
    declared = opening.declared
    assert re.search(rf"Computer 1 declares {declared} fifth moves?\.", console.text)


def test_long_pro_third_stone_too_near_is_refused_then_the_computer_moves():
    settings = Settings(mode=Mode.HUMAN_COMPUTER, opening=OpeningRule.LONG_PRO, width=15,
                        height=15, level=1, seconds_per_move=0.3, pause=0)
    console = ScriptedConsole(["8 H", "9 J", "12 H", "quit"])
    phase = OpeningPhase(settings, console, rng=random.Random(1))
    assert phase.run()
    assert "You: place the 1st stone (black) at the centre, 8 H" in console.output
    assert ("You: place the 3rd stone (black) at least 4 intersections from the centre, 8 H"
            in console.output)
    assert "9 J is outside that area" in console.text
    opening = phase.opening
    assert opening.board.move_stack[2] == parse_move("12 H", 15, 15)
    assert opening.player(Color.BLACK) is Player.FIRST and opening.board.to_move is Color.WHITE
    game = phase.game()
    game.play()
    assert len(game.board) == 4  # the computer, white, moved; then the human quit


def test_a_board_too_small_for_the_rule_returns_to_the_menu():
    settings = Settings(mode=Mode.HUMAN_HUMAN, opening=OpeningRule.LONG_PRO, width=7,
                        height=7, pause=0)
    console = ScriptedConsole(["2", "4"])
    play.main_menu(settings, console)
    assert ("Long Pro needs a board of 8 or more on a side: its 3rd stone goes at least 4 "
            "intersections from the centre; choose another opening rule or a larger board "
            "in Settings.") in console.output
    assert console.output[-1] == "Thank you for playing!"


def test_the_move_found_during_the_opening_is_played_without_searching_again(monkeypatch):
    from gridgames.cli import gomoku_game

    def no_search(*args: object) -> None:
        raise AssertionError("searched again")

    monkeypatch.setattr(gomoku_game, "think", no_search)
    # The second player took white and found 7 I while deciding.
    opening = Opening.replay(OpeningRule.SWAP, Board(15),
                             ["place h8", "place i8", "place j6", "choose white"])
    assert opening.board.move_stack == [(7, 7), (8, 7), (9, 9)]
    console = ScriptedConsole(["quit"])
    game = Game(Settings(mode=Mode.HUMAN_COMPUTER, pause=0), console, opening.board.copy(),
                opening=opening, prepared_move=(8, 6))
    assert game.play() is GameEnd.QUIT
    assert "Computer (x) plays 7 I (found while deciding the opening)" in console.output
    assert game.board.move_stack[-1] == (8, 6)


def test_a_given_starting_position_skips_the_opening():
    board = Board(15)
    board.push((7, 7))
    console = ScriptedConsole(["quit"])
    play.play_games(Settings(opening=OpeningRule.SWAP, pause=0), console, board)
    assert ("The game starts from the position given, so there is no Swap opening this time."
            in console.output)
    assert "Player 2 (x) make a move: " in console.output


# -- the option -----------------------------------------------------------------------


def test_an_unknown_opening_rule_is_refused_with_the_choices(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--opening", "nonsense"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1] == (
        "gridgames play: error: argument --opening: unknown opening rule 'nonsense': "
        "choose one of free, swap, swap2, soosorv, yamaguchi, taraguchi, pro, longpro")


def test_the_option_is_listed_and_read_as_the_rule_names_it(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    assert ("--opening {free,swap,swap2,soosorv,yamaguchi,taraguchi,pro,longpro}"
            in capsys.readouterr().out)
    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    assert play.settings_from_args(parser.parse_args(["--opening", "Soosõrv"])).opening is (
        OpeningRule.SOOSORV)
    assert play.settings_from_args(parser.parse_args([])).opening is OpeningRule.FREE


def spawn(*args: str, cwd: Path) -> pexpect.spawn:
    """``gridgames play`` in a pseudo-terminal, as a user's terminal runs it."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(NO_COLOR="1", GRIDGAMES_PAUSE="0", TERM="xterm")
    return pexpect.spawn(sys.executable, ["-m", "gridgames.cli.main", "play", *args], env=env,
                         cwd=str(cwd), encoding="utf-8", timeout=60, dimensions=(50, 120))


def answer(child: pexpect.spawn, prompt: str, text: str) -> None:
    child.expect_exact(prompt)
    child.sendline(text)


def test_swap2_against_the_computer_in_the_real_program(tmp_path: Path):
    child = spawn("--opening", "swap2", "--mode", "computer-human", "--level", "1",
                  "--time", "0.5", "--size", "15", cwd=tmp_path)
    child.expect_exact("Swap2 opening; 15x15 board")
    answer(child, MENU_PROMPT, "2")
    child.expect_exact("The computer is player 1 and begins the opening; you are player 2.")
    child.expect(r"Computer places \d+ [A-O], \d+ [A-O] and \d+ [A-O]\.",
                 timeout=ENGINE_TIMEOUT)
    prompt = "You, type black, white or a point: "
    answer(child, prompt, "hint")  # what the computer would do as player 2
    child.expect(r"Hint: in your place the computer (chooses (black|white) \([ox]\)|places "
                 r"\d+ [A-O] and \d+ [A-O])\.", timeout=ENGINE_TIMEOUT)
    answer(child, prompt, "undo")
    child.expect_exact("Undo is not available during the opening.")
    answer(child, prompt, "white")
    child.expect_exact("The opening is over: you play white (x); the computer plays black (o).")
    answer(child, "Player 2 (x) make a move: ", "1 A")  # far from the computer's stones
    child.expect(r"Computer \(o\) plays \d+ [A-O]", timeout=ENGINE_TIMEOUT)
    answer(child, "Player 2 (x) make a move: ", "quit")
    answer(child, MENU_PROMPT, "2")  # the same settings: a new opening
    child.expect_exact(prompt, timeout=ENGINE_TIMEOUT)
    child.sendeof()
    child.expect_exact("Goodbye!")
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in (child.before or "")
    assert child.exitstatus == 0


def test_ctrl_c_while_the_computer_decides_its_opening_exits_cleanly(tmp_path: Path):
    child = spawn("--opening", "swap2", "--mode", "computer-human", "--level", "max",
                  "--time", "60", "--size", "15", cwd=tmp_path)
    answer(child, MENU_PROMPT, "2")
    child.expect_exact("Computer is thinking...", timeout=ENGINE_TIMEOUT)
    child.sendintr()
    child.expect_exact("Goodbye!", timeout=10)
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in (child.before or "")
    assert child.exitstatus == 130


def quit_the_program(child: pexpect.spawn, prompt: str) -> None:
    """``quit`` at ``prompt``, then the menu's Quit: the program ends cleanly."""
    answer(child, prompt, "quit")
    answer(child, MENU_PROMPT, "4")
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in (child.before or "")
    assert child.exitstatus == 0


def saved_during_swap2(path: Path) -> None:
    """A 15x15 game saved (as the web app saves it) with player 2 to choose a colour."""
    opening = Opening.replay(OpeningRule.SWAP2, Board(15), ["place h8", "place i9", "place j10"])
    save(GameRecord.from_board(opening.board, opening=opening), path)


def test_a_game_saved_during_its_opening_goes_on_with_the_opening(tmp_path: Path):
    """Such a game once went straight on to white's move: player 2's choice was skipped."""
    saved_during_swap2(tmp_path / "swap2.json")
    child = spawn("--load", "swap2.json", cwd=tmp_path)
    child.expect_exact("The game was saved during the opening, after 3 steps; it goes on "
                       "from there.")
    answer(child, "Player 2, type black, white or a point: ", "white")
    child.expect_exact("The opening is over: player 1 plays black (o); player 2 plays white "
                       "(x).")
    answer(child, "Player 2 (x) make a move: ", "1 A")
    quit_the_program(child, "Player 1 (o) make a move: ")


def test_a_game_saved_during_its_opening_loaded_at_the_move_prompt(tmp_path: Path):
    saved_during_swap2(tmp_path / "swap2.json")
    child = spawn("--size", "19", cwd=tmp_path)
    answer(child, MENU_PROMPT, "2")
    answer(child, "Player 1 (o) make a move: ", "10 J")
    answer(child, "Player 2 (x) make a move: ", "load swap2.json")
    child.expect_exact("Loaded swap2.json: a 15x15 game saved during its Swap2 opening, "
                       "which goes on.")
    answer(child, "Player 2, type black, white or a point: ", "black")
    child.expect_exact("The opening is over: player 1 plays white (x); player 2 plays black "
                       "(o).")
    answer(child, "Player 1 (x) make a move: ", "15 O")  # the saved game's 15x15 board
    quit_the_program(child, "Player 2 (o) make a move: ")


def test_moves_cannot_be_added_to_a_game_saved_during_its_opening(tmp_path: Path):
    saved_during_swap2(tmp_path / "swap2.json")
    result = subprocess.run([sys.executable, "-m", "gridgames.cli.main", "play", "--load",
                             "swap2.json", "--moves", "a1"], cwd=tmp_path, input="4\n",
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr == (
        "gridgames play: --moves: the game in swap2.json was saved during its Swap2 opening: "
        "no move can be added before the opening is over; leave out --moves to finish it\n")
