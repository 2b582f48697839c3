"""Game records: Piskvork ``.psq`` files and a JSON record.

>>> from gridgames.gomoku import Board
>>> board = Board(15)
>>> board.push_many([(7, 7), (8, 8)])
>>> record = GameRecord.from_board(board, black="Ann", white="level:3", times_ms=[0, 120])
>>> print(to_psq(record))
Piskvorky 15x15, 0:0, 0
8,8,0
9,9,120
Ann
level:3
0
>>> from_json(to_json(record)) == record
True

A game played under an opening rule keeps it in the JSON record: the rule and
its actions (``opening``, ``opening_actions``), whose stones are the first moves.
A game on a clock keeps the clock (``clock``: ``5+3``), and a game lost on time
or by resignation its result with ``"termination": "time forfeit"`` or
``"resignation"``. A record whose result the board does not bear out (no five, no
full board) and that says nothing of how the game ended reads as a game that
ended off the board in a way not recorded (``"termination": "unknown"``).

A ``.psq`` file ends with a code, which Piskvork writes 0 for a game that ended on
the board. A game that ended off the board is written with a code that says who
lost it and how; its tens say who (1 the side to move when the game stopped, 2 the
side that moved last, 3 nobody: a draw), its units how (5 on time, 6 by
resignation, 2 otherwise or in a way not recorded):

====  ==========================================================================
code  ending
====  ==========================================================================
0     on the board, or not yet: the board gives the result (Piskvork's normal end)
15    the side to move lost on time (Piskvork's code for a brain's time out)
16    the side to move resigned
-2    the side to move lost otherwise: an illegal move, a crash or a protocol
      error of its brain (Piskvork's code for a brain's error; 12 reads the same)
25    the side that moved last lost on time
26    the side that moved last resigned
22    the side that moved last lost otherwise
32    a draw, in a way not recorded
====  ==========================================================================

A game of a match lost by a brain's error was lost by the brain to move, so its
file ends in 15 or -2, as Piskvork's tournament files do. Reading, a code that
is not 0 keeps the result, and the record's ``termination`` says how (``time
forfeit``, ``resignation`` or ``unknown``); -1 (Piskvork's "not known", from its
network tournaments) reads as 0, and any other code as -2. A board that shows the
game over (a five, a full board) gives the result whatever the code.

>>> board = Board(15)
>>> board.push_many([(7, 7), (8, 8), (6, 6)])
>>> forfeit = GameRecord.from_board(board, loser=Color.WHITE, termination=TIME_FORFEIT)
>>> to_psq(forfeit).splitlines()[-1]
'15'
>>> again = from_psq(to_psq(forfeit))
>>> again.result, again.termination
('1-0', 'time forfeit')
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import secrets
import stat
from dataclasses import asdict, dataclass, field
from pathlib import Path

from gridgames.gomoku.board import (
    Board,
    Color,
    IllegalMoveError,
    Outcome,
    Point,
    as_whole,
    check_board,
    check_rule,
    check_size,
)
from gridgames.gomoku.clock import GameClock
from gridgames.gomoku.notation import read_number, shown, shown_value
from gridgames.gomoku.opening_rules import Opening, OpeningRule, game_opening
from gridgames.gomoku.rules import Rule

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
# How a game may end other than on the board: the loser's clock ran out, or it resigned,
# or the record gives a result the board does not bear out without saying how.
TIME_FORFEIT, RESIGNATION, UNKNOWN = "time forfeit", "resignation", "unknown"
TERMINATIONS = (TIME_FORFEIT, RESIGNATION, UNKNOWN)
# A byte-order mark, which Windows editors put at the start of a UTF-8 file.
_BOM = "\ufeff"
# The fields a JSON record is known by (``to_json`` writes them all; any one will do).
_JSON_FIELDS = frozenset({"format", "width", "height", "rule", "moves", "result"})
# The longest time a move may have taken, in ms (the Gomocup protocol's largest time).
MAX_MOVE_MS = 2**31 - 1


class RecordError(ValueError):
    """A record that cannot be read: the message says what was wrong."""


@dataclass
class GameRecord:
    """A game: board size, rule, moves in order, thinking times, result and players."""

    width: int = 15
    height: int = 15
    rule: Rule = Rule.FREESTYLE
    moves: list[Point] = field(default_factory=list)
    times_ms: list[int] | None = None
    result: str = "*"
    black: str = ""
    white: str = ""
    # The opening rule the game began under, and its actions (their stones are the
    # first moves); .psq files have no place for them.
    opening: OpeningRule = OpeningRule.FREE
    opening_actions: list[str] = field(default_factory=list)
    # The game clock (minutes a side + seconds a move, "5+3"), and how a game ended
    # other than on the board (one of TERMINATIONS); empty for none.
    clock: str = ""
    termination: str = ""

    def __post_init__(self) -> None:
        # what to_json and to_psq write must be a board's size, a Rule and an OpeningRule
        self.width, self.height = check_size(self.width, self.height)
        check_rule(self.rule)
        if not isinstance(self.opening, OpeningRule):
            raise ValueError(f"opening must be an OpeningRule such as OpeningRule.SWAP2, got "
                             f"{shown_value(self.opening)}")

    @classmethod
    def from_board(cls, board: Board, *, black: str = "", white: str = "",
                   times_ms: list[int] | None = None,
                   opening: Opening | None = None, clock: str = "",
                   loser: Color | None = None, termination: str = "") -> GameRecord:
        """The record of the game on ``board``; a game that ended other than on the board
        ended as ``termination`` says (one of TERMINATIONS), lost by ``loser``, or drawn
        (``loser`` None) in a way not recorded.

        Each argument is checked as :func:`from_json` checks what it reads, so that the
        record can be read back."""
        outcome = check_board(board).outcome()
        result = "*" if outcome is None else outcome.result
        if loser is not None or termination:
            if termination not in TERMINATIONS:
                raise ValueError(f"a game that ended off the board ends by one of "
                                 f"{', '.join(TERMINATIONS)}, not {shown_value(termination)}")
            if loser is not None and not isinstance(loser, Color):
                raise ValueError(f"loser must be Color.BLACK, Color.WHITE or None, got "
                                 f"{shown_value(loser)}")
            if loser is None and termination != UNKNOWN:
                raise ValueError(f"a game that ends by {termination} has a loser")
            result = Outcome(None if loser is None else loser.other).result
        if opening is not None and not isinstance(opening, Opening):
            raise ValueError(f"opening must be an Opening or None, got {shown_value(opening)}")
        return cls(
            width=board.width,
            height=board.height,
            rule=board.rule,
            moves=list(board.move_stack),
            times_ms=_checked_times(times_ms),
            result=_board_result(board, result, termination),
            black=_checked_name(black, "black"),
            white=_checked_name(white, "white"),
            opening=OpeningRule.FREE if opening is None else opening.rule,
            opening_actions=[] if opening is None else list(opening.history),
            clock=_checked_clock(clock),
            termination=termination,
        )

    def to_board(self) -> Board:
        """Replay the moves; raises RecordError naming the first move that is not legal."""
        board = Board(self.width, self.height, rule=self.rule)
        try:
            board.push_many(self.moves)
        except IllegalMoveError as error:
            raise RecordError(str(error)) from None
        return board

    def replay_opening(self) -> Opening | None:
        """The opening the game began under (``None`` without one); raises RecordError
        when its actions cannot be replayed or their stones are not the first moves."""
        try:
            return game_opening(self.opening, Board(self.width, self.height, rule=self.rule),
                                self.opening_actions, self.moves)
        except ValueError as error:
            raise RecordError(str(error)) from None


def _check_times(times: list[int]) -> None:
    """A RecordError naming the first time a move cannot have taken."""
    for number, t in enumerate(times, start=1):
        if not 0 <= t <= MAX_MOVE_MS:
            raise RecordError(f"move {number} took {shown_value(t)} ms: a move's time is a "
                              f"whole number of ms from 0 to {MAX_MOVE_MS:,}")


def _checked_times(times: object) -> list[int] | None:
    """The moves' times as a list of ints (None for none); a RecordError when they are not
    whole numbers of ms a move can have taken."""
    if times is None:
        return None
    whole = [as_whole(t) for t in times] if isinstance(times, list | tuple) else [None]
    if None in whole:
        raise RecordError(f"times_ms must be a list of integers, got {shown_value(times)}")
    _check_times(whole)  # type: ignore[arg-type]
    return whole  # type: ignore[return-value]


def _checked_name(name: object, side: str) -> str:
    """A player's name, which is text (a RecordError for anything else)."""
    if not isinstance(name, str):
        raise RecordError(f"{side} must be a text (the player's name, or '' for none), got "
                          f"{shown_value(name)}")
    return name


def _checked_clock(clock: object) -> str:
    """The game clock as written (``5+3``, or '' for none); a RecordError when it is not one."""
    if not isinstance(clock, str):
        raise RecordError("clock must be a text such as '5+3'")
    if clock:
        try:
            GameClock.parse(clock)
        except ValueError as error:
            raise RecordError(str(error)) from None
    return clock


def _board_result(board: Board, result: str, termination: str) -> str:
    """The result of a record of ``board``'s game: the board's when it shows the game over
    (where a different result, or an ending off the board, is a RecordError), else
    ``result``."""
    outcome = board.outcome()
    if outcome is None:
        return result
    if termination:
        raise RecordError(f"the game ended on the board ({outcome}), not off it: its "
                          f"record has no termination, not {termination!r}")
    if result not in ("*", outcome.result):
        raise RecordError(f"the result {result!r} is not the board's: {outcome} "
                          f"({outcome.result})")
    return outcome.result


def _text(text: object) -> str:
    """``text`` if it is a str: a record is read from text (a RecordError for anything else)."""
    if not isinstance(text, str):
        hint = " (decode bytes first)" if isinstance(text, bytes | bytearray) else ""
        raise RecordError(f"a record is read from a str{hint}, got {shown_value(text)}")
    return text


def to_json(record: GameRecord) -> str:
    data = asdict(record)
    data["rule"] = record.rule.value
    data["moves"] = [list(m) for m in record.moves]
    if record.opening is OpeningRule.FREE:
        del data["opening"], data["opening_actions"]
    else:
        data["opening"] = record.opening.value
    for name in ("clock", "termination"):
        if not data[name]:
            del data[name]
    data["format"] = "gridgames-gomoku"
    return json.dumps(data, indent=2)


def from_json(text: str) -> GameRecord:
    """Read a JSON record; raises RecordError saying what was wrong."""
    text = _text(text).removeprefix(_BOM)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        if text.lstrip()[:1] in ("{", "["):
            raise RecordError(f"not a JSON record: {error}") from None
        begins = f"it begins {text.strip()[:40]!r}" if text.strip() else "it is empty"
        raise RecordError(
            "not a JSON record, nor a .psq file (whose first line looks like "
            f"'Piskvorky 15x15, 0:0, 0'): {begins}"
        ) from None
    except RecursionError:
        raise RecordError("not a JSON record: it is nested too deeply") from None
    except ValueError:  # Python reads no number of over 4,300 digits
        raise RecordError("not a JSON record: it holds a number too long to read") from None
    if not isinstance(data, dict):
        raise RecordError("a JSON record must be an object with width, height, rule and moves")
    if not data.keys() & _JSON_FIELDS or data.get("format", "gridgames-gomoku") != (
            "gridgames-gomoku"):
        # another program's JSON (a package.json, say) would read as an empty game
        raise RecordError("not a game record: a JSON record is an object with width, "
                          "height, rule and moves (and \"format\": \"gridgames-gomoku\")")
    try:
        width, height = check_size(data.get("width", 15), data.get("height", data.get("width", 15)))
        rule = Rule.from_name(str(data.get("rule", "freestyle")))
    except ValueError as error:
        raise RecordError(str(error)) from None
    moves_data = data.get("moves", [])
    if not isinstance(moves_data, list):
        raise RecordError("moves must be a list of [x, y] pairs")
    moves: list[Point] = []
    for number, item in enumerate(moves_data, start=1):
        if (
            not isinstance(item, list | tuple)
            or len(item) != 2
            or not all(isinstance(c, int) and not isinstance(c, bool) for c in item)
        ):
            raise RecordError(f"move {number} must be a pair of integers [x, y], got {item!r}")
        moves.append((item[0], item[1]))
    times = _checked_times(data.get("times_ms"))
    result = data.get("result", "*")
    if result not in RESULTS:
        raise RecordError(f"result {result!r} is not one of {', '.join(RESULTS)}")
    try:
        opening = OpeningRule.parse(str(data.get("opening", "free")))
    except ValueError as error:
        raise RecordError(str(error)) from None
    actions = data.get("opening_actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("opening_actions must be a list of texts such as 'place h8'")
    termination = data.get("termination", "")
    if termination not in ("", *TERMINATIONS):
        raise RecordError(f"termination {shown(repr(termination))} is not one of "
                          f"{', '.join(TERMINATIONS)}")
    if termination in (TIME_FORFEIT, RESIGNATION) and result not in ("1-0", "0-1"):
        raise RecordError(f"a game that ends by {termination} has a result of 1-0 or 0-1, "
                          f"not {result!r}")
    if termination == UNKNOWN and result == "*":
        raise RecordError("a game that ended in a way not recorded has a result of 1-0, 0-1 "
                          "or 1/2-1/2, not '*'")
    clock = _checked_clock(data.get("clock", ""))
    record = GameRecord(width, height, rule, moves, times, result,
                        _checked_name(data.get("black", ""), "black"),
                        _checked_name(data.get("white", ""), "white"),
                        opening, actions, clock, termination)
    board = record.to_board()  # validates every move
    record.replay_opening()  # and the opening's actions
    record.result = result = _board_result(board, result, termination)
    if result != "*" and not termination and not board.is_game_over():
        # over, says the result, though not on the board: how it ended is not recorded
        record.termination = UNKNOWN
    return record


def is_psq(text: str) -> bool:
    """Whether ``text`` is a ``.psq`` file rather than a JSON record (by its first line).

    >>> is_psq("Piskvorky 15x15, 0:0, 0"), is_psq('{"width": 15}')
    (True, False)
    """
    return _text(text).removeprefix(_BOM).lstrip().startswith("Piskvorky")


# Numbers are bounded in length: Python refuses to read one of over 4,300 digits.
_PSQ_HEADER = re.compile(r"Piskvorky (\d{1,6})x(\d{1,6}),\s*(-?\d+):(-?\d+),\s*(\d+)")
_PSQ_MOVE = re.compile(r"(-?\d{1,6}),(-?\d{1,6})(?:,(-?\d{1,12}))?")
# A line shaped like a move that is not one: fields not all short numbers (a name has
# no commas), or numbers apart by spaces.
_PSQ_BAD_MOVE = re.compile(r"[^,\s]+,[^,\s]+(?:,[^,\s]*)?|-?\d+\s+-?\d+(?:\s+-?\d+)?")


def _clipped(line: str) -> str:
    """A line of the file quoted in an error, cut short."""
    return repr(shown(line, 60))


# The ending codes of a .psq file's last line (see the module's docstring): code ->
# (termination, who lost: the side to move, the side that moved last, or nobody).
TO_MOVE, MOVED_LAST, NOBODY = "to move", "moved last", "nobody"
PSQ_ENDINGS: dict[int, tuple[str, str]] = {
    15: (TIME_FORFEIT, TO_MOVE), 16: (RESIGNATION, TO_MOVE), -2: (UNKNOWN, TO_MOVE),
    12: (UNKNOWN, TO_MOVE), 25: (TIME_FORFEIT, MOVED_LAST), 26: (RESIGNATION, MOVED_LAST),
    22: (UNKNOWN, MOVED_LAST), 32: (UNKNOWN, NOBODY),
}
# The code written for each ending: Piskvork's own -2 rather than 12.
_PSQ_CODES = {ending: code for code, ending in PSQ_ENDINGS.items() if code != 12}
# Piskvork's "not known" (its network tournaments write it for every game).
PSQ_NOT_KNOWN = -1
_PSQ_CODE = re.compile(r"-?[0-9]+")


def psq_code(record: GameRecord) -> int:
    """The ``.psq`` ending code of ``record``: 0 when the board bears out its result (or
    it has none), else the code of who lost and how (see the module's docstring)."""
    if record.result == "*":
        return 0
    try:
        board = record.to_board()
    except RecordError:  # moves no board takes: written as they are, the code as ever
        return 0
    if board.is_game_over():
        return 0  # the board says, and a reader believes the board
    winner = winner_of(record)
    if winner is None:
        return _PSQ_CODES[UNKNOWN, NOBODY]  # a draw off the board: how is not recorded
    who = TO_MOVE if winner.other is board.to_move else MOVED_LAST
    termination = record.termination if record.termination in TERMINATIONS else UNKNOWN
    return _PSQ_CODES[termination, who]


def to_psq(record: GameRecord) -> str:
    """Piskvork's layout: 1-based ``x,y,time`` lines, then the two players and the
    ending code (:func:`psq_code`)."""
    lines = [f"Piskvorky {record.width}x{record.height}, 0:0, 0"]
    times = record.times_ms or [0] * len(record.moves)
    for (x, y), t in zip(record.moves, times, strict=False):
        lines.append(f"{x + 1},{y + 1},{t}")
    for (x, y) in record.moves[len(times):]:
        lines.append(f"{x + 1},{y + 1},0")
    lines += [_psq_name(record.black, "homo-1"), _psq_name(record.white, "homo-2"),
              str(psq_code(record))]
    return "\n".join(lines)


def _psq_name(name: str, default: str) -> str:
    """A player's name as its line of a .psq file (``default`` for none); a ValueError for
    a name that :func:`from_psq` would read as something else (a move, an ending code, or
    more lines than one)."""
    line = name.strip()
    if not line:
        return default  # a blank line would be skipped, and the other name taken for it
    if (len(line.splitlines()) > 1 or line.lstrip("-").isdigit()
            or _PSQ_BAD_MOVE.fullmatch(line)):
        raise ValueError(f"a .psq file cannot hold the name {shown_value(name)}: a name "
                         "there is one line, neither a number nor shaped like a move "
                         "(3,4 or a,b)")
    return line


def from_psq(text: str, rule: Rule = Rule.FREESTYLE) -> GameRecord:
    """Read a ``.psq`` file (the rule is not stored in the format, so it is given)."""
    lines = [line.strip() for line in _text(text).removeprefix(_BOM).splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    if not lines:
        raise RecordError("empty .psq file")
    header = _PSQ_HEADER.match(lines[0])
    if header is None:
        raise RecordError(
            f"not a .psq file: the first line should look like 'Piskvorky 15x15, 0:0, 0', "
            f"got {_clipped(lines[0])}"
        )
    try:
        width, height = check_size(int(header[1]), int(header[2]))
    except ValueError as error:
        raise RecordError(str(error)) from None
    moves: list[Point] = []
    times: list[int] = []
    rest = [line for line in lines[1:] if line]  # blank lines say nothing
    while rest and (match := _PSQ_MOVE.fullmatch(rest[0])):
        x, y = int(match[1]), int(match[2])
        if not (1 <= x <= width and 1 <= y <= height):
            raise RecordError(f"move {len(moves) + 1} ({_clipped(rest[0])}) is off the board: "
                              f".psq moves count from 1, x 1 to {width} and y 1 to {height}")
        moves.append((x - 1, y - 1))
        times.append(int(match[3] or 0))
        rest.pop(0)
    if rest and _PSQ_BAD_MOVE.fullmatch(rest[0]):
        # the moves would stop here silently and the line be taken for a player's name
        raise RecordError(f"move {len(moves) + 1} ({_clipped(rest[0])}) is not a move: a .psq "
                          "move is x,y,time in whole numbers, like 8,8,0")
    _check_times(times)
    names = [line for line in rest if not line.lstrip("-").isdigit()]
    codes = [line for line in rest if _PSQ_CODE.fullmatch(line)]
    record = GameRecord(width, height, rule, moves, times)
    # Piskvork names a human player "homo-1" / "homo-2".
    names = ["" if name.startswith("homo-") else name for name in names]
    record.black = names[0] if len(names) > 0 else ""
    record.white = names[1] if len(names) > 1 else ""
    board = record.to_board()
    outcome = board.outcome()
    record.result = "*" if outcome is None else outcome.result
    # the last line, where Piskvork writes it; a code too long to convert is none of ours
    code = read_number(codes[-1]) if codes else 0
    if outcome is None and code not in (0, PSQ_NOT_KNOWN):
        # the game stopped off the board: the code says who lost and how
        termination, who = PSQ_ENDINGS.get(code, PSQ_ENDINGS[-2])
        loser = {TO_MOVE: board.to_move, MOVED_LAST: board.to_move.other}.get(who)
        record.result = Outcome(None if loser is None else loser.other).result
        record.termination = termination
    return record


def save(record: GameRecord, path: str | Path) -> None:
    """Write ``record`` as ``.psq`` when the name ends so, else as JSON; raises OSError as
    writing the file would.

    The text goes to a new file in the same folder, renamed over ``path`` once whole: a
    reader (benchmarks/match_report.py reading a match's folder, say) finds the earlier
    file or the new one, never half of one, and a save that fails or is interrupted
    leaves the earlier file as it was. Only a process killed while it writes (SIGKILL)
    leaves that new file behind, hidden (``.game-0001.psq.1a2b3c4d.tmp``):
    :func:`interrupted_saves` finds it.
    """
    target = Path(path)
    text = to_psq(record) if target.suffix.lower() == ".psq" else to_json(record)
    data = (text + "\n").encode("utf-8")
    real = Path(os.path.realpath(target))  # through a symbolic link, as a write in place goes
    try:
        earlier: os.stat_result | None = real.stat()
    except FileNotFoundError:
        earlier = None
    if earlier is not None and not stat.S_ISREG(earlier.st_mode):
        # a folder (refused: "Is a directory") or a device such as /dev/null: not replaced
        target.write_bytes(data)
        return
    if earlier is not None and not os.access(real, os.W_OK):
        # a read-only file stays as it is, refused as a write in place is
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
    # named as _INTERRUPTED_SAVE finds it, should the process be killed before the rename
    temporary = real.with_name(f".{real.name}.{secrets.token_hex(4)}.tmp")
    try:
        # mode 0o666 less the umask, as for any new file
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as error:  # named by the file asked for, not the temporary
        raise OSError(error.errno, error.strerror, str(path)) from None
    try:
        with open(descriptor, "wb") as file:
            file.write(data)
        if earlier is not None:
            os.chmod(temporary, stat.S_IMODE(earlier.st_mode))
        os.replace(temporary, real)
    except BaseException as error:
        with contextlib.suppress(OSError):
            temporary.unlink()
        if isinstance(error, OSError) and error.errno is not None:
            raise OSError(error.errno, error.strerror, str(path)) from None
        raise


# The name of the temporary file that :func:`save` writes before renaming it into place:
# only a save whose process was killed while it wrote (SIGKILL, a power cut) leaves one.
_INTERRUPTED_SAVE = re.compile(r"\..+\.[0-9a-f]{8}\.tmp")


def interrupted_saves(folder: str | Path) -> list[Path]:
    """The temporary files in ``folder`` of saves that never finished, by name: each holds
    at most part of a record, was never renamed into place, and may be deleted."""
    return sorted(path for path in Path(folder).iterdir()
                  if _INTERRUPTED_SAVE.fullmatch(path.name))


def load(path: str | Path, rule: Rule = Rule.FREESTYLE) -> GameRecord:
    """Read a ``.psq`` or JSON record (by content); ``rule`` applies to ``.psq`` files."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise RecordError(f"cannot read {path}: not a UTF-8 text file") from None
    if is_psq(text):
        return from_psq(text, rule)
    return from_json(text)


def winner_of(record: GameRecord) -> Color | None:
    return {"1-0": Color.BLACK, "0-1": Color.WHITE}.get(record.result)


def ended_off_the_board(record: GameRecord) -> tuple[Color | None, str]:
    """How the recorded game ended other than on the board: who lost it (None for a
    draw) and how (one of :data:`TERMINATIONS`); ``(None, "")`` when it did not."""
    if record.termination not in TERMINATIONS or record.result == "*":
        return None, ""
    winner = winner_of(record)
    return None if winner is None else winner.other, record.termination


def ending_text(loser: Color | None, termination: str) -> str:
    """How a game ended off the board (:func:`ended_off_the_board`), in words:
    ``black resigned``, ``white's time ran out``, ``black lost in a way not recorded``
    or ``a draw, in a way not recorded``."""
    if loser is None:
        return "a draw, in a way not recorded"
    if termination == RESIGNATION:
        return f"{loser.label} resigned"
    if termination == TIME_FORFEIT:
        return f"{loser.label}'s time ran out"
    return f"{loser.label} lost in a way not recorded"
