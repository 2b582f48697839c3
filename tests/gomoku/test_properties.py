"""Property tests over random games, with an independent pure-Python win oracle."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gridgames.gomoku import Board, Color, IllegalMoveError, Rule

SYMMETRIES = [
    lambda x, y, n: (x, y),
    lambda x, y, n: (n - 1 - x, y),
    lambda x, y, n: (x, n - 1 - y),
    lambda x, y, n: (n - 1 - x, n - 1 - y),
    lambda x, y, n: (y, x),
    lambda x, y, n: (n - 1 - y, x),
    lambda x, y, n: (y, n - 1 - x),
    lambda x, y, n: (n - 1 - y, n - 1 - x),
]


def oracle_wins(stones: dict[tuple[int, int], Color], x: int, y: int, rule: Rule) -> bool:
    """Does the stone at (x, y) win? Written from the rule texts, independently of the kernels."""
    color = stones[(x, y)]
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        line = [(x, y)]
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while stones.get((cx, cy)) is color:
                line.append((cx, cy))
                cx, cy = cx + sign * dx, cy + sign * dy
        length = len(line)
        # order the run along (dx, dy) to find the squares beyond its two ends
        ordered = sorted(line, key=lambda p: p[0] * dx + p[1] * dy)
        first, last = ordered[0], ordered[-1]
        before = stones.get((first[0] - dx, first[1] - dy))
        after = stones.get((last[0] + dx, last[1] + dy))
        blocked = before is color.other and after is color.other
        if rule is Rule.FREESTYLE and length >= 5:
            return True
        if rule is Rule.STANDARD and length == 5:
            return True
        if rule is Rule.RENJU and (length == 5 or (length > 5 and color is Color.WHITE)):
            return True
        if rule is Rule.CARO and (length > 5 or (length == 5 and not blocked)):
            return True
        if rule is Rule.CARO_EXACT and length == 5 and not blocked:
            return True
    return False


games = st.tuples(
    st.sampled_from([Rule.FREESTYLE, Rule.STANDARD, Rule.CARO, Rule.CARO_EXACT, Rule.RENJU]),
    st.integers(5, 9),
    st.integers(5, 9),
    st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), max_size=70),
)


def play_random(rule: Rule, width: int, height: int, wishes) -> Board:
    """Play the wished points that are legal, in order, until the game ends."""
    board = Board(width, height, rule=rule)
    for x, y in wishes:
        if board.is_game_over():
            break
        if board.is_legal((x % width, y % height)):
            board.push((x % width, y % height))
    return board


@settings(max_examples=150, deadline=None)
@given(games)
def test_outcome_matches_the_oracle_and_pop_undoes_push(game):
    rule, width, height, wishes = game
    board = play_random(rule, width, height, wishes)
    stones: dict[tuple[int, int], Color] = {}
    replayed = Board(width, height, rule=rule)
    grids = []
    for i, move in enumerate(board.move_stack):
        grids.append(replayed.grid.copy())
        replayed.push(move)
        stones[move] = Color.BLACK if i % 2 == 0 else Color.WHITE
        won = oracle_wins(stones, *move, rule)
        outcome = replayed.outcome()
        if won:
            assert outcome is not None and outcome.winner is stones[move]
            assert move in outcome.line
        elif len(stones) == width * height:
            assert outcome is not None and outcome.winner is None
        else:
            assert outcome is None
    for grid in reversed(grids):
        replayed.pop()
        assert (replayed.grid == grid).all()


@settings(max_examples=100, deadline=None)
@given(games)
def test_no_move_is_accepted_after_the_game_ends(game):
    rule, width, height, wishes = game
    board = play_random(rule, width, height, wishes)
    if board.is_game_over():
        assert board.legal_moves == []
        for x in range(width):
            for y in range(height):
                assert not board.is_legal((x, y))
        try:
            board.push((0, 0))
        except IllegalMoveError as error:
            assert "game is over" in str(error) or "occupied" in str(error)
        else:
            raise AssertionError("a move was accepted after the end")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(list(Rule)), st.integers(5, 11),
       st.lists(st.tuples(st.integers(0, 10), st.integers(0, 10)), max_size=60))
def test_outcome_and_fouls_are_the_same_under_the_eight_symmetries(rule, size, wishes):
    board = play_random(rule, size, size, wishes)
    reference = board.outcome()
    forbidden = board.forbidden_points()
    for transform in SYMMETRIES:
        image = Board(size, rule=rule)
        for x, y in board.move_stack:
            image.push(transform(x, y, size))
        outcome = image.outcome()
        assert (outcome is None) == (reference is None)
        if outcome is not None and reference is not None:
            assert outcome.winner == reference.winner
            assert set(outcome.line) == {transform(x, y, size) for x, y in reference.line}
        assert image.forbidden_points() == {transform(x, y, size) for x, y in forbidden}
