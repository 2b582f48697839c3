"""The computer's actions under the opening rules: always allowed, and judged by the search."""

from __future__ import annotations

import random

import pytest

from gridgames.gomoku import Board, Color, Rule
from gridgames.gomoku.ai import Limit
from gridgames.gomoku.ai.opening_play import decide
from gridgames.gomoku.opening_rules import Opening, OpeningRule, Player, steps_from_centre


def small_limit(time_ms: int) -> Limit:
    return Limit(time_ms=max(time_ms, 1), nodes=4_000)


def play_out(rule: OpeningRule, game_rule: Rule, seed: int, size: int = 15) -> Opening:
    """The computer acts for both players until the opening is over."""
    opening = Opening(rule, Board(size, rule=game_rule))
    rng = random.Random(seed)
    while not opening.done:
        acting = opening.to_act
        decision = decide(opening, 400, small_limit, rng=rng)
        assert decision.actions
        for action in decision.actions:
            assert opening.to_act is acting  # a decision never acts for the other player
            opening.apply(action)
        if decision.move is not None:  # the computer's next move, for the side to move
            assert opening.done and opening.board.is_legal(decision.move)
    return opening


@pytest.mark.parametrize(("rule", "game_rule"), [
    (OpeningRule.SWAP, Rule.STANDARD), (OpeningRule.SWAP2, Rule.FREESTYLE),
    (OpeningRule.SWAP2, Rule.CARO), (OpeningRule.SOOSORV, Rule.RENJU),
    (OpeningRule.TARAGUCHI, Rule.RENJU), (OpeningRule.YAMAGUCHI, Rule.RENJU),
    (OpeningRule.PRO, Rule.FREESTYLE), (OpeningRule.LONG_PRO, Rule.STANDARD),
])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_computer_completes_every_opening(rule: OpeningRule, game_rule: Rule,
                                              seed: int) -> None:
    opening = play_out(rule, game_rule, seed)
    assert len(opening.board) in (3, 4, 5)
    assert opening.board.outcome() is None
    if rule in (OpeningRule.SOOSORV, OpeningRule.YAMAGUCHI, OpeningRule.TARAGUCHI):
        assert len(opening.board) == 5
        in_areas = 4 if rule is OpeningRule.TARAGUCHI else 3  # Taraguchi's 5th may be offered
        for ring, point in enumerate(opening.board.move_stack[:in_areas]):
            assert steps_from_centre(opening.board, point) <= ring
    if rule in (OpeningRule.PRO, OpeningRule.LONG_PRO):
        first, _, third = opening.board.move_stack
        assert steps_from_centre(opening.board, first) == 0
        assert steps_from_centre(opening.board, third) >= (3 if rule is OpeningRule.PRO else 4)
        assert opening.player(Color.BLACK) is Player.FIRST


def test_small_boards_too() -> None:
    assert play_out(OpeningRule.SOOSORV, Rule.RENJU, 3, size=7).done
    assert play_out(OpeningRule.TARAGUCHI, Rule.RENJU, 3, size=7).done
    assert play_out(OpeningRule.SWAP2, Rule.FREESTYLE, 3, size=9).done


def soosorv_to_offer(declared: int) -> Opening:
    return Opening.replay(OpeningRule.SOOSORV, Board(15, rule=Rule.RENJU), [
        "place h8", "place i9", "place j8", "choose white", "place h10",
        f"declare {declared}", "choose black"])


@pytest.mark.parametrize("declared", [1, 4, 8])
def test_black_offers_the_declared_number_none_symmetric(declared: int) -> None:
    opening = soosorv_to_offer(declared)
    (action,) = decide(opening, 300, small_limit).actions
    opening.apply(action)  # refused if the count is wrong or two offers are symmetric
    assert len(opening.offers) == declared
    assert all(steps_from_centre(opening.board, p) <= 4 for p in opening.offers[:1])


def test_white_picks_the_offer_that_wastes_blacks_move() -> None:
    opening = soosorv_to_offer(2)
    opening.apply("offer g7 a1")  # a1: black's fifth stone far from everything
    (action,) = decide(opening, 1_000, lambda ms: Limit(nodes=20_000)).actions
    assert action == "pick a1"


def test_white_declares_within_the_bounds() -> None:
    opening = Opening.replay(OpeningRule.SOOSORV, Board(15, rule=Rule.RENJU), [
        "place h8", "place h9", "place h6", "choose white"])
    place, declare = decide(opening, 600, small_limit).actions
    opening.apply(place)
    opening.apply(declare)
    assert 1 <= opening.declared <= 8
    assert opening.to_act is opening.player(Color.BLACK)  # black may swap now


def test_a_colour_is_chosen_by_the_positions_value() -> None:
    # Black's three in a row, open at both ends, against two scattered white stones:
    # whoever chooses takes black.
    opening = Opening.replay(OpeningRule.SWAP2, Board(15), [
        "place h8", "place a1", "place i8", "place o15", "place j8"])
    assert opening.allowed == ("choose",)
    decision = decide(opening, 1_000, lambda ms: Limit(nodes=20_000))
    assert decision.actions == ("choose black",) and decision.move is None
    assert opening.board.to_move is Color.WHITE


def test_nothing_to_decide_once_the_opening_is_over() -> None:
    with pytest.raises(ValueError, match="the opening is over"):
        decide(Opening(OpeningRule.FREE, Board(15)), 100, small_limit)


def taraguchi_to_fifth() -> Opening:
    return Opening.replay(OpeningRule.TARAGUCHI, Board(15, rule=Rule.RENJU), [
        "place h8", "choose black", "place i9", "choose white", "place j8", "choose black",
        "place g6", "choose black"])


def test_taraguchi_fifth_is_placed_in_its_area_or_offered() -> None:
    opening = taraguchi_to_fifth()
    assert opening.allowed == ("offer", "place")
    (action,) = decide(opening, 600, small_limit).actions
    opening.apply(action)  # refused outside the 9×9 or with a wrong number of offers
    if action.startswith("offer"):
        assert len(opening.offers) == 10
    else:
        assert steps_from_centre(opening.board, opening.board.move_stack[-1]) <= 4


def test_yamaguchi_declaration_counts_on_whites_best_fourth() -> None:
    opening = Opening.replay(OpeningRule.YAMAGUCHI, Board(15, rule=Rule.RENJU),
                             ["place h8", "place h9", "place i9"])
    decision = decide(opening, 400, small_limit)
    assert len(decision.actions) == 1 and decision.actions[0].startswith("declare ")
    assert 1 <= int(decision.actions[0].split()[1]) <= opening.max_offers
    opening.apply(decision.actions[0])
    (choice,) = decide(opening, 400, small_limit).actions
    assert choice in ("choose black", "choose white")


def test_pro_third_stone_where_the_search_would_not_go() -> None:
    # black's best third stone is next to its first; Long Pro sends it 4 rings out
    opening = Opening.replay(OpeningRule.LONG_PRO, Board(15), ["place h8", "place h9"])
    (action,) = decide(opening, 400, small_limit).actions
    opening.apply(action)
    assert opening.done and steps_from_centre(opening.board, opening.board.move_stack[2]) == 4
