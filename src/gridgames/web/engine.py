"""Engine worker processes: the search runs outside the server process.

Each job gets a *slot* in a shared byte array; setting the slot's byte asks the
worker to stop and return its best move so far. A search's per-depth progress
comes back on a shared queue, tagged with the job's number. The array and the
queue are handed to the workers when they start (the only way to share them
with spawned processes).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from gridgames.gomoku import Board, Point, Rule
from gridgames.gomoku.ai import Limit, SearchInfo, SearchMemory, SearchResult

log = logging.getLogger(__name__)

SLOTS = 1024
T = TypeVar("T")

_flags: Any = None  # in a worker: the shared stop flags
_progress: Any = None  # in a worker: the queue for search progress

InfoCallback = Callable[[SearchInfo], None]


class _SlotStop:
    """The ``stop`` object given to ``think``: reads this job's flag."""

    def __init__(self, slot: int) -> None:
        self.slot = slot

    def is_set(self) -> bool:
        return bool(_flags[self.slot])


def _exit_with_parent(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def _init_worker(flags: Any, progress: Any = None) -> None:
    global _flags, _progress
    _flags, _progress = flags, progress
    # A worker whose server died (killed, or stopped mid warm-up) would wait for work
    # forever: leave as soon as the parent is gone.
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with_parent, args=(parent.sentinel,), daemon=True).start()
    try:
        # Load (or compile, on a fresh machine) the numba kernels before the first game.
        from gridgames.gomoku.ai import warm_up
        from gridgames.queens.solver import warm_up as warm_up_queens

        warm_up()
        warm_up_queens()
    except Exception:  # a failed warm-up only makes the first real job slower
        log.exception("engine warm-up failed")


def _ping() -> bool:
    return True


# This worker's search tables, kept from move to move (one game after another
# shares them; what is stored about one position is true in any game).
_memory = SearchMemory()


def _think(slot: int, width: int, height: int, rule: str, moves: list[Point],
           limit: Limit, seed: int | None, job: int | None = None) -> SearchResult:
    from gridgames.gomoku.ai import playing_threads, think

    board = Board(width, height, rule=Rule(rule))
    board.push_many(moves)
    on_info = None
    if job is not None and _progress is not None:
        def on_info(info: SearchInfo) -> None:
            _progress.put((job, info))
    return think(board, limit, stop=_SlotStop(slot), on_info=on_info, seed=seed,
                 memory=_memory, threads=playing_threads())


def _timed(func: Callable[..., T], args: tuple[Any, ...]) -> tuple[T, float]:
    started = time.perf_counter()
    value = func(*args)
    return value, (time.perf_counter() - started) * 1000


class EnginePool:
    """A pool of worker processes running engine searches and other CPU-heavy jobs."""

    def __init__(self, workers: int = 2) -> None:
        self.workers = max(1, workers)
        self._ctx = multiprocessing.get_context("spawn")
        self._flags = self._ctx.RawArray("b", SLOTS)
        self._free = list(range(SLOTS))
        self._lock = threading.Lock()
        self._executor: ProcessPoolExecutor | None = None
        self._progress: Any = self._ctx.Queue()
        self._jobs = itertools.count(1)
        # job number -> (event loop, callback) for searches that want their progress
        self._listeners: dict[int, tuple[asyncio.AbstractEventLoop, InfoCallback]] = {}
        self._reader: threading.Thread | None = None

    def start(self) -> None:
        """Start the workers now, so that they warm up before the first game."""
        self._executor = ProcessPoolExecutor(
            self.workers, mp_context=self._ctx, initializer=_init_worker,
            initargs=(self._flags, self._progress),
        )
        for _ in range(self.workers):
            self._executor.submit(_ping)
        if self._reader is None:
            self._reader = threading.Thread(target=self._read_progress, name="engine-progress",
                                            daemon=True)
            self._reader.start()

    def _read_progress(self) -> None:
        """Hand each progress report to its search's callback, on that search's loop."""
        while True:
            try:
                item = self._progress.get()
            except (EOFError, OSError):
                return
            if item is None:
                return
            job, info = item
            with self._lock:
                listener = self._listeners.get(job)
            if listener is not None:  # else the search is over: the report is stale
                loop, callback = listener
                with contextlib.suppress(RuntimeError):  # the loop is closed
                    loop.call_soon_threadsafe(self._deliver, job, callback, info)

    def _deliver(self, job: int, callback: InfoCallback, info: SearchInfo) -> None:
        if job in self._listeners:
            try:
                callback(info)
            except Exception:
                log.exception("progress callback failed")

    def shutdown(self, timeout: float = 5.0) -> None:
        """Stop every search and the workers, waiting at most ``timeout`` seconds
        (a worker still warming up leaves by itself once the server is gone)."""
        for slot in range(SLOTS):
            self._flags[slot] = 1
        if self._executor is not None:
            closing = threading.Thread(target=self._executor.shutdown,
                                       kwargs={"wait": True, "cancel_futures": True})
            closing.start()
            closing.join(timeout)
            self._executor = None
        if self._reader is not None:
            self._progress.put(None)
            self._reader.join(timeout)
            self._reader = None

    def _submit(self, func: Callable[..., T], *args: Any) -> Future[T]:
        if self._executor is None:
            raise RuntimeError("the engine pool is not running")
        try:
            return self._executor.submit(func, *args)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a fresh pool once.
            log.warning("engine pool broken; restarting it")
            self._executor.shutdown(wait=False, cancel_futures=True)
            self.start()
            return self._executor.submit(func, *args)

    async def think(self, board: Board, limit: Limit, *, seed: int | None = None,
                    on_info: InfoCallback | None = None) -> SearchResult:
        """The engine's move for ``board``; cancelling the awaiting task stops the search.

        ``on_info`` is called on this event loop after each completed depth, and
        never once this call has returned.
        """
        job = None
        with self._lock:
            if not self._free:
                raise RuntimeError("too many searches at once")
            slot = self._free.pop()
            if on_info is not None:
                job = next(self._jobs)
                self._listeners[job] = (asyncio.get_running_loop(), on_info)
        self._flags[slot] = 0
        try:
            try:
                future = self._submit(_think, slot, board.width, board.height, board.rule.value,
                                      list(board.move_stack), limit, seed, job)
            except BaseException:
                self._release(slot)
                raise
            # The slot is reused only once the worker is done with it.
            future.add_done_callback(lambda _: self._release(slot))
            try:
                return await asyncio.wrap_future(future)
            except asyncio.CancelledError:
                self._flags[slot] = 1
                raise
        finally:
            if job is not None:
                with self._lock:
                    del self._listeners[job]

    async def run(self, func: Callable[..., T], *args: Any) -> tuple[T, float]:
        """Run ``func(*args)`` in a worker; returns its value and its run time in ms."""
        return await asyncio.wrap_future(self._submit(_timed, func, args))

    def _release(self, slot: int) -> None:
        with self._lock:
            self._free.append(slot)
