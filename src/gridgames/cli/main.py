"""The ``gridgames`` command: one subcommand per front end.

Each subcommand lives in its own module exposing ``NAME``, ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``; modules are imported
only when their subcommand runs, so ``gridgames --help`` stays fast.
"""

from __future__ import annotations

import argparse
import codecs
import importlib
import io
import os
import re
import sys
import unicodedata
from collections.abc import Sequence

from gridgames import __version__

# (name, help, module) — the module is imported lazily.
SUBCOMMANDS: tuple[tuple[str, str, str], ...] = (
    ("play", "Play Gomoku, Renju or Caro in the terminal", "gridgames.cli.play"),
    ("puzzle", "Find the win: puzzles solved by continuous fours "
     "(freestyle, standard, renju, caro)", "gridgames.cli.puzzle"),
    ("queens", "The N-Queens puzzle: play it, solve it, count solutions", "gridgames.cli.queens"),
    ("serve", "Start the web app (Gomoku and N-Queens in the browser)", "gridgames.web.cli"),
    ("brain", "Speak the Gomocup protocol on stdin/stdout (our engine as a pbrain)",
     "gridgames.cli.brain"),
    ("match", "Play a match between two engines (ours at a level, or any Gomocup brain)",
     "gridgames.cli.match"),
    ("tournament", "A round robin of engines (ours at levels, or any Gomocup brains), "
     "with standings", "gridgames.cli.tournament"),
    ("analyse", "Review a game: each move's score, the better move, labels and accuracy",
     "gridgames.cli.analyse"),
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gridgames",
        description="Gomoku, Renju, Caro and N-Queens with a strong computer player.",
    )
    parser.add_argument("--version", action="version", version=f"gridgames {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text, module_name in SUBCOMMANDS:
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        sub_parser.set_defaults(_module=module_name)
        # Arguments are added after the module loads (see main), except for --help,
        # which needs them now: load the module only for the subcommand asked for.
    return parser


# What a terminal without these characters shows for them (its locale is not UTF-8).
PLAIN = {"×": "x", "→": "->", "≥": ">=", "±": "+/-"}
PLAIN_ERRORS = "gridgames-plain"


def _plain(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler that writes ``8x8`` for ``8×8`` and ``Soosorv`` for
    ``Soosõrv`` where the output's encoding has no such character, ``?`` for the rest."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = "".join(
        PLAIN.get(char) or unicodedata.normalize("NFKD", char).encode("ascii", "ignore")
        .decode("ascii") or "?"
        for char in error.object[error.start:error.end]
    )
    return text, error.end


def _plain_terminal() -> None:
    """Let stdout and stderr print every message on a terminal whose encoding lacks some
    of its characters (a C or Latin-1 locale), and stdin read any bytes typed, rather
    than fail with a UnicodeError."""
    codecs.register_error(PLAIN_ERRORS, _plain)  # here: importing the module changes nothing
    for stream in (sys.stdout, sys.stderr):
        if (isinstance(stream, io.TextIOWrapper)
                and codecs.lookup(stream.encoding).name != "utf-8"):
            stream.reconfigure(errors=PLAIN_ERRORS)
    if (isinstance(sys.stdin, io.TextIOWrapper)
            and sys.stdin.errors in ("strict", "surrogateescape")):
        # what cannot be read is refused as typed, not echoed back as '\udcc3'
        sys.stdin.reconfigure(errors="replace")


def _negative_values_attached(args: list[str]) -> list[str]:
    """``--sprt -10,10`` read as ``--sprt=-10,10``: argparse takes a value that starts
    with a dash, unless it is one plain number, for an option of its own."""
    joined: list[str] = []
    for arg in args:
        if (joined and re.fullmatch(r"-\d[-\d.,]*", arg) and joined[-1].startswith("--")
                and "=" not in joined[-1]):
            joined[-1] += "=" + arg
        else:
            joined.append(arg)
    return joined


def main(argv: Sequence[str] | None = None) -> int:
    args_list = _negative_values_attached(list(sys.argv[1:] if argv is None else argv))
    _plain_terminal()
    parser = build_parser()
    if args_list and not args_list[0].startswith("-"):
        name = args_list[0]
        for sub_name, help_text, module_name in SUBCOMMANDS:
            if sub_name == name:
                module = importlib.import_module(module_name)
                sub_parser = argparse.ArgumentParser(
                    prog=f"gridgames {name}", description=help_text
                )
                module.add_arguments(sub_parser)
                args = sub_parser.parse_args(args_list[1:])
                try:
                    return int(module.run(args) or 0)
                except KeyboardInterrupt:
                    print()
                    return 130
                except BrokenPipeError:
                    return _reader_gone()
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help()
        return 0
    return 0


def _reader_gone() -> int:
    """The output's reader left early (``gridgames puzzle --list | head``): stop
    quietly, with the output pointed at /dev/null so that Python's own flush at exit
    does not fail on the closed pipe as well."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 1


if __name__ == "__main__":
    sys.exit(main())
