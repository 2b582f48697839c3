"""Game review: per-move scores, labels and accuracy, and the engine's candidate moves.

:func:`review_game` scores every position of a game with the engine, then judges
each move by how much of its player's chance of winning it gave away.

**Scores** are in the engine's centi-stones and always from black's view here:
positive is good for black. A forced win is a mate-style value near
``±WIN_SCORE`` (30000): ``WIN_SCORE - n`` when black wins in ``n`` plies, a
finished five scores ``±WIN_SCORE`` itself. Anything at or beyond ``±MATE_BOUND``
is a forced result.

**Win probability.** A score ``s`` from one side's view means a chance of winning

    P(s) = 1 / (1 + exp(-s / WIN_PROBABILITY_SCALE))

(1 and 0 for forced wins and losses). The scale was fitted by maximum likelihood
to the results of engine games: ``benchmarks/fit_winprob.py`` plays the engine
against itself from the shipped balanced openings (20,000 nodes a move), records
its score before every move, and finds the scale that best predicts who won.
Fitted on 25 Nov 2026 (2-core AMD EPYC): 316 freestyle 15x15 games, 7,052 positions
that were not forced wins, scale 227, log-loss 0.552 (a coin flip scores 0.693).
So +227 means about 73 %, +500 about 90 %.

**Labels.** A move's *loss* is its player's win probability after the engine's
best move minus after the move played (never below 0; 0 when it is the engine's
move). Both are scores of the positions after the move, searched alike, so the
side to move is the same in both (a search's score swings with whose turn it is).
The thresholds below turn the loss into a label, then two rules about
forced wins take over: a move that hands the opponent a forced win they did not
have is a blunder whatever the numbers say, and letting one's own forced win
slip is at least a mistake. A move that was the only way not to lose at once
(the one point that stops the opponent's four) is labelled ``forced``.

**Accuracy** of a move follows the lichess formula on the loss in percentage
points, ``103.1668 * exp(-0.04354 * 100 * loss) - 3.1669`` clamped to 0..100
(100 for a move that lost nothing); a player's accuracy is the mean over their
moves.

>>> win_probability(0)
0.5
>>> label_for_loss(0.0), label_for_loss(0.12), label_for_loss(0.5)
('best', 'inaccuracy', 'blunder')
>>> move_accuracy(0.0), move_accuracy(0.3)
(100.0, 24.8)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace

import numpy as np

from gridgames.gomoku.ai import Limit, SearchResult, analyse
from gridgames.gomoku.ai.search import MATE, MATE_BOUND
from gridgames.gomoku.board import (
    Board,
    Color,
    IllegalMoveError,
    Point,
    as_whole,
    check_board,
)
from gridgames.gomoku.notation import format_renju, shown_value
from gridgames.gomoku.rules import DIRECTIONS, five_points
from gridgames.numbers import is_number

__all__ = [
    "BEST_MAX_LOSS",
    "GOOD_MAX_LOSS",
    "INACCURACY_MAX_LOSS",
    "LABELS",
    "MATE_BOUND",
    "MISTAKE_MAX_LOSS",
    "WIN_PROBABILITY_SCALE",
    "WIN_SCORE",
    "Candidate",
    "GameReview",
    "MoveReview",
    "PlayerSummary",
    "PositionEval",
    "candidates",
    "deepening_candidates",
    "evaluate_position",
    "label_for_loss",
    "move_accuracy",
    "only_answer",
    "review_from_evals",
    "review_game",
    "win_probability",
]

WIN_SCORE = MATE
"""The score of a finished five (from the winner's view); a forced win in n plies is
``WIN_SCORE - n``."""

WIN_PROBABILITY_SCALE = 227.0
"""Centi-stones per unit of the logistic's exponent, fitted by ``benchmarks/fit_winprob.py``."""

BEST_MAX_LOSS = 0.01
"""Largest loss (in win probability, 0..1) of a move labelled ``best``: the engine's own
move, or one it cannot tell from it."""
GOOD_MAX_LOSS = 0.10
"""Largest loss of a ``good`` move; from here on a move is an ``inaccuracy``."""
INACCURACY_MAX_LOSS = 0.20
"""Largest loss of an ``inaccuracy``; from here on a move is a ``mistake``."""
MISTAKE_MAX_LOSS = 0.30
"""Largest loss of a ``mistake``; beyond it a move is a ``blunder``."""

LABELS = ("best", "good", "inaccuracy", "mistake", "blunder", "forced")
_SEVERITY = {"best": 0, "good": 1, "inaccuracy": 2, "mistake": 3, "blunder": 4}


def win_probability(score: int) -> float:
    """The chance of winning that a score (from that side's view) stands for.

    >>> round(win_probability(227), 3), round(win_probability(-500), 3)
    (0.731, 0.1)
    >>> win_probability(WIN_SCORE - 3), win_probability(-WIN_SCORE)
    (1.0, 0.0)
    """
    _finite(score, "score")
    if score >= MATE_BOUND:
        return 1.0
    if score <= -MATE_BOUND:
        return 0.0
    return 1 / (1 + math.exp(-score / WIN_PROBABILITY_SCALE))


def label_for_loss(loss: float) -> str:
    """The label of a move by its loss in win probability alone (see the thresholds)."""
    _check_loss(loss)
    if loss <= BEST_MAX_LOSS:
        return "best"
    if loss < GOOD_MAX_LOSS:
        return "good"
    if loss < INACCURACY_MAX_LOSS:
        return "inaccuracy"
    if loss < MISTAKE_MAX_LOSS:
        return "mistake"
    return "blunder"


def move_accuracy(loss: float) -> float:
    """A move's accuracy, 0..100, from its loss in win probability (lichess's formula)."""
    _check_loss(loss)
    value = 103.1668 * math.exp(-0.04354 * 100 * loss) - 3.1669
    return round(min(100.0, max(0.0, value)), 1)


def _finite(value: object, name: str) -> None:
    """A ValueError unless ``value`` is a finite number (NaN compares as no number does)."""
    if not is_number(value):
        raise ValueError(f"{name} must be a finite number, got {shown_value(value)}")


def _check_loss(loss: object) -> None:
    """A ValueError unless ``loss`` is a loss in win probability, 0 to 1."""
    _finite(loss, "a move's loss")
    if not 0 <= loss <= 1:  # type: ignore[operator]
        raise ValueError(f"a move's loss is a fall in win probability, from 0 to 1, got "
                         f"{shown_value(loss)}")


# -- scoring positions -----------------------------------------------------------


@dataclass(frozen=True)
class PositionEval:
    """What the engine thinks of a position, from black's view.

    ``best`` is None when the game is over; ``mate`` is
    +n when black wins in n of its own moves, -n when white does.
    """

    score: int
    mate: int | None = None
    best: Point | None = None
    pv: tuple[Point, ...] = ()
    depth: int = 0
    after_best: int | None = None
    """Black's-view score of the position after ``best``, searched like the position after
    the move played (same side to move, same limit), so the two compare fairly; None when
    not needed (``best`` was played, or the game is over)."""


def _black_view(board: Board, value: int) -> int:
    return value if board.to_move is Color.BLACK else -value


def _from_search(board: Board, result: SearchResult) -> PositionEval:
    mate = None if result.mate is None else _black_view(board, result.mate)
    return PositionEval(_black_view(board, result.score), mate, result.move, result.pv,
                        result.depth)


def evaluate_position(board: Board, limit: Limit, played: Point | None = None) -> PositionEval:
    """Score ``board`` with one search within ``limit`` (a finished game without one).

    When ``played`` (the move the game went on with) is not the engine's best move,
    the position after the best move is searched too, for ``after_best``.

    >>> from gridgames.gomoku import Board
    >>> board = Board(15)
    >>> board.push_many([(7, 7), (0, 0), (8, 7), (0, 1), (9, 7), (0, 2), (10, 7), (0, 3)])
    >>> found = evaluate_position(board, Limit(depth=2))   # black makes five at l8 or g8
    >>> found.score >= MATE_BOUND, found.mate, found.best in [(11, 7), (6, 7)]
    (True, 1, True)
    """
    outcome = check_board(board).outcome()
    if outcome is not None:
        if outcome.winner is None:
            return PositionEval(0)
        return PositionEval(WIN_SCORE if outcome.winner is Color.BLACK else -WIN_SCORE)
    reason = None if played is None else board.illegal_reason(played)
    if reason is not None:  # the position after it would be no position of the game
        raise IllegalMoveError(f"the move played is not legal: {reason}")
    found = _from_search(board, analyse(board, limit, multipv=1)[0])
    if played is None or played == found.best or found.best is None:
        return found
    board = board.copy()
    board.push(found.best)
    return replace(found, after_best=evaluate_position(board, limit).score)


def _five_points(board: Board, color: Color) -> list[Point]:
    """Empty points where a stone of ``color`` would win at once."""
    out = np.empty(board.width * board.height, dtype=np.int64)
    count = five_points(board.grid.copy(), int(color), board.rule.code, out)
    return [(int(c) % board.width, int(c) // board.width) for c in out[:count]]


def only_answer(board: Board) -> Point | None:
    """The one move that does not lose at once, when there is exactly one.

    That is the point stopping the opponent's four when the side to move has no
    five of its own to make. Under caro a four blocked at one end can also be
    stopped at the far end of its five, which a five blocked at both ends does
    not win; then there are two answers.

    >>> from gridgames.gomoku import Board
    >>> board = Board(15)
    >>> board.push_many([(7, 7), (11, 7), (8, 7), (0, 0), (9, 7), (0, 1), (10, 7)])
    >>> only_answer(board)   # black's four h8-k8 is blocked at l8: white must take g8
    (6, 7)
    >>> board.push((0, 2))   # white lets it go: black has five points, one of its own
    >>> only_answer(board) is None
    True
    """
    if check_board(board).is_game_over():
        return None
    mover = board.to_move
    if _five_points(board, mover):
        return None
    fives = _five_points(board, mover.other)
    if not fives:
        return None
    # A stone that stops a five lies on one of its lines within five steps: the five
    # point, or under caro the far end of a five already blocked at the other end.
    near = {(x + k * dx, y + k * dy) for x, y in fives for dx, dy in DIRECTIONS
            for k in range(-5, 6)}
    answers = [p for p in sorted(near) if board.is_legal(p) and _stops_fives(board, p)]
    return answers[0] if len(answers) == 1 else None


def _stops_fives(board: Board, point: Point) -> bool:
    """Whether the side to move playing ``point`` leaves the opponent no five to make."""
    after = board.copy()
    after.push(point)
    return not _five_points(after, board.to_move.other)


# -- reviewing a game ------------------------------------------------------------


@dataclass(frozen=True)
class MoveReview:
    """One move of a reviewed game. Scores are from black's view; ``loss`` and
    ``accuracy`` are the mover's."""

    ply: int
    color: str
    move: Point
    best: Point | None
    score_before: int
    score: int
    mate: int | None
    win_probability: float  # black's, after the move
    loss: float
    accuracy: float
    label: str
    best_pv: tuple[Point, ...] = ()

    def to_dict(self, height: int) -> dict[str, object]:
        """JSON-ready form: points in renju notation, ``*_xy`` as ``[x, y]``."""
        return {
            "ply": self.ply,
            "color": self.color,
            "move": format_renju(self.move, height),
            "best": None if self.best is None else format_renju(self.best, height),
            "move_xy": list(self.move),
            "best_xy": None if self.best is None else list(self.best),
            "score_before": self.score_before,
            "score": self.score,
            "mate": self.mate,
            "win_probability": round(self.win_probability, 4),
            "loss": round(self.loss, 4),
            "accuracy": self.accuracy,
            "label": self.label,
            "best_pv": [format_renju(p, height) for p in self.best_pv],
        }


@dataclass(frozen=True)
class PlayerSummary:
    """A player's accuracy and how many moves got each label."""

    moves: int = 0
    accuracy: float | None = None
    best: int = 0
    good: int = 0
    forced: int = 0
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0


@dataclass(frozen=True)
class GameReview:
    """Every move judged, and ``scores``: black's-view score of each position from
    the empty board (index 0) to the final one."""

    width: int
    height: int
    moves: tuple[MoveReview, ...]
    scores: tuple[int, ...]
    summary: dict[str, PlayerSummary] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {
            "width": self.width,
            "height": self.height,
            "moves": [m.to_dict(self.height) for m in self.moves],
            "scores": list(self.scores),
            "win_probabilities": [round(win_probability(s), 4) for s in self.scores],
            "summary": {color: asdict(s) for color, s in self.summary.items()},
        }


def _summary(moves: Sequence[MoveReview]) -> PlayerSummary:
    if not moves:
        return PlayerSummary()
    count = {label: sum(m.label == label for m in moves) for label in LABELS}
    return PlayerSummary(
        moves=len(moves),
        accuracy=round(sum(m.accuracy for m in moves) / len(moves), 1),
        best=count["best"], good=count["good"], forced=count["forced"],
        inaccuracies=count["inaccuracy"], mistakes=count["mistake"], blunders=count["blunder"],
    )


def _judge(before: PositionEval, after: PositionEval, color: Color, move: Point,
           forced: bool) -> tuple[float, str]:
    """The mover's loss and the move's label."""
    if forced:
        return 0.0, "forced"
    sign = 1 if color is Color.BLACK else -1
    position_value, played_value = sign * before.score, sign * after.score
    loss = 0.0
    if move != before.best:
        # compare like with like: both searched with the opponent to move
        best_value = position_value if before.after_best is None else sign * before.after_best
        loss = max(0.0, win_probability(best_value) - win_probability(played_value))
    label = label_for_loss(loss)
    if position_value > -MATE_BOUND and played_value <= -MATE_BOUND:
        label = "blunder"  # the opponent now has a forced win they did not have
    elif position_value >= MATE_BOUND and played_value < MATE_BOUND \
            and _SEVERITY[label] < _SEVERITY["mistake"]:
        label = "mistake"  # a forced win let slip
    return loss, label


def review_from_evals(board: Board, evals: Sequence[PositionEval]) -> GameReview:
    """Judge the moves of ``board``'s game from the scores of its positions.

    ``evals[i]`` is the position after ``i`` moves (``evals[0]`` the empty board),
    so there is one more than there are moves. The scoring and the judging are
    apart so that front ends can score positions elsewhere (in worker processes).
    """
    moves = list(check_board(board).move_stack)
    if any(not isinstance(e, PositionEval) for e in evals):
        raise ValueError("evals must be PositionEval values, such as evaluate_position "
                         "returns")
    if len(evals) != len(moves) + 1:
        raise ValueError(f"need {len(moves) + 1} position scores for {len(moves)} moves, "
                         f"got {len(evals)}")
    replay = Board(board.width, board.height, rule=board.rule)
    reviews = []
    for ply, move in enumerate(moves, start=1):
        color = replay.to_move
        forced = only_answer(replay) == move
        before, after = evals[ply - 1], evals[ply]
        loss, label = _judge(before, after, color, move, forced)
        replay.push(move)
        reviews.append(MoveReview(
            ply=ply, color=color.label, move=move, best=before.best,
            score_before=before.score, score=after.score, mate=after.mate,
            win_probability=win_probability(after.score), loss=loss,
            accuracy=move_accuracy(loss), label=label, best_pv=before.pv,
        ))
    summary = {color.label: _summary([m for m in reviews if m.color == color.label])
               for color in Color}
    return GameReview(board.width, board.height, tuple(reviews),
                      tuple(e.score for e in evals), summary)


def game_positions(board: Board) -> Iterator[Board]:
    """Each position of ``board``'s game, from the empty board to the current one."""
    replay = Board(board.width, board.height, rule=board.rule)
    yield replay.copy()
    for move in board.move_stack:
        replay.push(move)
        yield replay.copy()


def review_game(board: Board, limit: Limit,
                on_progress: Callable[[int, int], None] | None = None) -> GameReview:
    """Score every position of ``board``'s game within ``limit`` each and judge the moves.

    ``on_progress(done, total)`` is called after each position.

    >>> from gridgames.gomoku import Board
    >>> board = Board(15)
    >>> board.push_many([(7, 7), (8, 8), (6, 7), (9, 9), (5, 7), (0, 0),  # white ignores
    ...                  (4, 7), (3, 7), (8, 7)])                        # the open three
    >>> review = review_game(board, Limit(depth=3))
    >>> [m.label for m in review.moves][5], review.moves[5].best in [(4, 7), (8, 7), (3, 7)]
    ('blunder', True)
    >>> review.moves[-1].score == WIN_SCORE, review.summary["white"].blunders >= 1
    (True, True)
    """
    positions = list(game_positions(check_board(board)))
    played: list[Point | None] = [*board.move_stack, None]
    evals = []
    for done, (position, move) in enumerate(zip(positions, played, strict=True), start=1):
        evals.append(evaluate_position(position, limit, move))
        if on_progress is not None:
            on_progress(done, len(positions))
    return review_from_evals(board, evals)


# -- candidate moves ---------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """One of the engine's best moves, with its score from black's view."""

    move: Point
    score: int
    mate: int | None
    depth: int
    pv: tuple[Point, ...]

    def to_dict(self, height: int) -> dict[str, object]:
        return {
            "move": format_renju(self.move, height),
            "move_xy": list(self.move),
            "score": self.score,
            "mate": self.mate,
            "depth": self.depth,
            "win_probability": round(win_probability(self.score), 4),
            "pv": [format_renju(p, height) for p in self.pv],
        }


def candidates(board: Board, limit: Limit, count: int = 3) -> list[Candidate]:
    """The engine's ``count`` best moves for the side to move, best first.

    >>> from gridgames.gomoku import Board
    >>> board = Board(15)
    >>> board.push_many([(7, 7), (8, 8)])
    >>> found = candidates(board, Limit(depth=2), 3)
    >>> len(found), len({c.move for c in found}), all(board.is_legal(c.move) for c in found)
    (3, 3, True)
    """
    number = as_whole(count)
    if number is None or number < 1:
        raise ValueError(f"count must be a whole number of 1 or more, got {shown_value(count)}")
    if check_board(board).is_game_over():
        raise ValueError(f"the game is over ({board.outcome()}); there are no candidates")
    if not board.move_stack:
        centre = (board.width // 2, board.height // 2)
        return [Candidate(centre, 0, None, 0, (centre,))]
    found = []
    for result in analyse(board, limit, multipv=number):
        evaluation = _from_search(board, result)
        found.append(Candidate(result.move, evaluation.score, evaluation.mate, result.depth,
                               result.pv))
    return found


def deepening_candidates(board: Board, limit: Limit, count: int = 3,
                         first_depth: int = 2) -> Iterator[list[Candidate]]:
    """Candidates at growing depths (2, 4, 6 ...) until ``limit``'s depth is reached,
    for a display updated while the engine thinks; each list replaces the last."""
    if not isinstance(limit, Limit):
        raise ValueError(f"limit must be a Limit, such as Limit(depth=8), got "
                         f"{shown_value(limit)}")
    depth = as_whole(first_depth)
    if depth is None:
        raise ValueError(f"first_depth must be a whole number, got {shown_value(first_depth)}")
    most = limit.depth if limit.depth is not None else 40
    depth = max(1, depth)
    while depth <= most:
        found = candidates(board, Limit(time_ms=limit.time_ms, nodes=limit.nodes, depth=depth),
                           count)
        yield found
        if found[0].depth < depth:  # the time or node limit stopped this depth
            return
        depth += 2
