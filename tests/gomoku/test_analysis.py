"""Game review: labels, the forced-win rules, forced answers, accuracy and candidates."""

from __future__ import annotations

import math

import pytest

from gridgames.gomoku import Board, IllegalMoveError, Rule
from gridgames.gomoku.ai import Limit, think
from gridgames.gomoku.analysis import (
    MATE_BOUND,
    WIN_PROBABILITY_SCALE,
    WIN_SCORE,
    PositionEval,
    candidates,
    deepening_candidates,
    evaluate_position,
    label_for_loss,
    move_accuracy,
    only_answer,
    review_from_evals,
    review_game,
    win_probability,
)
from gridgames.gomoku.notation import format_renju, parse_position
from review_game import BEST_ANSWERS, BLUNDER_PLY, IGNORED_THREE

LIMIT = Limit(depth=5)


def game(text: str, rule: Rule = Rule.FREESTYLE) -> Board:
    board = Board(15, rule=rule)
    board.push_many(parse_position(text, 15, 15))
    return board


@pytest.fixture(scope="module")
def review():
    return review_game(game(IGNORED_THREE), LIMIT)


def test_ignoring_an_open_three_is_a_blunder_and_the_winner_plays_well(review):
    labels = {m.ply: m.label for m in review.moves}
    assert labels[BLUNDER_PLY] == "blunder"
    blunder = review.moves[BLUNDER_PLY - 1]
    assert blunder.color == "white" and format_renju(blunder.best, 15) in BEST_ANSWERS
    assert blunder.score >= MATE_BOUND and blunder.mate is not None and blunder.mate > 0
    assert blunder.loss > 0.1
    for move in review.moves:
        if move.color == "black":
            assert move.label in ("best", "good", "forced"), move
    assert review.summary["white"].blunders == 1
    assert review.summary["black"].blunders == 0
    assert review.summary["black"].accuracy > review.summary["white"].accuracy


def test_scores_are_from_blacks_view_and_the_five_ends_at_the_win_score(review):
    assert len(review.scores) == len(review.moves) + 1
    assert review.scores[-1] == WIN_SCORE
    assert [m.score for m in review.moves] == list(review.scores[1:])
    assert all(m.score_before == s for m, s in zip(review.moves, review.scores, strict=False))


def test_the_only_defence_against_a_four_is_labelled_forced():
    # black h8 i8 j8 k8 with l8 white: white's only answer is g8
    board = game("h8l8i8a1j8a2k8g8")
    review = review_game(board, Limit(depth=3))
    assert review.moves[-1].label == "forced"
    assert review.summary["white"].forced == 1


def test_only_answer_is_none_without_a_four_or_against_an_open_four():
    assert only_answer(game("h8i9")) is None
    assert only_answer(game("h8a1i8a2j8a3k8")) is None  # g8 and l8: no single answer


def test_a_caro_four_blocked_at_one_end_has_two_answers():
    # white may take g8, or f8, which leaves g8-k8 blocked at both ends
    assert only_answer(game("h8l8i8a1j8a2k8", Rule.CARO)) is None
    assert only_answer(game("h8l8i8a1j8a2k8", Rule.STANDARD)) == (6, 7)
    # the board's edge blocks nothing: b8-e8 against f8 is stopped at a8 alone
    assert only_answer(game("b8f8c8o1d8o2e8", Rule.CARO)) == (0, 7)


def test_handing_over_a_forced_win_is_a_blunder_whatever_the_numbers():
    board = game("h8i9")
    evals = [PositionEval(0, best=(7, 7)), PositionEval(20, best=(9, 9), after_best=25),
             PositionEval(WIN_SCORE - 9, mate=5)]
    review = review_from_evals(board, evals)
    assert review.moves[1].label == "blunder"


def test_letting_ones_own_forced_win_slip_is_at_least_a_mistake():
    board = game("h8i9")
    evals = [PositionEval(0, best=(7, 7)),
             PositionEval(-(WIN_SCORE - 7), mate=-4, best=(1, 1), after_best=-(WIN_SCORE - 7)),
             PositionEval(-WIN_PROBABILITY_SCALE * 9)]  # still far ahead, the win is gone
    review = review_from_evals(board, evals)
    assert review.moves[1].loss < 0.01
    assert review.moves[1].label == "mistake"


def test_review_needs_one_score_per_position():
    with pytest.raises(ValueError, match="need 3 position scores for 2 moves"):
        review_from_evals(game("h8i9"), [PositionEval(0)])


def test_win_probability_is_the_documented_logistic():
    for score in (-600, -50, 0, 137, 900):
        expected = 1 / (1 + math.exp(-score / WIN_PROBABILITY_SCALE))
        assert win_probability(score) == pytest.approx(expected)
    assert win_probability(MATE_BOUND) == 1.0 and win_probability(-MATE_BOUND) == 0.0


def test_thresholds_and_accuracy_are_monotonic():
    losses = [0.0, 0.05, 0.15, 0.25, 0.45]
    assert [label_for_loss(x) for x in losses] == [
        "best", "good", "inaccuracy", "mistake", "blunder"]
    accuracies = [move_accuracy(x) for x in losses]
    assert accuracies == sorted(accuracies, reverse=True) and accuracies[0] == 100.0


def test_candidates_are_distinct_legal_and_best_first():
    board = game("h8i9h9")
    found = candidates(board, Limit(depth=3), 4)
    assert len(found) == 4 and len({c.move for c in found}) == 4
    assert all(board.is_legal(c.move) for c in found)
    # white to move: black's view scores, best for white (lowest) first
    assert [c.score for c in found] == sorted(c.score for c in found)


def test_candidates_find_the_winning_five():
    board = game("h8a1i8a2j8a3k8a4")
    best = candidates(board, Limit(depth=2), 2)[0]
    assert best.move in [(6, 7), (11, 7)] and best.score >= MATE_BOUND


def test_candidates_refuse_a_finished_game_and_a_bad_count():
    with pytest.raises(ValueError, match="the game is over"):
        candidates(game("h8a1i8a2j8a3k8a4l8"), Limit(depth=2))
    with pytest.raises(ValueError, match="count must be a whole number of 1 or more, got 0"):
        candidates(game("h8"), Limit(depth=2), 0)


# White to move under renju must block black's four at i5, and then wins by force.
ONE_MOVE_LEFT = ("h8i9j6g9k6h10j8i11f8i8i10j9h9h7k10j11i6g6f5l6j10h11g11f7g7e8d9j12k13k11"
                 "l11l10i13k5j4m9n8h5i4l9k9l8l7")


def test_a_position_with_one_move_left_is_valued_by_searching_on() -> None:
    """A game plays the only move at once, after two plies; a review searches on, or it
    would value this won position as lost for white."""
    board = Board(15, rule=Rule.RENJU)
    board.push_many(parse_position(ONE_MOVE_LEFT, 15, 15))
    assert think(board, Limit(depth=6)).depth == 2
    found = evaluate_position(board, Limit(depth=6))
    assert found.best == board.parse("i5")
    assert found.mate is not None and found.mate < 0  # from black's view: white wins
    assert found.depth == 6


def test_every_entry_point_refuses_what_is_not_a_board() -> None:
    """Each was an AttributeError: 'NoneType' object has no attribute 'outcome'..."""
    for call in (lambda: evaluate_position(None, Limit(depth=1)),  # type: ignore[arg-type]
                 lambda: only_answer(None),  # type: ignore[arg-type]
                 lambda: candidates(None, Limit(depth=1)),  # type: ignore[arg-type]
                 lambda: review_game(None, Limit(depth=1)),  # type: ignore[arg-type]
                 lambda: review_from_evals(None, [])):  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"^board must be a Board, such as Board\(15\), "
                                             r"got None$"):
            call()


def test_a_move_played_that_is_not_legal_is_refused() -> None:
    """evaluate_position scored the position after the best move all the same, for a move
    played that no game could go on with."""
    board = game("h8i9")
    for played, says in [((99, 99), r"\(99, 99\) is off the board"),
                         ((7, 7), "h8 is occupied by black"),
                         ("h8", "'h8' is not a point")]:
        with pytest.raises(IllegalMoveError, match=f"^the move played is not legal: {says}"):
            evaluate_position(board, Limit(depth=1), played)  # type: ignore[arg-type]


def test_counts_depths_and_limits_of_the_wrong_kind_are_refused() -> None:
    """candidates(board, limit, "3") was a TypeError, 2.5 refused as a "multipv";
    deepening_candidates(board, None) an AttributeError."""
    board = game("h8i9")
    for count in ("3", None, 2.5, True):
        with pytest.raises(ValueError, match=r"^count must be a whole number of 1 or more, got "):
            candidates(board, Limit(depth=1), count)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^limit must be a Limit, such as Limit\(depth=8\), "
                                         r"got None$"):
        next(deepening_candidates(board, None))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^first_depth must be a whole number, got '2'$"):
        next(deepening_candidates(board, Limit(depth=2), 3, "2"))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^evals must be PositionEval values"):
        review_from_evals(board, [1, 2, 3])  # type: ignore[list-item]


@pytest.mark.parametrize("loss", [float("nan"), -1e6, -0.5, 1.5, None])
def test_a_loss_that_is_no_fall_in_win_probability_is_refused(loss: object) -> None:
    """move_accuracy(-1e6) was an OverflowError, label_for_loss(nan) 'blunder' and
    move_accuracy(nan) 0.0."""
    for judge in (label_for_loss, move_accuracy):
        with pytest.raises(ValueError, match=r"^a move's loss (must be a finite number|is a fall "
                                             r"in win probability, from 0 to 1), got "):
            judge(loss)  # type: ignore[arg-type]


def test_a_score_that_is_no_number_has_no_win_probability() -> None:
    """win_probability(nan) was nan."""
    with pytest.raises(ValueError, match=r"^score must be a finite number, got nan$"):
        win_probability(float("nan"))
    assert win_probability(10**400) == 1.0
