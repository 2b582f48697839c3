"""The terminal game on a clock: each side's time shown and spent, the computer on its
clock, a move typed after the flag fell, and ``--clock`` read and refused."""

from __future__ import annotations

import argparse
import re
import time

import pytest
from cli_helpers import ScriptedConsole

from gridgames.cli import play
from gridgames.cli.gomoku_game import Game, GameEnd, Mode, Settings
from gridgames.cli.main import main
from gridgames.gomoku import Color


def settings(mode: Mode, clock: str) -> Settings:
    return Settings(mode=mode, width=15, height=15, level=1, seconds_per_move=0.3,
                    pause=0, clock=clock)


def test_a_move_typed_after_the_flag_fell_loses_on_time() -> None:
    def answer(prompt: str) -> str:
        if prompt.startswith("Player 2"):
            time.sleep(1.3)  # white's 1.2 s run out while it thinks
        return "8 H" if prompt.startswith("Player 1") else "9 H"

    console = ScriptedConsole(answer)
    game = Game(settings(Mode.HUMAN_HUMAN, "0.02"), console)  # 1.2 s a side
    assert game.play() is GameEnd.FINISHED
    assert len(game.board) == 1 and (game.loser, game.termination) == (Color.WHITE, "time forfeit")
    assert "Player 2 (x)'s time ran out: Player 1 (o) wins on time." in console.output
    assert re.search(r"Clock: Player 1 \(o\) 1\.\d, Player 2 \(x\) 1\.2\.", console.text)


def test_the_computer_plays_on_its_clock_and_undo_is_off() -> None:
    answers = ["8 H", "undo", "quit"]
    console = ScriptedConsole(answers)
    game = Game(settings(Mode.HUMAN_COMPUTER, "0.5+1"), console)  # 30 s a side
    assert game.play() is GameEnd.QUIT
    assert len(game.board) == 2  # the human's move and the computer's reply
    assert "Moves cannot be taken back in a game with a clock." in console.output
    clock = game.clock
    assert clock is not None and clock.running is Color.BLACK
    spent = 30_000 + 1000 - clock.left[Color.WHITE]
    assert 0 <= spent <= 400  # within its 0.3 s a move, its second added back
    lines = [line for line in console.output if line.startswith("Clock: ")]
    assert lines[0] == "Clock: Player 1 (o) 0:30, Computer (x) 0:30."
    # the human's second added; the computer's time runs from the human's move
    assert re.fullmatch(r"Clock: Player 1 \(o\) 0:3[01], Computer \(x\) 0:(2\d|30)\.", lines[1])


def test_the_clock_option_is_read_and_shown(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    chosen = play.settings_from_args(parser.parse_args(["--clock", "5+3"]))
    assert chosen.clock == "5+3" and chosen.summary().endswith("; clock 5+3")
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--clock", "5 minutes"])
    assert exit_.value.code == 2
    assert ("argument --clock: cannot read the clock '5 minutes': write minutes a side and "
            "seconds added a move, such as 5+3") in capsys.readouterr().err


def test_resigning_ends_the_game_for_the_other_side() -> None:
    console = ScriptedConsole(["8 H", "resign"])
    game = Game(settings(Mode.HUMAN_HUMAN, "5+0"), console)
    assert game.play() is GameEnd.FINISHED
    assert (game.loser, game.termination) == (Color.WHITE, "resignation")
    assert console.output[-1] == "Player 2 (x) resigns: Player 1 (o) wins."
