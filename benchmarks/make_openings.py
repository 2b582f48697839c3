"""Balanced openings for a rule, chosen and checked with our engine.

    python benchmarks/make_openings.py generate                       # the shipped renju set
    python benchmarks/make_openings.py generate --rule renju --bases 4D 2I --count 4 \\
        --screen-depths 2 --depths 3 4 --out /tmp/openings.txt          # a quick small run
    python benchmarks/make_openings.py generate --judge /opt/rapfi/pbrain-rapfi \\
        --judge-limit 200                                  # with a stronger engine's check
    python benchmarks/make_openings.py generate --rule freestyle --count 160 --per-base 8 \\
        --keep 10 --out benchmarks/data/openings-freestyle-5.txt   # for fixed-node matches
    python benchmarks/make_openings.py verify src/gridgames/gomoku/data/openings-renju-15.txt
    python benchmarks/make_openings.py verify FILE --rule renju \\
        --brain /opt/rapfi/pbrain-rapfi --brain-time-ms 1000          # a second opinion

``generate`` starts from the 26 canonical renju openings (black h8, white h9 for the
13 direct ones "1D".."13D" or i9 for the 13 indirect ones "1I".."13I", black's third
stone in the central 5x5), adds white's 4th and black's 5th stone next to the stones
(black's 5th never a forbidden point), and keeps the 5-stone positions, white to move,
that the engine scores closest to even:

1. every candidate is searched to each of ``--screen-depths`` (positions with a forced
   win for either side are dropped); a position's distance from even is the larger of its
   absolute scores (two consecutive depths, because searches to odd and to even depths lean
   to opposite sides); the ``--keep`` closest to even of each base opening go on;
2. those are searched again, deeper, to each of ``--depths``;
3. the closest are kept, at most ``--per-base`` from any one base opening, ``--count`` in all;
   with ``--judge``, a Gomocup brain is asked for its score of each in turn, and one it
   scores beyond ``--judge-limit`` of even (in its own units) is passed over for the next.

Five stones, white to move, is where the renju opening rules (RIF, Soosorv, Taraguchi)
hand the game over: white plays the 6th move after choosing among black's 5th-move
offers. Choosing the 5th stone lets a base opening that is a sure black win at three
stones (2I Kyogetsu, 4D Kagetsu, ...) give an even position too, so the set spreads
over many base openings instead of the handful that are even at three stones.

Every search of ours is bounded by depth alone on one thread, so a rerun writes the same
file (a judge, given time rather than depth, may not score alike twice).
The run takes about four minutes on one core for the full renju set.

``verify`` prints each opening of a file with our engine's scores at ``--depths`` and,
with ``--brain``, the score that a Gomocup brain reports in its MESSAGE lines (Rapfi and
our own brain report one) after thinking ``--brain-time-ms`` on it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from gridgames.gomoku import Board, Color, Rule
from gridgames.gomoku.ai import Limit, think, warm_up
from gridgames.gomoku.gomocup import Engine, EngineError
from gridgames.gomoku.notation import format_position, parse_position
from gridgames.gomoku.opening_rules import (
    RENJU_OPENINGS,
    board_symmetries,
    canonical_opening,
    opening_name,
)
from gridgames.gomoku.openings import load_openings

SIZE = 15
CENTRE = SIZE // 2
DATA_DIR = Path(__file__).resolve().parents[1] / "src" / "gridgames" / "gomoku" / "data"

Point = tuple[int, int]

# -- symmetry -------------------------------------------------------------------------


def transforms(point: Point, size: int = SIZE) -> list[Point]:
    """``point`` under the 8 symmetries of a size x size board (rotations and mirrors)."""
    return [image(point) for image in board_symmetries(size, size)]


def canonical_key(moves: Sequence[Point], size: int = SIZE) -> tuple[tuple[Point, ...], ...]:
    """The same key for positions that are one another's rotations or mirror images
    (black's and white's stones as sets: the order they were played in does not matter)."""
    images = [transforms(p, size) for p in moves]
    keys = []
    for k in range(8):
        black = tuple(sorted(images[i][k] for i in range(0, len(moves), 2)))
        white = tuple(sorted(images[i][k] for i in range(1, len(moves), 2)))
        keys.append((black, white))
    return min(keys)


# -- candidates -----------------------------------------------------------------------


def near(board: Board, radius: int) -> list[Point]:
    """Legal moves within ``radius`` (king steps) of a stone, row by row."""
    stones = board.move_stack
    return [p for p in board.legal_moves
            if any(max(abs(p[0] - s[0]), abs(p[1] - s[1])) <= radius for s in stones)]


@dataclass
class Candidate:
    base: str  # the canonical opening's code
    moves: tuple[Point, ...]
    scores: tuple[int, ...] = ()
    judged: str = ""  # a judge brain's score, if one was asked

    @property
    def text(self) -> str:
        return format_position(self.moves, SIZE)

    @property
    def distance(self) -> int:
        """How far from even: the larger absolute score over the depths searched."""
        return max(abs(s) for s in self.scores)

    @property
    def score(self) -> int:
        return round(statistics.fmean(self.scores))


def candidates(bases: Sequence[str], rule: Rule, radius: int) -> list[Candidate]:
    """Every base opening extended by white's 4th and black's 5th stone near the stones,
    once up to symmetry; positions that end the game or leave a win in one are left out."""
    seen: set[tuple[tuple[Point, ...], ...]] = set()
    found = []
    for code in bases:
        board = Board(SIZE, rule=rule)
        board.push_many(parse_position(canonical_opening(code), SIZE, SIZE))
        for fourth in near(board, radius):
            board.push(fourth)
            for fifth in near(board, radius):
                board.push(fifth)
                key = canonical_key(board.move_stack)
                if key not in seen and is_quiet(board):
                    seen.add(key)
                    found.append(Candidate(code, tuple(board.move_stack)))
                board.pop()
            board.pop()
    return found


def is_quiet(board: Board) -> bool:
    """No five on the board, and no four of either side (so no win in one move)."""
    return not board.is_game_over() and all(
        most_in_a_window(board, color) <= 3 for color in (Color.BLACK, Color.WHITE))


def most_in_a_window(board: Board, color: Color) -> int:
    """The most stones of ``color`` in five points of a line that hold none of the other
    side's: 4 means a four (a five in one move), 3 a three."""
    mine, theirs = set(board.stones(color)), set(board.stones(color.other))
    best = 0
    for sx, sy in mine:
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            for back in range(5):  # the windows of five that hold this stone
                window = [(sx + (k - back) * dx, sy + (k - back) * dy) for k in range(5)]
                if all(board.contains(p) for p in window) and not theirs.intersection(window):
                    best = max(best, len(mine.intersection(window)))
    return best


# -- engine ---------------------------------------------------------------------------


def search(moves: Sequence[Point], rule: Rule, depth: int) -> tuple[int, int | None]:
    """Our engine's score for the side to move, and its mate distance if it sees one."""
    board = Board(SIZE, rule=rule)
    board.push_many(moves)
    result = think(board, Limit(depth=depth))
    return result.score, result.mate


def score_all(found: Iterable[Candidate], rule: Rule, depths: Sequence[int],
              label: str) -> list[Candidate]:
    """The candidates with their scores at ``depths``; those with a forced win dropped."""
    found = list(found)
    kept = []
    started = time.perf_counter()
    for number, candidate in enumerate(found, start=1):
        scores = []
        for depth in depths:
            score, mate = search(candidate.moves, rule, depth)
            if mate is not None:
                break
            scores.append(score)
        else:
            candidate.scores = tuple(scores)
            kept.append(candidate)
        if number % 500 == 0 or number == len(found):
            print(f"  {label}: {number}/{len(found)} searched, "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    return kept


class Judge:
    """A Gomocup brain asked for its score of positions (the one it reports in its
    ``MESSAGE`` lines). A brain that stops answering is launched again and asked once
    more, so one hang does not end a long run."""

    def __init__(self, command: str, time_ms: int) -> None:
        self.command = command
        self.time_ms = time_ms
        self._engine = Engine(command)

    def score(self, board: Board) -> tuple[int | None, str]:
        """The brain's score for the side to move (None for a mate or no score), and
        how it reads: ``+123``, ``mate N`` or ``?``."""
        for attempt in (1, 2):
            try:
                result = self._engine.play(board, Limit(time_ms=self.time_ms))
                break
            except EngineError as error:
                print(f"  {self.command}: {error}; launched again", file=sys.stderr)
                self._engine.quit()
                self._engine = Engine(self.command)
                if attempt == 2:
                    return None, "?"
        if result.info.mate is not None:
            return None, f"mate {result.info.mate}"
        if result.score is None:
            return None, "?"
        return result.score, f"{result.score:+d}"

    def quit(self) -> None:
        self._engine.quit()


def closest_per_base(found: Sequence[Candidate], keep: int) -> list[Candidate]:
    by_base: dict[str, list[Candidate]] = {}
    for candidate in found:
        by_base.setdefault(candidate.base, []).append(candidate)
    chosen = []
    for group in by_base.values():
        chosen.extend(sorted(group, key=lambda c: (c.distance, c.text))[:keep])
    return chosen


def select(found: Sequence[Candidate], count: int, per_base: int,
           accept: Callable[[Candidate], bool] = lambda _: True) -> list[Candidate]:
    """The ``count`` closest to even, at most ``per_base`` from one base opening;
    ``accept`` is asked about each in turn (closest first) and may turn it down."""
    taken: dict[str, int] = {}
    chosen = []
    for candidate in sorted(found, key=lambda c: (c.distance, c.text)):
        if taken.get(candidate.base, 0) < per_base and accept(candidate):
            taken[candidate.base] = taken.get(candidate.base, 0) + 1
            chosen.append(candidate)
            if len(chosen) == count:
                break
    return chosen


# -- commands -------------------------------------------------------------------------


def header(rule: Rule, args: argparse.Namespace, bases: Sequence[str], chosen: int) -> str:
    depths = " and ".join(str(d) for d in args.depths)
    screen = " and ".join(str(d) for d in args.screen_depths)
    source = "the 26" if len(bases) == len(RENJU_OPENINGS) else f"{len(bases)} of the 26"
    points = "one point" if args.radius == 1 else f"{args.radius} points"
    lines = [
        f"Balanced 5-stone {rule.value} openings for 15x15 boards: black, white, black, white,",
        "black (renju notation, rows counted from the bottom), white to move. Made by",
        f"benchmarks/make_openings.py from {source} canonical renju openings",
        "(black h8, white h9 or i9, black's 3rd in the central 5x5): white's 4th and black's",
        f"5th stone within {points} of a stone (black's 5th never forbidden),",
        f"every such position searched to depths {screen}, the {args.keep} closest to even "
        "of each base",
        f"searched again to depths {depths}; kept: the {chosen} whose scores at both depths are",
        f"closest to even, at most {args.per_base} from one base opening. After '#': the mean "
        "of the",
        "two scores for white, to move, in centi-stones, then the base opening.",
    ]
    if args.judge:
        judge = Path(args.judge.split()[0]).name
        lines[-1] = lines[-1].removesuffix(".") + ", then the judge's score."
        lines.append(f"A position is kept only if {judge} ({args.judge_ms} ms a position, "
                     f"its own units) scores it within +-{args.judge_limit} for white.")
    lines.append("Matches play each opening twice, once with each engine as black.")
    return "".join(f"# {line}\n" for line in lines)


def judged_even(candidate: Candidate, judge: Judge, rule: Rule, limit: int) -> bool:
    """Whether the judge scores the position within +-``limit`` (a mate never is)."""
    board = Board(SIZE, rule=rule)
    board.push_many(candidate.moves)
    score, candidate.judged = judge.score(board)
    print(f"  judge: {candidate.text} {candidate.judged}", file=sys.stderr, flush=True)
    return score is not None and abs(score) <= limit


def generate(args: argparse.Namespace) -> int:
    rule = Rule.from_name(args.rule)
    bases = [code.upper() for code in args.bases] if args.bases else [
        code for code, _, _ in RENJU_OPENINGS]
    for code in bases:
        canonical_opening(code)  # a clear error for an unknown code
    out = args.out or DATA_DIR / f"openings-{rule.value}-15.txt"
    warm_up()
    started = time.perf_counter()
    found = candidates(bases, rule, args.radius)
    print(f"{len(found)} positions from {len(bases)} base openings", file=sys.stderr)
    screen = " and ".join(str(d) for d in args.screen_depths)
    screened = score_all(found, rule, args.screen_depths, f"depths {screen}")
    shortlist = closest_per_base(screened, args.keep)
    depths = " and ".join(str(d) for d in args.depths)
    scored = score_all(shortlist, rule, args.depths, f"depths {depths}")
    if args.judge:
        judge = Judge(args.judge, args.judge_ms)
        try:
            chosen = select(scored, args.count, args.per_base,
                            lambda c: judged_even(c, judge, rule, args.judge_limit))
        finally:
            judge.quit()
    else:
        chosen = select(scored, args.count, args.per_base)
    if len(chosen) < args.count:
        print(f"only {len(chosen)} of the {args.count} openings asked for were found",
              file=sys.stderr)
    lines = [header(rule, args, bases, len(chosen))]
    width = max((len(c.text) for c in chosen), default=0)
    for candidate in chosen:
        lines.append(f"{candidate.text:<{width}}  # {candidate.score:+d}  "
                     f"({', '.join(f'{s:+d}' for s in candidate.scores)}) "
                     f"{opening_name(candidate.base)}"
                     + (f"; judge {candidate.judged}" if candidate.judged else "") + "\n")
    Path(out).write_text("".join(lines), encoding="utf-8")
    spread = len({c.base for c in chosen})
    print(f"wrote {len(chosen)} openings from {spread} base openings to {out} "
          f"in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 0


def verify(args: argparse.Namespace) -> int:
    rule = Rule.from_name(args.rule)
    openings = load_openings(args.file)
    warm_up()
    judge = Judge(args.brain, args.brain_time_ms) if args.brain else None
    depths = " ".join(f"d{d}" for d in args.depths)
    print(f"{'opening':<16} {depths}  (ours, for the side to move)"
          + ("  brain" if judge else ""))
    means = []
    try:
        for text in openings:
            board = Board(SIZE, rule=rule)
            try:
                moves = parse_position(text, SIZE, SIZE)
                board.push_many(moves)
            except ValueError as error:
                raise ValueError(f"opening {text!r}: {error}") from None
            if board.is_game_over():
                raise ValueError(f"opening {text!r} already ends the game")
            row = []
            for depth in args.depths:
                score, mate = search(moves, rule, depth)
                row.append(f"mate {mate}" if mate is not None else f"{score:+d}")
                if mate is None:
                    means.append(score)
            line = f"{text:<16} " + " ".join(f"{cell:>5}" for cell in row)
            if judge is not None:
                line += f"  {judge.score(board)[1]}"
            print(line, flush=True)
    finally:
        if judge is not None:
            judge.quit()
    if means:
        print(f"{len(openings)} openings; our mean score {statistics.fmean(means):+.1f}, "
              f"mean distance from even {statistics.fmean(abs(s) for s in means):.1f}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("generate", help="choose balanced openings and write them")
    make.add_argument("--rule", default="renju", help="the rule to balance for (default renju)")
    make.add_argument("--bases", nargs="+", metavar="CODE",
                      help="canonical openings to start from, e.g. 4D 2I (default: all 26)")
    make.add_argument("--radius", type=int, default=1,
                      help="white's 4th and black's 5th within this many points of a stone "
                      "(default 1)")
    make.add_argument("--screen-depths", type=int, nargs="+", default=[3, 4], metavar="DEPTH",
                      help="depths of the first pass over every position (default 3 4)")
    make.add_argument("--keep", type=int, default=8,
                      help="positions of each base opening searched again (default 8)")
    make.add_argument("--depths", type=int, nargs=2, default=[7, 8], metavar="DEPTH",
                      help="the two depths of the final scores (default 7 8)")
    make.add_argument("--count", type=int, default=40, help="openings to keep (default 40)")
    make.add_argument("--per-base", type=int, default=2,
                      help="at most this many from one base opening (default 2)")
    make.add_argument("--out", type=Path,
                      help="file to write (default: the package's openings-RULE-15.txt)")
    make.add_argument("--judge", metavar="COMMAND",
                      help="a Gomocup brain's command line: keep only positions it scores "
                      "near even too")
    make.add_argument("--judge-ms", type=int, default=1000,
                      help="the judge's time for each position (default 1000)")
    make.add_argument("--judge-limit", type=int, default=400,
                      help="keep positions the judge scores within +-this, in its own units "
                      "(default 400)")
    check = commands.add_parser("verify", help="print the scores of an openings file")
    check.add_argument("file", type=Path)
    check.add_argument("--rule", default="renju", help="the rule to score under (default renju)")
    check.add_argument("--depths", type=int, nargs="+", default=[7, 8], metavar="DEPTH",
                       help="our engine's search depths (default 7 8)")
    check.add_argument("--brain", help="a Gomocup brain's command line, for its score too")
    check.add_argument("--brain-time-ms", type=int, default=1000,
                       help="the brain's time for each opening (default 1000)")
    args = parser.parse_args(argv)
    try:
        for name in ("radius", "keep", "count", "per_base", "judge_ms", "brain_time_ms"):
            if getattr(args, name, 1) < 1:
                raise ValueError(f"--{name.replace('_', '-')} must be 1 or more")
        if getattr(args, "judge_limit", 0) < 0:
            raise ValueError("--judge-limit must be 0 or more")
        if any(d < 1 for d in [*args.depths, *getattr(args, "screen_depths", [])]):
            raise ValueError("search depths must be 1 or more")
        return generate(args) if args.command == "generate" else verify(args)
    except (ValueError, EngineError) as error:
        print(f"make_openings: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
