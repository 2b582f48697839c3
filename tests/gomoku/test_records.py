"""Game records: .psq and JSON round trips and clear errors."""

from __future__ import annotations

import json
import os
import re
import signal
import stat
import subprocess
import sys
from typing import Any

import pytest

from gridgames.gomoku import Board, Color, Rule
from gridgames.gomoku.opening_rules import Opening, OpeningRule
from gridgames.gomoku.records import (
    GameRecord,
    RecordError,
    ended_off_the_board,
    ending_text,
    from_json,
    from_psq,
    interrupted_saves,
    is_psq,
    load,
    save,
    to_json,
    to_psq,
)


def finished_game(rule: Rule = Rule.FREESTYLE, width: int = 15, height: int = 15) -> Board:
    board = Board(width, height, rule=rule)
    for i in range(4):
        board.push((2 + i, 3))
        board.push((2 + i, 4))
    board.push((6, 3))
    return board


@pytest.mark.parametrize("rule", list(Rule))
def test_json_round_trip(rule):
    board = finished_game(rule, 12, 9)
    record = GameRecord.from_board(board, black="human", white="level:4",
                                   times_ms=list(range(len(board))))
    assert record.result == "1-0"
    again = from_json(to_json(record))
    assert again == record
    assert again.to_board() == board


def test_psq_round_trip_and_layout():
    board = finished_game(width=20, height=18)
    record = GameRecord.from_board(board, black="pbrain-a", white="pbrain-b")
    text = to_psq(record)
    lines = text.splitlines()
    assert lines[0] == "Piskvorky 20x18, 0:0, 0"
    assert lines[1] == "3,4,0"  # 1-based x,y,time
    assert lines[-3:] == ["pbrain-a", "pbrain-b", "0"]
    again = from_psq(text)
    assert again.moves == record.moves and again.result == "1-0"
    assert (again.black, again.white) == ("pbrain-a", "pbrain-b")


def test_reads_piskvork_files_without_times_or_names():
    record = from_psq("Piskvorky 15x15, 11:11, 1\r\n8,8\r\n9,9\r\n-1\r\n")
    assert record.moves == [(7, 7), (8, 8)] and record.result == "*"


# A game stopped after black h8, white i9, black g7: white to move, black moved last.
STOPPED = [(7, 7), (8, 8), (6, 6)]


@pytest.mark.parametrize(("loser", "termination", "code", "result"), [
    # the side to move lost: as a brain that fails its move in a match (Piskvork's codes)
    (Color.WHITE, "time forfeit", "15", "1-0"),
    (Color.WHITE, "unknown", "-2", "1-0"),
    (Color.WHITE, "resignation", "16", "1-0"),
    # the side that moved last lost: a resignation out of turn, say
    (Color.BLACK, "time forfeit", "25", "0-1"),
    (Color.BLACK, "resignation", "26", "0-1"),
    (Color.BLACK, "unknown", "22", "0-1"),
    (None, "unknown", "32", "1/2-1/2"),
])
def test_a_game_ended_off_the_board_keeps_its_result_in_a_psq_file(
        tmp_path, loser: Color | None, termination: str, code: str, result: str) -> None:
    """Once written with code 0 and read back as a game in progress: the result was lost."""
    board = Board(15)
    board.push_many(STOPPED)
    record = GameRecord.from_board(board, black="pbrain-a", white="pbrain-b",
                                   times_ms=[0, 10, 20], loser=loser, termination=termination)
    save(record, tmp_path / "game.psq")
    lines = (tmp_path / "game.psq").read_text(encoding="utf-8").splitlines()
    assert lines[-3:] == ["pbrain-a", "pbrain-b", code]
    again = load(tmp_path / "game.psq")
    assert (again.result, again.termination) == (result, termination)
    assert ended_off_the_board(again) == (loser, termination)
    assert again == from_json(to_json(record))  # as the JSON record reads
    save(again, tmp_path / "again.psq")  # and written again, the same file
    assert (tmp_path / "again.psq").read_text(encoding="utf-8") == "\n".join(lines) + "\n"


@pytest.mark.parametrize(("code", "result", "termination"), [
    # Piskvork's own: a brain's time out, a brain's error, and "not known"
    ("15", "1-0", "time forfeit"),
    ("-2", "1-0", "unknown"),
    ("-1", "*", ""),
    ("0", "*", ""),
    # a code of no meaning here: the side to move lost, how is not known
    ("7", "1-0", "unknown"),
    ("9" * 5000, "1-0", "unknown"),
    ("-" + "0" * 5000, "*", ""),
])
def test_the_code_of_a_piskvork_file_says_who_lost_a_game_stopped_off_the_board(
        tmp_path, code: str, result: str, termination: str) -> None:
    path = tmp_path / "1x2-3(1).psq"
    path.write_text("Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n9,9,1496\r\n7,7,20\r\n"
                    f"pbrain-foo.exe\r\npbrain-bar.exe\r\n{code}\r\n", encoding="utf-8")
    record = load(path)
    assert record.moves == STOPPED and (record.black, record.white) == ("pbrain-foo.exe",
                                                                          "pbrain-bar.exe")
    assert (record.result, record.termination) == (result, termination)


def test_a_board_that_shows_the_game_over_gives_the_result_whatever_the_code(tmp_path) -> None:
    board = finished_game()
    text = to_psq(GameRecord.from_board(board))
    assert text.endswith("\n0")  # a five: the board says
    for code in ("15", "-2", "26", "32"):
        path = tmp_path / f"five-{code}.psq"
        path.write_text(text.removesuffix("0") + code, encoding="utf-8")
        record = load(path)
        assert (record.result, record.termination) == ("1-0", "")
    # and a result the board bears out is written with 0, however the record says it ended
    record = GameRecord.from_board(board)
    record.termination = "time forfeit"
    assert to_psq(record).endswith("\n0")


def test_save_and_load_choose_the_format(tmp_path):
    board = finished_game(Rule.RENJU)
    record = GameRecord.from_board(board)
    for name in ("game.psq", "game.json"):
        save(record, tmp_path / name)
        again = load(tmp_path / name, rule=Rule.RENJU)
        assert again.moves == record.moves and again.rule is Rule.RENJU
    assert (tmp_path / "game.psq").read_text().startswith("Piskvorky 15x15")


# Saves the record of a finished game to sys.argv[1] with files limited to 40 bytes, as a
# full disk would stop it: the write fails partway.
SAVE_WITH_A_FULL_DISK = """
import resource, sys
from gridgames.gomoku import Board
from gridgames.gomoku.records import GameRecord, save
board = Board(15)
board.push_many([(x, y) for y in (3, 4) for x in range(2, 6)] + [(6, 3)])
resource.setrlimit(resource.RLIMIT_FSIZE, (40, 40))  # Python ignores SIGXFSZ
try:
    save(GameRecord.from_board(board, black="Ann", white="Bob"), sys.argv[1])
except OSError as error:
    print(error)
"""


@pytest.mark.parametrize("name", ["game.psq", "game.json"])
def test_a_save_that_fails_midway_leaves_the_earlier_file_whole(tmp_path, name: str) -> None:
    """A record was written in place: a save stopped partway (a full disk, a process killed,
    a signal) left half a file, where a match's folder or an earlier save had a whole one."""
    earlier = tmp_path / name
    earlier.write_text("the earlier save\n")
    result = subprocess.run([sys.executable, "-c", SAVE_WITH_A_FULL_DISK, str(earlier)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert earlier.read_text() == "the earlier save\n"
    assert [p.name for p in tmp_path.iterdir()] == [name]  # no temporary left behind
    assert result.stdout == f"[Errno 27] File too large: '{earlier}'\n"


# The same save, killed (SIGKILL) as its write goes beyond the 40 bytes.
SAVE_KILLED_MIDWAY = """
import os, signal
signal.signal(signal.SIGXFSZ, lambda *_: os.kill(os.getpid(), signal.SIGKILL))
""" + SAVE_WITH_A_FULL_DISK


def test_a_save_killed_midway_leaves_a_temporary_file_that_is_found(tmp_path) -> None:
    """A process killed while it saves cannot remove its temporary file: that file, half a
    record, is all the folder gets of that game. It is hidden, and a folder of records that
    holds one looked complete; interrupted_saves finds it, and nothing else."""
    for name in ("game-0001.psq", ".game-0001.psq.tmp", "game-0002.psq.1a2b3c4d.tmp",
                 ".notes", "x.tmp"):
        (tmp_path / name).write_text("not a save's temporary file\n")
    result = subprocess.run([sys.executable, "-c", SAVE_KILLED_MIDWAY,
                             str(tmp_path / "game-0002.psq")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == -signal.SIGKILL, result.stderr
    assert not (tmp_path / "game-0002.psq").exists()
    [left] = interrupted_saves(tmp_path)
    assert re.fullmatch(r"\.game-0002\.psq\.[0-9a-f]{8}\.tmp", left.name)
    assert left.parent == tmp_path and len(left.read_bytes()) == 40  # cut short
    left.unlink()
    assert interrupted_saves(tmp_path) == []


def test_a_save_replaces_the_file_as_a_write_in_place_would(tmp_path) -> None:
    """Through a symbolic link to the file it names, keeping the file's permissions, a
    device written rather than replaced, and refused where a write in place is refused,
    saying why."""
    record = GameRecord.from_board(finished_game())
    target = tmp_path / "games" / "game.psq"
    with pytest.raises(FileNotFoundError,
                       match=re.escape(f"No such file or directory: '{target}'")):
        save(record, target)
    target.parent.mkdir()
    with pytest.raises(IsADirectoryError):
        save(record, target.parent)
    target.write_text("old\n")
    target.chmod(0o640)
    (tmp_path / "link.psq").symlink_to(target)
    save(record, tmp_path / "link.psq")
    assert (tmp_path / "link.psq").is_symlink()
    assert target.read_text() == to_psq(record) + "\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in target.parent.iterdir()) == ["game.psq"]
    save(record, os.devnull)  # a device is written, not replaced
    if os.geteuid() != 0:  # root may write a read-only file
        target.chmod(0o440)
        with pytest.raises(PermissionError, match="Permission denied"):
            save(record, target)
        assert target.read_text() == to_psq(record) + "\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a JSON record"),
        ("[1, 2]", "must be an object"),
        ('{"width": 3}', "board width 3 is out of range"),
        ('{"rule": "chess"}', "unknown rule 'chess'"),
        ('{"moves": [[7, 7], [7]]}', r"move 2 must be a pair of integers"),
        ('{"moves": [[7, 7], [7, 7]]}', "move 2 is not legal: h8 is occupied"),
        ('{"moves": [[15, 0]]}', "move 1 is not legal: .* off the board"),
        ('{"result": "2-0"}', "result '2-0' is not one of"),
        # another program's JSON once read as an empty game
        ("{}", "not a game record: a JSON record is an object with width, height, rule"),
        ('{"name": "my-app", "version": "1.0"}', "not a game record"),
        ('{"format": "other", "moves": []}', "not a game record"),
        # impossible times were kept and written out again
        ('{"moves": [[7, 7]], "times_ms": [-5]}', "move 1 took -5 ms: .* from 0 to 2,147,483,647"),
        ('{"moves": [[7, 7]], "times_ms": [' + "9" * 30 + ']}', "move 1 took 9{30} ms"),
        ('{"moves": [[7, 7]], "times_ms": [true]}', "times_ms must be a list of integers"),
    ],
)
def test_bad_json_records_say_what_is_wrong(text, message):
    with pytest.raises(RecordError, match=message):
        from_json(text)


def test_a_psq_time_a_move_cannot_take_is_refused():
    with pytest.raises(RecordError, match="move 2 took -3 ms: a move's time is a whole number"):
        from_psq("Piskvorky 15x15, 0:0, 0\n8,8,0\n9,9,-3\n")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a JSON record, nor a .psq file .*'Piskvorky 15x15, 0:0, 0'.*: it is empty"),
        ("15,15\n8,8,0\n", r"nor a .psq file .*: it begins '15,15\\n8,8,0'"),
        ("{nonsense", "not a JSON record: Expecting property name"),
        ("[" * 100_000, "not a JSON record: it is nested too deeply"),
        ('{"a": ' * 5000 + "1" + "}" * 5000, "not a JSON record: it is nested too deeply"),
    ],
)
def test_text_that_is_no_record_says_what_is_allowed(tmp_path, text, message):
    """Deep nesting was once a RecursionError (a traceback, a 500 from the web import)."""
    with pytest.raises(RecordError, match=message):
        from_json(text)
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError, match=message):
        load(path)


def test_records_with_a_byte_order_mark_are_read(tmp_path):
    board = finished_game(Rule.FREESTYLE)
    record = GameRecord.from_board(board)
    for name, text in [("game.psq", to_psq(record)), ("game.json", to_json(record))]:
        assert is_psq(text) == name.endswith(".psq")
        (tmp_path / name).write_text("\ufeff" + text, encoding="utf-8")
        assert is_psq("\ufeff" + text) == name.endswith(".psq")
        assert load(tmp_path / name).moves == record.moves


def test_bad_psq_records_say_what_is_wrong(tmp_path):
    with pytest.raises(RecordError, match="first line should look like"):
        from_psq("hello\n1,1,0\n")
    with pytest.raises(RecordError, match="move 2 is not legal"):
        from_psq("Piskvorky 15x15, 0:0, 0\n1,1,0\n1,1,0\n")
    with pytest.raises(RecordError, match="empty"):
        from_psq("\n\n")
    # a move off the board is named as the file writes it, counted from 1
    for line in ("16,1,0", "0,0,0"):
        with pytest.raises(RecordError, match=rf"move 2 \('{line}'\) is off the board: "
                                              "[.]psq moves count from 1, x 1 to 15"):
            from_psq(f"Piskvorky 15x15, 0:0, 0\n1,1,0\n{line}\n")
    # a move that is not numbers does not end the moves silently
    with pytest.raises(RecordError, match=r"move 2 \('a,b,0'\) is not a move"):
        from_psq("Piskvorky 15x15, 0:0, 0\n1,1,0\na,b,0\n2,2,0\n")
    named = from_psq("Piskvorky 15x15, 0:0, 0\n1,1,0\npbrain-x.exe\nhomo-2\n0\n")
    assert (named.moves, named.black, named.white) == ([(0, 0)], "pbrain-x.exe", "")
    # nor do moves apart by spaces, or a blank line
    with pytest.raises(RecordError, match=r"move 1 \('8 8 0'\) is not a move"):
        from_psq("Piskvorky 15x15, 0:0, 0\n8 8 0\n9 9 0\n")
    gap = from_psq("Piskvorky 15x15, 0:0, 0\n1,1,0\n\n2,2,0\n\npbrain-x\n\npbrain-y\n-1\n")
    assert (gap.moves, gap.black, gap.white) == ([(0, 0), (1, 1)], "pbrain-x", "pbrain-y")
    # numbers too long for Python to read are errors, quoted short
    with pytest.raises(RecordError, match=r"move 2 \('9{57}\.\.\.'\) is not a move"):
        from_psq("Piskvorky 15x15, 0:0, 0\n1,1,0\n" + "9" * 5000 + ",1,0\n")
    with pytest.raises(RecordError, match="first line should look like"):
        from_psq("Piskvorky " + "1" * 5000 + "x15, 0:0, 0\n")
    with pytest.raises(RecordError, match="a number too long to read"):
        from_json('{"width": ' + "1" * 5000 + "}")
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "missing.json")


def swap_game() -> tuple[Board, Opening]:
    opening = Opening.replay(OpeningRule.SWAP, Board(15), ["place h8", "place i9", "place j10",
                                                           "choose white"])
    board = opening.board.copy()
    board.push((0, 0))
    return board, opening


def test_a_json_record_keeps_the_opening() -> None:
    board, opening = swap_game()
    record = GameRecord.from_board(board, opening=opening)
    data = json.loads(to_json(record))
    assert data["opening"] == "swap"
    assert data["opening_actions"] == ["place h8", "place i9", "place j10", "choose white"]
    again = from_json(to_json(record))
    assert again == record
    replayed = again.replay_opening()
    assert replayed is not None and replayed.player(Color.BLACK) is opening.player(Color.BLACK)
    # without an opening rule the record has no opening fields
    assert "opening" not in json.loads(to_json(GameRecord.from_board(board)))


@pytest.mark.parametrize(("change", "message"), [
    ({"opening": "rif"}, "unknown opening rule 'rif'"),
    ({"opening_actions": "place h8"}, "opening_actions must be a list of texts"),
    ({"opening_actions": ["place h8", "place h8"]}, r"action 2 \('place h8'\): h8 is occupied"),
    ({"opening_actions": ["place h8", "place i9", "place j9", "choose white"]},
     "opening's stones are not the game's first moves"),
])
def test_a_json_record_with_a_broken_opening_is_refused(change: dict, message: str) -> None:
    board, opening = swap_game()
    data = json.loads(to_json(GameRecord.from_board(board, opening=opening)))
    data.update(change)
    with pytest.raises(RecordError, match=message):
        from_json(json.dumps(data))


def test_a_game_lost_on_time_keeps_its_clock_and_result() -> None:
    board = Board(15)
    board.push_many([(7, 7), (8, 8), (6, 6)])
    record = GameRecord.from_board(board, clock="5+3", loser=Color.WHITE,
                                   termination="time forfeit")
    assert (record.result, record.termination, record.clock) == ("1-0", "time forfeit", "5+3")
    text = to_json(record)
    assert '"termination": "time forfeit"' in text and from_json(text) == record
    resigned = GameRecord.from_board(board, loser=Color.BLACK, termination="resignation")
    assert (resigned.result, from_json(to_json(resigned))) == ("0-1", resigned)
    with pytest.raises(ValueError, match="ends by one of time forfeit, resignation, unknown, "
                                         "not ''"):
        GameRecord.from_board(board, loser=Color.BLACK)
    with pytest.raises(ValueError, match="a game that ends by resignation has a loser"):
        GameRecord.from_board(board, termination="resignation")
    # a game without a clock has neither field
    plain = json.loads(to_json(GameRecord.from_board(board)))
    assert "clock" not in plain and "termination" not in plain


def without_its_ending(result: str, moves: list[tuple[int, int]]) -> str:
    """A JSON record of ``moves`` with ``result``, and no word of how the game ended."""
    board = Board(15)
    board.push_many(moves)
    return json.dumps({**json.loads(to_json(GameRecord.from_board(board))), "result": result})


NO_FIVE = [(7, 7), (8, 8), (6, 6)]


@pytest.mark.parametrize(("result", "loser", "how"), [
    ("1-0", Color.WHITE, "white lost in a way not recorded"),
    ("0-1", Color.BLACK, "black lost in a way not recorded"),
    ("1/2-1/2", None, "a draw, in a way not recorded"),
])
def test_a_result_the_board_does_not_bear_out_is_an_ending_not_recorded(
        result: str, loser: Color | None, how: str) -> None:
    """Such a record once loaded as a game in progress: its result was lost on the way."""
    record = from_json(without_its_ending(result, NO_FIVE))
    assert (record.result, record.termination) == (result, "unknown")
    assert ended_off_the_board(record) == (loser, "unknown")
    assert ending_text(loser, "unknown") == how
    again = from_json(to_json(record))  # saved again, it says so
    assert again == record and '"termination": "unknown"' in to_json(record)
    board = record.to_board()
    assert GameRecord.from_board(board, loser=loser, termination="unknown").result == result


def test_a_result_the_board_bears_out_or_none_is_no_ending_off_the_board() -> None:
    five = [(7, 7), (7, 8), (8, 7), (8, 8), (9, 7), (9, 8), (10, 7), (10, 8), (11, 7)]
    won = from_json(without_its_ending("1-0", five))
    assert (won.termination, ended_off_the_board(won)) == ("", (None, ""))
    going_on = from_json(without_its_ending("*", NO_FIVE))
    assert (going_on.termination, ended_off_the_board(going_on)) == ("", (None, ""))


@pytest.mark.parametrize(("change", "message"), [
    ({"termination": "resigned"},
     "termination 'resigned' is not one of time forfeit, resignation, unknown"),
    ({"termination": "x" * 5000}, "termination 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... is not"),
    ({"termination": "time forfeit", "result": "*"},
     "a game that ends by time forfeit has a result of 1-0 or 0-1, not '\\*'"),
    ({"termination": "resignation", "result": "1/2-1/2"},
     "a game that ends by resignation has a result of 1-0 or 0-1, not '1/2-1/2'"),
    ({"termination": "unknown", "result": "*"},
     "a game that ended in a way not recorded has a result of 1-0, 0-1 or 1/2-1/2, not"),
    ({"clock": "soon"}, "cannot read the clock 'soon'"),
    ({"clock": 5}, "clock must be a text such as '5\\+3'"),
])
def test_a_broken_clock_or_termination_is_refused(change: dict[str, Any], message: str) -> None:
    board = Board(15)
    board.push((7, 7))
    data = json.loads(to_json(GameRecord.from_board(board)))
    with pytest.raises(RecordError, match=message):
        from_json(json.dumps({**data, **change}))


FIVE = [(7, 7), (7, 8), (8, 7), (8, 8), (9, 7), (9, 8), (10, 7), (10, 8), (11, 7)]


@pytest.mark.parametrize(("result", "termination", "message"), [
    ("0-1", "", r"^the result '0-1' is not the board's: black won \(1-0\)$"),
    ("1/2-1/2", "", r"^the result '1/2-1/2' is not the board's: black won \(1-0\)$"),
    ("1-0", "resignation", r"^the game ended on the board \(black won\), not off it: its "
                           r"record has no termination, not 'resignation'$"),
    ("0-1", "time forfeit", r"^the game ended on the board \(black won\), not off it"),
])
def test_a_result_against_a_finished_board_is_refused(result: str, termination: str,
                                                      message: str) -> None:
    """Such a record was read with the result it gave: black's five was white's win."""
    data = json.loads(without_its_ending(result, FIVE))
    with pytest.raises(RecordError, match=message):
        from_json(json.dumps({**data, "termination": termination} if termination else data))


def test_a_finished_board_without_a_result_gets_the_boards() -> None:
    """Read as '*', the game over on the board was a game going on."""
    assert from_json(without_its_ending("*", FIVE)).result == "1-0"


def test_a_record_of_a_finished_game_has_no_loser_off_the_board() -> None:
    """from_board wrote the result the loser gave, which the board contradicts."""
    board = Board(15)
    board.push_many(FIVE)
    with pytest.raises(RecordError, match=r"^the game ended on the board \(black won\), not "
                                          r"off it"):
        GameRecord.from_board(board, loser=Color.BLACK, termination="resignation")


@pytest.mark.parametrize(("change", "message"), [
    ({"black": None}, r"^black must be a text \(the player's name, or '' for none\), got None$"),
    ({"white": 5}, r"^white must be a text \(the player's name, or '' for none\), got 5$"),
])
def test_a_player_who_is_not_named_in_text_is_refused(change: dict[str, Any],
                                                      message: str) -> None:
    """A name of null was read as the name 'None'."""
    data = json.loads(to_json(GameRecord.from_board(Board(15))))
    with pytest.raises(RecordError, match=message):
        from_json(json.dumps({**data, **change}))


@pytest.mark.parametrize(("arguments", "message"), [
    ({"board": None}, r"^board must be a Board, such as Board\(15\), got None$"),
    ({"loser": "white", "termination": "resignation"},
     r"^loser must be Color.BLACK, Color.WHITE or None, got 'white'$"),
    ({"times_ms": "12"}, r"^times_ms must be a list of integers, got '12'$"),
    ({"times_ms": [-1, 5]}, r"^move 1 took -1 ms: a move's time is a whole number of ms from "),
    ({"black": None}, r"^black must be a text"),
    ({"clock": "soon"}, r"^cannot read the clock 'soon'"),
    ({"opening": "swap2"}, r"^opening must be an Opening or None, got 'swap2'$"),
])
def test_a_record_made_of_a_board_takes_only_what_it_can_write_and_read_back(
        arguments: dict[str, Any], message: str) -> None:
    """Each was taken: an AttributeError later, a time of ['1', '2'], a clock or a time of
    -1 ms in a record that could not be read back, a name of None written as null."""
    board = Board(15)
    board.push_many([(7, 7), (8, 8)])
    with pytest.raises(ValueError, match=message):
        GameRecord.from_board(**{"board": board, **arguments})


def test_numpy_times_are_written_as_numbers() -> None:
    """json.dumps refused them: "Object of type int64 is not JSON serializable"."""
    import numpy as np

    board = Board(15)
    board.push_many([(7, 7), (8, 8)])
    record = GameRecord.from_board(board, times_ms=[np.int64(5), np.int32(7)])
    assert from_json(to_json(record)).times_ms == [5, 7]


@pytest.mark.parametrize("name", ["Ann\n8,8,0", "123", "1,2", "a,b", "-2", "5 6"])
def test_a_name_a_psq_file_would_read_as_something_else_is_refused(name: str) -> None:
    """Written as it was, the name read back as a move, an ending code or the other
    player's name: "1,2" became a third move, and "123" gave black white's name."""
    board = Board(15)
    board.push_many([(7, 7), (8, 8)])
    record = GameRecord.from_board(board, black=name, white="Bob")
    with pytest.raises(ValueError, match=r"^a \.psq file cannot hold the name "):
        to_psq(record)
    assert from_json(to_json(record)).black == name  # JSON holds any name


def test_a_blank_name_is_written_as_no_name() -> None:
    """A blank line is skipped on reading, and white's name was read as black's."""
    record = from_psq(to_psq(GameRecord.from_board(Board(15), black="  ", white="Bob")))
    assert (record.black, record.white) == ("", "Bob")


@pytest.mark.parametrize("read", [from_json, from_psq, is_psq])
def test_a_record_is_read_from_text_only(read: Any) -> None:
    """from_json(None) and from_psq(None) were AttributeErrors, bytes a TypeError."""
    with pytest.raises(RecordError, match=r"^a record is read from a str, got None$"):
        read(None)
    with pytest.raises(RecordError, match=r"^a record is read from a str \(decode bytes first\)"):
        read(b"{}")


@pytest.mark.parametrize(("fields", "message"), [
    ({"rule": "renju"}, r"^rule must be a Rule such as Rule.RENJU, got 'renju'"),
    ({"width": "15"}, r"^board width must be an integer, got '15'$"),
    ({"width": 4}, r"^board width 4 is out of range"),
    ({"opening": "swap2"}, r"^opening must be an OpeningRule such as OpeningRule.SWAP2, "
                           r"got 'swap2'$"),
])
def test_a_record_made_by_hand_is_checked(fields: dict[str, Any], message: str) -> None:
    """to_json(GameRecord(rule="renju")) was an AttributeError, and to_psq wrote a board
    of width '15'."""
    with pytest.raises(ValueError, match=message):
        GameRecord(**fields)
