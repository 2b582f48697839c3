"""``gridgames puzzle``: "find the win" puzzles in the terminal.

Each puzzle is a position where the side to move wins by continuous fours: every
move must make a four, the computer blocks, and the five must come within the
puzzle's number of moves. Any winning line is accepted, not only the stored one.
"""

from __future__ import annotations

import argparse
import sys

from gridgames.gomoku import IllegalMoveError, InvalidMoveError, Point
from gridgames.gomoku.notation import parse_gomocup
from gridgames.gomoku.puzzles import (
    Puzzle,
    SearchLimitError,
    get_puzzle,
    hint,
    judge,
    load_puzzles,
    warm_up,
)
from gridgames.prepare import stderr_report

from .gomoku_game import Console
from .gomoku_view import Style, format_move, parse_move, render_board, unplayable_reason
from .options import whole_number

NAME = "puzzle"
HELP = "Find the win: puzzles solved by continuous fours (freestyle, standard, renju, caro)"

COMMANDS_HELP = """\
Type a move as on the board: the row number then the column letter (8 H), the
column letter then the row number (H8), or x,y counted from 0 (7,7).
Every move must make a four (four in a line with the fifth point open); the
computer blocks, and you must make five within the moves the puzzle gives.
Commands:
  hint        a nudge toward a winning move
  solution    show one winning line
  retry       start this puzzle again
  next        go on to the next puzzle
  list        list the puzzles
  help        show this help
  quit        leave"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = (
        "examples:\n"
        "  gridgames puzzle                 # from the first, easiest puzzle\n"
        "  gridgames puzzle --rule renju    # renju puzzles only\n"
        "  gridgames puzzle --id 42\n"
        "  gridgames puzzle --list"
    )
    parser.add_argument("--rule", default=None,
                        help="only puzzles of this rule: freestyle, standard, renju or caro")
    parser.add_argument("--id", type=whole_number(1), default=None, metavar="N",
                        help="start with puzzle N (see --list)")
    parser.add_argument("--list", action="store_true", help="list the puzzles and exit")
    parser.add_argument("--no-color", action="store_true", help="never use colour")


def run(args: argparse.Namespace) -> int:
    try:
        puzzles = load_puzzles(args.rule)
        if args.list:
            print(list_text(puzzles))
            return 0
        if not puzzles:
            raise ValueError(f"there are no {args.rule} puzzles")
        first = get_puzzle(args.id) if args.id is not None else puzzles[0]
    except ValueError as error:
        print(f"gridgames puzzle: {error}", file=sys.stderr)
        return 2
    if first not in puzzles:
        print(f"gridgames puzzle: puzzle {first.id} is {first.rule.value}, not "
              f"{args.rule}", file=sys.stderr)
        return 2
    warm_up(stderr_report("the puzzle prover"))
    console = Console(color=False if args.no_color else None)
    trainer = Trainer(puzzles, puzzles.index(first), console)
    try:
        trainer.loop()
    except EOFError:
        console.say()
    except KeyboardInterrupt:
        console.say()
        return 130
    return 0


def list_text(puzzles: list[Puzzle]) -> str:
    lines = [f"{'id':>4}  {'rule':<9} {'size':<6} {'to move':<8} {'win in':<7} themes"]
    for p in puzzles:
        lines.append(f"{p.id:>4}  {p.rule.value:<9} {p.width}x{p.height:<3} "
                     f"{p.to_move.label:<8} {p.length:<7} {', '.join(p.themes)}".rstrip())
    return "\n".join(lines)


class Trainer:
    """The trainer at the prompt: the list of puzzles, the current one and the attempt."""

    def __init__(self, puzzles: list[Puzzle], index: int, console: Console) -> None:
        self.puzzles = puzzles
        self.index = index
        self.console = console
        self.style = Style(color=console.color)
        self.played: list[Point] = []
        self.solved = False

    @property
    def puzzle(self) -> Puzzle:
        return self.puzzles[self.index]

    def loop(self) -> None:
        self.start()
        while True:
            text = self.console.ask(f"puzzle {self.puzzle.id}> ").strip()
            if not text:
                continue
            command = text.lower()
            if command in ("quit", "exit", "q"):
                return
            if command == "help":
                self.console.say(COMMANDS_HELP)
            elif command == "hint":
                self.give_hint()
            elif command == "solution":
                self.show_solution()
            elif command == "retry":
                self.start()
            elif command == "next":
                self.next_puzzle()
            elif command == "list":
                self.console.say(list_text(self.puzzles))
            else:
                self.try_move(text)

    def start(self) -> None:
        self.played = []
        self.solved = False
        puzzle = self.puzzle
        symbol = self.style.symbol(puzzle.to_move)
        self.console.say(f"\nPuzzle {puzzle.id} of {len(self.puzzles)}: {puzzle.rule.value}, "
                         f"{puzzle.width}x{puzzle.height}"
                         + (f" ({', '.join(puzzle.themes)})" if puzzle.themes else ""))
        self.show_board()
        self.console.say(f"You play {puzzle.to_move.label} ({symbol}). Win in "
                         f"{puzzle.length} moves: every move a four. Type help for commands.")

    def show_board(self, five: tuple[Point, ...] = ()) -> None:
        board = self.puzzle.board()
        board.push_many(self.played)
        self.console.say(render_board(board, self.style, winning_line=five,
                                      max_width=self.console.columns))

    def parse(self, text: str) -> Point:
        board = self.puzzle
        if "," in text:
            return parse_gomocup(text, board.width, board.height)
        return parse_move(text, board.width, board.height)

    def try_move(self, text: str) -> None:
        if self.solved:
            self.console.say("Solved already: type next for the next puzzle, or retry.")
            return
        try:
            point = self.parse(text)
        except (InvalidMoveError, IllegalMoveError) as error:
            self.console.say(str(error))
            return
        board = self.puzzle.board()
        board.push_many(self.played)
        reason = unplayable_reason(board, point, self.style)
        if reason is not None:
            self.console.say(f"Refused: {reason}")
            return
        try:
            verdict = judge(self.puzzle, self.played, point, name=format_move)
        except SearchLimitError as error:
            self.console.say(f"Cannot judge that move here: {error}")
            return
        if verdict.kind == "illegal":
            self.console.say(f"Refused: {verdict.message}")
            return
        if verdict.kind == "win":
            self.played.append(point)
            self.show_board(verdict.five)
            self.solved = True
            self.console.say(f"{verdict.message} Type next for the next puzzle.")
            return
        if verdict.kind == "fail":
            self.console.say(f"Not this time: {verdict.message}.")
            self.console.say("Back to the start; type solution to see a winning line.")
            self.start()
            return
        assert verdict.reply is not None
        self.played += [point, verdict.reply]
        self.show_board()
        left = verdict.moves_left
        self.console.say(f"{verdict.message}. {left} more move{'s' if left != 1 else ''} "
                         "to the five.")

    def give_hint(self) -> None:
        if self.solved:
            self.console.say("Solved already: type next for the next puzzle.")
            return
        try:
            self.console.say("Hint: " + hint(self.puzzle, self.played, name=format_move) + ".")
        except SearchLimitError as error:
            self.console.say(f"No hint here: {error}")

    def show_solution(self) -> None:
        line = self.puzzle.solution
        pairs = []
        for number, index in enumerate(range(0, len(line), 2), 1):
            reply = f" {format_move(line[index + 1])}" if index + 1 < len(line) else ""
            pairs.append(f"{number}. {format_move(line[index])}{reply}")
        self.console.say("Solution (you, then the reply): " + "  ".join(pairs))

    def next_puzzle(self) -> None:
        if self.index + 1 >= len(self.puzzles):
            self.console.say("That was the last puzzle; starting again from the first.")
            self.index = 0
        else:
            self.index += 1
        self.start()
