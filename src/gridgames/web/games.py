"""Gomoku games served over the web: the core board, the saved record and the computer.

Everything here runs on the server's event loop, but for the game store's calls,
which run in a thread of their own, one after another in the order they were
made: a database locked by another program then holds up only the requests that
wait for it, and each of them for about ``WAIT_S`` from its arrival at most,
whatever its place in the queue. Replaying a game's moves (thousands of them
take a tenth of a second and more) is done off the loop too. A game is changed
under its lock, held from the request's checks (its player token's included) to
the change's commit, so its changes come one at a time, each saved before the
next is checked and before anyone sees it.

The computer's moves come from :class:`EnginePool` workers; a search is
cancelled (and its late result ignored) when the game changes under it. While
it runs, its progress after each depth goes to the game's watchers.

A game may begin with an opening rule (:mod:`gridgames.gomoku.opening_rules`):
its players are then the first and the second player, the opening's actions
place the first stones and settle the colours, and moves follow once it is
over. The computer's opening actions are decided in the workers too.

A game may have a clock (:mod:`gridgames.gomoku.clock`): it starts once the
moves begin (after the opening), the computer spends its own as a Gomocup brain
spends a match clock, and the side whose time runs out loses, whether or not it
is thinking: a timer ends the game at that moment. The computer's clock does not
run while its move waits for a free worker, and no clock runs while the server
is down: neither a busy server nor a stopped one costs a player time. On two
devices the clock starts once each side has made a move, as on online servers,
so that nobody's time runs before they have arrived.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, ParamSpec, Protocol, TypeVar

from gridgames.gomoku import Board, Color, Point, Rule
from gridgames.gomoku.ai import MAX_LEVEL, Level, Limit, SearchInfo, SearchResult, get_level
from gridgames.gomoku.ai.engine import StopSignal
from gridgames.gomoku.clock import GameClock
from gridgames.gomoku.opening_rules import Opening, OpeningRule, game_opening
from gridgames.gomoku.opening_rules import Player as OpeningPlayer
from gridgames.gomoku.records import (
    RESIGNATION,
    TIME_FORFEIT,
    GameRecord,
    ended_off_the_board,
    ending_text,
    from_json,
    from_psq,
    is_psq,
    to_json,
    to_psq,
)
from gridgames.store import WAIT_S, GameNotFoundError, GameStore, StoredGame
from gridgames.web.engine import BACKGROUND, MOVE, EnginePool, MoveClock, Searched

log = logging.getLogger(__name__)

HUMAN, COMPUTER = "human", "computer"
HINT_LIMIT = Limit(time_ms=1000, nodes=60_000, depth=6)
# A computer-vs-computer game nobody has looked at for this long stops thinking
# until someone looks again.
IDLE_SECONDS = 120.0
# The computer's time for one turn in the opening when the game's level sets none.
OPENING_TURN_MS = 2000
# How often the server records that it is running: a clock is charged at most this
# much of the time the server was down.
ALIVE_SECONDS = 1.0

# What a watcher's queue receives: None when the game changed (send the state
# again), or a progress report of the computer's search, or RELOAD when the game
# was dropped from memory (its stream ends, and the client connects again).
Update = dict[str, Any] | None
RELOAD: dict[str, Any] = {"type": "reload"}

P = ParamSpec("P")
T = TypeVar("T")


class GameError(ValueError):
    """A request the game cannot carry out; ``code`` and ``status`` go to the client."""

    code = "conflict"
    status = 409


class UnknownGameError(GameError):
    code, status = "not_found", 404


class NotYourTurnError(GameError):
    code = "not_your_turn"


class GameOverError(GameError):
    code = "game_over"


class OccupiedError(GameError):
    code = "occupied"


class ForbiddenError(GameError):
    code = "forbidden"


class OffBoardError(GameError):
    code, status = "off_board", 422


class NothingToUndoError(GameError):
    code = "nothing_to_undo"


class OpeningUnderWayError(GameError):
    code = "opening_under_way"


class NoOpeningError(GameError):
    code = "no_opening"


class OpeningOverError(GameError):
    code = "opening_over"


class InvalidActionError(GameError):
    code, status = "invalid_action", 422


class OpeningNeedsEmptyBoardError(GameError):
    code, status = "opening_needs_empty_board", 422


class TimedGameError(GameError):
    code = "timed_game"


class TwoDevicesError(GameError):
    """A step that needs both players' say in a game played on two devices."""

    code = "two_devices"


class NotBetweenPeopleError(GameError):
    code = "not_between_people"


class GameNotOverError(GameError):
    code = "game_not_over"


class StoreUnavailableError(GameError):
    """A change the game store could not save (its database locked or failing)."""

    code, status = "store_unavailable", 503


@dataclass
class Game:
    """A game in play: its saved settings, the core board and the computer's search."""

    saved: StoredGame
    board: Board
    times_ms: list[int]
    version: int = 0
    task: asyncio.Task[None] | None = None
    # The computer's move waits for a free engine (its search has not started).
    waiting: bool = False
    last_search: SearchResult | None = None
    last_queued_ms: int = 0
    progress: dict[str, Any] | None = None  # the running search's latest report
    watchers: set[asyncio.Queue[Update]] = field(default_factory=set)
    # (version, thinking, waiting) and the state's JSON then, for clients that poll
    state_cache: tuple[tuple[int, bool, bool], bytes] | None = None
    last_seen: float = field(default_factory=time.monotonic)
    # Under an opening rule: the opening (on a board of its own, which keeps the
    # opening position once moves follow); None without one.
    opening: Opening | None = None
    clock: GameClock | None = None
    flag_timer: asyncio.TimerHandle | None = None  # ends the game when the clock runs out
    # Held while the game is changed and saved: one change at a time, and readers wait
    # for a change under way rather than see it before it is saved.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # While a request holds the lock: the deadline of its saves (see store_deadline).
    answer_by: float | None = None

    @property
    def id(self) -> str:
        return self.saved.id

    def player(self, color: Color) -> str:
        return self.saved.black if color is Color.BLACK else self.saved.white

    @property
    def first_player(self) -> str:
        return self.saved.first_player or self.saved.black

    @property
    def second_player(self) -> str:
        # black and white hold the two players, in either order
        saved = self.saved
        return saved.white if saved.black == self.first_player else saved.black

    def who(self, player: OpeningPlayer) -> str:
        """Who ("human"/"computer") is the opening's first or second player."""
        return self.first_player if player is OpeningPlayer.FIRST else self.second_player

    def seat_of(self, color: Color) -> OpeningPlayer:
        """The player, first or second, who plays ``color`` (without an opening rule the
        first plays black)."""
        if self.opening is None:
            return OpeningPlayer.FIRST if color is Color.BLACK else OpeningPlayer.SECOND
        return self.opening.player(color)

    def color_of(self, seat: OpeningPlayer) -> Color:
        return Color.BLACK if self.seat_of(Color.BLACK) is seat else Color.WHITE

    @property
    def friend(self) -> OpeningPlayer | None:
        """The seat of a friend invited to play on their own device, if one was."""
        seat = self.saved.guest_seat
        return OpeningPlayer[seat.upper()] if seat else None

    @property
    def in_opening(self) -> bool:
        return self.opening is not None and not self.opening.done

    @property
    def opening_stones(self) -> int:
        """How many stones the opening placed (or has placed so far); undo stops there."""
        return 0 if self.opening is None else len(self.opening.board)

    @property
    def moves_played(self) -> int:
        """The moves played after the opening's stones."""
        return len(self.board) - self.opening_stones

    @property
    def opening_actor(self) -> str | None:
        """Who acts next in the opening (None when no opening is under way)."""
        if self.opening is None or self.opening.to_act is None:
            return None
        return self.who(self.opening.to_act)

    @property
    def loser(self) -> Color | None:
        """The colour that lost other than on the board (its time ran out, it resigned,
        or an imported record does not say how: ``saved.termination`` says which), if any."""
        label = self.saved.loser
        return Color[label.upper()] if label else None

    @property
    def over(self) -> bool:
        """Five, a draw, or an end off the board: a clock run out, a resignation, or one an
        imported record does not say (a loss, or a draw with no loser)."""
        return self.board.is_game_over() or bool(self.saved.termination)

    @property
    def computer_to_move(self) -> bool:
        return (not self.in_opening and not self.over
                and self.player(self.board.to_move) == COMPUTER)

    @property
    def computer_to_act(self) -> bool:
        """The computer is to act in the opening or to move."""
        return self.opening_actor == COMPUTER or self.computer_to_move

    @property
    def thinking(self) -> bool:
        return self.task is not None and not self.task.done()

    @property
    def level(self) -> Level:
        # A game saved when there were more levels plays at the top one.
        return get_level(min(self.saved.level, MAX_LEVEL))

    @property
    def limit(self) -> Limit:
        return self.level.limit_for(self.saved.time_ms)


def store_deadline() -> float:
    """The deadline (:func:`time.monotonic`) of store calls asked for now: they wait for
    a database locked by another program until then at most."""
    return time.monotonic() + WAIT_S


class Caller(Protocol):
    """A player's request to change a game (:mod:`gridgames.web.auth` makes them)."""

    @property
    def deadline(self) -> float:
        """The deadline of the request's store calls, taken as it arrived."""

    def seat(self, game: Game) -> OpeningPlayer | None:
        """The seat the request plays in ``game`` (None: both), or a GameError saying it
        may not change it. Asked under the game's lock, with the change it permits: a
        token replaced meanwhile (by a new invitation) no longer passes."""


def _player_name(player: str, level: int) -> str:
    return f"level:{level}" if player == COMPUTER else ""


def opening_decision(width: int, height: int, rule: str, opening_rule: str, actions: list[str],
                     budget_ms: int, limit_for: Callable[[int], Limit], *,
                     stop: StopSignal | None = None) -> tuple[list[str], SearchResult | None]:
    """In an engine worker: the computer's actions for the player to act in the opening
    after ``actions``, and the search that found its move for the side to move once they
    end the opening (or None). ``limit_for`` must be picklable: a level's, or a hint's.
    Once ``stop`` is set, the searches end and the decision is made from what they found."""
    from gridgames.gomoku.ai.opening_play import decide

    opening = Opening.replay(OpeningRule(opening_rule), Board(width, height, rule=Rule(rule)),
                             actions)
    decision = decide(opening, budget_ms, limit_for, stop=stop)
    return list(decision.actions), decision.search


def hint_limit(time_ms: int) -> Limit:
    """A hint's search limit with ``time_ms`` (for :func:`opening_decision`)."""
    return replace(HINT_LIMIT, time_ms=time_ms)


class GomokuService:
    """Creates, plays, undoes and saves games, and runs the computer's moves."""

    def __init__(self, store: GameStore, engine: EnginePool, *,
                 idle_seconds: float = IDLE_SECONDS) -> None:
        self.store = store
        self.engine = engine
        self.idle_seconds = idle_seconds
        self._games: dict[str, Game] = {}
        self._alive: asyncio.Task[None] | None = None
        self._flags: set[asyncio.Task[None]] = set()  # games ending on time
        # One thread runs the store's calls in the order they are made, so that a game
        # loaded after a change (saved or not) reads what the change left.
        self._store_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")

    async def in_store(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``call(*args, **kwargs)`` in the store's thread: a database locked by another
        program (a call waits ``WAIT_S`` for it from now at most) then holds up no other
        request."""
        return await self.in_store_by(store_deadline(), call, *args, **kwargs)

    async def in_store_by(self, deadline: float, call: Callable[P, T], *args: P.args,
                          **kwargs: P.kwargs) -> T:
        """:meth:`in_store`, the call waiting for a locked database until ``deadline`` at
        most, however long it waited for the calls before it: saves queued during a lock
        are each answered by their request's deadline, not ``WAIT_S`` after the one
        before."""
        def run() -> T:
            with self.store.deadline(deadline):
                return call(*args, **kwargs)

        return await asyncio.get_running_loop().run_in_executor(self._store_thread, run)

    async def start(self) -> None:
        """Stop the clocks for the time the server was down, then resume the games in
        which the computer was to move or to act in the opening when it stopped."""
        unfinished = await self.in_store(lambda: list(self.store.unfinished()))
        await self._give_back_downtime(unfinished, time.time())
        self._alive = asyncio.create_task(self._keep_alive())
        for saved in unfinished:
            if COMPUTER not in (saved.black, saved.white):
                continue
            try:
                game = await self._load(saved, await asyncio.to_thread(_replay_saved, saved))
            except ValueError:
                log.exception("cannot resume game %s", saved.id)
                continue
            if game.computer_to_act:
                self._schedule(game)
            else:
                self._forget(game)  # loaded again when someone looks

    async def close(self) -> None:
        for game in self._games.values():
            self._disarm_flag(game)
        tasks = [game.task for game in self._games.values() if game.task is not None]
        tasks.extend(self._flags)
        if self._alive is not None:
            tasks.append(self._alive)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        try:
            # the clocks stop here until the next start
            await self.in_store(self.store.mark_alive, time.time())
        finally:
            self._store_thread.shutdown()

    async def _give_back_downtime(self, unfinished: list[StoredGame], now: float) -> None:
        """Charge no running clock of the ``unfinished`` games for the time from the
        server's last sign of life to ``now``: nobody could move while the server was
        down. The games' clocks are saved, and changed in ``unfinished`` too."""
        down_since = await self.in_store(self.store.last_alive)
        await self.in_store(self.store.mark_alive, now)
        if down_since is None:
            return
        for saved in unfinished:
            if saved.clock is None or saved.clock.get("running") is None:
                continue
            clock = GameClock.from_dict(saved.clock)
            clock.pause(down_since, now)
            saved.clock = clock.to_dict()
            await self.in_store(self.store.set_clock, saved.id, saved.clock)

    async def _keep_alive(self) -> None:
        while True:
            await asyncio.sleep(ALIVE_SECONDS)
            try:
                # the time it is written, which may be a while after it was asked for
                await self.in_store(lambda: self.store.mark_alive(time.time()))
            except sqlite3.Error:  # the database locked for a while: go on recording after
                log.exception("cannot record that the server is running")

    # -- games ---------------------------------------------------------------

    async def create(self, *, width: int, height: int, rule: Rule, black: str, white: str,
                     level: int, time_ms: int | None, moves: list[Point] | None = None,
                     times_ms: list[int] | None = None, token_hash: str = "",
                     opening: OpeningRule = OpeningRule.FREE,
                     opening_actions: list[str] | None = None, clock: str | None = None,
                     guest: tuple[str, OpeningPlayer] | None = None,
                     rematch_of: str | None = None,
                     ended: tuple[Color | None, str] = (None, "")) -> Game:
        """A new game. Under an opening rule ``black`` is the first player and
        ``white`` the second (the opening settles their colours). A game with
        ``moves`` has an opening only with the ``opening_actions`` that placed its
        first stones (an imported record's); ``black`` and ``white`` are then the
        colours' players. ``clock``: minutes a side and seconds added a move (``5+3``),
        or None. ``guest``: a friend's token hash and seat; ``rematch_of``: the game
        this one plays again; ``ended``: how an imported game ended off the board, as
        :func:`~gridgames.gomoku.records.ended_off_the_board` says."""
        game_clock = None if clock is None else GameClock.parse(clock)
        if opening is not OpeningRule.FREE and moves and opening_actions is None:
            raise OpeningNeedsEmptyBoardError(
                f"an opening rule ({opening.display_name}) starts on an empty board: a game "
                "with moves, such as an imported record, cannot have one")
        # refuses a board too small for the rule, and actions that did not place the moves
        board, settled = await asyncio.to_thread(
            _replay, width, height, rule, opening, opening_actions or [], moves or [])
        first_player = black
        if settled is not None and settled.player(Color.BLACK) is not OpeningPlayer.FIRST:
            first_player = white
        loser, termination = ended
        over = board.is_game_over() or bool(termination)
        if game_clock is not None and (settled is None or settled.done) \
                and not over and guest is None:
            game_clock.start(board.to_move, time.time())
        # Black is to move, or under an opening rule the first player to act.
        if not over and (black if board.to_move is Color.BLACK else white) == COMPUTER:
            self.engine.check_room(MOVE)  # its first search would wait too long
        saved = await self.in_store(self.store.create, StoredGame(
            width=width, height=height, rule=rule.value, black=black, white=white,
            level=level, time_ms=time_ms, moves=list(board.move_stack),
            times_ms=list(times_ms or [0] * len(board.move_stack)),
            finished=over, token_hash=token_hash,
            opening=opening.value, opening_actions=list(opening_actions or []),
            first_player=first_player,
            clock=None if game_clock is None else game_clock.to_dict(),
            guest_token_hash="" if guest is None else guest[0],
            guest_seat="" if guest is None else guest[1].label,
            loser="" if loser is None else loser.label, termination=termination,
        ), rematch_of=rematch_of)
        game = await self._load(saved, (board, settled))
        self._schedule(game)
        return game

    async def import_record(self, text: str, *, rule: Rule | None, black: str, white: str,
                            token_hash: str = "", level: int, time_ms: int | None,
                            opening: OpeningRule = OpeningRule.FREE,
                            clock: str | None = None) -> Game:
        """A new game from a ``.psq`` or JSON record (told apart by their content). A JSON
        record's opening comes with it (no other can be given to a record), and so does
        its end when the game ended off the board."""
        if opening is not OpeningRule.FREE:
            raise OpeningNeedsEmptyBoardError(
                f"an opening rule ({opening.display_name}) starts on an empty board: an "
                "imported record continues from its moves (a JSON record keeps the "
                "opening it was played under), so it cannot be given one")
        record = await asyncio.to_thread(_read_record, text, rule)
        times = record.times_ms or []
        times = (times + [0] * len(record.moves))[: len(record.moves)]
        return await self.create(width=record.width, height=record.height, rule=record.rule,
                                 black=black, white=white, level=level, time_ms=time_ms,
                                 moves=record.moves, times_ms=times, token_hash=token_hash,
                                 opening=record.opening,
                                 opening_actions=record.opening_actions,
                                 clock=clock, ended=ended_off_the_board(record))

    async def get(self, game_id: str, caller: Caller | None = None) -> Game:
        """The game as saved (loaded from the store if need be, after the change under
        way, if any); looking at it keeps it alive. Read it before the next ``await``:
        another change may come then. With ``caller``, a GameError if they may not
        change it."""
        async with self._held(game_id, caller) as (game, _):
            return game

    @contextlib.asynccontextmanager
    async def _held(self, game_id: str, caller: Caller | None = None
                    ) -> AsyncIterator[tuple[Game, OpeningPlayer | None]]:
        """The game under its lock, for a change, and the seat of the ``caller`` who asks
        for it (None without one): checked against the game as the last change left it,
        and saved (by the caller's deadline) before the next is checked."""
        deadline = store_deadline() if caller is None else caller.deadline
        while True:
            game = self._games.get(game_id) or await self._loaded(game_id, deadline)
            async with game.lock:
                # Dropped while we waited (its change not saved, or deleted): load it again.
                if self._games.get(game_id) is game:
                    game.last_seen = time.monotonic()
                    self._schedule(game)
                    seat = None if caller is None else caller.seat(game)
                    game.answer_by = deadline
                    try:
                        yield game, seat
                    finally:
                        game.answer_by = None
                    return

    async def _loaded(self, game_id: str, deadline: float) -> Game:
        def read() -> tuple[StoredGame, tuple[Board, Opening | None]]:
            # replayed in the store's thread: off the event loop, and before any later
            # change of the game is saved
            saved = self.store.get(game_id)
            return saved, _replay_saved(saved)

        try:
            saved, replayed = await self.in_store_by(deadline, read)
        except GameNotFoundError:
            cut = "..." if len(game_id) > 40 else ""  # a long id is not echoed whole
            raise UnknownGameError(f"there is no game {game_id[:40]!r}{cut}") from None
        return await self._load(saved, replayed)

    async def settled(self, game: Game) -> bool:
        """Wait for the change of ``game`` under way, if any, to be saved; False if the
        game was dropped from memory meanwhile (deleted, or a change not saved)."""
        async with game.lock:
            return self._games.get(game.id) is game

    async def delete(self, game_id: str, caller: Caller) -> None:
        async with self._held(game_id, caller) as (game, _):
            self._cancel(game)
            await self._commit(game, functools.partial(self.store.delete, game_id))
            self._forget(game)
            self._reload_watchers(game)  # connecting again, they find no game

    async def play(self, game_id: str, x: int, y: int, caller: Caller) -> Game:
        """A human's move, by the ``caller``'s seat (whoever is to move when it plays
        both); raises a :class:`GameError` saying why it cannot be played."""
        async with self._held(game_id, caller) as (game, seat):
            return await self._play(game, (x, y), seat)

    async def _play(self, game: Game, point: Point, seat: OpeningPlayer | None) -> Game:
        board = game.board
        reason = board.illegal_reason(point)
        if not board.contains(point):
            raise OffBoardError(reason)
        if game.in_opening:
            raise OpeningUnderWayError(_opening_first(game))
        await self._check_clock(game)
        if game.over:
            raise GameOverError(_over_reason(game))
        if game.player(board.to_move) != HUMAN:
            raise NotYourTurnError(f"it is the computer's turn to play {board.to_move.label}")
        if seat is not None and game.seat_of(board.to_move) is not seat:
            raise NotYourTurnError(f"it is {board.to_move.label}'s turn, and you play "
                                   f"{game.color_of(seat).label}: wait for your friend's move")
        if board[point] is not None:
            raise OccupiedError(reason)
        if reason is not None:
            raise ForbiddenError(reason)
        if (game.clock is None and not self.engine.has_room(MOVE)
                and self._computer_after(game, point)):
            # Refuse the move (429) rather than acknowledge it and keep its reply waiting.
            # Not on a clock: the player's time would run while it tried again, and the
            # computer's stands still while its reply waits.
            self.engine.check_room(MOVE)
        await self._push(game, point, self._press_clock(game))
        self._schedule(game)
        return game

    async def undo(self, game_id: str, caller: Caller) -> Game:
        """Take back moves until a human is to move (one move when both sides are human).

        Against the computer this takes back its reply too, or stops its search.
        The opening's stones are never taken back, nor is a resignation.
        """
        async with self._held(game_id, caller) as (game, _):
            return await self._undo(game)

    async def _undo(self, game: Game) -> Game:
        if game.in_opening:
            raise NothingToUndoError("the opening's actions cannot be taken back")
        if game.clock is not None:
            raise TimedGameError("moves cannot be taken back in a game with a clock")
        if game.friend is not None:
            raise TwoDevicesError("moves cannot be taken back in a game played on two "
                                  "devices: your friend's moves are theirs")
        if game.saved.termination:  # a five may be taken back
            raise GameOverError(f"{_over_reason(game)}; an end off the board cannot be "
                                "taken back")
        movers = [Color.BLACK if i % 2 == 0 else Color.WHITE
                  for i in range(len(game.board.move_stack))]
        human_moves = [i for i, color in enumerate(movers)
                       if i >= game.opening_stones and game.player(color) == HUMAN]
        if not human_moves:
            since = " since the opening" if game.opening is not None else ""
            raise NothingToUndoError(f"there is no human move{since} to take back")
        self._cancel(game)
        keep = human_moves[-1]  # moves before the last human move stay
        while len(game.board.move_stack) > keep:
            game.board.pop()
            game.times_ms.pop()
        game.last_search = None
        await self._changed(game)
        return game

    async def resign(self, game_id: str, caller: Caller) -> Game:
        """The ``caller``'s seat resigns; for a caller who plays both, against the computer
        the human's colour loses, in a game of two people on one device the side to move."""
        async with self._held(game_id, caller) as (game, seat):
            return await self._resign(game, seat)

    async def _resign(self, game: Game, seat: OpeningPlayer | None) -> Game:
        if game.in_opening:
            raise OpeningUnderWayError("the opening is under way: a game can be resigned "
                                       "once its moves begin")
        if game.over:
            raise GameOverError(_over_reason(game))
        humans = [c for c in (Color.BLACK, Color.WHITE) if game.player(c) == HUMAN]
        if not humans:
            raise NotYourTurnError("the computer plays both sides: there is no one to resign")
        if seat is not None:
            loser = game.color_of(seat)
        else:
            loser = humans[0] if len(humans) == 1 else game.board.to_move
        self._cancel(game)
        await self._end_off_the_board(game, loser, RESIGNATION)
        return game

    async def hint(self, game_id: str) -> Searched:
        """The engine's suggestion for the human to move."""
        game = await self.get(game_id)
        _no_hints_between_devices(game)
        if game.in_opening:
            raise OpeningUnderWayError("hints are for moves, and the opening is under way")
        if game.over:
            raise GameOverError(_over_reason(game))
        if game.player(game.board.to_move) != HUMAN:
            raise NotYourTurnError("the computer is to move")
        return await self.engine.search(game.board.copy(), HINT_LIMIT, priority=BACKGROUND,
                                        key=game.id)

    async def opening_hint(self, game_id: str) -> tuple[list[str], list[Point]]:
        """The actions the computer would take for the human to act in the opening, and
        the points its first one names (stones, offers or the pick)."""
        game = await self.get(game_id)
        _no_hints_between_devices(game)
        opening = _opening_for_human(game, instead="ask for a move's hint")
        (actions, _), _ = await self.engine.run(
            opening_decision, game.saved.width, game.saved.height, game.board.rule.value,
            opening.rule.value, list(opening.history), HINT_LIMIT.time_ms or OPENING_TURN_MS,
            hint_limit,
            key=game.id, priority=BACKGROUND, stoppable=True)
        kind, *words = actions[0].split()
        points = [game.board.parse(w) for w in words] if kind in ("place", "offer", "pick") else []
        return actions, points

    async def act(self, game_id: str, text: str, caller: Caller) -> Game:
        """A human's action in the opening (``place h8``, ``choose white``...), by the
        ``caller``'s seat (whoever is to act when it plays both); raises a
        :class:`GameError` saying why it cannot be taken."""
        async with self._held(game_id, caller) as (game, seat):
            return await self._act(game, text, seat)

    async def _act(self, game: Game, text: str, seat: OpeningPlayer | None) -> Game:
        opening = _opening_for_human(game, instead="play moves instead")
        assert opening.to_act is not None
        if seat is not None and opening.to_act is not seat:
            raise NotYourTurnError(f"the {opening.to_act.label} player is to act in the "
                                   f"opening, and you are the {seat.label} player: wait for "
                                   "your friend")
        after = _replayed(game)
        try:
            after.apply(text)
        except ValueError as error:  # an OpeningError, or a point off the board
            raise InvalidActionError(str(error)) from None
        if not self.engine.has_room(MOVE) and self._computer_after_opening(game, after):
            # Refuse the action (429) rather than acknowledge it and keep the reply waiting.
            self.engine.check_room(MOVE)
        await self._set_opening(game, after)
        self._schedule(game)
        return game

    async def invite(self, game_id: str, seat: OpeningPlayer, token_hash: str,
                     caller: Caller) -> Game:
        """Let a friend play ``seat`` on their own device with the token whose hash is
        ``token_hash``; the creator's token plays the other seat from then on. A new
        invitation replaces the last one (its link stops working)."""
        async with self._held(game_id, caller) as (game, _):
            return await self._invite(game, seat, token_hash)

    async def _invite(self, game: Game, seat: OpeningPlayer, token_hash: str) -> Game:
        if COMPUTER in (game.saved.black, game.saved.white):
            raise NotBetweenPeopleError("only a game between two people can be played "
                                        "on two devices: this one has the computer in it")
        if game.over:
            raise GameOverError(_over_reason(game))
        saved = game.saved
        saved.guest_token_hash, saved.guest_seat, saved.guest_joined = token_hash, seat.label, False
        await self._commit(game, functools.partial(
            self.store.set_guest, game.id, token_hash, seat.label))
        clock = game.clock
        if clock is not None and clock.running is not None and game.moves_played < 2:
            # The friend is not here yet: the clock waits for each side's first move.
            game.clock = GameClock(initial_ms=clock.initial_ms, increment_ms=clock.increment_ms)
            saved.clock = game.clock.to_dict()
            await self._commit(game, functools.partial(self.store.set_clock, game.id, saved.clock))
            self._disarm_flag(game)
        game.version += 1
        self._publish(game)
        return game

    async def rematch(self, game_id: str, caller: Caller) -> Game:
        """The finished game played again on an empty board with the same settings and
        tokens, the sides changed over (under an opening rule, the seats), a friend's
        included. Asked for again, by either player, it is the same rematch."""
        async with self._held(game_id, caller) as (game, seat):
            return await self._rematch(game, seat)

    async def _rematch(self, game: Game, seat: OpeningPlayer | None) -> Game:
        if not game.over:
            raise GameNotOverError("a rematch starts once the game is over: resign first "
                                   "to end it now")
        saved = game.saved
        try:
            rematch = await self.get(saved.rematch) if saved.rematch else None
        except UnknownGameError:  # deleted since: play it again anew
            rematch = None
        if rematch is None:
            friend = game.friend
            rematch = await self.create(
                width=saved.width, height=saved.height, rule=game.board.rule,
                black=game.second_player, white=game.first_player, level=saved.level,
                time_ms=saved.time_ms, token_hash=saved.token_hash,
                opening=OpeningRule.parse(saved.opening),
                clock=None if game.clock is None else str(game.clock),
                guest=None if friend is None else (saved.guest_token_hash, friend.other),
                rematch_of=game.id)
            saved.rematch = rematch.id
            game.version += 1
            self._publish(game)  # the other player's page learns of it
        if seat is not None and seat is game.friend:
            async with self._held(rematch.id) as (again, _):
                return await self._join(again, again.friend)  # the friend is there
        return rematch

    async def join(self, game_id: str, caller: Caller) -> Game:
        """The invited friend has opened the invitation; a call from the creator changes
        nothing."""
        async with self._held(game_id, caller) as (game, seat):
            return await self._join(game, seat)

    async def _join(self, game: Game, seat: OpeningPlayer | None) -> Game:
        saved = game.saved
        if seat is not None and seat is game.friend and not saved.guest_joined:
            saved.guest_joined = True
            await self._commit(game, functools.partial(
                self.store.set_guest, game.id, saved.guest_token_hash, saved.guest_seat,
                joined=True))
            game.version += 1
            self._publish(game)
        return game

    async def record(self, game_id: str, fmt: str) -> str:
        game = await self.get(game_id)
        saved = game.saved
        record = GameRecord.from_board(
            game.board,
            black=_player_name(saved.black, saved.level),
            white=_player_name(saved.white, saved.level),
            times_ms=list(game.times_ms),
            opening=game.opening,
            clock="" if game.clock is None else str(game.clock),
            loser=game.loser, termination=game.saved.termination,
        )
        return to_psq(record) if fmt == "psq" else to_json(record)

    # -- live updates ----------------------------------------------------------

    def subscribe(self, game: Game) -> asyncio.Queue[Update]:
        """A queue that receives None after every change of the game and the
        computer's progress reports while it searches."""
        queue: asyncio.Queue[Update] = asyncio.Queue()
        game.watchers.add(queue)
        game.last_seen = time.monotonic()
        return queue

    def unsubscribe(self, game: Game, queue: asyncio.Queue[Update]) -> None:
        game.watchers.discard(queue)
        game.last_seen = time.monotonic()

    # -- internals -------------------------------------------------------------

    async def _load(self, saved: StoredGame, replayed: tuple[Board, Opening | None]) -> Game:
        """The game in memory, from what the store saved and its board and opening
        replayed (or as another request loaded it meanwhile)."""
        loaded = self._games.get(saved.id)
        if loaded is not None:
            return loaded
        board, opening = replayed
        times = (saved.times_ms + [0] * len(saved.moves))[: len(saved.moves)]
        clock = None if saved.clock is None else GameClock.from_dict(saved.clock)
        game = Game(saved=saved, board=board, times_ms=times, opening=opening, clock=clock)
        self._games[saved.id] = game
        async with game.lock:
            await self._check_clock(game)  # it may have run out since it was last looked at
            self._arm_flag(game)
        return game

    async def _set_opening(self, game: Game, opening: Opening) -> None:
        """Take the opening after an action: its stones are the game's, its colours the
        players'; commit them, then tell the watchers."""
        game.opening = opening
        game.board = opening.board.copy()
        game.times_ms = [0] * len(game.board)
        saved = game.saved
        saved.black = game.who(opening.player(Color.BLACK))
        saved.white = game.who(opening.player(Color.WHITE))
        saved.opening_actions = list(opening.history)
        clock = game.clock
        if clock is not None and opening.done and clock.running is None:
            clock.start(game.board.to_move, time.time())  # the moves begin
        await self._commit(game, functools.partial(
            self.store.set_opening, game.id, list(opening.history), black=saved.black,
            white=saved.white, moves=list(game.board.move_stack), times_ms=list(game.times_ms),
            clock=None if clock is None else clock.to_dict()))
        game.last_search = None
        game.version += 1
        game.progress = None
        self._arm_flag(game)
        self._publish(game)

    def _computer_after_opening(self, game: Game, opening: Opening) -> bool:
        """Whether the computer will be to act (or to move) once ``opening`` is taken."""
        if opening.to_act is not None:
            return game.who(opening.to_act) == COMPUTER
        board = opening.board
        return not board.is_game_over() and game.who(opening.player(board.to_move)) == COMPUTER

    # -- the clock -------------------------------------------------------------

    async def _check_clock(self, game: Game) -> None:
        """End the game if the clock of the side to move has run out."""
        clock = game.clock
        if clock is None or game.over:
            return
        flagged = clock.flagged(time.time())
        if flagged is not None:
            await self._end_off_the_board(game, flagged, TIME_FORFEIT)

    async def _end_off_the_board(self, game: Game, loser: Color, termination: str) -> None:
        """``loser`` loses by ``termination`` (its time ran out, or it resigned)."""
        if game.clock is not None:
            game.clock.stop(time.time())
        game.saved.loser = loser.label
        game.saved.termination = termination
        await self._changed(game)

    def _press_clock(self, game: Game) -> int:
        """The side to move has moved: the time its move took (ms), taken off its clock
        (0 without a clock). On two devices a clock that waits for each side's first
        move starts after the second side's."""
        clock = game.clock
        if clock is None:
            return 0
        if clock.running is None:
            if game.friend is not None and game.moves_played >= 1:
                clock.start(game.board.to_move.other, time.time())
            return 0
        return clock.press(time.time())

    def _disarm_flag(self, game: Game) -> None:
        if game.flag_timer is not None:
            game.flag_timer.cancel()
            game.flag_timer = None

    def _forget(self, game: Game) -> None:
        """Drop the game from memory (the store keeps it); its timer goes with it, so
        that only the copy loaded next may change the game."""
        self._disarm_flag(game)
        self._games.pop(game.id, None)

    def _arm_flag(self, game: Game) -> None:
        """Set the timer that ends the game when the running clock runs out."""
        self._disarm_flag(game)
        clock = game.clock
        if clock is None or clock.running is None or game.over:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a game loaded outside one): checked on use
            return
        left_s = clock.left_ms(clock.running, time.time()) / 1000
        game.flag_timer = loop.call_later(
            max(0.0, left_s) + 0.01, self._flag_fell, game, game.version)

    def _flag_fell(self, game: Game, version: int) -> None:
        """The timer: the game ends if the running clock has run out (a computer still
        thinking is stopped)."""
        game.flag_timer = None
        task = asyncio.get_running_loop().create_task(self._end_on_time(game, version))
        self._flags.add(task)
        task.add_done_callback(self._flags.discard)

    async def _end_on_time(self, game: Game, version: int) -> None:
        async with game.lock:
            clock = game.clock
            if self._games.get(game.id) is not game or game.version != version \
                    or clock is None or game.waiting:
                return  # a computer waiting for a worker: its clock restarts with its search
            if clock.flagged(time.time()) is None:  # the timer fired early
                self._arm_flag(game)
                return
            self._cancel(game)
            with contextlib.suppress(StoreUnavailableError):  # logged; loaded again as saved
                await self._check_clock(game)

    def _computer_clock(self, game: Game) -> MoveClock | None:
        """The computer's clock for its move, spent as a Gomocup brain spends a match
        clock (the game's time per move, if set, caps each move)."""
        clock = game.clock
        if clock is None or clock.running is None:
            return None
        return MoveClock(left_ms=clock.left_ms(clock.running, time.time()),
                         increment_ms=clock.increment_ms, turn_ms=game.saved.time_ms or 0)

    async def _push(self, game: Game, point: Point, time_ms: int) -> None:
        game.board.push(point)
        game.times_ms.append(time_ms)
        await self._changed(game)

    async def _changed(self, game: Game) -> None:
        """Commit the game, then tell the watchers."""
        if game.clock is not None and game.board.is_game_over():
            game.clock.stop(time.time())
        await self._commit(game, functools.partial(
            self.store.set_moves, game.id, list(game.board.move_stack), list(game.times_ms),
            finished=game.over, clock=None if game.clock is None else game.clock.to_dict(),
            loser=game.saved.loser, termination=game.saved.termination))
        game.version += 1
        game.progress = None
        self._arm_flag(game)
        self._publish(game)

    async def _commit(self, game: Game, save: Callable[[], None]) -> None:
        """Save the game's change made in memory with ``save`` (under the game's lock). If
        the store fails, the change is dropped with the game, which its next request loads
        as last saved (its watchers connect again for it), and a StoreUnavailableError
        says so."""
        try:
            await self.in_store_by(
                store_deadline() if game.answer_by is None else game.answer_by, save)
        except sqlite3.Error as error:
            log.exception("cannot save game %s", game.id)
            self._drop(game)
            raise StoreUnavailableError(
                f"the game could not be saved ({error}), so nothing was changed: try again "
                "in a moment") from None
        except asyncio.CancelledError:
            self._drop(game)  # saved or not: the store says, when it is loaded again
            raise

    def _drop(self, game: Game) -> None:
        self._cancel(game)
        self._forget(game)
        self._reload_watchers(game)

    @staticmethod
    def _reload_watchers(game: Game) -> None:
        """End the watchers' streams of a game dropped from memory: they connect again."""
        for queue in game.watchers:
            queue.put_nowait(RELOAD)

    def _publish(self, game: Game) -> None:
        if not game.thinking:
            game.progress = None
            game.waiting = False
        for queue in game.watchers:
            queue.put_nowait(None)

    def _report(self, game: Game, version: int, info: SearchInfo) -> None:
        """Pass on the search's progress, unless the game has moved on since it started."""
        if game.version != version or not game.thinking:
            return
        game.progress = {
            "type": "progress", "game_id": game.id, "version": version,
            "depth": info.depth, "score": info.score, "score_text": info.score_text,
            "mate": info.mate, "nodes": info.nodes, "nps": info.nps, "time_ms": info.time_ms,
            "move": list(info.pv[0]) if info.pv else None,
            "pv": [list(point) for point in info.pv],
        }
        for queue in game.watchers:
            queue.put_nowait(game.progress)

    def _cancel(self, game: Game) -> None:
        task, game.task = game.task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _watched(self, game: Game) -> bool:
        return bool(game.watchers) or time.monotonic() - game.last_seen < self.idle_seconds

    def _schedule(self, game: Game) -> None:
        """Start the computer's search if it is to move (or to act in the opening) and
        not already thinking."""
        if game.thinking or not game.computer_to_act:
            return
        if HUMAN not in (game.saved.black, game.saved.white) and not self._watched(game):
            return
        game.waiting = True
        game.task = asyncio.get_running_loop().create_task(self._play_computer(game))
        self._publish(game)

    async def _play_computer(self, game: Game) -> None:
        try:
            while game.computer_to_act:
                # Two computers: pause when nobody is watching; watching resumes the game.
                if HUMAN not in (game.saved.black, game.saved.white) and not self._watched(game):
                    break
                version = game.version
                game.waiting = True
                if game.in_opening:
                    if not await self._act_in_opening(game, version):
                        break
                    if game.task is None:
                        return
                    continue
                # The game's own later moves are never refused: its move was acknowledged.
                searched = await self.engine.search(
                    game.board.copy(), game.limit, key=game.id, bounded=False,
                    on_info=functools.partial(self._report, game, version),
                    on_start=functools.partial(self._search_started, game, version),
                    on_retry=functools.partial(self._search_lost, game, version),
                    clock=self._computer_clock(game))
                async with game.lock:
                    if game.version != version:  # changed meanwhile: the result is stale
                        continue
                    await self._check_clock(game)
                    if game.over:  # its time ran out as the move came
                        break
                    result = searched.result
                    reason = game.board.illegal_reason(result.move)
                    if reason is not None:
                        log.error("engine played an illegal move in game %s: %s",
                                  game.id, reason)
                        break
                    game.last_search = result
                    game.last_queued_ms = searched.queued_ms
                    # The task counts as finished before the last move is announced.
                    if not self._computer_after(game, result.move):
                        game.task = None
                    else:
                        game.waiting = True  # its next search is queued at once
                    spent = self._press_clock(game)
                    await self._push(game, result.move,
                                     result.time_ms if game.clock is None else spent)
                    if game.task is None:
                        return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("engine failed in game %s", game.id)
        if game.task is asyncio.current_task():
            game.task = None
            self._publish(game)

    async def _act_in_opening(self, game: Game, version: int) -> bool:
        """The computer's turn in the opening: its actions, decided in a worker, taken.
        False when they cannot be taken (the game then waits)."""
        opening = game.opening
        assert opening is not None
        saved = game.saved
        level = game.level
        budget = saved.time_ms if saved.time_ms is not None else (
            level.limit.time_ms or OPENING_TURN_MS)
        # The game's own later turns are never refused: the turn before was acknowledged.
        (actions, search), _ = await self.engine.run(
            opening_decision, saved.width, saved.height, game.board.rule.value,
            opening.rule.value, list(opening.history), budget, level.limit_for,
            key=game.id, priority=MOVE, bounded=False, stoppable=True,
            on_start=functools.partial(self._search_started, game, version),
            on_retry=functools.partial(self._search_lost, game, version))
        async with game.lock:
            if game.version != version:  # changed meanwhile: the decision is stale
                return True
            after = _replayed(game)
            try:
                for text in actions:
                    after.apply(text)
            except ValueError:
                log.exception("the computer's opening actions %s failed in game %s",
                              actions, game.id)
                return False
            # A move found while deciding the last step is the computer's first move when it
            # is to move then: played at once rather than searched for again.
            board = after.board
            if (search is None or not after.done
                    or board.illegal_reason(search.move) is not None
                    or game.who(after.player(board.to_move)) != COMPUTER):
                search = None
            # The task counts as finished before the actions are announced.
            if search is None and not self._computer_after_opening(game, after):
                game.task = None
            else:
                game.waiting = True  # its next turn is queued at once
            await self._set_opening(game, after)
            if search is not None:
                if not self._computer_after(game, search.move):
                    game.task = None
                game.last_search, game.last_queued_ms = search, 0
                self._press_clock(game)  # started as the opening ended: nothing spent
                await self._push(game, search.move, search.time_ms)
            return True

    def _search_started(self, game: Game, version: int) -> None:
        """A worker took the computer's move: it is thinking now, no longer waiting, and
        its clock runs from now (the wait, and a search lost with its worker, are not
        charged to it)."""
        if game.version == version and game.waiting:
            game.waiting = False
            clock = game.clock
            if clock is not None and clock.running is not None and game.computer_to_move:
                clock.since = time.time()
                self._arm_flag(game)
            self._publish(game)

    def _search_lost(self, game: Game, version: int) -> None:
        """The computer's search died with its worker and waits for another: its clock
        stands still again, as before the search began."""
        if game.version == version and not game.waiting:
            game.waiting = True
            self._publish(game)

    def _computer_after(self, game: Game, move: Point) -> bool:
        """Whether the computer will still be to move once ``move`` is played."""
        board = game.board.copy()
        board.push(move)
        return not board.is_game_over() and game.player(board.to_move) == COMPUTER


def _replay(width: int, height: int, rule: Rule, opening_rule: OpeningRule,
            actions: list[str], moves: list[Point]) -> tuple[Board, Opening | None]:
    """The board after ``moves``, and the opening whose ``actions`` placed their first
    stones (None without an opening rule); a ValueError names what fails. Thousands of
    moves take a tenth of a second and more: called off the event loop."""
    board = Board(width, height, rule=rule)
    opening = game_opening(opening_rule, board.copy(), actions, moves)
    board.push_many(moves)
    return board, opening


def _replay_saved(saved: StoredGame) -> tuple[Board, Opening | None]:
    return _replay(saved.width, saved.height, Rule.from_name(saved.rule),
                   OpeningRule.parse(saved.opening), saved.opening_actions, saved.moves)


def _read_record(text: str, rule: Rule | None) -> GameRecord:
    """The record in ``text`` (``.psq`` or JSON, told apart by their content), its moves
    checked under ``rule`` if one is given; called off the event loop, as :func:`_replay`."""
    if is_psq(text):
        return from_psq(text, rule or Rule.FREESTYLE)
    record = from_json(text)
    if rule is not None and rule is not record.rule:
        record.rule = rule
        record.to_board()  # the moves must be legal under the rule asked for
    return record


def _opening_for_human(game: Game, *, instead: str) -> Opening:
    """The game's opening, where a human is to act in it; else a GameError saying why
    not and, where there is no opening to act in, what to do ``instead``."""
    opening = game.opening
    if opening is None:
        raise NoOpeningError(f"this game has no opening rule: {instead}")
    if opening.done:
        raise OpeningOverError(f"the opening is over: {instead}")
    if game.opening_actor != HUMAN:
        assert opening.to_act is not None
        raise NotYourTurnError(f"it is the computer's turn in the opening (the "
                               f"{opening.to_act.label} player): wait for its choice")
    return opening


def _replayed(game: Game) -> Opening:
    """A copy of the game's opening, to try actions on."""
    opening = game.opening
    assert opening is not None
    saved = game.saved
    return Opening.replay(opening.rule, Board(saved.width, saved.height, rule=game.board.rule),
                          opening.history)


def _no_hints_between_devices(game: Game) -> None:
    """Hints help whoever asks, and anyone may ask: between two devices they would
    help one player against the other."""
    if game.friend is not None:
        raise TwoDevicesError("hints are off in a game played on two devices, where "
                              "they would help one player against the other; the game's "
                              "review is open once it is over")


def _over_reason(game: Game) -> str:
    loser, termination = game.loser, game.saved.termination
    if not termination:
        return f"the game is over ({game.board.outcome()})"
    wins = "" if loser is None else f", {loser.other.label} wins"
    return f"the game is over: {ending_text(loser, termination)}{wins}"


def _opening_first(game: Game) -> str:
    opening = game.opening
    assert opening is not None and opening.to_act is not None
    return (f"the opening ({opening.rule.display_name}) is under way: the "
            f"{opening.to_act.label} player's turn to {opening.prompt()}; opening actions "
            f"go to POST /api/gomoku/games/{game.id}/opening")
