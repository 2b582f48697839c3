"""Stopping a command that runs brains (``gridgames match``, ``gridgames tournament``):
SIGTERM and SIGHUP stop it as Ctrl-C does, so that it ends its brains and sums up the
games it finished rather than leave the brains running."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator


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


def _raise_stopped(signum: int, _frame: object) -> None:
    raise Stopped(signum)


@contextlib.contextmanager
def signals_stop() -> Iterator[None]:
    """Make SIGTERM and SIGHUP raise :class:`Stopped` in the main thread, rather than end
    the process at once: the brains run in process groups of their own and would be left
    running. A signal set to be ignored (``nohup``) stays ignored."""
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for name in ("SIGTERM", "SIGHUP"):
            signum = getattr(signal, name, None)
            if signum is not None and signal.getsignal(signum) == signal.SIG_DFL:
                previous[signum] = signal.signal(signum, _raise_stopped)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
