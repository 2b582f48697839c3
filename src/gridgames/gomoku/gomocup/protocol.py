"""Text forms shared by both sides of the Gomocup protocol.

Coordinates are the protocol's ``x,y``: 0-based, x the column from the left,
y the row from the top, exactly the library's own ``(x, y)`` points.

>>> parse_xy("7, 8"), format_xy((7, 8))
((7, 8), '7,8')
>>> format_forbid([(9, 12), (10, 11)]), parse_forbid("FORBID 09121011.")
('FORBID 10110912.', {(9, 12), (10, 11)})
>>> parse_about('name="Rapfi", version="0.43", author="Rapfi developers"')["name"]
'Rapfi'
>>> info = parse_search_message("depth 9-17 ev -M5 n 1234K n/ms 650 tm 1900 pv H8 I9 7,9")
>>> info.depth, info.seldepth, info.score, info.mate, info.nodes, info.nps, info.time_ms
(9, 17, None, -5, 1234000, 650000, 1900)
>>> info.pv
((7, 7), (8, 8), (7, 9))
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO

from gridgames.gomoku.notation import shown

Point = tuple[int, int]

# The value Piskvork sends as time_left when the match time is unlimited.
UNLIMITED_TIME = 2147483647

# The longest line passed on whole; a longer one is cut to this length.
MAX_LINE = 65536

_LINE_END = re.compile(rb"\r\n|\r|\n")
_INT = re.compile(r"[+-]?\d+")
_XY = re.compile(r"\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*")


class ProtocolError(ValueError):
    """A line that does not follow the protocol; the message says what was expected."""


def read_lines(stream: IO[bytes]) -> Iterator[tuple[float, str]]:
    """The lines of ``stream`` as they arrive, each with when it arrived (perf_counter),
    until the stream ends or fails. Lines may end with CR LF, LF or CR alone, undecodable
    bytes become U+FFFD, and a line longer than :data:`MAX_LINE` is passed on cut to that
    length (the rest of it dropped: a long MESSAGE stays one MESSAGE)."""
    pending = b""
    skipping = False  # in the rest of a line already passed on cut short
    with contextlib.suppress(OSError, ValueError):
        while chunk := stream.read1(MAX_LINE):  # type: ignore[attr-defined]
            now = time.perf_counter()
            # Only the new bytes are searched (pending holds no line end): a long line
            # searched again with every piece took 42 s for 40 MB.
            *complete, rest = _LINE_END.split(chunk)
            if complete:
                if skipping:
                    del complete[0]
                    skipping = False
                else:
                    complete[0] = pending + complete[0]
                pending = rest
            elif not skipping:
                pending += rest
            if len(pending) > MAX_LINE:
                complete.append(pending)
                pending = b""
                skipping = True
            for raw in complete:
                yield now, raw[:MAX_LINE].decode("utf-8", "replace")
    if pending:
        yield time.perf_counter(), pending.decode("utf-8", "replace")


def parse_int(text: str, what: str = "value") -> int:
    """Read a whole number, or raise ProtocolError naming ``what``.

    >>> parse_int(" 42 "), parse_int("-1")
    (42, -1)
    >>> parse_int("4.5", "timeout_turn")
    Traceback (most recent call last):
    ...
    gridgames.gomoku.gomocup.protocol.ProtocolError: timeout_turn must be a whole number, got '4.5'
    """
    stripped = text.strip()
    if not _INT.fullmatch(stripped):
        raise ProtocolError(f"{what} must be a whole number, got {shown(stripped)!r}")
    return _converted(stripped, what)


def _converted(digits: str, what: str) -> int:
    try:
        return int(digits)
    except ValueError:  # Python converts no number of over 4,300 digits
        raise ProtocolError(f"{what} {shown(digits)} has too many digits to be read") from None


def parse_xy(text: str) -> Point:
    """Read ``x,y`` (two whole numbers and a comma)."""
    match = _XY.fullmatch(text)
    if match is None:
        raise ProtocolError("expected a point as two numbers x,y (like 7,7), got "
                            f"{shown(text.strip())!r}")
    return _converted(match[1], "x"), _converted(match[2], "y")


def format_xy(point: Point) -> str:
    return f"{point[0]},{point[1]}"


def format_forbid(points: Iterable[Point]) -> str:
    """The ``YXSHOWFORBID`` reply: ``FORBID`` then ``XXYY`` groups, row by row, then ``.``."""
    groups = "".join(f"{x:02d}{y:02d}" for x, y in sorted(points, key=lambda p: (p[1], p[0])))
    return f"FORBID {groups}."


def parse_forbid(line: str) -> set[Point]:
    """Read a ``FORBID XXYY....`` line into points."""
    text = line.strip()
    if not text.upper().startswith("FORBID"):
        raise ProtocolError(f"expected a FORBID line, got {shown(text)!r}")
    digits = text[len("FORBID"):].strip().rstrip(".").strip()
    if digits and (len(digits) % 4 or not digits.isdigit()):
        raise ProtocolError(f"expected FORBID followed by 4-digit XXYY groups, got {shown(text)!r}")
    return {(int(digits[i:i + 2]), int(digits[i + 2:i + 4])) for i in range(0, len(digits), 4)}


_ABOUT_PAIR = re.compile(r'\s*([A-Za-z_][\w-]*)\s*=\s*"([^"]*)"\s*,?')


def parse_about(line: str) -> dict[str, str]:
    """Read an ``ABOUT`` reply of ``key="value"`` pairs; text that is not a pair is kept
    under ``"text"``."""
    result: dict[str, str] = {}
    pos = 0
    text = line.strip()
    while pos < len(text):
        match = _ABOUT_PAIR.match(text, pos)
        if match is None:
            break
        result[match[1].lower()] = match[2]
        pos = match.end()
    rest = text[pos:].strip()
    if rest:
        result["text"] = rest
    return result


def format_about(pairs: dict[str, str]) -> str:
    return ", ".join(f'{key}="{value}"' for key, value in pairs.items())


@dataclass(frozen=True)
class EngineInfo:
    """What an engine said about its search in one MESSAGE line (``None`` = not said).

    ``score`` is the engine's own number (its scale is its own); ``mate`` is a
    forced win (+) or loss (-) in the engine's own unit (moves or plies).
    """

    depth: int | None = None
    seldepth: int | None = None
    score: int | None = None
    mate: int | None = None
    nodes: int | None = None
    nps: int | None = None
    time_ms: int | None = None
    pv: tuple[Point, ...] = ()
    multipv: int | None = None

    @property
    def is_empty(self) -> bool:
        return self == EngineInfo()


_SUFFIX = {"": 1, "K": 1000, "M": 1_000_000, "G": 1_000_000_000, "T": 1_000_000_000_000}
_COUNT = re.compile(r"(\d+(?:\.\d+)?)([KMGT]?)", re.IGNORECASE)
_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|s|min|h)?", re.IGNORECASE)
_DURATION_MS = {"ms": 1, "": 1, "s": 1000, "min": 60_000, "h": 3_600_000}
_MATE = re.compile(r"([+-]?)M(\d+|\*)", re.IGNORECASE)
_LETTER_POINT = re.compile(r"([A-Za-z])(\d{1,2})")


def _count(text: str) -> int | None:
    match = _COUNT.fullmatch(text.strip())
    if match is None:
        return None
    return int(float(match[1]) * _SUFFIX[match[2].upper()])


def _duration(text: str) -> int | None:
    match = _DURATION.fullmatch(text.strip())
    if match is None:
        return None
    return int(float(match[1]) * _DURATION_MS[(match[2] or "").lower()])


def _score(text: str) -> tuple[int | None, int | None]:
    """(score, mate) from ``35``, ``+35``, ``+M9`` or ``-M3``."""
    stripped = text.strip()
    mate = _MATE.fullmatch(stripped)
    if mate is not None:
        plies = 0 if mate[2] == "*" else int(mate[2])
        return None, -plies if mate[1] == "-" else plies
    if _INT.fullmatch(stripped):
        return int(stripped), None
    return None, None


def _depths(text: str) -> tuple[int | None, int | None]:
    """(depth, seldepth) from ``9`` or ``9-17``."""
    parts = text.split("-")
    if not all(p.isdigit() for p in parts) or len(parts) > 2:
        return None, None
    return int(parts[0]), int(parts[1]) if len(parts) == 2 else None


def parse_pv(tokens: Iterable[str]) -> tuple[Point, ...]:
    """Moves written as ``x,y`` or as Rapfi's ``H8`` (letter = x, number = y + 1).

    >>> parse_pv(["7,7", "I9", "junk"])
    ((7, 7), (8, 8))
    """
    points: list[Point] = []
    for token in tokens:
        if _XY.fullmatch(token):
            points.append(parse_xy(token))
        elif (match := _LETTER_POINT.fullmatch(token)) is not None:
            points.append((ord(match[1].upper()) - ord("A"), int(match[2]) - 1))
        else:
            break
    return tuple(points)


def parse_search_message(text: str) -> EngineInfo:
    """Search details from the text of a MESSAGE line (without the ``MESSAGE`` word).

    Understands the UCI-like form used by Rapfi and by our brain
    (``depth D-SD ev V n NODES n/ms SPEED tm MS pv MOVES``), Rapfi's summary
    (``Speed S | Depth D-SD | Eval V | Node N | Time T``) and its ``Bestline
    MOVES``. Anything else gives an empty :class:`EngineInfo`.

    >>> parse_search_message("Speed 850K | Depth 12-20 | Eval 35 | Node 1700K | Time 2s")
    EngineInfo(depth=12, seldepth=20, score=35, mate=None, nodes=1700000, nps=850000, \
time_ms=2000, pv=(), multipv=None)
    >>> parse_search_message("hello").is_empty
    True
    """
    fields: dict[str, object] = {}
    if text[:9].lower() == "bestline ":
        return EngineInfo(pv=parse_pv(text.split()[1:]))
    if "|" in text:
        for part in text.split("|"):
            key, _, value = part.strip().partition(" ")
            key = key.lower()
            if key == "depth":
                fields["depth"], fields["seldepth"] = _depths(value.strip())
            elif key == "eval":
                fields["score"], fields["mate"] = _score(value)
            elif key in ("node", "nodes", "visit"):
                fields["nodes"] = _count(value)
            elif key == "speed":
                fields["nps"] = _count(value)
            elif key == "time":
                fields["time_ms"] = _duration(value)
        return EngineInfo(**{k: v for k, v in fields.items() if v is not None})  # type: ignore[arg-type]
    tokens = text.split()
    i = 0
    while i + 1 < len(tokens):
        key, value = tokens[i].lower(), tokens[i + 1]
        if key == "pv":
            fields["pv"] = parse_pv(tokens[i + 1:])
            break
        if key == "depth":
            fields["depth"], fields["seldepth"] = _depths(value)
        elif key == "seldepth":
            fields["seldepth"] = _count(value)
        elif key == "multipv":
            fields["multipv"] = _count(value)
        elif key == "ev":
            fields["score"], fields["mate"] = _score(value)
        elif key == "n":
            fields["nodes"] = _count(value)
        elif key == "n/ms":
            speed = _count(value)
            fields["nps"] = None if speed is None else speed * 1000
        elif key == "tm":
            fields["time_ms"] = _duration(value)
        else:
            # Not a key-value search line: leave it alone.
            if i == 0:
                return EngineInfo()
            i += 1
            continue
        i += 2
    return EngineInfo(**{k: v for k, v in fields.items() if v is not None})  # type: ignore[arg-type]


def format_search_message(depth: int, score: int, mate: int | None, nodes: int, nps: int,
                          time_ms: int, pv: Iterable[Point], multipv: int | None = None) -> str:
    """Our MESSAGE text for one search iteration, in the UCI-like form Rapfi uses
    (the PV is written as ``x,y`` points so that no coordinate frame is implied).

    >>> format_search_message(5, 40, None, 12000, 80000, 150, [(7, 7), (8, 8)])
    'depth 5 ev 40 n 12000 n/ms 80 tm 150 pv 7,7 8,8'
    >>> format_search_message(3, 29990, 2, 50, 1000, 1, [(1, 1)], multipv=2)
    'depth 3 multipv 2 ev +M2 n 50 n/ms 1 tm 1 pv 1,1'
    """
    ev = str(score) if mate is None else (f"+M{mate}" if mate > 0 else f"-M{-mate}")
    head = f"depth {depth}" + (f" multipv {multipv}" if multipv is not None else "")
    moves = " ".join(format_xy(p) for p in pv)
    return f"{head} ev {ev} n {nodes} n/ms {nps // 1000} tm {time_ms} pv {moves}".rstrip()
