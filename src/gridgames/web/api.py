"""The JSON API: thin handlers that turn requests into service calls and back."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response, WebSocket, WebSocketDisconnect
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection

from gridgames import queens
from gridgames.gomoku import Color, Outcome, Rule, puzzles
from gridgames.gomoku.ai import LEVELS, SearchResult
from gridgames.gomoku.opening_rules import Opening, OpeningRule
from gridgames.gomoku.opening_rules import Player as OpeningPlayer
from gridgames.web import schemas as s
from gridgames.web.auth import Player, Seated, new_token
from gridgames.web.engine import EnginePool
from gridgames.web.games import RELOAD, Game, GomokuService, UnknownGameError

_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": s.ErrorBody} for code in (404, 409, 422)
}
# Routes that change a game: also 403 without the player token.
_PLAYER_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": s.ErrorBody} for code in (403, 404, 409, 422)
}
_BUSY: dict[int | str, dict[str, Any]] = {
    429: {"model": s.ErrorBody, "description": "every engine is busy; see Retry-After"}
}

router = APIRouter(prefix="/api", responses={code: {"model": s.ErrorBody} for code in (400, 422)})


def service_of(connection: HTTPConnection) -> GomokuService:
    service: GomokuService = connection.app.state.service
    return service


def engine_of(connection: HTTPConnection) -> EnginePool:
    engine: EnginePool = connection.app.state.engine
    return engine


Service = Annotated[GomokuService, Depends(service_of)]
Engine = Annotated[EnginePool, Depends(engine_of)]


def _squares(pairs: list[list[int]]) -> list[tuple[int, int]]:
    return [(pair[0], pair[1]) for pair in pairs]


def search_out(result: SearchResult, queued_ms: int = 0) -> s.SearchOut:
    return s.SearchOut(
        move=list(result.move), score=result.score, score_text=result.score_text, mate=result.mate,
        depth=result.depth, pv=s.pairs(result.pv), nodes=result.nodes, time_ms=result.time_ms,
        queued_ms=queued_ms,
    )


def game_state(game: Game) -> s.GameState:
    return s.GameState(**_state_fields(game))


def _outcome_out(game: Game) -> s.OutcomeOut | None:
    """Five or a draw on the board, or an end off it (time, resignation, or one an imported
    record does not say): its line is then empty, and ``termination`` says which."""
    loser, termination = game.loser, game.saved.termination
    if termination:
        outcome: Outcome | None = Outcome(None if loser is None else loser.other)
        draw_reason = "" if loser is not None else "the record does not say how"
    else:
        outcome = game.board.outcome()
        draw_reason = "" if outcome is None else outcome.draw_reason
    if outcome is None:
        return None
    return s.outcome_out(outcome, draw_reason=draw_reason, termination=termination)


def _state_fields(game: Game) -> dict[str, Any]:
    board, saved = game.board, game.saved
    clock = game.clock
    # a computer's move waiting for a free engine: its clock stands still meanwhile
    paused = clock is not None and game.thinking and game.waiting and game.computer_to_move
    now = clock.since if paused and clock is not None else time.time()
    return dict(
        id=game.id,
        width=board.width,
        height=board.height,
        rule=board.rule,
        moves=s.pairs(board.move_stack),
        to_move=board.to_move.label,
        outcome=_outcome_out(game),
        forbidden=s.pairs(sorted(board.forbidden_points())),
        players=s.Players(black=saved.black, white=saved.white),  # type: ignore[arg-type]
        level=saved.level,
        time_ms=saved.time_ms,
        thinking=game.thinking,
        waiting=game.thinking and game.waiting,
        last_search=None if game.last_search is None
        else search_out(game.last_search, game.last_queued_ms),
        version=game.version,
        opening=None if game.opening is None else _opening_out(game, game.opening),
        clock=None if clock is None else s.ClockOut(
            text=str(clock), initial_ms=clock.initial_ms, increment_ms=clock.increment_ms,
            black_ms=max(0, clock.left_ms(Color.BLACK, now)),
            white_ms=max(0, clock.left_ms(Color.WHITE, now)),
            running=None if clock.running is None else clock.running.label,  # type: ignore[arg-type]
            paused=paused),
        friend=None if game.friend is None else game.friend.label,
        friend_joined=game.saved.guest_joined,
        rematch=game.saved.rematch or None,
    )


def _opening_out(game: Game, opening: Opening) -> s.OpeningOut:
    first, second = OpeningPlayer.FIRST, OpeningPlayer.SECOND
    declaring = "declare" in opening.allowed
    return s.OpeningOut.model_validate(dict(
        rule=opening.rule,
        name=opening.rule.display_name,
        renju_opening=opening.renju_name,
        done=opening.done,
        to_act=None if opening.to_act is None else opening.to_act.label,
        actor=game.opening_actor,
        allowed=list(opening.allowed),
        prompt=opening.prompt(),
        declared=opening.declared,
        most_offers=opening.most_offers() if declaring else 0,
        offer_count=opening.offer_count() if "offer" in opening.allowed else 0,
        offers=s.pairs(opening.offers),
        history=list(opening.history),
        players={"first": game.who(first), "second": game.who(second)},
        colors={"first": opening.color(first).label, "second": opening.color(second).label},
        stones=len(opening.board),
    ))


# -- Gomoku --------------------------------------------------------------------


@router.get("/gomoku/options", response_model=s.Options, tags=["gomoku"])
async def gomoku_options() -> Response:
    """Rules, levels and board sizes to choose from."""
    return Response(_options_json(), media_type="application/json")


@functools.cache
def _options_json() -> bytes:
    return s.Options(
        rules=[s.RuleInfo(name=rule, description=rule.description) for rule in Rule],
        levels=[s.LevelInfo(number=lv.number, name=lv.name, description=lv.description)
                for lv in LEVELS],
        openings=[s.OpeningInfo(name=rule, title=rule.display_name if rule is not
                                OpeningRule.FREE else "None",
                                description=rule.description) for rule in OpeningRule],
        min_size=s.MIN_BOARD,
        max_size=s.MAX_BOARD,
    ).model_dump_json().encode()


@router.post("/gomoku/games", status_code=201, response_model=s.NewGameState,
             responses=_BUSY, tags=["gomoku"])
async def create_game(body: s.NewGame, service: Service) -> s.NewGameState:
    """Start a game; if the computer plays black (or, under an opening rule, is the first
    player) it starts thinking at once.

    The reply's ``token`` is the player token: the game's link without it only watches."""
    token, token_hash = new_token()
    game = await service.create(width=body.width, height=body.height, rule=body.rule,
                                black=body.black, white=body.white, level=body.level,
                                time_ms=body.time_ms, token_hash=token_hash,
                                opening=body.opening, clock=body.clock)
    return s.NewGameState(**_state_fields(game), token=token)


@router.post("/gomoku/games/import", status_code=201, response_model=s.NewGameState,
             responses={**_ERRORS, **_BUSY}, tags=["gomoku"])
async def import_game(body: s.ImportGame, service: Service) -> s.NewGameState:
    """Continue a saved record (``.psq`` or JSON) as a new game, with a new player token."""
    token, token_hash = new_token()
    game = await service.import_record(
        body.text, rule=body.rule, black=body.black, white=body.white, level=body.level,
        time_ms=body.time_ms, token_hash=token_hash, opening=body.opening, clock=body.clock)
    return s.NewGameState(**_state_fields(game), token=token)


@router.get("/gomoku/games/{game_id}", response_model=s.GameState, responses=_ERRORS,
            tags=["gomoku"])
async def get_game(game_id: str, service: Service) -> Response:
    """The game now. Clients that poll get the same bytes until the game changes."""
    game = await service.get(game_id)
    key = (game.version, game.thinking, game.thinking and game.waiting)
    if game.clock is not None and game.clock.running is not None:
        # the time left changes by itself: always the state now
        return Response(game_state(game).model_dump_json().encode(),
                        media_type="application/json")
    if game.state_cache is None or game.state_cache[0] != key:
        game.state_cache = (key, game_state(game).model_dump_json().encode())
    return Response(game.state_cache[1], media_type="application/json")


@router.delete("/gomoku/games/{game_id}", status_code=204, responses=_PLAYER_ERRORS,
               tags=["gomoku"])
async def delete_game(player: Player, service: Service) -> Response:
    """Abandon a game: stop the computer's search and forget the game (players only)."""
    await service.delete(player.game_id, player)
    return Response(status_code=204)


@router.post("/gomoku/games/{game_id}/moves", response_model=s.GameState,
             responses={**_PLAYER_ERRORS, **_BUSY}, tags=["gomoku"])
async def play_move(player: Seated, move: s.Move, service: Service) -> s.GameState:
    """Play a human move (players only; a friend's token, or the creator's once a friend
    is invited, plays its own seat's moves). When the computer replies, its move follows
    on the live stream. Refused with 429 (the game unchanged) while too many moves wait
    for an engine."""
    return game_state(await service.play(player.game_id, move.x, move.y, player))


@router.post("/gomoku/games/{game_id}/opening", response_model=s.GameState,
             responses={**_PLAYER_ERRORS, **_BUSY}, tags=["gomoku"])
async def opening_action(player: Seated, body: s.OpeningAction,
                         service: Service) -> s.GameState:
    """Take a human's action in the opening (players only): ``place h8``, ``choose black``,
    ``choose white``, ``declare 3``, ``offer h6 j7 g10`` or ``pick j7``. The state's
    ``opening`` says which are allowed now; the computer's actions follow on the live
    stream. Refused with 422 (the game unchanged) when the opening does not allow it."""
    return game_state(await service.act(player.game_id, body.action, player))


@router.post("/gomoku/games/{game_id}/undo", response_model=s.GameState,
             responses=_PLAYER_ERRORS, tags=["gomoku"])
async def undo_move(player: Seated, service: Service) -> s.GameState:
    """Take back the last human move (and the computer's reply, or its search); players only.
    Not in a game on a clock, nor in one played on two devices, nor after a resignation
    (409)."""
    return game_state(await service.undo(player.game_id, player))


@router.post("/gomoku/games/{game_id}/resign", response_model=s.GameState,
             responses=_PLAYER_ERRORS, tags=["gomoku"])
async def resign(player: Seated, service: Service) -> s.GameState:
    """Resign (players only): against the computer the human's colour loses, between two
    people on one device the side to move, on two devices the caller's own colour. Not
    during an opening, nor once the game is over (409)."""
    return game_state(await service.resign(player.game_id, player))


@router.post("/gomoku/games/{game_id}/invite", response_model=s.Invitation,
             responses=_PLAYER_ERRORS, tags=["gomoku"])
async def invite(player: Player, body: s.InviteRequest, service: Service) -> s.Invitation:
    """Invite a friend to play one seat of a game between two people on their own device
    (the game's creator only). The answer holds the friend's token, which plays that seat
    alone; the creator's token plays the other one from then on, and moves can no longer
    be taken back. Inviting again gives a new token and voids the last one. 409 for a
    game with the computer in it, or one that is over."""
    token, digest = new_token()
    seat = OpeningPlayer[body.seat.upper()]
    return s.Invitation(token=token, seat=body.seat,
                        game=game_state(await service.invite(player.game_id, seat, digest,
                                                             player)))


@router.post("/gomoku/games/{game_id}/rematch", response_model=s.GameState,
             responses={**_PLAYER_ERRORS, **_BUSY}, tags=["gomoku"])
async def rematch(player: Seated, service: Service) -> s.GameState:
    """Play a finished game again (its players only): a new game on an empty board with
    the same rule, size, opening rule, level, time and clock, the sides changed over
    (under an opening rule, the first and second players). The players keep their
    tokens, a friend on another device included; the finished game's ``rematch`` names
    the new one, so the other player's page can follow, and asking again gives the same
    game. 409 while the game is not over."""
    return game_state(await service.rematch(player.game_id, player))


@router.post("/gomoku/games/{game_id}/join", response_model=s.GameState,
             responses=_PLAYER_ERRORS, tags=["gomoku"])
async def join(player: Seated, service: Service) -> s.GameState:
    """The invited friend's page says it has opened the invitation (the state's
    ``friend_joined``); with the creator's token it changes nothing."""
    return game_state(await service.join(player.game_id, player))


@router.get("/gomoku/games/{game_id}/hint", response_model=s.SearchOut,
            responses={**_ERRORS, **_BUSY}, tags=["gomoku"])
async def hint(game_id: str, service: Service) -> s.SearchOut:
    """The engine's suggestion for the side to move, with its score (after games' moves)."""
    searched = await service.hint(game_id)
    return search_out(searched.result, searched.queued_ms)


@router.get("/gomoku/games/{game_id}/opening/hint", response_model=s.OpeningHint,
            responses={**_ERRORS, **_BUSY}, tags=["gomoku"])
async def opening_hint(game_id: str, service: Service) -> s.OpeningHint:
    """What the computer would do for the human to act in the opening (a hint)."""
    actions, points = await service.opening_hint(game_id)
    return s.OpeningHint(actions=actions, points=s.pairs(points))


@router.get("/gomoku/games/{game_id}/record", responses={
    **_ERRORS, 200: {"content": {"text/plain": {}, "application/json": {}}}}, tags=["gomoku"])
async def download_record(game_id: str, service: Service,
                    format: Literal["psq", "json"] = "psq") -> Response:
    """The game record as a file: Piskvork ``.psq`` or gridgames JSON."""
    text = await service.record(game_id, format)
    media = "application/json" if format == "json" else "text/plain; charset=utf-8"
    filename = f"gomoku-{game_id}.{format}"
    return Response(text + "\n", media_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@router.websocket("/gomoku/games/{game_id}/ws")
async def game_stream(websocket: WebSocket, game_id: str) -> None:
    """Sends ``{"type": "state", "game": ...}`` now and after every change of the game,
    and ``{"type": "progress", ...}`` after each depth of the computer's search."""
    service = service_of(websocket)
    try:
        game = await service.get(game_id)
    except UnknownGameError:
        # Accepted first: closed during the handshake, the client would see a bare HTTP 403
        # (as if it were not allowed), not that the game does not exist.
        await websocket.accept()
        await websocket.close(code=4404, reason="no such game")
        return
    await websocket.accept()
    queue = service.subscribe(game)

    async def send_updates() -> None:
        changed, progress = True, game.progress
        while True:
            if changed:
                # The state as saved: a change under way is waited for.
                if not await service.settled(game):
                    await websocket.close(code=1012, reason="the game is loaded again")
                    return
                await websocket.send_json({"type": "state", "game": game_state(game).model_dump(
                    mode="json")})
            # Progress after the state it belongs to, and only while it is current.
            if progress is not None and (progress is game.progress
                                         or progress.get("type") == "review"):
                await websocket.send_json(progress)
            updates = [await queue.get()]
            while not queue.empty():  # several updates at once: send the latest of each
                updates.append(queue.get_nowait())
            # The game was dropped from memory (deleted, or a change it could not save):
            # the client connects again, for the game as saved, or to learn it is gone.
            if any(update is RELOAD for update in updates):
                await websocket.close(code=1012, reason="the game is loaded again")
                return
            changed = None in updates
            progress = next((u for u in reversed(updates) if u is not None), None)

    sender = asyncio.create_task(send_updates())
    try:
        # What the client sends, text or binary, is ignored; only its leaving matters.
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass
    except WebSocketDisconnect:
        pass
    finally:
        sender.cancel()
        with contextlib.suppress(BaseException):
            await sender
        service.unsubscribe(game, queue)


# -- Puzzles -------------------------------------------------------------------


def _puzzle(puzzle_id: int) -> puzzles.Puzzle:
    try:
        return puzzles.get_puzzle(puzzle_id)
    except ValueError as error:
        raise HTTPException(404, str(error)) from None


def _summary_fields(puzzle: puzzles.Puzzle) -> dict[str, Any]:
    return dict(id=puzzle.id, rule=puzzle.rule, width=puzzle.width, height=puzzle.height,
                to_move=puzzle.to_move.label, length=puzzle.length, themes=list(puzzle.themes))


@functools.cache
def _puzzle_list_json() -> bytes:
    return s.PuzzleList(puzzles=[s.PuzzleSummary(**_summary_fields(p))
                                 for p in puzzles.load_puzzles()]).model_dump_json().encode()


def _judge_attempt(puzzle_id: int, played: list[tuple[int, int]], move: tuple[int, int]
                   ) -> tuple[puzzles.Verdict, list[tuple[int, int]]]:
    """In a worker: the verdict, and the renju points forbidden to black after it."""
    puzzle = puzzles.get_puzzle(puzzle_id)
    try:
        verdict = puzzles.judge(puzzle, played, move)
    except puzzles.SearchLimitError as error:
        return puzzles.Verdict("unknown", f"this move could not be judged: {error}"), []
    board = puzzles.attempt_board(puzzle, played)
    if verdict.kind == "continue" and verdict.reply is not None:
        board.push(move)
        board.push(verdict.reply)
    return verdict, sorted(board.forbidden_points())


def _hint(puzzle_id: int, played: list[tuple[int, int]]) -> str:
    try:
        return puzzles.hint(puzzles.get_puzzle(puzzle_id), played)
    except puzzles.SearchLimitError as error:
        return f"no hint here: {error}"


@router.get("/gomoku/puzzles", response_model=s.PuzzleList, tags=["puzzles"])
async def puzzle_list() -> Response:
    """Every "find the win" puzzle, easiest (fewest moves) first."""
    return Response(_puzzle_list_json(), media_type="application/json")


@router.get("/gomoku/puzzles/{puzzle_id}", response_model=s.PuzzleOut, responses=_ERRORS,
            tags=["puzzles"])
async def puzzle_position(puzzle_id: int) -> s.PuzzleOut:
    """A puzzle's position and one winning line."""
    puzzle = _puzzle(puzzle_id)
    return s.PuzzleOut(**_summary_fields(puzzle), moves=s.pairs(puzzle.moves),
                       forbidden=s.pairs(sorted(puzzle.board().forbidden_points())),
                       solution=s.pairs(puzzle.solution))


@router.post("/gomoku/puzzles/{puzzle_id}/attempt", response_model=s.PuzzleVerdict,
             responses={**_ERRORS, **_BUSY}, tags=["puzzles"])
async def puzzle_attempt(puzzle_id: int, body: s.PuzzleAttempt, engine: Engine,
                         request: Request) -> s.PuzzleVerdict:
    """Judge your next move after the moves so far (nothing is stored: send them each time).

    Any move that keeps a forced win by fours within the moves left is accepted."""
    puzzle = _puzzle(puzzle_id)
    played = _squares(body.played)
    puzzles.attempt_board(puzzle, played)  # bad lists fail here, not in a worker
    move = (body.move[0], body.move[1])
    (verdict, forbidden), _ = await engine.run(_judge_attempt, puzzle.id, played, move,
                                               key=client_key(request))
    return s.PuzzleVerdict(verdict=verdict.kind, message=verdict.message,  # type: ignore[arg-type]
                           reply=None if verdict.reply is None else list(verdict.reply),
                           moves_left=verdict.moves_left, five=s.pairs(verdict.five),
                           forbidden=s.pairs(forbidden))


@router.post("/gomoku/puzzles/{puzzle_id}/hint", response_model=s.PuzzleHint,
             responses={**_ERRORS, **_BUSY}, tags=["puzzles"])
async def puzzle_hint(puzzle_id: int, body: s.PuzzleProgress, engine: Engine,
                      request: Request) -> s.PuzzleHint:
    """A nudge toward a winning move from the moves so far."""
    puzzle = _puzzle(puzzle_id)
    played = _squares(body.played)
    puzzles.attempt_board(puzzle, played)
    text, _ = await engine.run(_hint, puzzle.id, played, key=client_key(request))
    return s.PuzzleHint(hint=text)


# -- N-Queens ------------------------------------------------------------------


def client_key(request: Request) -> str:
    """Whose job this is, so that clients take turns in the engine queue."""
    return request.client.host if request.client is not None else ""


@router.post("/queens/solve", response_model=s.QueensSolution,
             responses={**_ERRORS, **_BUSY}, tags=["queens"])
async def queens_solve(body: s.QueensSolve, engine: Engine, request: Request) -> s.QueensSolution:
    """Complete the board keeping the given queens, or say there is no solution."""
    squares = _squares(body.queens)
    queens.Placement.from_queens(body.n, squares)  # bad input fails here, not in a worker
    solution, elapsed = await engine.run(queens.solve, body.n, squares,
                                         key=client_key(request))
    return s.QueensSolution(solution=None if solution is None else s.pairs(solution),
                            elapsed_ms=round(elapsed, 3))


@router.post("/queens/hint", response_model=s.QueensHint, responses={**_ERRORS, **_BUSY},
             tags=["queens"])
async def queens_hint(body: s.QueensSolve, engine: Engine, request: Request) -> s.QueensHint:
    """A square for the next queen that still leaves the board solvable."""
    placement = queens.Placement.from_queens(body.n, _squares(body.queens))
    square, _ = await engine.run(queens.hint, placement, key=client_key(request))
    return s.QueensHint(square=None if square is None else list(square))


@router.post("/queens/backtrack", response_model=s.QueensBacktrack,
             responses={**_ERRORS, **_BUSY}, tags=["queens"])
async def queens_backtrack(body: s.QueensBacktrackRequest, engine: Engine,
                           request: Request) -> s.QueensBacktrack:
    """The textbook backtracking search from the given queens, step by step (each queen
    placed and taken back, row by row from the top), to watch it: up to the first
    solution, a proof that none exists, or ``limit`` steps."""
    squares = _squares(body.queens)
    queens.Placement.from_queens(body.n, squares)  # bad input fails here, not in a worker
    run, _ = await engine.run(functools.partial(queens.backtrack, limit=body.limit),
                              body.n, squares, key=client_key(request))
    return s.QueensBacktrack(
        steps=[s.QueensStep(kind=step.kind, square=list(step.square)) for step in run.steps],
        solution=None if run.solution is None else s.pairs(run.solution),
        finished=run.finished)


@router.get("/queens/count", response_model=s.QueensCount, responses={**_ERRORS, **_BUSY},
            tags=["queens"])
async def queens_count(
    engine: Engine,
    request: Request,
    n: Annotated[int, Query(ge=1, le=s.MAX_QUEENS_COUNT,
                            description=f"board size, at most {s.MAX_QUEENS_COUNT}")],
) -> s.QueensCount:
    """How many solutions the N×N puzzle has (each size is counted once, then remembered)."""
    counts: dict[int, asyncio.Future[tuple[int, float]]] = request.app.state.queens_counts
    pending = counts.get(n)
    if pending is None or (pending.done() and (pending.cancelled()
                                               or pending.exception() is not None)):
        # Counting 16 takes seconds of CPU: requests for the same n share one count.
        pending = asyncio.ensure_future(engine.run(queens.count_solutions, n,
                                                   key=client_key(request)))
        counts[n] = pending
    count, elapsed = await asyncio.shield(pending)
    return s.QueensCount(n=n, solutions=count, elapsed_ms=round(elapsed, 3))
