"""Gomoku games served over the web: the core board, the saved record and the computer.

Everything here runs on the server's event loop, so a game is never changed by
two requests at once. The computer's moves come from :class:`EnginePool`
workers; a search is cancelled (and its late result ignored) when the game
changes under it. While it runs, its progress after each depth goes to the
game's watchers.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from gridgames.gomoku import Board, Color, Point, Rule
from gridgames.gomoku.ai import MAX_LEVEL, Limit, SearchInfo, SearchResult, get_level
from gridgames.gomoku.records import (
    GameRecord,
    from_json,
    from_psq,
    is_psq,
    to_json,
    to_psq,
)
from gridgames.store import GameNotFoundError, GameStore, StoredGame
from gridgames.web.engine import BACKGROUND, MOVE, EnginePool, Searched

log = logging.getLogger(__name__)

HUMAN, COMPUTER = "human", "computer"
HINT_LIMIT = Limit(time_ms=1000, nodes=60_000, depth=6)
# A computer-vs-computer game nobody has looked at for this long stops thinking
# until someone looks again.
IDLE_SECONDS = 120.0

# What a watcher's queue receives: None when the game changed (send the state
# again), or a progress report of the computer's search.
Update = dict[str, Any] | None


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

    @property
    def id(self) -> str:
        return self.saved.id

    def player(self, color: Color) -> str:
        return self.saved.black if color is Color.BLACK else self.saved.white

    @property
    def computer_to_move(self) -> bool:
        return not self.board.is_game_over() and self.player(self.board.to_move) == COMPUTER

    @property
    def thinking(self) -> bool:
        return self.task is not None and not self.task.done()

    @property
    def limit(self) -> Limit:
        # A game saved when there were more levels plays at the top one.
        return get_level(min(self.saved.level, MAX_LEVEL)).limit_for(self.saved.time_ms)


def _player_name(player: str, level: int) -> str:
    return f"level:{level}" if player == COMPUTER else ""


class GomokuService:
    """Creates, plays, undoes and saves games, and runs the computer's moves."""

    def __init__(self, store: GameStore, engine: EnginePool, *,
                 idle_seconds: float = IDLE_SECONDS) -> None:
        self.store = store
        self.engine = engine
        self.idle_seconds = idle_seconds
        self._games: dict[str, Game] = {}

    async def start(self) -> None:
        """Resume the games in which the computer was to move when the server stopped."""
        for saved in self.store.unfinished():
            to_move = saved.black if len(saved.moves) % 2 == 0 else saved.white
            if to_move == COMPUTER:
                try:
                    self._schedule(self._load(saved))
                except ValueError:
                    log.exception("cannot resume game %s", saved.id)

    async def close(self) -> None:
        tasks = [game.task for game in self._games.values() if game.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    # -- games ---------------------------------------------------------------

    def create(self, *, width: int, height: int, rule: Rule, black: str, white: str,
               level: int, time_ms: int | None, moves: list[Point] | None = None,
               times_ms: list[int] | None = None, token_hash: str = "") -> Game:
        board = Board(width, height, rule=rule)
        board.push_many(moves or [])
        if not board.is_game_over() and (black if board.to_move is Color.BLACK
                                         else white) == COMPUTER:
            self.engine.check_room(MOVE)  # its first search would wait too long
        saved = self.store.create(StoredGame(
            width=width, height=height, rule=rule.value, black=black, white=white,
            level=level, time_ms=time_ms, moves=list(board.move_stack),
            times_ms=list(times_ms or [0] * len(board.move_stack)),
            finished=board.is_game_over(), token_hash=token_hash,
        ))
        game = self._load(saved)
        self._schedule(game)
        return game

    def import_record(self, text: str, *, rule: Rule | None, black: str, white: str,
                      token_hash: str = "",
                      level: int, time_ms: int | None) -> Game:
        """A new game from a ``.psq`` or JSON record (told apart by their content)."""
        if is_psq(text):
            record = from_psq(text, rule or Rule.FREESTYLE)
        else:
            record = from_json(text)
            if rule is not None and rule is not record.rule:
                record.rule = rule
                record.to_board()  # the moves must be legal under the rule asked for
        times = record.times_ms or []
        times = (times + [0] * len(record.moves))[: len(record.moves)]
        return self.create(width=record.width, height=record.height, rule=record.rule,
                           black=black, white=white, level=level, time_ms=time_ms,
                           moves=record.moves, times_ms=times, token_hash=token_hash)

    def get(self, game_id: str) -> Game:
        """The game (loaded from the store if need be); looking at it keeps it alive."""
        game = self._games.get(game_id)
        if game is None:
            try:
                saved = self.store.get(game_id)
            except GameNotFoundError:
                cut = "..." if len(game_id) > 40 else ""  # a long id is not echoed whole
                raise UnknownGameError(f"there is no game {game_id[:40]!r}{cut}") from None
            game = self._load(saved)
        game.last_seen = time.monotonic()
        self._schedule(game)
        return game

    def delete(self, game_id: str) -> None:
        game = self.get(game_id)
        self._cancel(game)
        self._games.pop(game_id, None)
        self.store.delete(game_id)
        self._publish(game)

    def play(self, game_id: str, x: int, y: int) -> Game:
        """A human's move; raises a :class:`GameError` saying why it cannot be played."""
        game = self.get(game_id)
        board = game.board
        point = (x, y)
        reason = board.illegal_reason(point)
        if not board.contains(point):
            raise OffBoardError(reason)
        if board.is_game_over():
            raise GameOverError(reason)
        if game.player(board.to_move) != HUMAN:
            raise NotYourTurnError(f"it is the computer's turn to play {board.to_move.label}")
        if board[point] is not None:
            raise OccupiedError(reason)
        if reason is not None:
            raise ForbiddenError(reason)
        if not self.engine.has_room(MOVE) and self._computer_after(game, point):
            # Refuse the move (429) rather than acknowledge it and keep its reply waiting.
            self.engine.check_room(MOVE)
        self._push(game, point, 0)
        self._schedule(game)
        return game

    def undo(self, game_id: str) -> Game:
        """Take back moves until a human is to move (one move when both sides are human).

        Against the computer this takes back its reply too, or stops its search.
        """
        game = self.get(game_id)
        movers = [Color.BLACK if i % 2 == 0 else Color.WHITE
                  for i in range(len(game.board.move_stack))]
        human_moves = [i for i, color in enumerate(movers) if game.player(color) == HUMAN]
        if not human_moves:
            raise NothingToUndoError("there is no human move to take back")
        self._cancel(game)
        keep = human_moves[-1]  # moves before the last human move stay
        while len(game.board.move_stack) > keep:
            game.board.pop()
            game.times_ms.pop()
        game.last_search = None
        self._changed(game)
        return game

    async def hint(self, game_id: str) -> Searched:
        """The engine's suggestion for the human to move."""
        game = self.get(game_id)
        if game.board.is_game_over():
            raise GameOverError(f"the game is over ({game.board.outcome()})")
        if game.player(game.board.to_move) != HUMAN:
            raise NotYourTurnError("the computer is to move")
        return await self.engine.search(game.board.copy(), HINT_LIMIT, priority=BACKGROUND,
                                        key=game.id)

    def record(self, game_id: str, fmt: str) -> str:
        game = self.get(game_id)
        saved = game.saved
        record = GameRecord.from_board(
            game.board,
            black=_player_name(saved.black, saved.level),
            white=_player_name(saved.white, saved.level),
            times_ms=list(game.times_ms),
        )
        return to_psq(record) if fmt == "psq" else to_json(record)

    # -- live updates ----------------------------------------------------------

    def subscribe(self, game: Game) -> asyncio.Queue[Update]:
        """A queue that receives None after every change of the game and the
        computer's progress reports while it searches."""
        queue: asyncio.Queue[Update] = asyncio.Queue()
        game.watchers.add(queue)
        game.last_seen = time.monotonic()
        self._schedule(game)
        return queue

    def unsubscribe(self, game: Game, queue: asyncio.Queue[Update]) -> None:
        game.watchers.discard(queue)
        game.last_seen = time.monotonic()

    # -- internals -------------------------------------------------------------

    def _load(self, saved: StoredGame) -> Game:
        board = Board(saved.width, saved.height, rule=Rule.from_name(saved.rule))
        board.push_many(saved.moves)
        times = (saved.times_ms + [0] * len(saved.moves))[: len(saved.moves)]
        game = Game(saved=saved, board=board, times_ms=times)
        self._games[saved.id] = game
        return game

    def _push(self, game: Game, point: Point, time_ms: int) -> None:
        game.board.push(point)
        game.times_ms.append(time_ms)
        self._changed(game)

    def _changed(self, game: Game) -> None:
        """Commit the game, then tell the watchers."""
        self.store.set_moves(game.id, list(game.board.move_stack), list(game.times_ms),
                             finished=game.board.is_game_over())
        game.version += 1
        game.progress = None
        self._publish(game)

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
        if game.task is not None:
            game.task.cancel()
            game.task = None

    def _watched(self, game: Game) -> bool:
        return bool(game.watchers) or time.monotonic() - game.last_seen < self.idle_seconds

    def _schedule(self, game: Game) -> None:
        """Start the computer's search if it is to move and not already thinking."""
        if game.thinking or not game.computer_to_move:
            return
        if HUMAN not in (game.saved.black, game.saved.white) and not self._watched(game):
            return
        game.waiting = True
        game.task = asyncio.get_running_loop().create_task(self._play_computer(game))
        self._publish(game)

    async def _play_computer(self, game: Game) -> None:
        try:
            while game.computer_to_move:
                # Two computers: pause when nobody is watching; watching resumes the game.
                if HUMAN not in (game.saved.black, game.saved.white) and not self._watched(game):
                    break
                version = game.version
                game.waiting = True
                # The game's own later moves are never refused: its move was acknowledged.
                searched = await self.engine.search(
                    game.board.copy(), game.limit, key=game.id, bounded=False,
                    on_info=functools.partial(self._report, game, version),
                    on_start=functools.partial(self._search_started, game, version))
                if game.version != version:  # changed meanwhile: the result is stale
                    continue
                result = searched.result
                reason = game.board.illegal_reason(result.move)
                if reason is not None:
                    log.error("engine played an illegal move in game %s: %s", game.id, reason)
                    break
                game.last_search = result
                game.last_queued_ms = searched.queued_ms
                # The task counts as finished before the last move is announced.
                if not self._computer_after(game, result.move):
                    game.task = None
                else:
                    game.waiting = True  # its next search is queued at once
                self._push(game, result.move, result.time_ms)
                if game.task is None:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("engine failed in game %s", game.id)
        if game.task is asyncio.current_task():
            game.task = None
            self._publish(game)

    def _search_started(self, game: Game, version: int) -> None:
        """A worker took the computer's move: it is thinking now, no longer waiting."""
        if game.version == version and game.waiting:
            game.waiting = False
            self._publish(game)

    def _computer_after(self, game: Game, move: Point) -> bool:
        """Whether the computer will still be to move once ``move`` is played."""
        board = game.board.copy()
        board.push(move)
        return not board.is_game_over() and game.player(board.to_move) == COMPUTER
