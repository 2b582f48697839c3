"""``gridgames play``: Gomoku, Renju and Caro in the terminal.

Interactive by default: a main menu, settings, then games against a friend or
the computer. With ``--print`` it replays ``--moves`` or ``--load`` instead,
prints the position and the result, and exits (for scripts).
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
import unicodedata
from enum import Enum

from gridgames.gomoku import MAX_SIZE, MIN_SIZE, Board, IllegalMoveError, Rule
from gridgames.gomoku.board import check_size
from gridgames.gomoku.clock import GameClock
from gridgames.gomoku.notation import format_renju, parse_position, read_count, read_number, shown
from gridgames.gomoku.opening_rules import OpeningError, OpeningRule
from gridgames.gomoku.records import GameRecord, ended_off_the_board, ending_text, load

from .gomoku_game import (
    PAUSE_SECONDS,
    SECONDS_PER_MOVE,
    Console,
    Game,
    GameEnd,
    Mode,
    Settings,
)
from .gomoku_opening import OpeningPhase
from .gomoku_view import RESERVED, Style, render_board
from .options import game_clock, opening_rule, seconds, whole_number

NAME = "play"
HELP = "Play Gomoku, Renju or Caro in the terminal"

INSTRUCTIONS = """\
Instructions:

Gomoku is a 2 player game in which players take turns placing pieces on a
board (19x19 as in the original game; option 5 of the main menu switches to
15x15 and back, and Settings offers any size).
The first player to have five of their pieces in a row, horizontally,
vertically, or diagonally, wins the game. Player 1 plays black and moves
first, player 2 plays white; by default player 1's pieces are "o"s and
player 2's are "x"s.

Columns are labelled with letters along the top and rows with numbers down
the side, row 1 at the top. When it is your turn, type the row number, a
space and the column letter (ex. "14 A"), or the column letter then the row
number ("A14"); small letters work too. What you see on the board is what
you type.

The last move is shown in brackets, like [o]. Under renju, when black is to
move, the points black may not play (double three, double four, overline)
are marked ! (black is player 1 unless an opening rule gives it to player 2).
When one of the players has five in a row, the game ends, the winning line
is marked with stars (*o*) and the winner is announced.

Rules (choose one in Settings):
{rules}

Opening rules (choose one in Settings): without one, black simply moves
first, which favours black. Under an opening rule, player 1 places the first
stones for both colours and the colours are chosen on the way, so the game
begins with the colours the opening gave: player 1 may end up with white.
{openings}

At the move prompt you can also type undo, hint, hint N (the N best moves),
resign, save FILE, load FILE, help or quit (back to the main menu). Once a
game is over, "Play again?" takes Y for another game, N to stop playing
(the program ends), menu for the main menu, or save FILE to keep the game.

Good luck!"""

MENU = """\
1. Instructions
2. Start game
3. Settings
4. Quit
5. {size_switch}"""

BANNER = """\
=============================
     Welcome to Gomoku!
============================="""

THANKS = "Thank you for playing!"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = (
        "On screen, and when typing moves during a game, rows are numbered from the top\n"
        "(as in the original design: '14 A' or 'A14'). --moves and the printed move list\n"
        "use renju notation instead, the standard for game records: a column letter and\n"
        "a row counted from the bottom, e.g. 'h8 i9 j10' or the position string 'h8i9j10'.\n\n"
        "examples:\n"
        "  gridgames play\n"
        "  gridgames play --mode human-computer --level 2 --size 19\n"
        "  gridgames play --mode human-computer --opening swap2 --size 15\n"
        "  gridgames play --rule renju --moves 'h8 i9 h9' --print\n"
        "  gridgames play --load game.psq --print"
    )
    parser.add_argument("--mode", choices=[m.value for m in Mode], default=None,
                        help="who plays: human-computer means you are player 1 (you move "
                        "first, or begin the opening under --opening)")
    parser.add_argument("--rule", default=None,
                        help="freestyle (default), standard, renju, caro or caro-exact")
    parser.add_argument("--opening", type=opening_rule, default=None,
                        metavar="{" + ",".join(rule.value for rule in OpeningRule) + "}",
                        help="opening rule: free (default: black moves first), swap, swap2, "
                        "soosorv, yamaguchi, taraguchi (these three meant for renju, allowed "
                        "under any rule), pro or longpro")
    parser.add_argument("--clock", type=game_clock, default=None, metavar="MIN+SEC",
                        help="a game clock: minutes a side and seconds added after each move, "
                        "e.g. 5+3; whoever runs out loses, and undo is off (default: none)")
    board_size = whole_number(MIN_SIZE, MAX_SIZE)
    parser.add_argument("--size", type=board_size, default=None,
                        help="square board size (default 19)")
    parser.add_argument("--width", type=board_size, default=None,
                        help="board width, columns (default: --size)")
    parser.add_argument("--height", type=board_size, default=None,
                        help="board height, rows (default: --size, or the width)")
    parser.add_argument("--level", default=None, help="computer level, 1 (weakest) to the maximum")
    parser.add_argument("--time", type=seconds(*SECONDS_PER_MOVE), default=None,
                        metavar="SECONDS", help="time per computer move in seconds, "
                        f"{SECONDS_PER_MOVE[0]:g} to {SECONDS_PER_MOVE[1]:g} (default 3)")
    parser.add_argument("--symbols", default=None, metavar="PQ",
                        help="the two one-character symbols of player 1 and 2 (default ox)")
    parser.add_argument("--pause", type=seconds(*PAUSE_SECONDS), default=None,
                        metavar="SECONDS", help="pause between moves in computer-vs-computer "
                        f"games, {PAUSE_SECONDS[0]:g} to {PAUSE_SECONDS[1]:g} seconds "
                        "(default 1, or $GRIDGAMES_PAUSE)")
    parser.add_argument("--no-color", action="store_true", help="never use colour")
    parser.add_argument("--moves", default=None,
                        help="moves to play first, in renju notation ('h8 i9' or 'h8i9')")
    parser.add_argument("--load", default=None, metavar="FILE",
                        help="start from a saved game (.psq or JSON record); a JSON record "
                        "keeps its rule and size, a .psq its size (its rule is --rule)")
    parser.add_argument("--print", action="store_true",
                        help="print the position and the result, then exit")


def run(args: argparse.Namespace) -> int:
    try:
        settings = settings_from_args(args)
        start = starting_record(args, settings)
    except ValueError as error:  # includes the board's move errors and RecordError
        print(f"gridgames play: {error}", file=sys.stderr)
        return 2
    console = Console(color=False if args.no_color else None)
    if args.print:
        record = start if start is not None else GameRecord.from_board(settings.new_board())
        try:
            print_position(record, Style(settings.symbols, console.color), console)
        except BrokenPipeError:
            # The reader (e.g. head) stopped early; silence the flush at exit.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    from gridgames.gomoku.ai import warm_up
    from gridgames.prepare import stderr_report

    warm_up(stderr_report())  # a first run compiles here, with progress, not mid-game
    try:
        main_menu(settings, console, start)
    except EOFError:
        console.say()
        console.say("Goodbye!")
    except KeyboardInterrupt:
        console.say()
        console.say("Goodbye!")
        return 130
    return 0


# -- command-line settings ------------------------------------------------------


def settings_from_args(args: argparse.Namespace) -> Settings:
    """Settings from the options; raises ValueError saying which option is wrong."""
    settings = Settings()
    if args.mode is not None:
        settings.mode = Mode(args.mode)
    if args.rule is not None:
        settings.rule = Rule.from_name(args.rule)
    if args.opening is not None:
        settings.opening = args.opening
    if args.size is not None:
        settings.width = settings.height = args.size
    if args.width is not None:
        settings.width = args.width
        if args.size is None:  # a width alone makes a square board, as in gridgames match
            settings.height = args.width
    if args.height is not None:
        settings.height = args.height
    check_size(settings.width, settings.height)
    if args.level is not None:
        from gridgames.gomoku.ai import get_level

        settings.level = get_level(args.level).number
    if args.time is not None:  # in range: its option type saw to it
        settings.seconds_per_move = args.time
    if args.symbols is not None:
        problem = symbols_problem(tuple(args.symbols))
        if problem:
            raise ValueError(f"--symbols {shown(args.symbols)!r}: {problem}")
        settings.symbols = (args.symbols[0], args.symbols[1])
    if args.pause is not None:
        settings.pause = args.pause
    settings.clock = args.clock
    return settings


def symbol_problem(symbol: str) -> str | None:
    """Why this one player symbol cannot be used, or ``None`` if it can."""
    # a wide character takes two columns, a combining one none: either shifts the board
    if (len(symbol) != 1 or not symbol.isprintable() or symbol.isspace()
            or unicodedata.east_asian_width(symbol) in ("W", "F")
            or unicodedata.category(symbol) in ("Mn", "Me")):
        return f"{shown(symbol)!r} is not a single visible character"
    if symbol in RESERVED:
        return f"{symbol!r} is used to draw the board; choose another character"
    return None


def symbols_problem(symbols: tuple[str, ...]) -> str | None:
    """Why these player symbols cannot be used, or ``None`` if they can."""
    if len(symbols) != 2:
        return "give exactly two characters, one per player"
    for symbol in symbols:
        problem = symbol_problem(symbol)
        if problem is not None:
            return problem
    if symbols[0] == symbols[1]:
        return "the two players need different symbols"
    return None


def starting_record(args: argparse.Namespace, settings: Settings) -> GameRecord | None:
    """The game given by --load and/or --moves (``None`` for an empty board); the settings
    take its rule and size. Raises ValueError saying what is wrong, and when an option
    given clashes with the loaded game."""
    if args.load is None and args.moves is None:
        return None
    if args.load is not None:
        # a .psq stores no rule: it is played under the settings' (--rule's)
        record = load(args.load, rule=settings.rule)
        check_options_fit(args, settings, record)
        settings.width, settings.height, settings.rule = record.width, record.height, record.rule
    else:
        record = GameRecord.from_board(settings.new_board())
    if args.moves is not None:
        board = record.to_board()
        loser, termination = ended_off_the_board(record)
        if termination and args.moves.strip():
            raise ValueError(f"--moves: the game in {args.load} is over "
                             f"({ending_text(loser, termination)}): no move can be added")
        opening = record.replay_opening()
        if opening is not None and not opening.done and args.moves.strip():
            raise ValueError(f"--moves: the game in {args.load} was saved during its "
                             f"{opening.rule.display_name} opening: no move can be added "
                             "before the opening is over; leave out --moves to finish it")
        start = len(board)
        for number, point in enumerate(
            parse_position(args.moves, board.width, board.height), start=start + 1
        ):
            reason = board.illegal_reason(point)
            if reason is not None:
                raise IllegalMoveError(f"move {number} ({format_renju(point, board.height)}) "
                                       f"is not legal: {reason}")
            board.push(point)
        record.moves = list(board.move_stack)
        record.times_ms = None
        outcome = board.outcome()
        if outcome is not None:
            record.result = outcome.result
    return record


def check_options_fit(args: argparse.Namespace, settings: Settings,
                      record: GameRecord) -> None:
    """Refuse a --rule or a board size that is not the loaded game's (ValueError);
    ``settings`` are those the options made (:func:`settings_from_args`)."""
    if args.rule is not None and settings.rule is not record.rule:
        raise ValueError(f"--rule {args.rule}: the game in {args.load} is {record.rule.value}; "
                         "leave out --rule to play it under its own rule")
    given = [f"--{name} {value}" for name, value in
             (("size", args.size), ("width", args.width), ("height", args.height))
             if value is not None]
    if given:
        # any of them sets the height; the width, --size or --width
        width_given = args.size is not None or args.width is not None
        if settings.height != record.height or (width_given and settings.width != record.width):
            raise ValueError(f"{' '.join(given)}: the game in {args.load} is played on a "
                             f"{record.width}x{record.height} board; leave out the size to "
                             "play it at its own")


def print_position(record: GameRecord, style: Style, console: Console) -> None:
    board = record.to_board()
    outcome = board.outcome()
    line = outcome.line if outcome is not None else ()
    console.say(render_board(board, style, winning_line=line, max_width=console.columns))
    console.say()
    console.say(f"Rule: {board.rule.value} ({board.rule.description}); "
                f"board {board.width}x{board.height}")
    moves = " ".join(format_renju(point, board.height) for point in board.move_stack)
    console.say(f"Moves ({len(board)}, renju notation, rows counted from the bottom): "
                f"{moves or '-'}")
    loser, termination = ended_off_the_board(record)
    if termination:
        winner = "" if loser is None else f"{loser.other.label} won: "
        console.say(f"Result: {record.result} ({winner}{ending_text(loser, termination)})")
    elif outcome is None:
        color = board.to_move
        console.say(f"Result: * (game in progress; {color.label} "
                    f"({style.symbol(color)}) to move)")
    elif outcome.winner is None:
        console.say(f"Result: {outcome.result} (draw: {outcome.draw_reason})")
    else:
        stones = " ".join(format_renju(point, board.height) for point in outcome.line)
        console.say(f"Result: {outcome.result} ({outcome}; winning line {stones})")
    if record.clock:
        console.say(f"Clock: {record.clock} (as recorded; the time left is not kept)")


# -- menus ------------------------------------------------------------------------


def main_menu(settings: Settings, console: Console, start: GameRecord | None = None) -> None:
    """The welcome screen and main menu, until the player quits (EOFError on end of input)."""
    console.say(BANNER)
    if start is not None and not play_games(settings, console, start):
        console.say(THANKS)
        return
    while True:
        console.say()
        console.say(MENU.format(size_switch=size_switch_label(settings)))
        console.say(f"(Current game: {settings.summary()})")
        choice = console.ask("Select an option (1-5): ").strip()
        if choice == "1":
            rules = "\n".join(
                textwrap.fill(f"{rule.value}: {rule.description}", width=76,
                              initial_indent="  ", subsequent_indent="      ")
                for rule in Rule
            )
            openings = "\n".join(
                textwrap.fill(f"{rule.value}: {rule.description}", width=76,
                              initial_indent="  ", subsequent_indent="      ")
                for rule in OpeningRule
            )
            console.say()
            console.say(INSTRUCTIONS.format(rules=rules, openings=openings))
            console.say()
            console.ask("Enter anything to go back to the main menu: ")
        elif choice == "2":
            if not play_games(settings, console):
                console.say(THANKS)
                return
        elif choice == "3":
            settings_menu(settings, console)
        elif choice == "4":
            console.say(THANKS)
            return
        elif choice == "5":
            switch_size(settings)
            console.say(f"Board size: {settings.width}x{settings.height}.")
        else:
            console.say(f"{shown(choice)!r} is not an option: enter 1, 2, 3, 4 or 5.")


def play_games(settings: Settings, console: Console, start: Board | GameRecord | None = None
               ) -> bool:
    """Games with these settings, the first from ``start`` when given, until one is quit
    or the player declines another. Returns False when the player answered N to "Play
    again?", which ends the program as in the original design, and True to go back to
    the main menu."""
    given = start
    while True:
        game = new_game(settings, console, given)
        if game is None:
            return True
        end = game.play()
        if end is GameEnd.OPENING:  # loaded at the prompt: its opening goes on
            given = game.opening_to_finish
            continue
        if end is GameEnd.QUIT:
            return True
        choice = play_again(console, game)
        if choice is not Next.AGAIN:
            return choice is Next.MENU
        given = None


class Next(Enum):
    """What follows a game that is over."""

    AGAIN = "again"
    STOP = "stop"  # the program ends
    MENU = "menu"


def play_again(console: Console, game: Game) -> Next:
    """Another game, the end of the program or the main menu; ``save FILE`` here keeps the
    one just over, which the move prompt, gone with the game's end, can no longer do."""
    console.say("Type save FILE to keep a record of this game, or menu for the main menu.")
    while True:
        answer = console.ask("Play again? (Y/N): ").strip()
        word, _, path = answer.partition(" ")
        if word.lower() == "save":
            game.save(path.strip())
            continue
        choice = {"y": Next.AGAIN, "yes": Next.AGAIN, "n": Next.STOP, "no": Next.STOP,
                  "m": Next.MENU, "menu": Next.MENU}.get(answer.lower())
        if choice is not None:
            return choice
        console.say("Please answer Y or N (or save FILE to keep this game, or menu for the "
                    "main menu).")


def new_game(settings: Settings, console: Console,
             start: Board | GameRecord | None) -> Game | None:
    """A game from ``start`` (a position, or a game given with --load or --moves), or after
    an opening under the settings' opening rule (``None`` when the opening is left with
    quit)."""
    unfinished = start.replay_opening() if isinstance(start, GameRecord) else None
    if unfinished is not None and not unfinished.done:  # saved during its opening
        return run_opening(OpeningPhase(settings, console, resumed=unfinished))
    if settings.opening is OpeningRule.FREE or start is not None:
        if start is not None and settings.opening is not OpeningRule.FREE:
            console.say(f"The game starts from the position given, so there is no "
                        f"{settings.opening.display_name} opening this time.")
        if isinstance(start, GameRecord):
            game = Game(settings, console)
            game.resume(start)
            return game
        return Game(settings, console, start)
    try:
        phase = OpeningPhase(settings, console)
    except OpeningError as error:  # a board too small for the rule
        console.say(f"{error}; choose another opening rule or a larger board in Settings.")
        return None
    return run_opening(phase)


def run_opening(phase: OpeningPhase) -> Game | None:
    """The game after the opening (``None`` when it is left with quit)."""
    return phase.game() if phase.run() else None


def ask_choice(console: Console, title: str, options: list[str], current: int) -> int:
    """A numbered list; returns the 0-based index chosen (Enter keeps ``current``)."""
    console.say()
    console.say(title)
    for number, option in enumerate(options, start=1):
        marker = "*" if number - 1 == current else " "
        console.say(f" {marker}{number}. {option}")
    while True:
        answer = console.ask(f"Choose 1-{len(options)} (Enter keeps {current + 1}): ").strip()
        if not answer:
            return current
        chosen = read_count(answer)
        if chosen is not None and 1 <= chosen <= len(options):
            return chosen - 1
        console.say(f"{shown(answer)!r} is not an option: enter a number from 1 to "
                    f"{len(options)}.")


def ask_number(console: Console, prompt: str, low: float, high: float, current: float,
               *, whole: bool) -> float:
    """A number in ``low..high`` (Enter keeps ``current``)."""
    while True:
        answer = console.ask(f"{prompt} ({low:g}-{high:g}, Enter keeps {current:g}): ").strip()
        if not answer:
            return current
        try:  # a whole number of thousands of digits is out of range, not unreadable
            value = read_number(answer) if whole else float(answer)
        except ValueError:
            console.say(f"{shown(answer)!r} is not a {'whole ' if whole else ''}number.")
            continue
        if low <= value <= high:
            return value
        console.say(f"{shown(answer)} is out of range: enter a number from {low:g} to "
                    f"{high:g}.")


def ask_clock(console: Console, current: str | None) -> str | None:
    """A game clock as ``minutes+seconds`` (Enter keeps ``current``, ``none`` removes it)."""
    while True:
        answer = console.ask(f"Clock: minutes a side + seconds a move, such as 5+3, or none "
                             f"(Enter keeps {current or 'none'}): ").strip()
        if not answer:
            return current
        if answer.lower() == "none":
            return None
        try:
            GameClock.parse(answer)
        except ValueError as error:
            console.say(f"{error}.")
            continue
        return answer


def settings_menu(settings: Settings, console: Console) -> None:
    from gridgames.gomoku.ai import LEVELS, MAX_LEVEL

    while True:
        level = LEVELS[settings.level - 1]
        entries = [
            f"Mode: {settings.mode.describe(settings.opening)}",
            f"Rule: {settings.rule.value}",
            f"Opening rule: {settings.opening.display_name}",
            f"Board size: {settings.width}x{settings.height}",
            f"Computer level: {level.number} ({level.name})",
            f"Time per computer move: {settings.seconds_per_move:g} s",
            f"Symbols: player 1 {settings.symbols[0]}, player 2 {settings.symbols[1]}",
            f"Pause between moves (computer vs computer): {settings.pause:g} s",
            f"Clock: {settings.clock or 'none'}",
            "Back to the main menu",
        ]
        console.say()
        console.say("Settings:")
        for number, entry in enumerate(entries, start=1):
            console.say(f"  {number}. {entry}")
        choice = console.ask(f"Select a setting to change (1-{len(entries)}): ").strip()
        if choice == "1":
            modes = list(Mode)
            index = ask_choice(console, "Mode:", [m.describe(settings.opening) for m in modes],
                               modes.index(settings.mode))
            settings.mode = modes[index]
        elif choice == "2":
            rules = list(Rule)
            index = ask_choice(console, "Rule:", [f"{r.value}: {r.description}" for r in rules],
                               rules.index(settings.rule))
            settings.rule = rules[index]
        elif choice == "3":
            openings = list(OpeningRule)
            index = ask_choice(console, "Opening rule:",
                               [f"{o.display_name}: {o.description}" for o in openings],
                               openings.index(settings.opening))
            settings.opening = openings[index]
        elif choice == "4":
            choose_size(settings, console)
        elif choice == "5":
            options = [f"{lv.name}: {lv.description}" for lv in LEVELS]
            settings.level = 1 + ask_choice(console, f"Computer level (1-{MAX_LEVEL}):",
                                            options, settings.level - 1)
        elif choice == "6":
            settings.seconds_per_move = ask_number(
                console, "Seconds per computer move", *SECONDS_PER_MOVE,
                settings.seconds_per_move, whole=False)
        elif choice == "7":
            choose_symbols(settings, console)
        elif choice == "8":
            settings.pause = ask_number(console, "Seconds between computer moves",
                                        *PAUSE_SECONDS, settings.pause, whole=False)
        elif choice == "9":
            settings.clock = ask_clock(console, settings.clock)
        elif choice == "10":
            return
        else:
            console.say(f"{shown(choice)!r} is not an option: enter a number from 1 to "
                        f"{len(entries)}.")


def size_switch_label(settings: Settings) -> str:
    if (settings.width, settings.height) == (15, 15):
        return "Switch to a 19x19 board (as in the original game)"
    return "Switch to a 15x15 board"


def switch_size(settings: Settings) -> None:
    """Main-menu option 5: 15x15 from any other size, 19x19 from 15x15."""
    size = 19 if (settings.width, settings.height) == (15, 15) else 15
    settings.width = settings.height = size


def choose_size(settings: Settings, console: Console) -> None:
    sizes = ["15x15 (standard)", "19x19 (as in the original game)", "another size"]
    current = {(15, 15): 0, (19, 19): 1}.get((settings.width, settings.height), 2)
    index = ask_choice(console, "Board size:", sizes, current)
    if index == 0:
        settings.width = settings.height = 15
    elif index == 1:
        settings.width = settings.height = 19
    else:
        settings.width = int(ask_number(console, "Board width", MIN_SIZE, MAX_SIZE,
                                        settings.width, whole=True))
        settings.height = int(ask_number(console, "Board height", MIN_SIZE, MAX_SIZE,
                                         settings.height, whole=True))


def ask_symbol(console: Console, player: int, current: str) -> str:
    """One player's symbol, asked again at once while it cannot be used."""
    while True:
        symbol = console.ask(f"Symbol for player {player} (Enter keeps {current}): ").strip()
        problem = symbol_problem(symbol or current)
        if problem is None:
            return symbol or current
        console.say(f"Cannot use that symbol: {problem}.")


def choose_symbols(settings: Settings, console: Console) -> None:
    while True:
        symbols = (ask_symbol(console, 1, settings.symbols[0]),
                   ask_symbol(console, 2, settings.symbols[1]))
        problem = symbols_problem(symbols)
        if problem is None:
            settings.symbols = symbols
            return
        console.say(f"Cannot use those symbols: {problem}.")

