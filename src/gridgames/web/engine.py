"""Engine worker processes behind a fair queue: the search runs outside the server process.

Jobs wait in the server, not in the workers: a job goes to a worker only when
one is free, so a search's time limit counts from the moment it really starts,
and the time it waited is reported apart (``queued_ms``). Game moves go before
hints, analyses and queens counts; within a priority, jobs with different keys
(games, clients) take turns, so one game or client cannot starve the others.
Past a bound on waiting jobs, new work is refused with :class:`EngineBusyError`
(429 on the web) instead of waiting for ever. A worker that dies (killed, out of
memory) is replaced and the jobs it was running are started again.

Each job gets a *slot* in a shared byte array; setting the slot's byte asks the
worker to stop and return its best move so far. A search's per-depth progress
comes back on a shared queue, tagged with the job's number. The array and the
queue are handed to the workers when they start (the only way to share them
with spawned processes).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import logging
import math
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from gridgames.gomoku import Board, Point, Rule
from gridgames.gomoku.ai import Limit, SearchInfo, SearchMemory, SearchResult, playing_threads
from gridgames.gomoku.ai.timing import TimeControl
from gridgames.gomoku.notation import shown_value

log = logging.getLogger(__name__)

SLOTS = 1024
# The most engine worker processes: each loads the engine (about 160 MB) and searches on
# cores of its own; 64 is more than the cores of most servers, about 10 GB to start.
MAX_WORKERS = 64
MAX_QUEUE_LIMIT = 1_000_000  # computer moves waiting: far beyond what a server can serve
T = TypeVar("T")

# Priorities, most urgent first.
MOVE = 0  # the computer's move in a game
BACKGROUND = 1  # hints, analyses, queens puzzles
PRIORITIES = (MOVE, BACKGROUND)
# A job whose worker died is started again at most this many times.
MAX_ATTEMPTS = 3
# The longest a hint, analysis or queens request waits and runs before it is refused.
BACKGROUND_WAIT_S = 30.0

_flags: Any = None  # in a worker: the shared stop flags
_progress: Any = None  # in a worker: the queue for search progress
_threads = 1  # in a worker: search threads per search
# Workers run below the server's priority: a busy engine must not slow plain requests
# (a search's limit is wall-clock time, so it stays on time, only a little shallower).
WORKER_NICENESS = 5

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


def _init_worker(flags: Any, progress: Any = None, threads: int = 1) -> None:
    global _flags, _progress, _threads
    _flags, _progress, _threads = flags, progress, threads
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    # A worker whose server died (killed, or stopped mid warm-up) would wait for work
    # forever: leave as soon as the parent is gone.
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with_parent, args=(parent.sentinel,), daemon=True).start()
    try:
        # Load (or compile, on a fresh machine) the numba kernels before the first game.
        from gridgames.gomoku.ai import warm_up
        from gridgames.gomoku.puzzles import warm_up as warm_up_puzzles
        from gridgames.queens.solver import warm_up as warm_up_queens

        warm_up()
        warm_up_queens()
        warm_up_puzzles()
    except Exception:  # a failed warm-up only makes the first real job slower
        log.exception("engine warm-up failed")


def _ping() -> bool:
    return True


# This worker's search tables, kept from move to move (one game after another
# shares them; what is stored about one position is true in any game).
_memory = SearchMemory()


@dataclass(frozen=True)
class MoveClock:
    """A game clock as a move's search sees it: the mover's time left as its search
    starts (the game does not charge the time its move waits for a free worker), the
    increment after the move and the game's cap on one move (0: none)."""

    left_ms: int
    increment_ms: int = 0
    turn_ms: int = 0

    # Kept back for passing the job and its answer between processes, and for a
    # search that stops late.
    OVERHEAD_MS = 30
    SAFETY_MS = 100

    def control(self, moves_played: int) -> TimeControl:
        return TimeControl.for_clock(
            turn_ms=self.turn_ms, time_left_ms=self.left_ms,
            moves_played=moves_played, increment_ms=self.increment_ms,
            overhead_ms=self.OVERHEAD_MS, safety_ms=self.SAFETY_MS)


def _think(slot: int, width: int, height: int, rule: str, moves: list[Point],
           limit: Limit, seed: int | None, job: int | None = None,
           clock: MoveClock | None = None) -> SearchResult:
    from gridgames.gomoku.ai import think

    board = Board(width, height, rule=Rule(rule))
    board.push_many(moves)
    on_info = None
    if job is not None and _progress is not None:
        def on_info(info: SearchInfo) -> None:
            _progress.put((job, info))
    control = None if clock is None else clock.control(len(moves))
    return think(board, limit, stop=_SlotStop(slot), on_info=on_info, seed=seed,
                 memory=_memory, threads=_threads, clock=control)


def _stoppable(slot: int, func: Callable[..., T], args: tuple[Any, ...]) -> T:
    """Run ``func(*args, stop=...)``, stopped through this job's flag."""
    return func(*args, stop=_SlotStop(slot))


def _timed(func: Callable[..., T], args: tuple[Any, ...]) -> tuple[T, float, float]:
    """Run a job in a worker: its value, run time (ms) and start (wall clock, s)."""
    started_wall = time.time()
    started = time.perf_counter()
    value = func(*args)
    return value, (time.perf_counter() - started) * 1000, started_wall


def _call_back(callback: Callable[[], None] | None) -> None:
    """A job's callback; its failure is logged, never the pool's."""
    if callback is not None:
        try:
            callback()
        except Exception:
            log.exception("job callback failed")


class EngineBusyError(RuntimeError):
    """Too many jobs are waiting for an engine; try again in ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class FairQueue(Generic[T]):
    """Waiting items by priority (0 first); within a priority, keys take turns.

    >>> queue: FairQueue[str] = FairQueue()
    >>> for key, item in [("a", "a1"), ("a", "a2"), ("b", "b1")]:
    ...     queue.push(MOVE, key, item)
    >>> queue.push(BACKGROUND, "c", "c1")
    >>> [queue.pop() for _ in range(5)]
    ['a1', 'b1', 'a2', 'c1', None]
    """

    def __init__(self) -> None:
        self._levels: list[OrderedDict[str, deque[T]]] = [OrderedDict() for _ in PRIORITIES]

    def push(self, priority: int, key: str, item: T, *, first: bool = False) -> None:
        """Queue ``item``; with ``first``, ahead of everything of its priority."""
        level = self._levels[priority]
        items = level.setdefault(key, deque())
        if first:
            items.appendleft(item)
            level.move_to_end(key, last=False)
        else:
            items.append(item)

    def pop(self) -> T | None:
        """The next item: the highest priority, the key whose turn it is."""
        for level in self._levels:
            if level:
                key, items = next(iter(level.items()))
                item = items.popleft()
                del level[key]
                if items:  # the key's next item waits for the others' turn
                    level[key] = items
                return item
        return None

    def remove(self, priority: int, key: str, item: T) -> bool:
        level = self._levels[priority]
        items = level.get(key)
        if items is None or item not in items:
            return False
        items.remove(item)
        if not items:
            del level[key]
        return True

    def waiting(self, priority: int | None = None) -> int:
        levels = self._levels if priority is None else [self._levels[priority]]
        return sum(len(items) for level in levels for items in level.values())


@dataclass(eq=False)
class _Job:
    func: Callable[..., Any]
    args: tuple[Any, ...]
    priority: int
    key: str
    future: asyncio.Future[tuple[Any, float, float]]
    queued_wall: float = field(default_factory=time.time)
    on_start: Callable[[], None] | None = None  # at each start, a retry's too
    on_retry: Callable[[], None] | None = None  # back in the queue: its worker died
    slot: int | None = None
    running: bool = False
    attempts: int = 0
    executor: ProcessPoolExecutor | None = None


@dataclass(frozen=True)
class Searched:
    """A finished search with the time it waited for a worker before starting."""

    result: SearchResult
    queued_ms: int


def check_workers(workers: int) -> int:
    """``workers`` when the pool can start that many engine processes (1 to
    :data:`MAX_WORKERS`); else a ValueError saying what is allowed.

    >>> check_workers(0)
    Traceback (most recent call last):
    ...
    ValueError: workers must be a whole number from 1 to 64, got 0
    """
    if (not isinstance(workers, int) or isinstance(workers, bool)
            or not 1 <= workers <= MAX_WORKERS):
        raise ValueError(f"workers must be a whole number from 1 to {MAX_WORKERS}, "
                         f"got {shown_value(workers)}")
    return workers


class EnginePool:
    """Worker processes running engine searches and other CPU-heavy jobs, fed by a
    :class:`FairQueue`.

    ``queue_limit`` bounds the game moves waiting for a worker (default: four per
    worker, a few seconds of waiting at most for fast games); hints, analyses
    and queens puzzles may have a quarter of that waiting (at least two).
    """

    def __init__(self, workers: int = 2, *, queue_limit: int | None = None,
                 background_wait_s: float = BACKGROUND_WAIT_S) -> None:
        self.workers = check_workers(workers)
        self.background_wait_s = background_wait_s
        self.queue_limit = max(1, queue_limit if queue_limit is not None else 4 * self.workers)
        self.background_limit = max(2, self.queue_limit // 4)
        # The cores shared out between the workers' searches (a helper thread only
        # where a worker has a second core to itself).
        self.search_threads = max(1, min(playing_threads(), (os.cpu_count() or 1) // self.workers))
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
        self._warming: list[Future[bool]] = []
        self._queue: FairQueue[_Job] = FairQueue()
        self._running = 0
        self._run_ms = 500.0  # a running mean of job times, for Retry-After
        self.restarts = 0  # times a dead worker was replaced

    # -- workers ---------------------------------------------------------------

    def start(self) -> None:
        """Start the workers now, so that they warm up before the first game."""
        self._executor = ProcessPoolExecutor(
            self.workers, mp_context=self._ctx, initializer=_init_worker,
            initargs=(self._flags, self._progress, self.search_threads),
        )
        self._warming = [self._executor.submit(_ping) for _ in range(self.workers)]
        if self._reader is None:
            self._reader = threading.Thread(target=self._read_progress, name="engine-progress",
                                            daemon=True)
            self._reader.start()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Wait until the workers started by :meth:`start` have loaded the engine."""
        return not concurrent.futures.wait(self._warming, timeout).not_done

    def worker_pids(self) -> list[int]:
        """The workers' process ids (for tests and load scenarios that kill one)."""
        processes = getattr(self._executor, "_processes", None) or {}
        return sorted(processes)

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

    def _replace_broken_pool(self, broken: ProcessPoolExecutor | None) -> None:
        """A worker died: the executor is unusable, so start a fresh one (once)."""
        if broken is not self._executor or self._executor is None:
            return
        log.warning("an engine worker died; starting new workers")
        self.restarts += 1
        self._executor.shutdown(wait=False, cancel_futures=True)
        self.start()

    # -- the queue -------------------------------------------------------------

    def waiting(self, priority: int | None = None) -> int:
        """Jobs waiting for a worker."""
        return self._queue.waiting(priority)

    @property
    def running(self) -> int:
        return self._running

    def retry_after(self) -> int:
        """Seconds until the queue has probably room again."""
        backlog = self.waiting() + self._running
        return max(1, min(60, math.ceil(backlog * self._run_ms / 1000 / self.workers / 2)))

    def has_room(self, priority: int = MOVE) -> bool:
        """Whether a job of ``priority`` may join the queue now."""
        if priority == MOVE:
            return self.waiting(MOVE) < self.queue_limit
        return self.waiting() < self.background_limit

    def check_room(self, priority: int = MOVE) -> None:
        """Raise :class:`EngineBusyError` if a job of ``priority`` would pass the bound."""
        if priority == MOVE:
            waiting, limit, what = self.waiting(MOVE), self.queue_limit, "moves"
        else:
            waiting, limit, what = self.waiting(), self.background_limit, "jobs"
        if waiting >= limit:
            raise EngineBusyError(
                f"every engine is busy and {waiting} {what} are waiting (at most {limit}); "
                "try again shortly", self.retry_after())

    def _enqueue(self, func: Callable[..., Any], args: tuple[Any, ...], *, priority: int,
                 key: str, bounded: bool, slot: int | None = None,
                 on_start: Callable[[], None] | None = None,
                 on_retry: Callable[[], None] | None = None) -> _Job:
        if self._executor is None:
            raise RuntimeError("the engine pool is not running")
        if bounded:
            self.check_room(priority)
        job = _Job(func, args, priority, key, asyncio.get_running_loop().create_future(),
                   on_start=on_start, on_retry=on_retry, slot=slot)
        self._queue.push(priority, key, job)
        self._dispatch()
        return job

    def _dispatch(self) -> None:
        """Start waiting jobs while there are free workers that have warmed up (a job
        handed to a worker still loading the engine would wait there, its game's clock
        running, instead of in the queue, where it stands still)."""
        warming = [future for future in self._warming if not future.done()]
        if warming:
            loop = asyncio.get_running_loop()

            def warmed(_: Future[bool]) -> None:
                with contextlib.suppress(RuntimeError):  # the loop is closed
                    loop.call_soon_threadsafe(self._dispatch)

            warming[0].add_done_callback(warmed)
            return
        while self._executor is not None and self._running < self.workers:
            job = self._queue.pop()
            if job is None:
                return
            if job.future.done():  # cancelled while it waited
                continue
            self._start(job)

    def _start(self, job: _Job) -> None:
        assert self._executor is not None
        loop = asyncio.get_running_loop()
        job.running = True
        job.executor = self._executor
        self._running += 1
        try:
            future = self._executor.submit(_timed, job.func, job.args)
        except BrokenProcessPool:
            future = Future()
            future.set_exception(BrokenProcessPool("the engine pool is broken"))
        except BaseException as error:
            self._running -= 1
            job.running = False
            self._settle(job, error=error)
            return
        _call_back(job.on_start)

        def finished(done: Future[tuple[Any, float, float]]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed
                loop.call_soon_threadsafe(self._finished, job, done)

        future.add_done_callback(finished)

    def _finished(self, job: _Job, done: Future[tuple[Any, float, float]]) -> None:
        self._running -= 1
        job.running = False
        error = done.exception() if not done.cancelled() else BrokenProcessPool("cancelled")
        if isinstance(error, BrokenProcessPool):
            self._replace_broken_pool(job.executor)
            if (self._executor is not None and not job.future.done()
                    and job.attempts + 1 < MAX_ATTEMPTS):
                job.attempts += 1
                if job.slot is not None:
                    self._flags[job.slot] = 0
                self._queue.push(job.priority, job.key, job, first=True)
                _call_back(job.on_retry)
                self._dispatch()
                return
        if error is None:
            value = done.result()
            self._run_ms = 0.8 * self._run_ms + 0.2 * value[1]
            self._settle(job, value=value)
        else:
            self._settle(job, error=error)
        self._dispatch()

    def _settle(self, job: _Job, *, value: Any = None, error: BaseException | None = None) -> None:
        if job.slot is not None:
            self._release(job.slot)
            job.slot = None
        if job.future.done():
            return
        if error is not None:
            job.future.set_exception(error)
        else:
            job.future.set_result(value)

    async def _wait(self, job: _Job) -> tuple[Any, float, float]:
        try:
            return await asyncio.shield(job.future)
        except asyncio.CancelledError:
            if not job.future.done():
                job.future.cancel()
            if job.running:
                if job.slot is not None:  # stop the search; the slot frees when it ends
                    self._flags[job.slot] = 1
            else:
                self._queue.remove(job.priority, job.key, job)
                if job.slot is not None:
                    self._release(job.slot)
                    job.slot = None
            raise

    # -- jobs ------------------------------------------------------------------

    async def search(self, board: Board, limit: Limit, *, seed: int | None = None,
                     on_info: InfoCallback | None = None, priority: int = MOVE,
                     key: str = "", bounded: bool = True,
                     on_start: Callable[[], None] | None = None,
                     on_retry: Callable[[], None] | None = None,
                     clock: MoveClock | None = None) -> Searched:
        """The engine's move for ``board`` once a worker is free; cancelling the
        awaiting task takes the job off the queue or stops the search. ``clock``
        spends a game clock within ``limit`` (see :class:`MoveClock`).

        ``on_info`` is called on this event loop after each completed depth, and
        never once this call has returned; ``on_start`` when a worker takes the job,
        ``on_retry`` when it goes back in the queue because its worker died (then
        ``on_start`` again when another worker takes it).
        """
        job_number = None
        slot = self._take_slot()
        if on_info is not None:
            with self._lock:
                job_number = next(self._jobs)
                self._listeners[job_number] = (asyncio.get_running_loop(), on_info)
        try:
            try:
                job = self._enqueue(
                    _think, (slot, board.width, board.height, board.rule.value,
                             list(board.move_stack), limit, seed, job_number, clock),
                    priority=priority, key=key, bounded=bounded, slot=slot, on_start=on_start,
                    on_retry=on_retry)
            except BaseException:
                self._release(slot)
                raise
            result, run_ms, started_wall = await self._wait_limited(job, bounded)
            queued_ms = max(0, round((started_wall - job.queued_wall) * 1000))
            # The search's time as the worker saw it, from taking the job to its answer
            # (setting the board up included), if that is longer than the engine's own.
            result = replace(result, time_ms=max(result.time_ms, round(run_ms)))
            return Searched(result, queued_ms)
        finally:
            if job_number is not None:
                with self._lock:
                    del self._listeners[job_number]

    async def think(self, board: Board, limit: Limit, *, seed: int | None = None,
                    on_info: InfoCallback | None = None, priority: int = MOVE,
                    key: str = "", bounded: bool = True) -> SearchResult:
        """Like :meth:`search`, without the queue time."""
        searched = await self.search(board, limit, seed=seed, on_info=on_info,
                                     priority=priority, key=key, bounded=bounded)
        return searched.result

    async def run(self, func: Callable[..., T], *args: Any, key: str = "",
                  priority: int = BACKGROUND, bounded: bool = True,
                  on_start: Callable[[], None] | None = None,
                  on_retry: Callable[[], None] | None = None,
                  stoppable: bool = False) -> tuple[T, float]:
        """Run ``func(*args)`` in a worker; returns its value and its run time in ms.
        ``on_start`` and ``on_retry`` are called as for :meth:`search`. A ``stoppable`` func takes
        a ``stop`` signal (as ``think`` does): cancelling the awaiting task then stops
        it where it runs, as it stops a search.

        A bounded background job that has not finished within ``background_wait_s``
        (the game moves before it keep the workers busy) is given up: 429, try later.
        The same holds for :meth:`search`.
        """
        slot = self._take_slot() if stoppable else None
        try:
            if slot is not None:
                func, args = _stoppable, (slot, func, args)
            job = self._enqueue(func, args, priority=priority, key=key, bounded=bounded,
                                on_start=on_start, on_retry=on_retry, slot=slot)
        except BaseException:
            if slot is not None:
                self._release(slot)
            raise
        value, elapsed, _ = await self._wait_limited(job, bounded)
        return value, elapsed

    async def _wait_limited(self, job: _Job, bounded: bool) -> tuple[Any, float, float]:
        """:meth:`_wait`; a bounded background job is given up after ``background_wait_s``."""
        if not bounded or job.priority == MOVE:
            return await self._wait(job)
        try:
            return await asyncio.wait_for(self._wait(job), self.background_wait_s)
        except TimeoutError:
            raise EngineBusyError(
                f"the engines are busy with games; this request waited "
                f"{self.background_wait_s:g} s and was given up", self.retry_after()
            ) from None

    def _take_slot(self) -> int:
        """A free stop flag for a job that can be stopped, cleared."""
        with self._lock:
            if not self._free:
                raise EngineBusyError("too many searches at once", self.retry_after())
            slot = self._free.pop()
        self._flags[slot] = 0
        return slot

    def _release(self, slot: int) -> None:
        with self._lock:
            self._free.append(slot)
