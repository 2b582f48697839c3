"""Whole-number options: one shared argparse type, refused by argparse with exit status 2."""

from __future__ import annotations

import argparse

import pytest

from gridgames.cli.main import main
from gridgames.cli.options import whole_number

# (command and the arguments it needs, option, its minimum)
OPTIONS = [
    (["analyse", "h8i9"], "--time-ms", 1),
    (["analyse", "h8i9"], "--depth", 1),
    (["match", "level:1", "level:1"], "--games", 1),
    (["match", "level:1", "level:1"], "--concurrency", 1),
    (["match", "level:1", "level:1"], "--time-ms", 0),
    (["match", "level:1", "level:1"], "--match-time-ms", 1),
    (["match", "level:1", "level:1"], "--tolerance-ms", 0),
    (["match", "level:1", "level:1"], "--nodes", 1),
    (["tournament", "level:1", "level:2"], "--games", 1),
    (["tournament", "level:1", "level:2"], "--concurrency", 1),
    (["puzzle"], "--id", 1),
    (["serve"], "--workers", 1),
    (["serve"], "--queue-limit", 1),
]
# where each command's options are declared
MODULES = {"analyse": "gridgames.cli.analyse", "match": "gridgames.cli.match",
           "tournament": "gridgames.cli.tournament", "puzzle": "gridgames.cli.puzzle",
           "serve": "gridgames.web.cli"}


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
