"""Compiling the numba kernels ahead of use: once, group by group, with progress shown.

numba compiles a kernel the first time it is called and keeps the machine code
in its cache, so a fresh install pays the compile once and later processes load
the kernels in about a second. :func:`prepare` calls each group of kernels once,
and tells its reporter how far it has got; the reporter of :func:`stderr_report`
writes "preparing the engine (first run only)" and a line per group to stderr,
but only when something is really compiled (it listens to numba's compile
events), so a warm start stays silent.

On a cold start (numba starts compiling) with two or more cores, the groups marked
``alongside`` are compiled by a second process at the same time as the others are
here; they are then loaded from the cache it leaves. Should that process fail, they
are compiled here, as without it.

>>> from gridgames.prepare import KernelGroup, prepare
>>> steps = []
>>> prepare([KernelGroup("nothing", lambda: None)], lambda *step: steps.append(step[:3]))
>>> steps
[(0, 1, 'nothing'), (1, 1, 'nothing')]
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import NamedTuple, TextIO

from numba.core import event
from numba.core.dispatcher import Dispatcher


class KernelGroup(NamedTuple):
    """Kernels that belong together, and a call that loads (or compiles) all of them.

    ``alongside``: on a cold start the group may be compiled by a second process while
    the other groups compile here. It must compile without them (it may compile
    kernels they share), and ``load`` must be a module-level function.
    """

    name: str
    load: Callable[[], None]
    alongside: bool = False


# (groups done, groups in all, the group's name, seconds it took or None at its start)
Report = Callable[[int, int, str, "float | None"], None]

_lock = threading.Lock()


def prepare(groups: Sequence[KernelGroup], report: Report | None = None) -> None:
    """Load or compile each group in turn; ``report`` hears of each group's start and end,
    and its ``compiling()`` method, if it has one, of numba starting to compile.

    One thread at a time prepares; numba compiles each kernel once per process. The
    groups marked ``alongside`` come last, so that this process has the others to do
    while the second one compiles them.
    """
    groups = [group for group in groups if not group.alongside] + [
        group for group in groups if group.alongside]
    compiling = getattr(report, "compiling", None)
    helper = _Helper([group.load for group in groups if group.alongside])

    def on_compile() -> None:
        helper.start()  # numba compiles: the cache is cold
        if compiling is not None:
            compiling()

    with _lock, _listening(on_compile), helper:
        for done, group in enumerate(groups):
            if report is not None:
                report(done, len(groups), group.name, None)
            started = time.perf_counter()
            if group.alongside:
                helper.wait()
            try:
                group.load()
            except Exception:
                # An unreadable cache (cut short, or left by another version) makes
                # numba fail as it loads: compile afresh, once.
                if not _clear_kernel_caches():
                    raise
                group.load()
            if report is not None:
                report(done + 1, len(groups), group.name, time.perf_counter() - started)


class _Helper:
    """The second process that compiles the ``alongside`` groups into the cache."""

    def __init__(self, loads: list[Callable[[], None]]) -> None:
        self.targets = [f"{load.__module__}:{load.__qualname__}" for load in loads]
        self.process: subprocess.Popen[bytes] | None = None
        self.started = False

    def start(self) -> None:
        if self.started or not self.targets or _usable_cores() < 2:
            return
        self.started = True
        with suppress(OSError):  # without it, the groups compile here
            self.process = subprocess.Popen(
                [sys.executable, "-m", "gridgames.prepare", *self.targets],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL)

    def wait(self) -> None:
        if self.process is not None:
            self.process.wait()
            self.process = None

    def __enter__(self) -> _Helper:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.process is not None:  # the preparation failed or was interrupted
            self.process.kill()
            self.process.wait()


def _usable_cores() -> int:
    if hasattr(os, "sched_getaffinity"):  # Linux: the cores this process may run on
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _load_in_this_process(targets: Sequence[str]) -> None:
    """Call each ``module:function`` (the helper process's work)."""
    for target in targets:
        module, _, name = target.partition(":")
        getattr(importlib.import_module(module), name)()


def _clear_kernel_caches() -> int:
    """Delete the cached machine code of every gridgames kernel; how many files went.

    numba keeps a kernel's cache (``*.nbi`` index, ``*.nbc`` code) in a folder of
    its choosing (beside the source, or in the user's cache folder), which each
    dispatcher knows.
    """
    folders = set()
    for name, module in list(sys.modules.items()):
        if not name.startswith("gridgames.") or module is None:
            continue
        for value in list(vars(module).values()):
            path = getattr(getattr(value, "_cache", None), "_cache_path", None)
            if isinstance(value, Dispatcher) and isinstance(path, str):
                folders.add((Path(path), name.rsplit(".", 1)[-1]))
    removed = 0
    for folder, stem in folders:
        for file in [*folder.glob(f"{stem}.*.nbi"), *folder.glob(f"{stem}.*.nbc")]:
            with suppress(OSError):
                file.unlink()
                removed += 1
    return removed


class _CompileListener(event.Listener):
    def __init__(self, on_compile: Callable[[], None]) -> None:
        self.on_compile = on_compile

    def on_start(self, event: event.Event) -> None:
        self.on_compile()

    def on_end(self, event: event.Event) -> None:
        pass


@contextmanager
def _listening(on_compile: Callable[[], None]) -> Iterator[None]:
    """Calls ``on_compile`` whenever numba starts compiling."""
    with event.install_listener("numba:compile", _CompileListener(on_compile)):
        yield


class StderrReport:
    """Writes the progress of a preparation that compiles; silent when all is cached.

    The first compile prints the heading and the group under way; from then on
    every group gets a line with its time, and the end a total.
    """

    def __init__(self, what: str = "the engine", stream: TextIO | None = None) -> None:
        self.what = what
        self.stream = stream
        self.shown = False
        self._current: tuple[int, int, str] | None = None
        self._line_open = False
        self._started = time.perf_counter()

    def _write(self, text: str) -> None:
        stream = self.stream if self.stream is not None else sys.stderr
        stream.write(text)
        stream.flush()

    def compiling(self) -> None:
        """numba has started a compile: from now on the preparation is shown."""
        if self.shown:
            return
        self.shown = True
        self._write(f"preparing {self.what} (first run only): compiling its kernels\n")
        if self._current is not None:
            self._open_line(*self._current)

    def _open_line(self, done: int, total: int, name: str) -> None:
        self._write(f"  [{done + 1}/{total}] {name} ...")
        self._line_open = True

    def __call__(self, done: int, total: int, name: str, seconds: float | None) -> None:
        if seconds is None:
            self._current = (done, total, name)
            if self.shown:
                self._open_line(done, total, name)
            return
        self._current = None
        if self._line_open:
            self._write(f" {seconds:.1f} s\n")
            self._line_open = False
        if self.shown and done == total:
            self._write(f"{self.what} is ready ({time.perf_counter() - self._started:.1f} s)\n")


def stderr_report(what: str = "the engine") -> StderrReport:
    """A reporter for :func:`prepare` that writes to stderr (see :class:`StderrReport`)."""
    return StderrReport(what)


if __name__ == "__main__":
    _load_in_this_process(sys.argv[1:])
