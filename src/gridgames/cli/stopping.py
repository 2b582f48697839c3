"""Stopping a command that runs brains (``gridgames match``, ``gridgames tournament``):
SIGTERM and SIGHUP stop it as Ctrl-C does, so that it ends its brains and sums up the
games it finished rather than leave the brains running.

The first signal stops the command: its brains are killed at once, with no wait for
the games in play (they would not be counted). Any later signal, and any that comes once
the games are over, is ignored: there is nothing left to hurry, the summary of the games
finished is printed whole, and the command exits with the status of the first signal.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from typing import TypeVar

Result = TypeVar("Result")


class Stopped(BaseException):
    """A signal (SIGTERM, SIGHUP) stopped the command; handled as Ctrl-C is."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
        self.name = signal.Signals(signum).name


# What a command catches to stop: Ctrl-C, or a signal that stops it as Ctrl-C does.
STOPS = (KeyboardInterrupt, Stopped)


def why_and_status(stop: BaseException) -> tuple[str, int]:
    """What stopped the command, and the status to exit with: 130 for Ctrl-C, 128 plus
    the signal's number otherwise, as a shell reports a process a signal ended."""
    if isinstance(stop, Stopped):
        return stop.name, 128 + stop.signum
    return "Ctrl-C", 130


class StoppedBy(Exception):
    """The command was stopped by a signal; ``why`` names it and ``status`` is the status
    to exit with (see :func:`why_and_status`)."""

    def __init__(self, why: str, status: int) -> None:
        super().__init__(why)
        self.why = why
        self.status = status


class StopSignals:
    """The signals that stop a command, while :func:`signals_stop` is in force."""

    def __init__(self) -> None:
        self.first: BaseException | None = None  # the stop raised by the first signal
        self._held = False  # ignore every signal: the games are over, or being stopped

    def run(self, work: Callable[[], Result]) -> Result:
        """``work()``: the games. Once they are over, however they end, signals are held;
        a signal that stopped them raises :class:`StoppedBy` naming the first one."""
        try:
            try:
                return work()
            finally:
                self._held = True  # the summary that follows is printed whole
        except STOPS as stop:
            raise StoppedBy(*why_and_status(self.first or stop)) from None

    def _on_signal(self, signum: int, _frame: object) -> None:
        if self._held:
            return  # raised in the midst of the stop, it would only break it
        self._held = True
        self.first = KeyboardInterrupt() if signum == signal.SIGINT else Stopped(signum)
        raise self.first


@contextlib.contextmanager
def signals_stop() -> Iterator[StopSignals]:
    """Make Ctrl-C, SIGTERM and SIGHUP stop the games run by :meth:`StopSignals.run` in
    the main thread, rather than end the process at once: the brains run in process groups
    of their own and would be left running. A signal set to be ignored (``nohup``, a
    background job's Ctrl-C) stays ignored. The handlers are put back on leaving, unless
    a signal stopped the games: the command then exits, ignoring any later one."""
    signals = StopSignals()
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for name, default in (("SIGINT", signal.default_int_handler),
                              ("SIGTERM", signal.SIG_DFL), ("SIGHUP", signal.SIG_DFL)):
            signum = getattr(signal, name, None)
            if signum is not None and signal.getsignal(signum) == default:
                previous[signum] = signal.signal(signum, signals._on_signal)
    try:
        yield signals
    finally:
        for signum, handler in previous.items():
            # Stopped, the command is ending: a later signal is ignored, even while Python
            # shuts down (which puts the default actions back on handlers of its own).
            signal.signal(signum, handler if signals.first is None else signal.SIG_IGN)
