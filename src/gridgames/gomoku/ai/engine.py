"""``think`` and ``analyse``: the Python side of the engine.

The search itself runs in numba kernels (:mod:`.search`); this module checks the
position, handles the trivial cases, runs iterative deepening and keeps time.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Protocol

import numpy as np

from gridgames.gomoku import Board, Color, Rule
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai import search as S
from gridgames.gomoku.ai.greedy import greedy_scores
from gridgames.gomoku.ai.limits import Limit, Point, SearchInfo, SearchResult
from gridgames.gomoku.ai.params import SearchParams
from gridgames.gomoku.ai.patterns import C_FIVE, C_FLEX4, EvalWeights
from gridgames.gomoku.ai.timing import TimeControl
from gridgames.gomoku.board import as_whole, check_board
from gridgames.gomoku.notation import shown_value
from gridgames.gomoku.rules import forbidden_kind
from gridgames.prepare import KernelGroup, Report, prepare, stderr_report

DEFAULT_TIME_MS = 3000
# The most search threads ``think`` takes: helpers beyond the cores only take turns
# with the main search on them.
MAX_THREADS = 64
# Reserved at the end of a timed search for stopping and building the result.
TIME_MARGIN_MS = 15
ROOT_VCF_DEPTH = 40
ROOT_VCT_DEPTH = 10
ASPIRATION = 60  # half-width of the first root window, centi-stones
ASPIRATION_MAX = 1000  # a window grown wider than this is opened fully
# Share of the time after which no new depth is started. An unfinished depth is
# still worth its time: the moves it proves better than the last best are taken.
LAST_ITERATION_START = 0.9


# The best move of an iteration is checked for a win by threats it leaves the opponent
# with this many times the root solvers' budget, the checks of a search with twice that;
# under a node limit, a check takes at most this share of it.
CHECK_BUDGET = 4
CHECK_SHARE_OF_NODES = 1 / 12  # at 1 s a check has some 9% of the nodes
CHECK_FROM_DEPTH = 5  # shallower iterations miss threats that deeper ones see anyway


def _threat_budget(limit: Limit) -> int:
    """Nodes the root VCF/VCT solvers may use: a few per cent of a timed search."""
    budgets = []
    if limit.nodes is not None:
        budgets.append(limit.nodes // 4)
    if limit.time_ms is not None:
        budgets.append(limit.time_ms * 20)
    if limit.depth is not None:
        budgets.append(3000 * limit.depth)
    return max(min(budgets), 1)


def _check_budget(limit: Limit, threat_budget: int) -> int:
    """Nodes for one check of the best move, given the root solvers' ``threat_budget``.
    Those take a quarter of a node limit, so four times theirs would leave nothing
    for the search itself."""
    budget = CHECK_BUDGET * threat_budget
    if limit.nodes is not None:
        budget = min(budget, int(limit.nodes * CHECK_SHARE_OF_NODES))
    return max(budget, 1)


class SearchMemory:
    """Transposition tables kept from one search to the next, one per board size and rule.

    Pass the same memory to every ``think`` of a game: positions searched for
    the previous move are then known at once. Only searches bounded by time
    alone use it, so node- and depth-limited searches (the levels below the top)
    stay reproducible. ``shared`` tables are filled in by forked processes too.
    """

    def __init__(self, *, shared: bool = False) -> None:
        self.shared = shared
        self._tables: dict[tuple[int, int, int], np.ndarray] = {}

    def table(self, board: Board) -> np.ndarray:
        key = (board.width, board.height, board.rule.code)
        table = self._tables.get(key)
        if table is None:
            self._tables.clear()  # one table at a time: each is 16 MB
            table = self._tables[key] = P.new_table(shared=self.shared)
        return table

    def clear(self) -> None:
        """Forget everything: the next search starts from a new, empty table. The old one
        is dropped, not zeroed, which would touch its 16 MB (a brain's peak working set
        counts them, and Piskvork holds it to max_memory); a search forked before still
        fills the old one."""
        self._tables.clear()


class StopSignal(Protocol):
    def is_set(self) -> bool: ...


InfoCallback = Callable[[SearchInfo], None]


def playing_threads() -> int:
    """Search threads for the games of a front end: a helper on a second core where
    there is one (it wins about three games in five against one thread)."""
    return min(2, os.cpu_count() or 1)


def _check_playable(board: Board) -> None:
    if board.outcome() is not None:
        raise ValueError(f"the game is over ({board.outcome()}); there is no move to think about")
    if len(board.move_stack) >= board.width * board.height:
        raise ValueError("the board is full; there is no move to think about")


def _is_forbidden(board: Board, point: Point) -> bool:
    return (
        board.rule is Rule.RENJU
        and board.to_move is Color.BLACK
        and forbidden_kind(board.grid, point[0], point[1]) != 0
    )


def _greedy(board: Board, seed: int | None, started: float) -> SearchResult:
    scores = greedy_scores(board.grid, int(board.to_move))
    order = sorted(
        ((int(scores[y, x]), (x, y)) for y in range(board.height) for x in range(board.width)
         if scores[y, x] >= 0),
        reverse=True,
    )
    rng = random.Random(seed)
    while order:
        top = order[0][0]
        best = [p for s, p in order if s == top]
        rng.shuffle(best)
        for point in best:
            if not _is_forbidden(board, point):
                return _result(point, 0, None, 0, (point,), len(order), started)
        order = [(s, p) for s, p in order if s != top]
    raise ValueError("no legal move: every empty point is forbidden")


def _result(move: Point, score: int, mate: int | None, depth: int, pv: tuple[Point, ...],
            nodes: int, started: float) -> SearchResult:
    elapsed = time.perf_counter() - started
    time_ms = int(elapsed * 1000)
    nps = int(nodes / elapsed) if elapsed > 0 else 0
    return SearchResult(move, score, mate, depth, pv, nodes, time_ms, nps)


def _check_arguments(board: object, limit: object, *, stop: object = None,
                     on_info: object = None, memory: object = None, clock: object = None,
                     params: object = None, weights: object = None,
                     **counts: tuple[object, int | None]) -> dict[str, int]:
    """Refuse arguments of the wrong kind at the door, saying what is allowed; ``counts``
    are (value, most or None) pairs, returned as plain ints."""
    check_board(board)
    if not isinstance(limit, Limit):
        raise ValueError(f"limit must be a Limit, such as Limit(time_ms=500) or "
                         f"get_level(3).limit_for(500), got {shown_value(limit)}")
    whole = {}
    for name, (value, most) in counts.items():
        number = as_whole(value)
        if number is None or number < 1 or (most is not None and number > most):
            allowed = "of 1 or more" if most is None else f"from 1 to {most}"
            raise ValueError(f"{name} must be a whole number {allowed}, "
                             f"got {shown_value(value)}")
        whole[name] = number
    if stop is not None and not callable(getattr(stop, "is_set", None)):
        # the watchdog would fail on its own thread, and the search never stop
        raise ValueError(f"stop must have an is_set() method, such as a threading.Event, "
                         f"got {shown_value(stop)}")
    if on_info is not None and not callable(on_info):
        raise ValueError(f"on_info must be a function of a SearchInfo, got "
                         f"{shown_value(on_info)}")
    for name, value, kind, example in (
            ("memory", memory, SearchMemory, "SearchMemory()"),
            ("clock", clock, TimeControl, "TimeControl.for_clock(...)"),
            ("params", params, SearchParams, "SearchParams()"),
            ("weights", weights, EvalWeights, "patterns.eval_weights(rule.code)")):
        if value is not None and not isinstance(value, kind):
            raise ValueError(f"{name} must be of type {kind.__name__} (such as {example}) "
                             f"or None, got {shown_value(value)}")
    return whole


def think(board: Board, limit: Limit, *, stop: StopSignal | None = None,
          on_info: InfoCallback | None = None, seed: int | None = None,
          memory: SearchMemory | None = None, threads: int = 1,
          clock: TimeControl | None = None, params: SearchParams | None = None,
          weights: EvalWeights | None = None) -> SearchResult:
    """Choose a move for the side to move on ``board`` within ``limit``.

    ``stop`` is any object with ``is_set()``; once set, the best move so far is
    returned promptly. ``on_info`` is called after each completed search depth.
    ``memory`` carries what earlier searches learnt (see :class:`SearchMemory`).
    ``threads`` above 1 (up to 64) adds helper searches sharing the transposition table, for
    searches bounded by time alone (the others stay reproducible).
    ``clock`` spends a match clock (see :mod:`.timing`): it replaces ``limit.time_ms``,
    and the search stops between its soft budget and its hard cap as the position asks.
    ``params`` replaces the rule's search margins (see :mod:`.params`), and
    ``weights`` the linear evaluation's (see :class:`.patterns.EvalWeights`): both
    for tuning.
    """
    threads = _check_arguments(board, limit, stop=stop, on_info=on_info, memory=memory,
                               clock=clock, params=params, weights=weights,
                               threads=(threads, MAX_THREADS))["threads"]
    _ensure_ready(GREEDY_GROUPS if limit.is_greedy else KERNEL_GROUPS)
    started = time.perf_counter()
    _check_playable(board)
    if not board.move_stack:
        centre = (board.width // 2, board.height // 2)
        return _result(centre, 0, None, 0, (centre,), 0, started)
    if limit.is_greedy:
        return _greedy(board, seed, started)
    return _search(board, limit, stop, on_info, 1, started, memory, threads, clock, params,
                   weights)[0]


def analyse(board: Board, limit: Limit, multipv: int = 3, *,
            stop: StopSignal | None = None,
            memory: SearchMemory | None = None) -> list[SearchResult]:
    """The ``multipv`` best moves for the side to move, best first. Each is searched to
    the limit, even where only one move is left to consider, which :func:`think`
    plays at once: an analysis wants its value."""
    multipv = _check_arguments(board, limit, stop=stop, memory=memory,
                               multipv=(multipv, None))["multipv"]
    _ensure_ready()
    started = time.perf_counter()
    _check_playable(board)
    if limit.is_greedy:
        limit = Limit(time_ms=limit.time_ms, nodes=limit.nodes, depth=1)
    if not board.move_stack:
        return _first_moves(board, limit, multipv, stop, started)
    results = _search(board, limit, stop, None, multipv, started, memory, 1,
                      forced_at_once=False)
    return sorted(results, key=lambda r: r.score, reverse=True)


def _first_moves(board: Board, limit: Limit, multipv: int, stop: StopSignal | None,
                 started: float) -> list[SearchResult]:
    """The empty board's lines: the points nearest the centre, each scored by a search
    of the reply (the search itself looks only near stones), the limit shared out."""
    cx, cy = board.width // 2, board.height // 2
    firsts = sorted(board.legal_moves,
                    key=lambda p: (max(abs(p[0] - cx), abs(p[1] - cy)),
                                   abs(p[0] - cx) + abs(p[1] - cy), p))[:multipv]
    share = Limit(time_ms=None if limit.time_ms is None else max(1, limit.time_ms // len(firsts)),
                  nodes=None if limit.nodes is None else max(1, limit.nodes // len(firsts)),
                  depth=None if limit.depth is None else max(1, limit.depth - 1))
    lines = []
    for move in firsts:
        after = board.copy()
        after.push(move)
        reply = _search(after, share, stop, None, 1, time.perf_counter(), None, 1,
                        forced_at_once=False)[0]
        mate = None if reply.mate is None else -reply.mate
        lines.append(_result(move, -reply.score, mate, reply.depth + 1, (move, *reply.pv),
                             reply.nodes, started))
    return sorted(lines, key=lambda r: r.score, reverse=True)


_SAMPLE_MOVES = [(7, 7), (8, 8), (8, 7), (6, 7), (9, 9)]


def _sample_board(rule: Rule = Rule.FREESTYLE) -> Board:
    board = Board(15, rule=rule)
    board.push_many(_SAMPLE_MOVES)
    return board


def _load_rules() -> None:
    board = _sample_board(Rule.RENJU)
    board.forbidden_points()
    board.outcome()


def _load_greedy() -> None:
    greedy_scores(_sample_board().grid, 1)


def _load_pattern_tables() -> None:
    for rule in Rule:
        P.packed_table(rule.code)


def _load_board_updates() -> None:
    pos = load_position(_sample_board())
    P.unmake(pos)
    S.load_entry_points("make", "unmake", "generate", "forbidden")


def _load_fours_search() -> None:
    S.load_entry_points("vcf")


def _load_threes_search() -> None:
    S.load_entry_points("vct")


def _load_alpha_beta() -> None:
    S.load_entry_points("negamax", "evaluate")
    S.load_root_task()


# In the order a Gomocup brain needs them: what the greedy player needs first. On a
# cold start the search by threes and the alpha-beta search (about 20 s of compiling
# on one core) go to a second process, and the rest (about 16 s) stays here.
KERNEL_GROUPS = (
    KernelGroup("rules", _load_rules),
    KernelGroup("greedy player", _load_greedy),
    KernelGroup("pattern tables", _load_pattern_tables),
    KernelGroup("board updates", _load_board_updates),
    KernelGroup("threat search: fours", _load_fours_search),
    KernelGroup("threat search: threes", _load_threes_search, alongside=True),
    KernelGroup("alpha-beta search", _load_alpha_beta, alongside=True),
)
GREEDY_GROUPS = KERNEL_GROUPS[:2]
_loaded: set[str] = set()  # the groups this process has loaded


def warm_up(report: Report | None = None,
            groups: Sequence[KernelGroup] = KERNEL_GROUPS) -> None:
    """Load (or compile, on a fresh install) every kernel and rule table ahead of play.

    ``report`` hears how far it has got (see :func:`gridgames.prepare.prepare`);
    :func:`gridgames.prepare.stderr_report` shows it on stderr when it compiles.
    ``groups`` limits the work to some of :data:`KERNEL_GROUPS`; groups this process
    has already loaded are skipped.
    """
    missing = [group for group in groups if group.name not in _loaded]
    prepare(missing, report)
    _loaded.update(group.name for group in missing)


def is_ready(groups: Sequence[KernelGroup] = KERNEL_GROUPS) -> bool:
    """Whether this process has loaded the kernels of ``groups``."""
    return all(group.name in _loaded for group in groups)


def _ensure_ready(groups: Sequence[KernelGroup] = KERNEL_GROUPS) -> None:
    """On a fresh install, compile with progress on stderr rather than in silence."""
    if not is_ready(groups):
        warm_up(stderr_report(), groups)


class Watchdog:
    """Calls ``stop_search`` once, at the deadline or when ``stop`` is set."""

    def __init__(self, stop_search: Callable[[], None], deadline: float | None,
                 stop: StopSignal | None) -> None:
        self.stop_search = stop_search
        self.deadline = deadline
        self.stop = stop
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        if deadline is not None or stop is not None:
            self._thread = threading.Thread(target=self._watch, daemon=True)
            self._thread.start()

    def _watch(self) -> None:
        while not self._done.wait(0.002):
            if (self.deadline is not None and time.perf_counter() >= self.deadline) or (
                self.stop is not None and self.stop.is_set()
            ):
                self.stop_search()
                return

    def close(self) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()


class RefutationCheck:
    """Checks the move about to be played against a win by threats it leaves the opponent.

    The root's first check shares a small budget among all its moves, so a move
    whose refutation is long can pass it; once the search prefers a move, that
    move is checked again with a budget of its own, once.
    """

    def __init__(self, pos: P.Position, budget: int) -> None:
        self.pos, self.budget, self.left = pos, budget, 2 * budget
        self.safe: set[int] = set()
        self.lost: set[int] = set()

    def refutes(self, idx: int) -> bool:
        """Whether the move (a cell index) is proven to lose; checked on the first ask."""
        if idx in self.safe or idx in self.lost or self.left <= 0:
            return idx in self.lost
        info = self.pos.info
        before = int(info[P.I_NODES])
        lost = S.refuted(self.pos, idx, ROOT_VCF_DEPTH, ROOT_VCT_DEPTH, min(self.budget, self.left))
        self.left -= int(info[P.I_NODES]) - before
        if info[P.I_ABORT]:
            return False
        (self.lost if lost else self.safe).add(idx)
        return lost


def _mate_moves(score: int) -> int | None:
    """Our moves to a win (+N) or the opponent's moves to beat us (-N), None if no mate."""
    if score >= S.MATE_BOUND:
        return (S.MATE - score + 1) // 2
    if score <= -S.MATE_BOUND:
        return -((S.MATE + score) // 2)
    return None


def load_position(board: Board, tt: np.ndarray | None = None,
                  params: SearchParams | None = None,
                  weights: EvalWeights | None = None) -> P.Position:
    """The engine board of ``board``'s position (``tt``: a table to search with;
    ``params`` and ``weights``: the search's margins and the linear evaluation's,
    the rule's own by default)."""
    pos = P.new_position(board.width, board.height, board.rule.code, tt, params, weights)
    for point in board.move_stack:
        P.make(pos, P.cell_index(pos, point))
    return pos


def _threatened(pos: P.Position) -> bool:
    """Whether either side has a four (a cell that makes five) or an open three (a
    cell that makes an open four), by the position's own threat classes."""
    return bool(pos.class_count[:, [C_FIVE, C_FLEX4]].any())


def has_threats(board: Board) -> bool:
    """Whether either side has a four or an open three on the board.

    >>> board = Board(15)
    >>> board.push_many([(7, 7), (0, 0), (8, 7), (0, 2)])
    >>> has_threats(board)
    False
    >>> board.push_many([(9, 7)])
    >>> has_threats(board)
    True
    """
    return _threatened(load_position(board))


def _pv(pos: P.Position) -> tuple[Point, ...]:
    length = int(pos.pv[0, 0])
    return tuple(P.cell_point(pos, int(m)) for m in pos.pv[0, 1 : length + 1])


def _search_line(pos: P.Position, depth: int, line: int, previous: int | None) -> int:
    """One root search, first in a narrow window around the previous score."""
    if previous is None or depth < 4 or abs(previous) >= S.MATE_BOUND:
        return int(S.search_root(pos, depth, -S.INF, S.INF, line))
    delta = ASPIRATION
    alpha, beta = previous - delta, previous + delta
    while True:
        score = int(S.search_root(pos, depth, alpha, beta, line))
        if alpha < score < beta or pos.info[P.I_ABORT]:
            return score
        # widen only the side that failed, three times as far each time
        delta *= 3
        if delta > ASPIRATION_MAX:
            alpha, beta = -S.INF, S.INF
        elif score <= alpha:
            alpha = score - delta
        else:
            beta = score + delta


class Helpers:
    """Searches on other threads that fill the shared transposition table (lazy SMP).

    Each searches the root moves of ``pos`` on its own board, one depth ahead of
    the one before it, until stopped; the kernels release the GIL, so they run
    on other cores while the main search goes on. Each keeps the best move of
    its deepest finished iteration, which the main search may not have reached.
    Each builds its board on its own thread, so the main search starts at once;
    none is started once ``pos``'s stop flag is up.
    """

    def __init__(self, board: Board, pos: P.Position, count: int,
                 weights: EvalWeights | None = None) -> None:
        # (depth, move, score, pv) of each helper's deepest finished iteration
        self.finished: list[tuple[int, int, int, tuple[Point, ...]] | None] = [None] * count
        self.positions: list[P.Position] = []  # the helpers' boards, once built
        self._stopped = False
        self._lock = threading.Lock()
        # held until all are started: a thread starts slowly on cores busy with searches
        self._go = threading.Event()
        # one board built at a time: builders all at once would hold up the main
        # search, which needs the GIL between its iterations
        self._building = threading.Lock()
        self._threads = []
        n = int(pos.info[P.I_ROOT_COUNT])
        # copies: the caller may play on once the move is chosen, and the main search
        # reorders its root moves
        self._board = board.copy()
        self._root = pos.root[:, :n].copy()
        self._tt, self._params, self._weights = pos.tt, P.params_of(pos), weights
        self._age = int(pos.info[P.I_AGE])
        for i in range(count):
            if pos.info[P.I_STOP]:
                break
            thread = threading.Thread(target=self._run, args=(i, 2 + i), daemon=True)
            self._threads.append(thread)
            thread.start()
        self._go.set()

    def _run(self, index: int, first_depth: int) -> None:
        self._go.wait()
        with self._building:
            pos = load_position(self._board, self._tt, self._params, self._weights)
        n = self._root.shape[1]
        pos.root[:, :n] = self._root
        pos.info[P.I_ROOT_COUNT] = n
        pos.info[P.I_AGE] = self._age
        with self._lock:
            self.positions.append(pos)
            if self._stopped:
                return
        for depth in range(first_depth, P.MAX_PLY - 16):
            score = int(S.search_root(pos, depth, -S.INF, S.INF, 0))
            if pos.info[P.I_ABORT]:
                return
            self.finished[index] = (depth, int(pos.root[0, 0]), score, _pv(pos))

    def deepest(self) -> tuple[int, int, int, tuple[Point, ...]] | None:
        """The finished iteration that went deepest among the helpers (None: none yet)."""
        done = [f for f in self.finished if f is not None]
        return max(done, key=lambda f: f[0]) if done else None

    @property
    def nodes(self) -> int:
        return sum(int(helper.info[P.I_NODES]) for helper in self.positions)

    def signal(self) -> None:
        """Raise every helper's stop flag (one still building its board stops once
        built); safe from any thread."""
        with self._lock:
            self._stopped = True
            for helper in self.positions:
                helper.info[P.I_STOP] = 1

    def stop(self, until: float | None = None) -> None:
        """Stop the helpers and wait for them to end, or until ``until`` at the latest
        (a ``time.perf_counter()`` time): one still running then ends on its own."""
        self.signal()
        for thread in self._threads:
            thread.join(None if until is None else max(until - time.perf_counter(), 0))


def _search(board: Board, limit: Limit, stop: StopSignal | None, on_info: InfoCallback | None,
            multipv: int, started: float, memory: SearchMemory | None, threads: int,
            clock: TimeControl | None = None, params: SearchParams | None = None,
            weights: EvalWeights | None = None, *,
            forced_at_once: bool = True) -> list[SearchResult]:
    """The root search; ``forced_at_once`` plays a move that is the only one left to
    consider after two plies (a game needs no more), where an analysis searches on
    for its value."""
    if clock is not None:
        # the root threat stage takes its usual share of the soft budget
        limit = replace(limit, time_ms=max(clock.soft_ms, 1))
    if limit.time_ms is None and limit.nodes is None and limit.depth is None:
        limit = Limit(time_ms=DEFAULT_TIME_MS)
    reproducible = limit.nodes is not None or limit.depth is not None
    pos = load_position(board, None if memory is None or reproducible else memory.table(board),
                        params, weights)
    info = pos.info
    if limit.nodes is not None:
        info[P.I_NODE_LIMIT] = max(limit.nodes, 1)
    deadline = None
    if limit.time_ms is not None:
        deadline = started + max(limit.time_ms - TIME_MARGIN_MS, 1) / 1000
    max_depth = limit.depth if limit.depth is not None else P.MAX_PLY - 16
    # no line is longer than the empty points: a deeper iteration would only repeat itself
    max_depth = min(max_depth, board.width * board.height - len(board.move_stack))
    pacer = clock.pacer(_threatened(pos)) if clock is not None else None
    if pacer is not None:
        # never past the hard cap; until the first iteration, the budget the board asks for
        hard_deadline = started + max(pacer.control.hard_ms - TIME_MARGIN_MS, 1) / 1000
        deadline = min(hard_deadline, started + max(pacer.budget_ms() - TIME_MARGIN_MS, 1) / 1000)

    helpers: Helpers | None = None

    def result(idx: int, score: int, depth: int, pv: tuple[Point, ...]) -> SearchResult:
        move = P.cell_point(pos, idx)
        if not pv or pv[0] != move:
            pv = (move,)
        nodes = int(info[P.I_NODES]) + (helpers.nodes if helpers is not None else 0)
        return _result(move, score, _mate_moves(score), depth, pv, nodes, started)

    count = int(S.prepare_root(pos))
    if count < 0:  # a five to play
        return [result(int(pos.root[0, 0]), S.MATE - 1, 1, ())]
    if count == 0:  # every point near the stones is forbidden: any legal point will do
        move = board.legal_moves[0]
        return [_result(move, -S.MATE + 2, -1, 1, (move,), 0, started)]

    def stop_search() -> None:  # the helpers stop with the main search, not after it
        info[P.I_STOP] = 1
        if helpers is not None:
            helpers.signal()

    watchdog = Watchdog(stop_search, deadline, stop)
    check: RefutationCheck | None = None
    before_drops: tuple[np.ndarray, list[SearchResult]] | None = None  # the check's drops undone
    try:
        if multipv == 1:
            # threat-space search first: a forced win by fours, then by fours and threes
            threat_budget = _threat_budget(limit)
            info[P.I_VCF_LIMIT] = threat_budget
            plies = int(S.root_threat_search(pos, ROOT_VCF_DEPTH, ROOT_VCT_DEPTH))
            info[P.I_VCF_LIMIT] = 0
            if plies > 0:
                first = int(info[P.I_VCF_MOVE])
                return [result(first, S.MATE - plies, plies, ())]
            if not info[P.I_ABORT]:
                # answer the opponent's threats: skip moves that provably lose to them
                if S.drop_losing_root_moves(pos, ROOT_VCF_DEPTH, ROOT_VCT_DEPTH,
                                            threat_budget) > 0:
                    check = RefutationCheck(pos, _check_budget(limit, threat_budget))
                count = int(info[P.I_ROOT_COUNT])
        if threads > 1 and not reproducible and count > 1 and not info[P.I_ABORT]:
            helpers = Helpers(board, pos, threads - 1, weights)
        done: list[SearchResult] = []
        n_lines = min(multipv, count)
        depth = 1
        while depth <= max_depth:
            lines: list[SearchResult] = []
            for line in range(n_lines):
                info[P.I_SELDEPTH] = 0
                previous = done[line].score if line < len(done) else None
                score = _search_line(pos, depth, line, previous)
                if info[P.I_ABORT]:
                    break
                lines.append(result(int(pos.root[0, line]), score, depth, _pv(pos)))
            if info[P.I_ABORT]:
                if not done:
                    done = lines
                partial = int(info[P.I_ROOT_BEST])
                if (multipv == 1 and partial >= 0
                        and (not done or P.cell_point(pos, partial) != done[0].move)
                        and (check is None or partial in check.safe)):
                    # the unfinished iteration already proved a better move
                    done = [result(partial, int(info[P.I_ROOT_BEST_SCORE]), depth, ())]
                break
            if (check is not None and count > 1 and depth >= CHECK_FROM_DEPTH
                    and check.refutes(int(pos.root[0, 0]))):
                # the best move loses to a threat the first check missed: drop it and
                # search this depth again
                if before_drops is None:
                    before_drops = (pos.root[:, :count].copy(), done)
                pos.root[:, : count - 1] = pos.root[:, 1:count].copy()
                count -= 1
                info[P.I_ROOT_COUNT] = count
                done = [r for r in done if P.cell_index(pos, r.move) not in check.lost]
                continue
            if before_drops is not None and lines[0].score <= -S.MATE_BOUND:
                # what is left loses too: the search chooses again among all the moves,
                # for the one that holds out longest
                root, done = before_drops
                count = root.shape[1]
                pos.root[:, :count] = root
                info[P.I_ROOT_COUNT] = count
                check = before_drops = None
                continue
            done = lines
            best = lines[0]
            if on_info is not None:
                on_info(SearchInfo(depth, best.score, best.mate, best.nodes, best.nps,
                                   best.time_ms, best.pv))
            if best.mate is not None and depth >= 2 * abs(best.mate) + 2:
                break
            if forced_at_once and count == 1 and multipv == 1 and depth >= 2:
                break
            if pacer is not None:
                until = pacer.iteration_done(depth=depth, move=best.move, score=best.score,
                                             mate=best.mate,
                                             elapsed_ms=(time.perf_counter() - started) * 1000)
                if until is None:
                    break
                watchdog.deadline = min(hard_deadline,
                                        started + max(until - TIME_MARGIN_MS, 1) / 1000)
            elif deadline is not None:
                elapsed = time.perf_counter() - started
                if elapsed > LAST_ITERATION_START * (deadline - started):
                    break
            depth += 1
        if len(done) < n_lines:  # stopped before the first iteration finished
            taken = {r.move for r in done}
            for i in range(count):
                if len(done) >= n_lines:
                    break
                idx = int(pos.root[0, i])
                if P.cell_point(pos, idx) not in taken:
                    done.append(result(idx, 0, 0, ()))
        if helpers is not None:
            # no later than the limit: with more threads than cores, a helper may need a
            # while to get a core and see its stop flag
            limit_end = watchdog.deadline
            helpers.stop(None if limit_end is None else limit_end + TIME_MARGIN_MS / 1000)
            deepest = helpers.deepest()
            if deepest is not None:
                helper_depth, idx, score, pv = deepest
                # done holds a line at least (filled above)
                if helper_depth > done[0].depth and (check is None or idx in check.safe):
                    done = [result(idx, score, helper_depth, pv)]
        # nodes and time of the whole search, the unfinished last iteration included
        return [result(P.cell_index(pos, r.move), r.score, r.depth, r.pv) for r in done]
    finally:
        watchdog.close()
        if helpers is not None:
            helpers.signal()
