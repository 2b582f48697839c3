"""Tactical behaviour under every rule: win at once, block, caro's blocked fives, renju fouls."""

from __future__ import annotations

import pytest
from ai_helpers import position, stones

from gridgames.gomoku import Color, Foul, Rule
from gridgames.gomoku.ai import Limit, think

QUICK = Limit(time_ms=2000, depth=4)


@pytest.mark.parametrize("rule", list(Rule))
def test_black_makes_five(rule: Rule) -> None:
    board = position("h8 i8 j8 k8", "h10 i10 j10 a1", rule=rule)
    result = think(board, QUICK)
    assert result.move in stones("g8 l8")
    assert result.mate == 1 and result.score_text == "win in 1"


@pytest.mark.parametrize("rule", list(Rule))
def test_white_makes_five(rule: Rule) -> None:
    board = position("h8 i8 j8 a1 o15", "h9 i9 j9 k9", rule=rule)
    result = think(board, QUICK)
    assert result.move in stones("g9 l9")
    assert result.mate == 1


CARO_RULES = (Rule.CARO, Rule.CARO_EXACT)


@pytest.mark.parametrize("rule", list(Rule))
def test_black_blocks_a_four(rule: Rule) -> None:
    board = position("g9 a15 o15 o1", "h9 i9 j9 k9", rule=rule)
    assert board.to_move is Color.BLACK
    # under caro m9 stops it too: h9-l9 would be blocked at both ends
    answers = "l9 m9" if rule in CARO_RULES else "l9"
    assert think(board, QUICK).move in stones(answers)


@pytest.mark.parametrize("rule", list(Rule))
def test_white_blocks_a_four(rule: Rule) -> None:
    board = position("h8 i8 j8 k8 a15", "g8 a1 o1 o15", rule=rule)
    # under caro m8 stops it too: h8-l8 would be blocked at both ends
    answers = "l8 m8" if rule in CARO_RULES else "l8"
    assert think(board, QUICK).move in stones(answers)


@pytest.mark.parametrize("rule", list(Rule))
def test_open_three_gets_blocked(rule: Rule) -> None:
    board = position("g8 h8 i8 a15 o1", "h9 a1 o15 b14", rule=rule)  # white to move
    move = think(board, QUICK).move
    assert move in stones("f8 j8 e8 k8")


BLOCKED_FIVE = ("d8 e8 f8 g8 g12 a1", "c8 i8 h12 i12 j12 k12")


def test_freestyle_completes_the_five() -> None:
    board = position(*BLOCKED_FIVE, rule=Rule.FREESTYLE)
    assert think(board, QUICK).move == stones("h8")[0]


@pytest.mark.parametrize("rule", [Rule.CARO, Rule.CARO_EXACT])
def test_caro_ignores_a_five_blocked_at_both_ends(rule: Rule) -> None:
    board = position(*BLOCKED_FIVE, rule=rule)
    result = think(board, QUICK)
    # blocking white's real four h12-k12: at l12, or at m12 (then h12-l12 would be
    # blocked at both ends)
    assert result.move in stones("l12 m12")
    assert result.mate is None or result.mate < 0 or result.mate > 1


@pytest.mark.parametrize("rule", [Rule.CARO, Rule.CARO_EXACT])
def test_caro_blocks_the_side_that_leaves_a_double_blocked_five(rule: Rule) -> None:
    # black: d8 white, e8 empty, f8-i8 black, j8 and k8 empty. Blocking j8 leaves
    # e8 as black's only five, and that one would be blocked at both ends.
    board = position("f8 g8 h8 i8 a15", "d8 a1 o1 o15", rule=rule)
    result = think(board, QUICK)
    assert result.move == stones("j8")[0]
    board.push(result.move)
    board.push(stones("e8")[0])
    assert board.outcome() is None


def renju_forbidden_trap():
    """White to move wins by a four whose only block is a double three for black."""
    return position("f8 g8 h10 h9 d12 a1", "e11 f10 g9 o1 o15", rule=Rule.RENJU)


def test_renju_white_wins_by_forcing_a_forbidden_point() -> None:
    board = renju_forbidden_trap()
    result = think(board, QUICK)
    assert result.move == stones("i7")[0]
    assert result.mate == 2
    board.push(result.move)
    assert board.foul(stones("h8")[0]) is Foul.DOUBLE_THREE


def test_renju_black_never_plays_the_forbidden_block() -> None:
    board = renju_forbidden_trap()
    board.push(stones("i7")[0])
    result = think(board, QUICK)
    assert board.is_legal(result.move)
    assert result.mate is not None and result.mate < 0


OVERLINE_FOUR = ("d8 f8 g8 h8 i8 a15", "c8 a1 o1 o15 b2")  # e8 would make six for black


def test_renju_black_wins_with_the_exact_five_not_the_overline() -> None:
    board = position(OVERLINE_FOUR[0], OVERLINE_FOUR[1] + " n2", rule=Rule.RENJU)
    assert board.foul(stones("e8")[0]) is Foul.OVERLINE
    result = think(board, QUICK)
    assert result.move == stones("j8")[0]
    assert result.mate == 1


def test_renju_white_blocks_only_the_real_five() -> None:
    board = position(*OVERLINE_FOUR, rule=Rule.RENJU)
    assert think(board, QUICK).move == stones("j8")[0]
