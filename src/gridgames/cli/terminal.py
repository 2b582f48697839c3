"""Reading a line typed at a prompt, and counting things in words, for every terminal
front end."""

from __future__ import annotations

import sys


def ask(prompt: str) -> str:
    """One line of input after ``prompt`` (EOFError at the end of input).

    The prompt goes to stdout: ``input(prompt)`` writes it to stderr when both ends are a
    terminal, so ``2>/dev/null`` (to hide the engine's first-run compile messages) hid
    every prompt.
    """
    sys.stdout.write(prompt)
    sys.stdout.flush()
    return input()


def counted(count: int, noun: str) -> str:
    """``1 move``, ``2 moves``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def column_bands(columns: int, fitting: int) -> list[range]:
    """The columns of a board too wide for the terminal, split into bands of at most
    ``fitting`` columns each, their widths as even as can be.

    >>> column_bands(26, 12)
    [range(0, 9), range(9, 18), range(18, 26)]
    """
    fitting = max(1, fitting)
    per_band = -(-columns // -(-columns // fitting))
    return [range(first, min(first + per_band, columns))
            for first in range(0, columns, per_band)]
