""""Find the win" puzzles from real games, checked exactly, for ``data/puzzles.json``.

    python benchmarks/make_puzzles.py --records 'matches/*/*.psq'      # the shipped set
    python benchmarks/make_puzzles.py --counts freestyle=5 renju=5 --out /tmp/p.json

Sources: freestyle ``.psq`` match records given by ``--records`` (Piskvork files of
``gridgames match --out DIR``, read in sorted order), then self-play of our engine
at a small node budget (``--nodes``) from a few random opening stones drawn from
``--seed``, for every rule whose count the records do not fill.

Every position of a game, with at least eight stones, is a candidate for the side to
move. A candidate is kept when

1. the engine's own VCF solver finds a win by continuous fours (a quick filter),
2. the exact prover of :mod:`gridgames.gomoku.puzzles` finds the shortest such win,
   of 3 to 9 attacker moves, and exactly one first move wins by fours within 11
   moves (so the start has one answer; later moves may have several),
3. the defender has no four of its own on the board (no five to play first), and
4. the engine's solver, bounded by the puzzle's length, finds the same first move.

The solution line is built by the same judge the players meet: the defender always
answers with its longest defence. At most one puzzle is taken from a game (its
longest candidate, or one of a theme still wanted), and positions equal under the
board's eight symmetries are kept once. Renju puzzles are split into *foul traps*
(white wins because black's only block on the line is forbidden; at least
``--foul-traps``), *avoid-fouls* (black's attack meets a four on a forbidden point
along the line; at least ``--avoid-fouls``) and the rest. The file lists each set
by length, then rule; a set added with ``--append`` comes after the ones before,
with the next ids, and the library lists the whole by length, then id.

Everything is bounded by nodes, never by time, so a rerun with the same records,
seed and options writes the same file. Stop early with Ctrl+C: nothing is written.
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from gridgames.gomoku import Board, Color, Rule
from gridgames.gomoku.ai import Limit, think
from gridgames.gomoku.opening_rules import board_symmetries
from gridgames.gomoku.puzzles import (
    AVOID_FOULS,
    FOUL_TRAP,
    MAX_LENGTH,
    MIN_LENGTH,
    Puzzle,
    SearchLimitError,
    VcfProver,
    engine_vcf,
    judge,
    puzzles_from_json,
    puzzles_to_json,
    winning_moves,
)
from gridgames.gomoku.records import load

DATA_FILE = (Path(__file__).resolve().parents[1] / "src" / "gridgames" / "gomoku" / "data"
             / "puzzles.json")
DEFAULT_COUNTS = {"freestyle": 60, "renju": 40, "standard": 20, "caro": 20}
RULE_ORDER = {"freestyle": 0, "standard": 1, "renju": 2, "caro": 3}
NODE_LIMIT = 60_000  # per exact check; a position needing more is passed over
FIRST_STONES = 8

Point = tuple[int, int]


@dataclass
class Game:
    rule: Rule
    width: int
    height: int
    moves: list[Point]
    source: str


@dataclass
class Tally:
    wanted: dict[str, int]
    themes_wanted: dict[str, int]  # renju puzzles of each rarer theme, at least
    min_length: int = MIN_LENGTH
    kept: dict[str, list[Puzzle]] = field(default_factory=dict)
    seen: set[tuple[object, ...]] = field(default_factory=set)

    def themed(self, theme: str) -> int:
        return sum(theme in p.themes for p in self.kept.get("renju", []))

    def needed(self, puzzle: Puzzle) -> bool:
        """Whether ``puzzle`` fills a place kept for a rarer theme."""
        return any(self.themed(t) < n for t, n in self.themes_wanted.items()
                   if t in puzzle.themes)

    def room_for(self, puzzle: Puzzle) -> bool:
        rule = puzzle.rule.value
        have = len(self.kept.get(rule, []))
        if have >= self.wanted.get(rule, 0):
            return False
        if rule != "renju":
            return True
        # places still kept for the rarer themes that this puzzle does not fill
        owed = sum(max(0, n - self.themed(t)) for t, n in self.themes_wanted.items()
                   if t not in puzzle.themes)
        return have + owed < self.wanted[rule]

    def full(self, rule: str) -> bool:
        return len(self.kept.get(rule, [])) >= self.wanted.get(rule, 0)


def symmetry_key(board: Board) -> tuple[object, ...]:
    """The same for positions equal under a reflection or rotation of the board."""
    black, white = board.stones(Color.BLACK), board.stones(Color.WHITE)
    forms = [(tuple(sorted(map(image, black))), tuple(sorted(map(image, white))))
             for image in board_symmetries(board.width, board.height)]
    return (board.rule.value, board.width, board.height, board.to_move, min(forms))


def solution_line(draft: Puzzle, first: Point) -> tuple[tuple[Point, ...], bool]:
    """The line the judge leads to from ``first`` on, and whether black had to block
    on a forbidden point along it."""
    line: list[Point] = []
    move = first
    trapped = False
    for _ in range(draft.length):
        verdict = judge(draft, line, move, node_limit=NODE_LIMIT)
        line.append(move)
        if verdict.kind == "win":
            return tuple(line), trapped
        if verdict.kind != "continue" or verdict.reply is None:
            raise ValueError(f"the line broke at {move}: {verdict.message}")
        trapped = trapped or "forbidden" in verdict.message
        line.append(verdict.reply)
        board = draft.board()
        board.push_many(line)
        wins = winning_moves(board, draft.length - len(line) // 2, NODE_LIMIT)
        if not wins:
            raise ValueError(f"no win left after {line}")
        move = min(wins, key=lambda p: (wins[p], p[1], p[0]))
    raise ValueError("the line did not end in a five within the puzzle's length")


def tempted_along(board: Board, line: tuple[Point, ...]) -> bool:
    """Whether black, attacking along ``line``, meets a four on a forbidden point."""
    board = board.copy()
    for index, move in enumerate(line):
        if index % 2 == 0 and black_four_on_a_foul(board):
            return True
        board.push(move)
    return False


def black_four_on_a_foul(board: Board) -> bool:
    """Whether black (to move, renju) has a four that is a forbidden point."""
    prover = VcfProver(board, NODE_LIMIT)
    for point in board.forbidden_points():
        prover.place(point, Color.BLACK)
        four = bool(prover.fives_near(point, Color.BLACK))
        prover.remove(point)
        if four:
            return True
    return False


def puzzle_at(board: Board, source: str) -> Puzzle | None:
    """The puzzle in ``board``'s position, or None if it is not one (see the module)."""
    found = engine_vcf(board, MAX_LENGTH + 2)
    if found is None:
        return None
    attacker = board.to_move
    prover = VcfProver(board, NODE_LIMIT)
    if prover.fives(attacker.other) or prover.fives(attacker):
        return None
    try:
        wins = winning_moves(board, MAX_LENGTH + 2, NODE_LIMIT)
    except SearchLimitError:
        return None
    if len(wins) != 1:
        return None
    (first, length), = wins.items()
    if not MIN_LENGTH <= length <= MAX_LENGTH:
        return None
    engine = engine_vcf(board, length)
    if engine is None or engine[1] != first:
        return None
    draft = Puzzle(0, board.rule, board.width, board.height, tuple(board.move_stack),
                   attacker, length, (), (), source)
    try:
        line, trapped = solution_line(draft, first)
    except (SearchLimitError, ValueError):
        return None
    themes: tuple[str, ...] = ()
    if board.rule is Rule.RENJU:
        if attacker is Color.WHITE and trapped:
            themes = (FOUL_TRAP,)
        elif attacker is Color.BLACK and tempted_along(board, line):
            themes = (AVOID_FOULS,)
    return replace(draft, solution=line, themes=themes)


def record_games(patterns: list[str]) -> Iterator[Game]:
    for pattern in patterns:
        for path in sorted(glob.glob(pattern)):
            record = load(path, Rule.FREESTYLE)
            name = "/".join(Path(path).parts[-2:])
            yield Game(record.rule, record.width, record.height, list(record.moves),
                       f"match record {name}")


def self_play(rule: Rule, rng: random.Random, nodes: int, number: int) -> Game:
    """One engine game from a few random stones near the centre."""
    board = Board(15, rule=rule)
    board.push((7, 7))
    for _ in range(rng.randint(2, 4)):
        for _ in range(50):
            point = (rng.randint(5, 9), rng.randint(5, 9))
            if board.is_legal(point):
                board.push(point)
                break
    while not board.is_game_over() and len(board) < 120:
        board.push(think(board, Limit(nodes=nodes)).move)
    return Game(rule, 15, 15, list(board.move_stack), f"self-play {rule.value} game {number}")


def candidates(game: Game) -> list[Puzzle]:
    board = Board(game.width, game.height, rule=game.rule)
    found = []
    for index, move in enumerate(game.moves):
        if board.is_game_over():
            break
        if index >= FIRST_STONES:
            puzzle = puzzle_at(board, f"{game.source}, move {index + 1}")
            if puzzle is not None:
                found.append(puzzle)
        board.push(move)
    return found


def take(game: Game, tally: Tally, rng: random.Random) -> Puzzle | None:
    """The game's puzzle, if it has one the tally has room for: one of a rarer theme
    still wanted first, else the longest (the draw settles ties)."""
    if tally.full(game.rule.value):
        return None
    options = [p for p in candidates(game)
               if p.length >= tally.min_length and tally.room_for(p)]
    options = [p for p in options if symmetry_key(p.board()) not in tally.seen]
    if not options:
        return None
    options = [p for p in options if tally.needed(p)] or options
    longest = max(p.length for p in options)
    chosen = rng.choice([p for p in options if p.length == longest])
    tally.seen.add(symmetry_key(chosen.board()))
    tally.kept.setdefault(game.rule.value, []).append(chosen)
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", nargs="*", default=[],
                        help="globs of freestyle .psq match records to mine first")
    parser.add_argument("--counts", nargs="*", default=[],
                        help="rule=count pairs (default: freestyle=60 renju=40 standard=20 "
                        "caro=20)")
    parser.add_argument("--foul-traps", type=int, default=10,
                        help="renju foul traps among the renju puzzles, at least (default 10)")
    parser.add_argument("--avoid-fouls", type=int, default=6,
                        help="renju puzzles where black meets a four on a forbidden point, "
                        "at least (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the draws (default 1)")
    parser.add_argument("--nodes", type=int, default=1500,
                        help="the engine's nodes a move in self-play (default 1500)")
    parser.add_argument("--max-games", type=int, default=3000,
                        help="self-play games per rule at most (default 3000)")
    parser.add_argument("--min-length", type=int, default=MIN_LENGTH,
                        help=f"keep puzzles of this many moves or more (default {MIN_LENGTH})")
    parser.add_argument("--append", action="store_true",
                        help="keep the puzzles already in --out, with their ids, and add the "
                        "new ones after them (players' progress is kept by id)")
    parser.add_argument("--out", type=Path, default=DATA_FILE)
    args = parser.parse_args(argv)
    if not MIN_LENGTH <= args.min_length <= MAX_LENGTH:
        parser.error(f"--min-length must be {MIN_LENGTH} to {MAX_LENGTH}, got {args.min_length}")
    kept_before: list[Puzzle] = []
    if args.append:
        kept_before = puzzles_from_json(args.out.read_text(encoding="utf-8"))
    wanted = dict(DEFAULT_COUNTS)
    if args.counts:
        wanted = {}
        for item in args.counts:
            rule, _, count = item.partition("=")
            if rule not in DEFAULT_COUNTS or not count.isdigit():
                parser.error(f"--counts takes rule=count with a rule of "
                             f"{', '.join(DEFAULT_COUNTS)}; got {item!r}")
            wanted[rule] = int(count)
    renju = wanted.get("renju", 0)
    traps = min(args.foul_traps, renju)
    tally = Tally(wanted, {FOUL_TRAP: traps, AVOID_FOULS: min(args.avoid_fouls, renju - traps)},
                  args.min_length)
    tally.seen.update(symmetry_key(p.board()) for p in kept_before)
    rng = random.Random(args.seed)
    started = time.perf_counter()

    def report(game: Game, puzzle: Puzzle | None) -> None:
        have = " ".join(f"{r}={len(tally.kept.get(r, []))}/{n}" for r, n in wanted.items())
        got = (f"length {puzzle.length} {' '.join(puzzle.themes)}" if puzzle else "-")
        print(f"[{time.perf_counter() - started:6.0f}s] {game.source}: {got}  ({have}, "
              f"foul traps {tally.themed(FOUL_TRAP)}, avoid fouls {tally.themed(AVOID_FOULS)})",
              file=sys.stderr, flush=True)

    for game in record_games(args.records):
        if tally.full("freestyle"):
            break
        report(game, take(game, tally, rng))
    for rule_name in wanted:
        rule = Rule.from_name(rule_name)
        for number in range(1, args.max_games + 1):
            if tally.full(rule_name):
                break
            game = self_play(rule, rng, args.nodes, number)
            report(game, take(game, tally, rng))
    puzzles = [p for kept in tally.kept.values() for p in kept]
    puzzles.sort(key=lambda p: (p.length, RULE_ORDER[p.rule.value], p.source))
    numbered = kept_before + [replace(p, id=i) for i, p in enumerate(puzzles, len(kept_before) + 1)]
    about = (f"made by benchmarks/make_puzzles.py --seed {args.seed} --nodes {args.nodes}: "
             "positions from engine games where the side to move wins by continuous fours")
    if kept_before:
        about = (f"{json.loads(args.out.read_text(encoding='utf-8'))['about']}; then "
                 f"--append --min-length {args.min_length} --seed {args.seed} "
                 f"--nodes {args.nodes}")
    args.out.write_text(puzzles_to_json(numbered, about), encoding="utf-8")
    counts = ", ".join(f"{r} {len(tally.kept.get(r, []))}" for r in wanted)
    print(f"wrote {len(numbered)} puzzles ({counts}; renju foul traps "
          f"{tally.themed(FOUL_TRAP)}, avoid fouls {tally.themed(AVOID_FOULS)}) to "
          f"{args.out} in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
