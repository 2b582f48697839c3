"""The terminal front ends on terminals unlike the usual one: a locale that is not UTF-8,
a dumb terminal, error output sent away."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

import pexpect

PROGRAM = [sys.executable, "-m", "gridgames.cli.main"]


def run(args: list[str], typed: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    environ = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONIOENCODING", "PYTHONUTF8", "LANG", "LC_ALL", "LC_CTYPE")}
    environ.update(env)
    return subprocess.run([*PROGRAM, *args], input=typed.encode("utf-8"), env=environ,
                          capture_output=True, timeout=120, check=False)


# An ASCII locale, with Python's own switches to UTF-8 turned off.
C_LOCALE = {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}


def test_an_ascii_locale_shows_every_message_in_plain_letters():
    queens = run(["queens"], "\nsize 3\nsolve\nquit\n", **C_LOCALE)
    assert queens.returncode == 0, queens.stderr.decode()
    assert b"Traceback" not in queens.stderr
    assert b"New 3x3 board: place 3 queens." in queens.stdout
    assert b"The 3x3 board has no solution at all" in queens.stdout

    play = run(["play", "--opening", "soosorv"], "4\n", **C_LOCALE)
    assert play.returncode == 0, play.stderr.decode()
    assert b"Soosorv-8 opening; 19x19 board" in play.stdout

    latin = run(["play", "--opening", "soosorv"], "4\n", PYTHONIOENCODING="latin-1")
    assert "Soosõrv-8 opening".encode("latin-1") in latin.stdout  # kept where it can be


def test_typed_bytes_the_input_encoding_cannot_read_are_refused_as_any_bad_input():
    result = run(["queens"], "\nsize é\n5 é\nquit\n", PYTHONIOENCODING="ascii")
    assert result.returncode == 0, result.stderr.decode()
    assert b"Traceback" not in result.stderr
    assert b"is not a square: write it like c3, 3 c or 3,3" in result.stdout
    assert result.stdout.rstrip().endswith(b"Bye.")


def test_typed_bytes_an_ascii_locale_cannot_read_are_not_echoed_as_escapes():
    """Under a C locale Python reads stdin with surrogateescape: an 'e' with an accent
    came back in the message as '\\udcc3\\udca9'."""
    result = run(["queens"], "\nsize 8\n\u00e93\nquit\n", **C_LOCALE)
    assert result.returncode == 0, result.stderr.decode()
    assert b"is not a square" in result.stdout
    assert b"udc" not in result.stdout.lower() and b"Traceback" not in result.stderr


def test_a_dumb_terminal_gets_no_escape_codes_while_the_computer_thinks():
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(TERM="dumb", GRIDGAMES_PAUSE="0")
    child = pexpect.spawn(PROGRAM[0], [*PROGRAM[1:], "play", "--mode", "computer-human",
                                       "--level", "2", "--time", "0.5", "--size", "15"],
                          env=env, encoding="utf-8", timeout=180, dimensions=(50, 120))
    child.expect_exact("Select an option (1-5): ")
    child.sendline("2")
    child.expect_exact("Computer (o) plays")
    shown = child.before
    child.expect_exact("Player 2 (x) make a move: ")
    child.sendline("quit")
    child.expect_exact("Select an option (1-5): ")
    child.sendline("4")
    child.expect(pexpect.EOF)
    assert re.findall(r"\x1b\[[0-9;?]*[A-Za-z]", shown) == []


def test_the_prompts_show_with_stderr_sent_away(tmp_path):
    """``input(prompt)`` writes its prompt to stderr on a terminal: with ``2>/dev/null``
    (the engine's first-run messages go to stderr) no prompt showed at all."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(NO_COLOR="1", TERM="xterm", XDG_DATA_HOME=str(tmp_path))
    command = shlex.join(PROGRAM) + " {} 2>/dev/null"
    for args, prompts, leave in [
        ("play", ["Select an option (1-5): "], "4"),
        ("queens", ["Press Enter to continue.", "queens (0/8)> "], "quit"),
        ("puzzle --id 1", ["puzzle 1> "], "quit"),
    ]:
        child = pexpect.spawn("/bin/sh", ["-c", command.format(args)], env=env,
                              encoding="utf-8", timeout=120, dimensions=(50, 120))
        for prompt in prompts:
            child.expect_exact(prompt)
            child.sendline("" if prompt != prompts[-1] else leave)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0, args
