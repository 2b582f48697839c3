"""One game of terminal Gomoku: turns, the move prompt and its commands, the computer.

The rules live in :mod:`gridgames.gomoku`; this module only turns what is typed
into board calls and shows the board's state.
"""

from __future__ import annotations

import functools
import itertools
import os
import shutil
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import Enum
from threading import Event
from typing import TYPE_CHECKING, TypeVar

from gridgames.gomoku import Board, Color, IllegalMoveError, InvalidMoveError, Point, Rule
from gridgames.gomoku.clock import GameClock
from gridgames.gomoku.notation import read_count, shown
from gridgames.gomoku.opening_rules import Opening, OpeningRule, Player
from gridgames.gomoku.records import (
    RESIGNATION,
    TIME_FORFEIT,
    GameRecord,
    RecordError,
    ended_off_the_board,
    ending_text,
    load,
    save,
)

from .gomoku_view import (
    Style,
    clock_text,
    color_supported,
    format_move,
    parse_move,
    render_board,
    unplayable_reason,
)
from .terminal import ask, counted

if TYPE_CHECKING:
    from gridgames.gomoku.ai import Limit, SearchInfo, SearchMemory, SearchResult
    from gridgames.gomoku.ai.timing import TimeControl

T = TypeVar("T")

PAUSE_ENV = "GRIDGAMES_PAUSE"
MAX_HINTS = 5
DEFAULT_PAUSE = 1.0
# The settings' ranges, for the options and the settings menu alike (seconds).
SECONDS_PER_MOVE = (0.1, 3600.0)
PAUSE_SECONDS = (0.0, 60.0)

COMMANDS_HELP = """\
Type a move as the row number then the column letter (8 H), or the column
letter then the row number (H8), as labelled on the board; case does not matter.
Commands:
  undo        take back the last move (against the computer: back to your previous turn)
  hint        ask the computer for a suggestion
  hint N      show the computer's N best moves (1 to 5) with their scores
  resign      give up this game
  save FILE   save the game (FILE.psq in Piskvork format, any other name as JSON)
  load FILE   load a saved game (.psq or JSON)
  help        show this help
  quit        leave this game and go back to the main menu"""


class Mode(Enum):
    """Who plays player 1 and who plays player 2: a human or the computer.

    Without an opening rule player 1 plays black and moves first; under one,
    player 1 begins the opening and the opening settles the colours.
    """

    HUMAN_HUMAN = "human-human"
    HUMAN_COMPUTER = "human-computer"
    COMPUTER_HUMAN = "computer-human"
    COMPUTER_COMPUTER = "computer-computer"

    @property
    def description(self) -> str:
        return {
            Mode.HUMAN_HUMAN: "human vs human",
            Mode.HUMAN_COMPUTER: "human vs computer, you play player 1 (moves first)",
            Mode.COMPUTER_HUMAN: "human vs computer, you play player 2 (moves second)",
            Mode.COMPUTER_COMPUTER: "computer vs computer",
        }[self]

    def describe(self, opening: OpeningRule) -> str:
        """The mode in words under ``opening`` (player 1 is the one who begins it)."""
        if opening is OpeningRule.FREE:
            return self.description
        return {
            Mode.HUMAN_COMPUTER: "human vs computer, you play player 1 (you begin the opening)",
            Mode.COMPUTER_HUMAN: "human vs computer, you play player 2 "
                                 "(the computer begins the opening)",
        }.get(self, self.description)

    def is_computer_player(self, player: Player) -> bool:
        computers = {
            Mode.HUMAN_HUMAN: (),
            Mode.HUMAN_COMPUTER: (Player.SECOND,),
            Mode.COMPUTER_HUMAN: (Player.FIRST,),
            Mode.COMPUTER_COMPUTER: (Player.FIRST, Player.SECOND),
        }[self]
        return player in computers


def default_pause() -> float:
    """Seconds between moves of a computer-vs-computer game (``GRIDGAMES_PAUSE`` overrides:
    below 0 is 0; a value past :data:`PAUSE_SECONDS`, or not a number, is ignored)."""
    try:
        pause = float(os.environ.get(PAUSE_ENV, DEFAULT_PAUSE))
    except ValueError:
        return DEFAULT_PAUSE
    # not above the range: inf once ended the game in a traceback, a huge value waited forever
    return max(0.0, pause) if pause <= PAUSE_SECONDS[1] else DEFAULT_PAUSE


@dataclass
class Settings:
    mode: Mode = Mode.HUMAN_HUMAN
    rule: Rule = Rule.FREESTYLE
    opening: OpeningRule = OpeningRule.FREE
    width: int = 19
    height: int = 19
    level: int = 4
    seconds_per_move: float = 3.0
    symbols: tuple[str, str] = ("o", "x")
    pause: float = field(default_factory=default_pause)
    clock: str | None = None  # minutes a side + seconds a move (5+3), or no clock

    def new_board(self) -> Board:
        return Board(self.width, self.height, rule=self.rule)

    @property
    def move_time_ms(self) -> int:
        return max(1, round(self.seconds_per_move * 1000))

    def summary(self) -> str:
        text = f"{self.mode.describe(self.opening)}; {self.rule.value}"
        if self.opening is not OpeningRule.FREE:
            text += f"; {self.opening.display_name} opening"
        text += f"; {self.width}x{self.height} board"
        if self.mode is not Mode.HUMAN_HUMAN:
            text += f"; computer level {self.level}, {self.seconds_per_move:g} s per move"
        if self.clock is not None:
            text += f"; clock {self.clock}"
        return text


class Console:
    """Terminal input and output; tests substitute a scripted one."""

    def __init__(self, *, color: bool | None = None) -> None:
        self.is_tty = sys.stdout.isatty()
        self.color = color_supported(self.is_tty) if color is None else color
        # the status line is erased with an escape code, which a dumb terminal prints
        self.shows_status = self.is_tty and os.environ.get("TERM", "") != "dumb"

    def ask(self, prompt: str) -> str:
        """One line of input (EOFError at the end of input)."""
        return ask(prompt)

    def say(self, text: str = "") -> None:
        print(text, flush=True)

    @property
    def columns(self) -> int:
        return shutil.get_terminal_size().columns

    def status(self, text: str) -> None:
        """A transient line that the next status or clear_status overwrites (terminals only)."""
        if self.shows_status:
            sys.stdout.write("\r\x1b[K" + text[: self.columns - 1])
            sys.stdout.flush()

    def clear_status(self) -> None:
        if self.shows_status:
            sys.stdout.write("\r\x1b[K")
            sys.stdout.flush()


def search_details(result: SearchResult) -> str:
    """`` (score +35, depth 9)`` after a move the engine found, or nothing when it did not
    search (the greedy level): its score is then 0 whatever the move, a five included."""
    if not result.depth:
        return ""
    return f" (score {result.score_text}, depth {result.depth})"


@functools.cache
def search_memory() -> SearchMemory:
    """The engine's tables, kept from move to move for the whole program."""
    from gridgames.gomoku.ai import SearchMemory

    return SearchMemory()


def busy(console: Console, activity: str, work: Callable[[Event], T],
         progress: Callable[[], str] | None = None) -> T:
    """``work(stop)``; on a terminal it runs in a thread while ``activity``, a spinner and
    ``progress()`` are shown, and Ctrl+C sets ``stop`` so the work ends too."""
    stop = Event()
    if not console.is_tty:
        return work(stop)
    spinner = itertools.cycle("|/-\\")
    with ThreadPoolExecutor(max_workers=1) as pool:
        future = pool.submit(work, stop)
        try:
            while True:
                try:
                    return future.result(timeout=0.1)
                except TimeoutError:
                    shown = progress() if progress is not None else ""
                    console.status(f"{next(spinner)} {activity}{shown}")
        except KeyboardInterrupt:
            stop.set()
            raise
        finally:
            console.clear_status()


def think(console: Console, board: Board, limit: Limit, activity: str,
          clock: TimeControl | None = None) -> SearchResult:
    """Ask the engine for a move; on a terminal, show ``activity`` with a spinner and progress.
    ``clock`` spends a game clock (see :mod:`gridgames.gomoku.ai.timing`)."""
    from gridgames.gomoku import ai

    position = board.copy()  # the engine may play moves on its board while searching
    infos: list[SearchInfo] = []

    def progress() -> str:
        if not infos:
            return ""
        info = infos[-1]
        return f" depth {info.depth}, score {info.score_text}, {info.nodes:,} positions"

    return busy(console, activity,
                lambda stop: ai.think(position, limit, stop=stop, on_info=infos.append,
                                      memory=search_memory(), threads=ai.playing_threads(),
                                      clock=clock),
                progress)


class GameEnd(Enum):
    FINISHED = "finished"
    QUIT = "quit"
    OPENING = "opening"  # a game saved during its opening was loaded: the opening goes on


class Game:
    """A game from the first move (or a given position) to a result or ``quit``.

    After an ``opening``, ``board`` holds its stones (which undo keeps), the opening
    says which player has black, and ``prepared_move`` is the computer's move found
    while deciding its last opening action, if any.
    """

    def __init__(self, settings: Settings, console: Console, board: Board | None = None, *,
                 opening: Opening | None = None, prepared_move: Point | None = None) -> None:
        self.settings = settings
        self.console = console
        self.board = board if board is not None else settings.new_board()
        self.style = Style(settings.symbols, console.color)
        self.prepared_move = prepared_move
        # The clock starts with the first move played here (after an opening).
        self.clock = None if settings.clock is None else GameClock.parse(settings.clock)
        # how the game ended other than on the board (records.TERMINATIONS; empty while
        # it has not), and who lost it (None for a draw)
        self.loser: Color | None = None
        self.termination = ""
        # a game loaded with ``load`` that was saved during its opening, which goes on
        self.opening_to_finish: GameRecord | None = None
        self.begin_with(opening)

    def begin_with(self, opening: Opening | None) -> None:
        """The finished opening the game on the board began with (``None``: none)."""
        self.opening = opening
        self.black = Player.FIRST if opening is None else opening.player(Color.BLACK)
        self.opening_moves = 0 if opening is None else len(opening.board)

    # -- names ---------------------------------------------------------------

    def player(self, color: Color) -> Player:
        return self.black if color is Color.BLACK else self.black.other

    def is_computer(self, color: Color) -> bool:
        return self.settings.mode.is_computer_player(self.player(color))

    def player_name(self, color: Color) -> str:
        """``Player 1 (o)``, ``Computer (x)`` or, when both are computers, ``Computer 1 (o)``."""
        number = int(self.player(color))
        symbol = self.style.symbol(color)
        if not self.is_computer(color):
            return f"Player {number} ({symbol})"
        if self.settings.mode is Mode.COMPUTER_COMPUTER:
            return f"Computer {number} ({symbol})"
        return f"Computer ({symbol})"

    def record_name(self, color: Color) -> str:
        if self.is_computer(color):
            return f"gridgames level {self.settings.level}"
        return ""

    # -- the game loop -------------------------------------------------------

    def play(self) -> GameEnd:
        self.show_board()
        over = self.board.is_game_over() or bool(self.termination)
        if self.settings.mode is not Mode.COMPUTER_COMPUTER and not over:
            self.console.say("Type help at the move prompt for the commands.")
        while True:
            if self.board.outcome() is not None or self.termination:
                self.announce_result()
                return GameEnd.FINISHED
            color = self.board.to_move
            self.show_clock(color)
            if self.is_computer(color):
                if not self.computer_turn(color):
                    return GameEnd.QUIT
                if self.settings.mode is Mode.COMPUTER_COMPUTER and not self.board.is_game_over():
                    time.sleep(self.settings.pause)
                    if self.clock is not None:  # the pause is for watching: not on the clock
                        self.clock.since = time.time()
            elif not self.human_turn(color):
                return GameEnd.QUIT
            if self.opening_to_finish is not None:
                return GameEnd.OPENING

    # -- the clock -----------------------------------------------------------

    def show_clock(self, color: Color) -> None:
        """Start the clock at the first move, and say each side's time before a move."""
        clock = self.clock
        if clock is None:
            return
        now = time.time()
        if clock.running is None:
            clock.start(color, now)
        times = ", ".join(f"{self.player_name(c)} {clock_text(clock.left_ms(c, now))}"
                          for c in (Color.BLACK, Color.WHITE))
        self.console.say(f"Clock: {times}.")

    def moved_in_time(self, color: Color) -> bool:
        """After ``color``'s move: False (the game lost on time) if its clock ran out
        first, else its time is taken off and the other side's starts."""
        clock = self.clock
        if clock is None:
            return True
        now = time.time()
        if clock.flagged(now) is not None:
            clock.stop(now)
            self.loser, self.termination = color, TIME_FORFEIT
            return False
        clock.press(now)
        return True

    def show_board(self) -> None:
        outcome = self.board.outcome()
        line = outcome.line if outcome is not None else ()
        self.console.say()
        self.console.say(render_board(self.board, self.style, winning_line=line,
                                      max_width=self.console.columns))
        self.console.say()

    def announce_result(self) -> None:
        loser = self.loser
        if self.termination and loser is None:
            self.console.say("The game is a draw, in a way not recorded.")
            return
        if loser is not None:
            winner = self.player_name(loser.other)
            if self.termination == RESIGNATION:
                self.console.say(f"{self.player_name(loser)} resigns: {winner} wins.")
            elif self.termination == TIME_FORFEIT:
                self.console.say(f"{self.player_name(loser)}'s time ran out: {winner} wins "
                                 "on time.")
            else:
                self.console.say(f"{self.player_name(loser)} lost in a way not recorded: "
                                 f"{winner} wins.")
            return
        outcome = self.board.outcome()
        assert outcome is not None
        if outcome.winner is None:
            reason = outcome.draw_reason
            self.console.say(f"{reason[0].upper()}{reason[1:]}: the game is a draw.")
            return
        stones = ", ".join(format_move(point) for point in outcome.line)
        self.console.say(f"{self.player_name(outcome.winner)} wins! "
                         f"The winning line (marked *) is {stones}.")

    def limit(self) -> Limit:
        from gridgames.gomoku.ai import get_level

        return get_level(self.settings.level).limit_for(self.settings.move_time_ms)

    def computer_turn(self, color: Color) -> bool:
        """Let the computer move; False if the engine failed (the game is abandoned)."""
        name = self.player_name(color)
        prepared, self.prepared_move = self.prepared_move, None
        fresh = len(self.board) == self.opening_moves  # found for this very position
        if prepared is not None and fresh and self.board.illegal_reason(prepared) is None:
            if not self.moved_in_time(color):
                return True
            self.board.push(prepared)
            self.console.say(f"{name} plays {format_move(prepared)} "
                             "(found while deciding the opening)")
            self.show_board()
            return True
        try:
            result = think(self.console, self.board, self.limit(), f"{name} is thinking...",
                           self.computer_clock())
        except Exception as error:  # an engine fault ends this game, not the program
            self.console.say(f"The computer could not move: {error}")
            return False
        if not self.moved_in_time(color):
            return True
        self.board.push(result.move)
        self.console.say(f"{name} plays {format_move(result.move)}{search_details(result)}")
        self.show_board()
        return True

    def computer_clock(self) -> TimeControl | None:
        """The computer's budget from its clock (the time per move caps it)."""
        from gridgames.gomoku.ai.timing import TimeControl

        clock = self.clock
        if clock is None or clock.running is None:
            return None
        return TimeControl.for_clock(
            turn_ms=self.settings.move_time_ms,
            time_left_ms=clock.left_ms(clock.running, time.time()),
            moves_played=len(self.board), increment_ms=clock.increment_ms)

    def resume(self, record: GameRecord, loaded_from: str | None = None) -> None:
        """Go on from the game of ``record`` (read from the file ``loaded_from``, if said):
        its moves, its opening's colours, and its end when it ended other than on the
        board (resigned, out of time, or in a way not recorded), which leaves nothing to
        play. Raises RecordError as loading does, before anything changes."""
        board = record.to_board()
        opening = record.replay_opening()
        if loaded_from is not None:
            self.console.say(f"Loaded {loaded_from}: {board.rule.value}, "
                             f"{board.width}x{board.height}, {counted(len(board), 'move')}.")
        self.board = board
        self.prepared_move = None
        self.begin_with(opening)  # its opening's stones stay, and who had black
        self.loser, self.termination = ended_off_the_board(record)
        say = self.console.say
        if self.termination:
            say(f"This game is over: {ending_text(self.loser, self.termination)} "
                f"({record.result}).")
        elif record.clock and self.clock is None and not board.is_game_over():
            say(f"This game was played on a {record.clock} clock; it goes on without one "
                "(the record keeps no time left).")

    def human_turn(self, color: Color) -> bool:
        """Read input until a move is played; False when the player quits."""
        name = self.player_name(color)
        number = int(self.player(color))
        self.console.say(f"It is now player {number}'s ({self.style.symbol(color)}) turn to move")
        while True:
            text = self.console.ask(f"{name} make a move: ").strip()
            command, _, argument = text.partition(" ")
            command = command.lower()
            argument = argument.strip()
            if command == "quit":
                return False
            if command == "resign":
                self.loser, self.termination = color, RESIGNATION
                return True
            if command == "help":
                self.console.say(COMMANDS_HELP)
            elif command == "undo":
                if self.undo():
                    return True
            elif command == "hint" and argument:
                self.hint_candidates(argument)
            elif command == "hint":
                self.hint(name)
            elif command == "save":
                self.save(argument)
            elif command == "load":
                if self.load(argument):
                    return True
            elif self.try_move(text):
                if not self.moved_in_time(color):
                    self.board.pop()  # made after the flag fell: it does not count
                    return True
                self.show_board()
                return True

    def try_move(self, text: str) -> bool:
        if not text:
            self.console.say("Please type a move, like 8 H, or help.")
            return False
        try:
            point = parse_move(text, self.board.width, self.board.height)
        except (InvalidMoveError, IllegalMoveError) as error:
            self.console.say(f"{error}.")
            return False
        reason = unplayable_reason(self.board, point, self.style)
        if reason is not None:
            self.console.say(f"{reason}.")
            return False
        self.board.push(point)
        return True

    # -- commands ------------------------------------------------------------

    def undo(self) -> bool:
        """Take back one move, or two against the computer so it is the human's turn again."""
        if self.clock is not None:
            self.console.say("Moves cannot be taken back in a game with a clock.")
            return False
        plies = 1 if self.settings.mode is Mode.HUMAN_HUMAN else 2
        if len(self.board) < plies:
            self.console.say("Nothing to undo.")
            return False
        if len(self.board) - plies < self.opening_moves:
            self.console.say("Nothing to undo: the opening's stones cannot be taken back.")
            return False
        taken = [self.board.pop() for _ in range(plies)]
        names = " and ".join(format_move(point) for point in reversed(taken))
        self.console.say(f"Took back {names}.")
        self.show_board()
        return True

    def hint(self, name: str) -> None:
        try:
            result = think(self.console, self.board, self.limit(), "Looking for a good move...")
        except Exception as error:  # an engine fault costs the hint, not the game
            self.console.say(f"No hint available: {error}")
            return
        self.console.say(f"Hint for {name}: {format_move(result.move)}{search_details(result)}")

    def hint_candidates(self, argument: str) -> None:
        """``hint N``: the engine's N best moves, each with its score for the side to move."""
        count = read_count(argument)
        if count is None or not 1 <= count <= MAX_HINTS:
            self.console.say(f"Usage: hint N, with N from 1 to {MAX_HINTS} "
                             f"(got {shown(argument)!r}).")
            return
        from gridgames.gomoku.ai.limits import score_text
        from gridgames.gomoku.analysis import candidates

        if self.board.is_game_over():
            self.console.say("No hint: the game is over.")
            return
        try:
            found = candidates(self.board, self.limit(), count)
        except Exception as error:  # an engine fault costs the hint, not the game
            self.console.say(f"No hint available: {error}")
            return
        sign = 1 if self.board.to_move is Color.BLACK else -1
        self.console.say(f"Best moves for {self.board.to_move.label}:")
        for rank, candidate in enumerate(found, start=1):
            mate = None if candidate.mate is None else sign * candidate.mate
            self.console.say(f"  {rank}. {format_move(candidate.move)} "
                             f"(score {score_text(sign * candidate.score, mate)}, "
                             f"depth {candidate.depth})")

    def save(self, path: str) -> None:
        if not path:
            self.console.say("Usage: save FILE (FILE.psq for Piskvork format, else JSON).")
            return
        record = GameRecord.from_board(self.board, black=self.record_name(Color.BLACK),
                                       white=self.record_name(Color.WHITE), opening=self.opening,
                                       clock=self.settings.clock or "", loser=self.loser,
                                       termination=self.termination)
        try:
            save(record, os.path.expanduser(path))  # ~ as a shell would read it
        except OSError as error:
            self.console.say(f"Could not save to {shown(path)}: {error.strerror or error}.")
            return
        self.console.say(f"Saved {counted(len(self.board), 'move')} to {path}.")

    def load(self, path: str) -> bool:
        if self.clock is not None:
            self.console.say("A saved game cannot be loaded into a game with a clock: "
                             "play it without one.")
            return False
        if not path:
            self.console.say("Usage: load FILE (a .psq or JSON game record).")
            return False
        try:
            record = load(os.path.expanduser(path), rule=self.board.rule)
            opening = record.replay_opening()
            if opening is not None and not opening.done:
                self.console.say(f"Loaded {path}: a {record.width}x{record.height} game saved "
                                 f"during its {opening.rule.display_name} opening, which goes on.")
                self.opening_to_finish = record
                return True
            self.resume(record, loaded_from=path)
        except RecordError as error:
            self.console.say(f"Load failed: {error}")
            return False
        self.show_board()
        return True
