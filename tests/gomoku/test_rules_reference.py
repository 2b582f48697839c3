"""The rules against a deliberately plain reference written from rules.md.

The reference below shares no code with :mod:`gridgames.gomoku.rules`: a position
is a list of rows of 0 (empty), 1 (black) and 2 (white), a point off the board
does not exist, and every rule is worked out on the whole line through a point,
edge to edge, straight from the definitions (freestyle: five or more; standard:
exactly five; caro: five or more, an exact five not blocked by the opponent at
both ends, the edge being no block; caro-exact: the same without overlines;
renju: black exactly five, white five or more, black's overline, double four and
double three forbidden, a three counting only if its straight-four point is
itself not forbidden). It is slow on purpose. The board, the rule kernels and
the engine's pattern tables are compared with it on random positions and games
of many sizes, square or not, from 5x5 to 64x64, all from fixed seeds.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from test_renju import CASES

from gridgames.gomoku import Board, Color, Foul, IllegalMoveError, Rule
from gridgames.gomoku import rules as kernels
from gridgames.gomoku.ai import Limit, patterns, think
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.notation import format_renju, parse_position, parse_renju

EMPTY, BLACK, WHITE = 0, 1, 2
# Renju fouls, numbered as Foul numbers them.
NO_FOUL, DOUBLE_THREE, DOUBLE_FOUR, OVERLINE = 0, 1, 2, 3
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))

Cells = list[list[int]]


def empty_cells(width: int, height: int) -> Cells:
    return [[EMPTY] * width for _ in range(height)]


def line_through(cells: Cells, x: int, y: int, dx: int, dy: int) -> list[tuple[int, int]]:
    """The points of the whole line through (x, y) along (dx, dy), edge to edge."""
    height, width = len(cells), len(cells[0])
    while 0 <= x - dx < width and 0 <= y - dy < height:
        x, y = x - dx, y - dy
    points = []
    while 0 <= x < width and 0 <= y < height:
        points.append((x, y))
        x, y = x + dx, y + dy
    return points


def run_bounds(values: list, i: int) -> tuple[int, int]:
    """First and last index of the unbroken run of values[i]'s colour through i."""
    start = end = i
    while start > 0 and values[start - 1] == values[i]:
        start -= 1
    while end + 1 < len(values) and values[end + 1] == values[i]:
        end += 1
    return start, end


def wins_on_line(cells: Cells, x: int, y: int, direction: tuple[int, int], rule: str) -> bool:
    """Whether the stone at (x, y) wins along ``direction`` under ``rule`` (a Rule's
    value: freestyle, standard, renju, caro or caro-exact)."""
    points = line_through(cells, x, y, *direction)
    values = [cells[py][px] for px, py in points]
    i = points.index((x, y))
    color = values[i]
    start, end = run_bounds(values, i)
    length = end - start + 1
    if length < 5:
        return False
    if rule == "freestyle":
        return True
    if rule == "standard":
        return length == 5
    if rule == "renju":
        return length == 5 or color == WHITE
    # caro: the square just beyond each end; the board edge (None) is no block
    before = values[start - 1] if start > 0 else None
    after = values[end + 1] if end + 1 < len(values) else None
    blocked = before == 3 - color and after == 3 - color
    if rule == "caro":
        return length > 5 or not blocked
    if rule == "caro-exact":
        return length == 5 and not blocked
    raise ValueError(rule)


def wins(cells: Cells, x: int, y: int, rule: str) -> bool:
    return any(wins_on_line(cells, x, y, d, rule) for d in DIRECTIONS)


def wins_with(cells: Cells, x: int, y: int, color: int, rule: str) -> bool:
    """Whether ``color`` playing the empty point (x, y) wins."""
    cells[y][x] = color
    try:
        return wins(cells, x, y, rule)
    finally:
        cells[y][x] = EMPTY


# -- renju ------------------------------------------------------------------


def _run_length(cells: Cells, x: int, y: int, direction: tuple[int, int]) -> int:
    points = line_through(cells, x, y, *direction)
    values = [cells[py][px] for px, py in points]
    start, end = run_bounds(values, points.index((x, y)))
    return end - start + 1


def fours_on_line(cells: Cells, x: int, y: int, direction: tuple[int, int]) -> int:
    """Black's fours through the black stone at (x, y) on one line (RIF: four black
    stones to which one more makes exactly five). Each four is its set of four
    stones, so a straight four counts once and ``XXX_X_XXX`` twice."""
    points = line_through(cells, x, y, *direction)
    values = [cells[py][px] for px, py in points]
    i = points.index((x, y))
    fours = set()
    for s in range(i - 4, i + 1):
        if s < 0 or s + 5 > len(values):
            continue
        window = values[s : s + 5]
        if window.count(BLACK) != 4 or window.count(EMPTY) != 1:
            continue
        # filled in, the window must be exactly five: no black just outside it
        if s > 0 and values[s - 1] == BLACK:
            continue
        if s + 5 < len(values) and values[s + 5] == BLACK:
            continue
        fours.add(frozenset(s + k for k in range(5) if window[k] == BLACK))
    return len(fours)


def _is_straight_four(values: list, i: int) -> bool:
    """Whether black's unbroken run through values[i] (one whole line) is a straight
    four: four stones, both ends empty, and each end completes exactly five."""
    start, end = run_bounds(values, i)
    if end - start + 1 != 4 or start == 0 or end + 1 == len(values):
        return False
    if values[start - 1] != EMPTY or values[end + 1] != EMPTY:
        return False
    left_ok = start - 2 < 0 or values[start - 2] != BLACK
    right_ok = end + 2 >= len(values) or values[end + 2] != BLACK
    return left_ok and right_ok


def is_real_three(cells: Cells, x: int, y: int, direction: tuple[int, int]) -> bool:
    """rules.md §3.2, with black already at (x, y): some empty q on the line makes,
    without a five, a straight four through (x, y), and q itself is no foul."""
    points = line_through(cells, x, y, *direction)
    values = [cells[py][px] for px, py in points]
    i = points.index((x, y))
    for j, (qx, qy) in enumerate(points):
        if values[j] != EMPTY:
            continue
        values[j] = BLACK
        straight = _is_straight_four(values, i)
        values[j] = EMPTY
        if not straight:
            continue
        cells[qy][qx] = BLACK
        five = any(_run_length(cells, qx, qy, d) == 5 for d in DIRECTIONS)
        cells[qy][qx] = EMPTY
        if not five and foul(cells, qx, qy) == NO_FOUL:
            return True
    return False


def foul(cells: Cells, x: int, y: int) -> int:
    """Black's renju foul at the empty point (x, y), in the order of rules.md §3.1."""
    assert cells[y][x] == EMPTY
    cells[y][x] = BLACK
    try:
        lengths = [_run_length(cells, x, y, d) for d in DIRECTIONS]
        if 5 in lengths:
            return NO_FOUL
        if max(lengths) > 5:
            return OVERLINE
        fours = [fours_on_line(cells, x, y, d) for d in DIRECTIONS]
        if sum(fours) >= 2:
            return DOUBLE_FOUR
        threes = sum(
            1 for d, n in zip(DIRECTIONS, fours, strict=True)
            if n == 0 and is_real_three(cells, x, y, d)
        )
        return DOUBLE_THREE if threes >= 2 else NO_FOUL
    finally:
        cells[y][x] = EMPTY


def fouls(cells: Cells) -> dict[tuple[int, int], int]:
    """Every empty point's foul for black, where it has one."""
    found = {}
    for y, row in enumerate(cells):
        for x, value in enumerate(row):
            if value == EMPTY:
                kind = foul(cells, x, y)
                if kind:
                    found[(x, y)] = kind
    return found


# -- positions and the project's view of them ---------------------------------

RULES = [rule.value for rule in Rule]


def random_cells(rng: random.Random, width: int, height: int, density: float,
                 black_share: float) -> Cells:
    """Stones spread over the whole board."""
    cells = empty_cells(width, height)
    for y in range(height):
        for x in range(width):
            if rng.random() < density:
                cells[y][x] = BLACK if rng.random() < black_share else WHITE
    return cells


def clustered_cells(rng: random.Random, width: int, height: int) -> Cells:
    """A loose group of mostly black stones around one point: threes and nested threes."""
    cells = empty_cells(width, height)
    cx, cy = rng.randrange(width), rng.randrange(height)
    spread = rng.choice([2, 3, 4])
    share = rng.uniform(0.5, 0.75)
    for _ in range(rng.randint(8, max(9, min(width * height // 3, 45)))):
        x = min(width - 1, max(0, round(rng.gauss(cx, spread))))
        y = min(height - 1, max(0, round(rng.gauss(cy, spread))))
        cells[y][x] = BLACK if rng.random() < share else WHITE
    return cells


def edge_cells(rng: random.Random, width: int, height: int) -> Cells:
    """Stones only in a band along the four edges: lines that run into the edge."""
    cells = empty_cells(width, height)
    band = rng.randint(2, 4)
    density, share = rng.uniform(0.25, 0.5), rng.uniform(0.55, 0.75)
    for y in range(height):
        for x in range(width):
            if min(x, y, width - 1 - x, height - 1 - y) < band and rng.random() < density:
                cells[y][x] = BLACK if rng.random() < share else WHITE
    return cells


def grid_of(cells: Cells) -> np.ndarray:
    """The rule kernels' padded grid of a position."""
    grid = np.full((len(cells) + 2, len(cells[0]) + 2), kernels.WALL, dtype=np.int8)
    grid[1:-1, 1:-1] = np.array(cells, dtype=np.int8)
    return grid


def board_of(cells: Cells, rule: Rule) -> Board:
    """A board holding the stones of ``cells``, placed directly."""
    board = Board(len(cells[0]), len(cells), rule=rule)
    board.grid[:] = grid_of(cells)
    return board


def engine_position(cells: Cells, rule: Rule) -> P.Position:
    """The engine's board of a position, each stone made for its own colour."""
    pos = P.new_position(len(cells[0]), len(cells), rule.code, P.new_table(4))
    for y, row in enumerate(cells):
        for x, value in enumerate(row):
            if value:
                pos.info[P.I_SIDE] = value
                P.make(pos, P.cell_index(pos, (x, y)))
    return pos


def picture(cells: Cells) -> str:
    return "\n".join("".join(".XO"[v] for v in row) for row in cells)


def empties(cells: Cells) -> list[tuple[int, int]]:
    return [(x, y) for y, row in enumerate(cells) for x, v in enumerate(row) if v == EMPTY]


SIZES = [(5, 5), (5, 8), (8, 5), (5, 12), (12, 5), (6, 6), (6, 9), (9, 6), (7, 7), (7, 10),
         (10, 7), (9, 9), (11, 8), (8, 13), (12, 12), (15, 15), (16, 11)]


# -- the reference itself ------------------------------------------------------

@pytest.mark.parametrize(("name", "black", "white", "expected"), CASES, ids=[c[0] for c in CASES])
def test_the_reference_gives_the_published_renju_answers(name, black, white, expected):
    cells = empty_cells(15, 15)
    for names, color in ((black, BLACK), (white, WHITE)):
        for text in names.split():
            x, y = parse_renju(text, 15, 15)
            cells[y][x] = color
    found = {format_renju(point, 15): Foul(kind) for point, kind in fouls(cells).items()}
    assert found == expected


# -- wins ----------------------------------------------------------------------

@pytest.mark.parametrize("rule", list(Rule))
def test_every_winning_point_agrees_with_the_reference(rule: Rule) -> None:
    """For every empty point and both colours: does a stone there win? The board
    judges each move with this kernel."""
    rng = random.Random(f"wins {rule.value}")
    sizes = [*SIZES, (5, 64), (64, 5), (6, 40)]
    checked = Counter()
    for _ in range(120):
        width, height = rng.choice(sizes)
        cells = random_cells(rng, width, height, rng.uniform(0.3, 0.75), rng.uniform(0.35, 0.65))
        grid = grid_of(cells)
        for x, y in empties(cells):
            for color in (BLACK, WHITE):
                grid[y + 1, x + 1] = color
                got = kernels.winning_direction(grid, x, y, rule.code) >= 0
                grid[y + 1, x + 1] = EMPTY
                expected = wins_with(cells, x, y, color, rule.value)
                assert got == expected, (rule, color, (x, y), picture(cells))
                checked[expected] += 1
    assert checked[True] > 300 and checked[False] > 3000, checked


# -- renju fouls ---------------------------------------------------------------

def test_every_renju_foul_agrees_with_the_reference() -> None:
    """Board.foul and the kernel's whole-board map against the reference, on stones
    spread over the board, grouped, and along the edges."""
    rng = random.Random("renju fouls")
    sizes = [*SIZES, (5, 30), (30, 5), (20, 9)]
    kinds: Counter[int] = Counter()
    at_edge: Counter[tuple[int, int]] = Counter()
    for n in range(360):
        width, height = rng.choice(sizes)
        if n % 3 == 0:
            cells = random_cells(rng, width, height, rng.uniform(0.2, 0.6), rng.uniform(0.5, 0.8))
        elif n % 3 == 1:
            cells = clustered_cells(rng, width, height)
        else:
            cells = edge_cells(rng, width, height)
        board = board_of(cells, Rule.RENJU)
        expected = fouls(cells)
        found = {}
        for x, y in empties(cells):
            kind = board.foul((x, y))
            if kind:
                found[(x, y)] = int(kind)
        assert found == expected, picture(cells)
        whole = kernels.forbidden_map(board.grid)
        assert {(int(x), int(y)): int(whole[y, x]) for y, x in zip(*np.nonzero(whole),
                                                                    strict=True)} == expected
        assert np.array_equal(board.grid, grid_of(cells))  # the checks leave no stone behind
        for (x, y), kind in expected.items():
            kinds[kind] += 1
            at_edge[kind, min(x, y, width - 1 - x, height - 1 - y)] += 1
    # the sample holds every kind of foul, and fouls on the edge itself; a double
    # three never is: of a point's lines only the edge's own can hold a straight four
    assert min(kinds[k] for k in (DOUBLE_THREE, DOUBLE_FOUR, OVERLINE)) >= 40, kinds
    assert at_edge[DOUBLE_FOUR, 0] >= 10 and at_edge[OVERLINE, 0] >= 10, at_edge
    assert at_edge[DOUBLE_THREE, 0] == 0 and at_edge[DOUBLE_THREE, 1] >= 3, at_edge


# -- edge cases written out ------------------------------------------------------

def diagram(*rows: str) -> tuple[Cells, tuple[int, int]]:
    """A position from rows of X (black), O (white) and . (empty); ? is the empty
    point under test."""
    cells = [[".XO?".index(c) % 3 for c in row] for row in rows]
    point = next((x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "?")
    return cells, point


FIVES_AT_THE_EDGE = [
    # row, rules under which black playing ? wins
    ("XX?XX", {"freestyle", "standard", "renju", "caro", "caro-exact"}),  # edge to edge
    ("?XXXXO", {"freestyle", "standard", "renju", "caro", "caro-exact"}),  # edge, then white
    ("OXXXX?O", {"freestyle", "standard", "renju"}),  # white at both ends
    ("XXX?XX", {"freestyle", "caro"}),  # overline from edge to edge
    ("OXXX?XXO", {"freestyle", "caro"}),  # overline, white at both ends
    ("XXXX?.O", {"freestyle", "standard", "renju", "caro", "caro-exact"}),
]


@pytest.mark.parametrize(("row", "winners"), FIVES_AT_THE_EDGE,
                         ids=[c[0] for c in FIVES_AT_THE_EDGE])
def test_fives_and_overlines_against_the_edge(row: str, winners: set[str]) -> None:
    """The edge is no block under caro (rules.md §4), overlines win only under
    freestyle and caro, blocked or not."""
    cells, (x, y) = diagram(*["." * len(row)] * 4, row)  # the row on the bottom edge
    for rule in Rule:
        expected = rule.value in winners
        assert wins_with(cells, x, y, BLACK, rule.value) is expected, rule
        board = board_of(cells, rule)
        board.grid[y + 1, x + 1] = BLACK
        assert (kernels.winning_direction(board.grid, x, y, rule.code) >= 0) is expected, rule


RENJU_AT_THE_EDGE = [
    # position, the foul of ? (rules.md §3, same-line double fours and edge threes)
    (("XXX.?.XXX", "........."), DOUBLE_FOUR),  # XXX_X_XXX, edge to edge
    (("X.X?X.X", "......."), DOUBLE_FOUR),  # X_XXX_X
    (("XX.X?.XX", "........"), DOUBLE_FOUR),  # XX_XX_XX
    (("X.XX?.XX", "........"), NO_FOUL),  # one four: the other gap makes six
    (("X.XX?.X.", "........"), DOUBLE_FOUR),  # both gaps make exactly five
    (("XXX?XX", "......"), OVERLINE),
    (("?XXXX.X", "......."), NO_FOUL),  # exact five at the edge, six elsewhere: it wins
    # .XX?. with a column three: on five columns the row is no three (both
    # straight-four points leave a four against the edge), on six it is one
    ((".X...", "...X.", ".XX?.", "...X.", ".....", "....."), NO_FOUL),
    ((".X....", "...X..", ".XX?..", "...X..", "......", "......"), DOUBLE_THREE),
    # a point on the edge is the end of three of its lines: never a double three
    (("..?XX.", "...X..", "..X...", "......", "......", "......"), NO_FOUL),
    (("......", ".?XX..", ".X....", ".X....", "......", "......"), DOUBLE_THREE),
]


@pytest.mark.parametrize(("rows", "expected"), RENJU_AT_THE_EDGE,
                         ids=["/".join(c[0][:3]) for c in RENJU_AT_THE_EDGE])
def test_renju_fouls_against_the_edge(rows: tuple[str, ...], expected: int) -> None:
    cells, point = diagram(*rows, *[rows[-1]] * (5 - len(rows)))  # at least five rows
    assert foul(cells, *point) == expected
    assert board_of(cells, Rule.RENJU).foul(point) == Foul(expected)


def test_black_with_only_forbidden_points_left_ends_the_game_in_a_draw() -> None:
    """7x7 renju: the last empty point, b2, is an overline for black. Black may not
    pass and has no legal move: the game ends as a draw, though the board is not full."""
    moves = ("c5d4d1g2d2e4f6d7b3c6d3f1c4g6a7e3c3e6g7c1e5b4b1a5g5g4b5d5a1f4e2a6g1f7a2a4"
             "c2c7b6e1a3f5f2b7e7g3f3d6")
    board = Board(7, rule=Rule.RENJU)
    board.push_many(parse_position(moves, 7, 7))
    cells = [[int(board.grid[y + 1, x + 1]) for x in range(7)] for y in range(7)]
    point = parse_renju("b2", 7, 7)
    assert empties(cells) == [point] and foul(cells, *point) == OVERLINE
    assert board.to_move is Color.BLACK and board.foul(point) is Foul.OVERLINE
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is None and outcome.result == "1/2-1/2"
    assert outcome.draw_reason == "only points forbidden to black are left"
    assert board.legal_moves == [] and board.forbidden_points() == set()
    with pytest.raises(IllegalMoveError, match="b2 is not playable: the game is over"):
        board.push(point)
    with pytest.raises(ValueError, match=r"the game is over \(draw\)"):
        think(board, Limit(nodes=2000))
    # a move back, white to move has two points: the game goes on
    board.pop()
    assert board.outcome() is None and len(board.legal_moves) == 2


# -- the engine's pattern tables ----------------------------------------------

def completions(cells: Cells, x: int, y: int, color: int, direction, rule: str) -> int:
    """Empty points on the line that, with ``color`` at (x, y) too, make (x, y) win."""
    count = 0
    for qx, qy in line_through(cells, x, y, *direction):
        if cells[qy][qx] == EMPTY:
            cells[qy][qx] = color
            count += wins_on_line(cells, x, y, direction, rule)
            cells[qy][qx] = EMPTY
    return count


@pytest.mark.parametrize("rule", list(Rule))
def test_the_engine_tables_agree_with_the_reference(rule: Rule) -> None:
    """A line shape F5 is a winning stone on that line, F4 a stone that two points
    then complete to a win, B4 one point; a cell classed FIVE wins; and under renju
    every foul is one the tables flag for the rule kernel to decide."""
    rng = random.Random(f"tables {rule.value}")
    seen: Counter[int] = Counter()
    flagged = 0
    for n in range(30):
        width, height = rng.choice(SIZES)
        if n % 3 == 0:
            cells = clustered_cells(rng, width, height)
        else:
            cells = random_cells(rng, width, height, rng.uniform(0.3, 0.7), rng.uniform(0.4, 0.7))
        pos = engine_position(cells, rule)
        foul_points = fouls(cells) if rule is Rule.RENJU else {}
        for x, y in empties(cells):
            idx = P.cell_index(pos, (x, y))
            for color in (BLACK, WHITE):
                cells[y][x] = color
                won = False
                for d, direction in enumerate(DIRECTIONS):
                    five = wins_on_line(cells, x, y, direction, rule.value)
                    won |= five
                    shape = int(pos.shape[color - 1, idx * 4 + d])
                    if five:
                        expected = patterns.F5
                    else:
                        count = completions(cells, x, y, color, direction, rule.value)
                        expected = patterns.F4 if count >= 2 else patterns.B4 if count else -1
                    got = shape if shape in (patterns.F5, patterns.F4, patterns.B4) else -1
                    assert got == expected, (rule, color, (x, y), d, picture(cells))
                    seen[expected] += 1
                cells[y][x] = EMPTY
                klass = pos.combo_table[pos.combo[color - 1, idx], P.T_CLASS]
                assert (klass == patterns.C_FIVE) == won, (rule, color, (x, y), picture(cells))
            if (x, y) in foul_points:
                assert P.may_be_forbidden(pos, 1, idx), ((x, y), picture(cells))
                flagged += 1
    assert seen[patterns.F5] >= 30 and seen[patterns.F4] >= 10 and seen[patterns.B4] >= 100, seen
    assert rule is not Rule.RENJU or flagged >= 20, flagged


# -- whole games on the board ---------------------------------------------------

def play_checked(rng: random.Random, width: int, height: int, rule: Rule) -> str:
    """A game in which each side avoids winning while it can, so most games fill the
    board; every position's legal moves, and every move's outcome, are checked
    against the reference. Returns how the game ended."""
    board = Board(width, height, rule=rule)
    cells = empty_cells(width, height)
    while True:
        color = BLACK if board.to_move is Color.BLACK else WHITE
        legal = empties(cells)
        if rule is Rule.RENJU and color == BLACK:
            legal = [p for p in legal if foul(cells, *p) == NO_FOUL]
        assert legal and board.legal_moves == sorted(legal, key=lambda p: (p[1], p[0])), \
            picture(cells)
        quiet = [p for p in legal if not wins_with(cells, *p, color, rule.value)]
        move = rng.choice(quiet or legal)
        board.push(move)
        cells[move[1]][move[0]] = color
        outcome = board.outcome()
        if wins(cells, *move, rule.value):
            assert outcome is not None and outcome.winner == Color(color), picture(cells)
            line = list(outcome.line)
            direction = (line[1][0] - line[0][0], line[1][1] - line[0][1])
            assert direction in DIRECTIONS and move in line
            assert wins_on_line(cells, *move, direction, rule.value)
            points = line_through(cells, *move, *direction)
            values = [cells[py][px] for px, py in points]
            start, end = run_bounds(values, points.index(move))
            assert line == points[start : end + 1]  # the whole run through the move
            ended = "win"
        elif not empties(cells):
            assert outcome is not None and outcome.winner is None, picture(cells)
            assert outcome.draw_reason == "the board is full"
            ended = "draw"
        elif rule is Rule.RENJU and color == WHITE and all(
                foul(cells, *p) != NO_FOUL for p in empties(cells)):
            # black, to move, has only forbidden points left: a draw
            assert outcome is not None and outcome.winner is None, picture(cells)
            assert outcome.no_legal_move
            ended = "no legal move"
        else:
            assert outcome is None, picture(cells)
            continue
        assert board.legal_moves == [] and board.forbidden_points() == set()
        with pytest.raises(IllegalMoveError, match=r"game is over|occupied"):
            board.push((0, 0))
        return ended


@pytest.mark.parametrize("rule", list(Rule))
def test_games_agree_with_the_reference_to_the_end(rule: Rule) -> None:
    rng = random.Random(f"games {rule.value}")
    sizes = [(5, 5), (5, 6), (6, 5), (5, 9), (9, 5), (6, 7), (7, 6), (7, 7), (8, 6)]
    endings = Counter(play_checked(rng, *rng.choice(sizes), rule) for _ in range(40))
    assert endings["win"] >= 5 and endings["draw"] >= 5, endings


# -- the largest board -----------------------------------------------------------

def test_the_largest_board_agrees_with_the_reference() -> None:
    """64x64 with groups of stones in the corners, along the edges and in the middle:
    wins under every rule and renju fouls at every empty point."""
    rng = random.Random("64x64")
    cells = empty_cells(64, 64)
    for cx, cy in [(0, 0), (63, 0), (0, 63), (63, 63), (31, 0), (0, 40), (63, 22), (30, 63),
                   (32, 32)]:
        for _ in range(40):
            x = min(63, max(0, round(rng.gauss(cx, 3))))
            y = min(63, max(0, round(rng.gauss(cy, 3))))
            cells[y][x] = BLACK if rng.random() < 0.6 else WHITE
    grid = grid_of(cells)
    near = [(x, y) for x, y in empties(cells)
            if any(cells[y + dy][x + dx] for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                   if 0 <= x + dx < 64 and 0 <= y + dy < 64)]
    for rule in Rule:
        for x, y in near:
            for color in (BLACK, WHITE):
                grid[y + 1, x + 1] = color
                got = kernels.winning_direction(grid, x, y, rule.code) >= 0
                grid[y + 1, x + 1] = EMPTY
                assert got == wins_with(cells, x, y, color, rule.value), (rule, color, (x, y))
    expected = fouls(cells)
    whole = kernels.forbidden_map(grid)
    found = {(int(x), int(y)): int(whole[y, x]) for y, x in zip(*np.nonzero(whole), strict=True)}
    assert found == expected and len(expected) >= 5, expected
