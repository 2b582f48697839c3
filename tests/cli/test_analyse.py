"""``gridgames analyse`` end to end: the real program in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gridgames.gomoku import Board
from gridgames.gomoku.notation import parse_position
from gridgames.gomoku.records import GameRecord, save
from review_game import BLUNDER, BLUNDER_PLY, IGNORED_THREE

PROGRAM = [sys.executable, "-m", "gridgames.cli.main", "analyse"]
LABELS = {"best", "good", "inaccuracy", "mistake", "blunder", "forced"}


def run(*args: str, cwd: Path, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PROGRAM, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env=env)


@pytest.fixture
def psq(tmp_path: Path) -> Path:
    board = Board(15)
    board.push_many(parse_position(IGNORED_THREE, 15, 15))
    path = tmp_path / "game.psq"
    save(GameRecord.from_board(board), path)
    return path


def test_table_labels_the_ignored_open_three_a_blunder(psq, tmp_path):
    result = run(str(psq), "--depth", "5", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["#", "player", "move", "eval", "best", "loss", "label"]
    rows = {int(line.split()[0]): line.split() for line in lines[1:14]}
    assert rows[BLUNDER_PLY][1:3] == ["white", BLUNDER] and rows[BLUNDER_PLY][-1] == "blunder"
    assert rows[BLUNDER_PLY][3].startswith("B#")  # black now has a forced win
    for ply in range(1, 14, 2):
        assert rows[ply][1] == "black" and rows[ply][-1] in ("best", "good", "forced")
    assert rows[13][3:5] == ["B", "wins"]
    summary = {line.split()[0]: line.split() for line in lines[15:]}
    assert summary["white"][-1] == "1" and summary["black"][-1] == "0"
    assert float(summary["black"][1]) > float(summary["white"][1])


def test_json_shape_from_a_position_string(tmp_path):
    result = run(IGNORED_THREE, "--json", "--time-ms", "100", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) >= {"moves", "summary"}
    assert set(data["summary"]) == {"black", "white"}
    assert {"accuracy", "inaccuracies", "mistakes", "blunders"} <= set(data["summary"]["black"])
    moves = data["moves"]
    assert [m["ply"] for m in moves] == list(range(1, 14))
    assert [m["color"] for m in moves] == ["black", "white"] * 6 + ["black"]
    played = [m["move"] for m in moves]
    assert "".join(played) == IGNORED_THREE
    for move in moves:
        assert isinstance(move["score"], int) and move["label"] in LABELS
        assert isinstance(move["best"], str)
    blunder = moves[BLUNDER_PLY - 1]
    assert blunder["move"] == BLUNDER and blunder["label"] == "blunder" and blunder["score"] > 20000
    assert moves[-1]["score"] == 30000


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG\r\n\x1a\n"), (".svg", b"<?xml")])
def test_plot_writes_a_real_image(psq, tmp_path, suffix, magic):
    target = tmp_path / f"review{suffix}"
    result = run(str(psq), "--depth", "3", "--plot", str(target), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = target.read_bytes()
    assert data.startswith(magic) and len(data) > 1000
    if suffix == ".svg":
        assert b"<svg" in data


def test_plot_without_matplotlib_says_how_to_install_it(psq, tmp_path):
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "matplotlib.py").write_text("raise ImportError('not installed')\n")
    env = {**os.environ, "PYTHONPATH": str(blocker)}
    result = run(str(psq), "--depth", "2", "--plot", str(tmp_path / "x.png"), cwd=tmp_path,
                 env=env)
    assert result.returncode == 2
    assert "pip install 'gridgames[plot]'" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("args, message", [
    (["missing.psq"], "cannot read the record missing.psq: there is no such file"),
    (["h8h8"], "'h8h8': move 2 is not legal: h8 is occupied"),
    (["h8z99"], "neither a record file nor a position string"),
    (["h8i9", "--rule", "gomoku-9"], "unknown rule 'gomoku-9'; allowed: freestyle"),
    (["h8i9", "--plot", "graph.pdf"], "must end in .png or .svg"),
    (["h8i9", "--time-ms", "0"],
     "argument --time-ms: must be a whole number from 1 to 2147483647, got 0"),
    (["h8i9", "--depth", "0"], "argument --depth: must be a whole number from 1 to 20, got 0"),
    (["h8i9", "--depth", "deep"],
     "argument --depth: must be a whole number from 1 to 20, got 'deep'"),
    # once tracebacks: a board size out of range, and an empty RECORD read as the folder '.'
    (["h8i9", "--size", "4"], "argument --size: must be a whole number from 5 to 64, got 4"),
    (["h8i9", "--size", "0"], "argument --size: must be a whole number from 5 to 64, got 0"),
    ([""], "RECORD is empty: give a .psq or JSON record file, or a position string"),
    (["h8i9", "--depth", "1000", "--time-ms", "100"], "argument --depth: must be a whole "
                                                      "number from 1 to 20, got 1000"),
])
def test_bad_input_exits_2_with_a_message(tmp_path, args, message):
    result = run(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_an_unreadable_record_file(tmp_path):
    (tmp_path / "bad.json").write_text('{"width": 15, "moves": [[7, 7], [7, 7]]}')
    result = run("bad.json", cwd=tmp_path)
    assert result.returncode == 2
    assert "move 2 is not legal" in result.stderr and "Traceback" not in result.stderr


def test_a_position_string_too_long_for_a_file_name_is_read_as_a_position(tmp_path):
    # 260 characters: more than a file name may have, so asking whether it is a file fails
    moves = "h8i9j10h9i8j8g10g8j9g7f7g9f10f9e9f8e8h10h11d10c11e10e7i12d12k12h12g12e12f12" * 4
    position = moves[:258] + "h8"
    assert len(position) > 255
    result = run(position, "--depth", "1", cwd=tmp_path)
    assert "Traceback" not in result.stderr and "File name too long" not in result.stderr
    assert result.returncode == 2  # the string repeats its stones: its first repeat is named
    assert "is not legal: " in result.stderr
    assert len(result.stderr.splitlines()) == 1 and len(result.stderr) < 300


def test_depth_and_time_together_stop_at_whichever_comes_first(tmp_path):
    result = run("h8i9", "--depth", "20", "--time-ms", "50", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert ("each position is searched to depth 20 or for 50 ms, whichever comes first"
            in result.stderr)
    assert result.stdout.splitlines()[0].split()[:3] == ["#", "player", "move"]
