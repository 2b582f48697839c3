"""Option types shared by the command lines (``type=`` for argparse).

A bad value is refused by argparse itself: it prints
``gridgames COMMAND: error: argument --OPTION: MESSAGE`` and exits with status 2.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from gridgames.gomoku.clock import GameClock
from gridgames.gomoku.notation import shown
from gridgames.gomoku.opening_rules import OpeningRule


def whole_number(minimum: int, maximum: int | None = None, *,
                 kind: str = "whole number") -> Callable[[str], int]:
    """An argparse ``type=`` for a whole number from ``minimum`` (to ``maximum``): the
    type of every integer option. A refusal says what is allowed and quotes the value
    cut short by :func:`~gridgames.gomoku.notation.shown`, however many digits it has.

    >>> whole_number(1)("3")
    3
    >>> whole_number(1)("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be a whole number of 1 or more, got 0
    >>> whole_number(0)("abc")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be a whole number of 0 or more, got 'abc'
    >>> whole_number(5, 64)("65")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be a whole number from 5 to 64, got 65
    """
    allowed = (f"must be a {kind} of {minimum} or more" if maximum is None
               else f"must be a {kind} from {minimum} to {maximum}")

    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:  # not a whole number, or one of more digits than Python converts
            raise argparse.ArgumentTypeError(f"{allowed}, got {shown(text)!r}") from None
        if number < minimum or (maximum is not None and number > maximum):
            raise argparse.ArgumentTypeError(f"{allowed}, got {shown(text.strip())}")
        return number

    return parse


# An argparse ``type=`` for a TCP port, 0 (any free port) to 65535.
port_number = whole_number(0, 65535, kind="port number")


def seconds(minimum: float, maximum: float) -> Callable[[str], float]:
    """An argparse ``type=`` for a number of seconds from ``minimum`` to ``maximum`` (a
    fraction allowed). A refusal says the range and quotes the value as typed, cut short:
    a number too large for a float is not shown as ``inf``, nor text echoed whole.

    >>> seconds(0.1, 3600)("2.5")
    2.5
    >>> seconds(0.1, 3600)("1e400")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be a number of seconds from 0.1 to 3600, got 1e400
    >>> seconds(0, 60)("soon")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be a number of seconds from 0 to 60, got 'soon'
    """
    allowed = f"must be a number of seconds from {minimum:g} to {maximum:g}"

    def parse(text: str) -> float:
        try:
            number = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{allowed}, got {shown(text)!r}") from None
        if not minimum <= number <= maximum:  # nan too
            raise argparse.ArgumentTypeError(f"{allowed}, got {shown(text.strip())}")
        return number

    return parse


def positive_number(text: str) -> float:
    """An argparse ``type=`` for a number above 0 (a fraction allowed).

    >>> positive_number("1.5")
    1.5
    >>> positive_number("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be a number above 0, got 0.0
    >>> positive_number("twice")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be a number above 0, got 'twice'
    """
    try:
        number = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number above 0, got {shown(text)!r}") from None
    if not 0 < number < math.inf:
        raise argparse.ArgumentTypeError(f"must be a number above 0, got {number}")
    return number


def game_clock(text: str) -> str:
    """An argparse ``type=`` for a game clock, minutes a side and seconds a move.

    >>> game_clock("5+3")
    '5+3'
    >>> game_clock("soon")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    argparse.ArgumentTypeError: cannot read the clock 'soon': write minutes a side and ...
    """
    try:
        GameClock.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text.strip()


def opening_rule(text: str) -> OpeningRule:
    """An argparse ``type=`` for an opening rule, named as :meth:`OpeningRule.parse` reads it.

    >>> opening_rule("Swap2")
    <OpeningRule.SWAP2: 'swap2'>
    >>> opening_rule("nonsense")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    argparse.ArgumentTypeError: unknown opening rule 'nonsense': choose one of free, swap, ...
    """
    try:
        return OpeningRule.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
