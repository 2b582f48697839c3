"""The engine board's incremental threat tables agree with a fresh computation."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import patterns
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai import search as S
from gridgames.gomoku.ai.engine import load_position
from gridgames.gomoku.opening_rules import board_symmetries
from gridgames.gomoku.rules import winning_direction

STATE = ("cells", "grid", "keys", "shape", "combo", "near", "class_count")


def fresh(board: Board) -> P.Position:
    return load_position(board, P.new_table(4))


def same_state(a: P.Position, b: P.Position) -> None:
    cells = a.cells == 0
    for name in STATE:
        x, y = getattr(a, name), getattr(b, name)
        if name in ("shape",):
            x, y = x[:, np.repeat(cells, 4)], y[:, np.repeat(cells, 4)]
        elif name == "combo":
            x, y = x[:, cells], y[:, cells]
        assert np.array_equal(x, y), name
    assert a.info[P.I_HASH] == b.info[P.I_HASH]
    for slot in (P.I_VALUE, P.I_VALUE + 1, P.I_WAIT_VALUE, P.I_WAIT_VALUE + 1):
        assert a.info[slot] == b.info[slot]


@pytest.mark.parametrize("rule", list(Rule))
def test_make_unmake_match_fresh_state(rule: Rule) -> None:
    rng = random.Random(rule.code)
    board = Board(11, 9, rule=rule)
    pos = fresh(board)
    for _ in range(60):
        if board.outcome() is not None:
            break
        move = rng.choice(board.legal_moves)
        board.push(move)
        P.make(pos, P.cell_index(pos, move))
        if rng.random() < 0.3:
            P.unmake(pos)
            board.pop()
        same_state(pos, fresh(board))


@pytest.mark.parametrize("rule", list(Rule))
def test_five_cells_agree_with_the_rule_kernel(rule: Rule) -> None:
    """A cell is classed FIVE exactly when playing it wins by the rule kernel."""
    rng = random.Random(100 + rule.code)
    for _ in range(6):
        board = Board(9, rule=rule)
        pos = fresh(board)
        for _ in range(45):
            if board.outcome() is not None:
                break
            move = rng.choice(board.legal_moves)
            board.push(move)
            P.make(pos, P.cell_index(pos, move))
        grid = board.grid.copy()
        for color in (1, 2):
            for y in range(board.height):
                for x in range(board.width):
                    if grid[y + 1, x + 1]:
                        continue
                    grid[y + 1, x + 1] = color
                    wins = winning_direction(grid, x, y, rule.code) >= 0
                    grid[y + 1, x + 1] = 0
                    idx = P.cell_index(pos, (x, y))
                    cls = pos.combo_table[pos.combo[color - 1, idx], P.T_CLASS]
                    assert (cls == patterns.C_FIVE) == wins, (rule, color, x, y)


@pytest.mark.parametrize("rule", list(Rule))
def test_a_position_away_from_the_edges_is_worth_the_same_on_any_board(rule: Rule) -> None:
    """The weights were fitted on 15x15: a larger board's empty cells far from the
    stones once added thousands of centi-stones, their sign flipping with the side to
    move, so that a hint on 64x64 scored one stone at +8,000."""
    stones = [(0, 0), (1, 1), (1, 0), (2, 2), (-1, 1), (0, 2), (2, 0)]
    values = {}
    for size in (20, 31, 64):
        board = Board(size, rule=rule)
        pos = fresh(board)
        line = []
        for dx, dy in stones:
            board.push((size // 2 + dx, size // 2 + dy))
            P.make(pos, P.cell_index(pos, board.move_stack[-1]))
            line.append(int(S.evaluate(pos)))
            same_state(pos, fresh(board))
        values[size] = line
    assert values[20] == values[31] == values[64]
    assert max(abs(v) for v in values[64]) < 1_000


@pytest.mark.parametrize("rule", list(Rule))
@pytest.mark.parametrize("size", [(15, 15), (19, 12)])
def test_the_evaluation_is_the_same_under_every_symmetry(rule: Rule,
                                                         size: tuple[int, int]) -> None:
    """Every line direction and board edge is read alike: a mirrored or turned position
    is worth the same to the side to move."""
    width, height = size
    rng = random.Random(rule.code * 100 + width)
    for _ in range(25):
        board = Board(width, height, rule=rule)
        board.push((width // 2, height // 2))
        for _ in range(rng.randrange(2, 40)):
            near = [p for p in board.legal_moves
                    if any(max(abs(p[0] - x), abs(p[1] - y)) <= 2 for x, y in board.move_stack)]
            board.push(rng.choice(near))
            if board.is_game_over():
                board.pop()
                break
        values = set()
        for image in board_symmetries(width, height):
            turned = Board(width, height, rule=rule)
            turned.push_many([image(p) for p in board.move_stack])
            values.add(int(S.evaluate(fresh(turned))))
        assert len(values) == 1, board.move_stack


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.RENJU])
def test_evaluation_is_the_weighted_count_of_shapes_and_classes(rule: Rule) -> None:
    """The running sums of the evaluation equal their definition summed over the empty
    cells; a rule without a network (renju) evaluates their difference."""
    weights = patterns.eval_weights(rule.code)
    rng = random.Random(7)
    board = Board(15, rule=rule)
    for _ in range(40):
        centre = [m for m in board.legal_moves if 4 <= m[0] <= 10 and 4 <= m[1] <= 10]
        board.push(rng.choice(centre))
        if board.outcome() is not None:
            break
        pos = fresh(board)
        me = int(pos.info[P.I_SIDE]) - 1
        totals = []
        for colour, role in ((me, 0), (1 - me, 1)):
            total = 0
            for idx in np.flatnonzero(pos.cells == 0):
                shapes = pos.shape[colour, idx * 4 : idx * 4 + 4]
                total += sum(weights.shape[role][s] for s in shapes)
                cls = pos.combo_table[pos.combo[colour, idx], P.T_CLASS]
                total += weights.klass[role][cls]
            totals.append(total)
        assert pos.info[P.I_VALUE + me] == totals[0]
        assert pos.info[P.I_WAIT_VALUE + 1 - me] == totals[1]
        if patterns.eval_net(rule.code).size == 0:
            expected = (totals[0] - totals[1]) // patterns.EVAL_SCALE + weights.tempo
            assert S.evaluate(pos) == expected


@pytest.mark.parametrize("rule", list(Rule))
def test_no_shape_depends_on_cells_beyond_a_stones_reach(rule: Rule) -> None:
    """A stone reclassifies the cells up to ``I_REACH`` steps away (four in freestyle,
    five elsewhere), so no shape may depend on a line's cells further out."""
    reach = int(fresh(Board(9, rule=rule)).info[P.I_REACH])
    assert reach == (4 if rule is Rule.FREESTYLE else 5)
    if reach == patterns.HALF:
        return
    table = patterns.line_table(rule.code)
    keys = np.arange(1 << patterns.KEY_BITS)
    for far_slot in (0, 9):  # the cells five steps away on either side
        cleared = keys & ~(3 << (2 * far_slot))
        for value in range(4):
            assert np.array_equal(table[:, keys], table[:, cleared | value << (2 * far_slot)])


@pytest.mark.parametrize("rule", list(Rule))
def test_the_packed_table_holds_both_colours_shapes_for_every_line_key(rule: Rule) -> None:
    """Positions read both colours' shapes in one byte; freestyle's table leaves out
    the cells five steps off (the test above shows no shape depends on them)."""
    table = patterns.line_table(rule.code)
    packed = P.packed_table(rule.code)[0]
    keys = np.arange(1 << patterns.KEY_BITS)
    index = (keys >> 2) & 0xFFFF if rule is Rule.FREESTYLE else keys
    assert packed.size == (1 << 16 if rule is Rule.FREESTYLE else 1 << patterns.KEY_BITS)
    assert np.array_equal(packed[index] & 15, table[0])
    assert np.array_equal(packed[index] >> 4, table[1])


@pytest.mark.parametrize("rule", list(Rule))
def test_the_combo_table_holds_each_combos_class_values_and_renju_suspicion(
        rule: Rule) -> None:
    """Four int32 columns a combo: class, the two evaluations, and the move value
    with the renju suspect flag above it."""
    table = P.combo_table(rule.code)
    assert table.shape == (patterns.N_COMBOS, 4)
    assert np.array_equal(table[:, P.T_CLASS], patterns.COMBO_CLASS)
    pos = P.new_position(9, 9, rule.code, P.new_table(4))
    sample = range(0, patterns.N_COMBOS, 7)
    assert [P.combo_value(pos, c) for c in sample] == [patterns.COMBO_VALUE[c] for c in sample]
    assert np.array_equal(table[:, P.T_VALUE_SUSPECT] >> 16, patterns.COMBO_SUSPECT)


# the ranges of classes the search looks for: fives, fours, open fours, threes and up
CLASS_RANGES = [(patterns.C_FIVE, patterns.C_FIVE), (patterns.C_BLOCK4, patterns.C_FLEX4),
                (patterns.C_FLEX4, patterns.C_FLEX4), (patterns.C_FLEX3, patterns.C_FLEX4)]


@pytest.mark.parametrize("rule", list(Rule))
def test_cells_of_a_class_are_found_in_board_order(rule: Rule) -> None:
    """find_cells stops at the last cell the class counts announce and passes over
    cells whose line shapes cannot make the class: it finds what a scan of every
    empty cell near the stones finds, in the same order."""
    rng = random.Random(300 + rule.code)
    found_any = 0
    for width, height in ((15, 15), (64, 9)):
        board = Board(width, height, rule=rule)
        pos = fresh(board)
        for _ in range(70):
            if board.outcome() is not None:
                break
            near = [m for m in board.legal_moves
                    if any(abs(m[0] - x) <= 2 and abs(m[1] - y) <= 2
                           for x, y in board.move_stack)] or board.legal_moves
            move = rng.choice(near)
            board.push(move)
            P.make(pos, P.cell_index(pos, move))
            x0, x1, y0, y1 = S._region(pos, 2)
            for color in (1, 2):
                for low, high in CLASS_RANGES:
                    expected = []
                    for y in range(y0, y1 + 1):
                        for x in range(x0, x1 + 1):
                            idx = P.cell_index(pos, (x, y))
                            cls = pos.combo_table[pos.combo[color - 1, idx], P.T_CLASS]
                            if pos.cells[idx] == 0 and low <= cls <= high:
                                expected.append(idx)
                    out = np.zeros(pos.cells.shape[0], dtype=np.int32)
                    n = S.find_cells(pos, color, low, high, out)
                    assert out[:n].tolist() == expected, (rule, board.move_stack, color, low)
                    found_any += n
    assert found_any > 0
