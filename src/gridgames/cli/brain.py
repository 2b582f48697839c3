"""``gridgames brain``: our engine as a Gomocup brain on stdin/stdout, as ``pbrain-gridgames``."""

from __future__ import annotations

import argparse

from gridgames.gomoku.gomocup import brain


def add_arguments(parser: argparse.ArgumentParser) -> None:
    brain.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    return brain.run(args)
