"""Opening rules: how the first stones and the players' colours are settled.

Without one, black simply moves first, which on 15×15 favours black heavily.
Under an opening rule the two players are the *first* and the *second* player;
the first places stones for both colours, and colours are chosen (swapped) on
the way, so that whoever sets the opening has a reason to make it even.

- **Swap**: the first player places three stones (black, white, black); the
  second chooses a colour; white plays the fourth stone.
- **Swap2**: as Swap, but the second player may also place two more stones
  (white, black) and leave the choice of colour to the first player.
- **Soosõrv-N** (renju's world-championship rule, N = 8): the first player
  places one of the 26 canonical openings (the centre, then a point of the
  central 3×3, then one of the central 5×5); the second may swap; white places
  the fourth stone anywhere and declares how many fifth moves black must offer
  (1 to N); black may swap; black offers that many fifth moves, no two of them
  symmetric; white picks one and plays the sixth stone.
- **Yamaguchi** (renju): as Soosõrv, but the first player declares the number of
  fifth moves with the opening, before the only swap; white places the fourth
  stone anywhere, black offers the fifth moves and white picks one.
- **Taraguchi-N** (renju, N = 10): the player of the colour to move places each
  of the first four stones in the central 1×1, 3×3, 5×5 and 7×7, and after each
  the other player may swap; black then either places the fifth stone in the
  central 9×9 (and the other player may swap once more) or offers N fifth moves
  anywhere, no two of them symmetric, of which white picks one. White plays the
  sixth stone.
- **Pro** and **Long Pro** (gomoku, no swap): the first player is black; the
  first stone goes at the centre, the second anywhere, and black's second stone
  (the third) at least 3 (Long Pro: 4) intersections from the centre.

Every step is an action with a text form (``place h8``, ``choose white``,
``declare 3``, ``offer h6 j7 g10``, ``pick j7``), so an opening can be stored
and replayed.

>>> from gridgames.gomoku import Board, Color
>>> opening = Opening(OpeningRule.SWAP2, Board(15))
>>> for text in ["place h8", "place h9", "place j8"]:
...     opening.apply(text)
>>> opening.to_act, opening.allowed
(<Player.SECOND: 2>, ('choose', 'place'))
>>> opening.apply("choose black")
>>> opening.done, opening.player(Color.BLACK), opening.board.to_move
(True, <Player.SECOND: 2>, Color.WHITE)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import IntEnum, StrEnum
from typing import cast

from gridgames.gomoku.board import Board, Color, Point, as_point, as_whole, check_board
from gridgames.gomoku.notation import MAX_DIGITS, parse_point, shown, shown_value

SOOSORV_OFFERS = 8  # the largest number of fifth moves white may ask for
YAMAGUCHI_OFFERS = 10  # the largest number of fifth moves the first player may declare
TARAGUCHI_OFFERS = 10  # the fifth moves black offers when it does not place one
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th")
ANYWHERE = 64  # a ring beyond every point of the largest board: no bound

# The 26 canonical renju openings as the RIF numbers them: code, name, black's third stone.
# Black's first stone is h8 and white's second h9 (direct, "D") or i9 (indirect, "I").
RENJU_OPENINGS: tuple[tuple[str, str, str], ...] = (
    ("1D", "Kansei", "h10"), ("2D", "Keigetsu", "i10"), ("3D", "Sosei", "j10"),
    ("4D", "Kagetsu", "i9"), ("5D", "Zangetsu", "j9"), ("6D", "Ugetsu", "i8"),
    ("7D", "Kinsei", "j8"), ("8D", "Shogetsu", "h7"), ("9D", "Kyugetsu", "i7"),
    ("10D", "Shingetsu", "j7"), ("11D", "Zuisei", "h6"), ("12D", "Sangetsu", "i6"),
    ("13D", "Yusei", "j6"),
    ("1I", "Chosei", "j10"), ("2I", "Kyogetsu", "j9"), ("3I", "Kosei", "j8"),
    ("4I", "Suigetsu", "j7"), ("5I", "Ryusei", "j6"), ("6I", "Ungetsu", "i8"),
    ("7I", "Hogetsu", "i7"), ("8I", "Rangetsu", "i6"), ("9I", "Gingetsu", "h7"),
    ("10I", "Myojo", "h6"), ("11I", "Shagetsu", "g7"), ("12I", "Meigetsu", "g6"),
    ("13I", "Suisei", "f6"),
)


class OpeningRule(StrEnum):
    """How the first stones and the colours are settled."""

    FREE = "free"
    SWAP = "swap"
    SWAP2 = "swap2"
    SOOSORV = "soosorv"
    YAMAGUCHI = "yamaguchi"
    TARAGUCHI = "taraguchi"
    PRO = "pro"
    LONG_PRO = "longpro"

    @property
    def display_name(self) -> str:
        return {"free": "no opening rule", "swap": "Swap", "swap2": "Swap2",
                "soosorv": f"Soosõrv-{SOOSORV_OFFERS}", "yamaguchi": "Yamaguchi",
                "taraguchi": f"Taraguchi-{TARAGUCHI_OFFERS}", "pro": "Pro",
                "longpro": "Long Pro"}[self.value]

    @property
    def description(self) -> str:
        """The rule in a sentence, for people choosing one."""
        return {
            "free": "black simply moves first",
            "swap": "the first player places three stones (black, white, black); the second "
                    "chooses a colour; white plays the 4th stone",
            "swap2": "the first player places three stones (black, white, black); the second "
                     "chooses a colour, or places two more stones (white, black) and leaves "
                     "the choice to the first",
            "soosorv": "renju's championship rule: the first player places one of the 26 "
                       "canonical openings; the second may swap; white places the 4th stone "
                       "and declares how many 5th moves black must offer; black may swap, then "
                       "offers them; white picks one",
            "yamaguchi": "a renju rule: the first player places one of the 26 canonical "
                         "openings and declares how many 5th moves black will offer; the "
                         "second may swap; white places the 4th stone; black offers the 5th "
                         "moves and white picks one",
            "pro": "black (the first player) places the 1st stone at the centre and the 3rd "
                   "at least 3 intersections from it; no swap",
            "longpro": "black (the first player) places the 1st stone at the centre and the "
                       "3rd at least 4 intersections from it; no swap",
            "taraguchi": "a renju rule: the player of the colour to move places each of the "
                         "first five stones, each a ring further from the centre, and the other "
                         "player may swap after each; at the 5th, black may instead offer 10 "
                         "fifth moves, and white picks one",
        }[self.value]

    @property
    def default_offers(self) -> int:
        """Soosõrv's and Yamaguchi's largest declaration, or the fifth moves Taraguchi's
        black offers."""
        return {"taraguchi": TARAGUCHI_OFFERS,
                "yamaguchi": YAMAGUCHI_OFFERS}.get(self.value, SOOSORV_OFFERS)

    @classmethod
    def parse(cls, text: str) -> OpeningRule:
        """The rule named ``text`` (``swap2``, ``Soosõrv``...); a ValueError names the choices."""
        if not isinstance(text, str):
            raise ValueError(f"an opening rule's name must be a str such as 'swap2', "
                             f"got {shown_value(text)}")
        key = text.strip().lower().replace("õ", "o").removesuffix("-8").removesuffix("-10")
        key = key.replace(" ", "").replace("-", "").replace("_", "")
        for rule in cls:
            if rule.value == key:
                return rule
        raise ValueError(f"unknown opening rule {shown(text)!r}: choose one of "
                         + ", ".join(rule.value for rule in cls))


# Pro and Long Pro: how far from the centre (in rings) black's second stone must go.
PRO_DISTANCE = {OpeningRule.PRO: 3, OpeningRule.LONG_PRO: 4}


class Player(IntEnum):
    """The player who begins the opening, and the other one."""

    FIRST = 1
    SECOND = 2

    @property
    def other(self) -> Player:
        return Player.SECOND if self is Player.FIRST else Player.FIRST

    @property
    def label(self) -> str:
        return self.name.lower()


class OpeningError(ValueError):
    """An action the opening does not allow now, with what it allows instead."""


class Opening:
    """An opening under way: the stones placed so far and whose action comes next."""

    def __init__(self, rule: OpeningRule, board: Board, *, max_offers: int | None = None,
                 name: Callable[[Point], str] | None = None) -> None:
        """``max_offers``: Soosõrv's largest declaration, Taraguchi's number of offers
        (8 and 10 by default). ``name`` names points in prompts and errors (renju
        names, ``h8``, by default); :attr:`history` always holds renju names."""
        if not isinstance(rule, OpeningRule):
            name = rule if isinstance(rule, str) else "swap2"
            raise ValueError(f"rule must be an OpeningRule such as OpeningRule.SWAP2, got "
                             f"{shown_value(rule)}; for a rule by its name, use "
                             f"OpeningRule.parse({shown_value(name)})")
        if len(check_board(board)) != 0:
            raise OpeningError("an opening starts on an empty board")
        offers = rule.default_offers if max_offers is None else as_whole(max_offers)
        if offers is None or not 1 <= offers <= 64:
            raise OpeningError(f"max_offers must be a whole number from 1 to 64, "
                               f"got {shown_value(max_offers)}")
        max_offers = offers
        nearest = PRO_DISTANCE.get(rule)
        # The centre is (width // 2, height // 2), so a side of 2 * nearest reaches a point
        # that far from it (on the left or top edge); no shorter side does.
        if nearest is not None and max(board.width, board.height) < 2 * nearest:
            raise OpeningError(f"{rule.display_name} needs a board of {2 * nearest} "
                               "or more on a side: its 3rd stone goes at least "
                               f"{nearest} intersections from the centre")
        self.rule = rule
        self.board = board
        self.max_offers = max_offers
        self.black = Player.FIRST  # who holds black; tentative until the opening ends
        self.declared = 0  # Soosõrv: how many fifth moves black must offer
        self.offers: tuple[Point, ...] = ()
        self.history: list[str] = []
        self.name = name or board.point_name
        self._phase = {OpeningRule.FREE: "done", OpeningRule.TARAGUCHI: "taraguchi place",
                       OpeningRule.PRO: "pro place",
                       OpeningRule.LONG_PRO: "pro place"}.get(rule, "first three")

    @classmethod
    def replay(cls, rule: OpeningRule, board: Board, actions: Iterable[str], *,
               max_offers: int | None = None,
               name: Callable[[Point], str] | None = None) -> Opening:
        """The opening after ``actions`` (texts as :attr:`history` holds them)."""
        opening = cls(rule, board, max_offers=max_offers, name=name)
        for number, text in enumerate(actions, 1):
            try:
                opening.apply(text)
            except ValueError as error:
                raise OpeningError(f"action {number} ({text!r}): {error}") from None
        return opening

    # -- state -------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self._phase == "done"

    @property
    def to_act(self) -> Player | None:
        """Who acts next (``None`` once the opening is over)."""
        phase = self._phase
        if phase == "done":
            return None
        if phase == "first three":
            return Player.FIRST
        if phase in ("swap", "swap2", "fifth", "first swap"):
            return Player.SECOND
        if phase == "swap2 final":
            return Player.FIRST
        if phase.startswith(("taraguchi", "pro")):  # the colour to move's; after a stone,
            return self.player(self.board.to_move)  # Taraguchi's swap is the other's
        white = self.black.other
        return self.black if phase in ("second swap", "offer", "first declare") else white

    @property
    def allowed(self) -> tuple[str, ...]:
        """The kinds of action allowed now."""
        return {"done": (), "first three": ("place",), "fourth": ("place",),
                "fifth": ("place",), "swap2": ("choose", "place"), "declare": ("declare",),
                "first declare": ("declare",), "offer": ("offer",), "pick": ("pick",),
                "taraguchi place": ("place",), "taraguchi fifth": ("offer", "place"),
                "pro place": ("place",)}.get(self._phase, ("choose",))

    @property
    def renju_name(self) -> str | None:
        """Under Soosõrv, Yamaguchi and Taraguchi, the canonical renju opening of the first
        three stones (``4D Kagetsu``) once they are placed."""
        if self.rule not in (OpeningRule.SOOSORV, OpeningRule.YAMAGUCHI, OpeningRule.TARAGUCHI):
            return None
        code = renju_opening_code(self.board)
        return opening_name(code) if code else None

    def player(self, color: Color) -> Player:
        """Who plays ``color`` (tentatively, while the opening is under way)."""
        return self.black if color is Color.BLACK else self.black.other

    def color(self, player: Player) -> Color:
        return Color.BLACK if player is self.black else Color.WHITE

    def prompt(self) -> str:
        """What the player to act must do, in words."""
        board = self.board
        phase = self._phase
        if phase == "done":
            return f"the opening is over: {board.to_move.label} to move"
        if phase in ("first three", "fourth", "fifth", "taraguchi place", "taraguchi fifth",
                     "pro place"):
            stone = ORDINALS[len(board)]
            where = self._area_text(len(board))
            place = f"place the {stone} stone ({board.to_move.label}){where}"
            if phase == "taraguchi fifth":
                return (f"{place}, or offer {fifth_moves(self.max_offers)} anywhere, "
                        "no two of them symmetric")
            return place
        if phase == "swap2":
            return "choose black, choose white (and play the 4th stone), or place two more stones"
        if phase in ("declare", "first declare"):
            return f"declare how many 5th moves black must offer (1 to {self.most_offers()})"
        if phase == "offer":
            return (f"offer {fifth_moves(self.offer_count())} for black, "
                    "no two of them symmetric")
        if phase == "pick":
            names = ", ".join(self.name(p) for p in self.offers)
            return f"pick black's 5th move from the offers: {names}"
        facts = [f"the opening is {self.renju_name}"] if len(board) == 3 and self.renju_name else []
        if self.rule is OpeningRule.YAMAGUCHI and len(board) == 3:
            facts.append(f"black will offer {fifth_moves(self.declared)}")
        named = f" ({'; '.join(facts)})" if facts else ""
        return f"choose a colour: black or white{named}"

    # -- actions -----------------------------------------------------------

    def apply(self, text: str) -> None:
        """Apply one action given as text (``place h8``, ``choose white``, ``declare 3``,
        ``offer h6 j7``, ``pick j7``)."""
        if not isinstance(text, str):
            raise OpeningError(f"an action is a str such as 'place h8', got {shown_value(text)}")
        kind, _, rest = text.strip().partition(" ")
        kind = kind.lower()
        rest = rest.strip()
        if kind == "place":
            self.place(self._point(rest))
        elif kind == "choose":
            color = {"black": Color.BLACK, "white": Color.WHITE}.get(rest.lower())
            if color is None:
                raise OpeningError(f"choose black or white, not {shown(rest)!r}")
            self.choose(color)
        elif kind == "declare":
            # a number of many digits is refused here, as written: int() refuses thousands
            if not (rest.isascii() and rest.isdigit()) or len(rest.lstrip("0")) > MAX_DIGITS:
                raise OpeningError(f"declare a number of 5th moves, not {shown(rest)!r}")
            self.declare(int(rest.lstrip("0") or "0"))
        elif kind == "offer":
            self.offer([self._point(word) for word in rest.replace(",", " ").split()])
        elif kind == "pick":
            self.pick(self._point(rest))
        else:
            raise OpeningError(f"unknown action {shown(kind)!r}: the actions are place, "
                               "choose, declare, offer and pick")

    def place(self, point: Point) -> None:
        """Place the next stone (its colour is the board's side to move)."""
        self._expect("place")
        board = self.board
        self._check_legal(point)
        area = self._area_text(len(board))
        low, high = self.area(len(board))
        if not low <= steps_from_centre(board, point) <= high:
            raise OpeningError(f"{self.name(point)} is outside that area: "
                               f"the {ORDINALS[len(board)]} stone goes{area}")
        board.push(point)
        self._record(f"place {board.point_name(point)}")
        phase = self._phase
        if phase == "first three" and len(board) == 3:
            self._phase = {OpeningRule.SWAP: "swap", OpeningRule.SWAP2: "swap2",
                           OpeningRule.SOOSORV: "first swap",
                           OpeningRule.YAMAGUCHI: "first declare"}[self.rule]
        elif phase == "swap2":
            self._phase = "fifth"
        elif phase == "fifth":
            self._phase = "swap2 final"
        elif phase == "fourth":
            self._phase = "offer" if self.rule is OpeningRule.YAMAGUCHI else "declare"
        elif phase == "pro place":
            self._phase = "done" if len(board) == 3 else phase
        elif phase.startswith("taraguchi"):
            self._phase = "taraguchi swap"

    def choose(self, color: Color) -> None:
        """The player to act chooses the colour to play (or to keep)."""
        self._expect("choose")
        if not isinstance(color, Color):
            raise OpeningError(f"choose Color.BLACK or Color.WHITE, not {shown_value(color)}")
        player = self.to_act
        assert player is not None
        self._record(f"choose {color.label}")
        self.black = player if color is Color.BLACK else player.other
        if self._phase == "taraguchi swap" and len(self.board) < 5:
            self._phase = "taraguchi fifth" if len(self.board) == 4 else "taraguchi place"
            if len(self.board) == 4:
                self.declared = self.max_offers
            return
        self._phase = {"first swap": "fourth", "second swap": "offer"}.get(self._phase, "done")

    def declare(self, count: int) -> None:
        """How many fifth moves black must offer: white declares it under Soosõrv, the
        first player with the opening under Yamaguchi."""
        self._expect("declare")
        most = self.most_offers()
        number = as_whole(count)  # 2.5 would be recorded as "declare 2.5", which no replay reads
        if number is None or not 1 <= number <= most:
            raise OpeningError(f"declare 1 to {most} 5th moves, not {shown_value(count)}")
        count = number
        self.declared = count
        self._record(f"declare {count}")
        self._phase = "first swap" if self._phase == "first declare" else "second swap"

    def offer(self, points: Iterable[Point]) -> None:
        """Black offers the declared number of fifth moves (Taraguchi: ``max_offers``), no two
        symmetric."""
        self._expect("offer")
        points = tuple(points)
        board = self.board
        count = self.offer_count()
        if len(points) != count:
            raise OpeningError(f"offer exactly {fifth_moves(count)}, not {len(points)}")
        for point in points:
            self._check_legal(point)
        # plain ints, as the board keeps its moves (numpy's would reach the offers' readers)
        points = tuple(cast(Point, as_point(point)) for point in points)
        images = symmetries(board)
        for i, point in enumerate(points):
            for other in points[:i]:
                if any(image(other) == point for image in images):
                    same = "the same point" if other == point else "symmetric"
                    raise OpeningError(f"{self.name(other)} and "
                                       f"{self.name(point)} are {same}: "
                                       "offer points no two of which are symmetric")
        self.offers = points
        self._record("offer " + " ".join(board.point_name(p) for p in points))
        self._phase = "pick"

    def pick(self, point: Point) -> None:
        """White picks one of black's offers; it is played, and white plays next."""
        self._expect("pick")
        if point not in self.offers:
            names = ", ".join(self.name(p) for p in self.offers)
            raise OpeningError(f"pick one of the offers: {names}")
        self.board.push(point)
        self._record(f"pick {self.board.point_name(point)}")
        self._phase = "done"

    def fifth_move_classes(self) -> list[list[Point]]:
        """Black's legal fifth moves, grouped by symmetry of the four stones on the board."""
        board = self.board
        images = symmetries(board)
        seen: set[Point] = set()
        classes = []
        for point in board.legal_moves:
            if point in seen:
                continue
            group = sorted({image(point) for image in images})
            seen.update(group)
            classes.append(group)
        return classes

    # -- helpers -----------------------------------------------------------

    def _expect(self, kind: str) -> None:
        if kind in self.allowed:
            return
        if self.done:
            raise OpeningError("the opening is over")
        raise OpeningError(f"cannot {kind} now: {self.prompt()}")

    def _check_legal(self, point: Point) -> None:
        problem = self.board.illegal_reason(point)
        if problem is not None:  # the board's reason, with the point named our way
            on_board = self.board.contains(point)
            named = self.board.point_name(point) if on_board else ""
            if named and problem.startswith(named):
                problem = self.name(point) + problem[len(named):]
            raise OpeningError(problem)

    def _record(self, text: str) -> None:
        self.history.append(text)

    def _point(self, text: str) -> Point:
        if not text:
            raise OpeningError("name a point, such as h8")
        try:
            return self.board.parse(text)
        except ValueError as error:  # not a point, or off the board
            raise OpeningError(str(error)) from None

    def area(self, stones: int | None = None) -> tuple[int, int]:
        """The rings (0 the centre, 1 the rest of the central 3×3...) where the stone after
        ``stones`` (by default the next) may go, nearest and farthest."""
        stones = len(self.board) if stones is None else stones
        nearest = PRO_DISTANCE.get(self.rule)
        if nearest is not None:
            return {0: (0, 0), 2: (nearest, ANYWHERE)}.get(stones, (0, ANYWHERE))
        placed_in_areas = {OpeningRule.SOOSORV: 3, OpeningRule.YAMAGUCHI: 3,
                           OpeningRule.TARAGUCHI: 5}.get(self.rule, 0)
        return (0, stones) if stones < placed_in_areas else (0, ANYWHERE)

    def _area_text(self, stones: int) -> str:
        """Where the next stone must go, in words ('' when anywhere on the board)."""
        low, high = self.area(stones)
        cx, cy = self.board.width // 2, self.board.height // 2
        if high == 0:
            return f" at the centre, {self.name((cx, cy))}"
        if low > 0:
            return f" at least {low} intersections from the centre, {self.name((cx, cy))}"
        board = self.board
        # the area's corners, clipped to the board: on a small board the outer rings
        # (Taraguchi's 7×7 and 9×9) run past the edge, and then the area is what is left
        left, right = max(cx - high, 0), min(cx + high, board.width - 1)
        top, bottom = max(cy - high, 0), min(cy + high, board.height - 1)
        if (left, top, right, bottom) == (0, 0, board.width - 1, board.height - 1):
            return ""  # the whole board
        side = 2 * high + 1
        corner = self.name((left, bottom))
        far = self.name((right, top))
        clipped = (right - left, bottom - top) != (2 * high, 2 * high)
        return (f" in the central {side}×{side}{', clipped to the board' if clipped else ''}, "
                f"{corner} to {far}")

    def most_offers(self) -> int:
        """The largest number of fifth moves that may be declared now (fewer on a board
        with few distinct ones; under Yamaguchi, declared before the fourth stone, those
        after the best-spread fourth are not known, so the bound is ``max_offers``)."""
        if len(self.board) == 3:
            return self.max_offers
        return min(self.max_offers, len(self.fifth_move_classes()))

    def offer_count(self) -> int:
        """The fifth moves black offers: as declared, or as many as the board has."""
        return min(self.declared, len(self.fifth_move_classes()))


def fifth_moves(count: int) -> str:
    """``1 5th move``, ``3 5th moves``."""
    return f"{count} 5th move{'' if count == 1 else 's'}"


def game_opening(rule: OpeningRule, board: Board, actions: Iterable[str],
                 moves: Sequence[Point]) -> Opening | None:
    """The opening a game of ``moves`` began with: ``actions`` under ``rule`` replayed on
    the empty ``board`` (``None`` without an opening rule). An OpeningError says so when
    an action fails, or when its stones are not the game's first moves (all of them while
    the opening is under way)."""
    if rule is OpeningRule.FREE:
        return None
    try:
        opening = Opening.replay(rule, board, actions)
    except OpeningError as error:
        raise OpeningError(f"the {rule.display_name} opening: {error}") from None
    stones = opening.board.move_stack
    if list(moves[: len(stones)]) != stones or (not opening.done and list(moves) != stones):
        raise OpeningError(f"the {rule.display_name} opening's stones are not the game's "
                           "first moves")
    return opening


def canonical_opening(code: str) -> str:
    """The 15×15 position string of a canonical renju opening by its code.

    >>> canonical_opening("4D"), canonical_opening("13i")
    ('h8h9i9', 'h8i9f6')
    """
    for known, _name, third in RENJU_OPENINGS:
        if isinstance(code, str) and known.upper() == code.upper():
            second = "h9" if known.endswith("D") else "i9"
            return f"h8{second}{third}"
    allowed = ", ".join(known for known, _, _ in RENJU_OPENINGS)
    raise ValueError(f"unknown canonical opening {shown_value(code)}; allowed: {allowed}")


def opening_name(code: str) -> str:
    """``2I`` -> ``2I Kyogetsu``."""
    for known, name, _ in RENJU_OPENINGS:
        if known == code:
            return f"{known} {name}"
    raise ValueError(f"unknown canonical opening {shown_value(code)}; allowed: "
                     + ", ".join(known for known, _, _ in RENJU_OPENINGS))


def renju_opening_code(board: Board) -> str | None:
    """The code of the canonical renju opening that the board's first three stones make,
    turned or mirrored in any way about the centre (``None`` if they make none).

    >>> board = Board(15)
    >>> board.push_many([board.parse(p) for p in ("h8", "g8", "g9")])
    >>> opening_name(renju_opening_code(board))
    '4D Kagetsu'
    """
    if len(board) < 3:
        return None
    # the stones where they would stand on 15×15, about its centre h8
    dx, dy = 7 - board.width // 2, 7 - board.height // 2
    first, second, third = ((x + dx, y + dy) for x, y in board.move_stack[:3])
    if first != (7, 7):
        return None
    for code, _name, third_name in RENJU_OPENINGS:
        white = (7, 6) if code.endswith("D") else (8, 6)  # h9 or i9
        black = parse_point(third_name, 15, 15)
        for turn in board_symmetries(15, 15):
            if turn(second) == white and turn(third) == black:
                return code
    return None


def steps_from_centre(board: Board, point: Point) -> int:
    """0 for the centre, 1 for the rest of the central 3×3, 2 for the central 5×5..."""
    return max(abs(point[0] - board.width // 2), abs(point[1] - board.height // 2))


def board_symmetries(width: int, height: int) -> list[Callable[[Point], Point]]:
    """The reflections and rotations of a width×height board, as functions on points: the
    identity first, 8 on a square board and 4 on another.

    >>> [image((1, 0)) for image in board_symmetries(5, 5)]
    [(1, 0), (3, 0), (1, 4), (3, 4), (0, 1), (4, 1), (0, 3), (4, 3)]
    """
    w, h = width - 1, height - 1
    maps = [lambda p: p, lambda p: (w - p[0], p[1]), lambda p: (p[0], h - p[1]),
            lambda p: (w - p[0], h - p[1])]
    if w == h:
        maps += [lambda p: (p[1], p[0]), lambda p: (w - p[1], p[0]),
                 lambda p: (p[1], w - p[0]), lambda p: (w - p[1], w - p[0])]
    return maps


def symmetries(board: Board) -> list[Callable[[Point], Point]]:
    """The board's symmetries (as functions on points) that map its stones onto themselves.

    >>> board = Board(15)
    >>> board.push_many([(7, 7), (8, 7)])
    >>> len(symmetries(board))  # the identity and the flip top to bottom
    2
    """
    stones = {p: board[p] for p in board}
    return [image for image in board_symmetries(board.width, board.height)
            if all(stones.get(image(p)) == color for p, color in stones.items())]
