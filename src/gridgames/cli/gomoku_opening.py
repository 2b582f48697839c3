"""The opening of a terminal game under an opening rule (Swap, Swap2, Soosõrv, Yamaguchi,
Taraguchi, Pro, Long Pro).

The rule's steps live in :mod:`gridgames.gomoku.opening_rules`. This module reads
what a human types into the opening's actions, asks the computer for its own,
and says what happened. Points are named as on the screen (``8 H``: row from the
top, then the column), as in the rest of the game; the opening's actions, which
are its record, use renju names.
"""

from __future__ import annotations

import random
import re
import time
from typing import TYPE_CHECKING

from gridgames.gomoku import Board, Color, IllegalMoveError, InvalidMoveError, Point
from gridgames.gomoku.notation import shown
from gridgames.gomoku.opening_rules import Opening, OpeningError, Player

if TYPE_CHECKING:
    from gridgames.gomoku.ai.opening_play import Decision

from .gomoku_game import Console, Game, Mode, Settings, busy
from .gomoku_view import Style, format_move, parse_move, render_board
from .terminal import counted

OPENING_HELP = """\
During the opening, type what the line above the prompt asks for:
  a point          place a stone, or pick an offer: 8 H or H8, as labelled on the board
  black or white   choose a colour (b or w for short)
  a number         declare how many 5th moves black must offer
  several points   offer 5th moves: 6 H, 7 J, 10 G (or H6 J7 G10)
The full forms work too: place 8 H, choose white, declare 3, offer 6 H 7 J, pick 7 J.
  hint             what the computer would do in your place
  help             show this help
  quit             leave this game and go back to the main menu
Undo, save and load work once the opening is over."""

ACTIONS = ("place", "choose", "declare", "offer", "pick")
COLOR_WORDS = {"black": "black", "b": "black", "white": "white", "w": "white"}
NOT_DURING_OPENING = ("undo", "save", "load")

_SCREEN_POINT = re.compile(r"\d+\s*[a-z]+|[a-z]+\s*\d+")


def parse_points(text: str, width: int, height: int) -> list[Point]:
    """Several typed points, each as a move is typed (``6 H, 7 J`` or ``H6 J7``).

    >>> parse_points("6 h, 7 J 10g", 15, 15)
    [(7, 5), (9, 6), (6, 9)]
    """
    cleaned = text.strip().lower()
    points: list[Point] = []
    end = 0
    for match in _SCREEN_POINT.finditer(cleaned):
        if cleaned[end:match.start()].strip(" ,;"):
            break
        points.append(parse_move(match[0], width, height))
        end = match.end()
    if not points or cleaned[end:].strip(" ,;"):
        raise InvalidMoveError(f"Cannot read {shown(text.strip())!r} as points: type them as "
                               "on the board, like 6 H, 7 J, 10 G or H6 J7 G10")
    return points


def input_forms(opening: Opening) -> str:
    """What the player to act may type now, in a few words."""
    count = opening.offer_count() if "offer" in opening.allowed else 0
    return {
        ("place",): "a point",
        ("choose", "place"): "black, white or a point",
        ("choose",): "black or white",
        ("declare",): "a number",
        ("offer",): counted(count, "point"),
        ("offer", "place"): f"a point, or {count} points to offer",
        ("pick",): "one of the offered points",
    }.get(opening.allowed, "an action")


def typed_action(opening: Opening, text: str, style: Style) -> str:
    """The opening's action for what a human typed: a short form (a point, a colour, a
    number, several points) or a full one (``place 8 H``); points as the screen names them.

    Raises OpeningError, InvalidMoveError or IllegalMoveError saying what is wrong.
    """
    text = text.strip()
    first, _, rest = text.partition(" ")
    kind = first.lower()
    if kind in ACTIONS:
        text = rest.strip()
    else:
        kind = _implied_action(opening, text, style)
    board = opening.board
    try:
        if kind in ("place", "pick"):
            if not text:
                raise OpeningError(f"{kind} where? Name a point, like 8 H")
            return f"{kind} {board.point_name(parse_move(text, board.width, board.height))}"
        if kind == "offer":
            points = parse_points(text, board.width, board.height)
            return "offer " + " ".join(board.point_name(point) for point in points)
    except InvalidMoveError:
        if first.lower() in ACTIONS:
            raise
        raise OpeningError(f"Cannot read {shown(text)!r}: type {input_forms(opening)} "
                           "(or help)") from None
    if kind == "choose":
        symbols = {style.symbol(Color.BLACK): "black", style.symbol(Color.WHITE): "white"}
        return f"choose {COLOR_WORDS.get(text.lower(), symbols.get(text, text))}"
    return f"declare {text}"


def _implied_action(opening: Opening, text: str, style: Style) -> str:
    """The kind of action a short form stands for, from what the opening allows now."""
    allowed = opening.allowed
    is_color = text.lower() in COLOR_WORDS or text in style.symbols
    if "choose" in allowed and (is_color or "place" not in allowed):
        return "choose"
    if "declare" in allowed:
        return "declare"
    if allowed == ("offer", "place"):  # Taraguchi's fifth: one point placed, several offered
        board = opening.board
        try:
            several = len(parse_points(text, board.width, board.height)) > 1
        except InvalidMoveError:
            several = False
        return "offer" if several else "place"
    return allowed[-1] if allowed else "place"  # place, offer or pick


class OpeningPhase:
    """The opening before a game: each step shown, the humans' actions read, the
    computer's decided, until the colours are settled."""

    def __init__(self, settings: Settings, console: Console, *,
                 rng: random.Random | None = None, resumed: Opening | None = None) -> None:
        """A new opening under the settings' rule, or the ``resumed`` one (a loaded game
        saved during its opening) from where it stopped."""
        self.settings = settings
        self.console = console
        self.rng = rng
        self.style = Style(settings.symbols, console.color)
        if resumed is None:
            self.opening = Opening(settings.opening, settings.new_board(), name=format_move)
        else:  # replayed to name its points as the screen does
            self.opening = Opening.replay(resumed.rule, empty_board(resumed), resumed.history,
                                          max_offers=resumed.max_offers, name=format_move)
        self.prepared_move: Point | None = None
        self.resumed = resumed is not None

    # -- names ---------------------------------------------------------------

    def is_computer(self, player: Player) -> bool:
        return self.settings.mode.is_computer_player(player)

    def label(self, player: Player) -> str:
        """``You``, ``Computer``, or ``Player 1`` / ``Computer 1`` when both are alike."""
        mode = self.settings.mode
        if mode is Mode.HUMAN_HUMAN:
            return f"Player {int(player)}"
        if mode is Mode.COMPUTER_COMPUTER:
            return f"Computer {int(player)}"
        return "Computer" if self.is_computer(player) else "You"

    def colored(self, color: Color) -> str:
        return f"{color.label} ({self.style.symbol(color)})"

    # -- the opening -----------------------------------------------------------

    def run(self) -> bool:
        """Play the opening through; False when a human quits or the computer fails."""
        self.introduce()
        while not self.opening.done:
            player = self.opening.to_act
            assert player is not None
            self.show_board()
            if self.is_computer(player):
                if not self.computer_step(player):
                    return False
                if self.settings.mode is Mode.COMPUTER_COMPUTER and not self.opening.done:
                    time.sleep(self.settings.pause)
            elif not self.human_step(player):
                return False
        self.announce_colors()
        return True

    def game(self) -> Game:
        """The game that follows the finished opening, from its stones and colours."""
        return Game(self.settings, self.console, self.opening.board.copy(), opening=self.opening,
                    prepared_move=self.prepared_move)

    def introduce(self) -> None:
        rule = self.opening.rule
        say = self.console.say
        say()
        say(f"{rule.display_name} opening: {rule.description}.")
        if self.resumed:
            steps = counted(len(self.opening.history), "step")
            say(f"The game was saved during the opening, after {steps}; it goes on from there.")
            if self.settings.mode is Mode.HUMAN_COMPUTER:
                say("You are player 1; the computer is player 2.")
            elif self.settings.mode is Mode.COMPUTER_HUMAN:
                say("The computer is player 1; you are player 2.")
        elif self.settings.mode is Mode.HUMAN_COMPUTER:
            say("You are player 1: you begin the opening; the computer is player 2.")
        elif self.settings.mode is Mode.COMPUTER_HUMAN:
            say("The computer is player 1 and begins the opening; you are player 2.")
        else:
            say(f"{self.label(Player.FIRST)} begins the opening.")
        say(f"Black stones are {self.style.symbol(Color.BLACK)}, "
            f"white stones are {self.style.symbol(Color.WHITE)}.")
        if not all(self.is_computer(player) for player in Player):
            say("Type help at the prompt for what you can type.")

    def show_board(self) -> None:
        self.console.say()
        self.console.say(render_board(self.opening.board, self.style,
                                      max_width=self.console.columns))
        self.console.say()

    def step_line(self, player: Player) -> str:
        """``You: place the 2nd stone (white) in the central 3×3, 9 G to 7 I``."""
        return f"{self.label(player)}: {self.opening.prompt()}"

    def human_step(self, player: Player) -> bool:
        """Read input until one action is applied; False when the player quits."""
        opening = self.opening
        label = self.label(player)
        self.console.say(self.step_line(player))
        while True:
            text = self.console.ask(f"{label}, type {input_forms(opening)}: ").strip()
            word = text.split(maxsplit=1)[0].lower() if text else ""
            if word == "quit":
                return False
            if word == "help":
                rule = opening.rule
                self.console.say(f"{rule.display_name}: {rule.description}.")
                self.console.say(OPENING_HELP)
                continue
            if word == "hint":
                self.give_hint()
            elif word in NOT_DURING_OPENING:
                self.console.say(f"{word.capitalize()} is not available during the opening.")
            elif not text:
                self.console.say(f"Please type {input_forms(opening)}, or help.")
            else:
                try:
                    opening.apply(typed_action(opening, text, self.style))
                    return True
                except (OpeningError, InvalidMoveError, IllegalMoveError) as error:
                    self.console.say(sentence(str(error)))
            self.console.say(self.step_line(player))

    def computer_step(self, player: Player) -> bool:
        """Decide and apply the computer's actions; False if the computer failed."""
        label = self.label(player)
        self.console.say(self.step_line(player))
        try:
            decision = self.decide(f"{label} is thinking...")
            done = self.apply_and_describe(decision.actions)
        except Exception as error:  # an engine fault ends this game, not the program
            self.console.say(f"The computer could not act: {error}")
            return False
        self.console.say(f"{label} {done}.")
        # Its move for the side to move next is kept only when the game starts right after.
        self.prepared_move = decision.move if self.opening.done else None
        return True

    def decide(self, activity: str) -> Decision:
        """The computer's actions for the player to act, at its level and time per move."""
        from gridgames.gomoku.ai import get_level
        from gridgames.gomoku.ai.opening_play import decide

        limit_for = get_level(self.settings.level).limit_for
        budget_ms = self.settings.move_time_ms  # the time of one move, as in the game
        return busy(self.console, activity,
                    lambda stop: decide(self.opening, budget_ms, limit_for, stop=stop,
                                        rng=self.rng))

    def give_hint(self) -> None:
        """What the computer would do in the place of the player to act, in words."""
        opening = self.opening
        try:
            decision = self.decide("Looking for a good step...")
        except Exception as error:  # an engine fault costs the hint, not the game
            self.console.say(f"No hint available: {error}")
            return
        trial = Opening.replay(opening.rule, empty_board(opening), opening.history,
                               max_offers=opening.max_offers, name=format_move)
        done = self.apply_and_describe(decision.actions, trial)
        self.console.say(f"Hint: in your place the computer {done}.")

    def apply_and_describe(self, actions: tuple[str, ...], opening: Opening | None = None) -> str:
        """Apply the computer's actions to ``opening`` (this game's by default); what it did,
        in words (``places 8 H and 9 I``)."""
        opening = opening or self.opening
        board = opening.board
        parts: list[str] = []
        placed: list[str] = []
        for action in actions:
            opening.apply(action)
            kind = action.split()[0]
            if kind == "place":
                placed.append(format_move(board.move_stack[-1]))
                continue
            if placed:
                parts.append("places " + listed(placed))
                placed = []
            if kind == "choose":
                color = Color.BLACK if action.endswith("black") else Color.WHITE
                parts.append(f"chooses {self.colored(color)}")
            elif kind == "declare":
                count = opening.declared
                parts.append(f"declares {counted(count, 'fifth move')}")
            elif kind == "offer":
                parts.append("offers " + ", ".join(format_move(p) for p in opening.offers))
            elif kind == "pick":
                parts.append(f"picks {format_move(board.move_stack[-1])}")
        if placed:
            parts.append("places " + listed(placed))
        return " and ".join(parts)

    def announce_colors(self) -> None:
        """Who plays which colour now that the opening is over."""
        opening = self.opening
        mode = self.settings.mode
        if mode in (Mode.HUMAN_COMPUTER, Mode.COMPUTER_HUMAN):
            human = Player.FIRST if mode is Mode.HUMAN_COMPUTER else Player.SECOND
            who = (f"you play {self.colored(opening.color(human))}; "
                   f"the computer plays {self.colored(opening.color(human.other))}")
        else:
            who = "; ".join(f"{self.label(player).lower()} plays "
                            f"{self.colored(opening.color(player))}" for player in Player)
        self.console.say()
        named = f" ({opening.renju_name})" if opening.renju_name else ""
        self.console.say(f"The opening is over{named}: {who}.")
        self.console.say(sentence(f"{self.colored(opening.board.to_move)} moves next"))


def empty_board(opening: Opening) -> Board:
    """An empty board like the opening's (a loaded game's may not be the settings')."""
    board = opening.board
    return Board(board.width, board.height, rule=board.rule)


def listed(names: list[str]) -> str:
    """``8 H``, ``8 H and 9 I``, ``8 H, 9 I and 11 E``."""
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter and a full stop."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
