"""The terminal Gomoku game loop and menus, driven in-process with scripted input."""

from __future__ import annotations

import pytest
from cli_helpers import ScriptedConsole

from gridgames.cli import gomoku_game, play
from gridgames.cli.gomoku_game import Game, GameEnd, Mode, Settings
from gridgames.gomoku import Board, Point
from gridgames.gomoku.ai import SearchResult
from gridgames.gomoku.opening_rules import OpeningRule


@pytest.fixture
def engine(monkeypatch):
    """A stand-in engine that plays the first empty point of a list, so tests are instant."""
    plays: list[Point] = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0)]

    def fake_think(console, board, limit, activity, clock=None):
        move = next(p for p in plays if board[p] is None)
        return SearchResult(move, 35, None, 9, (move,), 100, 1, 100)

    monkeypatch.setattr(gomoku_game, "think", fake_think)
    return plays


def test_the_computer_announces_its_move_with_score_and_depth(engine):
    console = ScriptedConsole(["8 h", "quit"])
    game = Game(Settings(mode=Mode.COMPUTER_HUMAN, pause=0), console)
    assert game.play() is GameEnd.QUIT
    assert "Computer (o) plays 1 A (score +35, depth 9)" in console.text
    assert "Player 2 (x) make a move: " in console.output
    assert game.board.move_stack == [(0, 0), (7, 7), (1, 0)]


def test_undo_against_the_computer_goes_back_to_the_humans_previous_turn(engine):
    console = ScriptedConsole(["undo", "8 h", "undo", "undo", "quit"])
    game = Game(Settings(mode=Mode.COMPUTER_HUMAN, pause=0), console)
    game.play()
    assert "Nothing to undo." in console.output
    assert "Took back 8 H and 1 B." in console.output
    # After the undo the computer does not move again: it is still the human's turn.
    assert game.board.move_stack == [(0, 0)]
    assert console.text.count("Computer (o) plays") == 2


def test_undo_between_humans_takes_back_one_move():
    console = ScriptedConsole(["1 a", "2 b", "undo", "quit"])
    game = Game(Settings(pause=0), console)
    game.play()
    assert "Took back 2 B." in console.output
    assert game.board.move_stack == [(0, 0)]


def test_computers_play_to_a_result(engine):
    console = ScriptedConsole([])
    game = Game(Settings(mode=Mode.COMPUTER_COMPUTER, width=9, height=9, pause=0), console)
    engine[:] = [(x, y) for x in range(9) for y in (0, 1)]  # o on row 1, x on row 2
    assert game.play() is GameEnd.FINISHED
    assert "Computer 1 (o) wins! The winning line (marked *) is 1 A, 1 B, 1 C, 1 D, 1 E." in (
        console.output)


def test_a_full_board_is_a_draw():
    # Colouring (x // 2 + y) % 2 fills 5x5 with 13 black and 12 white and no line of five.
    cells = [(x, y) for y in range(5) for x in range(5)]
    black = [p for p in cells if (p[0] // 2 + p[1]) % 2 == 0]
    white = [p for p in cells if (p[0] // 2 + p[1]) % 2 == 1]
    board = Board(5)
    for index, point in enumerate(white):
        board.push(black[index])
        board.push(point)
    x, y = black[-1]
    console = ScriptedConsole([f"{y + 1} {'ABCDE'[x]}"])
    assert Game(Settings(pause=0), console, board).play() is GameEnd.FINISHED
    assert "The board is full: the game is a draw." in console.output


def test_engine_failure_is_reported_and_ends_the_game(monkeypatch):
    def broken_think(console, board, limit, activity, clock=None):
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(gomoku_game, "think", broken_think)
    console = ScriptedConsole([])
    game = Game(Settings(mode=Mode.COMPUTER_HUMAN, pause=0), console)
    assert game.play() is GameEnd.QUIT
    assert "The computer could not move: engine exploded" in console.output


def test_hint(engine):
    console = ScriptedConsole(["hint", "quit"])
    Game(Settings(pause=0), console).play()
    assert "Hint for Player 1 (o): 1 A (score +35, depth 9)" in console.output


def test_main_menu_rejects_bad_choices_and_quits():
    console = ScriptedConsole(["", "five", "4"])
    play.main_menu(Settings(), console)
    assert "'' is not an option: enter 1, 2, 3, 4 or 5." in console.output
    assert "'five' is not an option: enter 1, 2, 3, 4 or 5." in console.output
    assert console.output[-1] == "Thank you for playing!"


FIVE_IN_ROW_1 = ["1 a", "2 a", "1 b", "2 b", "1 c", "2 c", "1 d", "2 d", "1 e"]


def test_no_to_play_again_thanks_the_player_and_ends_the_program():
    """As in the original design: N at "Play again?" shows a thank-you and the program
    ends (it once went back to the main menu without a word)."""
    console = ScriptedConsole(["2", *FIVE_IN_ROW_1, "maybe", "n"])
    play.main_menu(Settings(width=9, height=9, pause=0), console)  # no EOFError: it ended
    assert "Please answer Y or N (or save FILE to keep this game, or menu for the main " \
           "menu)." in console.output
    assert console.output[-2:] == ["Play again? (Y/N): ", "Thank you for playing!"]
    assert console.output.count("Select an option (1-5): ") == 1


def test_menu_at_play_again_goes_back_to_the_main_menu():
    console = ScriptedConsole(["2", *FIVE_IN_ROW_1, "menu", "4"])
    play.main_menu(Settings(width=9, height=9, pause=0), console)
    assert console.output.count("Select an option (1-5): ") == 2
    assert console.output[-1] == "Thank you for playing!"


def test_settings_menu_changes_every_setting():
    settings = Settings()
    console = ScriptedConsole([
        "1", "4",             # computer vs computer
        "2", "5",             # caro-exact
        "3", "3",             # Swap2
        "4", "3", "4", "70", "30", "",  # another size: bad width, width 30, height kept
        "5", "2",             # level 2
        "6", "",              # time kept
        "7", "ab", "@", "+",  # a bad symbol is refused at once
        "8", "0.25",
        "9", "soon", "3+2",   # a bad clock is refused at once
        "10",
    ])
    play.settings_menu(settings, console)
    assert settings.mode is Mode.COMPUTER_COMPUTER
    assert settings.rule.value == "caro-exact"
    assert settings.opening is OpeningRule.SWAP2
    assert "  3. Opening rule: Swap2" in console.output
    assert (settings.width, settings.height) == (30, 19)
    assert "4 is out of range: enter a number from 5 to 64." in console.output
    assert settings.level == 2 and settings.seconds_per_move == 3.0
    assert "Cannot use that symbol: 'ab' is not a single visible character." in console.output
    assert settings.symbols == ("@", "+") and settings.pause == 0.25
    assert settings.clock == "3+2" and "  9. Clock: 3+2" in console.output
    assert ("cannot read the clock 'soon': write minutes a side and seconds added a move, "
            "such as 5+3 (or 10 for no increment).") in console.output


@pytest.mark.parametrize(("symbols", "problem"), [
    (("o", "x"), None),
    (("o",), "give exactly two characters"),
    (("o", "o"), "different symbols"),
    ((".", "x"), "used to draw the board"),
    (("o", "!"), "used to draw the board"),
    ((" ", "x"), "not a single visible character"),
    (("ｏ", "x"), "not a single visible character"),  # full width: two columns on screen
    (("o", "\u20dd"), "not a single visible character"),  # an enclosing circle: no width
])
def test_symbol_rules(symbols, problem):
    found = play.symbols_problem(symbols)
    assert found == problem if problem is None else problem in (found or "")


def test_hint_with_a_count_lists_the_best_moves():
    console = ScriptedConsole(["10 J", "hint 3", "hint 9", "quit"])
    Game(Settings(pause=0, seconds_per_move=0.2), console).play()
    start = console.output.index("Best moves for white:")
    lines = console.output[start + 1:start + 4]
    assert [line.split()[0] for line in lines] == ["1.", "2.", "3."]
    assert len({line.split()[1:3][0] + line.split()[2] for line in lines}) == 3
    assert all("score" in line for line in lines)
    assert "Usage: hint N, with N from 1 to 5 (got '9')." in console.output
