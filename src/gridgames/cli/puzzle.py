"""``gridgames puzzle``: "find the win" puzzles in the terminal.

Each puzzle is a position where the side to move wins by continuous fours: every
move must make a four, the computer blocks, and the five must come within the
puzzle's number of moves. Any winning line is accepted, not only the stored one.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import platformdirs

from gridgames.gomoku import MAX_SIZE, IllegalMoveError, InvalidMoveError, Point
from gridgames.gomoku.notation import column_letters, parse_gomocup, read_count, shown
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
from .terminal import counted

COMMANDS = ("hint", "solution", "retry", "next", "goto", "list", "help", "quit", "exit")
# A word of more letters than the widest board's last column (bl) is no move's column.
LONGEST_COLUMN = len(column_letters(MAX_SIZE - 1))

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
  next        go on to the next puzzle you have not solved
  goto N      go to puzzle N
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
    parser.add_argument("--progress", type=Path, default=None, metavar="FILE",
                        help="where the solved puzzles are kept (default: "
                             "puzzles-solved.json in your user data folder)")
    parser.add_argument("--no-color", action="store_true", help="never use colour")


def run(args: argparse.Namespace) -> int:
    progress = Progress(args.progress or Progress.default_path())
    if progress.problem:
        print(f"gridgames puzzle: {progress.problem}", file=sys.stderr)
    try:
        puzzles = load_puzzles(args.rule)
        if args.list:
            print(list_text(puzzles, progress.solved))
            return 0
        if not puzzles:
            raise ValueError(f"there are no {args.rule} puzzles")
        first = get_puzzle(args.id) if args.id is not None else progress.first_unsolved(puzzles)
    except ValueError as error:
        print(f"gridgames puzzle: {error}", file=sys.stderr)
        return 2
    if first not in puzzles:
        print(f"gridgames puzzle: puzzle {first.id} is {first.rule.value}, not "
              f"{args.rule}", file=sys.stderr)
        return 2
    warm_up(stderr_report("the puzzle prover"))
    console = Console(color=False if args.no_color else None)
    trainer = Trainer(puzzles, puzzles.index(first), console, progress)
    try:
        trainer.loop()
    except EOFError:
        console.say()
    except KeyboardInterrupt:
        console.say()
        return 130
    return 0


def list_text(puzzles: list[Puzzle], solved: set[int]) -> str:
    lines = [f"{'id':>4}  {'rule':<9} {'size':<6} {'to move':<8} {'win in':<7} {'solved':<7} "
             "themes"]
    for p in puzzles:
        mark = "yes" if p.id in solved else ""
        lines.append(f"{p.id:>4}  {p.rule.value:<9} {p.width}x{p.height:<3} "
                     f"{p.to_move.label:<8} {p.length:<7} {mark:<7} "
                     f"{', '.join(p.themes)}".rstrip())
    return "\n".join(lines)


class Progress:
    """The ids of the puzzles solved, kept in a small JSON file between runs.

    A file that cannot be read is left as it is (nothing is saved over it); one
    that cannot be written costs the record, not the game.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.solved: set[int] = set()
        self.problem = ""
        self._writable = True
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or not isinstance(data.get("solved"), list) \
                    or not all(isinstance(i, int) for i in data["solved"]):
                raise ValueError('expected {"solved": [puzzle ids]}')
            self.solved = set(data["solved"])
        except (FileNotFoundError, NotADirectoryError):  # nothing solved yet
            pass
        except (OSError, ValueError) as error:
            self.problem = (f"cannot read the solved puzzles from {path} ({error}); "
                            "it is left as it is, and nothing solved now is recorded")
            self._writable = False

    @staticmethod
    def default_path() -> Path:
        return Path(platformdirs.user_data_dir("gridgames")) / "puzzles-solved.json"

    def first_unsolved(self, puzzles: list[Puzzle], after: int = -1) -> Puzzle:
        """The first unsolved puzzle after index ``after`` (wrapping), or the next one."""
        count = len(puzzles)
        for step in range(1, count + 1):
            puzzle = puzzles[(after + step) % count]
            if puzzle.id not in self.solved:
                return puzzle
        return puzzles[(after + 1) % count]

    def record(self, puzzle: Puzzle) -> str:
        """Count ``puzzle`` solved and save; a message when it could not be saved."""
        self.solved.add(puzzle.id)
        if not self._writable:
            return ""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(".tmp")
            temporary.write_text(json.dumps({"solved": sorted(self.solved)}), encoding="utf-8")
            temporary.replace(self.path)  # never a half-written file
        except OSError as error:
            self._writable = False
            return f"(Cannot save your progress to {self.path}: {error.strerror or error}.)"
        return ""


class Trainer:
    """The trainer at the prompt: the list of puzzles, the current one and the attempt."""

    def __init__(self, puzzles: list[Puzzle], index: int, console: Console,
                 progress: Progress) -> None:
        self.puzzles = puzzles
        self.index = index
        self.console = console
        self.progress = progress
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
            word, _, argument = command.partition(" ")
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
                self.console.say(list_text(self.puzzles, self.progress.solved))
            elif word == "goto":
                self.goto(argument.strip())
            elif word.isalpha() and len(word) > LONGEST_COLUMN:
                # no board has a column of that many letters: a command, not a move
                self.unknown_command(word)
            else:
                self.try_move(text)

    def goto(self, argument: str) -> None:
        """``goto N``: puzzle N, when it is among the puzzles listed here."""
        number = read_count(argument)
        if number is None:
            self.console.say("Usage: goto N, with N the number of a puzzle (type list to see "
                             "them).")
            return
        for index, puzzle in enumerate(self.puzzles):
            if puzzle.id == number:
                self.index = index
                self.start()
                return
        try:
            rule = get_puzzle(number).rule.value
        except ValueError:  # no such puzzle at all
            self.console.say(f"There is no puzzle {shown(argument)}: type list to see the "
                             "puzzles' numbers.")
            return
        self.console.say(f"Puzzle {number} is a {rule} puzzle, not one of those here; type "
                         "list to see them.")

    def unknown_command(self, word: str) -> None:
        if word in COMMANDS:
            self.console.say(f"{word} takes nothing after it: type just {word}.")
        else:
            self.console.say(f"Unknown command {shown(word)!r}: type a move like 8 H, or help "
                             "for the commands.")

    def start(self) -> None:
        self.played = []
        self.solved = False
        puzzle = self.puzzle
        symbol = self.style.symbol(puzzle.to_move)
        solved = sum(p.id in self.progress.solved for p in self.puzzles)
        self.console.say(f"\nPuzzle {puzzle.id} of {len(self.puzzles)}: {puzzle.rule.value}, "
                         f"{puzzle.width}x{puzzle.height}"
                         + (f" ({', '.join(puzzle.themes)})" if puzzle.themes else "")
                         + f"; {solved} solved"
                         + (" (this one too)" if puzzle.id in self.progress.solved else ""))
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
            warning = self.progress.record(self.puzzle)
            if warning:
                self.console.say(warning)
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
        self.console.say(f"{verdict.message}. {counted(left, 'more move')} "
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
        """The next puzzle not solved yet (in list order, wrapping), or simply the next."""
        puzzles = self.puzzles
        following = self.progress.first_unsolved(puzzles, self.index)
        index = puzzles.index(following)
        if all(p.id in self.progress.solved for p in puzzles):
            self.console.say(f"You have solved all {len(puzzles)} puzzles here.")
        elif index <= self.index:
            self.console.say("Back to the first puzzle you have not solved.")
        self.index = index
        self.start()
