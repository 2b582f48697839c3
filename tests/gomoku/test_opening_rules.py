"""The opening rules' state machine: whose action, what is allowed, what is refused and why."""

from __future__ import annotations

import re
from itertools import product

import numpy as np
import pytest

from gridgames.gomoku import Board, Color, Rule
from gridgames.gomoku.ai.opening_play import soosorv_openings
from gridgames.gomoku.opening_rules import (
    Opening,
    OpeningError,
    OpeningRule,
    Player,
    canonical_opening,
    opening_name,
    renju_opening_code,
    symmetries,
)

FIRST, SECOND = Player.FIRST, Player.SECOND


def opening(rule: OpeningRule, *actions: str, size: int = 15,
            game_rule: Rule = Rule.FREESTYLE) -> Opening:
    return Opening.replay(rule, Board(size, rule=game_rule), actions)


def soosorv(*actions: str) -> Opening:
    return opening(OpeningRule.SOOSORV, *actions, game_rule=Rule.RENJU)


# h8 centre, i9 in the 3×3, j8 in the 5×5; the second player keeps white; h10 the 4th stone
SOOSORV_TO_DECLARE = ("place h8", "place i9", "place j8", "choose white", "place h10")


def test_no_opening_rule_is_over_before_it_starts() -> None:
    free = Opening(OpeningRule.FREE, Board(15))
    assert free.done and free.to_act is None and free.allowed == ()
    assert free.player(Color.BLACK) is FIRST
    with pytest.raises(OpeningError, match="the opening is over"):
        free.apply("place h8")


def test_swap_the_second_player_chooses_after_three_stones() -> None:
    swap = opening(OpeningRule.SWAP, "place h8", "place h9")
    assert (swap.to_act, swap.allowed) == (FIRST, ("place",))
    assert swap.prompt() == "place the 3rd stone (black)"
    swap.apply("place j10")
    assert (swap.to_act, swap.allowed) == (SECOND, ("choose",))
    swap.apply("choose black")
    assert swap.done
    assert swap.player(Color.BLACK) is SECOND and swap.color(FIRST) is Color.WHITE
    assert swap.board.to_move is Color.WHITE and len(swap.board) == 3


@pytest.mark.parametrize(("choice", "black"), [("choose black", SECOND), ("choose white", FIRST)])
def test_swap2_second_player_takes_a_colour(choice: str, black: Player) -> None:
    swap2 = opening(OpeningRule.SWAP2, "place h8", "place h9", "place j10", choice)
    assert swap2.done and swap2.player(Color.BLACK) is black
    assert swap2.board.to_move is Color.WHITE


def test_swap2_two_more_stones_and_the_first_player_chooses() -> None:
    swap2 = opening(OpeningRule.SWAP2, "place h8", "place h9", "place j10")
    assert swap2.allowed == ("choose", "place")
    swap2.apply("place g7")  # the third option: place white's 4th and black's 5th
    assert (swap2.to_act, swap2.allowed) == (SECOND, ("place",))
    assert swap2.prompt() == "place the 5th stone (black)"
    swap2.apply("place k11")
    assert (swap2.to_act, swap2.allowed) == (FIRST, ("choose",))
    swap2.apply("choose white")
    assert swap2.done and swap2.player(Color.WHITE) is FIRST
    assert sorted(swap2.board.stones(Color.BLACK)) == [(7, 7), (9, 5), (10, 4)]
    assert swap2.history[-3:] == ["place g7", "place k11", "choose white"]


def test_soosorv_stones_go_in_the_central_areas() -> None:
    first = soosorv()
    assert first.prompt() == "place the 1st stone (black) at the centre, h8"
    with pytest.raises(OpeningError, match="the 1st stone goes at the centre, h8"):
        first.apply("place h9")
    second = soosorv("place h8")
    with pytest.raises(OpeningError, match=r"j10 is outside .* 3×3, g7 to i9"):
        second.apply("place j10")
    third = soosorv("place h8", "place i9")
    with pytest.raises(OpeningError, match=r"central 5×5, f6 to j10"):
        third.apply("place k8")
    third.apply("place f6")  # a corner of the 5×5
    assert third.allowed == ("choose",)


def test_soosorv_from_the_first_stone_to_the_sixth() -> None:
    game = soosorv(*SOOSORV_TO_DECLARE)
    # the second player kept white: it placed the 4th stone and now declares
    assert (game.to_act, game.allowed) == (SECOND, ("declare",))
    for bad, message in [("declare 0", "declare 1 to 8"), ("declare 9", "declare 1 to 8"),
                         ("declare three", "declare a number")]:
        with pytest.raises(OpeningError, match=message):
            game.apply(bad)
    game.apply("declare 3")
    assert (game.to_act, game.allowed) == (FIRST, ("choose",))  # black may swap
    game.apply("choose white")  # it does: the second player now holds black
    assert (game.to_act, game.allowed) == (SECOND, ("offer",))
    assert game.prompt() == "offer 3 5th moves for black, no two of them symmetric"
    with pytest.raises(OpeningError, match="offer exactly 3 5th moves, not 2"):
        game.apply("offer g6 k6")
    with pytest.raises(OpeningError, match="h8 is occupied"):
        game.apply("offer h8 g6 k6")
    game.apply("offer g6 k6 f10")
    assert (game.to_act, game.allowed) == (FIRST, ("pick",))
    with pytest.raises(OpeningError, match="pick one of the offers: g6, k6, f10"):
        game.apply("pick a1")
    game.apply("pick k6")
    assert game.done and game.board.to_move is Color.WHITE
    assert game.board[(10, 9)] is Color.BLACK and len(game.board) == 5
    assert game.player(Color.WHITE) is FIRST


def test_soosorv_offers_may_not_be_symmetric() -> None:
    # black h8, h6, white h9, h10: every stone on column h, so g7 mirrors i7
    game = opening(OpeningRule.SOOSORV, "place h8", "place h9", "place h6", "choose white",
                   "place h10", "declare 2", "choose black", game_rule=Rule.RENJU)
    assert len(symmetries(game.board)) == 2
    with pytest.raises(OpeningError, match="g7 and i7 are symmetric"):
        game.apply("offer g7 i7")
    game.apply("offer g7 j6")
    assert game.offers == ((6, 8), (9, 9))


def test_declared_count_is_bounded_by_the_distinct_fifth_moves() -> None:
    # On 5×5 a symmetric opening leaves few distinct fifth moves.
    game = opening(OpeningRule.SOOSORV, "place c3", "place c4", "place c2", "choose white",
                   "place c5", size=5)
    classes = game.fifth_move_classes()
    assert sorted(p for group in classes for p in group) == sorted(game.board.legal_moves)
    assert len(classes) < len(game.board.legal_moves)
    most = min(8, len(classes))
    assert game.prompt().endswith(f"(1 to {most})")
    with pytest.raises(OpeningError, match=f"declare 1 to {most} 5th moves"):
        game.apply(f"declare {most + 1}")


def test_actions_in_the_wrong_place_say_what_is_allowed() -> None:
    game = opening(OpeningRule.SWAP, "place h8", "place h9", "place j10")
    with pytest.raises(OpeningError, match="cannot place now: choose a colour"):
        game.apply("place a1")
    with pytest.raises(OpeningError, match="choose black or white, not 'red'"):
        game.apply("choose red")
    with pytest.raises(OpeningError, match="unknown action 'jump'"):
        game.apply("jump h8")
    with pytest.raises(OpeningError, match="name a point"):
        opening(OpeningRule.SWAP).apply("place")
    with pytest.raises(OpeningError, match="z99"):
        opening(OpeningRule.SWAP).apply("place z99")
    with pytest.raises(OpeningError, match=r"action 2 \('place h8'\): h8 is occupied"):
        opening(OpeningRule.SWAP, "place h8", "place h8")


def test_history_replays_to_the_same_opening() -> None:
    game = soosorv(*SOOSORV_TO_DECLARE, "declare 2", "choose black", "offer g6 k6", "pick g6")
    again = soosorv(*game.history)
    assert again.history == game.history and again.board == game.board
    assert again.black is game.black


def test_an_opening_starts_on_an_empty_board() -> None:
    board = Board(15)
    board.push((7, 7))
    with pytest.raises(OpeningError, match="empty board"):
        Opening(OpeningRule.SWAP2, board)


def test_rule_names() -> None:
    assert OpeningRule.parse("Soosõrv-8") is OpeningRule.SOOSORV
    assert OpeningRule.parse(" SWAP2 ") is OpeningRule.SWAP2
    assert OpeningRule.parse("Long Pro") is OpeningRule.LONG_PRO
    with pytest.raises(ValueError, match="free, swap, swap2, soosorv, yamaguchi, taraguchi, "
                                         "pro, longpro"):
        OpeningRule.parse("rif")
    assert OpeningRule.SOOSORV.display_name == "Soosõrv-8"


def test_non_square_boards_have_four_symmetries_at_most() -> None:
    assert len(symmetries(Board(15, 11))) == 4
    assert len(symmetries(Board(15))) == 8


def test_the_26_canonical_openings() -> None:
    openings = soosorv_openings(15, 15)
    assert len(openings) == 26
    for stones in openings:  # each is allowed to Soosõrv's first player
        soosorv(*(f"place {Board(15).point_name(p)}" for p in stones))
    keys = set()
    empty = symmetries(Board(15))
    for stones in openings:
        images = {tuple(image(p) for p in stones) for image in empty}
        assert not images & keys  # no two are symmetric
        keys |= images
    # and every allowed three stones are one of them
    for dx2, dy2, dx3, dy3 in product(range(-1, 2), range(-1, 2), range(-2, 3), range(-2, 3)):
        stones = ((7, 7), (7 + dx2, 7 + dy2), (7 + dx3, 7 + dy3))
        if len(set(stones)) == 3:
            assert stones in keys


def test_every_allowed_start_is_named() -> None:
    named = set()
    for dx2, dy2, dx3, dy3 in product(range(-1, 2), range(-1, 2), range(-2, 3), range(-2, 3)):
        stones = [(7, 7), (7 + dx2, 7 + dy2), (7 + dx3, 7 + dy3)]
        if len(set(stones)) == 3:
            board = Board(15)
            board.push_many(stones)
            code = renju_opening_code(board)
            assert code is not None
            named.add(code)
    assert len(named) == 26
    board = Board(15)
    board.push_many([(7, 7), (7, 6), (11, 11)])  # the third stone far out: no canonical opening
    assert renju_opening_code(board) is None
    game = soosorv("place h8", "place h9", "place i9")
    assert game.prompt() == "choose a colour: black or white (the opening is 4D Kagetsu)"
    assert opening_name("13I") == "13I Suisei"


def taraguchi(*actions: str) -> Opening:
    return opening(OpeningRule.TARAGUCHI, *actions, game_rule=Rule.RENJU)


TARAGUCHI_TO_FIFTH = ("place h8", "choose black", "place i9", "choose black", "place j8",
                      "choose white", "place g6", "choose white")


def test_taraguchi_a_swap_after_every_stone() -> None:
    game = taraguchi()
    acting = []
    for action in TARAGUCHI_TO_FIFTH:
        acting.append((game.to_act, game.allowed))
        game.apply(action)
    # the colour to move's player places; the other may swap
    assert acting == [(FIRST, ("place",)), (SECOND, ("choose",)),  # second takes black
                      (FIRST, ("place",)), (SECOND, ("choose",)),  # first places white's 2nd
                      (SECOND, ("place",)), (FIRST, ("choose",)),
                      (FIRST, ("place",)), (SECOND, ("choose",))]  # second gives black away
    assert game.player(Color.BLACK) is FIRST
    assert (game.to_act, game.allowed) == (FIRST, ("offer", "place"))
    assert game.prompt() == ("place the 5th stone (black) in the central 9×9, d4 to l12, or "
                             "offer 10 5th moves anywhere, no two of them symmetric")


def test_taraguchi_areas_grow_a_ring_a_stone() -> None:
    with pytest.raises(OpeningError, match=r"the 4th stone goes in the central 7×7, e5 to k11"):
        taraguchi(*TARAGUCHI_TO_FIFTH[:6], "place l8")
    with pytest.raises(OpeningError, match=r"the 5th stone goes in the central 9×9, d4 to l12"):
        taraguchi(*TARAGUCHI_TO_FIFTH, "place m8")


@pytest.mark.parametrize("size", [5, 6, 7])
def test_taraguchi_on_a_board_smaller_than_its_areas(size: int) -> None:
    # the 7×7 and 9×9 areas run past the edge: there the stone may go anywhere
    game = Opening(OpeningRule.TARAGUCHI, Board(size, rule=Rule.RENJU))
    centre = size // 2
    for stone in ((centre, centre), (centre + 1, centre - 1), (centre + 1, centre + 1),
                  (size - 1, size - 1)):
        game.place(stone)
        game.choose(Color.BLACK)
    assert game.board.to_move is Color.BLACK and game.allowed == ("offer", "place")
    assert game.prompt() == ("place the 5th stone (black), or offer 10 5th moves anywhere, "
                             "no two of them symmetric")
    game.apply("place a1")  # a corner: inside the 9×9 about the centre
    assert game.allowed == ("choose",)


def test_taraguchi_area_clipped_by_a_narrow_board() -> None:
    narrow = Opening.replay(OpeningRule.TARAGUCHI, Board(7, 15, rule=Rule.RENJU),
                            ["place d8", "choose black", "place d9", "choose black",
                             "place e10", "choose black", "place a8", "choose black"])
    assert narrow.prompt().startswith(
        "place the 5th stone (black) in the central 9×9, clipped to the board, a4 to g12, or")
    with pytest.raises(OpeningError, match="a13 is outside that area: the 5th stone goes in "
                                           "the central 9×9, clipped to the board, a4 to g12"):
        narrow.apply("place a13")


def test_taraguchi_fifth_placed_then_a_last_swap() -> None:
    game = taraguchi(*TARAGUCHI_TO_FIFTH, "place l12")
    assert (game.to_act, game.allowed) == (SECOND, ("choose",))
    game.apply("choose black")
    assert game.done and game.player(Color.BLACK) is SECOND and game.board.to_move is Color.WHITE


def test_taraguchi_fifth_offered_ten_times() -> None:
    game = taraguchi(*TARAGUCHI_TO_FIFTH)
    with pytest.raises(OpeningError, match="offer exactly 10 5th moves, not 3"):
        game.apply("offer a1 b1 c1")
    game.apply("offer a1 b1 c1 d1 e1 f1 g1 h1 a2 b2")  # anywhere on the board
    assert (game.to_act, game.allowed) == (SECOND, ("pick",))
    game.apply("pick h1")
    assert game.done and game.board[(7, 14)] is Color.BLACK
    assert OpeningRule.parse("Taraguchi-10") is OpeningRule.TARAGUCHI


def test_points_named_as_the_front_end_names_them() -> None:
    def name(point: tuple[int, int]) -> str:
        return f"{point[0]},{point[1]}"

    game = Opening(OpeningRule.SOOSORV, Board(15, rule=Rule.RENJU), name=name)
    assert game.prompt() == "place the 1st stone (black) at the centre, 7,7"
    game.apply("place h8")
    assert game.prompt() == "place the 2nd stone (white) in the central 3×3, 6,8 to 8,6"
    with pytest.raises(OpeningError, match=r"^7,7 is occupied by black$"):
        game.place((7, 7))
    with pytest.raises(OpeningError, match="is off the board"):
        game.place((15, 3))
    assert game.history == ["place h8"]  # the record keeps renju names


def yamaguchi(*actions: str) -> Opening:
    return opening(OpeningRule.YAMAGUCHI, *actions, game_rule=Rule.RENJU)


def test_yamaguchi_the_first_player_declares_before_the_only_swap() -> None:
    first = yamaguchi("place h8", "place i9", "place j8")
    assert (first.to_act, first.allowed) == (FIRST, ("declare",))
    assert first.prompt() == "declare how many 5th moves black must offer (1 to 10)"
    with pytest.raises(OpeningError, match="declare 1 to 10 5th moves, not 11"):
        first.apply("declare 11")
    first.apply("declare 3")
    assert (first.to_act, first.allowed) == (SECOND, ("choose",))
    assert first.prompt() == ("choose a colour: black or white (the opening is 3I Kosei; "
                              "black will offer 3 5th moves)")
    first.apply("choose black")  # the second player takes black: the first places white's 4th
    assert (first.to_act, first.allowed) == (FIRST, ("place",))
    first.apply("place a1")  # anywhere
    assert (first.to_act, first.allowed) == (SECOND, ("offer",))  # no second swap
    with pytest.raises(OpeningError, match="offer exactly 3 5th moves, not 2"):
        first.apply("offer g7 g9")
    first.apply("offer g7 g9 k12")
    assert (first.to_act, first.allowed) == (FIRST, ("pick",))
    first.apply("pick g9")
    assert first.done and first.player(Color.BLACK) is SECOND
    assert first.board.to_move is Color.WHITE and len(first.board) == 5


def test_yamaguchi_stones_go_in_soosorvs_areas() -> None:
    with pytest.raises(OpeningError, match="j10 is outside that area"):
        yamaguchi("place h8", "place j10")


@pytest.mark.parametrize(("rule", "nearest"), [(OpeningRule.PRO, 3), (OpeningRule.LONG_PRO, 4)])
def test_pro_black_third_stone_away_from_the_centre(rule: OpeningRule, nearest: int) -> None:
    pro = opening(rule)
    assert pro.prompt() == "place the 1st stone (black) at the centre, h8"
    with pytest.raises(OpeningError, match="h9 is outside that area"):
        pro.apply("place h9")
    pro.apply("place h8")
    assert (pro.to_act, pro.prompt()) == (SECOND, "place the 2nd stone (white)")
    pro.apply("place a1")  # white's stone anywhere
    assert pro.prompt() == (f"place the 3rd stone (black) at least {nearest} intersections "
                            "from the centre, h8")
    too_near = "h" + str(8 + nearest - 1)
    with pytest.raises(OpeningError, match=f"{too_near} is outside that area"):
        pro.apply(f"place {too_near}")
    pro.apply(f"place h{8 + nearest}")
    assert pro.done and pro.player(Color.BLACK) is FIRST and pro.board.to_move is Color.WHITE
    assert pro.history == ["place h8", "place a1", f"place h{8 + nearest}"]


def test_pro_needs_room_for_its_third_stone() -> None:
    assert not opening(OpeningRule.PRO, size=7).done
    with pytest.raises(OpeningError, match="Pro needs a board of 6 or more on a side: its 3rd "
                                           "stone goes at least 3 intersections from the centre"):
        opening(OpeningRule.PRO, size=5)
    with pytest.raises(OpeningError, match="Long Pro needs a board of 8 or more on a side"):
        opening(OpeningRule.LONG_PRO, size=7)


@pytest.mark.parametrize(("rule", "size", "third"),
                         [(OpeningRule.PRO, 6, "a4"), (OpeningRule.LONG_PRO, 8, "a5")])
def test_pro_on_the_smallest_board_it_allows(rule: OpeningRule, size: int, third: str) -> None:
    # the smallest side the message states is one the rule can be played on
    game = opening(rule, size=size)
    centre = game.board.point_name((size // 2, size // 2))
    game.apply(f"place {centre}")
    game.apply("place b2")
    game.apply(f"place {third}")  # on the left edge, as far from the centre as it must be
    assert game.done


def test_wrong_argument_types_are_refused_saying_what_is_allowed() -> None:
    with pytest.raises(ValueError, match=r"^rule must be an OpeningRule such as "
                                         r"OpeningRule.SWAP2, got 'swap2'; for a rule by its "
                                         r"name, use OpeningRule.parse\('swap2'\)$"):
        Opening("swap2", Board(15))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^board must be a Board, such as Board\(15\), got 15$"):
        Opening(OpeningRule.SWAP, 15)  # type: ignore[arg-type]
    with pytest.raises(OpeningError, match=r"^max_offers must be a whole number from 1 to 64, "
                                           r"got '3'$"):
        Opening(OpeningRule.SOOSORV, Board(15), max_offers="3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^an opening rule's name must be a str such as "
                                         r"'swap2', got None$"):
        OpeningRule.parse(None)  # type: ignore[arg-type]


def test_a_declaration_of_thousands_of_digits_is_refused_as_written() -> None:
    game = soosorv(*SOOSORV_TO_DECLARE)
    with pytest.raises(OpeningError, match=r"^declare a number of 5th moves, not "
                                           r"'1111111111111111111111111111111111111\.\.\.'$"):
        game.apply("declare " + "1" * 5000)
    with pytest.raises(OpeningError, match=r"^declare 1 to 8 5th moves, not 9$"):
        game.apply("declare 9")
    with pytest.raises(OpeningError, match=r"^declare a number of 5th moves, not '²'$"):
        game.apply("declare ²")  # a digit to str.isdigit, not to int()


def test_actions_of_the_wrong_kind_are_refused_and_not_recorded() -> None:
    """apply(None) and choose("black") were AttributeErrors; declare(2.5) was recorded as
    "declare 2.5", which no replay reads, and declare("3") was a TypeError."""
    with pytest.raises(OpeningError, match=r"^an action is a str such as 'place h8', got None$"):
        Opening(OpeningRule.SWAP, Board(15)).apply(None)  # type: ignore[arg-type]
    with pytest.raises(OpeningError, match=r"^action 1 \(5\): an action is a str such as "):
        Opening.replay(OpeningRule.SWAP, Board(15), [5])  # type: ignore[list-item]
    game = opening(OpeningRule.SWAP, "place h8", "place h9", "place h10")
    with pytest.raises(OpeningError, match=r"^choose Color.BLACK or Color.WHITE, not 'black'$"):
        game.choose("black")  # type: ignore[arg-type]
    game = soosorv(*SOOSORV_TO_DECLARE)
    for count in (2.5, True, "3", None):
        with pytest.raises(OpeningError, match=rf"^declare 1 to 8 5th moves, not "
                                               rf"{re.escape(repr(count))}$"):
            game.declare(count)  # type: ignore[arg-type]
    assert not any(action.startswith("declare") for action in game.history)
    game.declare(np.int64(2))  # type: ignore[arg-type]
    assert game.history[-1] == "declare 2"


def test_numpy_integers_are_whole_numbers_and_offers_are_plain_points() -> None:
    """max_offers=np.int64(5) was "not a whole number", and offered numpy points were kept
    as they came, to reach whoever reads the offers."""
    assert Opening(OpeningRule.SOOSORV, Board(15), max_offers=np.int64(5)).max_offers == 5
    game = opening(OpeningRule.YAMAGUCHI, "place h8", "place h9", "place h10", "declare 2",
                   "choose black", "place i9")
    game.offer([(np.int64(1), np.int64(1)), (2, 5)])  # type: ignore[list-item]
    assert game.offers == ((1, 1), (2, 5))
    assert all(type(c) is int for point in game.offers for c in point)


def test_an_unknown_opening_code_is_refused_naming_the_codes() -> None:
    """opening_name("99Z") raised StopIteration, canonical_opening(None) an AttributeError."""
    with pytest.raises(ValueError, match=r"^unknown canonical opening '99Z'; allowed: 1D, 2D"):
        opening_name("99Z")
    with pytest.raises(ValueError, match=r"^unknown canonical opening None; allowed: 1D"):
        canonical_opening(None)  # type: ignore[arg-type]
