"""``gridgames match`` and ``gridgames tournament`` refusing a bad --out before any game,
run as commands."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

GAMES = ["level:1", "level:1", "--size", "9", "--games", "2", "--time-ms", "100"]


def run(command: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gridgames.cli.main", command, *args],
                          capture_output=True, text=True, timeout=120, cwd=cwd)


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_an_out_that_is_a_file_is_refused(tmp_path: Path, command: str) -> None:
    (tmp_path / "somefile.psq").write_text("Piskvorky 15x15, 0:0, 0\n")
    result = run(command, *GAMES, "--out", "somefile.psq", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (f"gridgames {command}: --out somefile.psq: that is a file, not a "
                             "folder; give a folder for the games' .psq records (it is made "
                             "if missing)\n")
    assert result.stdout == ""  # refused before the first game


def test_an_out_under_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "somefile").write_text("")
    result = run("match", *GAMES, "--out", "somefile/games", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == ("gridgames match: --out somefile/games: cannot make that folder "
                             "for the games' records: Not a directory\n")


def test_an_out_folder_is_made_before_the_games(tmp_path: Path) -> None:
    result = run("match", *GAMES, "--out", "new/games", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "new" / "games").iterdir()) == [
        "game-0001.psq", "game-0002.psq"]
