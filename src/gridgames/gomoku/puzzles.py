""""Find the win" puzzles: positions where the side to move wins by continuous fours.

A puzzle is a position and an attacker (the side to move) who can force a five
by **VCF**, victory by continuous fours: every attacking move makes a four, so
every defence is forced. ``length`` is the attacker's moves to the five,
counting the five itself. The shipped puzzles (``data/puzzles.json``, made by
``benchmarks/make_puzzles.py``) come from engine games, in freestyle, standard,
renju and caro; some renju ones are *foul traps*, where white wins because
black's only block is a forbidden point.

:func:`judge` answers one attempted move. Any move that keeps a forced win
within the moves left is accepted, not only the stored line, as chess puzzles
accept any mate. The answer comes from :class:`VcfProver`, a small exact
search over the core board: the attacker's four-making moves, the defender's
blocks (renju fouls and caro's blocked fives through the rule kernels), the
defender's own fives, and the attacker's forced block when a defence makes a
four. It counts positions and stops with :class:`SearchLimitError` past its
node limit rather than run on.

>>> puzzle = get_puzzle(1)
>>> puzzle.length >= 3
True
>>> verdict = judge(puzzle, [], puzzle.solution[0])
>>> verdict.kind
'continue'
>>> verdict.reply == puzzle.solution[1]
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

import numpy as np

from gridgames.gomoku import rules
from gridgames.gomoku.board import (
    Board,
    Color,
    IllegalMoveError,
    Point,
    as_point,
    as_whole,
    check_color,
    on_board,
)
from gridgames.gomoku.notation import format_position, parse_position, shown, shown_value
from gridgames.gomoku.rules import DIRECTIONS, Foul, Rule, rule_kernel
from gridgames.prepare import KernelGroup, Report, prepare

__all__ = [
    "DEFAULT_NODE_LIMIT",
    "MAX_LENGTH",
    "MIN_LENGTH",
    "PUZZLE_RULES",
    "Puzzle",
    "SearchLimitError",
    "VcfProver",
    "Verdict",
    "attempt_board",
    "engine_vcf",
    "get_puzzle",
    "hint",
    "judge",
    "load_puzzles",
    "puzzles_from_json",
    "puzzles_to_json",
    "warm_up",
    "winning_moves",
]

PUZZLE_RULES = (Rule.FREESTYLE, Rule.STANDARD, Rule.RENJU, Rule.CARO)
"""The rules puzzles are made for."""
MIN_LENGTH, MAX_LENGTH = 3, 9
"""The shipped puzzles' lengths: attacker moves to the five, the five included."""
DEFAULT_NODE_LIMIT = 200_000
"""Positions a judgement may visit before it gives up (the shipped puzzles need far fewer)."""
FOUL_TRAP = "foul-trap"
"""Theme of a renju puzzle where white wins because black's block is forbidden."""
AVOID_FOULS = "avoid-fouls"
"""Theme of a renju puzzle where black has a tempting four on a forbidden point."""

_DATA_FILE = "puzzles.json"


class SearchLimitError(RuntimeError):
    """The prover reached its node limit before deciding."""


# ---------------------------------------------------------------------------
# Kernels: fives and fours, decided by the rule kernels themselves


@rule_kernel
def _five_points_near(grid, x, y, color, rule_code, out):
    """Empty points within four steps of (x, y) on its four lines where ``color``
    would make a winning five; written to ``out`` as y * width + x, returns the count."""
    height, width = grid.shape[0] - 2, grid.shape[1] - 2
    n = 0
    for d in range(4):
        dx, dy = rules._DX[d], rules._DY[d]
        for s in range(-4, 5):
            px, py = x + dx * s, y + dy * s
            if s == 0 or not (0 <= px < width and 0 <= py < height):
                continue
            if grid[py + 1, px + 1] != rules.EMPTY:
                continue
            if rules.makes_five(grid, px, py, color, rule_code):
                code = py * width + px
                seen = False
                for i in range(n):
                    if out[i] == code:
                        seen = True
                if not seen:
                    out[n] = code
                    n += 1
    return n


@rule_kernel
def _four_moves(grid, color, rule_code, skip_fouls, out):
    """Empty points where a ``color`` stone makes a four (a point that then makes five),
    in reading order; renju fouls are left out when ``skip_fouls`` is set."""
    height, width = grid.shape[0] - 2, grid.shape[1] - 2
    scratch = np.empty(64, dtype=np.int64)
    n = 0
    for y in range(height):
        for x in range(width):
            if grid[y + 1, x + 1] != rules.EMPTY:
                continue
            # a four needs three of our stones within four steps on one line
            promising = False
            for d in range(4):
                dx, dy = rules._DX[d], rules._DY[d]
                own = 0
                for s in range(-4, 5):
                    px, py = x + dx * s + 1, y + dy * s + 1
                    if 0 <= px < width + 2 and 0 <= py < height + 2 and grid[py, px] == color:
                        own += 1
                if own >= 3:
                    promising = True
                    break
            if not promising:
                continue
            if skip_fouls and rules.forbidden_kind(grid, x, y) != 0:
                continue
            grid[y + 1, x + 1] = color
            fives = _five_points_near(grid, x, y, color, rule_code, scratch)
            grid[y + 1, x + 1] = rules.EMPTY
            if fives > 0:
                out[n] = y * width + x
                n += 1
    return n


def _load_prover() -> None:
    board = Board(15)
    board.push_many([(7, 7), (0, 0), (8, 7), (0, 2), (9, 7)])
    prover = VcfProver(board)
    prover.fours(Color.BLACK)
    prover.fives(Color.BLACK)


KERNEL_GROUPS = (KernelGroup("puzzle prover", _load_prover),)


def warm_up(report: Report | None = None) -> None:
    """Load the prover's compiled kernels now (compiling them on first use), so that
    the first judgement is as quick as the others; ``report`` hears of the progress
    (see :func:`gridgames.prepare.prepare`)."""
    prepare(KERNEL_GROUPS, report)


# ---------------------------------------------------------------------------
# The prover


class VcfProver:
    """An exact, bounded search for wins by continuous fours on a copy of a board.

    :meth:`attacker_moves` gives the fewest moves in which ``attacker`` (to move)
    forces a five by fours, within a bound; :meth:`after_four` the same for a
    position where the attacker has just moved and the defender is to answer.
    Every count includes the five. Past ``node_limit`` positions it raises
    :class:`SearchLimitError`.
    """

    def __init__(self, board: Board, node_limit: int = DEFAULT_NODE_LIMIT) -> None:
        if board.rule not in PUZZLE_RULES:
            raise ValueError(f"puzzles are for {', '.join(r.value for r in PUZZLE_RULES)}; "
                             f"got {board.rule.value}")
        if isinstance(node_limit, bool) or not isinstance(node_limit, int) or node_limit < 1:
            raise ValueError(f"node_limit must be a whole number of 1 or more, not "
                             f"{shown_value(node_limit)}")
        self.rule = board.rule
        self.width, self.height = board.width, board.height
        self.grid = board.grid.copy()
        self.node_limit = node_limit
        self.nodes = 0
        self._memo: dict[tuple[bytes, int, int], int] = {}
        self._buffer = np.empty(self.width * self.height, dtype=np.int64)

    # -- small queries ---------------------------------------------------------

    def _points(self, count: int) -> list[Point]:
        return [(int(c) % self.width, int(c) // self.width) for c in self._buffer[:count]]

    def _on_board(self, point: Point) -> Point:
        # the grid and the kernels would read and write past the board's edge
        return on_board(point, self.width, self.height)

    def stone(self, point: Point) -> int:
        x, y = self._on_board(point)
        return int(self.grid[y + 1, x + 1])

    def place(self, point: Point, color: Color) -> None:
        x, y = self._on_board(point)
        self.grid[y + 1, x + 1] = check_color(color)

    def remove(self, point: Point) -> None:
        x, y = self._on_board(point)
        self.grid[y + 1, x + 1] = rules.EMPTY

    def fives(self, color: Color) -> list[Point]:
        """Where ``color`` would make a winning five now, in reading order."""
        return self._points(rules.five_points(self.grid, int(color), self.rule.code, self._buffer))

    def fives_near(self, point: Point, color: Color) -> list[Point]:
        """The five points of ``color`` on the four lines through ``point``."""
        x, y = self._on_board(point)
        count = _five_points_near(self.grid, x, y, int(color), self.rule.code, self._buffer)
        return sorted(self._points(count), key=lambda p: (p[1], p[0]))

    def fours(self, color: Color) -> list[Point]:
        """The moves that make a four for ``color`` (renju fouls left out for black)."""
        skip = int(self.rule is Rule.RENJU and color is Color.BLACK)
        return self._points(_four_moves(self.grid, int(color), self.rule.code, skip,
                                        self._buffer))

    def foul(self, point: Point, color: Color) -> Foul:
        """Why ``color`` may not play the empty ``point`` (renju black only)."""
        if self.rule is not Rule.RENJU or color is not Color.BLACK:
            return Foul.NONE
        x, y = self._on_board(point)
        return Foul(int(rules.forbidden_kind(self.grid, x, y)))

    def blocks(self, attacker: Color, fives: Sequence[Point]) -> list[Point]:
        """The defender's legal moves that leave the attacker no five, in reading order.

        Only the five points themselves can stop a five, except in caro, where a
        stone at the far end of the five also stops it (a five blocked at both
        ends does not win); stones elsewhere never stop one.
        """
        defender = attacker.other
        candidates = set(fives)
        if self.rule is Rule.CARO:
            for fx, fy in fives:
                for dx, dy in DIRECTIONS:
                    for s in range(-5, 6):
                        px, py = fx + dx * s, fy + dy * s
                        if 0 <= px < self.width and 0 <= py < self.height:
                            candidates.add((px, py))
        stops = []
        for point in sorted(candidates, key=lambda p: (p[1], p[0])):
            if self.stone(point) != rules.EMPTY or self.foul(point, defender):
                continue
            self.place(point, defender)
            if not self._still_five(attacker, fives, point):
                stops.append(point)
            self.remove(point)
        return stops

    def _still_five(self, attacker: Color, fives: Sequence[Point], taken: Point) -> bool:
        for point in fives:
            if point == taken or self.stone(point) != rules.EMPTY:
                continue
            if rules.makes_five(self.grid, point[0], point[1], int(attacker), self.rule.code):
                return True
        return False

    def _count_node(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise SearchLimitError(
                f"no verdict within {self.node_limit} positions; the position is too open "
                "for an exact check of continuous fours")

    # -- the search ------------------------------------------------------------

    def attacking_moves(self, attacker: Color) -> list[Point]:
        """The attacker's moves that may keep a VCF going: when the defender has a
        five to make, the blocks of it that are fours too, else every four."""
        defender_fives = self.fives(attacker.other)
        if not defender_fives:
            return self.fours(attacker)
        fours = set(self.fours(attacker))
        return [p for p in self.blocks(attacker.other, defender_fives) if p in fours]

    def attacker_moves(self, attacker: Color, bound: int) -> int:
        """Fewest attacker moves (``attacker`` to move) to a forced five by fours,
        at most ``bound``; 0 if there is none within it."""
        self._count_node()
        if self.fives(attacker):
            return 1
        if bound < 2:
            return 0
        key = (self.grid.tobytes(), int(attacker), bound)
        if key in self._memo:
            return self._memo[key]
        best = 0
        for move in self.attacking_moves(attacker):
            self.place(move, attacker)
            found = self.after_four(attacker, move, bound)
            self.remove(move)
            if found and (best == 0 or found < best):
                best = found
                if best == 2:
                    break
        self._memo[key] = best
        return best

    def after_four(self, attacker: Color, move: Point, bound: int) -> int:
        """Attacker moves to the five counting ``move`` (just played), at most ``bound``,
        against the defender's longest defence; 0 if the defender escapes."""
        values = self.defences(attacker, move, bound)
        if values is None or any(value == 0 for _, value in values):
            return 0  # no four, or one block escapes
        return max((value for _, value in values), default=2)

    def defences(self, attacker: Color, move: Point, bound: int
                 ) -> list[tuple[Point, int]] | None:
        """The defender's blocks of the four ``move`` (just played) with, for each, the
        attacker's moves to the five counting ``move`` (0: the block escapes).

        ``None`` when ``move`` made no four or the defender has a five to play; an
        empty list when no legal block exists (the five cannot be stopped).
        """
        fives = self.fives_near(move, attacker)
        if not fives or self.fives(attacker.other):
            return None
        values = []
        for block in self.blocks(attacker, fives):
            self.place(block, attacker.other)
            rest = self.attacker_moves(attacker, bound - 1)
            self.remove(block)
            values.append((block, rest + 1 if rest else 0))
            if not rest:
                break  # one escape settles it
        return values


# ---------------------------------------------------------------------------
# Puzzles


@dataclass(frozen=True)
class Puzzle:
    """A position where ``to_move`` forces a five by continuous fours in ``length`` moves.

    ``moves`` are the moves that reach the position (black first); ``solution`` is
    one winning line from it, attacker and defender in turn, ending in the five.
    ``themes`` may hold ``"foul-trap"`` or ``"avoid-fouls"`` (renju).
    """

    id: int
    rule: Rule
    width: int
    height: int
    moves: tuple[Point, ...]
    to_move: Color
    length: int
    solution: tuple[Point, ...]
    themes: tuple[str, ...] = ()
    source: str = field(default="", compare=False)

    def board(self) -> Board:
        """A new board holding the puzzle's position."""
        board = Board(self.width, self.height, rule=self.rule)
        board.push_many(self.moves)
        return board

    @property
    def title(self) -> str:
        themes = f", {', '.join(self.themes)}" if self.themes else ""
        return (f"puzzle {self.id}: {self.rule.value} {self.width}x{self.height}, "
                f"{self.to_move.label} to move and win in {self.length}{themes}")

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id, "rule": self.rule.value, "width": self.width,
            "height": self.height, "moves": format_position(self.moves, self.height),
            "to_move": self.to_move.label, "length": self.length,
            "solution": format_position(self.solution, self.height),
            "themes": list(self.themes), "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Puzzle:
        try:
            width, height = int(data["width"]), int(data["height"])  # type: ignore[call-overload]
            rule = Rule.from_name(str(data["rule"]))
            to_move = Color[str(data["to_move"]).upper()]
            moves = tuple(parse_position(str(data["moves"]), width, height))
            solution = tuple(parse_position(str(data["solution"]), width, height))
            themes = tuple(str(t) for t in data.get("themes", ()))  # type: ignore[attr-defined]
            return cls(int(data["id"]), rule, width, height, moves,  # type: ignore[call-overload]
                       to_move, int(data["length"]), solution,  # type: ignore[call-overload]
                       themes, str(data.get("source", "")))
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a puzzle record ({error}): {data!r}") from error


def puzzles_to_json(puzzles: Iterable[Puzzle], about: str = "") -> str:
    """The data file's text: one puzzle a line, for readable diffs."""
    lines = ",\n".join("    " + json.dumps(p.to_dict()) for p in puzzles)
    return (f'{{\n  "about": {json.dumps(about)},\n  "puzzles": [\n{lines}\n  ]\n}}\n')


def puzzles_from_json(text: str) -> list[Puzzle]:
    data = json.loads(text)
    return [Puzzle.from_dict(item) for item in data["puzzles"]]


@cache
def _shipped() -> tuple[Puzzle, ...]:
    """The shipped puzzles, easiest first. Ids stay as they were made (players' progress
    is kept by id), and later sets are added after the first, so the file's order is
    by set; the list's is by length, then id."""
    text = (resources.files("gridgames.gomoku") / "data" / _DATA_FILE).read_text("utf-8")
    return tuple(sorted(puzzles_from_json(text), key=lambda p: (p.length, p.id)))


def load_puzzles(rule: Rule | str | None = None) -> list[Puzzle]:
    """The shipped puzzles, easiest first; only those of ``rule`` when given."""
    puzzles = list(_shipped())
    if rule is None:
        return puzzles
    allowed = ", ".join(r.value for r in PUZZLE_RULES)
    if not isinstance(rule, Rule | str):
        raise TypeError(f"rule is a Rule or its name ({allowed}), not {shown_value(rule)}")
    if isinstance(rule, Rule):
        wanted = rule
    else:
        try:
            wanted = Rule.from_name(rule)
        except ValueError:  # its message offers every rule, not only those with puzzles
            raise ValueError(f"unknown rule {shown(rule)!r}; puzzles are for {allowed}") from None
    if wanted not in PUZZLE_RULES:
        raise ValueError(f"no puzzles for {wanted.value}; puzzles are for {allowed}")
    return [p for p in puzzles if p.rule is wanted]


def get_puzzle(puzzle_id: object) -> Puzzle:
    """The shipped puzzle numbered ``puzzle_id`` (ValueError naming the range if none)."""
    puzzles = _shipped()
    number = as_whole(puzzle_id)  # numpy's whole numbers are taken too
    if number is None:
        raise ValueError(f"a puzzle id is a whole number, got {shown_value(puzzle_id)}")
    for puzzle in puzzles:
        if puzzle.id == number:
            return puzzle
    ids = [p.id for p in puzzles]
    try:
        name = shown(str(number))
    except ValueError:  # more digits than Python writes out
        name = "of so many digits"
    raise ValueError(f"no puzzle {name}; the puzzles are numbered {min(ids)} to {max(ids)}")


# ---------------------------------------------------------------------------
# Judging an attempt


@dataclass(frozen=True)
class Verdict:
    """The answer to one attempted move.

    ``kind`` is ``"illegal"`` (the move cannot be played; nothing changes),
    ``"win"`` (a five: solved), ``"continue"`` (a forced win is kept; the
    defender answers ``reply`` and ``moves_left`` attacker moves remain) or
    ``"fail"`` (no forced win is left; ``reply`` is the defender's refutation
    when there is one). Front ends that catch :class:`SearchLimitError` may answer
    ``"unknown"``.
    """

    kind: str
    message: str
    reply: Point | None = None
    moves_left: int = 0
    five: tuple[Point, ...] = ()

    @property
    def solved(self) -> bool:
        return self.kind == "win"


def attempt_board(puzzle: Puzzle, played: Sequence[object]) -> Board:
    """The puzzle's board after the attempt's moves so far (ValueError if they cannot be)."""
    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"a puzzle is a Puzzle (get_puzzle(1), say), not {shown_value(puzzle)}")
    if not isinstance(played, Sequence) or isinstance(played, str):
        raise TypeError(f"the moves so far are a list of points, [] at the start, not "
                        f"{shown_value(played)}")
    if len(played) % 2:
        raise ValueError(f"the moves so far must be pairs (your move, the reply); got "
                         f"{len(played)} move{'s' if len(played) != 1 else ''}")
    if len(played) // 2 >= puzzle.length:
        raise ValueError(f"too many moves so far: {len(played)}; puzzle {puzzle.id} is "
                         f"solved in {puzzle.length} moves, so at most "
                         f"{2 * (puzzle.length - 1)} moves come before the last one")
    board = puzzle.board()
    for index, move in enumerate(played, 1):
        point = as_point(move)
        reason = board.illegal_reason(point if point is not None else move)
        if reason is not None:
            raise IllegalMoveError(f"move {index} of the moves so far: {reason}")
        board.push(point)  # type: ignore[arg-type]
    return board


PointNamer = Callable[[Point], str]
"""How verdicts name points; renju notation (``h8``, rows from the bottom) unless given."""


def _namer(board: Board, name: PointNamer | None) -> PointNamer:
    return name if name is not None else board.point_name


def _elsewhere(board: Board, prover: VcfProver, near: Point, defender: Color) -> Point | None:
    """A legal point for a defender who cannot block: the nearest to ``near``."""
    empty = [(x, y) for y in range(board.height) for x in range(board.width)
             if prover.stone((x, y)) == rules.EMPTY and not prover.foul((x, y), defender)]
    if not empty:
        return None
    return min(empty, key=lambda p: (max(abs(p[0] - near[0]), abs(p[1] - near[1])), p[1], p[0]))


def judge(puzzle: Puzzle, played: Sequence[object], move: object,
          node_limit: int = DEFAULT_NODE_LIMIT, *, name: PointNamer | None = None) -> Verdict:
    """Judge ``move`` by the solver after the attempt's moves ``played`` (solver and
    defender in turn, from the puzzle's position). ``name`` names points in the
    messages (renju notation by default).

    Raises ValueError when ``played`` cannot be replayed, and SearchLimitError if
    the position is too open to decide within ``node_limit`` positions.
    """
    board = attempt_board(puzzle, played)
    attacker, defender = puzzle.to_move, puzzle.to_move.other
    point = as_point(move)
    reason = board.illegal_reason(point if point is not None else move)
    if reason is not None:
        return Verdict("illegal", reason)
    assert point is not None
    say = _namer(board, name)
    name_of_move = say(point)
    left = puzzle.length - len(played) // 2 - 1  # attacker moves after this one
    before = VcfProver(board, node_limit)
    threats = before.fives(defender)
    board.push(point)
    outcome = board.outcome()
    if outcome is not None and outcome.winner is attacker:
        return Verdict("win", f"{name_of_move} makes five: solved!", five=outcome.line)
    if outcome is not None:
        return Verdict("fail", f"{name_of_move} ends the game in a {outcome}; no five for you")
    prover = VcfProver(board, node_limit)
    standing = prover.fives(defender) if threats else []
    if standing:  # under caro a block may also be at the far end of the five
        return Verdict("fail", f"{name_of_move} leaves {defender.label}'s four standing: "
                       f"{defender.label} makes five at {say(standing[0])}",
                       reply=standing[0])
    fives = prover.fives_near(point, attacker)
    if not fives:
        return Verdict("fail", f"{name_of_move} is not a four: {defender.label} gets a free move "
                       "and the attack by fours is over")
    if left < 1:
        return Verdict("fail", f"{name_of_move} makes a four, but this was your last move: "
                       f"the puzzle asks for a five in {puzzle.length}")
    values = prover.defences(attacker, point, left + 1)
    assert values is not None  # the move is a four and the defender has no five
    if not values:
        return _unstoppable(board, prover, puzzle, point, fives, say)
    refuted = [block for block, value in values if value == 0]
    if refuted:
        block = refuted[0]
        return Verdict("fail", f"{name_of_move} makes a four, but {defender.label} blocks at "
                       f"{say(block)} and no forced win by fours is left within "
                       f"{left} move{'s' if left != 1 else ''}", reply=block)
    longest = max(value for _, value in values)
    replies = [block for block, value in values if value == longest]
    stored = _stored_next(puzzle, [*played, point])
    reply = stored if stored in replies else replies[0]
    return Verdict("continue", f"{name_of_move} makes a four; {defender.label} must block at "
                   f"{say(reply)}", reply=reply, moves_left=longest - 1)


def _unstoppable(board: Board, prover: VcfProver, puzzle: Puzzle, point: Point,
                 fives: Sequence[Point], say: PointNamer) -> Verdict:
    """The verdict on a four that no legal block stops."""
    defender = puzzle.to_move.other
    name = say(point)
    fouls = [(p, prover.foul(p, defender)) for p in fives if prover.foul(p, defender)]
    reply = _elsewhere(board, prover, fives[0], defender)
    if len(fives) == 1 and fouls:
        why = (f"{defender.label} cannot block at {say(fouls[0][0])}: it is "
               f"forbidden ({fouls[0][1].label})")
    else:
        why = (f"{defender.label} cannot stop both "
               + " and ".join(say(p) for p in fives[:2]))
    tail = f"; {defender.label} plays {say(reply)}" if reply is not None else ""
    return Verdict("continue", f"{name} makes a four and {why}{tail}", reply=reply,
                   moves_left=1)


def winning_moves(board: Board, bound: int, node_limit: int = DEFAULT_NODE_LIMIT
                  ) -> dict[Point, int]:
    """Every first move of the side to move that forces a five by fours within
    ``bound`` moves, with its length (the five counted)."""
    prover = VcfProver(board, node_limit)
    attacker = board.to_move
    wins = {}
    for five in prover.fives(attacker):
        if not prover.foul(five, attacker) or board.is_legal(five):
            wins[five] = 1
    if wins or bound < 2:
        return wins
    for move in prover.attacking_moves(attacker):
        prover.place(move, attacker)
        found = prover.after_four(attacker, move, bound)
        prover.remove(move)
        if found:
            wins[move] = found
    return wins


def engine_vcf(board: Board, max_moves: int) -> tuple[int, Point] | None:
    """The engine's own VCF solver on ``board``: (attacker moves to the five, first move)
    for the side to move, or None if it finds no win by fours within ``max_moves``.

    The engine stops at the first win it finds, which need not be the shortest; it
    is the independent check the shipped puzzles are tested against.
    """
    from gridgames.gomoku.ai import engine, position, search

    pos = engine.load_position(board)
    side = int(board.to_move)
    plies = search.vcf(pos, 0, max_moves - 1, side, 1)
    if plies <= 0:
        return None
    first = position.cell_point(pos, int(pos.info[position.I_VCF_MOVE]))
    return (plies + 1) // 2, first


def hint(puzzle: Puzzle, played: Sequence[object] = (),
         node_limit: int = DEFAULT_NODE_LIMIT, *, name: PointNamer | None = None) -> str:
    """A nudge toward a winning move: which of your stones its four is made with."""
    board = attempt_board(puzzle, played)
    say = _namer(board, name)
    stored = _stored_next(puzzle, played)
    left = puzzle.length - len(played) // 2
    move = stored
    if move is None:
        wins = winning_moves(board, left, node_limit)
        if not wins:
            return "no forced win by fours is left from here; try the puzzle again"
        move = min(wins, key=lambda p: (wins[p], p[1], p[0]))
    prover = VcfProver(board, node_limit)
    attacker = puzzle.to_move
    if prover.fives(attacker):
        return "you have a five to play: look for four of your stones in a line"
    prover.place(move, attacker)
    fives = prover.fives_near(move, attacker)
    prover.remove(move)
    for dx, dy in DIRECTIONS:
        # the line of the four: the one through the move that holds its five point
        if not any(_on_line(move, five, dx, dy) for five in fives):
            continue
        for step in (1, -1, 2, -2, 3, -3, 4, -4):
            x, y = move[0] + dx * step, move[1] + dy * step
            if board.contains((x, y)) and board[(x, y)] is attacker:
                kind = {(1, 0): "row", (0, 1): "column"}.get((dx, dy), "diagonal")
                return f"make a four on the {kind} through your stone at {say((x, y))}"
    return f"look near {say(move)}"


def _on_line(origin: Point, point: Point, dx: int, dy: int) -> bool:
    """Whether ``point`` lies on the line through ``origin`` in direction (dx, dy)."""
    ox, oy = point[0] - origin[0], point[1] - origin[1]
    return ox * dy == oy * dx


def _stored_next(puzzle: Puzzle, played: Sequence[object]) -> Point | None:
    """The stored line's next move, when the attempt has followed the line so far."""
    line = tuple(as_point(m) for m in played)
    if line == puzzle.solution[: len(line)] and len(line) < len(puzzle.solution):
        return puzzle.solution[len(line)]
    return None
