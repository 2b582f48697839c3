"""Board behaviour under every rule: wins, overlines, caro blocks, draws, undo."""

from __future__ import annotations

import re

import numpy as np
import pytest

from gridgames.gomoku import Board, Color, IllegalMoveError, Outcome, Rule


def play_line(board: Board, black: list[tuple[int, int]], white: list[tuple[int, int]]) -> None:
    """Alternate black and white moves (black first); lists may differ by one."""
    for i in range(max(len(black), len(white))):
        if i < len(black):
            board.push(black[i])
        if i < len(white):
            board.push(white[i])


def row(y: int, xs: list[int]) -> list[tuple[int, int]]:
    return [(x, y) for x in xs]


FAR_WHITE = [(0, 14), (2, 14), (4, 14), (6, 14), (8, 14), (10, 14)]


@pytest.mark.parametrize("rule", list(Rule))
def test_exact_five_wins_under_every_rule(rule):
    board = Board(15, rule=rule)
    play_line(board, row(7, [3, 4, 5, 6]), FAR_WHITE[:4])
    assert board.outcome() is None
    board.push((7, 7))
    assert board.outcome() == Outcome(Color.BLACK, tuple(row(7, [3, 4, 5, 6, 7])))


@pytest.mark.parametrize(
    ("rule", "wins"),
    [
        (Rule.FREESTYLE, True),
        (Rule.STANDARD, False),
        (Rule.CARO, True),
        (Rule.CARO_EXACT, False),
    ],
)
def test_overline_wins_only_where_the_rule_allows(rule, wins):
    board = Board(15, rule=rule)
    # black: 3 4 5 _ 7 8 on row 7, then fills 6 -> six in a row
    play_line(board, row(7, [3, 4, 5, 7, 8]), FAR_WHITE[:5])
    assert board.outcome() is None
    board.push((6, 7))
    outcome = board.outcome()
    if wins:
        assert outcome is not None and outcome.winner is Color.BLACK
        assert len(outcome.line) == 6
    else:
        assert outcome is None
        board.push((12, 12))  # the game goes on


def test_renju_black_overline_is_forbidden_but_white_overline_wins():
    board = Board(15, rule=Rule.RENJU)
    play_line(board, row(7, [3, 4, 5, 7, 8]), FAR_WHITE[:5])
    with pytest.raises(IllegalMoveError, match="forbidden for black: overline"):
        board.push((6, 7))


@pytest.mark.parametrize("rule", [Rule.CARO, Rule.CARO_EXACT])
def test_caro_five_blocked_at_both_ends_does_not_win(rule):
    board = Board(15, rule=rule)
    # white at 2 and 8 on row 7 blocks both ends of black's 3..7
    play_line(board, row(7, [3, 4, 5, 6]), [(2, 7), (8, 7), (0, 0), (0, 2)])
    board.push((7, 7))
    assert board.outcome() is None


@pytest.mark.parametrize("rule", [Rule.CARO, Rule.CARO_EXACT])
def test_caro_five_blocked_at_one_end_wins(rule):
    board = Board(15, rule=rule)
    play_line(board, row(7, [3, 4, 5, 6]), [(2, 7), (0, 0), (0, 2), (0, 4)])
    board.push((7, 7))
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is Color.BLACK


@pytest.mark.parametrize("rule", [Rule.CARO, Rule.CARO_EXACT])
def test_caro_edge_is_not_a_block(rule):
    board = Board(15, rule=rule)
    # black 0..4 on row 7: the edge on the left, white on the right
    play_line(board, row(7, [0, 1, 2, 3]), [(5, 7), (9, 0), (9, 2), (9, 4)])
    board.push((4, 7))
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is Color.BLACK


def test_caro_blocked_overline_wins_only_under_caro():
    for rule, wins in [(Rule.CARO, True), (Rule.CARO_EXACT, False)]:
        board = Board(15, rule=rule)
        play_line(board, row(7, [3, 4, 5, 7, 8]), [(2, 7), (9, 7), (0, 0), (0, 2), (0, 4)])
        board.push((6, 7))
        outcome = board.outcome()
        assert (outcome is not None) is wins, rule


def test_diagonal_and_anti_diagonal_wins_on_a_non_square_board():
    board = Board(9, 6)
    play_line(board, [(0, 0), (1, 1), (2, 2), (3, 3)], [(8, 0), (8, 1), (8, 2), (8, 3)])
    board.push((4, 4))
    assert board.outcome() == Outcome(Color.BLACK, ((0, 0), (1, 1), (2, 2), (3, 3), (4, 4)))
    board = Board(6, 9)
    play_line(board, [(5, 8), (4, 7), (3, 6), (2, 5)], [(0, 0), (1, 0), (2, 0), (3, 0)])
    board.push((1, 4))
    outcome = board.outcome()
    assert outcome is not None and set(outcome.line) == {(5, 8), (4, 7), (3, 6), (2, 5), (1, 4)}


def test_full_board_without_five_is_a_draw():
    board = Board(5)
    # columns alternate in pairs so no line of five forms
    pattern = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"]
    blacks = [(x, y) for y, line in enumerate(pattern) for x, c in enumerate(line) if c == "X"]
    whites = [(x, y) for y, line in enumerate(pattern) for x, c in enumerate(line) if c == "O"]
    assert len(blacks) == 13 and len(whites) == 12
    play_line(board, blacks, whites)
    assert board.outcome() == Outcome(None)
    assert board.outcome().draw_reason == "the board is full"
    assert board.legal_moves == []


def test_refusals_say_why():
    board = Board(15)
    board.push((7, 7))
    with pytest.raises(IllegalMoveError, match="h8 is occupied by black"):
        board.push((7, 7))
    with pytest.raises(IllegalMoveError, match="off the board; x must be 0 to 14"):
        board.push((15, 0))
    with pytest.raises(IllegalMoveError, match="off the board"):
        board.push((-1, 3))
    with pytest.raises(IllegalMoveError, match=r"'h8' is not a point: a point is a pair of "
                       r"integers \(x, y\), x 0 to 14 and y 0 to 14"):
        board.push("h8")  # type: ignore[arg-type]
    for not_a_point in [(7.5, 3), (True, 1), None, (1, 2, 3)]:
        with pytest.raises(IllegalMoveError, match="is not a point"):
            board.push(not_a_point)  # type: ignore[arg-type]
    assert isinstance(IllegalMoveError("x"), ValueError)


def test_numpy_integers_are_points():
    """(np.int64(3), np.int64(4)) was once refused as 'off the board'."""
    board = Board(15)
    point = (np.int64(3), np.int64(4))
    assert board.contains(point) and board.is_legal(point)
    board.push(point)  # type: ignore[arg-type]
    assert board.move_stack == [(3, 4)] and type(board.move_stack[0][0]) is int
    assert board[point] is Color.BLACK  # type: ignore[index]
    with pytest.raises(IllegalMoveError, match=r"\(15, 0\) is off the board"):
        board.push((np.int32(15), np.int32(0)))  # type: ignore[arg-type]


@pytest.mark.parametrize(("width", "height"), [(4, 15), (15, 65), (0, 0), (5.0, 5)])
def test_board_sizes_outside_5_to_64_are_refused(width, height):
    with pytest.raises(ValueError, match=r"board (width|height)"):
        Board(width, height)


def test_largest_and_smallest_boards():
    big = Board(64, 64)
    big.push((63, 63))
    assert big.point_name((63, 63)) == "bl1"
    small = Board(5, 64)
    play_line(small, [(0, y) for y in range(60, 64)], [(4, y) for y in range(4)])
    small.push((0, 59))
    assert small.outcome() is not None


def test_pop_restores_the_exact_state():
    board = Board(15, rule=Rule.RENJU)
    moves = [(7, 7), (8, 8), (7, 8), (8, 7), (7, 9)]
    snapshots = []
    for move in moves:
        snapshots.append((board.grid.copy(), board.outcome(), board.to_move, board.legal_moves))
        board.push(move)
    for move in reversed(moves):
        assert board.pop() == move
        grid, outcome, to_move, legal = snapshots.pop()
        assert (board.grid == grid).all()
        assert board.outcome() == outcome and board.to_move == to_move
        assert board.legal_moves == legal
    with pytest.raises(IndexError, match="no move to take back"):
        board.pop()


def test_pop_after_a_win_reopens_the_game():
    board = Board(15)
    play_line(board, row(7, [3, 4, 5, 6, 7]), FAR_WHITE[:4])
    assert board.is_game_over()
    board.pop()
    assert not board.is_game_over()
    board.push((2, 7))
    assert board.outcome() is not None


def test_copy_is_independent():
    board = Board(15)
    board.push((7, 7))
    clone = board.copy()
    clone.push((8, 8))
    assert board.move_stack == [(7, 7)] and clone.move_stack == [(7, 7), (8, 8)]
    assert board[(8, 8)] is None and clone[(8, 8)] is Color.WHITE


def test_str_and_repr_are_readable():
    board = Board(6, 5)
    board.push((0, 0))
    board.push((5, 4))
    text = str(board)
    assert text.splitlines()[0].split() == ["a", "b", "c", "d", "e", "f"]
    assert text.splitlines()[1].split() == ["5", "X", ".", ".", ".", ".", "."]
    assert text.splitlines()[-1].split() == ["1", ".", ".", ".", ".", ".", "o"]
    assert repr(board) == "Board(6, 5, rule=Rule.FREESTYLE, moves='a5f1')"


def test_forbidden_points_only_when_black_is_to_move():
    board = Board(15, rule=Rule.RENJU)
    for m in ["h8", "a1", "i9", "a3", "h10", "a5", "j8"]:
        board.push(board.parse(m))
    assert board.forbidden_points() == set()  # white to move
    board.push(board.parse("a7"))
    forbidden = {board.point_name(p) for p in board.forbidden_points()}
    for name in forbidden:
        with pytest.raises(IllegalMoveError, match="forbidden for black"):
            board.push(board.parse(name))
    assert all(board.is_legal(p) for p in board.legal_moves)


def test_rule_numbers_and_names():
    assert [r.gomocup for r in Rule] == [0, 1, 4, 8, 9]
    assert Rule.from_gomocup(2) is Rule.RENJU
    assert Rule.from_name("CARO_EXACT") is Rule.CARO_EXACT
    with pytest.raises(ValueError, match="allowed: freestyle, standard, renju, caro, caro-exact"):
        Rule.from_name("go")
    with pytest.raises(ValueError, match="unknown Gomocup rule 3"):
        Rule.from_gomocup(3)


def test_a_rule_by_its_name_is_refused_pointing_to_rule_from_name() -> None:
    with pytest.raises(ValueError, match=r"^rule must be a Rule such as Rule.RENJU, got 'renju'; "
                                         r"for a rule by its name, use "
                                         r"Rule.from_name\('renju'\)$"):
        Board(15, rule="renju")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"got None; .*Rule.from_name\('renju'\)$"):
        Board(15, rule=None)  # type: ignore[arg-type]


def test_a_point_off_the_board_has_no_name() -> None:
    board = Board(15)
    assert board.point_name((0, 0)) == "a15"
    with pytest.raises(IllegalMoveError, match=r"^\(99, 99\) is off the board; x must be 0 to "
                                               r"14 and y 0 to 14$"):
        board.point_name((99, 99))
    with pytest.raises(IllegalMoveError, match=r"^\(-1, 0\) is off the board"):
        board.point_name((-1, 0))
    with pytest.raises(IllegalMoveError, match="'h8' is not a point"):
        board.point_name("h8")  # type: ignore[arg-type]


def test_parse_refuses_what_is_not_text() -> None:
    with pytest.raises(ValueError, match=r"^text must be a str such as 'h8', got None$"):
        Board(15).parse(None)  # type: ignore[arg-type]


def test_push_many_names_the_illegal_move_and_leaves_the_board_as_it_was():
    board = Board(15)
    board.push((0, 0))
    with pytest.raises(IllegalMoveError, match=r"^move 3 is not legal: h8 is occupied by white$"):
        board.push_many([(7, 7), (8, 8), (7, 7), (9, 9)])
    assert board.move_stack == [(0, 0)]
    assert board[(7, 7)] is None and board.to_move is Color.WHITE


def test_numpy_integers_are_board_sizes() -> None:
    """Board(np.int64(15)) was refused as "board width must be an integer"."""
    board = Board(np.int64(15), np.int32(9))  # type: ignore[arg-type]
    assert board.size == (15, 9) and type(board.width) is int and type(board.height) is int
    with pytest.raises(ValueError, match=r"^board width 4 is out of range; allowed: 5 to 64$"):
        Board(np.int64(4))  # type: ignore[arg-type]
    for not_a_size in (np.float64(15.0), np.array([15]), np.bool_(True)):
        with pytest.raises(ValueError, match=r"^board width must be an integer, got "):
            Board(not_a_size)  # type: ignore[arg-type]


def test_numbers_too_long_to_write_out_are_refused_in_a_line() -> None:
    """Python writes no int of over 4,300 digits: Board(10**5000) and is_legal((10**5000, 0))
    raised "Exceeds the limit (4300 digits) for integer string conversion"."""
    with pytest.raises(ValueError, match=r"^board width a number of over 4,300 digits is out of "
                                         r"range; allowed: 5 to 64$"):
        Board(10**5000)
    board = Board(15)
    assert not board.is_legal((10**5000, 0))
    with pytest.raises(IllegalMoveError, match="is off the board; x must be 0 to 14"):
        board.push((10**5000, 0))


def test_stones_of_what_is_not_a_colour_are_refused() -> None:
    """stones("black") was [] whatever the board held."""
    board = Board(15)
    board.push((7, 7))
    assert board.stones(Color.BLACK) == [(7, 7)]
    with pytest.raises(ValueError, match=r"^a colour is Color.BLACK or Color.WHITE, got 'black'$"):
        board.stones("black")  # type: ignore[arg-type]


def test_rules_by_number_and_name_refuse_other_kinds_of_value() -> None:
    """Rule.from_gomocup(True) was standard gomoku and 4.0 renju (they equal 1 and 4);
    Rule.from_name(None) was an AttributeError."""
    assert Rule.from_gomocup(np.int64(4)) is Rule.RENJU
    for number in (True, 4.0, "4"):
        with pytest.raises(ValueError, match=rf"^unknown Gomocup rule {re.escape(repr(number))}; "
                                             "allowed: 0 \\(freestyle\\)"):
            Rule.from_gomocup(number)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^unknown Gomocup rule a number of over 4,300 digits"):
        Rule.from_gomocup(10**5000)
    for name in (None, 4):
        with pytest.raises(ValueError, match=rf"^a rule's name must be a str such as 'renju', "
                                             rf"got {name}; allowed: freestyle, "):
            Rule.from_name(name)  # type: ignore[arg-type]
