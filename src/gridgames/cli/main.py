"""The ``gridgames`` command: one subcommand per front end.

Each subcommand lives in its own module exposing ``NAME``, ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``; modules are imported
only when their subcommand runs, so ``gridgames --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
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


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
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
