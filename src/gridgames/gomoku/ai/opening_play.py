"""The computer's actions under an opening rule (see :mod:`gridgames.gomoku.opening_rules`).

Every choice is judged by the search: the first stones are the candidate
opening whose value is closest to even, a colour is chosen by the value of the
position for it, Soosõrv's declared number of fifth moves is the one that
leaves black's n-th best offer closest to even, black offers its best fifth
moves (one of each symmetric group), and white picks the offer best for white.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gridgames.gomoku.board import Board, Point
from gridgames.gomoku.opening_rules import (
    RENJU_OPENINGS,
    Opening,
    OpeningRule,
    canonical_opening,
    steps_from_centre,
    symmetries,
)
from gridgames.gomoku.openings import centred, default_openings

if TYPE_CHECKING:
    from gridgames.gomoku.ai.engine import StopSignal
    from gridgames.gomoku.ai.limits import Limit, SearchResult

# Within this many centi-stones of 0 a position counts as balanced (Swap2's third option).
BALANCED = 60
# How many candidate openings to compare when placing the first three stones.
CANDIDATES = 6
_WIN = 1_000_000

LimitFor = Callable[[int], "Limit"]


@dataclass(frozen=True)
class Decision:
    """The actions to apply, in order, and, when they end the opening with the computer
    to move, the search that found its move (``None`` otherwise)."""

    actions: tuple[str, ...]
    search: SearchResult | None = None

    @property
    def move(self) -> Point | None:
        """The computer's move after the actions, if the decision found one."""
        return None if self.search is None else self.search.move


def value(result: SearchResult) -> int:
    """A search result's score for the side to move, forced wins and losses beyond any other."""
    if result.mate is not None:
        return _WIN if result.mate > 0 else -_WIN
    return result.score


def decide(opening: Opening, budget_ms: int, limit_for: LimitFor, *,
           stop: StopSignal | None = None, rng: random.Random | None = None) -> Decision:
    """The computer's actions when it is to act in ``opening`` (the opening is not changed).

    ``budget_ms`` is the time for the whole decision; ``limit_for(ms)`` turns a
    share of it into the search limit of the computer's level.
    """
    from gridgames.gomoku.ai import analyse, think

    if opening.done:
        raise ValueError("the opening is over: there is nothing to decide")
    rng = rng or random.Random()
    board = opening.board
    phase = opening.allowed
    name = board.point_name
    if opening.rule is OpeningRule.TARAGUCHI and "place" in phase:
        return _taraguchi_stone(opening, budget_ms, limit_for, stop)
    if opening.rule in (OpeningRule.PRO, OpeningRule.LONG_PRO):
        return Decision((f"place {name(_best_in_area(opening, budget_ms, limit_for, stop))}",))
    if len(board) < 3 and phase == ("place",):
        stones = _balanced_start(opening, budget_ms, limit_for, stop, rng)[len(board):]
        return Decision(tuple(f"place {name(p)}" for p in stones))
    if phase == ("choose", "place"):  # Swap2, the second player at three stones
        first = think(board, limit_for(budget_ms // 2), stop=stop)
        score = value(first)  # white's view
        if score < -BALANCED:
            return Decision(("choose black",))
        if score > BALANCED:
            return Decision(("choose white",), first)
        after = board.copy()
        after.push(first.move)
        fifth = _most_even(analyse(after, limit_for(budget_ms // 2), multipv=4, stop=stop))
        return Decision((f"place {name(first.move)}", f"place {name(fifth)}"))
    if phase == ("choose",):
        return _choose(opening, budget_ms, limit_for, stop)
    if phase == ("place",) and opening.rule is OpeningRule.SWAP2:  # the fifth stone
        fifth = _most_even(analyse(board, limit_for(budget_ms), multipv=4, stop=stop))
        return Decision((f"place {name(fifth)}",))
    if phase == ("place",) and opening.rule is OpeningRule.YAMAGUCHI:  # white's fourth
        return Decision((f"place {name(think(board, limit_for(budget_ms), stop=stop).move)}",))
    if phase in (("place",), ("declare",)):
        # Soosõrv: white's fourth stone and its declaration; Yamaguchi: the first
        # player's declaration, counting on white's best fourth stone
        position = _with_fourth(board, budget_ms // 2, limit_for, stop)
        actions = (f"place {name(position.move_stack[-1])}",) if phase == ("place",) else ()
        values = _best_fifths(position, opening.most_offers(), budget_ms // 2, limit_for, stop)
        count = min(range(1, len(values) + 1), key=lambda n: (abs(values[n - 1][1]), -n))
        return Decision((*actions, f"declare {count}"))
    if phase == ("offer",):
        best = _best_fifths(board, opening.offer_count(), budget_ms, limit_for, stop)
        return Decision((_offer_text(opening, [point for point, _ in best]),))
    if phase == ("pick",):
        share = max(1, budget_ms // len(opening.offers))
        scored = []
        for offer in opening.offers:
            after = board.copy()
            after.push(offer)
            result = think(after, limit_for(share), stop=stop)
            scored.append((value(result), offer, result))
        _, offer, reply = max(scored, key=lambda item: item[:2])
        return Decision((f"pick {name(offer)}",), reply)
    raise AssertionError(f"no decision for {phase}")  # pragma: no cover


def _offer_text(opening: Opening, best: list[Point]) -> str:
    """``offer`` with the searched best moves, and if too few were searched, the other
    fifth moves nearest the centre (one of each symmetric group)."""
    board = opening.board
    offers = list(best)
    count = opening.offer_count()
    groups = sorted(opening.fifth_move_classes(), key=lambda g: steps_from_centre(board, g[0]))
    images = symmetries(board)
    for group in groups:
        if len(offers) >= count:
            break
        if not any(image(group[0]) in offers for image in images):
            offers.append(group[0])
    return "offer " + " ".join(board.point_name(p) for p in offers[:count])


def _taraguchi_stone(opening: Opening, budget_ms: int, limit_for: LimitFor,
                     stop: StopSignal | None) -> Decision:
    """Taraguchi: the next stone in its central area, the one leaving the position closest
    to even (the other player may swap after it); at the fifth, the offers instead when
    black's tenth best fifth move still favours black."""
    from gridgames.gomoku.ai import analyse

    board = opening.board
    if "offer" in opening.allowed:
        count = opening.offer_count()
        best = _best_fifths(board, count, budget_ms // 2, limit_for, stop)
        if len(best) == count and best[-1][1] > 0:
            return Decision((_offer_text(opening, [point for point, _ in best]),))
        budget_ms //= 2
    ring = len(board)
    inside = [r for r in analyse(board, limit_for(budget_ms), multipv=6, stop=stop)
              if steps_from_centre(board, r.move) <= ring]
    if inside:
        point = _most_even(inside)
    else:  # the search's best moves are all outside: the free point nearest the centre
        point = min(board.legal_moves, key=lambda p: steps_from_centre(board, p))
    return Decision((f"place {board.point_name(point)}",))


def _choose(opening: Opening, budget_ms: int, limit_for: LimitFor,
            stop: StopSignal | None) -> Decision:
    """Take the colour the position favours; where the number of offers is declared, black
    counts on its n-th best offer (under Yamaguchi after white's best fourth stone)."""
    from gridgames.gomoku.ai import think

    board = opening.board
    if opening.declared and opening.rule in (OpeningRule.SOOSORV, OpeningRule.YAMAGUCHI):
        position = _with_fourth(board, budget_ms // 2, limit_for, stop)
        best = _best_fifths(position, opening.declared, budget_ms // 2, limit_for, stop)
        black_value = best[-1][1] if best else 0
        return Decision(("choose black" if black_value >= 0 else "choose white",))
    result = think(board, limit_for(budget_ms), stop=stop)
    mover = board.to_move
    keep = value(result) >= 0
    color = mover if keep else mover.other
    action = f"choose {color.label}"
    return Decision((action,), result if keep and _ends(opening, action) else None)


def _with_fourth(board: Board, budget_ms: int, limit_for: LimitFor,
                 stop: StopSignal | None) -> Board:
    """``board`` with four stones: as it is, or after white's best fourth stone."""
    from gridgames.gomoku.ai import think

    if len(board) >= 4:
        return board
    position = board.copy()
    position.push(think(board, limit_for(budget_ms), stop=stop).move)
    return position


def _best_in_area(opening: Opening, budget_ms: int, limit_for: LimitFor,
                  stop: StopSignal | None) -> Point:
    """Pro and Long Pro: the best move in the next stone's area. Where the search's best
    moves all lie nearer the centre, each free point of the nearest allowed ring is
    judged by a short search of its own."""
    from gridgames.gomoku.ai import analyse, think

    board = opening.board
    nearest, farthest = opening.area()
    if not board.move_stack:
        return board.width // 2, board.height // 2
    results = analyse(board, limit_for(budget_ms // 2), multipv=6, stop=stop)
    inside = [r for r in results if nearest <= steps_from_centre(board, r.move) <= farthest]
    if inside:
        return max(inside, key=value).move
    ring = [p for p in board.legal_moves if steps_from_centre(board, p) == nearest]
    share = max(1, budget_ms // 2 // len(ring))
    scored = []
    for point in ring:
        after = board.copy()
        after.push(point)
        scored.append((-value(think(after, limit_for(share), stop=stop)), point))
    return max(scored)[1]


def _ends(opening: Opening, action: str) -> bool:
    """Whether ``action`` ends the opening (some choices lead to more stones, not to play)."""
    board = opening.board
    after = Opening.replay(opening.rule, Board(board.width, board.height, rule=board.rule),
                           [*opening.history, action], max_offers=opening.max_offers)
    return after.done


def _most_even(results: Sequence[SearchResult]) -> Point:
    return min(results, key=lambda r: abs(value(r))).move


def _best_fifths(board: Board, count: int, budget_ms: int, limit_for: LimitFor,
                 stop: StopSignal | None) -> list[tuple[Point, int]]:
    """Black's best fifth moves, one of each symmetric group, with their values for black,
    best first (up to ``count``)."""
    from gridgames.gomoku.ai import analyse

    images = symmetries(board)
    results = analyse(board, limit_for(budget_ms), multipv=min(2 * count + 2, 24), stop=stop)
    chosen: list[tuple[Point, int]] = []
    for result in sorted(results, key=value, reverse=True):
        if not any(image(result.move) == point for point, _ in chosen for image in images):
            chosen.append((result.move, value(result)))
    return chosen[:count]


def _balanced_start(opening: Opening, budget_ms: int, limit_for: LimitFor,
                    stop: StopSignal | None, rng: random.Random) -> list[Point]:
    """The first three stones: of a few candidate openings, the one closest to even."""
    from gridgames.gomoku.ai import think

    board = opening.board
    candidates = [c for c in _candidate_starts(opening)
                  if list(c[: len(board)]) == board.move_stack]
    if not candidates:  # stones placed by hand already: finish them near the centre
        return _finish_by_hand(opening)
    rng.shuffle(candidates)
    candidates = candidates[:CANDIDATES]
    if budget_ms <= 0:
        return list(candidates[0])
    share = max(1, budget_ms // len(candidates))
    best: tuple[int, list[Point]] | None = None
    for stones in candidates:
        position = Board(board.width, board.height, rule=board.rule)
        position.push_many(stones)
        imbalance = abs(value(think(position, limit_for(share), stop=stop)))
        if best is None or imbalance < best[0]:
            best = (imbalance, list(stones))
        if stop is not None and stop.is_set():
            break
    assert best is not None
    return best[1]


def _candidate_starts(opening: Opening) -> list[tuple[Point, ...]]:
    board = opening.board
    if opening.rule in (OpeningRule.SOOSORV, OpeningRule.YAMAGUCHI):
        return soosorv_openings(board.width, board.height)
    found = (centred(o, board.width, board.height) for o in default_openings())
    return [tuple(stones) for stones in found if stones]


def _finish_by_hand(opening: Opening) -> list[Point]:
    """The stones so far and the free legal points nearest the centre after them."""
    board = opening.board.copy()
    while len(board) < 3:
        board.push(min(board.legal_moves, key=lambda p: steps_from_centre(board, p)))
    return list(board.move_stack)



def soosorv_openings(width: int, height: int) -> list[tuple[Point, ...]]:
    """The 26 canonical renju openings, moved to the centre of a width×height board (those
    that fit), in the RIF's order.

    >>> len(soosorv_openings(15, 15)), soosorv_openings(15, 15)[3]
    (26, ((7, 7), (7, 6), (8, 6)))
    """
    openings = []
    for code, _name, _third in RENJU_OPENINGS:
        stones = centred(canonical_opening(code), width, height)
        if stones:
            openings.append(tuple(stones))
    return openings
