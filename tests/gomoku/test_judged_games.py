"""benchmarks/judged_games.py, run as a script on match records with our brain as the judge."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from gridgames.gomoku.records import GameRecord, save

JUDGED_GAMES = Path(__file__).parents[2] / "benchmarks" / "judged_games.py"
JUDGE = f"{sys.executable} -m gridgames.gomoku.gomocup.brain"
JUDGE_NAME = Path(sys.executable).name  # a judge goes by its program's file name

# White ignores black's open three (black's 3rd stone); black's 5th stone makes five.
MISSED_BLOCK = [(7, 7), (0, 0), (7, 8), (0, 2), (7, 9), (0, 4), (7, 10), (0, 6), (7, 11)]
# White's 7th stone, (6, 7), leaves every reply of black lost to white's threats.
QUIET_WIN = [(7, 7), (8, 8), (4, 5), (8, 9), (8, 10), (9, 8), (7, 9), (9, 11), (10, 8),
             (7, 8), (10, 11), (8, 7), (6, 9), (6, 7), (9, 9), (5, 8), (6, 8), (8, 5),
             (8, 6), (7, 6), (4, 9), (9, 4)]
OPENING = 2  # stones placed before the engines' first move (a time of 0)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(JUDGED_GAMES), *args], capture_output=True,
                          text=True, timeout=600)


def test_a_judge_scores_every_position_after_the_opening_and_the_tables_follow(
        tmp_path: Path) -> None:
    games = [(MISSED_BLOCK, "gridgames", "other"),  # won as black
             (MISSED_BLOCK, "other", "gridgames"),  # lost as white
             (QUIET_WIN, "gridgames", "other")]  # lost as black
    for number, (moves, black, white) in enumerate(games, start=1):
        times = [0] * OPENING + [20] * (len(moves) - OPENING)
        save(GameRecord(moves=list(moves), black=black, white=white, times_ms=times),
             tmp_path / f"game-{number:04d}.psq")
    out = tmp_path / "judged.json"
    done = run(str(tmp_path), "--engine", "gridgames", "--judge", JUDGE, "--ms", "100",
               "--json", str(out))
    assert done.returncode == 0, done.stderr
    written = json.loads(out.read_text())
    by_name = {Path(game["path"]).name: game for game in written["games"]}
    for game in by_name.values():
        assert game["opening"] == OPENING
        scores = game["scores"][JUDGE_NAME]
        assert len(scores) == len(game["moves"])
        assert scores[:OPENING] == [None] * OPENING
        assert sum(s is not None for s in scores[OPENING:]) >= len(scores) - OPENING - 2
    # white's fours at stones 16 and 18 leave black one answer each: not judged
    quiet_win = by_name["game-0003.psq"]
    assert quiet_win["forced"] == [16, 18]
    assert [quiet_win["scores"][JUDGE_NAME][ply] for ply in (16, 18)] == [None, None]
    # black to play its fifth stone with an open four: a forced win, for the side to move
    assert by_name["game-0001.psq"]["scores"][JUDGE_NAME][-1] >= 1_000_000
    table = written["tables"][0]
    assert table["judge"] == JUDGE_NAME
    assert table["score"] == {"black": 0.5, "white": 0.0}
    chances = table["chance_after_opening"]
    assert {int(k) for k in chances["black"]} >= {0, 2, 4, 6} and "0" in chances["white"]
    assert all(0.0 <= mean <= 1.0 for row in chances.values() for mean, _ in row.values())
    assert {row["side"] for row in table["cost_per_move"]} == {"engine", "opponent"}
    assert all(row["log_loss"] > 0 for row in table["log_loss"])
    assert f"judge {JUDGE_NAME}" in done.stdout and "as black 0.500, as white 0.000" in done.stdout

    again = run("--from", str(out), "--engine", "gridgames")
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() == done.stdout[done.stdout.index("\njudge"):].strip()


def test_bad_requests_are_refused_with_what_is_wanted(tmp_path: Path) -> None:
    refused = run(str(tmp_path), "--engine", "gridgames")
    assert refused.returncode == 2 and "at least one --judge" in refused.stderr
    refused = run(str(tmp_path / "none"), "--engine", "gridgames", "--judge", JUDGE)
    assert refused.returncode == 2 and "is not a folder" in refused.stderr
    refused = run(str(tmp_path), "--engine", "gridgames", "--judge", JUDGE, "--judge", JUDGE)
    assert refused.returncode == 2 and "same name" in refused.stderr
    save(GameRecord(moves=MISSED_BLOCK, black="gridgames", white="other"),
         tmp_path / "game-0001.psq")
    refused = run(str(tmp_path), "--engine", "gridgames", "--judge", str(tmp_path / "nobrain"))
    assert refused.returncode == 1 and "the judge" in refused.stderr and "failed" in refused.stderr
    assert "Traceback" not in refused.stderr
    (tmp_path / "judged.json").write_text('{"games": []}')
    refused = run("--from", str(tmp_path / "judged.json"), "--engine", "gridgames")
    assert refused.returncode == 2 and "no judged game of 'gridgames'" in refused.stderr
    (tmp_path / "short.json").write_text('{"games": [{"width": 15}]}')
    refused = run("--from", str(tmp_path / "short.json"), "--engine", "gridgames")
    assert refused.returncode == 2 and "no 'height' given" in refused.stderr
    (tmp_path / "broken.json").write_text("[1, 2")
    refused = run("--from", str(tmp_path / "broken.json"), "--engine", "gridgames")
    assert refused.returncode == 2 and "cannot read games from" in refused.stderr
