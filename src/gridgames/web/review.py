"""Game review and analysis over the web: JSON routes on top of :mod:`gridgames.gomoku.analysis`.

A review scores every position of a game in the engine workers (a few at a time,
so games keep their share), tells the game's WebSocket watchers how far it got
(``{"type": "review", "state": "running", "done": d, "total": t}``), then judges
the moves and saves the review with the game in SQLite. Candidates for any
position (a game's or a variation's) come from a multi-line search.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from gridgames.gomoku import Board, IllegalMoveError, Point, Rule
from gridgames.gomoku.ai import Limit
from gridgames.gomoku.analysis import (
    Candidate,
    PositionEval,
    candidates,
    evaluate_position,
    review_from_evals,
)
from gridgames.web.auth import Seated
from gridgames.web.engine import EnginePool
from gridgames.web.games import Game, GameError, GomokuService, TwoDevicesError
from gridgames.web.schemas import (
    MAX_BOARD,
    MIN_BOARD,
    ErrorBody,
    Int,
    IntOrNone,
    OutcomeOut,
    Pair,
    PointList,
    Strict,
    outcome_out,
    pairs,
)

log = logging.getLogger(__name__)

DEFAULT_REVIEW_TIME_MS = 300
MAX_CANDIDATES = 5

# -- schemas ---------------------------------------------------------------------------


class ReviewRequest(Strict):
    """How long the engine looks at each position of the game."""

    time_ms: Int = Field(DEFAULT_REVIEW_TIME_MS, ge=20, le=10_000,
                         description="search time per position")
    depth: IntOrNone = Field(None, ge=1, le=20,
                             description="search depth per position instead of a time "
                                         "(reproducible)")


class MoveReviewOut(BaseModel):
    """One judged move. Scores are black's view (mate-style ±30000 for forced wins)."""

    ply: int = Field(description="move number, from 1")
    color: Literal["black", "white"]
    move: str = Field(description="renju notation, e.g. h8")
    best: str | None = Field(description="the engine's move in that position")
    move_xy: Pair
    best_xy: Pair | None
    score_before: int
    score: int = Field(description="score after the move, black's view")
    mate: int | None = Field(description="+n: black wins in n moves; -n: white does")
    win_probability: float = Field(description="black's chance after the move, 0..1")
    loss: float = Field(description="win probability the mover gave away, 0..1")
    accuracy: float
    label: Literal["best", "good", "inaccuracy", "mistake", "blunder", "forced"]
    best_pv: list[str]


class PlayerSummaryOut(BaseModel):
    moves: int
    accuracy: float | None
    best: int
    good: int
    forced: int
    inaccuracies: int
    mistakes: int
    blunders: int


class ReviewOut(BaseModel):
    width: int
    height: int
    moves: list[MoveReviewOut]
    scores: list[int] = Field(description="black's-view score of each position, from the "
                                          "empty board to the last")
    win_probabilities: list[float] = Field(description="black's chance of winning in each "
                                                       "position, 0..1")
    summary: dict[Literal["black", "white"], PlayerSummaryOut]


class ReviewStatus(BaseModel):
    """Where a game's review stands; ``review`` once it is done."""

    game_id: str
    state: Literal["none", "running", "done", "failed"]
    done: int = Field(description="positions scored so far")
    total: int = Field(description="positions to score")
    current: bool = Field(description="whether the review covers the game's moves as they "
                                      "are now")
    review: ReviewOut | None = None
    error: str | None = None


class PositionRequest(Strict):
    """A position: any sequence of moves (e.g. a variation) under a rule."""

    width: Int = Field(15, ge=MIN_BOARD, le=MAX_BOARD)
    height: Int = Field(15, ge=MIN_BOARD, le=MAX_BOARD)
    rule: Rule = Rule.FREESTYLE
    moves: list[Pair] = Field(default_factory=list, max_length=MAX_BOARD * MAX_BOARD)


class PositionOut(BaseModel):
    """The position the moves reach, as the rule judges it."""

    to_move: Literal["black", "white"]
    forbidden: PointList = Field(description="renju points forbidden to black now")
    outcome: OutcomeOut | None = Field(description="the five or the draw the moves end "
                                       "in (null while the game goes on)")


class AnalyseRequest(PositionRequest):
    """A position (any sequence of moves, e.g. a variation) and how to search it."""

    count: Int = Field(3, ge=1, le=MAX_CANDIDATES, description="how many candidate moves")
    time_ms: Int = Field(500, ge=20, le=10_000)
    depth: IntOrNone = Field(None, ge=1, le=20)


class CandidateOut(BaseModel):
    move: str
    move_xy: Pair
    score: int = Field(description="black's view")
    mate: int | None
    depth: int
    win_probability: float = Field(description="black's chance, 0..1")
    pv: list[str]


class AnalyseOut(BaseModel):
    to_move: Literal["black", "white"]
    candidates: list[CandidateOut]
    elapsed_ms: float


# -- work done in the engine processes ---------------------------------------------


def _board(width: int, height: int, rule: str, moves: list[Point]) -> Board:
    board = Board(width, height, rule=Rule(rule))
    board.push_many(moves)
    return board


def _score_position(width: int, height: int, rule: str, moves: list[Point],
                    played: Point | None, limit: Limit) -> PositionEval:
    return evaluate_position(_board(width, height, rule, moves), limit, played)


def _candidates(width: int, height: int, rule: str, moves: list[Point], count: int,
                limit: Limit) -> list[Candidate]:
    return candidates(_board(width, height, rule, moves), limit, count)


# -- reviews in the background -------------------------------------------------------


@dataclass
class ReviewJob:
    moves: list[Point]
    total: int
    done: int = 0
    error: str | None = None
    task: asyncio.Task[None] | None = None
    finished: bool = False


@dataclass
class Reviews:
    """The reviews running in this server, one per game at most."""

    service: GomokuService
    engine: EnginePool
    jobs: dict[str, ReviewJob] = field(default_factory=dict)

    def start(self, game: Game, limit: Limit) -> ReviewJob:
        job = self.jobs.get(game.id)
        if job is not None and not job.finished:
            return job  # one at a time: the running review carries on
        moves = list(game.board.move_stack)
        job = ReviewJob(moves, len(moves) + 1)
        self.jobs[game.id] = job
        # the board now: the game may change before the task starts
        job.task = asyncio.get_running_loop().create_task(
            self._run(game, game.board.copy(), job, limit))
        return job

    async def _run(self, game: Game, board: Board, job: ReviewJob, limit: Limit) -> None:
        width, height, rule = board.width, board.height, board.rule.value
        played: list[Point | None] = [*job.moves, None]
        # Use every worker but one, so that games still get their moves.
        gate = asyncio.Semaphore(max(1, self.engine.workers - 1))

        async def score(index: int) -> PositionEval:
            async with gate:
                # below game moves in the queue, and already throttled by the gate:
                # a review under way is never refused as a new request would be
                value, _ = await self.engine.run(_score_position, width, height, rule,
                                                 job.moves[:index], played[index], limit,
                                                 key=game.id, bounded=False)
            job.done += 1
            self._announce(game, job, "running")
            return value

        try:
            evals = await asyncio.gather(*(score(i) for i in range(job.total)))
            review = review_from_evals(board, evals)
            await self.service.in_store(self.service.store.save_review, game.id, job.moves,
                                        review.to_dict())
            job.finished = True
            self._announce(game, job, "done")
        except asyncio.CancelledError:
            job.finished = True
            raise
        except Exception as error:  # a broken worker or a deleted game ends this review
            log.exception("review of game %s failed", game.id)
            job.error = str(error) or type(error).__name__
            job.finished = True
            self._announce(game, job, "failed")

    async def close(self) -> None:
        """Stop the running reviews (the server is shutting down)."""
        tasks = [job.task for job in self.jobs.values() if job.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    def _announce(self, game: Game, job: ReviewJob, state: str) -> None:
        message: dict[str, Any] = {"type": "review", "game_id": game.id, "state": state,
                                   "done": job.done, "total": job.total}
        for queue in game.watchers:
            queue.put_nowait(message)

    async def status(self, game: Game) -> ReviewStatus:
        moves = list(game.board.move_stack)
        job = self.jobs.get(game.id)
        if job is not None and not job.finished:
            return ReviewStatus(game_id=game.id, state="running", done=job.done,
                                total=job.total, current=job.moves == moves)
        saved = await self.service.in_store(self.service.store.review, game.id)
        if job is not None and job.error is not None:
            return ReviewStatus(game_id=game.id, state="failed", done=job.done, total=job.total,
                                current=False, error=job.error)
        if saved is None:
            return ReviewStatus(game_id=game.id, state="none", done=0, total=len(moves) + 1,
                                current=False)
        reviewed, data = saved
        return ReviewStatus(game_id=game.id, state="done", done=len(reviewed) + 1,
                            total=len(reviewed) + 1, current=reviewed == moves,
                            review=ReviewOut.model_validate(data))


def reviews_of(connection: HTTPConnection) -> Reviews:
    state = connection.app.state
    if getattr(state, "reviews", None) is None:
        state.reviews = Reviews(state.service, state.engine)
    reviews: Reviews = state.reviews
    return reviews


ReviewsDep = Annotated[Reviews, Depends(reviews_of)]

# -- routes ------------------------------------------------------------------------

_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 404, 409, 422)
}

@asynccontextmanager
async def _stop_reviews(app: FastAPI) -> AsyncIterator[None]:
    """Runs inside the app's own lifespan: reviews stop before the engine workers do."""
    yield
    reviews: Reviews | None = getattr(app.state, "reviews", None)
    if reviews is not None:
        await reviews.close()


router = APIRouter(prefix="/api/gomoku", tags=["analysis"], responses=_ERRORS,
                   lifespan=_stop_reviews)


class NothingToReviewError(GameError):
    code, status = "nothing_to_review", 409


@router.post("/games/{game_id}/review", status_code=202, response_model=ReviewStatus)
async def start_review(player: Seated, reviews: ReviewsDep,
                       body: ReviewRequest | None = None) -> ReviewStatus:
    """Review the game in the background (either player; on two devices once the game is
    over): every position is scored, then each move gets a label, the better move and each
    player an accuracy. Progress goes to the game's
    WebSocket as ``{"type": "review", "state": "running"|"done"|"failed", "done", "total"}``;
    the result is saved with the game (``GET`` this route)."""
    settings = body or ReviewRequest.model_validate({})
    game = await reviews.service.get(player.game_id, player)
    if game.friend is not None and not game.over:
        # the engine's view of the game would help one player against the other
        raise TwoDevicesError("a game played on two devices is reviewed once it is over")
    if not game.board.move_stack:
        raise NothingToReviewError("the game has no moves to review yet")
    limit = (Limit(depth=settings.depth) if settings.depth is not None
             else Limit(time_ms=settings.time_ms))
    reviews.start(game, limit)
    return await reviews.status(game)


@router.get("/games/{game_id}/review", response_model=ReviewStatus)
async def get_review(game_id: str, reviews: ReviewsDep) -> ReviewStatus:
    """The game's review: running (with progress), done (with the result), or none yet."""
    return await reviews.status(await reviews.service.get(game_id))


def _position(body: PositionRequest) -> Board:
    """The board after the request's moves; a ValueError names the first illegal one."""
    board = Board(body.width, body.height, rule=body.rule)
    try:
        board.push_many((pair[0], pair[1]) for pair in body.moves)
    except IllegalMoveError as error:
        raise ValueError(str(error)) from None  # the request's fault: 422, not 409
    return board


def _judge_position(body: PositionRequest) -> PositionOut:
    board = _position(body)
    outcome = board.outcome()
    return PositionOut(
        to_move=board.to_move.label,  # type: ignore[arg-type]
        forbidden=pairs(sorted(board.forbidden_points())),
        outcome=None if outcome is None else outcome_out(outcome))


@router.post("/position", response_model=PositionOut)
async def position(body: PositionRequest) -> PositionOut:
    """Check a sequence of moves (a variation, say) under the rule: whose turn it is
    then, the points forbidden to black under renju, and the five or draw it ends in.
    422 names the first move the rule does not allow."""
    # In a thread: thousands of renju moves take most of a second to check, and the
    # server goes on meanwhile.
    return await asyncio.to_thread(_judge_position, body)


@router.post("/analyse", response_model=AnalyseOut)
async def analyse_position(body: AnalyseRequest, reviews: ReviewsDep) -> AnalyseOut:
    """The engine's best 1-5 moves for a position, each with its score (black's view).

    Call again with a longer ``time_ms`` to refine a display while the player looks."""
    board = await asyncio.to_thread(_position, body)  # in a thread, as for /position
    moves = list(board.move_stack)
    if board.is_game_over():
        raise ValueError(f"the game is over ({board.outcome()}); there are no candidates")
    limit = Limit(depth=body.depth) if body.depth is not None else Limit(time_ms=body.time_ms)
    found, elapsed = await reviews.engine.run(_candidates, body.width, body.height,
                                              body.rule.value, moves, body.count, limit)
    return AnalyseOut(
        to_move=board.to_move.label,  # type: ignore[arg-type]
        candidates=[CandidateOut.model_validate(c.to_dict(body.height)) for c in found],
        elapsed_ms=round(elapsed, 1),
    )

