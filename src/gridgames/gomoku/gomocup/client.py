"""Drive any Gomocup brain (an external program) from Python.

:class:`Engine` starts the brain as a subprocess and talks to it over its
stdin/stdout, one command at a time: it never writes while the brain is
expected to answer, and every read has a deadline. For example::

    from gridgames.gomoku import Board, Rule
    from gridgames.gomoku.ai import Limit
    from gridgames.gomoku.gomocup import Engine

    with Engine("/opt/rapfi/pbrain-rapfi") as engine:
        board = Board(15, rule=Rule.RENJU)
        result = engine.play(board, Limit(time_ms=500))
        board.push(result.move)
        print(result.move, result.info.depth, result.info.score)
        print(engine.forbidden_points(board), engine.about()["name"])

Any object with ``time_ms``, ``depth`` and ``nodes`` serves as the limit, so the
client needs nothing of our own engine.

The position is sent the way Piskvork does it: ``START``/``RECTSTART``, the
``INFO`` lines, then ``BEGIN`` on an empty board, ``TURN x,y`` when the board
continues the engine's own game by one move, or ``BOARD ... DONE`` otherwise
(after ``RESTART``, because some brains add BOARD stones to the position they
hold instead of replacing it).
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import IO, Protocol

from gridgames.gomoku import Board, Color, Rule
from gridgames.gomoku.gomocup.protocol import (
    MAX_LINE,
    EngineInfo,
    ProtocolError,
    parse_about,
    parse_forbid,
    parse_search_message,
    parse_xy,
    read_lines,
)

Point = tuple[int, int]

DEFAULT_TURN_MS = 5_000
# Piskvork's default tournament tolerance on top of the turn time.
DEFAULT_TOLERANCE_MS = 1_000
# START may load networks, books or compiled kernels: Piskvork does not count it.
DEFAULT_START_TIMEOUT_MS = 60_000
# A brain may still be finishing its move when the reply arrives, and some (Rapfi) drop
# a command read meanwhile: nothing is sent to a brain until this long after its move.
SETTLE_MS = 10
# The longest single wait on the brain's output; longer deadlines wait in steps (a wait
# past the platform's limit raises OverflowError).
_MAX_WAIT_S = 3600.0
# How much of the brain's error output a crash report quotes: its last lines, cut short.
_STDERR_LINES = 5
_STDERR_CHARS = 400


class EngineError(RuntimeError):
    """The engine refused a command, answered nonsense, or broke the protocol."""


class EngineTerminatedError(EngineError):
    """The engine process ended (crashed or exited)."""


class EngineTimeoutError(EngineError):
    """The engine did not answer within the time allowed."""


class EngineStartError(EngineError):
    """The engine never started a game: it did not answer ``START`` with ``OK``."""


class UnknownCommandError(EngineError):
    """The engine answered ``UNKNOWN``: it does not implement the command."""


class IllegalEngineMoveError(EngineError):
    """The engine answered a move that cannot be played (``move``; ``reason`` says why)."""

    def __init__(self, message: str, move: Point, reason: str) -> None:
        super().__init__(message)
        self.move = move
        self.reason = reason


class LimitLike(Protocol):
    """Anything shaped like :class:`gridgames.gomoku.ai.Limit`."""

    @property
    def time_ms(self) -> int | None: ...
    @property
    def nodes(self) -> int | None: ...
    @property
    def depth(self) -> int | None: ...


@dataclass(frozen=True)
class PlayResult:
    """The engine's move, what it said about its search, and how long it took.

    ``info`` merges the engine's search MESSAGE lines (the latest value of each
    field); ``messages`` holds every MESSAGE text in order.
    """

    move: Point
    info: EngineInfo = field(default_factory=EngineInfo)
    messages: tuple[str, ...] = ()
    time_ms: int = 0

    @property
    def depth(self) -> int | None:
        return self.info.depth

    @property
    def score(self) -> int | None:
        return self.info.score

    @property
    def nodes(self) -> int | None:
        return self.info.nodes


def merge_infos(infos: Sequence[EngineInfo]) -> EngineInfo:
    """The latest value of every field over a search's MESSAGE lines.

    >>> merge_infos([EngineInfo(depth=3, pv=((7, 7),)), EngineInfo(depth=4, nodes=90)])
    EngineInfo(depth=4, seldepth=None, score=None, mate=None, nodes=90, nps=None, \
time_ms=None, pv=((7, 7),), multipv=None)
    """
    merged: dict[str, object] = {}
    for info in infos:
        if info.multipv not in (None, 1):
            continue  # only the main line describes the move played
        for f in fields(EngineInfo):
            value = getattr(info, f.name)
            if value is not None and value != ():
                merged[f.name] = value
        if info.score is not None or info.mate is not None:
            # a new score replaces the old one, whichever kind it was
            merged["score"], merged["mate"] = info.score, info.mate
    return EngineInfo(**merged)  # type: ignore[arg-type]


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the brain and every process of its group (see ``Engine._launch``)."""
    if os.name == "posix":
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        proc.kill()


def _clip_tail(lines: Sequence[str]) -> str:
    """The last lines of a brain's error output on one line, at most ``_STDERR_CHARS``
    long, keeping the end (where a crash says what it was).

    >>> _clip_tail(["starting", "Traceback", "ValueError: bad"])
    'starting | Traceback | ValueError: bad'
    >>> clipped = _clip_tail(["x" * 1000, "the end"])
    >>> len(clipped), clipped[:5], clipped[-11:]
    (400, '...xx', 'x | the end')
    """
    text = " | ".join(line for line in lines if line.strip())
    if len(text) > _STDERR_CHARS:
        text = "..." + text[-(_STDERR_CHARS - 3):]
    return text


def _early(stamp: float, sent: float, command: str) -> str:
    """A note for a reply that arrived before its command was sent: a line left over from
    an earlier answer, which is read as this one's (as Piskvork reads it)."""
    if stamp >= sent:
        return ""
    return (f" (that line came before {command} was sent: one line too many in an earlier "
            "answer?)")


def _argv(command: str | Sequence[str]) -> list[str]:
    if isinstance(command, str):
        return shlex.split(command)
    if not isinstance(command, Sequence) or not all(
            isinstance(part, str | os.PathLike) for part in command):
        raise ValueError(f"the engine command must be a command line (a str) or a list of "
                         f"its words, got {command!r}")
    return [str(part) for part in command]


class Engine:
    """A Gomocup brain running as a subprocess.

    ``command`` is a command line (a string is split like a shell would) or an
    argument list. ``tolerance_ms`` is added to the turn time for every read
    that waits for a move; ``start_timeout_ms`` bounds the wait for ``OK``
    after START and for the ``ABOUT`` reply. With ``restart_before_board``
    every ``BOARD`` is preceded by ``RESTART`` (or by a relaunch when the brain
    does not know RESTART).
    """

    def __init__(self, command: str | Sequence[str], *, name: str | None = None,
                 cwd: str | Path | None = None, env: dict[str, str] | None = None,
                 tolerance_ms: int = DEFAULT_TOLERANCE_MS,
                 start_timeout_ms: int = DEFAULT_START_TIMEOUT_MS,
                 default_turn_ms: int = DEFAULT_TURN_MS,
                 max_memory: int = 0,
                 restart_before_board: bool = True,
                 extra_info: dict[str, str | int] | None = None) -> None:
        self.argv = _argv(command)
        if not self.argv:
            raise ValueError("the engine command is empty")
        self.name = name or Path(self.argv[0]).name
        self.cwd = cwd
        self.env = env
        self.tolerance_ms = tolerance_ms
        self.start_timeout_ms = start_timeout_ms
        self.default_turn_ms = default_turn_ms
        self.max_memory = max_memory
        self.restart_before_board = restart_before_board
        self.extra_info = dict(extra_info or {})
        #: The last lines exchanged, ``"> "`` for sent and ``"< "`` for received.
        self.transcript: deque[str] = deque(maxlen=400)
        self._stderr: deque[str] = deque(maxlen=20)
        self._stderr_done = threading.Event()
        self._lines: queue.Queue[tuple[float, str | None]] = queue.Queue()
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()  # launching against kill() from another thread
        self._killed = False
        self._game: tuple[int, int, Rule] | None = None  # what START set up
        self._moves: list[Point] | None = None  # the engine's position; None = unknown
        self._sent_info: dict[str, int] = {}
        self._restart_known = True
        self._has_started = False  # answered OK to a START once
        self._dirty = False
        self._moved_at = float("-inf")  # when its last move arrived (perf_counter)
        self._launch()

    # -- process ---------------------------------------------------------------

    def _launch(self) -> None:
        # In a process group of its own, so that ending the brain also ends what it started
        # (a wrapper script's real brain, search helpers), which would keep its pipes open.
        with self._lock:
            if self._killed:
                raise EngineTerminatedError(f"{self.name} was stopped")
            try:
                self._proc = subprocess.Popen(
                    self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, cwd=self.cwd, env=self.env,
                    process_group=0 if os.name == "posix" else None,
                )
            except OSError as error:
                raise EngineTerminatedError(f"cannot start {self.name} "
                                            f"({shlex.join(self.argv)}): {error}") from None
        self._lines = queue.Queue()
        self._stderr = deque(maxlen=20)
        self._stderr_done = threading.Event()
        self._game = None
        self._moves = None
        self._sent_info = {}
        self._dirty = False
        assert self._proc.stdout is not None and self._proc.stderr is not None
        threading.Thread(target=self._pump, args=(self._proc.stdout, self._lines),
                         daemon=True, name=f"{self.name} stdout").start()
        threading.Thread(target=self._pump_stderr,
                         args=(self._proc.stderr, self._stderr, self._stderr_done),
                         daemon=True, name=f"{self.name} stderr").start()

    @staticmethod
    def _pump(stream: IO[bytes], lines: queue.Queue[tuple[float, str | None]]) -> None:
        """Queue the brain's lines with their arrival times (see :func:`read_lines`)."""
        for line in read_lines(stream):
            lines.put(line)
        lines.put((time.perf_counter(), None))
        # Closed here, not by the thread that ends the brain: closing a stream another
        # thread is reading waits for that read, for ever if something still holds the pipe.
        with contextlib.suppress(OSError, ValueError):
            stream.close()

    @staticmethod
    def _pump_stderr(stream: IO[bytes], tail: deque[str], done: threading.Event) -> None:
        with contextlib.suppress(OSError, ValueError):
            for raw in iter(lambda: stream.readline(MAX_LINE), b""):
                tail.append(raw.decode("utf-8", "replace").rstrip())
        done.set()
        with contextlib.suppress(OSError, ValueError):
            stream.close()

    @property
    def pid(self) -> int | None:
        return None if self._proc is None else self._proc.pid

    def is_alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def _relaunch(self) -> None:
        self._stop_process()
        self._launch()

    def _stop_process(self, wait_s: float = 1.0) -> None:
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            with contextlib.suppress(EngineError):
                self._send("END")
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(wait_s)
        # Whatever is left of it (the brain, or what it started) goes too.
        _kill_group(proc)
        proc.wait()
        with contextlib.suppress(OSError, ValueError):
            if proc.stdin is not None:
                proc.stdin.close()
        self._proc = None

    def quit(self) -> None:
        """Send END, give the brain a second to leave, then kill it and whatever it
        started."""
        self._stop_process()

    def kill(self) -> None:
        """End the brain now and never start it again; safe from another thread, to
        abandon a game in play (its thread then sees the brain as ended). Call
        :meth:`quit` as well, from the thread that plays, to tidy up."""
        with self._lock:
            self._killed = True
            proc = self._proc
        if proc is not None:
            _kill_group(proc)

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<Engine {self.name!r} pid={self.pid}>"

    # -- lines -------------------------------------------------------------------

    def _settle(self) -> None:
        """Wait until ``SETTLE_MS`` have passed since the brain's last move arrived."""
        wait = self._moved_at + SETTLE_MS / 1000 - time.perf_counter()
        if wait > 0:
            time.sleep(wait)

    def _send(self, line: str) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise EngineTerminatedError(f"{self.name} is not running")
        self._settle()
        self.transcript.append("> " + line)
        try:
            proc.stdin.write((line + "\r\n").encode())
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._terminated() from None

    def _terminated(self) -> EngineTerminatedError:
        proc = self._proc
        code = None
        if proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = proc.wait(0.5)
            # its last words (a traceback, say) may still be on their way
            self._stderr_done.wait(0.5)
        self._dirty = True
        detail = f" with exit code {code}" if code is not None else ""
        tail = _clip_tail(list(self._stderr)[-_STDERR_LINES:])
        return EngineTerminatedError(
            f"{self.name} ended{detail}" + (f"; its last error output: {tail}" if tail else "")
        )

    def _read(self, deadline: float, waiting_for: str) -> tuple[float, str]:
        """The next line before ``deadline`` (perf_counter), with the time it arrived."""
        while True:
            remaining = deadline - time.perf_counter()
            try:
                stamp, line = self._lines.get(timeout=min(max(0.0, remaining), _MAX_WAIT_S))
                break
            except queue.Empty:
                if remaining > _MAX_WAIT_S:
                    continue
                # The brain may still be thinking and would answer later: start afresh
                # next time.
                self._dirty = True
                raise EngineTimeoutError(
                    f"{self.name} did not answer {waiting_for} in time") from None
        if line is None:
            raise self._terminated()
        self.transcript.append("< " + line)
        return stamp, line

    def _expect_ok(self, command: str, timeout_ms: int) -> None:
        self._send(command)
        deadline = time.perf_counter() + timeout_ms / 1000
        while True:
            _, line = self._read(deadline, command)
            word = line.strip().partition(" ")[0].upper()
            if word == "OK":
                return
            if word == "UNKNOWN":
                raise UnknownCommandError(f"{self.name} does not know {command}: {line.strip()!r}")
            if word == "ERROR":
                raise EngineError(f"{self.name} answered {line.strip()!r} to {command}")
            # MESSAGE / DEBUG lines and start-up chatter are skipped.

    # -- game set-up -----------------------------------------------------------------

    def _start(self, board: Board) -> None:
        """START (or RECTSTART) for the board's size, then the standing INFO lines."""
        if board.width == board.height:
            command = f"START {board.width}"
        else:
            command = f"RECTSTART {board.width},{board.height}"
        try:
            self._expect_ok(command, self.start_timeout_ms)
        except EngineError as error:
            if self._has_started:
                raise
            # not a game lost but a brain that cannot play here: no game will be better
            if isinstance(error, EngineTimeoutError):
                error_text = (f"{error} (allowed {self.start_timeout_ms / 1000:g} s; a brain "
                              "must answer OK and flush its output)")
            else:
                error_text = str(error)
            raise EngineStartError(f"{self.name} never started a game: {error_text}") from None
        self._has_started = True
        self._after_new_game(board)

    def _restart(self, board: Board) -> None:
        if self._restart_known:
            try:
                self._expect_ok("RESTART", self.start_timeout_ms)
            except (EngineTimeoutError, EngineTerminatedError):
                raise
            except EngineError:
                # RESTART is optional: like Piskvork, take any answer but OK (UNKNOWN, or
                # ERROR as Rapfi answers commands it does not know) for "not implemented".
                self._restart_known = False
            else:
                self._after_new_game(board)
                return
        # Like Piskvork: a brain without RESTART is ended and launched again.
        self._relaunch()
        self._start(board)

    def _after_new_game(self, board: Board) -> None:
        self._game = (board.width, board.height, board.rule)
        self._moves = []
        self._sent_info = {}
        self._info("max_memory", self.max_memory)
        self._info("game_type", 1)
        self._info("rule", board.rule.gomocup)
        for key, value in self.extra_info.items():
            self._send(f"INFO {key} {value}")

    def _info(self, key: str, value: int, *, always: bool = False) -> None:
        if always or self._sent_info.get(key) != value:
            self._send(f"INFO {key} {value}")
            self._sent_info[key] = value

    def _prepare(self, board: Board) -> str:
        """Bring the engine to a game of ``board``'s size and rule and say how to send the
        position: ``"turn"`` (it continues the engine's game by one move), ``"begin"``
        (empty board) or ``"board"``."""
        if self._dirty or not self.is_alive():
            self._relaunch()
        if self._game != (board.width, board.height, board.rule):
            self._start(board)
        stack, held = board.move_stack, self._moves
        if held is not None and len(stack) == len(held) + 1 and stack[:-1] == held:
            return "turn"
        if held == [] and not stack:
            return "begin"
        # The engine holds another position, or one we cannot be sure of.
        if held != [] and (not stack or self.restart_before_board):
            self._restart(board)
        return "begin" if not stack else "board"

    @staticmethod
    def _board_lines(board: Board) -> list[str]:
        """``x,y,field`` lines in move order: 1 for the side to move, 2 for the other."""
        own = board.to_move
        lines = []
        for number, (x, y) in enumerate(board.move_stack):
            color = Color.BLACK if number % 2 == 0 else Color.WHITE
            lines.append(f"{x},{y},{1 if color is own else 2}")
        return lines

    # -- commands --------------------------------------------------------------------

    def about(self) -> dict[str, str]:
        """The brain's ``ABOUT`` answer as a dict (``name``, ``version``, ``author``...)."""
        if self._dirty or not self.is_alive():
            self._relaunch()
        self._send("ABOUT")
        deadline = time.perf_counter() + self.start_timeout_ms / 1000
        while True:
            _, line = self._read(deadline, "ABOUT")
            word = line.strip().partition(" ")[0].upper()
            if word in ("MESSAGE", "DEBUG") or not line.strip():
                continue
            if word == "UNKNOWN":
                return {}
            if word == "ERROR":
                raise EngineError(f"{self.name} answered {line.strip()!r} to ABOUT")
            return parse_about(line)

    def play(self, board: Board, limit: LimitLike | None = None, *,
             time_left_ms: int | None = None, match_time_ms: int | None = None) -> PlayResult:
        """Ask for a move in ``board``'s position.

        ``limit.time_ms`` becomes ``INFO timeout_turn`` (default
        ``default_turn_ms``), ``limit.depth``/``limit.nodes`` the Yixin keys
        ``max_depth``/``max_node``; ``match_time_ms`` is sent as
        ``timeout_match`` and ``time_left_ms`` as ``time_left`` before the move.
        The reply must come within the turn time (or the time left, if less)
        plus ``tolerance_ms``.

        Raises :class:`EngineTimeoutError`, :class:`EngineTerminatedError`,
        :class:`IllegalEngineMoveError` (the move is not legal on ``board``) or
        :class:`EngineError` (ERROR / UNKNOWN / a line that is not a move).
        """
        if board.is_game_over():
            raise ValueError(f"the game is over ({board.outcome()}); there is no move to ask for")
        turn_ms = self.default_turn_ms
        if limit is not None and limit.time_ms is not None:
            turn_ms = limit.time_ms
        how = self._prepare(board)
        self._info("timeout_turn", turn_ms)
        self._info("timeout_match", match_time_ms or 0)
        if limit is not None and limit.depth is not None:
            self._info("max_depth", limit.depth)
        if limit is not None and limit.nodes is not None:
            self._info("max_node", limit.nodes)
        if time_left_ms is not None:
            self._info("time_left", time_left_ms, always=True)
        allowed = turn_ms if time_left_ms is None else max(0, min(turn_ms, time_left_ms))
        self._settle()  # before the clock starts: the wait is not the brain's time
        started = time.perf_counter()
        deadline = started + (allowed + self.tolerance_ms) / 1000
        if how == "turn":
            x, y = board.move_stack[-1]
            command = f"TURN {x},{y}"
            self._send(command)
        elif how == "begin":
            command = "BEGIN"
            self._send(command)
        else:
            command = "BOARD"
            self._send(command)
            for line in self._board_lines(board):
                self._send(line)
            self._send("DONE")
        return self._await_move(board, command, started, deadline)

    def _await_move(self, board: Board, command: str, started: float,
                    deadline: float) -> PlayResult:
        messages: list[str] = []
        infos: list[EngineInfo] = []
        while True:
            stamp, line = self._read(deadline, command)
            text = line.strip()
            word, _, rest = text.partition(" ")
            word = word.upper()
            if not text or word in ("DEBUG", "OK"):
                continue
            if word == "MESSAGE":
                messages.append(rest)
                info = parse_search_message(rest)
                if not info.is_empty:
                    infos.append(info)
                continue
            if word in ("ERROR", "UNKNOWN"):
                # The line may answer an earlier INFO while the brain goes on to think (and
                # ignore commands meanwhile): start afresh next time.
                self._dirty = True
                raise EngineError(f"{self.name} answered {text!r} to {command}"
                                  + _early(stamp, started, command))
            if word == "SUGGEST":
                # The manager's only possible answer: play the suggested move.
                move = self._parse_move(rest, command)
                self._send(f"PLAY {move[0]},{move[1]}")
                continue
            move = self._parse_move(text, command, _early(stamp, started, command))
            self._moved_at = stamp
            break
        reason = board.illegal_reason(move)
        if reason is not None:
            reason += _early(stamp, started, command)
            self._moves = None
            raise IllegalEngineMoveError(f"{self.name} played {move[0]},{move[1]}: {reason}",
                                         move, reason)
        self._moves = [*board.move_stack, move]
        # a line already waiting when the command went took no time (not less than none)
        return PlayResult(move, merge_infos(infos), tuple(messages),
                          max(0, int((stamp - started) * 1000)))

    def _parse_move(self, text: str, command: str, note: str = "") -> Point:
        try:
            return parse_xy(text)
        except ProtocolError:
            self._moves = None
            self._dirty = True
            raise EngineError(
                f"{self.name} answered {text[:80]!r} to {command}; expected a move x,y{note}"
            ) from None

    def set_position(self, board: Board) -> None:
        """Make the engine hold ``board``'s position without thinking (``YXBOARD``)."""
        how = self._prepare(board)
        if how == "begin":
            return
        if how == "turn" and self._moves and self.restart_before_board:
            self._restart(board)
        self._send("YXBOARD")
        for line in self._board_lines(board):
            self._send(line)
        self._send("DONE")
        self._moves = list(board.move_stack)

    def forbidden_points(self, board: Board) -> set[Point]:
        """The renju points forbidden to black in ``board``'s position (``YXSHOWFORBID``)."""
        self.set_position(board)
        self._send("YXSHOWFORBID")
        deadline = time.perf_counter() + (self.default_turn_ms + self.tolerance_ms) / 1000
        while True:
            _, line = self._read(deadline, "YXSHOWFORBID")
            word = line.strip().partition(" ")[0].upper()
            if word.startswith("FORBID"):
                try:
                    return parse_forbid(line)
                except ProtocolError as error:
                    raise EngineError(f"{self.name}: {error}") from None
            if word in ("ERROR", "UNKNOWN"):
                self._dirty = True
                raise EngineError(f"{self.name} answered {line.strip()!r} to YXSHOWFORBID")


GomocupEngine = Engine


def our_brain_command(level: int | str | None = None, *, seed: int | None = None) -> list[str]:
    """The command line that runs our own brain with this Python."""
    import sys

    argv = [sys.executable, "-m", "gridgames.gomoku.gomocup.brain"]
    if level is not None:
        argv += ["--level", str(level)]
    if seed is not None:
        argv += ["--seed", str(seed)]
    return argv

