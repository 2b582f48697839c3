"""Engine matches on a local Ray cluster: the same games as on one machine, SPRT stops that
cancel what is left, and a node lost in mid-match."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from gridgames.cluster import connect
from gridgames.cluster.local import LocalCluster
from gridgames.cluster.match import run_match as run_on_cluster
from gridgames.gomoku.match import (
    EngineSpec,
    GameResult,
    MatchConfig,
    MatchReport,
    Sprt,
    default_opening_moves,
    run_match,
    schedule,
)
from gridgames.gomoku.records import load

FAKE = Path(__file__).parents[1] / "gomoku" / "gomocup" / "fake_brain.py"


def fake_brain(folder: Path, mode: str, *args: object) -> EngineSpec:
    """The scripted test brain, copied to a file of its own so its processes can be found."""
    script = folder / f"fake-{mode}-brain.py"
    shutil.copy(FAKE, script)
    return EngineSpec(f"fake-{mode}", (sys.executable, str(script), mode, *map(str, args)))


def running(marker: str) -> list[int]:
    """The live processes whose command line contains ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def test_four_games_of_our_levels(cluster: LocalCluster, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gridgames.cli.main", "match", "level:1", "level:2",
         "--games", "4", "--size", "9", "--time-ms", "1000", "--seed", "3",
         "--out", str(tmp_path), "--cluster", cluster.address],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    progress = [line for line in lines if line.startswith("  Score of")]
    assert [line.split("] ")[1].split(",")[0] for line in progress] == ["1/4", "2/4", "3/4", "4/4"]
    assert all(", Elo " in line and "(95% " in line for line in progress)
    # The seed gives the openings and colours it gives on one machine.
    config = MatchConfig((EngineSpec.parse("level:1"), EngineSpec.parse("level:2")), games=4,
                         width=9, height=9, openings=default_opening_moves(9, 9), seed=3)
    points = 0.0
    for number, opening, black in schedule(config):
        record = load(tmp_path / f"game-{number:04d}.psq")
        assert tuple(record.moves[:len(opening)]) == opening
        assert (record.black, record.white) == (config.engines[black].name,
                                                config.engines[1 - black].name)
        assert record.to_board().is_game_over()
        black_won = record.result == "1-0"
        points += 0.5 if record.result == "1/2-1/2" else float(black_won == (black == 0))
    final = lines[lines.index(progress[-1]) + 1]
    assert final.startswith("Score of level:1 vs level:2: ") and final.endswith(" 4")
    wins, losses, draws = (int(word) for word in final.split(": ")[1].split(" [")[0].split(" - "))
    assert wins + draws / 2 == points and wins + losses + draws == 4
    assert any(line.startswith("Elo difference: ") for line in lines)


def test_the_same_games_and_totals_as_on_one_machine(cluster: LocalCluster,
                                                     tmp_path: Path) -> None:
    # The scripted brains are deterministic, so each game must come out move for move
    # the same; the openings and colours come from the seed.
    good, slow = fake_brain(tmp_path, "good"), fake_brain(tmp_path, "slow", 10)
    config = MatchConfig((good, slow), games=6, width=9, height=7,
                         openings=default_opening_moves(9, 7), seed=11, concurrency=2)
    local = run_match(config)
    remote = run_on_cluster(config, cluster.address)
    assert [(r.number, r.opening, r.black, r.record.moves, r.result) for r in remote.results] == [
        (r.number, r.opening, r.black, r.record.moves, r.result) for r in local.results]
    assert remote.stats == local.stats
    assert remote.summary_lines() == local.summary_lines()


def test_sprt_stops_and_cancels_the_games_left(cluster: LocalCluster, tmp_path: Path) -> None:
    spec = fake_brain(tmp_path, "slow", 300)  # several seconds a game
    # Loose error rates: the test decides after a few games, with games still running.
    config = MatchConfig((spec, spec), games=40, width=9, height=9,
                         openings=default_opening_moves(9, 9), sprt=Sprt(0, 400, 0.4, 0.4),
                         seed=1, out_dir=tmp_path / "games")
    counted: list[GameResult] = []
    # The connection stays open after the match (the job goes on, as in a caller's own
    # program), so only cancelling can stop the games that are left.
    with connect(cluster.address):
        report = run_on_cluster(config, cluster.address,
                                on_game=lambda result, stats: counted.append(result))
        returned = time.monotonic()
        shortest_s = min(sum(result.record.times_ms or [0]) for result in counted) / 1000
        # a killed worker's brains go within seconds, if the machine is busy a few
        wait_s = min(shortest_s * 0.9, max(shortest_s / 2, 5.0))
        while running(spec.argv[1]) and time.monotonic() < returned + wait_s:
            time.sleep(0.1)
        left = running(spec.argv[1])
    assert report.stopped_early and report.sprt_result == "H0"
    assert len(report.results) < 40 and len(counted) == len(report.results)
    assert len(list((tmp_path / "games").glob("*.psq"))) == len(report.results)
    # The game still being played at the decision was cancelled, its brains ended, well
    # before it could have finished.
    assert shortest_s > 3
    assert left == []


def test_a_lost_node_costs_no_game_and_counts_none_twice(cluster: LocalCluster,
                                                         tmp_path: Path) -> None:
    spec = fake_brain(tmp_path, "slow", 50)
    config = MatchConfig((spec, spec), games=6, width=9, height=9,
                         openings=default_opening_moves(9, 9), seed=2)
    node = cluster.add_node(cpus=2)
    replays: list[int] = []
    counted: list[GameResult] = []
    outcome: dict[str, object] = {}

    def play() -> None:
        try:
            outcome["report"] = run_on_cluster(
                config, cluster.address, on_game=lambda result, _: counted.append(result),
                on_replay=lambda number, _: replays.append(number))
        except BaseException as error:
            outcome["error"] = error

    match = threading.Thread(target=play)
    match.start()
    try:
        # Wait until a game is being played on the second node, then take the node away.
        deadline = time.monotonic() + 60
        while not any(spec.argv[1] in command for _, command in node.processes()):
            assert time.monotonic() < deadline, "no game ever ran on the second node"
            assert match.is_alive(), outcome
            time.sleep(0.1)
        node.kill()
    finally:
        match.join(timeout=240)
    assert "error" not in outcome, outcome.get("error")
    report = outcome["report"]
    assert isinstance(report, MatchReport)
    assert replays, "the node was killed in mid-game, so a game must have been played again"
    assert sorted(result.number for result in counted) == list(range(1, 7))
    assert [result.number for result in report.results] == list(range(1, 7))
    assert report.stats.games == 6
    for result in report.results:  # finished games only: none cut short by the lost node
        assert not result.errors, result.reason
        assert result.record.to_board().is_game_over()
