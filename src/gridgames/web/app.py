"""The web app: the JSON API under ``/api`` and the static pages at ``/``."""

from __future__ import annotations

import asyncio
import gc
import json
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from gridgames import __version__
from gridgames.gomoku import Board, IllegalMoveError, InvalidMoveError, Rule
from gridgames.gomoku.records import RecordError
from gridgames.queens import QueenConflictError
from gridgames.store import GameStore
from gridgames.web import api, review
from gridgames.web.engine import EngineBusyError, EnginePool, check_workers
from gridgames.web.games import GameError, GomokuService
from gridgames.web.schemas import ErrorBody
from gridgames.web.security import MAX_BODY_BYTES, BodyLimit, BodyTooLargeError, SecurityHeaders

STATIC = Path(__file__).parent / "static"
# How long start-up waits for the engine workers to load the engine before it says
# it is ready anyway (a worker that never comes up is replaced on its first job).
WORKERS_READY_S = 120.0

# Core errors without a code of their own: (status, code), most specific first.
_CORE_ERRORS: tuple[tuple[type[ValueError], int, str], ...] = (
    (IllegalMoveError, 409, "illegal_move"),
    (InvalidMoveError, 422, "invalid_move"),
    (RecordError, 422, "bad_record"),
    (QueenConflictError, 422, "queen_conflict"),
)


def error_response(status: int, code: str, detail: str) -> JSONResponse:
    return JSONResponse({"error": code, "detail": detail}, status_code=status)


async def value_error(request: Request, exc: Exception) -> JSONResponse:
    """Core and game errors are ValueErrors whose message says what was wrong."""
    if isinstance(exc, GameError):
        return error_response(exc.status, exc.code, str(exc))
    for kind, status, code in _CORE_ERRORS:
        if isinstance(exc, kind):
            return error_response(status, code, str(exc))
    return error_response(422, "invalid_value", str(exc))


async def validation_error(request: Request, exc: Exception) -> JSONResponse:
    """Reshape FastAPI's validation report into the API's error body."""
    assert isinstance(exc, RequestValidationError)
    problems = []
    for error in exc.errors():
        if error.get("type") == "json_invalid":
            return error_response(400, "malformed_json", "the request body is not valid JSON")
        if tuple(error.get("loc", ())) == ("body",):  # the body as a whole
            problems.append("the request body must be a JSON object sent as application/json"
                            + (", and there is none" if error.get("type") == "missing" else
                               f": {error.get('msg')}"))
            continue
        where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
        problems.append(f"{where}: {error.get('msg')}" if where else str(error.get("msg")))
    return error_response(422, "invalid_request", "; ".join(problems) or "invalid request")


async def store_error(request: Request, exc: Exception) -> JSONResponse:
    """The game database could not be read or written (locked by another program, a full
    disk): nothing was changed, and the request may be tried again."""
    return error_response(503, "store_unavailable", f"the games could not be read or saved "
                          f"({exc}), so nothing was changed: try again in a moment")


async def engine_busy(request: Request, exc: Exception) -> JSONResponse:
    """Too much work waiting for the engines: come back after Retry-After seconds."""
    assert isinstance(exc, EngineBusyError)
    response = error_response(429, "busy", str(exc))
    response.headers["Retry-After"] = str(exc.retry_after)
    return response


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    # FastAPI reports any failure to read a body as "error parsing the body"
    if isinstance(exc.__cause__, BodyTooLargeError):
        return error_response(413, "body_too_large", str(exc.__cause__))
    if isinstance(exc.__cause__, RecursionError):
        return error_response(400, "malformed_json", "the request body nests its JSON too "
                                                     "deeply to be read")
    if isinstance(exc.__cause__, ValueError):  # Python reads no number of over 4,300 digits
        return error_response(400, "malformed_json", "the request body holds a number too "
                                                     "long to read")
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    detail = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail)
    return error_response(exc.status_code, code, detail)


def _warm_up_rules() -> None:
    """Load the rules' compiled kernels now: the first request must not wait for them."""
    for rule in Rule:
        board = Board(15, 15, rule=rule)
        for point in [(7, 7), (8, 8), (7, 8), (6, 6), (7, 6)]:
            board.illegal_reason(point)
            board.push(point)
            board.outcome()
            board.forbidden_points()
        board.copy().pop()


def create_app(db_path: str | Path | None = None, *, workers: int = 2,
               queue_limit: int | None = None, max_body_bytes: int = MAX_BODY_BYTES,
               on_ready: Callable[[], None] | None = None) -> FastAPI:
    """The app, saving games in ``db_path`` (default: the user's data folder) and
    running the engine in ``workers`` processes.

    At most ``queue_limit`` game moves wait for an engine (default: 4 per worker);
    past it, moves get 429 with Retry-After. Request bodies are limited to
    ``max_body_bytes``. ``on_ready`` is called once the engine workers have loaded
    the engine, before the first request is served. ``workers`` outside 1 to
    :data:`~gridgames.web.engine.MAX_WORKERS` is refused here, with a ValueError.
    """
    check_workers(workers)  # now, not once the server is starting

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        _warm_up_rules()
        store = GameStore(db_path)
        engine = EnginePool(workers, queue_limit=queue_limit)
        engine.start()
        service = GomokuService(store, engine)
        app.state.engine = engine
        app.state.service = service
        app.state.queens_counts = {}
        # A full garbage collection walks every object the imports made (numba, pydantic
        # ...), about 150 ms with the server stopped meanwhile; freezing them keeps later
        # collections to what requests allocate.
        gc.collect()
        gc.freeze()
        if on_ready is not None:
            await asyncio.to_thread(engine.wait_ready, WORKERS_READY_S)
        await service.start()  # the clocks run again from here
        if on_ready is not None:
            on_ready()
        try:
            yield
        finally:
            await service.close()
            engine.shutdown()
            store.close()

    app = FastAPI(
        title="gridgames",
        version=__version__,
        description=(
            "Gomoku, Renju and Caro against a strong computer player, and the N-Queens "
            "puzzle. Points are `[x, y]` (0-based, x from the left, y from the top); queens "
            "squares are `[row, col]`. Errors come back as "
            "`{\"error\": code, \"detail\": message}`.\n\n"
            "Player tokens: creating or importing a game returns `token`; moves, opening "
            "actions, undo, delete and starting an analysis need `Authorization: Bearer "
            "TOKEN` (else 403 `not_a_player`). Everything else is open to watchers.\n\n"
            "Opening rules: a game created with `opening` (swap, swap2, soosorv) begins "
            "with an opening whose first and second players are `black` and `white`; its "
            "actions (`place h8`, `choose white`, `declare 3`, `offer h6 j7`, `pick j7`) go "
            "to `POST /api/gomoku/games/{id}/opening`, and the state's `opening` says what "
            "comes next. Moves follow once it is over.\n\n"
            "Busy engines: past the queue's bound, requests that need an engine get 429 "
            "`busy` with `Retry-After` (seconds); nothing was changed.\n\n"
            "Live updates: the WebSocket `/api/gomoku/games/{id}/ws` sends "
            "`{\"type\": \"state\", \"game\": GameState}` at once and after every change "
            "of the game (moves, undo, the computer starting or finishing its search), "
            "and `{\"type\": \"progress\", \"version\": ..., \"depth\": ..., "
            "\"score_text\": ..., \"nodes\": ..., \"nps\": ..., \"move\": [x, y], ...}` "
            "after each depth of the computer's search for the position of that version. "
            "It closes with code 4404 for a game that does not exist, and with 1012 when the "
            "game is to be read again (deleted, or a change the database could not save): "
            "connect again."
        ),
        lifespan=lifespan,
        # The interactive docs load their scripts from a CDN; the schema is at /openapi.json.
        docs_url=None,
        redoc_url=None,
    )
    app.add_exception_handler(ValueError, value_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(EngineBusyError, engine_busy)
    app.add_exception_handler(sqlite3.Error, store_error)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    # Any request whose body passes the limit is refused (BodyLimit) before its route runs.
    too_large: dict[int | str, dict[str, object]] = {
        413: {"model": ErrorBody, "description": "the request body is larger than allowed"}}
    app.include_router(api.router, responses=too_large)
    app.include_router(review.router, responses=too_large)
    app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    return app
