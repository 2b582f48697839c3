"""Whole-number options: one shared argparse type, refused by argparse with exit status 2."""

from __future__ import annotations

import argparse

import pytest

from gridgames.cli.gomoku_game import PAUSE_SECONDS, SECONDS_PER_MOVE
from gridgames.cli.main import main
from gridgames.cli.options import whole_number
from gridgames.gomoku import MAX_SIZE, MIN_SIZE
from gridgames.gomoku.match import MAX_CONCURRENCY, MAX_GAMES, MAX_NODES, MAX_TIME_MS
from gridgames.gomoku.notation import shown
from gridgames.web.engine import MAX_QUEUE_LIMIT, MAX_WORKERS

# (command and the arguments it needs, option, its minimum)
OPTIONS = [
    (["puzzle"], "--id", 1),
    (["match", "level:1", "level:1"], "--seed", 0),
    (["brain"], "--seed", 0),
]
# (command and the arguments it needs, option, its least and greatest value)
BOUNDED = [
    (["analyse", "h8i9"], "--depth", 1, 20),
    (["analyse", "h8i9"], "--size", MIN_SIZE, MAX_SIZE),
    (["play", "--print"], "--size", MIN_SIZE, MAX_SIZE),
    (["play", "--print"], "--width", MIN_SIZE, MAX_SIZE),
    (["play", "--print"], "--height", MIN_SIZE, MAX_SIZE),
    (["match", "level:1", "level:1"], "--size", MIN_SIZE, MAX_SIZE),
    (["match", "level:1", "level:1"], "--width", MIN_SIZE, MAX_SIZE),
    (["match", "level:1", "level:1"], "--height", MIN_SIZE, MAX_SIZE),
    (["tournament", "level:1", "level:2"], "--size", MIN_SIZE, MAX_SIZE),
    (["brain"], "--threads", 1, 8),
    (["match", "level:1", "level:1"], "--tolerance-ms", 0, MAX_TIME_MS),
    (["match", "level:1", "level:1"], "--start-timeout-ms", 1, MAX_TIME_MS),
    # once unbounded: thousands of digits printed whole ("Match a vs b: 999... games"),
    # or a traceback (--time-ms: OverflowError; the server's start-up)
    (["analyse", "h8i9"], "--time-ms", 1, MAX_TIME_MS),
    (["match", "level:1", "level:1"], "--games", 1, MAX_GAMES),
    (["match", "level:1", "level:1"], "--concurrency", 1, MAX_CONCURRENCY),
    (["match", "level:1", "level:1"], "--time-ms", 0, MAX_TIME_MS),
    (["match", "level:1", "level:1"], "--match-time-ms", 1, MAX_TIME_MS),
    (["match", "level:1", "level:1"], "--nodes", 1, MAX_NODES),
    (["tournament", "level:1", "level:2"], "--games", 1, MAX_GAMES),
    (["tournament", "level:1", "level:2"], "--concurrency", 1, MAX_CONCURRENCY),
    (["serve"], "--workers", 1, MAX_WORKERS),
    (["serve"], "--queue-limit", 1, MAX_QUEUE_LIMIT),
]
# (command and the arguments it needs, option, its least and greatest number of seconds)
SECONDS = [
    (["play", "--print"], "--time", *SECONDS_PER_MOVE),
    (["play", "--print"], "--pause", *PAUSE_SECONDS),
]
# where each command's options are declared
MODULES = {"analyse": "gridgames.cli.analyse", "match": "gridgames.cli.match",
           "tournament": "gridgames.cli.tournament", "puzzle": "gridgames.cli.puzzle",
           "serve": "gridgames.web.cli", "play": "gridgames.cli.play",
           "brain": "gridgames.cli.brain"}


def test_whole_number_parses_the_minimum_and_more() -> None:
    assert whole_number(1)("1") == 1
    assert whole_number(0)("0") == 0
    assert whole_number(1)("250") == 250


@pytest.mark.parametrize("minimum, text, message", [
    (1, "0", "must be a whole number of 1 or more, got 0"),
    (0, "-1", "must be a whole number of 0 or more, got -1"),
    (1, "abc", "must be a whole number of 1 or more, got 'abc'"),
    (1, "1.5", "must be a whole number of 1 or more, got '1.5'"),
    (1, "", "must be a whole number of 1 or more, got ''"),
    # more digits than Python converts: refused with the text clipped
    (1, "1" * 5000, "must be a whole number of 1 or more, got "
                    "'1111111111111111111111111111111111111...'"),
])
def test_whole_number_says_what_was_wrong_and_what_is_allowed(
        minimum: int, text: str, message: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as error:
        whole_number(minimum)(text)
    assert str(error.value) == message


def refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The error line of a command line that argparse refuses (exit status 2)."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


@pytest.mark.parametrize("command, option, minimum", OPTIONS)
def test_a_value_below_the_minimum_is_refused(capsys: pytest.CaptureFixture[str],
                                              command: list[str], option: str,
                                              minimum: int) -> None:
    below = minimum - 1
    line = refused(capsys, [*command, option, str(below)])
    assert line == (f"gridgames {command[0]}: error: argument {option}: "
                    f"must be a whole number of {minimum} or more, got {below}")


@pytest.mark.parametrize("command, option, minimum", OPTIONS)
def test_a_value_that_is_not_a_number_is_refused(capsys: pytest.CaptureFixture[str],
                                                 command: list[str], option: str,
                                                 minimum: int) -> None:
    line = refused(capsys, [*command, f"{option}=ten"])
    assert line == (f"gridgames {command[0]}: error: argument {option}: "
                    f"must be a whole number of {minimum} or more, got 'ten'")


@pytest.mark.parametrize("command, option, minimum", OPTIONS)
def test_the_minimum_itself_is_allowed(command: list[str], option: str, minimum: int) -> None:
    from importlib import import_module

    module = import_module(MODULES[command[0]])
    parser = argparse.ArgumentParser()
    module.add_arguments(parser)
    args = parser.parse_args([*command[1:], option, str(minimum)])
    assert getattr(args, option[2:].replace("-", "_")) == minimum


@pytest.mark.parametrize("port", ["99999", "-1", "65536", "http", ""])
def test_a_port_out_of_range_is_refused(capsys: pytest.CaptureFixture[str], port: str) -> None:
    """Once a traceback from the socket: bind(): port must be 0-65535."""
    line = refused(capsys, ["serve", f"--port={port}"])
    shown = repr(port) if not port.lstrip("-").isdigit() else str(int(port))
    assert line == ("gridgames serve: error: argument --port: "
                    f"must be a port number from 0 to 65535, got {shown}")


@pytest.mark.parametrize("command, option, least, greatest", BOUNDED,
                         ids=lambda value: value[0] if isinstance(value, list) else str(value))
def test_a_value_out_of_range_is_refused_saying_the_range(
        capsys: pytest.CaptureFixture[str], command: list[str], option: str, least: int,
        greatest: int) -> None:
    for value in (least - 1, greatest + 1):
        line = refused(capsys, [*command, f"{option}={value}"])
        assert line == (f"gridgames {command[0]}: error: argument {option}: "
                        f"must be a whole number from {least} to {greatest}, got {value}")


@pytest.mark.parametrize("command, option, least, greatest", BOUNDED,
                         ids=lambda value: value[0] if isinstance(value, list) else str(value))
def test_the_ends_of_the_range_are_allowed(command: list[str], option: str, least: int,
                                           greatest: int) -> None:
    from importlib import import_module

    parser = argparse.ArgumentParser()
    import_module(MODULES[command[0]]).add_arguments(parser)
    for value in (least, greatest):
        args = parser.parse_args([*command[1:], option, str(value)])
        assert getattr(args, option[2:].replace("-", "_")) == value


@pytest.mark.parametrize("command, option, least, greatest", SECONDS,
                         ids=lambda value: value[0] if isinstance(value, list) else str(value))
def test_seconds_out_of_range_are_refused_saying_the_range(
        capsys: pytest.CaptureFixture[str], command: list[str], option: str, least: float,
        greatest: float) -> None:
    """Once a float: 'inf' for a number too large, and text that is no number echoed whole."""
    for value in (f"{least - 0.05:g}", f"{greatest + 0.5:g}", "nan", "1e400", "-inf"):
        line = refused(capsys, [*command, f"{option}={value}"])
        assert line == (f"gridgames {command[0]}: error: argument {option}: must be a number "
                        f"of seconds from {least:g} to {greatest:g}, got {value}")
    line = refused(capsys, [*command, f"{option}=soon"])
    assert line.endswith(f"to {greatest:g}, got 'soon'")


@pytest.mark.parametrize("command, option, least, greatest", SECONDS,
                         ids=lambda value: value[0] if isinstance(value, list) else str(value))
def test_seconds_at_the_ends_of_the_range_are_allowed(command: list[str], option: str,
                                                      least: float, greatest: float) -> None:
    from importlib import import_module

    parser = argparse.ArgumentParser()
    import_module(MODULES[command[0]]).add_arguments(parser)
    for value in (least, greatest, (least + greatest) / 2):
        args = parser.parse_args([*command[1:], option, f"{value:g}"])
        assert getattr(args, option[2:]) == pytest.approx(value)


HUGE = "9" * 3000  # Python still converts it
UNREADABLE = "9" * 5000  # more digits than Python converts


@pytest.mark.parametrize("command, option", [
    *[(command, option) for command, option, _ in OPTIONS],
    *[(command, option) for command, option, _, _ in BOUNDED],
    *[(command, option) for command, option, _, _ in SECONDS],
    (["serve"], "--port"),
], ids=lambda value: value[0] if isinstance(value, list) else value)
def test_a_number_of_thousands_of_digits_is_quoted_cut_short(
        capsys: pytest.CaptureFixture[str], command: list[str], option: str) -> None:
    """argparse once echoed them whole: 5,000 digits on one line."""
    refusals = [(f"-{HUGE}", shown(f"-{HUGE}"))]
    if any(option == seconds for _, seconds, _, _ in SECONDS):
        # a float reads any number of digits: too large, not unreadable
        refusals += [(HUGE, shown(HUGE)), (UNREADABLE, shown(UNREADABLE)),
                     ("x" * 5000, repr(shown("x" * 5000)))]
    else:
        refusals.append((UNREADABLE, repr(shown(UNREADABLE))))
    if any(option == bounded for _, bounded, _, _ in BOUNDED) or option == "--port":
        refusals.append((HUGE, shown(HUGE)))
    for value, quoted in refusals:
        line = refused(capsys, [*command, f"{option}={value}"])
        assert line.startswith(f"gridgames {command[0]}: error: argument {option}: must be a ")
        assert line.endswith(f", got {quoted}") and len(line) < 200, line


def test_a_puzzle_number_of_thousands_of_digits_is_cut_short(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzle", "--id", HUGE]) == 2
    assert capsys.readouterr().err.startswith(
        f"gridgames puzzle: no puzzle {shown(HUGE)}; the puzzles are numbered 1 to ")


@pytest.mark.parametrize("command, option", [
    (["puzzle"], "--rule"),
    (["play", "--print"], "--rule"),
    (["analyse", "h8i9"], "--rule"),
    (["match", "level:1", "level:1"], "--rule"),
    (["tournament", "level:1", "level:2"], "--rule"),
    (["match", "level:1", "level:1"], "--sprt"),
], ids=lambda value: value[0] if isinstance(value, list) else value)
def test_a_text_of_thousands_of_characters_is_quoted_cut_short(
        capsys: pytest.CaptureFixture[str], command: list[str], option: str) -> None:
    """An unknown rule or a bad --sprt was once quoted whole: 5,000 characters on a line."""
    assert main([*command, f"{option}={UNREADABLE}"]) == 2
    err = capsys.readouterr().err
    assert repr(shown(UNREADABLE)) in err and len(err) < 300 and "Traceback" not in err


@pytest.mark.parametrize("value", [["--sprt", "-10,-20"], ["--sprt=-10,-20"]])
def test_a_negative_elo_bound_is_read_as_the_options_value(
        capsys: pytest.CaptureFixture[str], value: list[str]) -> None:
    """argparse took ``-10,...`` after ``--sprt`` for an option of its own."""
    assert main(["match", "level:1", "level:1", *value]) == 2
    err = capsys.readouterr().err
    assert "elo0 < elo1, got -10.0 and -20.0" in err and "expected one argument" not in err
