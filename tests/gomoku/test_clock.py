"""The game clock: time spent while a side is to move, the increment, the flag, and its
saved form; every call is given the time, so nothing here waits."""

from __future__ import annotations

import pytest

from gridgames.gomoku import Color
from gridgames.gomoku.clock import ClockError, GameClock

BLACK, WHITE = Color.BLACK, Color.WHITE


def test_each_side_spends_only_while_it_is_to_move() -> None:
    clock = GameClock.parse("5+3")
    assert (clock.initial_ms, clock.increment_ms, str(clock)) == (300_000, 3000, "5+3")
    assert clock.running is None and clock.left_ms(BLACK, now=50.0) == 300_000
    clock.start(BLACK, now=10.0)
    assert clock.press(now=25.0) == 15_000  # black thought 15 s, then 3 s back
    assert clock.left_ms(BLACK, now=99.0) == 288_000
    assert clock.left_ms(WHITE, now=30.0) == 295_000  # white's 5 s so far
    assert clock.press(now=70.0) == 45_000
    assert (clock.left_ms(WHITE, now=70.0), clock.running) == (258_000, BLACK)


def test_the_flag_falls_for_the_side_to_move_only() -> None:
    clock = GameClock.parse("0.5")
    clock.start(BLACK, now=0.0)
    assert clock.flagged(now=29.9) is None
    assert clock.flagged(now=30.0) is BLACK
    clock.press(now=10.0)
    assert clock.flagged(now=39.9) is None  # white's 30 s run from 10 s
    assert clock.flagged(now=40.0 + 0.001) is WHITE


def test_stopped_clocks_keep_what_was_left() -> None:
    clock = GameClock.parse("1+0")
    clock.start(WHITE, now=0.0)
    clock.stop(now=12.5)
    assert clock.running is None and clock.left_ms(WHITE, now=1000.0) == 47_500
    with pytest.raises(ClockError, match="the clock is not running"):
        clock.press(now=13.0)


def test_saved_and_read_back_it_goes_on() -> None:
    clock = GameClock.parse("3+2")
    clock.start(BLACK, now=100.0)
    clock.press(now=104.0)
    again = GameClock.from_dict(clock.to_dict())
    assert again == clock
    assert again.left_ms(WHITE, now=110.0) == 174_000


@pytest.mark.parametrize(("text", "message"), [
    ("five", "cannot read the clock 'five': write minutes a side and seconds added a move"),
    ("5+", "cannot read the clock"),
    ("-1", "cannot read the clock"),
    ("0", "a clock needs 1 second to 600 minutes a side, not 0 minutes"),
    ("601", "a clock needs 1 second to 600 minutes a side, not 601 minutes"),
    ("5+601", "the increment must be 0 to 600 seconds a move, not 601"),
])
def test_clocks_that_cannot_be_set_say_what_is_allowed(text: str, message: str) -> None:
    with pytest.raises(ClockError, match=message):
        GameClock.parse(text)


@pytest.mark.parametrize(("text", "times", "message"), [
    ("601", (601 * 60_000, 0), "a clock needs 1 second to 600 minutes a side, not 601 minutes"),
    ("0", (0, 0), "a clock needs 1 second to 600 minutes a side, not 0 minutes"),
    ("1+601", (60_000, 601_000), "the increment must be 0 to 600 seconds a move, "
                                 "not 601 seconds"),
])
def test_read_or_built_a_clock_out_of_range_is_refused_in_the_same_words(
        text: str, times: tuple[int, int], message: str) -> None:
    with pytest.raises(ClockError) as read:
        GameClock.parse(text)
    with pytest.raises(ClockError) as built:
        GameClock(*times)
    assert str(read.value) == str(built.value) == message


def test_the_time_out_of_range_is_named_as_it_was_given() -> None:
    with pytest.raises(ClockError, match=r"not 0\.00001 minutes$"):
        GameClock.parse("0.00001")  # as written, not as the milliseconds it rounds to
    with pytest.raises(ClockError, match=r"not 600\.0000167 minutes$"):
        GameClock(initial_ms=600 * 60_000 + 1)  # not rounded to 600
    with pytest.raises(ClockError, match=r"not -0\.5 seconds$"):
        GameClock(initial_ms=60_000, increment_ms=-500)


@pytest.mark.parametrize(("text", "message"), [
    (None, "the clock must be a str such as '5+3', got None"),
    (5, "the clock must be a str such as '5+3', got 5"),
    ("1" * 5000, "a clock needs 1 second to 600 minutes a side, not "
                 "1111111111111111111111111111111111111... minutes"),
    ("1" * 400 + ".5", "a clock needs 1 second to 600 minutes a side, not"),
    ("5+" + "1" * 5000, "the increment must be 0 to 600 seconds a move, not "
                        "1111111111111111111111111111111111111..."),
    ("x" * 1000, "cannot read the clock 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'"),
])
def test_a_clock_that_cannot_be_read_says_why_in_a_line(text: object, message: str) -> None:
    with pytest.raises(ClockError) as error:
        GameClock.parse(text)  # type: ignore[arg-type]
    assert str(error.value).startswith(message) and len(str(error.value)) < 150


@pytest.mark.parametrize("now", [float("nan"), float("inf"), None, "12", True])
def test_a_time_that_is_no_finite_number_is_refused(now: object) -> None:
    """NaN gave "cannot convert float NaN to integer", infinity an OverflowError, and a NaN
    pause left the clock unreadable for good."""
    clock = GameClock.parse("1+2")
    clock.start(BLACK, now=0.0)
    message = r"^now must be a finite number, got "
    for call in (lambda: clock.left_ms(BLACK, now), lambda: clock.flagged(now),  # type: ignore
                 lambda: clock.press(now), lambda: clock.stop(now),  # type: ignore[arg-type]
                 lambda: GameClock.parse("1").start(BLACK, now)):  # type: ignore[arg-type]
        with pytest.raises(ClockError, match=message):
            call()
    with pytest.raises(ClockError, match=r"^start must be a finite number, got "):
        clock.pause(now, 10.0)  # type: ignore[arg-type]
    assert clock.to_dict()["since"] == 0.0 and clock.running is BLACK


def test_a_side_that_is_no_colour_is_refused() -> None:
    """start("black") was taken, and left_ms("black") a KeyError."""
    clock = GameClock.parse("1")
    for call in (lambda: clock.start("black", 0.0),  # type: ignore[arg-type]
                 lambda: clock.left_ms("black", 0.0)):  # type: ignore[arg-type]
        with pytest.raises(ClockError, match=r"^a clock's side is Color.BLACK or Color.WHITE, "
                                             r"got 'black'$"):
            call()


@pytest.mark.parametrize(("data", "message"), [
    (None, r"^a saved clock is a dict with initial_ms, increment_ms, black_ms, white_ms, "
           r"since and running, got None$"),
    ({}, r"^a saved clock is a dict with "),
    ({"running": "red"}, r"^a saved clock's running side is 'black', 'white' or None, "
                         r"got 'red'$"),
    ({"running": 1}, r"^a saved clock's running side is 'black', 'white' or None, got 1$"),
    ({"black_ms": float("inf")}, r"^black_ms must be a finite number, got inf$"),
    ({"since": "nan"}, r"^since must be a finite number, got 'nan'$"),
    ({"initial_ms": None}, r"^initial_ms must be a finite number, got None$"),
])
def test_a_saved_clock_that_is_not_one_is_refused(data: object, message: str) -> None:
    """Each was a KeyError, an AttributeError, an OverflowError, or a clock whose
    every time left was NaN."""
    saved = GameClock.parse("1").to_dict()
    with pytest.raises(ClockError, match=message):
        GameClock.from_dict({**saved, **data} if isinstance(data, dict) and data else data)


def test_a_clock_of_no_number_of_minutes_is_refused() -> None:
    """GameClock(initial_ms=None) was "'<=' not supported between instances of 'int' and
    'NoneType'"; a side of 10**400 ms an OverflowError."""
    with pytest.raises(ClockError, match=r"^initial_ms must be a number, got None$"):
        GameClock(initial_ms=None)  # type: ignore[arg-type]
    with pytest.raises(ClockError, match=r"^increment_ms must be a number, got '3'$"):
        GameClock(initial_ms=60_000, increment_ms="3")  # type: ignore[arg-type]
    with pytest.raises(ClockError, match=r"^a clock needs 1 second to 600 minutes a side, "
                                         r"not 16666666666666"):
        GameClock(initial_ms=10**400)
