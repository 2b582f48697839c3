"""``gridgames analyse``: review a game with the engine in the terminal.

Prints one row per move (the score after it from black's view, the engine's
best move, the win probability the move gave away and its label), then each
player's accuracy; or the same as JSON, or the evaluation graph as an image.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from gridgames.gomoku import MAX_SIZE, MIN_SIZE, Board, IllegalMoveError, Rule
from gridgames.gomoku.match import MAX_TIME_MS
from gridgames.gomoku.notation import shown
from gridgames.gomoku.records import RecordError, load

from .options import whole_number

if TYPE_CHECKING:
    from gridgames.gomoku.analysis import GameReview

NAME = "analyse"
HELP = "Review a game: each move's score, the better move, labels and accuracy"
DEFAULT_TIME_MS = 500
MAX_DEPTH = 20  # as the web review allows: each ply deeper takes about twice as long
PLOT_INSTALL = "pip install 'gridgames[plot]'"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = (
        "examples:\n"
        "  gridgames analyse game.psq\n"
        "  gridgames analyse h8i9j10h9 --rule renju --time-ms 200\n"
        "  gridgames analyse game.json --json\n"
        "  gridgames analyse game.psq --plot review.svg\n"
    )
    parser.add_argument("record", metavar="RECORD",
                        help="a .psq or JSON record file, or a position string such as h8i9j10")
    parser.add_argument("--rule", default=None,
                        help="rule of the game (freestyle, standard, renju, caro, caro-exact); "
                             "a JSON record names its own, otherwise freestyle")
    parser.add_argument("--size", type=whole_number(MIN_SIZE, MAX_SIZE), default=15,
                        help="board size for a position string (default 15)")
    parser.add_argument("--time-ms", type=whole_number(1, MAX_TIME_MS), default=None,
                        help=f"engine time for each position in milliseconds, 1 to "
                        f"{MAX_TIME_MS} (default {DEFAULT_TIME_MS}, or none with --depth)")
    parser.add_argument("--depth", type=whole_number(1, MAX_DEPTH), default=None,
                        help=f"search depth for each position (1 to {MAX_DEPTH}) instead of a "
                        "time, for results that do not depend on the machine; with --time-ms "
                        "too, each search stops at whichever limit it reaches first")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument("--plot", metavar="FILE", default=None,
                        help="write the evaluation graph to FILE (.png or .svg; needs matplotlib)")


class UsageError(Exception):
    """Bad input: the message says what was wrong and what is allowed."""


def read_game(text: str, rule: Rule | None, size: int) -> Board:
    """The game of a record file or a position string."""
    if not text.strip():
        raise UsageError("RECORD is empty: give a .psq or JSON record file, or a position "
                         "string such as h8i9j10")
    path = Path(text)
    is_file = _is_file(path)
    if is_file or path.suffix.lower() in (".psq", ".json"):
        if not is_file:
            raise UsageError(f"cannot read the record {shown(text)}: there is no such file")
        try:
            record = load(path, rule or Rule.FREESTYLE)
            if rule is not None and rule is not record.rule:
                record.rule = rule
            return record.to_board()
        except RecordError as error:
            raise UsageError(f"cannot read the record {shown(text)}: {error}") from None
    from gridgames.gomoku.notation import parse_position

    try:
        board = Board(size, rule=rule or Rule.FREESTYLE)
    except ValueError as error:
        raise UsageError(f"--size {size}: {error}") from None
    try:
        moves = parse_position(text, size, size)
    except ValueError as error:
        raise UsageError(
            f"{shown(text)!r} is neither a record file nor a position string like h8i9j10: "
            f"{error}"
        ) from None
    try:
        board.push_many(moves)
    except IllegalMoveError as error:
        raise UsageError(f"{shown(text)!r}: {error}") from None
    return board


def _is_file(path: Path) -> bool:
    """Whether ``path`` names a file; False for text that cannot be a file's name at all
    (too long, or with a NUL), such as a long position string."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def _score_text(score: int, mate: int | None) -> str:
    from gridgames.gomoku.analysis import MATE_BOUND

    if mate is not None:
        return f"{'B' if mate > 0 else 'W'}#{abs(mate)}"
    if abs(score) >= MATE_BOUND:  # a five on the board
        return "B wins" if score > 0 else "W wins"
    return f"{score:+d}"


def print_table(review: GameReview) -> None:
    from gridgames.gomoku.notation import format_renju

    height = review.height
    print(f"{'#':>3}  {'player':<6} {'move':<5} {'eval':>8}  {'best':<5} {'loss':>6}  label")
    for move in review.moves:
        loss = "" if move.label == "forced" else f"{100 * move.loss:.1f}%"
        best = "-" if move.best is None else format_renju(move.best, height)
        print(f"{move.ply:>3}  {move.color:<6} {format_renju(move.move, height):<5} "
              f"{_score_text(move.score, move.mate):>8}  {best:<5} {loss:>6}  {move.label}")
    print()
    print(f"{'player':<6} {'accuracy':>8} {'inaccuracies':>13} {'mistakes':>9} {'blunders':>9}")
    for color, summary in review.summary.items():
        accuracy = "-" if summary.accuracy is None else f"{summary.accuracy:.1f}"
        print(f"{color:<6} {accuracy:>8} {summary.inaccuracies:>13} {summary.mistakes:>9} "
              f"{summary.blunders:>9}")


def write_plot(review: GameReview, target: str) -> None:
    """The evaluation graph: black's win probability after each move, blunders marked."""
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    from gridgames.gomoku.analysis import win_probability

    plies = list(range(len(review.scores)))
    values = [100 * win_probability(score) for score in review.scores]
    figure, axes = plt.subplots(figsize=(8, 3))
    axes.fill_between(plies, values, 50, color="#444444", alpha=0.25)
    axes.plot(plies, values, color="#222222", linewidth=1.5)
    marks = {"blunder": "#d62728", "mistake": "#ff7f0e", "inaccuracy": "#e6c229"}
    for label, colour in marks.items():
        points = [(m.ply, values[m.ply]) for m in review.moves if m.label == label]
        if points:
            xs, ys = zip(*points, strict=True)
            axes.scatter(xs, ys, color=colour, zorder=3, label=label)
    axes.axhline(50, color="#888888", linewidth=0.8)
    axes.set_ylim(0, 100)
    axes.set_xlim(0, max(1, plies[-1]))
    axes.set_xlabel("move")
    axes.set_ylabel("black's winning chance (%)")
    if any(m.label in marks for m in review.moves):
        axes.legend(loc="upper left", fontsize="small")
    figure.tight_layout()
    figure.savefig(target)
    plt.close(figure)


def run(args: argparse.Namespace) -> int:
    try:
        rule = None if args.rule is None else Rule.from_name(args.rule)
    except ValueError as error:
        print(f"gridgames analyse: {error}", file=sys.stderr)
        return 2
    plot = args.plot
    if plot is not None:
        if Path(plot).suffix.lower() not in (".png", ".svg"):
            print(f"gridgames analyse: --plot {plot}: the file name must end in .png or .svg",
                  file=sys.stderr)
            return 2
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print(f"gridgames analyse: --plot needs matplotlib; install it with: {PLOT_INSTALL}",
                  file=sys.stderr)
            return 2
    try:
        board = read_game(args.record, rule, args.size)
    except UsageError as error:
        print(f"gridgames analyse: {error}", file=sys.stderr)
        return 2
    if not board.move_stack:
        print("gridgames analyse: the game has no moves to review", file=sys.stderr)
        return 2

    from gridgames.gomoku.ai import Limit
    from gridgames.gomoku.analysis import review_game

    time_ms = args.time_ms
    if time_ms is None and args.depth is None:
        time_ms = DEFAULT_TIME_MS
    limit = Limit(time_ms=time_ms, depth=args.depth)
    if time_ms is not None and args.depth is not None:
        print(f"gridgames analyse: each position is searched to depth {args.depth} or for "
              f"{time_ms} ms, whichever comes first", file=sys.stderr)
    show_progress = not args.json and sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show_progress:
            print(f"\ranalysing position {done}/{total}", end="", file=sys.stderr, flush=True)

    review = review_game(board, limit, progress)
    if show_progress:
        print(file=sys.stderr)
    if args.json:
        data = review.to_dict()
        data["rule"] = board.rule.value
        print(json.dumps(data, indent=2))
    else:
        print_table(review)
    if plot is not None:
        try:
            write_plot(review, plot)
        except OSError as error:
            print(f"gridgames analyse: cannot write {plot}: {error.strerror or error}",
                  file=sys.stderr)
            return 2
        if not args.json:
            print(f"\nevaluation graph written to {plot}")
    return 0
