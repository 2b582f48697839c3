"""benchmarks/proof_speed.py, run as a script with our brain proving the positions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PROOF_SPEED = Path(__file__).parents[2] / "benchmarks" / "proof_speed.py"
BRAIN = f"{sys.executable} -m gridgames.gomoku.gomocup.brain"
BRAIN_NAME = Path(sys.executable).name  # a brain goes by its program's file name

# Black, to play its 4th stone, makes an open four; after it white is lost.
MISSED_BLOCK = [[7, 7], [0, 0], [7, 8], [0, 2], [7, 9], [0, 4], [7, 10], [0, 6], [7, 11]]
# After 7 stones white must block black's four at (7, 11), its only move.
ONE_BLOCK = [[7, 7], [7, 6], [7, 8], [0, 0], [7, 9], [0, 2], [7, 10], [7, 11]]
DECIDED = 1_000_000.0


def judged_game(name: str, claims: dict[int, float], other: dict[int, float],
                moves: list[list[int]] = MISSED_BLOCK) -> dict:
    """A game as judged_games.py writes it, judges "claimer" and "other" scoring the
    positions given (by stones on the board), 0 elsewhere after the 2-stone opening."""
    def scores(given: dict[int, float]) -> list[float | None]:
        return [None, None] + [given.get(ply, 0.0) for ply in range(2, len(moves))]
    return {"path": name, "black": "a", "white": "b", "width": 15, "height": 15,
            "rule": "freestyle", "moves": moves, "opening": 2, "result": 1.0,
            "forced": [], "scores": {"claimer": scores(claims), "other": scores(other)}}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(PROOF_SPEED), *args], capture_output=True,
                          text=True, timeout=300)


def test_the_first_result_each_game_the_judge_alone_reported_is_proved_and_timed(
        tmp_path: Path) -> None:
    games = [
        # black to play its open four: a win, seen by "claimer" alone
        judged_game("win", {6: DECIDED, 7: -DECIDED}, {7: -DECIDED}),
        # white to play against an open four: lost, but claimed as won (a wrong claim)
        judged_game("wrong", {7: DECIDED}, {}),
        # a wrong claim where our brain plays the only move at once, reporting nothing
        judged_game("only move", {7: DECIDED}, {}, ONE_BLOCK),
        # both judges saw the first forced result: nothing to prove
        judged_game("both", {4: DECIDED, 7: -DECIDED}, {4: DECIDED}),
        judged_game("none", {}, {}),
    ]
    judged = tmp_path / "judged.json"
    judged.write_text(json.dumps({"games": games, "tables": []}))
    out = tmp_path / "proofs.json"
    done = run(str(judged), "--judge", "claimer", "--unproved-by", "other", "--brain", BRAIN,
               "--ms", "1000", "--json", str(out))
    assert done.returncode == 0, done.stderr
    written = json.loads(out.read_text())
    by_path = {p["path"]: p for p in written["positions"]}
    assert set(by_path) == {"win", "wrong", "only move"}
    assert len(by_path["win"]["moves"]) == 6 and by_path["win"]["result"] == "win"
    win = by_path["win"]["proofs"][BRAIN_NAME]
    assert win["contradicted"] is False and 0 <= win["ms"] <= 1000
    wrong = by_path["wrong"]["proofs"][BRAIN_NAME]
    assert wrong["ms"] is None and wrong["contradicted"] is True
    only = by_path["only move"]["proofs"][BRAIN_NAME]
    assert only["ms"] is None and only["contradicted"] is False and only["moved_ms"] < 500
    row = written["summary"][0]
    assert (row["brain"], row["positions"], row["proved"], row["contradicted"],
            row["moved_early"]) == (BRAIN_NAME, 3, 1, 1, 1)
    assert row["within_ms"]["1000"] == 1 and "2000" not in row["within_ms"]
    assert f"{BRAIN_NAME}: proved 1 of 3" in done.stdout


def test_bad_requests_are_refused_with_what_is_wanted(tmp_path: Path) -> None:
    judged = tmp_path / "judged.json"
    judged.write_text(json.dumps({"games": [judged_game("none", {}, {})]}))
    refused = run(str(judged), "--judge", "nobody", "--brain", BRAIN)
    assert refused.returncode == 2 and "no judge 'nobody'" in refused.stderr
    refused = run(str(judged), "--judge", "claimer", "--brain", BRAIN)
    assert refused.returncode == 2 and "no forced result" in refused.stderr
    refused = run(str(judged), "--judge", "claimer", "--brain", BRAIN, "--brain", BRAIN)
    assert refused.returncode == 2 and "same name" in refused.stderr
    refused = run(str(tmp_path / "missing.json"), "--judge", "claimer", "--brain", BRAIN)
    assert refused.returncode == 2 and "cannot read judged games" in refused.stderr
    judged.write_text(json.dumps({"games": [{"scores": {"claimer": [DECIDED]}}]}))
    refused = run(str(judged), "--judge", "claimer", "--brain", BRAIN)
    assert refused.returncode == 2 and "not what judged_games.py writes" in refused.stderr
