"""The JSON bodies of the web API (the only place pydantic models live)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from gridgames.gomoku import MAX_SIZE, MIN_SIZE, Outcome, Rule
from gridgames.gomoku.ai import MAX_LEVEL
from gridgames.gomoku.opening_rules import OpeningRule
from gridgames.gomoku.puzzles import MAX_LENGTH

MIN_BOARD, MAX_BOARD = MIN_SIZE, MAX_SIZE  # the core's bounds: 5 to 64
MAX_QUEENS_SOLVE, MAX_QUEENS_COUNT = 32, 16

Player = Literal["human", "computer"]
ColorName = Literal["black", "white"]
OpeningSeat = Literal["first", "second"]
ActionKind = Literal["place", "choose", "declare", "offer", "pick"]


def _not_a_boolean(value: object) -> object:
    # Python's bool is an int: JSON true and false would otherwise read as 1 and 0.
    if isinstance(value, bool):
        raise PydanticCustomError("int_type", "Input should be a valid integer, not a boolean "
                                  "({value})", {"value": "true" if value else "false"})
    return value


# Every integer a request sends is read as one of these.
Int = Annotated[int, BeforeValidator(_not_a_boolean)]
IntOrNone = Annotated[int | None, BeforeValidator(_not_a_boolean)]
# A point or square as a two-item list ([x, y] or [row, col]).
Pair = Annotated[list[Int], Field(min_length=2, max_length=2)]
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
    level: Int = Field(3, ge=1, le=MAX_LEVEL, description="computer strength, 1 (weakest) and up")
    time_ms: IntOrNone = Field(
        2000, ge=50, le=60_000, description="most thinking time per move (null: the level's own)"
    )
    clock: str | None = Field(
        None, max_length=20, description="a game clock: minutes a side and seconds added after "
        "each move, e.g. 5+3 (null: none). It starts with the moves (after an opening); the "
        "side whose time runs out loses, and moves cannot be taken back.")


class NewGame(GameSettings):
    """A new game: board size (columns × rows), rule, opening rule and players.

    Under an opening rule the players are the opening's first and second player
    (``black`` and ``white`` say who is which), and the opening settles their colours."""

    black: Player = Field("human", description="who plays black; under an opening rule, "
                          "who is the first player (who places the first stones)")
    white: Player = Field("computer", description="who plays white; under an opening rule, "
                          "who is the second player")
    width: Int = Field(15, ge=MIN_BOARD, le=MAX_BOARD, description="columns")
    height: Int = Field(15, ge=MIN_BOARD, le=MAX_BOARD, description="rows")
    rule: Rule = Rule.FREESTYLE
    opening: OpeningRule = Field(
        OpeningRule.FREE, description="how the first stones and the colours are settled: "
        "free (black simply moves first), swap, swap2, soosorv (Soosõrv-8) or taraguchi "
        "(Taraguchi-10)")


class ImportGame(GameSettings):
    """A saved record (Piskvork ``.psq`` or gridgames JSON text) to continue as a new game."""

    black: Player = "human"
    white: Player = "human"
    text: str = Field(max_length=200_000, description="the record's text")
    rule: Rule | None = Field(
        None, description="the rule (.psq files do not store it; default freestyle)"
    )
    opening: OpeningRule = Field(
        OpeningRule.FREE, description="only free: an opening starts on an empty board")


class Move(Strict):
    x: Int = Field(ge=0, le=MAX_BOARD - 1, description="column, 0 at the left")
    y: Int = Field(ge=0, le=MAX_BOARD - 1, description="row, 0 at the top")


class OpeningHint(BaseModel):
    """What the computer would do for the player to act in the opening."""

    actions: list[str] = Field(description="the actions, in order, as POST .../opening "
                               "takes them (e.g. ['choose white'] or ['place h7', 'place j9'])")
    points: PointList = Field(description="the points the first action names, [x, y] each")


class OpeningAction(Strict):
    """An action in the opening, as text."""

    action: str = Field(min_length=1, max_length=300, description="place h8, choose black, "
                        "choose white, declare 3, offer h6 j7 g10 or pick j7",
                        examples=["place h8", "choose white"])


class OpeningPlayers(BaseModel):
    first: Player
    second: Player


class OpeningColors(BaseModel):
    first: ColorName
    second: ColorName


class OpeningOut(BaseModel):
    """The opening under an opening rule: where it is and what comes next."""

    rule: OpeningRule
    name: str = Field(description="the rule's name for people, e.g. Soosõrv-8")
    renju_opening: str | None = Field(description="Soosõrv, Yamaguchi, Taraguchi: the "
                                      "canonical renju opening of the first three stones, "
                                      "e.g. 4D Kagetsu")
    done: bool = Field(description="the opening is over: moves follow")
    to_act: OpeningSeat | None = Field(description="the player to act next (null when done)")
    actor: Player | None = Field(description="whether a human or the computer acts next")
    allowed: list[ActionKind] = Field(description="the kinds of action allowed now")
    prompt: str = Field(description="what the player to act must do, in words")
    declared: int = Field(description="how many 5th moves black must offer (Soosõrv, "
                          "Yamaguchi: 0 until declared; Taraguchi: 10 at the 5th stone)")
    most_offers: int = Field(description="while declaring: the largest number allowed")
    offer_count: int = Field(description="while offering: how many 5th moves to offer, the "
                             "declared number or fewer where the board has fewer distinct ones")
    offers: PointList = Field(description="black's offered 5th moves, [x, y] each")
    history: list[str] = Field(description="the actions so far, in order")
    players: OpeningPlayers = Field(description="who is the first and the second player")
    colors: OpeningColors = Field(description="each player's colour (so far, while under way)")
    stones: int = Field(description="stones placed in the opening: undo stops there")


class OutcomeOut(BaseModel):
    winner: ColorName | None = Field(description="null for a draw")
    line: PointList = Field(description="the winning stones, [x, y] each")
    result: Literal["1-0", "0-1", "1/2-1/2"]
    draw_reason: str = Field(description="why a draw is one (the board is full, or under "
                             "renju only points forbidden to black are left, or for an "
                             "imported draw: the record does not say how); empty for a win")
    termination: Literal["", "time forfeit", "resignation", "unknown"] = Field(
        "", description="how a game that ended off the board ended (the line is then "
        "empty): the loser's clock ran out, or it resigned, or an imported record gives "
        "its result but not how it came (a loss, or a draw); empty for five or a full board")


def pairs(points: Iterable[tuple[int, int]]) -> list[list[int]]:
    """Points as the API writes them, ``[x, y]`` each."""
    return [[x, y] for x, y in points]


def outcome_out(outcome: Outcome, *, draw_reason: str | None = None,
                termination: str = "") -> OutcomeOut:
    """The API's form of ``outcome`` (``draw_reason``: the outcome's own unless given)."""
    return OutcomeOut(
        winner=None if outcome.winner is None else outcome.winner.label,  # type: ignore[arg-type]
        line=pairs(outcome.line),
        result=outcome.result,  # type: ignore[arg-type]
        draw_reason=outcome.draw_reason if draw_reason is None else draw_reason,
        termination=termination,  # type: ignore[arg-type]
    )

class ClockOut(BaseModel):
    """A game clock, as it stands when the state is sent."""

    text: str = Field(description="minutes a side + seconds a move, e.g. 5+3")
    initial_ms: int
    increment_ms: int
    black_ms: int = Field(description="black's time left")
    white_ms: int = Field(description="white's time left")
    running: ColorName | None = Field(description="whose time is running (null before the "
                                     "moves begin and once the game is over)")
    paused: bool = Field(description="the computer's move waits for a free engine: its "
                         "time stands still until its search starts")


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
    thinking: bool = Field(description="the computer is to move (or to act in the opening): "
                           "waiting or searching")
    waiting: bool = Field(
        False, description="the computer's move waits in the queue for a free engine")
    last_search: SearchOut | None = Field(description="the computer's last search, if any")
    version: int = Field(description="grows with every change while the server runs")
    opening: OpeningOut | None = Field(None, description="the opening (null without an "
                                       "opening rule)")
    clock: ClockOut | None = Field(None, description="the game clock (null without one)")
    friend: OpeningSeat | None = Field(
        None, description="the seat of a friend invited to play on their own device (the "
        "first or second player; without an opening rule the first plays black), null if "
        "none: the creator's token then plays the other seat alone")
    friend_joined: bool = Field(False, description="the invited friend has opened the "
                                "invitation (POST .../join from their page)")
    rematch: str | None = Field(None, description="the id of the game played again from "
                                "this one once it is over, null until a player asks for it "
                                "(POST .../rematch)")


class InviteRequest(Strict):
    seat: OpeningSeat = Field(description="the friend's seat: the first or the second player "
                              "(without an opening rule the first plays black)")


class Invitation(BaseModel):
    """A friend's token for one seat of a game between two people."""

    token: str = Field(description="the friend's player token, for their seat alone; send it "
                                   "to them, with the game's id")
    seat: OpeningSeat
    game: GameState


class NewGameState(GameState):
    """A game just created, with the token that lets its players change it."""

    token: str = Field(description="the player token: send it as 'Authorization: Bearer TOKEN' "
                                   "to play, undo, delete or analyse; keep it secret")


class QueensSolve(Strict):
    n: Int = Field(ge=1, le=MAX_QUEENS_SOLVE)
    queens: PointList = Field(
        default_factory=list, max_length=MAX_QUEENS_SOLVE,
        description="queens to keep, [row, col] each (0-based)",
    )


class QueensSolution(BaseModel):
    solution: PointList | None = Field(description="every queen, [row, col]; null: no solution")
    elapsed_ms: float


class QueensHint(BaseModel):
    square: Pair | None = Field(description="where to put a queen; null: none works")


MAX_BACKTRACK_STEPS = 20_000


class QueensBacktrackRequest(QueensSolve):
    limit: Int = Field(5_000, ge=1, le=MAX_BACKTRACK_STEPS,
                       description="the most steps to record")


class QueensStep(BaseModel):
    kind: Literal["place", "remove"]
    square: Pair = Field(description="[row, col] of the queen placed or taken back")


class QueensBacktrack(BaseModel):
    steps: list[QueensStep] = Field(description="in order, from the queens kept")
    solution: PointList | None = Field(description="every queen of the first solution "
                                       "found; null if none was (see finished)")
    finished: bool = Field(description="false: stopped at the step limit; true: the "
                           "solution, or none keeps the queens")


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


class OpeningInfo(BaseModel):
    name: OpeningRule
    title: str
    description: str


class Options(BaseModel):
    """What the setup page offers."""

    rules: list[RuleInfo]
    levels: list[LevelInfo]
    openings: list[OpeningInfo]
    min_size: int
    max_size: int


class ErrorBody(BaseModel):
    error: str = Field(description="a short code such as not_found, occupied or invalid_request")
    detail: str = Field(description="what was wrong, in words")
