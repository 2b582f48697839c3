"""The JSON bodies of the web API (the only place pydantic models live)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from gridgames.gomoku import Rule
from gridgames.gomoku.ai import MAX_LEVEL
from gridgames.gomoku.puzzles import MAX_LENGTH

MIN_BOARD, MAX_BOARD = 5, 60
MAX_QUEENS_SOLVE, MAX_QUEENS_COUNT = 32, 16

Player = Literal["human", "computer"]
ColorName = Literal["black", "white"]
# A point or square as a two-item list ([x, y] or [row, col]).
Pair = Annotated[list[int], Field(min_length=2, max_length=2)]
PointList = list[Pair]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Players(BaseModel):
    black: Player
    white: Player


class GameSettings(Strict):
    """Who plays, how strong the computer is and how long it may think per move."""

    black: Player = "human"
    white: Player = "computer"
    level: int = Field(3, ge=1, le=MAX_LEVEL, description="computer strength, 1 (weakest) and up")
    time_ms: int | None = Field(
        2000, ge=50, le=60_000, description="most thinking time per move (null: the level's own)"
    )


class NewGame(GameSettings):
    """A new game: board size (columns × rows), rule and players."""

    width: int = Field(15, ge=MIN_BOARD, le=MAX_BOARD, description="columns")
    height: int = Field(15, ge=MIN_BOARD, le=MAX_BOARD, description="rows")
    rule: Rule = Rule.FREESTYLE


class ImportGame(GameSettings):
    """A saved record (Piskvork ``.psq`` or gridgames JSON text) to continue as a new game."""

    black: Player = "human"
    white: Player = "human"
    text: str = Field(max_length=200_000, description="the record's text")
    rule: Rule | None = Field(
        None, description="the rule (.psq files do not store it; default freestyle)"
    )


class Move(Strict):
    x: int = Field(ge=0, le=MAX_BOARD - 1, description="column, 0 at the left")
    y: int = Field(ge=0, le=MAX_BOARD - 1, description="row, 0 at the top")


class OutcomeOut(BaseModel):
    winner: ColorName | None = Field(description="null for a draw")
    line: PointList = Field(description="the winning stones, [x, y] each")
    result: Literal["1-0", "0-1", "1/2-1/2"]
    draw_reason: str = Field(description="why a draw is one (the board is full, or under "
                             "renju only points forbidden to black are left); empty for a win")


class SearchOut(BaseModel):
    """What the engine found: its move, score (from the mover's side) and principal line."""

    move: Pair
    score: int
    score_text: str
    mate: int | None
    depth: int
    pv: PointList
    nodes: int
    time_ms: int = Field(description="search time, from the moment a worker started it")
    queued_ms: int = Field(0, description="time spent waiting for a free engine before that")


class GameState(BaseModel):
    id: str
    width: int
    height: int
    rule: Rule
    moves: PointList = Field(description="[x, y] in order, black first")
    to_move: ColorName
    outcome: OutcomeOut | None
    forbidden: PointList = Field(description="renju points forbidden to black now")
    players: Players
    level: int
    time_ms: int | None
    thinking: bool = Field(description="the computer is to move: waiting or searching")
    waiting: bool = Field(
        False, description="the computer's move waits in the queue for a free engine")
    last_search: SearchOut | None = Field(description="the computer's last search, if any")
    version: int = Field(description="grows with every change while the server runs")


class NewGameState(GameState):
    """A game just created, with the token that lets its players change it."""

    token: str = Field(description="the player token: send it as 'Authorization: Bearer TOKEN' "
                                   "to play, undo, delete or analyse; keep it secret")


class QueensSolve(Strict):
    n: int = Field(ge=1, le=MAX_QUEENS_SOLVE)
    queens: PointList = Field(
        default_factory=list, max_length=MAX_QUEENS_SOLVE,
        description="queens to keep, [row, col] each (0-based)",
    )


class QueensSolution(BaseModel):
    solution: PointList | None = Field(description="every queen, [row, col]; null: no solution")
    elapsed_ms: float


class QueensHint(BaseModel):
    square: Pair | None = Field(description="where to put a queen; null: none works")


class QueensCount(BaseModel):
    n: int
    solutions: int
    elapsed_ms: float


MAX_PUZZLE_MOVES = 2 * (MAX_LENGTH - 1)


class PuzzleSummary(BaseModel):
    """A "find the win" puzzle in the list: the side to move wins in ``length`` moves."""

    id: int
    rule: Rule
    width: int
    height: int
    to_move: ColorName = Field(description="the side that wins (you)")
    length: int = Field(description="your moves to the five, the five included")
    themes: list[str] = Field(description="'foul-trap' or 'avoid-fouls' (renju), or none")


class PuzzleList(BaseModel):
    puzzles: list[PuzzleSummary]


class PuzzleOut(PuzzleSummary):
    """A puzzle's position, with one winning line to show on request."""

    moves: PointList = Field(description="the moves that reach the position, [x, y], black first")
    forbidden: PointList = Field(description="renju points forbidden to black now")
    solution: PointList = Field(description="one winning line: your move, the reply, ... five")


class PuzzleAttempt(Strict):
    """The attempt so far (your moves and the replies, in turn) and your next move."""

    played: PointList = Field(default_factory=list, max_length=MAX_PUZZLE_MOVES,
                              description="moves so far from the puzzle's position, [x, y]")
    move: Pair = Field(description="your next move, [x, y]")


class PuzzleProgress(Strict):
    played: PointList = Field(default_factory=list, max_length=MAX_PUZZLE_MOVES,
                              description="moves so far from the puzzle's position, [x, y]")


class PuzzleVerdict(BaseModel):
    """The judgement of one move."""

    verdict: Literal["illegal", "win", "continue", "fail", "unknown"] = Field(
        description="illegal: not playable (nothing changes); win: a five, solved; continue: "
        "a forced win is kept and the defender replies; fail: no forced win is left; unknown: "
        "the position was too open to judge")
    message: str
    reply: Pair | None = Field(description="the defender's reply (continue) or refutation (fail)")
    moves_left: int = Field(description="your moves still needed after the reply (continue)")
    five: PointList = Field(description="the five's stones (win)")
    forbidden: PointList = Field(description="renju points forbidden to black after the reply")


class PuzzleHint(BaseModel):
    hint: str


class RuleInfo(BaseModel):
    name: Rule
    description: str


class LevelInfo(BaseModel):
    number: int
    name: str
    description: str


class Options(BaseModel):
    """What the setup page offers."""

    rules: list[RuleInfo]
    levels: list[LevelInfo]
    min_size: int
    max_size: int


class ErrorBody(BaseModel):
    error: str = Field(description="a short code such as not_found, occupied or invalid_request")
    detail: str = Field(description="what was wrong, in words")
