"""Round robins: the ratings fitted to the games, and tournaments of real brains."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from gridgames.cli.main import main
from gridgames.gomoku.match import EngineSpec, MatchConfig, default_opening_moves
from gridgames.gomoku.tournament import PRIOR_DRAWS, ratings, run_tournament

FAKE = Path(__file__).parent / "gomocup" / "fake_brain.py"


def fake(mode: str) -> EngineSpec:
    return EngineSpec(f"fake-{mode}", (sys.executable, str(FAKE), mode))


def _expected(elo: list[float], i: int, j: int) -> float:
    return 1 / (1 + 10 ** ((elo[j] - elo[i]) / 400))


def test_the_ratings_are_the_maximum_likelihood_fit_with_a_draw_added_to_each_pairing() -> None:
    points = [[0, 7, 9.5, 2], [3, 0, 6, 1], [0.5, 4, 0, 0], [8, 9, 10, 0]]
    games = [[0, 10, 10, 10], [10, 0, 10, 10], [10, 10, 0, 10], [10, 10, 10, 0]]
    elo = ratings(points, games)
    assert abs(sum(elo)) < 0.5
    assert sorted(range(4), key=lambda i: -elo[i]) == [3, 0, 1, 2]
    # at the maximum each engine's expected points equal its points (the draws added too)
    for i in range(4):
        expected = sum((games[i][j] + PRIOR_DRAWS) * _expected(elo, i, j)
                       for j in range(4) if j != i)
        actual = sum(points[i]) + 3 * PRIOR_DRAWS / 2
        assert math.isclose(expected, actual, abs_tol=0.02)


def test_a_clean_sweep_has_a_finite_rating_and_equal_engines_rate_alike() -> None:
    assert ratings([[0, 10], [0, 0]], [[0, 10], [10, 0]]) == [-x for x in
                                                             ratings([[0, 0], [10, 0]],
                                                                     [[0, 10], [10, 0]])]
    sweep = ratings([[0, 10], [0, 0]], [[0, 10], [10, 0]])
    # 10 wins and the added draw: 10.5 of 11
    assert math.isclose(sweep[0] - sweep[1], 400 * math.log10(10.5 / 0.5), abs_tol=0.2)
    assert ratings([[0, 5, 5], [5, 0, 5], [5, 5, 0]],
                   [[0, 10, 10], [10, 0, 10], [10, 10, 0]]) == [0.0, 0.0, 0.0]


def test_every_engine_meets_every_other_on_the_same_openings(tmp_path: Path) -> None:
    settings = MatchConfig((fake("good"), fake("good")), games=4, width=9, height=9,
                           openings=default_opening_moves(9, 9), concurrency=2,
                           out_dir=tmp_path)
    seen: list[tuple[int, int]] = []
    report = run_tournament([fake("good"), fake("good"), fake("crash")], settings,
                            on_match=lambda pair, _: seen.append(pair))
    assert [spec.name for spec in report.engines] == ["fake-good", "fake-good (2)", "fake-crash"]
    assert seen == [(0, 1), (0, 2), (1, 2)]
    points, games = report.points(), report.games()
    for i in range(3):
        for j in range(3):
            assert points[i][j] + points[j][i] == games[i][j] == (0 if i == j else 4)
    # the engine that crashes on its first move scores nothing and rates last
    assert sum(points[2]) == 0
    openings = {pair: sorted((r.number, r.opening) for r in match.results)
                for pair, match in report.matches.items()}
    assert openings[(0, 1)] == openings[(0, 2)] == openings[(1, 2)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["1-2", "1-3", "2-3"]
    assert all(len(list((tmp_path / name).glob("*.psq"))) == 4 for name in ("1-2", "1-3", "2-3"))
    lines = report.standings_lines()
    assert lines[-1].startswith("fake-crash") and "0/4" in lines[-1]
    assert lines[3].split()[:2] == ["3", "fake-crash"]


def test_the_command_plays_a_round_robin_of_our_levels(capsys) -> None:
    code = main(["tournament", "level:1", "level:2", "level:2", "--games", "2", "--size", "11",
                 "--time-ms", "300", "--concurrency", "2"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("Tournament of 3 engines: 3 pairings of 2 games, freestyle 11x11")
    assert out.count("Game ") == 6 and "Standings after 6 games:" in out
    assert "level:2 (2)" in out and "Crosstable" in out


@pytest.mark.parametrize(("args", "message"), [
    (["level:1"], "a tournament needs two engines or more, got 1"),
    (["level:1", "level:9"], "level"),
])
def test_bad_tournaments_are_refused_by_name(capsys, args: list[str], message: str) -> None:
    assert main(["tournament", *args]) == 2
    assert message in capsys.readouterr().err


def test_a_tournament_board_out_of_range_is_refused_by_its_option(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", "level:1", "level:2", "--size", "3"])
    assert exit_.value.code == 2
    assert "argument --size: must be a whole number from 5 to 64, got 3" in capsys.readouterr().err


def test_a_pairing_folder_that_cannot_be_made_is_refused_before_any_game(
        tmp_path: Path) -> None:
    """Once a raw FileExistsError at the start of that pairing, after the others' games."""
    (tmp_path / "1-3").write_text("not a folder")
    settings = MatchConfig((fake("good"), fake("good")), games=2, width=9, height=9,
                           out_dir=tmp_path)
    played: list[int] = []
    with pytest.raises(ValueError, match=r"--out .*1-3: that is a file, not a folder"):
        run_tournament([fake("good"), fake("good"), fake("good")], settings,
                       on_game=lambda pair, result, stats: played.append(result.number))
    assert played == []
