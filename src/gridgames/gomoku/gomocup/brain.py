"""Our engine as a Gomocup brain (``pbrain-gridgames``).

The brain reads commands on stdin and answers on stdout, one line per reply,
flushed. A reader thread takes the input so that ``YXSTOP`` and ``END`` work
while the engine thinks; every other command waits its turn. Each search runs
in a forked child process that reports its progress over a pipe, so the parent
stays free, whatever the search is doing, to answer ``YXSTOP`` at once, to leave
within a second on ``END``, and to answer with the best move found so far when
the turn time is nearly up. ``INFO thread_num`` (or ``--threads``) sets how many
search threads the child runs.

Commands: START, RECTSTART, RESTART, BEGIN, TURN, BOARD, INFO, TAKEBACK (of the
last move), PLAY, END, ABOUT, SWAP2BOARD, and the Yixin-Board extensions
YXBOARD, YXSHOWFORBID, YXNBEST (plays the best move, as Rapfi does), YXSTOP /
STOP, YXHASHCLEAR and YXSHOWINFO. Anything else is answered ``UNKNOWN`` (YXBLOCK
and YXBLOCKUNDO once, at the DONE ending their lines); a known command that cannot
be carried out is answered ``ERROR`` with the reason.

:class:`Brain` is the protocol state machine without any I/O of its own, so it
can be driven line by line:

>>> replies = []
>>> brain = Brain(replies.append, warm_up=False)
>>> for line in ["START 15", "INFO timeout_turn 0", "BEGIN", "YXSHOWFORBID", "ABOUT 7"]:
...     brain.handle(line)
>>> [line for line in replies if not line.startswith("MESSAGE")][:3]
['OK', '7,7', 'FORBID .']
>>> brain.handle("HELLO")
>>> replies[-1].split(";")[0]
'UNKNOWN command HELLO'
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import queue
import random
import re
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TextIO, TypeVar

from gridgames import __version__
from gridgames.gomoku import MAX_SIZE, MIN_SIZE, Board, IllegalMoveError, Rule
from gridgames.gomoku.gomocup.protocol import (
    UNLIMITED_TIME,
    ProtocolError,
    format_about,
    format_forbid,
    format_search_message,
    format_xy,
    parse_int,
    parse_xy,
    read_lines,
)
from gridgames.gomoku.notation import shown

if TYPE_CHECKING:
    from gridgames.gomoku.ai import Level, Limit, SearchInfo, SearchMemory, SearchResult
    from gridgames.gomoku.ai.engine import StopSignal
    from gridgames.gomoku.ai.timing import TimeControl

Point = tuple[int, int]
T = TypeVar("T")
InfoSink = Callable[["SearchInfo"], None]

NAME = "gridgames"
DEFAULT_TURN_MS = 5_000
# Below this the process cannot hold the interpreter, numba, the compiled kernels and
# the 16 MB table: its peak working set was about 210 MB on Linux, on boards up to 64.
MIN_MEMORY = 256 << 20
# The most search threads INFO thread_num and --threads may ask for.
MAX_THREADS = 8
# The largest max_depth and max_node taken as limits, the most a Limit takes (ai.limits
# MAX_LIMIT, not imported here: the engine loads later); a larger one is no limit, as 0 is.
MAX_SEARCH_LIMIT = 2**48
# Forking the search and passing its reply back, per move.
PROCESS_OVERHEAD_MS = 15
# How long START waits for the search's kernels (a first run compiles them); after
# that it answers, and moves are instant ones until they are ready.
START_WAIT_S = 8.0
# Commands that take the lines up to DONE.
BLOCKS = ("BOARD", "YXBOARD", "SWAP2BOARD")
# Yixin-Board's commands that take lines up to DONE and that this brain does not carry out:
# answered UNKNOWN once, at DONE.
UNKNOWN_BLOCKS = ("YXBLOCK", "YXBLOCKUNDO")
# A SWAP2BOARD line: x,y, or x,y,field as in BOARD (Rapfi reads both).
_SWAP2_LINE = re.compile(r"\s*[+-]?\d+\s*,\s*[+-]?\d+\s*(?:,\s*\d+\s*)?")
# prctl's option (linux/prctl.h) that sends a process a signal when its parent ends.
PR_SET_PDEATHSIG = 1
# Commands the reader thread acts on at once, even while the engine thinks.
URGENT = ("END", "STOP", "YXSTOP")
# Commands the rule does not concern: a refused INFO rule waits for the next one it does
# (it once took ABOUT's place, and the game that followed went on under the old rule).
RULE_FREE = ("INFO", "ABOUT", "TAKEBACK", "YXHASHCLEAR", "YXSHOWINFO", *URGENT)


def _in_protocol_terms(board: Board, point: Point, reason: str) -> str:
    """A board's reason for refusing ``point`` with the point named as the protocol
    names it, x,y, then in renju notation: "7,7 (h8) is occupied by black"."""
    if not board.contains(point):
        return _off_board(board, point)
    name = board.point_name(point)
    if reason.startswith(f"{name} "):
        return f"{format_xy(point)} ({name}){reason[len(name):]}"
    return reason


def _off_board(board: Board, point: Point) -> str:
    return (f"{shown(format_xy(point))} is off the {board.width}x{board.height} board; "
            f"x must be 0 to {board.width - 1} and y 0 to {board.height - 1}")


def _one_line(text: str) -> str:
    """``text`` as one reply line: control characters (a NUL quoted from the input, say)
    become spaces, and runs of spaces one."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def _split_word(text: str) -> tuple[str, str]:
    """A line's first word, upper-cased, and the rest, split at any whitespace (tabs too)."""
    word, *rest = text.split(None, 1) or [""]
    return word.upper(), rest[0].strip() if rest else ""


def _rule_refusal(number: int, error: ValueError) -> str:
    """Why ``INFO rule number`` cannot be played: Piskvork adds 2 for a continuous game."""
    if number > 2 and number & 2:
        with contextlib.suppress(ValueError):
            rule = Rule.from_gomocup(number - 2)
            return (f"rule {number} is {rule.value} with the continuous game (+2), which "
                    f"this brain does not play; rule {rule.gomocup} is {rule.value} without it")
    return str(error)


def _place_stones(board: Board, black: list[Point], white: list[Point]) -> None:
    """Place a BOARD list's stones (or a position's, under a new rule) on ``board``,
    black first and then in turn.

    Under renju they come in the order played. Under the other rules the order is free,
    and the stones go in an order in which no five comes before the last stone: placed
    as listed, a row of six under standard gomoku made a five on the way (or a caro five
    before its blockers), and the position was refused. Where no such order is found,
    the order listed says which stone ends the game.
    """
    if board.rule is not Rule.RENJU and _free_order(board, black, white):
        return
    board.clear()
    for index in range(len(black) + len(white)):
        point = (black if index % 2 == 0 else white)[index // 2]
        try:
            board.push(point)
        except IllegalMoveError as error:
            raise CommandError(f"stone {index + 1} of the position: "
                               f"{_in_protocol_terms(board, point, str(error))}") from None


def _free_order(board: Board, black: list[Point], white: list[Point]) -> bool:
    """Place the stones in an order in which none but the last ends the game: each side's
    next stone is its first one listed that does not, taking back earlier choices where
    none is left (a bounded search). False when none was found."""
    sides = (list(black), list(white))
    total = len(black) + len(white)
    chosen: list[int] = []  # where each stone placed was in its side's list
    first = 0  # the first of the side's stones still to try at this point
    tries = total + 1000
    while len(board) < total and tries > 0:
        stones = sides[len(board) % 2]
        last = len(board) == total - 1
        for index in range(first, len(stones)):
            tries -= 1
            board.push(stones[index])
            if last or board.outcome() is None:
                chosen.append(index)
                stones.pop(index)
                first = 0
                break
            board.pop()
        else:
            if not chosen:
                return False
            first = chosen.pop()
            sides[(len(board) - 1) % 2].insert(first, board.pop())
            first += 1
    return len(board) == total


class CommandError(Exception):
    """A known command that cannot be carried out; the message goes after ``ERROR``."""


class Interrupted(Exception):
    """END arrived during a search: the answer must not be written."""


class _Either:
    """A stop signal set when either of two events is."""

    def __init__(self, a: threading.Event, b: threading.Event) -> None:
        self.a, self.b = a, b

    def is_set(self) -> bool:
        return self.a.is_set() or self.b.is_set()


def margin_ms(budget_ms: int) -> int:
    """Time kept back from a budget for Python, pipes and the search's last step
    (a reply comes about 15 ms after the search's deadline).

    >>> margin_ms(1000), margin_ms(5000), margin_ms(300_000)
    (55, 155, 500)
    """
    return min(500, 30 + budget_ms // 40)


class Brain:
    """The Gomocup protocol over a :class:`~gridgames.gomoku.Board` and our engine.

    ``write`` receives each reply line (without a newline). ``level`` caps the
    strength at one of the engine's levels; without it the brain uses all the
    time it is given.
    """

    def __init__(self, write: Callable[[str], None], *, level: Level | None = None,
                 warm_up: bool = True, seed: int | None = None, worker: bool = False,
                 threads: int = 1) -> None:
        self.write = write
        # Search in a forked process: then YXSTOP, END and the turn time are obeyed even
        # while a compiled search kernel keeps this process busy.
        self.worker = worker and hasattr(os, "fork")
        self.level = level
        self.seed = seed
        self.board: Board | None = None
        self.rule = Rule.FREESTYLE
        self.timeout_turn = DEFAULT_TURN_MS
        self.timeout_match = 0
        self.time_left: int | None = None
        self.max_memory = 0
        self.threads = threads
        self.max_depth: int | None = None
        self.max_nodes: int | None = None
        self.game_type = 1
        self.pending_error: str | None = None  # an unknown INFO rule, refused next
        # the position is not legal under the rule INFO set: refused by the next command
        # that plays on it (one that starts a game or sets a position replaces it)
        self.position_error: str | None = None
        self.stop = threading.Event()  # stops the current search (YXSTOP)
        self.stop_asked = 0.0  # when a stop was last read (perf_counter)
        self.quit = threading.Event()  # END was read: stop everything
        self.thinking = False
        self.finished = False
        self._last_info: SearchInfo | None = None
        # our search's score of our previous move: a fall since then asks for more time
        self._previous_score: int | None = None
        self._needs_warm_up = warm_up
        self._preparing: threading.Thread | None = None
        self._block: tuple[str, list[str]] | None = None
        self._rng = random.Random(seed)
        self._memory: SearchMemory | None = None

    # -- entry point -----------------------------------------------------------

    def handle(self, line: str, received: float | None = None) -> None:
        """Carry out one input line; ``received`` is when it was read (perf_counter)."""
        received = time.perf_counter() if received is None else received
        text = line.strip()
        if not text:
            return
        if self._block is not None:
            command = self._block[0]
            self._guarded(command, "", lambda: self._block_line(text, received))
            return
        command, args = _split_word(text)
        if command in BLOCKS or command in UNKNOWN_BLOCKS:
            self._block = (command, [])
            return
        handler = self._handlers.get(command)
        if handler is None:
            self._unknown(command)
            return
        if command not in RULE_FREE and self._report_pending():
            return
        self._guarded(command, args, lambda: handler(args, received))

    def _guarded(self, command: str, args: str, action: Callable[[], None]) -> None:
        """Run ``action``, turning every failure into an ERROR reply."""
        try:
            action()
        except Interrupted:
            self.finished = True
        except (CommandError, ProtocolError) as error:
            said = f"{command} {shown(args)}".strip()
            self.write(_one_line(f"ERROR {said}: {error}"))
        except Exception as error:  # a bug must not end the game: report it and go on
            self.write(_one_line(f"ERROR {command} failed: {error!r}"))

    @property
    def _handlers(self) -> dict[str, Callable[[str, float], None]]:
        return {
            "START": self._start,
            "RECTSTART": self._rectstart,
            "RESTART": self._restart,
            "BEGIN": self._begin,
            "TURN": self._turn,
            "INFO": self._info,
            "TAKEBACK": self._takeback,
            "PLAY": self._play,
            "END": self._end,
            "ABOUT": self._about,
            "YXSHOWFORBID": self._show_forbid,
            "YXNBEST": self._nbest,
            "YXSTOP": self._ignore,
            "STOP": self._ignore,
            "YXHASHCLEAR": self._hash_clear,
            "YXSHOWINFO": self._show_info,
        }

    def _unknown(self, command: str) -> None:
        self.write(_one_line(f"UNKNOWN command {shown(command)}; see the Gomocup protocol "
                             "for the commands this brain knows"))

    def end_of_input(self) -> None:
        """The input has ended: a stone list still open is refused, not dropped in silence."""
        if self._block is not None:
            command = self._block[0]
            self._block = None
            self.write(f"ERROR {command}: the input ended before DONE closed the stone list")

    def _report_pending(self) -> bool:
        if self.pending_error is None:
            return False
        self.write(_one_line(f"ERROR {self.pending_error}"))
        self.pending_error = None
        return True

    # -- game set-up -------------------------------------------------------------

    def _new_board(self, width: int, height: int) -> None:
        for name, value in (("width", width), ("height", height)):
            if not MIN_SIZE <= value <= MAX_SIZE:
                raise CommandError(
                    f"board {name} {value} is not supported; use {MIN_SIZE} to {MAX_SIZE}"
                )
        if self._needs_warm_up:
            # What the instant (greedy) move needs now, the search in the background,
            # waited for a while: START is answered within seconds even on a first
            # run that compiles, and at once ready to search on later runs.
            self._preparing = _prepare_in_background()
            self._preparing.join(START_WAIT_S)
            self._needs_warm_up = False
        self._replace_board(Board(width, height, rule=self.rule))
        self._forget_game()
        self.write("OK")

    def _start(self, args: str, received: float) -> None:
        size = parse_int(args, "the board size")
        self._new_board(size, size)

    def _rectstart(self, args: str, received: float) -> None:
        if "," not in args:
            raise CommandError("expected the size as width,height (like 20,15)")
        width, height = parse_xy(args)
        self._new_board(width, height)

    def _restart(self, args: str, received: float) -> None:
        board = self._started()
        self._replace_board(Board(board.width, board.height, rule=self.rule))
        self._forget_game()
        self.write("OK")

    def _forget_game(self) -> None:
        """A new game starts with nothing learnt in the one before."""
        self._previous_score = None
        if self._memory is not None:
            self._memory.clear()

    def _started(self) -> Board:
        """The board of the game started, for its size."""
        if self.board is None:
            raise CommandError("no game has been started; send START first")
        return self.board

    def _need_board(self) -> Board:
        """The position to play on."""
        board = self._started()
        if self.position_error is not None:
            raise CommandError(self.position_error)
        return board

    def _replace_board(self, board: Board) -> None:
        self.board = board
        self.position_error = None

    # -- moves -----------------------------------------------------------------

    def _begin(self, args: str, received: float) -> None:
        board = self._need_board()
        if board.move_stack:
            raise CommandError(f"the board is not empty ({len(board)} stones); "
                               "BEGIN starts a game on an empty board")
        self._reply_move(received)

    def _turn(self, args: str, received: float) -> None:
        board = self._need_board()
        point = parse_xy(args)
        self._push_checked(board, point)
        self._reply_move(received)

    def _play(self, args: str, received: float) -> None:
        board = self._need_board()
        point = parse_xy(args)
        self._push_checked(board, point)
        self.write(format_xy(point))

    def _push_checked(self, board: Board, point: Point) -> None:
        reason = board.illegal_reason(point)
        if reason is not None:
            raise CommandError(_in_protocol_terms(board, point, reason))
        board.push(point)

    def _takeback(self, args: str, received: float) -> None:
        board = self._need_board()
        point = parse_xy(args)
        if not board.move_stack:
            raise CommandError("the board is empty; there is nothing to take back")
        if board.move_stack[-1] != point:
            raise CommandError(f"only the last move ({format_xy(board.move_stack[-1])}) "
                               "can be taken back")
        board.pop()
        self.write("OK")

    def _reply_move(self, received: float) -> None:
        board = self._need_board()
        self._check_playable(board)
        move = self._think(board, received)
        board.push(move)
        self.write(format_xy(move))

    def _check_playable(self, board: Board) -> None:
        outcome = board.outcome()
        if outcome is not None:
            raise CommandError(f"the game is over ({outcome}); there is no move to play")

    # -- thinking ----------------------------------------------------------------

    def move_budget_ms(self, moves_played: int = 0) -> int:
        """Milliseconds to spend on one move under the current INFO limits.

        >>> brain = Brain(print, warm_up=False)
        >>> brain.timeout_turn = 1000
        >>> brain.move_budget_ms()
        945
        >>> brain.time_left = 6000
        >>> brain.move_budget_ms()
        200
        >>> brain.timeout_turn = 0
        >>> brain.move_budget_ms()
        0
        """
        if self.timeout_turn <= 0:
            return 0
        budget = self.timeout_turn - margin_ms(self.timeout_turn)
        left = self.time_left
        if left is not None and left < UNLIMITED_TIME:
            # Spread the rest of the match over the moves still to come.
            moves_to_go = max(10, 30 - moves_played // 2)
            share = left // moves_to_go
            budget = min(budget, share, left - margin_ms(max(left, 0)))
        return max(0, budget)

    def limit_for(self, budget_ms: int) -> Limit:
        """The engine limit for a budget (instant play when the budget is nothing)."""
        from gridgames.gomoku.ai import Limit

        if budget_ms <= 0:
            return Limit(depth=2)
        limit = self.level.limit_for(budget_ms) if self.level else Limit(time_ms=budget_ms)
        if self.max_depth is not None:
            depth = self.max_depth if limit.depth is None else min(limit.depth, self.max_depth)
            limit = replace(limit, depth=depth)
        if self.max_nodes is not None:
            nodes = self.max_nodes if limit.nodes is None else min(limit.nodes, self.max_nodes)
            limit = replace(limit, nodes=nodes)
        return limit

    def time_control(self, board: Board, received: float) -> TimeControl | None:
        """How to spend the match clock on this move: a soft budget and a hard cap,
        or None when no match clock applies (then the move gets ``move_budget_ms``).

        A level bounded by depth or nodes keeps its fixed limit. ``max_depth`` and
        ``max_node`` cap a paced search: Yixin-Board sends them (100 and 10^9) with
        every time-based setting, and they once turned the pacing off.

        >>> brain = Brain(print, warm_up=False)
        >>> brain.timeout_turn, brain.time_left = 5000, 20000
        >>> control = brain.time_control(Board(15), time.perf_counter())
        >>> control.soft_ms < 1000 < control.hard_ms <= 5000 - margin_ms(5000)
        True
        >>> brain.max_depth, brain.max_nodes = 100, 10**9
        >>> brain.time_control(Board(15), time.perf_counter()) == control
        True
        >>> brain.time_left = 100
        >>> brain.time_control(Board(15), time.perf_counter()).is_instant
        True
        """
        from gridgames.gomoku.ai.timing import TimeControl

        left = self.time_left
        if left is None or left >= UNLIMITED_TIME or self.timeout_turn <= 0:
            return None
        turn = self.timeout_turn
        if self.level is not None:
            level_limit = self.level.limit
            if level_limit.depth is not None or level_limit.nodes is not None:
                return None
            if level_limit.time_ms is not None:
                turn = min(turn, level_limit.time_ms)
        spent = int((time.perf_counter() - received) * 1000)
        return TimeControl.for_clock(turn_ms=turn, time_left_ms=max(0, left),
                                     moves_played=len(board),
                                     overhead_ms=spent + PROCESS_OVERHEAD_MS,
                                     safety_ms=margin_ms(max(0, min(turn, left))),
                                     previous_score=self._previous_score)

    def _budget_now(self, board: Board, received: float) -> int:
        """The move budget minus the time already spent since the command arrived."""
        budget = self.move_budget_ms(len(board))
        if budget > 0:
            budget = max(1, budget - int((time.perf_counter() - received) * 1000))
        return budget

    def _deadline(self, received: float) -> float | None:
        """When the reply must be written at the latest (None: no time limit applies)."""
        allowed = self.timeout_turn
        left = self.time_left
        if left is not None and left < UNLIMITED_TIME:
            allowed = min(allowed, left)
        if allowed <= 0:
            return None
        return received + (allowed - max(25, allowed // 50)) / 1000

    def _compute(self, task: Callable[[InfoSink, StopSignal | None], T],
                 fallback: Callable[[], T], received: float, *, instant: bool) -> T:
        """Run ``task(on_info, stop)``; when stopped or out of time, return ``fallback()``."""
        self.stop.clear()
        if self.stop_asked > received:  # read after this command, before its search began
            self.stop.set()
        self._last_info = None
        self.thinking = True
        try:
            if instant and not self._kernels_ready():
                value = fallback()  # a first run still compiles the search: no waiting
            elif not self.worker or instant:
                value = task(self._on_info, _Either(self.stop, self.quit))
            elif not self._engine_ready(self._deadline(received)):
                value = fallback()  # still compiling (a first run): the instant move
            else:
                value = self._in_worker(task, fallback, self._deadline(received))
        except ValueError as error:
            raise CommandError(str(error)) from None
        finally:
            self.thinking = False
        if self.quit.is_set():
            raise Interrupted
        return value

    def _kernels_ready(self) -> bool:
        """Whether the search's kernels are loaded (a first run compiles them after START;
        until then a search would wait for the compile, and only the greedy scorer,
        loaded before START's answer, plays at once)."""
        return self._preparing is None or not self._preparing.is_alive()

    def _engine_ready(self, deadline: float | None) -> bool:
        """Wait for the background preparation, until ``deadline`` at the latest.

        A search is only forked once it is done: a fork must not happen mid-compile.
        """
        preparing = self._preparing
        if preparing is None:
            return True
        while preparing.is_alive():
            if self.stop.is_set() or self.quit.is_set() or (
                deadline is not None and time.perf_counter() >= deadline
            ):
                return False
            preparing.join(0.005)
        return True

    def _in_worker(self, task: Callable[[InfoSink, StopSignal | None], T],
                   fallback: Callable[[], T], deadline: float | None) -> T:
        receiver, sender = multiprocessing.Pipe(duplex=False)
        # A bare fork: multiprocessing.Process would close stdin in the child, which
        # blocks on the lock the reader thread holds.
        parent = os.getpid()
        try:
            pid = os.fork()
        except OSError:
            # No process to spare (a process limit, a sandbox, memory): search here,
            # where the search's own clock and the stop signals still hold.
            receiver.close()
            sender.close()
            return task(self._on_info, _Either(self.stop, self.quit))
        if pid == 0:  # the worker: search, report, leave without any clean-up
            try:
                _end_with(parent)
                receiver.close()
                value = task(lambda info: sender.send(("info", info)), None)
                sender.send(("done", value))
            except ValueError as error:
                sender.send(("error", str(error)))
            except BrokenPipeError:
                pass  # the brain has gone: there is no one to answer
            except BaseException:
                traceback.print_exc()  # to stderr; the parent answers with its fallback
            finally:
                os._exit(0)
        sender.close()
        try:
            while not (self.stop.is_set() or self.quit.is_set() or (
                deadline is not None and time.perf_counter() >= deadline
            )):
                if not receiver.poll(0.005):
                    continue
                try:
                    kind, value = receiver.recv()
                except (EOFError, OSError):
                    break  # the worker died: answer with what we have
                if kind == "info":
                    self._on_info(value)
                elif kind == "done":
                    return value
                else:
                    raise ValueError(value)
        finally:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            receiver.close()
            # Reaped on a thread: on a busy machine a killed search took up to a quarter
            # of a second to exit, and the reply must not wait for that.
            threading.Thread(target=_reap, args=(pid,), name="reap", daemon=True).start()
        # Only once the search is killed: on a busy machine it once held the processor
        # while a Swap2 fallback ran, and the reply came 100 ms after the turn time.
        return fallback()

    def _quick_move(self, board: Board) -> Point:
        """The best move known so far, or the greedy scorer's (instant) when none is."""
        info = self._last_info
        if info is not None and info.pv and board.is_legal(info.pv[0]):
            return info.pv[0]
        from gridgames.gomoku.ai import Limit, think

        return think(board, Limit(depth=0), seed=self._rng.randrange(1 << 30)).move

    def _search_memory(self, board: Board) -> SearchMemory:
        """The engine's table for ``board``, kept from move to move of a game (a new game
        clears it). A forked search fills it in memory it shares with the brain, so it is
        made here, before the fork."""
        if self._memory is None:
            from gridgames.gomoku.ai import SearchMemory

            self._memory = SearchMemory(shared=self.worker)
        self._memory.table(board)
        return self._memory

    def _think(self, board: Board, received: float) -> Point:
        from gridgames.gomoku.ai import think

        clock = self.time_control(board, received)
        budget = self._budget_now(board, received) if clock is None else clock.hard_ms
        limit = self.limit_for(budget)
        if clock is not None and clock.is_instant:
            from gridgames.gomoku.ai import Limit
            from gridgames.gomoku.ai.timing import instant_depth

            limit = Limit(depth=instant_depth(self.time_left))
        seed = self._rng.randrange(1 << 30)
        memory = self._search_memory(board)

        def task(on_info: InfoSink, stop: StopSignal | None) -> Point:
            reported = False

            def report(info: SearchInfo) -> None:
                nonlocal reported
                reported = True
                on_info(info)

            result = think(board, limit, stop=stop, on_info=report, seed=seed,
                           memory=memory, threads=self.threads,
                           clock=clock if budget > 0 else None)
            if not reported and result.depth > 0:
                # Solved before the first iteration (a win the threat solvers found):
                # the manager hears what was found all the same.
                from gridgames.gomoku.ai import SearchInfo

                on_info(SearchInfo(result.depth, result.score, result.mate, result.nodes,
                                   result.nps, result.time_ms, result.pv))
            return result.move

        move = self._compute(task, lambda: self._quick_move(board), received,
                             instant=budget <= 0)
        info = self._last_info
        self._previous_score = info.score if info is not None else None
        return move

    def _on_info(self, info: SearchInfo) -> None:
        self._last_info = info
        self.write("MESSAGE " + format_search_message(
            info.depth, info.score, info.mate, info.nodes, info.nps, info.time_ms, info.pv))

    def _nbest(self, args: str, received: float) -> None:
        from gridgames.gomoku.ai import analyse

        count = parse_int(args, "the number of moves") if args else 1
        if count < 1:
            raise CommandError(f"the number of moves must be 1 or more, got {count}")
        board = self._need_board()
        self._check_playable(board)
        budget = self._budget_now(board, received)
        limit = self.limit_for(budget)
        memory = self._search_memory(board)

        def task(on_info: InfoSink, stop: StopSignal | None) -> list[SearchResult]:
            return analyse(board, limit, multipv=count, stop=stop, memory=memory)

        def fallback() -> list[SearchResult]:
            from gridgames.gomoku.ai import Limit, think

            return [think(board, Limit(depth=1 if self._kernels_ready() else 0))]

        results = self._compute(task, fallback, received, instant=budget <= 0)
        for number, result in enumerate(results, start=1):
            self.write("MESSAGE " + format_search_message(
                result.depth, result.score, result.mate, result.nodes, result.nps,
                result.time_ms, result.pv, multipv=number))
        board.push(results[0].move)
        self.write(format_xy(results[0].move))

    # -- BOARD / YXBOARD / SWAP2BOARD ----------------------------------------------

    def _block_line(self, text: str, received: float) -> None:
        assert self._block is not None
        command, lines = self._block
        word = _split_word(text)[0]
        if word == "DONE":
            self._block = None
            self._finish_block(command, lines, received)
        elif word == "END":
            self._block = None  # the manager is done: nothing more is written
            self.handle(text, received)
        elif word in BLOCKS or word in UNKNOWN_BLOCKS or word in self._handlers:
            # A command inside the block: the manager forgot DONE.
            self._block = None
            self.write(_one_line(f"ERROR {command}: the stone list was not closed by DONE "
                                 f"before {shown(word)}"))
            self.handle(text, received)
        else:
            lines.append(text)

    def _finish_block(self, command: str, lines: list[str], received: float) -> None:
        if command in UNKNOWN_BLOCKS:
            self._unknown(command)
            return
        if self._report_pending():
            return
        if command == "SWAP2BOARD":
            self._swap2(lines, received)
            return
        self._replace_board(self._position(lines))
        if command == "BOARD":
            self._reply_move(received)

    def _position(self, lines: list[str]) -> Board:
        """A board from ``x,y,field`` lines (1 own, 2 opponent); own side to move."""
        template = self._started()
        own: list[Point] = []
        other: list[Point] = []
        seen: set[Point] = set()
        for line in lines:
            parts = line.split(",")
            if len(parts) != 3:
                raise CommandError(f"expected lines x,y,field, got {shown(line)!r}")
            point = parse_xy(",".join(parts[:2]))
            field = parse_int(parts[2], "the field")
            if not template.contains(point):
                raise CommandError(_off_board(template, point))
            if field == 3:
                # A stone that counts for no one: the board has no such square, and which
                # side is to move no longer follows from the stones.
                raise CommandError(f"{format_xy(point)} is a blocked square (field 3) of a "
                                   "continuous game, which this brain does not play; use "
                                   "fields 1 (own) and 2 (opponent)")
            if field not in (1, 2):
                raise CommandError(f"field must be 1 (own) or 2 (opponent), got {field}")
            if point in seen:
                raise CommandError(f"{format_xy(point)} is listed twice")
            seen.add(point)
            (own if field == 1 else other).append(point)
        if len(own) == len(other):
            black, white = own, other
        elif len(other) == len(own) + 1:
            black, white = other, own
        else:
            raise CommandError(f"{len(own)} own and {len(other)} opponent stones: "
                               "it cannot be this brain's turn")
        board = Board(template.width, template.height, rule=self.rule)
        _place_stones(board, black, white)
        return board

    def _swap2(self, lines: list[str], received: float) -> None:
        template = self._started()
        board = Board(template.width, template.height, rule=self.rule)
        for line in lines:
            if not _SWAP2_LINE.fullmatch(line):
                raise CommandError(f"expected lines x,y (or x,y,field), got {shown(line)!r}")
            point = parse_xy(",".join(line.split(",")[:2]))
            try:
                board.push(point)
            except IllegalMoveError as error:
                raise CommandError(_in_protocol_terms(board, point, str(error))) from None
        if len(board) not in (0, 3, 5):
            raise CommandError(f"Swap2 positions have 0, 3 or 5 stones, got {len(board)}")
        from gridgames.gomoku.gomocup.swap2 import Swap2Answer, decide

        budget = self._budget_now(board, received)
        seed = self._rng.randrange(1 << 30)

        def task(on_info: InfoSink, stop: StopSignal | None) -> Swap2Answer:
            return decide(board, budget, self.limit_for, stop=stop, rng=random.Random(seed))

        def fallback() -> Swap2Answer:
            if board.move_stack and not self._kernels_ready():
                # Still compiling (a first run): the greedy scorer's fourth or sixth stone.
                return Swap2Answer.place(self._quick_move(board))
            return decide(board, 0, self.limit_for, rng=random.Random(seed))

        answer = self._compute(task, fallback, received, instant=budget <= 0)
        for point in answer.moves:
            board.push(point)
        self._replace_board(board)
        self.write(answer.reply)

    # -- settings and information ------------------------------------------------------

    def _info(self, args: str, received: float) -> None:
        key, value = _split_word(args)
        key = key.lower()
        said = f"INFO {shown(key)} {shown(value)}"
        try:
            note = self._set_info(key, value)
        except (CommandError, ProtocolError) as error:
            if key == "rule":
                # A game under another rule would be wrong: refuse the next command (the
                # manager reads no reply to INFO).
                self.pending_error = shown(f"{said}: {error}", 200)
            else:
                # Play on with the value before; managers log a MESSAGE wherever it comes.
                self.write(_one_line(f"MESSAGE {said} ignored: {error}"))
            return
        if key == "rule":  # a good rule replaces the one refused
            self.pending_error = None
        if note:
            self.write(_one_line(f"MESSAGE {said}: {note}"))

    def _set_info(self, key: str, value: str) -> str | None:
        """Apply one INFO key (CommandError for a value that cannot be used); a note
        when the value was adapted."""
        if key in ("timeout_turn", "timeout_match", "max_memory"):
            number = parse_int(value, key)
            if key != "max_memory":
                number = min(number, UNLIMITED_TIME)  # more is as good as unlimited
            if number < 0:
                raise CommandError(f"{key} must be 0 or more")
            if key == "max_memory" and 0 < number < MIN_MEMORY:
                raise CommandError(f"{number} bytes is too little memory; "
                                   f"this brain needs at least {MIN_MEMORY >> 20} MB")
            setattr(self, key, number)
            if key == "timeout_match" and number == 0:
                # An unlimited match: the time left of a match before it applies no more
                # (a manager need not send time_left then).
                self.time_left = None
        elif key == "thread_num":
            number = parse_int(value, key)
            if number < 1:
                raise CommandError(f"thread_num must be 1 or more (this brain uses 1 to "
                                   f"{MAX_THREADS})")
            self.threads = min(number, MAX_THREADS)
            if number > MAX_THREADS:
                return f"searching on {MAX_THREADS} threads, the most this brain uses"
        elif key == "time_left":
            # may be negative: then play at once; more than UNLIMITED_TIME is unlimited
            self.time_left = min(parse_int(value, key), UNLIMITED_TIME)
        elif key == "game_type":
            self.game_type = parse_int(value, key)
        elif key == "rule":
            number = parse_int(value, key)
            try:
                rule = Rule.from_gomocup(number)
            except ValueError as error:
                raise CommandError(_rule_refusal(number, error)) from None
            self._set_rule(rule)
        elif key in ("max_depth", "max_node"):
            # The engine keeps its limits in 64-bit integers: a larger one means no limit.
            number = parse_int(value, key)
            limit = number if 0 < number <= MAX_SEARCH_LIMIT else None
            if key == "max_depth":
                self.max_depth = limit
            else:
                self.max_nodes = limit
        # Other keys (folder, evaluate, Yixin options) do not concern this brain.
        return None

    def _set_rule(self, rule: Rule) -> None:
        self.rule = rule
        if self.board is None or self.board.rule is rule:
            return
        moves = list(self.board.move_stack)
        self.board = Board(self.board.width, self.board.height, rule=rule)
        try:
            _place_stones(self.board, moves[0::2], moves[1::2])
        except CommandError as error:
            # The rule stands and only playing on is refused: refusing the rule refused
            # the next command, a START that replaces the position too.
            self.board.clear()
            self.position_error = (f"the position is not legal under the rule INFO set, "
                                   f"{rule.value}: {error}")

    def _about(self, args: str, received: float) -> None:
        name = NAME if self.level is None else f"{NAME} level {self.level.number}"
        self.write(format_about({"name": name, "version": __version__,
                                 "author": "gridgames developers"}))

    def _show_forbid(self, args: str, received: float) -> None:
        board = self._need_board()
        self.write(format_forbid(board.forbidden_points()))

    def _hash_clear(self, args: str, received: float) -> None:
        if self._memory is not None:
            self._memory.clear()
        self.write("MESSAGE hash table cleared")

    def _show_info(self, args: str, received: float) -> None:
        self.write(f"MESSAGE {NAME} {__version__}")
        self.write(f"MESSAGE INFO MAX_THREAD_NUM {MAX_THREADS}")
        self.write("MESSAGE INFO MAX_HASH_SIZE 20")

    def _ignore(self, args: str, received: float) -> None:
        """STOP / YXSTOP when nothing is being thought about."""

    def _end(self, args: str, received: float) -> None:
        self.finished = True


def _end_with(parent: int) -> None:
    """Have this forked search killed when the brain's process ends, however it ends (on
    Linux): a manager that kills the brain once left the search running until it next
    reported, and then a traceback of the broken pipe on the brain's error output."""
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the brain ended before that was asked
        os._exit(0)


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def _prepare_in_background() -> threading.Thread:
    """Load the greedy player's kernels now and the search's on a thread of their own
    (compiling them on a first run, with progress on stderr)."""
    from gridgames.gomoku.ai import GREEDY_GROUPS, warm_up
    from gridgames.prepare import stderr_report

    warm_up(stderr_report(), GREEDY_GROUPS)
    thread = threading.Thread(target=warm_up, args=(stderr_report(),), name="prepare",
                              daemon=True)
    thread.start()
    return thread


def serve(stdin: TextIO | None = None, stdout: TextIO | None = None, *,
          level: Level | None = None, seed: int | None = None, warm_up: bool = True,
          threads: int = 1) -> int:
    """Speak the protocol on ``stdin``/``stdout`` until ``END`` or the end of input."""
    source = stdin if stdin is not None else sys.stdin
    sink = stdout if stdout is not None else sys.stdout
    lock = threading.Lock()

    def write(line: str) -> None:
        with lock:
            try:
                sink.write(line + "\n")
                sink.flush()
            except (OSError, ValueError):
                os._exit(0)  # the manager has gone

    brain = Brain(write, level=level, seed=seed, warm_up=warm_up, worker=True, threads=threads)
    lines: queue.Queue[tuple[float, str | None]] = queue.Queue()

    def take(text: str) -> None:
        # Stamped one by one, not with the arrival of the piece they came in: a stop must
        # come after the command it stops.
        now = time.perf_counter()
        word = _split_word(text)[0]
        if word in URGENT:
            brain.stop_asked = now
            if brain.thinking:
                brain.stop.set()
            if word == "END":
                brain.quit.set()
                _exit_soon(sink)
        lines.put((now, text))

    def read() -> None:
        for _, text in read_lines(source.buffer):
            take(text)
        lines.put((time.perf_counter(), None))

    threading.Thread(target=read, name="stdin", daemon=True).start()
    while not brain.finished:
        received, line = lines.get()
        if line is None:
            brain.end_of_input()
            break
        brain.handle(line, received)
    with contextlib.suppress(OSError, ValueError):
        sink.flush()
    return 0


def _exit_soon(sink: TextIO, after: float = 0.8) -> None:
    """Leave the process shortly even if the main thread is busy (END must exit within 1 s)."""

    def leave() -> None:
        time.sleep(after)
        with contextlib.suppress(OSError, ValueError):
            sink.flush()
        os._exit(0)

    threading.Thread(target=leave, name="end", daemon=True).start()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # pbrain-gridgames is a command line too: its numbers are read as gridgames' own are
    from gridgames.cli.options import whole_number

    parser.add_argument("--level", type=_level_name,
                        help="cap the strength at a level (1..6, 'max'); "
                        "default: use all the time the manager gives")
    parser.add_argument("--seed", type=whole_number(0),
                        help="seed for the engine's random choices")
    parser.add_argument("--threads", type=whole_number(1, MAX_THREADS), default=1,
                        help=f"search threads, 1..{MAX_THREADS} (default 1; "
                        "INFO thread_num changes it)")


def _level_name(text: str) -> str:
    """Check a --level value, so that a bad one is refused before the game starts."""
    from gridgames.gomoku.ai import get_level

    try:
        get_level(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def run(args: argparse.Namespace) -> int:
    level = None
    if args.level is not None:
        from gridgames.gomoku.ai import get_level

        level = get_level(args.level)
    code = serve(level=level, seed=args.seed, threads=args.threads)
    # Skip interpreter teardown so that END is obeyed at once.
    sys.stdout.flush()
    os._exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="pbrain-gridgames",
        description="The gridgames engine as a Gomocup brain: speaks the protocol on stdin/stdout.",
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
