"""A game clock: each side's time, spent while it is to move, with an increment added
after each of its moves (a Fischer clock, written ``5+3``: 5 minutes, 3 seconds a move).

The clock reads no time itself: every call takes ``now`` in seconds (wall-clock
time, as the caller keeps it), so a saved clock goes on after a restart and its
rules are tested without waiting.

>>> clock = GameClock.parse("1+2")
>>> clock.start(Color.BLACK, now=100.0)
>>> clock.left_ms(Color.BLACK, now=110.5)
49500
>>> clock.press(now=110.5)  # black moves after 10.5 s: 2 s added, white's turn
10500
>>> clock.left_ms(Color.BLACK, now=200.0), clock.running
(51500, Color.WHITE)
>>> clock.flagged(now=171.0)  # white's minute ran out at 170.5
Color.WHITE
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from gridgames.gomoku.board import Color, check_color
from gridgames.gomoku.notation import read_number, shown, shown_value
from gridgames.numbers import is_number

MAX_MINUTES = 600  # ten hours: longer games are not timed games
MAX_INCREMENT_S = 600
_FORM = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(?:\+\s*(\d+))?\s*")


class ClockError(ValueError):
    """A clock that cannot be set up as asked, with what is allowed."""


def _number(value: object, name: str, *, finite: bool = True) -> float:
    """``value`` if it is a (``finite``) number, an int or a float; a ClockError naming it
    ``name`` otherwise: NaN and the infinities would make every time left unreadable."""
    if not is_number(value, finite=finite):
        kind = "a finite number" if finite else "a number"
        raise ClockError(f"{name} must be {kind}, got {shown_value(value)}")
    return value  # type: ignore[return-value]


def _color(color: object) -> Color:
    return check_color(color, ClockError, "a clock's side")


def _in_units(ms: float, unit_ms: int) -> str:
    """``ms`` in minutes or seconds (``unit_ms`` each), as an error names it."""
    try:
        return f"{ms / unit_ms:.10g}"
    except OverflowError:  # a whole number past every float
        return shown_value(ms // unit_ms)


def _check_times(initial_ms: float, increment_ms: float, minutes: str = "",
                 seconds: str = "") -> None:
    """Refuse a time a side or an increment out of range (ClockError), naming it as
    ``minutes`` and ``seconds`` when the clock was read from text."""
    # NaN and the infinities are out of range, and named so below
    _number(initial_ms, "initial_ms", finite=False)
    _number(increment_ms, "increment_ms", finite=False)
    if not 1000 <= initial_ms <= MAX_MINUTES * 60_000:
        raise ClockError(f"a clock needs 1 second to {MAX_MINUTES} minutes a side, "
                         f"not {shown(minutes) or _in_units(initial_ms, 60_000)} minutes")
    if not 0 <= increment_ms <= MAX_INCREMENT_S * 1000:
        raise ClockError(f"the increment must be 0 to {MAX_INCREMENT_S} seconds a move, "
                         f"not {shown(seconds) or _in_units(increment_ms, 1000)} seconds")


@dataclass
class GameClock:
    """Each side's time left (ms), and whose is running since when."""

    initial_ms: int
    increment_ms: int = 0
    left: dict[Color, int] = field(default_factory=dict)
    running: Color | None = None
    since: float = 0.0  # when the running side's turn began, in the caller's seconds

    def __post_init__(self) -> None:
        _check_times(self.initial_ms, self.increment_ms)
        if not self.left:
            self.left = {Color.BLACK: self.initial_ms, Color.WHITE: self.initial_ms}

    @classmethod
    def parse(cls, text: str) -> GameClock:
        """A clock from ``minutes+seconds`` (``5+3``, ``0.5+1``, ``10``); a ClockError
        says what is allowed."""
        if not isinstance(text, str):
            raise ClockError(f"the clock must be a str such as '5+3', got {text!r}")
        form = _FORM.fullmatch(text)
        if form is None:
            raise ClockError(f"cannot read the clock {shown(text)!r}: write minutes a side "
                             "and seconds added a move, such as 5+3 (or 10 for no increment)")
        minutes, seconds = form[1], form[2] or "0"
        # hundreds of digits read as inf (float) or beyond every clock (read_number)
        initial_ms, increment_ms = float(minutes) * 60_000, read_number(seconds) * 1000
        # checked before rounding, and an error names the numbers as written
        _check_times(initial_ms, increment_ms, minutes, seconds)
        return cls(initial_ms=round(initial_ms), increment_ms=increment_ms)

    def __str__(self) -> str:
        return f"{self.initial_ms / 60_000:g}+{self.increment_ms // 1000}"

    def start(self, color: Color, now: float) -> None:
        """``color``'s time starts running (the game, or the moves after an opening, begin)."""
        self.running = _color(color)
        self.since = _number(now, "now")

    def left_ms(self, color: Color, now: float) -> int:
        """``color``'s time left at ``now`` (below 0 once its flag has fallen)."""
        left = self.left[_color(color)]
        now = _number(now, "now")
        if color is self.running:
            left -= round((now - self.since) * 1000)
        return left

    def flagged(self, now: float) -> Color | None:
        """The side whose time has run out at ``now``, if any."""
        _number(now, "now")
        running = self.running
        if running is not None and self.left_ms(running, now) <= 0:
            return running
        return None

    def press(self, now: float) -> int:
        """The running side has moved: its time spent (ms) is taken off, its increment
        added, and the other side's time starts. Returns the time the move took."""
        mover = self.running
        if mover is None:
            raise ClockError("the clock is not running")
        spent = max(0, round((_number(now, "now") - self.since) * 1000))
        self.left[mover] -= spent - self.increment_ms
        self.start(mover.other, now)
        return spent

    def stop(self, now: float) -> None:
        """The game is over: the running side's time spent is taken off, and none runs."""
        _number(now, "now")
        if self.running is not None:
            self.left[self.running] = self.left_ms(self.running, now)
            self.running = None

    def pause(self, start: float, end: float) -> None:
        """No time runs from ``start`` to ``end`` (the server was down): the running
        side is charged only what it spent outside that span.

        >>> clock = GameClock.parse("1")
        >>> clock.start(Color.BLACK, now=100.0)
        >>> clock.pause(110.0, 200.0)
        >>> clock.left_ms(Color.BLACK, now=205.0)
        45000
        """
        start, end = _number(start, "start"), _number(end, "end")
        if self.running is not None and self.since < end:
            self.since += end - max(start, self.since)

    def to_dict(self) -> dict[str, Any]:
        return {"initial_ms": self.initial_ms, "increment_ms": self.increment_ms,
                "black_ms": self.left[Color.BLACK], "white_ms": self.left[Color.WHITE],
                "running": None if self.running is None else self.running.label,
                "since": self.since}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameClock:
        """The clock :meth:`to_dict` saved; a ClockError says what is wrong with another."""
        keys = ("initial_ms", "increment_ms", "black_ms", "white_ms", "since")
        if not isinstance(data, dict) or not all(key in data for key in keys):
            raise ClockError(f"a saved clock is a dict with {', '.join(keys)} and running, "
                             f"got {shown_value(data)}")
        running = data.get("running")
        if running not in (None, "black", "white"):
            raise ClockError(f"a saved clock's running side is 'black', 'white' or None, "
                             f"got {shown_value(running)}")
        ms = {key: int(_number(data[key], key)) for key in keys[:4]}
        return cls(initial_ms=ms["initial_ms"], increment_ms=ms["increment_ms"],
                   left={Color.BLACK: ms["black_ms"], Color.WHITE: ms["white_ms"]},
                   running=None if running is None else Color[running.upper()],
                   since=float(_number(data["since"], "since")))
