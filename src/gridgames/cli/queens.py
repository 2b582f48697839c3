"""``gridgames queens``: the N-Queens puzzle in the terminal.

    gridgames queens [--n N]                        play (default 8×8)
    gridgames queens solve --n N [--fixed SQUARES]  complete a board, keeping those queens
    gridgames queens count --n N                    count every solution (progress on
                                                    stderr; Ctrl+C stops with a partial count)
    gridgames queens count --n N --cluster ADDRESS  count on a Ray cluster
    gridgames queens backtrack --n N [--fixed SQUARES] [--limit STEPS]
                                                    the textbook search, step by step

Squares are written for people: rows are numbered 1..N from the top and
columns are numbered 1..N from the left, as ``ROW,COL`` (``3,5``). On boards
of up to 26 columns a column may also be a letter, as in the game: ``e3`` or
``3 e`` is row 3, column e (the 5th). In ``--fixed``, squares are separated by
spaces or semicolons; an empty string means no fixed queens.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import re
import shutil
import signal
import string
import sys
import time
from collections.abc import Iterator
from typing import NoReturn, TextIO

from gridgames.gomoku.notation import read_number, shown
from gridgames.prepare import stderr_report
from gridgames.queens import (
    Placement,
    QueenConflictError,
    hint,
    solve,
    warm_up,
)
from gridgames.queens.backtracking import DEFAULT_LIMIT, MAX_LIMIT, backtrack
from gridgames.queens.board import Square
from gridgames.queens.counter import MAX_N, CountProgress, count_progress
from gridgames.queens.solver import MAX_SOLVE_N

from .stopping import STOPS, signals_stop, why_and_status
from .terminal import ask, column_bands, counted

NAME = "queens"
HELP = "The N-Queens puzzle: play it, solve it, count solutions"

MAX_PLAY_N = 26  # one letter per column
PROGRESS_LINE_EVERY = 5.0  # seconds between a count's progress lines on a log, not a terminal
LETTERS = string.ascii_lowercase

_LETTER_FIRST = re.compile(r"([a-z])\s*,?\s*(\d+)")
_NUMBER_FIRST = re.compile(r"(\d+)\s*,?\s*([a-z])")
_NUMBERS = re.compile(r"(\d+)\s*,\s*(\d+)")


class InputError(ValueError):
    """Bad input from the user; the message is shown as it is."""


# ---------------------------------------------------------------- squares


def parse_square(text: str, n: int) -> Square:
    """Turn ``c3``, ``3 c``, ``3C`` or ``3,3`` into a 0-based ``(row, col)``.

    >>> parse_square("c3", 8), parse_square("3 C", 8), parse_square("3,3", 8)
    ((2, 2), (2, 2), (2, 2))
    >>> parse_square("h9", 8)
    Traceback (most recent call last):
    ...
    gridgames.cli.queens.InputError: row 9 is off the board: rows go from 1 to 8
    """
    cleaned = text.strip().lower()
    # numbers as written, for the messages; read_number stops at a length off every board
    if match := _NUMBERS.fullmatch(cleaned):
        row_text, col_text = match[1], match[2]
    elif n <= MAX_PLAY_N and (match := _LETTER_FIRST.fullmatch(cleaned)):
        col_text, row_text = str(LETTERS.index(match[1]) + 1), match[2]
    elif n <= MAX_PLAY_N and (match := _NUMBER_FIRST.fullmatch(cleaned)):
        row_text, col_text = match[1], str(LETTERS.index(match[2]) + 1)
    else:
        example = "c3, 3 c or 3,3" if n <= MAX_PLAY_N else "3,5"
        raise InputError(f"{shown(text.strip())!r} is not a square: write it like {example}")
    row, col = read_number(row_text), read_number(col_text)
    if not 1 <= row <= n:
        raise InputError(f"row {shown(row_text.lstrip('0') or '0')} is off the board: rows go "
                         f"from 1 to {n}")
    if not 1 <= col <= n:
        allowed = f"a to {LETTERS[n - 1]}" if n <= MAX_PLAY_N else f"1 to {n}"
        raise InputError(f"column {shown(col_text.lstrip('0') or '0')} is off the board: "
                         f"columns go from {allowed}")
    return (row - 1, col - 1)


def format_square(square: Square, n: int) -> str:
    """``(2, 4)`` → ``e3`` on small boards, ``3,5`` on big ones.

    >>> format_square((2, 4), 8), format_square((2, 4), 100)
    ('e3', '3,5')
    """
    row, col = square
    if n <= MAX_PLAY_N:
        return f"{LETTERS[col]}{row + 1}"
    return f"{row + 1},{col + 1}"


def parse_squares(text: str, n: int) -> list[Square]:
    """Squares separated by spaces or semicolons (``3,5 1,1``, ``e3; a1`` or ``3 e 1 a``)."""
    tokens = re.split(r"[\s;]+", re.sub(r"\s*,\s*", ",", text.strip()))
    squares = []
    while tokens:
        token = tokens.pop(0)
        # "3 e" and "e 3" are one square written with a space.
        if tokens and _is_letter_and_number(token, tokens[0]):
            token += tokens.pop(0)
        if token:
            squares.append(parse_square(token, n))
    return squares


def _is_letter_and_number(first: str, second: str) -> bool:
    pair = {first.isdigit(), second.isdigit()}
    letters = [word for word in (first, second) if not word.isdigit()]
    return pair == {True, False} and len(letters[0]) == 1 and letters[0].isalpha()


def render(placement: Placement, max_width: int = 80) -> str:
    """The board with column letters on top and row numbers on the left; a board wider
    than ``max_width`` characters is printed in bands of columns, not wrapped.

    >>> print(render(Placement.from_queens(4, [(0, 1)]), max_width=8))
       a b
    1  . Q
    2  . .
    3  . .
    4  . .
    <BLANKLINE>
       c d
    1  . .
    2  . .
    3  . .
    4  . .
    """
    n = placement.n
    width = len(str(n))
    fitting = (max_width - width - 1) // 2  # each column takes two characters
    bands = []
    for columns in column_bands(n, fitting):
        lines = [" " * (width + 2) + " ".join(LETTERS[col] for col in columns)]
        for row in range(n):
            cells = " ".join("Q" if (row, col) in placement else "." for col in columns)
            lines.append(f"{row + 1:>{width}}  {cells}")
        bands.append("\n".join(lines))
    return "\n\n".join(bands)


def terminal_width() -> int:
    """The terminal's width in characters (``COLUMNS``, or 80 when the output is no
    terminal)."""
    return shutil.get_terminal_size().columns


def format_seconds(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds * 1000:.2f} ms"
    return f"{seconds:.2f} s"


def format_duration(seconds: float) -> str:
    """A rough length of time, as a wait is told.

    >>> format_duration(42.7), format_duration(200), format_duration(7500)
    ('42 s', '3 min 20 s', '2 h 5 min')
    >>> format_duration(3 * 86400 + 7200), format_duration(5e8), format_duration(1e30)
    ('3 days 2 h', '15 years', 'a million years or more')
    """
    whole = int(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    if whole < 86400:
        return f"{whole // 3600} h {whole % 3600 // 60} min"
    days = whole // 86400
    if days < 365:
        return f"{counted(days, 'day')} {whole % 86400 // 3600} h"
    years = days // 365
    return counted(years, "year") if years < 1_000_000 else "a million years or more"


def format_share(share: float) -> str:
    """A share as a percentage, rounded down: a search not over is never shown 100% done.

    >>> format_share(0.25), format_share(0.99999), format_share(1.0)
    ('25.0%', '99.9%', '100.0%')
    """
    return f"{math.floor(share * 1000) / 10:.1f}%"


def parse_size(text: str | None, default: int, maximum: int, *,
               what: str = "board size") -> int:
    """A whole number from 1 to ``maximum`` (``default`` when not given)."""
    if text is None:
        return default
    try:
        n = read_number(text.strip())
    except ValueError:
        raise InputError(f"{what} must be a whole number, not {shown(text)!r}") from None
    if not 1 <= n <= maximum:
        raise InputError(f"{what} must be between 1 and {maximum}, not {shown(text.strip())}")
    return n


# ---------------------------------------------------------------- commands


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Place N queens on an N×N board so that none attacks another. Without a "
        "command, play the puzzle. Squares: rows 1..N from the top, columns 1..N "
        "from the left, as ROW,COL (3,5); up to 26 columns a letter works too (e3)."
    )
    _one_line_errors(parser)
    parser.add_argument(
        "--n", metavar="N", help=f"board size for the game (1 to {MAX_PLAY_N}, default 8)"
    )
    actions = parser.add_subparsers(dest="action", metavar="COMMAND")
    solver = actions.add_parser(
        "solve",
        help="complete a board, keeping fixed queens",
        description="Complete an N×N board keeping the fixed queens, and show the time taken. "
        "Exit status 1 when no completion exists.",
    )
    _one_line_errors(solver)
    # Not required here: "gridgames queens --n 8 solve" gives it before the command
    # (checked in run); a value here would hide that one.
    solver.add_argument("--n", metavar="N", default=argparse.SUPPRESS, help="board size")
    solver.add_argument(
        "--fixed",
        metavar="SQUARES",
        default="",
        help='queens to keep, e.g. "1,1 2,3" (row,col from 1) or "a1 c2"; may be empty',
    )
    solver.add_argument("--seed", metavar="S", default="0", help="random seed (default 0)")
    tracer = actions.add_parser(
        "backtrack",
        help="show the textbook backtracking search, step by step",
        description="Show the backtracking search that places a queen row by row from the "
        "top, on the first square no queen attacks, and takes back the queen of the row "
        "above when a row has none: every queen placed and taken back, then the first "
        "solution. Exit status 1 when no completion exists, 3 when the step limit stops it.",
    )
    _one_line_errors(tracer)
    tracer.add_argument("--n", metavar="N", default=argparse.SUPPRESS,
                        help=f"board size (1 to {MAX_PLAY_N})")
    tracer.add_argument("--fixed", metavar="SQUARES", default="",
                        help="queens to keep, as for solve")
    tracer.add_argument("--limit", metavar="STEPS", default=str(DEFAULT_LIMIT),
                        help=f"the most steps to show (1 to {MAX_LIMIT:,}, "
                        f"default {DEFAULT_LIMIT:,})")
    counter = actions.add_parser(
        "count", help="count every solution",
        description="Count the solutions of the N×N board, showing the progress on stderr. "
        "Ctrl+C stops the count and prints the solutions found so far, marked as a partial "
        "count (exit status 130).",
    )
    _one_line_errors(counter)
    counter.add_argument("--n", metavar="N", default=argparse.SUPPRESS,
                         help=f"board size (1 to {MAX_N})")
    counter.add_argument(
        "--cluster", metavar="ADDRESS",
        help="count with tasks on the Ray cluster at ADDRESS (HEAD:PORT, or auto for the one "
        "running here). Needs: pip install 'gridgames[cluster]'",
    )
    counter.add_argument(
        "--cluster-ship", action="store_true",
        help="send this gridgames to the cluster's nodes through Ray's runtime environment",
    )


def _one_line_errors(parser: argparse.ArgumentParser) -> None:
    """Report argument errors as one line on stderr (exit status 2), no usage dump."""

    def error(message: str) -> NoReturn:
        print(f"{parser.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)

    setattr(parser, "error", error)  # noqa: B010  (argparse has no hook for this)


def run(args: argparse.Namespace) -> int:
    if args.action is not None and args.n is None:
        print(f"gridgames queens {args.action}: error: the following arguments are "
              "required: --n", file=sys.stderr)
        return 2
    try:
        if args.action == "solve":
            return run_solve(args)
        if args.action == "count":
            return run_count(args)
        if args.action == "backtrack":
            return run_backtrack(args)
        return Game(parse_size(args.n, 8, MAX_PLAY_N)).play()
    except InputError as error:
        print(f"gridgames queens: error: {error}", file=sys.stderr)
        return 2


def run_solve(args: argparse.Namespace) -> int:
    n = parse_size(args.n, 8, MAX_SOLVE_N)
    fixed = parse_squares(args.fixed, n)
    try:
        seed = int(args.seed)
    except ValueError:  # not a number, or one of thousands of digits
        seed = -1
    if seed < 0:
        raise InputError(f"seed must be a whole number of 0 or more, not {shown(args.seed)!r}")
    try:
        Placement.from_queens(n, fixed)
    except ValueError as error:
        raise InputError(_describe_bad_fixed(error, n)) from None
    warm_up(stderr_report("the queens solver"))
    start = time.perf_counter()
    with _ctrl_c_stops_at_once():
        solution = solve(n, fixed, seed=seed)
    elapsed = format_seconds(time.perf_counter() - start)
    queens = counted(len(fixed), "fixed queen")
    if solution is None:
        if fixed and not no_solution_at_all(n):
            print(f"no solution: the {queens} cannot be completed on the {n}×{n} board "
                  f"(proved in {elapsed})")
        else:
            print(f"no solution: the {n}×{n} board has none at all (proved in {elapsed})")
        return 1
    print(f"solution for the {n}×{n} board with {queens}, found in {elapsed}:")
    if n <= MAX_PLAY_N:
        print(render(Placement.from_queens(n, solution), terminal_width()))
    else:
        print(" ".join(format_square(square, n) for square in solution))
    return 0


def no_solution_at_all(n: int) -> bool:
    """Whether the empty N×N board has no solution (2 and 3: every larger board has one)."""
    return n < 4 and solve(n) is None


def run_backtrack(args: argparse.Namespace) -> int:
    n = parse_size(args.n, 8, MAX_PLAY_N)
    fixed = parse_squares(args.fixed, n)
    limit = parse_size(args.limit, DEFAULT_LIMIT, MAX_LIMIT, what="the step limit")
    try:
        Placement.from_queens(n, fixed)
    except ValueError as error:
        raise InputError(_describe_bad_fixed(error, n)) from None
    run = backtrack(n, fixed, limit=limit)
    width = len(str(len(run.steps)))
    for number, (kind, square) in enumerate(run.steps, start=1):
        action = "place" if kind == "place" else "take back"
        print(f"{number:>{width}}. {action} {format_square(square, n)}")
    tally = (f"{counted(run.placed, 'queen')} placed, "
             f"{run.taken_back} taken back")
    if run.solution is not None:
        print(f"the first solution ({tally}):")
        print(render(Placement.from_queens(n, run.solution), terminal_width()))
        return 0
    if run.finished:
        if fixed and not no_solution_at_all(n):
            print(f"no solution keeps the fixed queens: every way was tried ({tally})")
        else:
            print(f"no solution: the {n}×{n} board has none at all; every way was tried "
                  f"({tally})")
        return 1
    print(f"stopped at the step limit, {limit:,}, before a solution ({tally}); "
          "--limit allows more, and solve finds one at once")
    return 3


@contextlib.contextmanager
def _ctrl_c_stops_at_once() -> Iterator[None]:
    """Let Ctrl+C end the process at once during one long compiled call.

    Python acts on Ctrl+C only between bytecodes, never inside a compiled kernel, so a
    solve of a large board went on as if Ctrl+C had not been pressed; here there is
    nothing to save, and the signal's default action ends the process.
    """
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_DFL)
    except ValueError:  # not the main thread: leave the handling as it is
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _describe_bad_fixed(error: ValueError, n: int) -> str:
    if isinstance(error, QueenConflictError):
        return (
            f"fixed queens {format_square(error.attacker, n)} and "
            f"{format_square(error.square, n)} attack each other along the {error.line}"
        )
    if str(error).startswith("there is already a queen on"):
        return "the same square is given twice in --fixed"
    return str(error)


def run_count(args: argparse.Namespace) -> int:
    n = parse_size(args.n, 8, MAX_N)
    if args.cluster_ship and args.cluster is None:
        raise InputError("--cluster-ship goes with --cluster ADDRESS")
    if args.cluster is not None:
        return _count_on_cluster(n, args.cluster, args.cluster_ship)
    warm_up(stderr_report("the queens solver"))
    with signals_stop():
        progress, seconds, stop = count_showing_progress(n, sys.stderr)
    if stop is not None:
        why, status = why_and_status(stop)
        print(partial_count(n, progress, seconds, why))
        return status
    print(
        f"{counted(progress.solutions, 'solution')} for the {n}×{n} board "
        f"(counted in {format_seconds(seconds)})"
    )
    return 0


def count_showing_progress(
    n: int, stream: TextIO
) -> tuple[CountProgress, float, BaseException | None]:
    """Count the n×n board's solutions, showing the progress on ``stream``: the last
    progress (the total when finished), the seconds taken, and what stopped the count
    (Ctrl-C, or a signal that stops as Ctrl-C does) or None."""
    shown = ProgressLine(stream)
    progress = CountProgress(0, 0.0, False)
    start = time.perf_counter()
    try:
        for progress in count_progress(n):
            if not progress.finished:
                shown.show(describe_progress(n, progress, time.perf_counter() - start))
    except STOPS as stop:
        return progress, time.perf_counter() - start, stop
    finally:
        shown.clear()
    return progress, time.perf_counter() - start, None


def describe_progress(n: int, progress: CountProgress, seconds: float) -> str:
    """What a count has done, with the time it took and an estimate of the time left
    (first, so that a narrow terminal cuts the count so far rather than them).

    >>> progress = CountProgress(1234, 0.25, False)
    >>> print(describe_progress(18, progress, 30.5))  # doctest: +NORMALIZE_WHITESPACE
    18×18: 25.0% searched in 30 s, about 1 min 31 s left; 1234 solutions so far
    """
    done = progress.searched
    if seconds >= 1 and done > 0:
        left = f"about {format_duration(seconds * (1 - done) / done)} left"
    else:
        left = "time left not known yet"
    return (f"{n}×{n}: {format_share(done)} searched in {format_duration(seconds)}, {left}; "
            f"{counted(progress.solutions, 'solution')} so far")


def partial_count(n: int, progress: CountProgress, seconds: float, why: str) -> str:
    """The count so far, told as partial.

    >>> progress = CountProgress(1234, 0.25, False)
    >>> print(partial_count(18, progress, 30.5, "Ctrl-C"))  # doctest: +NORMALIZE_WHITESPACE
    stopped by Ctrl-C after 30 s: a partial count, 1234 solutions for the 18×18 board
    in the 25.0% of the search done (not the total)
    """
    return (f"stopped by {why} after {format_duration(seconds)}: a partial count, "
            f"{counted(progress.solutions, 'solution')} for the {n}×{n} board in the "
            f"{format_share(progress.searched)} of the search done (not the total)")


class ProgressLine:
    """A long task's progress on ``stream``: one line rewritten in place on a terminal,
    else a line every :data:`PROGRESS_LINE_EVERY` seconds, so that a log stays short."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.in_place = stream.isatty()
        self.next_line = time.monotonic() + PROGRESS_LINE_EVERY
        self.showing = False

    def show(self, text: str) -> None:
        if self.in_place:
            # Cut to the width: a line that wraps cannot be rewritten in place.
            self.stream.write(f"\r{text[:terminal_width() - 1]}\x1b[K")
            self.showing = True
        elif time.monotonic() >= self.next_line:
            self.stream.write(f"{text}\n")
            self.next_line += PROGRESS_LINE_EVERY
        self.stream.flush()

    def clear(self) -> None:
        if self.showing:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.showing = False


def _count_on_cluster(n: int, address: str, ship_package: bool) -> int:
    # Imported here: without --cluster, gridgames never needs Ray.
    from gridgames.cluster import ClusterError
    from gridgames.cluster.queens import count_on_cluster

    start = time.perf_counter()
    try:
        count = count_on_cluster(n, address, ship_package=ship_package)
    except ClusterError as error:
        raise InputError(str(error)) from None
    elapsed = format_seconds(time.perf_counter() - start)
    print(
        f"{counted(count, 'solution')} for the {n}×{n} board "
        f"(counted in {elapsed} on the cluster at {address})"
    )
    return 0


# ---------------------------------------------------------------- the game

INSTRUCTIONS = """\
The N-Queens puzzle
===================
Place {n} queens on the {n}×{n} board so that no queen attacks another: no two
queens may share a row, a column or a diagonal. A queen that would be attacked
is refused.

Commands:
  c3 or 3 c   place a queen on column c, row 3 (rows count from the top);
              the same square again removes the queen
  solve       complete the board, keeping your queens, and show the time taken
  hint        show a square that keeps the board solvable
  restart     clear the board (reset works too)
  count       count every solution for this board size (Ctrl-C stops it)
  size N      start again on an N×N board (1 to {max_n})
  help        show this text
  quit        leave (Ctrl-D works too)"""


class Game:
    """The interactive puzzle: reads commands, changes the placement, prints the board."""

    def __init__(self, n: int) -> None:
        self.placement = Placement(n)

    @property
    def n(self) -> int:
        return self.placement.n

    def play(self) -> int:
        try:
            print(self.instructions())
            warm_up(stderr_report("the queens solver"))
            ask("\nPress Enter to continue.")
            self.show()
            while True:
                line = ask(f"queens ({len(self.placement)}/{self.n})> ")
                if not self.handle(line):
                    return 0
        except (EOFError, KeyboardInterrupt):
            print("\nBye.")
            return 0

    def instructions(self) -> str:
        return INSTRUCTIONS.format(n=self.n, max_n=MAX_PLAY_N)

    def show(self) -> None:
        print()
        print(render(self.placement, terminal_width()))
        print()

    def handle(self, line: str) -> bool:
        """Carry out one command; False means quit."""
        words = line.strip().lower().split()
        if not words:
            print("Type a square such as c3, or help.")
            return True
        command = words[0]
        if command in ("quit", "exit", "q") and len(words) == 1:
            print("Bye.")
            return False
        try:
            if command == "help" and len(words) == 1:
                print(self.instructions())
            elif command in ("restart", "reset") and len(words) == 1:
                self.placement.clear()
                print("New board.")
                self.show()
            elif command == "size":
                self.resize(words[1:])
            elif command == "solve" and len(words) == 1:
                self.solve()
            elif command == "hint" and len(words) == 1:
                self.hint()
            elif command == "count" and len(words) == 1:
                self.count()
            else:
                self.toggle(line)
        except InputError as error:
            message = str(error)
            ending = "" if message.endswith(".") else "."  # shared with the command's errors
            print(message[:1].upper() + message[1:] + ending)
        return True

    def toggle(self, text: str) -> None:
        try:
            square = parse_square(text, self.n)
        except InputError as error:
            raise InputError(f"{error}. Type help for the commands.") from None
        name = format_square(square, self.n)
        if square in self.placement:
            self.placement.remove(*square)
            print(f"Removed the queen on {name}.")
            self.show()
            return
        try:
            self.placement.place(*square)
        except QueenConflictError as conflict:
            attacker = format_square(conflict.attacker, self.n)
            raise InputError(
                f"Refused: the queen on {attacker} attacks {name} along the {conflict.line}."
            ) from None
        print(f"Placed a queen on {name}.")
        self.show()
        if self.placement.is_solution:
            if self.n == 1:
                print("Congratulations! The queen is placed, and nothing can attack it.")
            else:
                print(f"Congratulations! All {self.n} queens are placed and none attacks "
                      "another.")
            print("Type restart to play again, or size N for another board.")

    def resize(self, words: list[str]) -> None:
        if len(words) != 1:
            raise InputError(f"Write the size as a number, e.g. size 8 (1 to {MAX_PLAY_N}).")
        self.placement = Placement(parse_size(words[0], 8, MAX_PLAY_N))
        print(f"New {self.n}×{self.n} board: place {counted(self.n, 'queen')}.")
        self.show()

    def solve(self) -> None:
        if self.placement.is_solution:
            print("The board is already solved. Type restart to play again.")
            return
        start = time.perf_counter()
        solution = solve(self.n, self.placement.queens)
        elapsed = format_seconds(time.perf_counter() - start)
        kept = len(self.placement)
        if solution is None and no_solution_at_all(self.n):  # removing queens cannot help
            print(f"The {self.n}×{self.n} board has no solution at all (proved in {elapsed}). "
                  "Try another size, like size 8.")
            return
        if solution is None:
            print(
                f"No solution exists with your {counted(kept, 'queen')} "
                f"(proved in {elapsed}). Remove a queen or type restart."
            )
            return
        self.placement = Placement.from_queens(self.n, solution)
        if kept:
            print(f"Solved in {elapsed}: kept your {counted(kept, 'queen')} "
                  f"and placed {self.n - kept} more.")
        else:
            print(f"Solved in {elapsed}: placed {counted(self.n, 'queen')}.")
        self.show()

    def hint(self) -> None:
        if self.placement.is_solution:
            print("The board is already solved.")
            return
        square = hint(self.placement)
        if square is None and no_solution_at_all(self.n):  # removing queens cannot help
            print(f"The {self.n}×{self.n} board has no solution at all: "
                  "try another size, like size 8.")
        elif square is None:
            print("No square keeps this board solvable: remove a queen or type restart.")
        else:
            print(f"Try a queen on {format_square(square, self.n)}.")

    def count(self) -> None:
        progress, seconds, stop = count_showing_progress(self.n, sys.stderr)
        if stop is not None:  # Ctrl-C stops the count, not the game
            why, _ = why_and_status(stop)
            message = partial_count(self.n, progress, seconds, why)
            print(f"{message[:1].upper()}{message[1:]}.")
            return
        print(
            f"The {self.n}×{self.n} board has {counted(progress.solutions, 'solution')} "
            f"(counted in {format_seconds(seconds)})."
        )
