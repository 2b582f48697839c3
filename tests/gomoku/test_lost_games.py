"""benchmarks/lost_games.py, run as a script on match records: where each lost game was decided."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from gridgames.gomoku.records import GameRecord, save

LOST_GAMES = Path(__file__).parents[2] / "benchmarks" / "lost_games.py"

# A 1 s game of ours (black) against another engine: white's 7th stone, (6, 7), made no
# four and no open three, yet every reply of black then lost to white's fours and threes.
QUIET_WIN = [(7, 7), (8, 8), (4, 5), (8, 9), (8, 10), (9, 8), (7, 9), (9, 11), (10, 8),
             (7, 8), (10, 11), (8, 7), (6, 9), (6, 7), (9, 9), (5, 8), (6, 8), (8, 5),
             (8, 6), (7, 6), (4, 9), (9, 4)]
# White ignores black's open three (black's 3rd stone), which a block would have stopped.
MISSED_BLOCK = [(7, 7), (0, 0), (7, 8), (0, 2), (7, 9), (0, 4), (7, 10), (0, 6), (7, 11)]


def test_the_lost_games_are_sorted_by_how_they_were_decided(tmp_path: Path) -> None:
    games = [(QUIET_WIN, "gridgames", "other"), (MISSED_BLOCK, "other", "gridgames"),
             (MISSED_BLOCK, "gridgames", "other")]  # the last one won: not counted
    for number, (moves, black, white) in enumerate(games, start=1):
        save(GameRecord(moves=list(moves), black=black, white=white),
             tmp_path / f"game-{number:04d}.psq")
    out = tmp_path / "lost.json"
    done = subprocess.run([sys.executable, str(LOST_GAMES), str(tmp_path), "--engine",
                           "gridgames", "--ms", "100", "--json", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    found = json.loads(out.read_text())
    by_number = {Path(game["path"]).name: game for game in found["games"]}
    assert sorted(by_number) == ["game-0001.psq", "game-0002.psq"]
    quiet = by_number["game-0001.psq"]
    assert quiet["kind"] == "winning free move" and quiet["quiet"] is True
    assert (quiet["threat_from"], quiet["moves"]) == (15, 22)
    missed = by_number["game-0002.psq"]
    assert missed["kind"] == "missed defence" and missed["threat_from"] == 6
    assert found["summary"]["kinds"] == {"winning free move": 1, "missed defence": 1,
                                         "no threat found": 0}
    assert "2 games lost by gridgames" in done.stdout
    refused = subprocess.run([sys.executable, str(LOST_GAMES), str(tmp_path / "none"),
                              "--engine", "gridgames"], capture_output=True, text=True,
                             timeout=60)
    assert refused.returncode == 2 and "is not a folder" in refused.stderr
