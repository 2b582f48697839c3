"""Matches: the statistics, the judge (with the scripted fake brain) and a real short match."""

from __future__ import annotations

import argparse
import json
import math
import re
import shutil
import statistics
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from gridgames.cli.main import main
from gridgames.gomoku import Board, Rule
from gridgames.gomoku.gomocup import Engine, EngineStartError
from gridgames.gomoku.gomocup import client as client_module
from gridgames.gomoku.match import (
    MAX_CONCURRENCY,
    MAX_GAMES,
    MAX_NODES,
    MAX_TIME_MS,
    PAIRS_NEEDED,
    EngineSpec,
    GameResult,
    MatchConfig,
    MatchStats,
    Sprt,
    default_opening_moves,
    elo_from_score,
    play_game,
    read_openings,
    run_match,
    schedule,
    score_from_elo,
)
from gridgames.gomoku.notation import parse_position
from gridgames.gomoku.records import interrupted_saves, load, save
from process_state import running

FAKE = Path(__file__).parent / "gomocup" / "fake_brain.py"


def fake(mode: str, *args: object) -> EngineSpec:
    return EngineSpec(f"fake-{mode}", (sys.executable, str(FAKE), mode, *map(str, args)))


# -- statistics against known values ----------------------------------------------------


@pytest.mark.parametrize(("score", "elo"), [(0.5, 0.0), (0.75, 190.849), (0.25, -190.849),
                                            (10 / 11, 400.0), (0.64, 99.95)])
def test_elo_from_score(score: float, elo: float) -> None:
    assert elo_from_score(score) == pytest.approx(elo, abs=1e-3)
    assert score_from_elo(elo) == pytest.approx(score, abs=1e-5)


def test_elo_extremes() -> None:
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    assert MatchStats(wins=3).elo_error == math.inf


def test_error_bar_matches_a_hand_computation() -> None:
    # 30-20-10: score 35/60; per-game variance (30*(25/60)^2 + 10*(5/60)^2 + 20*(35/60)^2)/60
    # = 0.2013889; standard error sqrt(0.2013889/60) = 0.0579351; 95% bounds
    # 0.5833333 -+ 1.959964*0.0579351 = 0.4697825 .. 0.6968841, i.e. -21.023 .. +144.621 Elo.
    stats = MatchStats(wins=30, losses=20, draws=10)
    assert stats.elo == pytest.approx(58.45, abs=0.01)
    assert stats.elo_error == pytest.approx((144.621 + 21.023) / 2, abs=0.002)
    low, high = stats.elo_interval
    assert low == pytest.approx(-21.023, abs=0.002) and high == pytest.approx(144.621, abs=0.002)


def test_a_lopsided_score_keeps_its_finite_bound() -> None:
    # 2-18: score 0.1, standard error sqrt(0.09/20) = 0.0670820; bounds
    # 0.1 -+ 0.1314782: the lower one is below 0 (-inf Elo), the upper 0.2314782 is -208.458.
    low, high = MatchStats(wins=2, losses=18).elo_interval
    assert low == -math.inf and high == pytest.approx(-208.458, abs=0.002)
    assert MatchStats(wins=2, losses=18).elo_error == math.inf


def test_all_draws_have_no_spread() -> None:
    stats = MatchStats(draws=10)
    assert stats.elo == 0 and stats.elo_error == 0


def test_sprt_bounds_and_llr() -> None:
    sprt = Sprt(0, 10)
    assert sprt.bounds == pytest.approx((-math.log(19), math.log(19)))
    # 600-400-0 with elo0=0, elo1=10: s=0.6, per-game variance 0.24, s1=0.5143868;
    # LLR = 1000 * 0.0143868 * (1.2 - 1.0143868) / (2 * 0.24) = 5.5634
    assert sprt.llr(MatchStats(600, 400, 0)) == pytest.approx(5.5634, abs=1e-3)
    assert sprt.status(MatchStats(600, 400, 0)) == "H1"
    assert sprt.status(MatchStats(400, 600, 0)) == "H0"
    assert sprt.llr(MatchStats(5, 0, 0)) == 0.0  # no variance yet


def test_pairs_narrow_the_interval_as_computed_by_hand() -> None:
    # 60-40-20 as 60 pairs: 4 scored 0 points, 4 scored 1/2, 28 scored 1, 16 scored
    # 1 1/2 and 8 scored 2. A pair's mean score is 0, 1/4, 1/2, 3/4 or 1; their mean is
    # 70/120 and their variance (4*(7/12)^2 + 4*(1/3)^2 + 28*(1/12)^2 + 16*(1/6)^2
    # + 8*(5/12)^2)/60 = 0.0638889; standard error sqrt(0.0638889/60) = 0.0326313; 95%
    # bounds 0.5833333 -+ 0.0639566 = 0.5193767 .. 0.6472899: +13.471 .. +105.472 Elo.
    # Counted one by one (per-game variance 0.2013889 as in the 30-20-10 above, over 120
    # games) the same games give 0.5030397 .. 0.6636270: +2.113 .. +118.040.
    stats = MatchStats(wins=60, losses=40, draws=20, pairs=[4, 4, 28, 16, 8])
    assert stats.by_pairs
    low, high = stats.elo_interval
    assert low == pytest.approx(13.471, abs=0.002) and high == pytest.approx(105.472, abs=0.002)
    low, high = MatchStats(wins=60, losses=40, draws=20).elo_interval
    assert low == pytest.approx(2.113, abs=0.002) and high == pytest.approx(118.040, abs=0.002)
    assert stats.elo == pytest.approx(58.45, abs=0.01)  # the score is still over the games


def test_too_few_pairs_or_pairs_all_alike_leave_the_games_counted_one_by_one() -> None:
    spread = [1, 0, PAIRS_NEEDED - 4, 0, 2]  # one pair short of the pairs needed
    assert not MatchStats(PAIRS_NEEDED, PAIRS_NEEDED - 2, pairs=spread).by_pairs
    spread[2] += 1
    assert MatchStats(PAIRS_NEEDED + 1, PAIRS_NEEDED - 1, pairs=spread).by_pairs
    # every opening won by its black: no spread between pairs to estimate a variance from
    stats = MatchStats(wins=50, losses=50, pairs=[0, 0, 50, 0, 0])
    assert not stats.by_pairs
    assert stats.elo_interval == MatchStats(wins=50, losses=50).elo_interval


def test_sprt_over_pairs() -> None:
    # 600-400-0 as 500 pairs: 400 split 1-1, 100 won twice. A pair's mean score is 1/2 or 1,
    # their mean 0.6 and variance (400*0.1^2 + 100*0.4^2)/500 = 0.04; with elo0=0, elo1=10
    # LLR = 500 * 0.0143868 * (1.2 - 1.0143868) / (2 * 0.04) = 16.690, three times the
    # 5.5634 of the same games counted one by one (test_sprt_bounds_and_llr).
    sprt = Sprt(0, 10)
    assert sprt.llr(MatchStats(600, 400, 0, pairs=[0, 0, 400, 0, 100])) == pytest.approx(
        16.690, abs=1e-3)
    # ten times fewer such games decide nothing either way; five times fewer decide as
    # pairs only
    assert sprt.status(MatchStats(60, 40, 0)) is None
    assert sprt.status(MatchStats(60, 40, 0, pairs=[0, 0, 40, 0, 10])) is None
    assert sprt.status(MatchStats(120, 80, 0, pairs=[0, 0, 80, 0, 20])) == "H1"
    assert sprt.status(MatchStats(120, 80, 0)) is None


SPRT_PAIRS = Path(__file__).parents[2] / "benchmarks" / "sprt_pairs.py"


def test_the_simulated_test_over_pairs_decides_sooner_and_as_rightly(tmp_path: Path) -> None:
    """benchmarks/sprt_pairs.py, run as a script: with pairs scored as on the freestyle
    screens, the test over pairs needs far fewer pairs than game by game, and decides
    wrongly about as often as it is asked to (5%; 300 tests a case, so the bound is loose)."""
    out = tmp_path / "sprt.json"
    done = subprocess.run([sys.executable, str(SPRT_PAIRS), "--runs", "300", "--pairs-needed",
                           str(PAIRS_NEEDED), "--json", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    cases = json.loads(out.read_text())["cases"]
    assert [(c["true_elo"], c["counting"]) for c in cases] == [
        (0, "games"), (0, f"pairs from {PAIRS_NEEDED}"),
        (30, "games"), (30, f"pairs from {PAIRS_NEEDED}")]
    for games, pairs in (cases[0:2], cases[2:4]):
        assert pairs["median_pairs"] < 0.7 * games["median_pairs"]
    wrong = [cases[0]["accepted_h1"], cases[1]["accepted_h1"], cases[2]["accepted_h0"],
             cases[3]["accepted_h0"]]
    assert all(w <= 0.1 for w in wrong), wrong


def test_the_simulation_refuses_bad_counts() -> None:
    done = subprocess.run([sys.executable, str(SPRT_PAIRS), "--pairs", "1,2,x"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--pairs expects five counts" in done.stderr


def test_sprt_with_other_error_rates() -> None:
    sprt = Sprt.parse("-5,5,0.1,0.2")
    assert sprt.bounds == pytest.approx((math.log(0.2 / 0.9), math.log(0.8 / 0.1)))


@pytest.mark.parametrize("text", ["5", "10,0", "a,b", "0,5,2,0.1", "1,2,3"])
def test_sprt_parse_errors(text: str) -> None:
    with pytest.raises(ValueError, match="sprt"):
        Sprt.parse(text)


@pytest.mark.parametrize(("text", "says"), [
    # the bounds crossed: H1 was accepted after the first game, whatever its result
    ("0,10,0.6,0.6", "alpha + beta must be below 1, got 0.6 + 0.6"),
    ("0,10,0.5,0.5", "alpha + beta must be below 1"),
    # once an OverflowError after the first game
    ("-1e308,0", "elo0 and elo1 must be from -4000 to 4000, got -1e+308 and 0"),
    ("0,inf", "elo0 and elo1 must be from -4000 to 4000"),
    ("1e6,2e6", "elo0 and elo1 must be from -4000 to 4000"),
])
def test_sprt_bounds_no_test_can_work_with_are_refused(text: str, says: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"--sprt {says}")):
        Sprt.parse(text)


def test_add_and_score() -> None:
    stats = MatchStats()
    for points in (1, 0.5, 0, 1):
        stats.add(points)
    assert (stats.wins, stats.losses, stats.draws, stats.score) == (2, 1, 1, 0.625)


# -- openings and schedule ----------------------------------------------------------------


def test_default_openings_fit_and_are_legal() -> None:
    openings = default_opening_moves(15, 15)
    assert 20 <= len(openings) <= 40
    for opening in openings:
        board = Board(15)
        board.push_many(opening)
        assert len(opening) == 3 and not board.is_game_over()
    assert len(set(openings)) == len(openings)
    assert default_opening_moves(9, 9)  # some fit a small board too


def test_read_openings_in_piskvorks_form() -> None:
    """Piskvork's own openings file's first lines, placed as Piskvork places them."""
    openings = read_openings(["0,0, 1,0, 1,3", "0,0, 1,1, 0,3"], 20, 20, Rule.FREESTYLE)
    assert openings == (((10, 10), (11, 10), (11, 13)), ((10, 10), (11, 11), (10, 13)))
    with pytest.raises(ValueError, match=r"opening 1 .*odd count"):
        read_openings(["0,0, 1"], 15, 15, Rule.FREESTYLE)
    with pytest.raises(ValueError, match=r"opening 1 .*the stone 99,0 falls off the 15x15 "
                                         r"board: from the centre, dx may be -7 to 7"):
        read_openings(["0,0, 99,0"], 15, 15, Rule.FREESTYLE)


def test_read_openings_names_a_bad_line() -> None:
    assert read_openings(["h8i9j10"], 15, 15, Rule.FREESTYLE) == (((7, 7), (8, 6), (9, 5)),)
    with pytest.raises(ValueError, match="opening 2"):
        read_openings(["h8", "h8h8"], 15, 15, Rule.FREESTYLE)
    with pytest.raises(ValueError, match="ends the game"):
        read_openings(["a1o1b1o2c1o3d1o4e1"], 15, 15, Rule.FREESTYLE)


def test_an_opening_neither_form_reads_says_both_and_is_quoted_short() -> None:
    """Once "expected renju points" alone, though Piskvork's dx,dy pairs are read too, and
    a long line was quoted whole (100,000 characters, or twice 1,000)."""
    with pytest.raises(ValueError) as raised:
        read_openings(["h8", "0,0 1,0"], 15, 15, Rule.FREESTYLE)
    assert str(raised.value) == (
        "opening 2 ('0,0 1,0'): cannot read the position '0,0 1,0' after '': expected renju "
        "points like h8i9j10; an opening is a position string like h8i9j10, or dx,dy pairs "
        "from the centre like 0,0, 1,0, 1,3")
    for line in ("zz" * 500, "h8" * 50_000, ", ".join(["0,0"] * 50_000)):
        with pytest.raises(ValueError, match=r"^opening 1 \(.(zz|h8|0,0, )[^']*\.\.\.\): "
                           ) as raised:
            read_openings([line], 15, 15, Rule.FREESTYLE)
        assert len(str(raised.value)) < 300


def test_each_opening_is_played_with_both_colours() -> None:
    config = MatchConfig((fake("good"), fake("good")), games=6,
                         openings=(((7, 7),), ((1, 1),), ((2, 2),)), seed=3)
    games = schedule(config)
    assert [black for _, _, black in games] == [0, 1, 0, 1, 0, 1]
    assert games[0][1] == games[1][1] and games[2][1] == games[3][1]
    assert {g[1] for g in games} == {((7, 7),), ((1, 1),), ((2, 2),)}


# -- the judge ------------------------------------------------------------------------------


@pytest.fixture
def engines() -> Iterator[list[Engine]]:
    opened: list[Engine] = []
    yield opened
    quit_all(opened)


def quit_all(engines: list[Engine]) -> None:
    while engines:
        engines.pop().quit()


def judge(engines: list[Engine], a: EngineSpec, b: EngineSpec, **options: object):  # type: ignore[no-untyped-def]
    config = MatchConfig((a, b), **options)  # type: ignore[arg-type]
    engines.extend(Engine(list(spec.argv), name=spec.name, tolerance_ms=config.tolerance_ms)
                   for spec in (a, b))
    return play_game(engines, config, 1, config.openings[0] if config.openings else (), 0)


@pytest.mark.parametrize(("mode", "reason"), [
    ("illegal", "illegal move"), ("offboard", "illegal move"), ("crash", "crashed"),
    ("garbage", "broke the protocol"), ("error", "broke the protocol"),
    ("unknown", "broke the protocol"),
])
def test_misbehaviour_loses(engines: list[Engine], mode: str, reason: str) -> None:
    result = judge(engines, fake(mode), fake("good"), width=9, height=9)
    assert result.result == "0-1" and result.points == 0
    assert reason in result.reason and result.errors
    # the record says the game ended off the board, as a JSON record would read it
    assert (result.record.result, result.record.termination) == ("0-1", "unknown")


def test_timeout_loses(engines: list[Engine]) -> None:
    result = judge(engines, fake("good"), fake("hang"), time_ms=100, tolerance_ms=200,
                   width=9, height=9)
    assert result.result == "1-0" and "on time" in result.reason
    assert (result.record.result, result.record.termination) == ("1-0", "time forfeit")


def test_match_time_runs_out(engines: list[Engine]) -> None:
    result = judge(engines, fake("slow", 150), fake("good"), time_ms=1000,
                   match_time_ms=400, tolerance_ms=100, width=9, height=9)
    assert result.result == "0-1" and "time" in result.reason
    assert result.record.termination == "time forfeit"


def test_time_odds_give_the_first_engine_its_own_times(engines: list[Engine]) -> None:
    # 150 ms a move is too slow for 100 ms with 20 forgiven...
    slow = fake("slow", 150)
    result = judge(engines, slow, fake("good"), time_ms=100, tolerance_ms=20,
                   width=9, height=9)
    assert result.result == "0-1" and "on time" in result.reason
    # ...but not for four times that, the other engine's time unchanged
    quit_all(engines)
    result = judge(engines, slow, fake("good"), time_ms=100, time_odds=4, tolerance_ms=20,
                   width=9, height=9)
    assert not result.errors, result.reason
    quit_all(engines)
    result = judge(engines, fake("good"), slow, time_ms=100, time_odds=4, tolerance_ms=20,
                   width=9, height=9)
    assert result.result == "1-0" and "on time" in result.reason


@pytest.mark.parametrize(("mode", "says"), [
    ("silent", "did not answer START 9 in time"),
    ("crash-start", "ended with exit code 4"),
    # once every game was lost, "broke the protocol", and the match went on
    ("start-error", "answered 'ERROR Unsupported board size!' to START 9"),
])
def test_a_brain_that_never_starts_a_game_stops_the_match(mode: str, says: str) -> None:
    """Not a game lost each time: no game could be played with it."""
    config = MatchConfig((fake("good"), fake(mode)), games=6, width=9, height=9,
                         time_ms=100, start_timeout_ms=500)
    with pytest.raises(EngineStartError, match=rf"fake-{mode} never started a game: .*{says}"):
        run_match(config)


def test_a_match_that_cannot_go_on_ends_the_games_in_play(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Two games at once; the second process of a brain never starts, so the match stops.
    The other game, slow and no longer to be counted, is ended at once, not played out."""
    monkeypatch.setenv("FAKE_BRAIN_ONCE", str(tmp_path / "first"))
    config = MatchConfig((fake("start-once", 1000), fake("good")), games=4, width=9,
                         height=9, time_ms=5000, concurrency=2, start_timeout_ms=500)
    started = time.perf_counter()
    with pytest.raises(EngineStartError, match="fake-start-once never started a game"):
        run_match(config)
    assert time.perf_counter() - started < 6  # played out, the game takes over 10 s


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_second_interrupt_as_the_brains_are_ended_still_ends_them_all(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Ctrl-C as the first game is counted, and a second Ctrl-C just as the match has ended
    the first of its brains (the real kill, then the interrupt). The match once stopped
    ending them there and raised the second interrupt: the other brains, which do not read
    END while they think, ran on. Every brain is ended at once, and the first interrupt is
    the one raised."""
    pids = tmp_path / "pids"
    monkeypatch.setenv("FAKE_BRAIN_PIDS", str(pids))
    kill = Engine.kill
    killed: list[Engine] = []

    def kill_then_ctrl_c(engine: Engine) -> None:
        kill(engine)
        killed.append(engine)
        if len(killed) == 1:
            raise KeyboardInterrupt  # the second

    first = KeyboardInterrupt()

    def ctrl_c(result: GameResult, stats: MatchStats) -> None:
        raise first

    monkeypatch.setattr(Engine, "kill", kill_then_ctrl_c)
    config = MatchConfig((fake("hang"), fake("good")), games=4, width=9, height=9,
                         time_ms=300, tolerance_ms=0, concurrency=2)
    with pytest.raises(KeyboardInterrupt) as raised:
        run_match(config, on_game=ctrl_c)
    assert raised.value is first
    started = [int(pid) for pid in pids.read_text().split()]
    assert len(started) >= 4
    deadline = time.monotonic() + 0.5  # a brain told END would take a second
    while any(running(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [pid for pid in started if running(pid)] == []


def test_two_brains_of_one_name_are_told_apart(tmp_path: Path) -> None:
    """Two builds of one brain: the second is named "(2)" in the results and records, as in
    a tournament, so that a report can tell whose game each was."""
    config = MatchConfig((fake("good"), fake("good")), games=2, width=9, height=9,
                         openings=default_opening_moves(9, 9), seed=1, out_dir=tmp_path)
    assert [spec.name for spec in config.engines] == ["fake-good", "fake-good (2)"]
    report = run_match(config)
    names = {(load(path).black, load(path).white) for path in tmp_path.glob("*.psq")}
    assert names == {("fake-good", "fake-good (2)"), ("fake-good (2)", "fake-good")}
    assert len(report.results) == 2


def test_an_error_to_restart_loses_no_game() -> None:
    """Rapfi-like brains answer RESTART, which they need not know, with ERROR: every game
    after the first was lost for it."""
    config = MatchConfig((fake("restart-error"), fake("good")), games=4, width=9, height=9,
                         openings=default_opening_moves(9, 9), seed=1)
    report = run_match(config)
    assert [r.errors for r in report.results] == [[]] * 4
    assert all("made five" in r.reason or "draw" in r.reason for r in report.results)


def test_a_line_too_many_is_read_as_the_next_answer(engines: list[Engine]) -> None:
    """A brain that prints a spare move after each of its own is judged by it, as Piskvork
    would, and the reason says where the line came from; no move takes less than no time."""
    result = judge(engines, fake("extra"), fake("good"), width=9, height=9,
                   match_time_ms=10_000)
    assert result.result == "0-1"
    assert result.reason == ("fake-extra played an illegal move: d6 is occupied by white "
                             "(that line came before TURN 3,3 was sent: one line too many in "
                             "an earlier answer?)")
    assert result.record.times_ms is not None and min(result.record.times_ms) >= 0


def test_a_slow_start_is_waited_for_and_not_charged(engines: list[Engine]) -> None:
    """START may take long (loading a network): the time a move starts after it."""
    spec = fake("slow-start", 700)
    config = MatchConfig((spec, fake("good")), width=9, height=9, time_ms=100,
                         tolerance_ms=100, start_timeout_ms=5000)
    engines.extend(Engine(list(s.argv), name=s.name, tolerance_ms=config.tolerance_ms,
                          start_timeout_ms=config.start_timeout_ms) for s in config.engines)
    result = play_game(engines, config, 1, (), 0)
    assert not result.errors, result.reason
    slow = replace(config, start_timeout_ms=200)
    with pytest.raises(EngineStartError, match=r"did not answer START 9 in time \(allowed "
                                               r"0.2 s; a brain must answer OK"):
        run_match(slow)


def test_a_brain_that_never_answers_restart_loses_saying_so(tmp_path: Path) -> None:
    """Its second game, which begins with RESTART, was lost "on time" alone, though no move
    had been asked for: the reason now says what went unanswered."""
    brain = tmp_path / "restart_hangs.py"
    brain.write_text(textwrap.dedent("""\
        import sys, time
        for line in sys.stdin:
            word = line.strip().partition(" ")[0]
            if word == "START":
                print("OK", flush=True)
            elif word == "RESTART":
                time.sleep(600)
            elif word in ("BEGIN", "TURN", "DONE"):
                print("0,0" if word != "TURN" else "0,1", flush=True)
            elif word == "END":
                break
    """))
    spec = EngineSpec("restart-hangs", (sys.executable, str(brain)))
    config = MatchConfig((spec, fake("good")), games=2, width=9, height=9, time_ms=500,
                         start_timeout_ms=300, openings=((),), seed=1)
    first, second = run_match(config).results
    assert "restart-hangs did not answer RESTART" not in first.reason
    assert second.reason == ("restart-hangs lost on time: restart-hangs did not answer RESTART "
                             "in time")
    assert second.record.termination == "time forfeit"


def test_crash_in_mid_game(engines: list[Engine]) -> None:
    result = judge(engines, fake("good"), fake("crash-late", 2), width=9, height=9)
    assert result.result == "1-0" and "crashed" in result.reason
    assert len(result.record.moves) == 5


def test_a_renju_foul_loses(engines: list[Engine]) -> None:
    # Black's nearest point to the centre, 7,7, is a double three.
    opening = ((5, 7), (0, 0), (6, 7), (0, 2), (7, 5), (0, 4), (7, 6), (0, 6))
    result = judge(engines, fake("good"), fake("good"), rule=Rule.RENJU, openings=(opening,))
    assert result.result == "0-1" and "forbidden" in result.reason


def test_normal_game_ends_by_five_or_full_board(engines: list[Engine]) -> None:
    result = judge(engines, fake("good"), fake("good"), width=7, height=7)
    assert not result.errors
    board = result.record.to_board()
    assert board.is_game_over() and result.result == board.outcome().result  # type: ignore[union-attr]


# -- whole matches ------------------------------------------------------------------------


def test_sprt_stops_early_and_psq_files(tmp_path: Path) -> None:
    lines: list[str] = []
    config = MatchConfig((fake("good"), fake("good")), games=40, width=9, height=9,
                         openings=default_opening_moves(9, 9), concurrency=2,
                         sprt=Sprt(0, 400), out_dir=tmp_path, seed=1)
    report = run_match(config, on_game=lambda r, s: lines.append(r.reason))
    assert report.stopped_early and report.sprt_result == "H0"
    assert len(report.results) < 40 and len(lines) == len(report.results)
    files = sorted(tmp_path.glob("*.psq"))
    assert len(files) == len(report.results)
    record = load(files[0])
    assert record.width == 9 and record.moves == report.results[0].record.moves
    assert any("SPRT" in line and "H0 accepted" in line for line in report.summary_lines())


def test_games_are_paired_by_their_numbers(tmp_path: Path) -> None:
    """The two games of an opening make a pair however they finish (two at a time here),
    and a last game without its partner counts only as a game."""
    config = MatchConfig((fake("good"), fake("good")), games=7, width=9, height=9,
                         openings=default_opening_moves(9, 9), concurrency=2, seed=3)
    report = run_match(config)
    assert report.stats.games == 7 and sum(report.stats.pairs) == 3
    points = {result.number: result.points for result in report.results}
    expected = [0] * 5
    for first in (1, 3, 5):
        expected[int(2 * (points[first] + points[first + 1]))] += 1
    assert report.stats.pairs == expected
    assert any(line.startswith("Pairs of games by points for fake-good")
               for line in report.summary_lines())


def test_a_record_that_cannot_be_written_stops_the_match_saying_so(tmp_path: Path) -> None:
    """The folder of records removed during the match: the next record cannot be written.
    That was a FileNotFoundError and its traceback; the match stops with a ValueError
    naming the folder and the game, which is not counted (the counted games are those
    recorded)."""
    out_dir = tmp_path / "games"
    counted: list[int] = []

    def on_game(result: GameResult, stats: MatchStats) -> None:
        counted.append(result.number)
        shutil.rmtree(out_dir)

    config = MatchConfig((fake("good"), fake("good")), games=4, width=9, height=9,
                         out_dir=out_dir)
    with pytest.raises(ValueError, match=rf"^--out {re.escape(str(out_dir))}: cannot write "
                                         r"the record of game 2 in that folder: No such file"):
        run_match(config, on_game=on_game)
    assert counted == [1]


MATCH_REPORT = Path(__file__).parents[2] / "benchmarks" / "match_report.py"


def test_the_match_report_pools_records_as_the_matches_counted_them(tmp_path: Path) -> None:
    """benchmarks/match_report.py, run as a script on the records of two matches of the
    same engines: its counts, by colour and by pair, are the sums of the matches' own."""
    ours = EngineSpec.parse("level:1")
    dirs, results, pairs = [], [], [0] * 5
    for seed in (1, 2):
        out_dir = tmp_path / f"seed{seed}"
        config = MatchConfig((ours, fake("good")), games=6, width=9, height=9, time_ms=500,
                             openings=default_opening_moves(9, 9), concurrency=2, seed=seed,
                             out_dir=out_dir)
        report = run_match(config)
        dirs.append(str(out_dir))
        results += report.results
        pairs = [a + b for a, b in zip(pairs, report.stats.pairs, strict=True)]
    expected = {"black": [0, 0, 0], "white": [0, 0, 0]}
    for result in results:
        assert not result.errors, result.reason
        colour = "black" if result.black == 0 else "white"
        expected[colour][{1.0: 0, 0.0: 1, 0.5: 2}[result.points]] += 1
    out = tmp_path / "pooled.json"
    done = subprocess.run([sys.executable, str(MATCH_REPORT), *dirs, "--engine", ours.name,
                           "--rule", "freestyle", "--sprt", "0,20", "--json", str(out)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    pooled = json.loads(out.read_text())
    assert pooled["black"] == expected["black"] and pooled["white"] == expected["white"]
    assert pooled["pairs"] == pairs and sum(pairs) == 6
    assert pooled["opponents"] == ["fake-good"] and pooled["undecided"] == 0
    assert pooled["score"] == pytest.approx(sum(r.points for r in results) / 12)
    # black's score whichever engine had black: how the openings lean
    black_points = [r.points if r.black == 0 else 1.0 - r.points for r in results]
    assert pooled["black_score"] == pytest.approx(sum(black_points) / 12)
    low, high = pooled["black_score_interval"]
    assert 0.0 <= low <= pooled["black_score"] <= high <= 1.0
    assert "black_pairs" not in pooled
    assert f"black's score, both engines: {pooled['black_score']:.3f}" in done.stdout
    assert f"{ours.name} against fake-good: 12 games" in done.stdout
    assert "SPRT [0, 20]: llr" in done.stdout


def test_the_match_report_gives_each_engine_its_time_a_move(tmp_path: Path) -> None:
    """The report's move times are each engine's own, as the match timed them, with the
    opening's stones left out: by default the leading stones with no time on them, or
    the first --opening-stones. A reply timed at 0 ms just after the opening is told
    apart only by the latter."""
    ours = EngineSpec.parse("level:1")
    config = MatchConfig((ours, fake("good")), games=4, width=9, height=9, time_ms=500,
                         openings=default_opening_moves(9, 9), seed=3, out_dir=tmp_path)
    report = run_match(config)
    stones = {len(result.opening) for result in report.results}
    assert len(stones) == 1 and stones != {0}
    expected: dict[str, list[int]] = {}
    for result in report.results:
        record = result.record
        for index, spent in enumerate(record.times_ms or []):
            if index >= len(result.opening):
                name = record.black if index % 2 == 0 else record.white
                expected.setdefault(name, []).append(spent)

    def move_ms(folder: Path, *options: str) -> dict[str, dict[str, float]]:
        out = tmp_path / "report.json"
        done = subprocess.run([sys.executable, str(MATCH_REPORT), str(folder), "--engine",
                               ours.name, "--json", str(out), *options],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        timed = json.loads(out.read_text())["move_ms"]
        for name, figures in timed.items():
            assert (f"{name} mean {figures['mean']:.0f}, median {figures['median']:g}, "
                    f"longest {figures['max']:g} over {figures['moves']} moves") in done.stdout
        return timed

    opening = stones.pop()
    given = move_ms(tmp_path, "--opening-stones", str(opening))
    assert set(given) == {ours.name, "fake-good"}
    for name, times in expected.items():
        assert given[name] == {"moves": len(times), "mean": round(statistics.fmean(times), 1),
                               "median": statistics.median(times), "max": max(times)}
    # a game whose first reply took no measurable time, as a fast brain's may
    first = report.results[0].record
    timed = [max(1, spent) for spent in (first.times_ms or [])[opening + 1:]]
    (tmp_path / "fast").mkdir()
    save(replace(first, times_ms=[0] * (opening + 1) + timed),
         tmp_path / "fast" / "game-0001.psq")
    given = move_ms(tmp_path / "fast", "--opening-stones", str(opening))
    inferred = move_ms(tmp_path / "fast")  # the reply is taken for an opening stone
    replier = first.black if opening % 2 == 0 else first.white
    assert inferred[replier]["moves"] == given[replier]["moves"] - 1
    other = first.white if replier == first.black else first.black
    assert inferred[other] == given[other]
    refused = subprocess.run([sys.executable, str(MATCH_REPORT), str(tmp_path), "--engine",
                              ours.name, "--opening-stones", "-1"],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2
    assert "--opening-stones -1: a count of stones, 0 or more" in refused.stderr


def test_the_match_report_counts_a_crash_as_the_match_did(tmp_path: Path) -> None:
    """A crash leaves no winner on the board; its record's code says who lost. Once such
    games were left out of the score as undecided."""
    config = MatchConfig((fake("crash-late", 2), fake("good")), games=2, width=9, height=9,
                         openings=default_opening_moves(9, 9), seed=1, out_dir=tmp_path)
    report = run_match(config)
    assert all("crashed" in result.reason for result in report.results)
    assert report.stats.losses == 2
    done = subprocess.run([sys.executable, str(MATCH_REPORT), str(tmp_path),
                           "--engine", "fake-crash-late"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "2 games, 0-2-0" in done.stdout
    assert "decided off the board (time, crash, illegal move, protocol; counted): 2" \
        in done.stdout
    assert "no result in their record (left out): 0" in done.stdout


def test_the_match_report_pools_an_engine_that_played_under_two_names(tmp_path: Path) -> None:
    """One brain under two names (its file renamed between runs): --alias counts the
    second name's games as the first's; without it the report refuses those records,
    and an alias that is the opponent's name is refused too."""
    dirs = []
    for name in ("ours", "ours-renamed"):
        out_dir = tmp_path / name
        ours = EngineSpec(name, (sys.executable, str(FAKE), "good"))
        config = MatchConfig((ours, fake("crash-late", 2)), games=2, width=9, height=9,
                             openings=default_opening_moves(9, 9), seed=1, out_dir=out_dir)
        assert run_match(config).stats.wins == 2
        dirs.append(str(out_dir))

    def report(*options: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(MATCH_REPORT), *dirs, "--engine", "ours",
                               *options], capture_output=True, text=True, timeout=60)

    pooled = report("--alias", "ours-renamed")
    assert pooled.returncode == 0, pooled.stderr
    assert "ours against fake-crash-late: 4 games, 4-0-0" in pooled.stdout
    refused = report()
    assert refused.returncode == 2
    assert re.search(r"'ours' played neither side of a game \((ours-renamed against "
                     r"fake-crash-late|fake-crash-late against ours-renamed)\)", refused.stderr)
    both = report("--alias", "ours-renamed", "--alias", "fake-crash-late")
    assert both.returncode == 2
    assert "--alias makes both players 'ours'" in both.stderr
    itself = report("--alias", "ours")
    assert itself.returncode == 2
    assert "--alias ours: that is the name of an engine compared" in itself.stderr


@pytest.mark.parametrize(("mode", "options", "code", "termination", "says"), [
    ("illegal", [], "-2", "unknown", "played an illegal move"),
    ("hang", ["--time-ms", "100", "--tolerance-ms", "100"], "15", "time forfeit",
     "lost on time"),
])
def test_games_a_brain_loses_by_its_error_are_counted_from_the_records(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, mode: str, options: list[str],
        code: str, termination: str, says: str) -> None:
    """gridgames match between a good brain and one that fails its moves, then
    match_report.py on its --out folder: the records keep who lost (Piskvork's codes of a
    brain's error and time out), and the report scores them as the match did."""
    good, bad = (brain_named(tmp_path / f"pbrain-{name}", name) for name in ("good", mode))
    out = tmp_path / "games"
    assert main(["match", good, bad, "--games", "2", "--size", "9", "--seed", "1",
                 *options, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.count(f"pbrain-{mode} {says}") == 2
    assert f"Score of pbrain-good vs pbrain-{mode}: 2 - 0 - 0" in printed
    files = sorted(out.glob("game-*.psq"))
    assert [path.name for path in files] == ["game-0001.psq", "game-0002.psq"]
    for path in files:
        assert path.read_text(encoding="utf-8").splitlines()[-1] == code
        record = load(path)
        # the failing brain was to move, and lost
        bad_colour = "black" if record.black == f"pbrain-{mode}" else "white"
        assert record.to_board().to_move.label == bad_colour
        assert record.result == ("0-1" if bad_colour == "black" else "1-0")
        assert record.termination == termination
    done = subprocess.run([sys.executable, str(MATCH_REPORT), str(out),
                           "--engine", "pbrain-good"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert f"pbrain-good against pbrain-{mode}: 2 games, 2-0-0" in done.stdout
    assert "as black 1-0-0, as white 1-0-0" in done.stdout
    assert "decided off the board (time, crash, illegal move, protocol; counted): 2" \
        in done.stdout
    assert "no result in their record (left out): 0" in done.stdout


def brain_named(path: Path, mode: str) -> str:
    """The command line of a fake brain in ``mode`` that goes by the name of ``path``."""
    path.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE} {mode}\n", encoding="utf-8")
    path.chmod(0o755)
    return str(path)


def test_the_match_report_counts_a_renju_game_with_no_legal_move_left_as_a_draw(
        tmp_path: Path) -> None:
    """A 6x6 renju position where black, to move, has only forbidden points (two
    overline points): the match calls both games drawn, and so does the report."""
    opening = parse_position("d1b1f6f3f5c4a6e1e3e2e6f4d2c1b6d4c6f1c2c3e5e4b3a3d3a1b4b2c5f2"
                             "a5a2b5a4", 6, 6)
    config = MatchConfig((fake("good"), fake("crash-late", 2)), games=2, width=6, height=6,
                         rule=Rule.RENJU, openings=[opening], seed=1, out_dir=tmp_path)
    report = run_match(config)
    assert [r.reason for r in report.results] == [
        "draw: only points forbidden to black are left"] * 2
    done = subprocess.run([sys.executable, str(MATCH_REPORT), str(tmp_path),
                           "--engine", "fake-good", "--rule", "renju"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "2 games, 0-0-2" in done.stdout and "(left out): 0" in done.stdout


def assert_not_paired(run: Path, base: Path, engine: str) -> None:
    """match_report.py refuses to pair two runs that did not play the same openings."""
    refused = subprocess.run([sys.executable, str(MATCH_REPORT), str(run), "--engine", engine,
                              "--paired", str(base), "--paired-engine", "fake-good"],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2
    assert "is not the same opening with the same colours" in refused.stderr


def test_the_match_report_compares_two_versions_game_by_game(tmp_path: Path) -> None:
    """--paired: the difference of two runs' scores on the same openings, pair by pair,
    as the runs' own results give it; a run with other colours is refused by game number."""
    ours = EngineSpec.parse("level:1")
    runs = {}
    for name, engines in (("base", (fake("good"), fake("chatty"))),
                          ("new", (ours, fake("chatty"))),
                          ("swapped", (fake("chatty"), fake("good")))):
        config = MatchConfig(engines, games=6, width=9, height=9, time_ms=500,
                             openings=default_opening_moves(9, 9), concurrency=2, seed=1,
                             out_dir=tmp_path / name)
        runs[name] = {r.number: r.points for r in run_match(config).results}
    pair_scores = {name: [(points[k] + points[k + 1]) / 2 for k in (1, 3, 5)]
                   for name, points in runs.items()}
    differences = [a - b for a, b in zip(pair_scores["new"], pair_scores["base"], strict=True)]
    out = tmp_path / "paired.json"
    done = subprocess.run([sys.executable, str(MATCH_REPORT), str(tmp_path / "new"),
                           "--engine", ours.name, "--paired", str(tmp_path / "base"),
                           "--paired-engine", "fake-good", "--json", str(out)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "1 run paired with 1 run of fake-good on the same openings: 3 pairs" in done.stdout
    paired = json.loads(out.read_text())["paired"]
    mean = sum(differences) / 3
    spread = (sum((d - mean) ** 2 for d in differences) / 2) ** 0.5
    assert paired["pairs"] == 3 and paired["difference"] == pytest.approx(mean)
    assert paired["score"] == pytest.approx(sum(pair_scores["new"]) / 3)
    assert paired["base"] == pytest.approx(sum(pair_scores["base"]) / 3)
    assert paired["half_width"] == pytest.approx(1.96 * spread / 3**0.5)
    assert_not_paired(tmp_path / "new", tmp_path / "swapped", ours.name)
    # several runs of each side, each pair's score averaged over its side's runs: a
    # run given twice on both sides changes nothing
    twice = tmp_path / "twice.json"
    both = subprocess.run([sys.executable, str(MATCH_REPORT), str(tmp_path / "new"),
                           str(tmp_path / "new"), "--engine", ours.name,
                           "--paired", str(tmp_path / "base"), str(tmp_path / "base"),
                           "--paired-engine", "fake-good", "--json", str(twice)],
                          capture_output=True, text=True, timeout=60)
    assert both.returncode == 0, both.stderr
    assert "2 runs paired with 2 runs of fake-good" in both.stdout
    again = json.loads(twice.read_text())["paired"]
    for key in ("pairs", "score", "base", "half_width"):
        assert again[key] == pytest.approx(paired[key])


def test_the_match_report_pairs_runs_of_several_seeds_by_their_openings(
        tmp_path: Path) -> None:
    """--paired with runs of two seeds on each side, given in another order: each run is
    paired with the one that played its openings, and the pairs of both are pooled."""
    ours = EngineSpec.parse("level:1")
    pair_scores: dict[str, list[float]] = {}
    for name, engines, seed in (("base-1", (fake("good"), fake("chatty")), 1),
                                ("base-2", (fake("good"), fake("chatty")), 2),
                                ("new-1", (ours, fake("chatty")), 1),
                                ("new-2", (ours, fake("chatty")), 2)):
        config = MatchConfig(engines, games=4, width=9, height=9, time_ms=500,
                             openings=default_opening_moves(9, 9), concurrency=2, seed=seed,
                             out_dir=tmp_path / name)
        points = {r.number: r.points for r in run_match(config).results}
        pair_scores[name] = [(points[k] + points[k + 1]) / 2 for k in (1, 3)]
    differences = [a - b for seed in ("1", "2") for a, b in
                   zip(pair_scores[f"new-{seed}"], pair_scores[f"base-{seed}"], strict=True)]
    out = tmp_path / "paired.json"
    done = subprocess.run([sys.executable, str(MATCH_REPORT), str(tmp_path / "new-1"),
                           str(tmp_path / "new-2"), "--engine", ours.name, "--paired",
                           str(tmp_path / "base-2"), str(tmp_path / "base-1"),
                           "--paired-engine", "fake-good", "--json", str(out)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    paired = json.loads(out.read_text())["paired"]
    assert paired["pairs"] == 4
    assert paired["difference"] == pytest.approx(sum(differences) / 4)
    assert_not_paired(tmp_path / "new-2", tmp_path / "base-1", ours.name)


def test_the_match_report_names_a_record_whose_write_was_interrupted(tmp_path: Path) -> None:
    """A match killed while it saved game 3's record left its hidden temporary file: the
    report once read the folder as a whole match of two games. It names the file and says
    it is left out, and --json lists it."""
    config = MatchConfig((fake("good"), fake("crash")), games=2, width=9, height=9,
                         openings=default_opening_moves(9, 9), seed=1, out_dir=tmp_path)
    run_match(config)
    left = tmp_path / ".game-0003.psq.0f1e2d3c.tmp"
    left.write_text("Piskvorky 9x9, 0:0, 0\n5,5,0\n")  # as far as the write got
    out = tmp_path / "report.json"
    done = subprocess.run([sys.executable, str(MATCH_REPORT), str(tmp_path), "--engine",
                           "fake-good", "--json", str(out)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "fake-good against fake-crash: 2 games, 2-0-0" in done.stdout
    assert done.stdout.endswith(
        f"\n  left out {left}: the temporary file of a record whose write was interrupted "
        "(its match was killed while saving it); that game is not counted\n")
    assert json.loads(out.read_text())["interrupted_writes"] == [str(left)]


def test_a_records_folder_with_interrupted_writes_is_refused_naming_them(
        tmp_path: Path) -> None:
    """The same check as --out's, for a match of the library's, once the files deleted."""
    for name in (".game-0001.psq.0f1e2d3c.tmp", ".game-0001.psq.4b5a6978.tmp"):
        (tmp_path / name).write_text("Piskvorky 9x9, 0:0, 0\n")
    config = MatchConfig((fake("good"), fake("good")), games=2, width=9, height=9,
                         out_dir=tmp_path)
    with pytest.raises(ValueError) as raised:
        run_match(config)
    assert str(raised.value) == (
        f"--out {tmp_path}: that folder holds .game-0001.psq.0f1e2d3c.tmp (and 1 more like "
        "it), the temporary file of a record whose write was interrupted (its match was "
        "killed); it holds no whole record and may be deleted, or give a new or empty folder")
    for path in interrupted_saves(tmp_path):
        path.unlink()
    assert len(run_match(config).results) == 2


@pytest.mark.parametrize(("args", "message"), [
    (["--engine", "nobody"], "'nobody' played neither side of a game"),
    (["--engine", "fake-good", "--sprt", "5"], "--sprt expects"),
])
def test_the_match_report_names_what_is_wrong(tmp_path: Path, args: list[str],
                                              message: str) -> None:
    config = MatchConfig((fake("good"), fake("good")), games=2, width=9, height=9,
                         openings=default_opening_moves(9, 9), seed=1, out_dir=tmp_path)
    run_match(config)
    done = subprocess.run([sys.executable, str(MATCH_REPORT), str(tmp_path), *args],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and message in done.stderr
    empty = subprocess.run([sys.executable, str(MATCH_REPORT), str(tmp_path / "none"),
                            "--engine", "x"], capture_output=True, text=True, timeout=60)
    assert empty.returncode == 2 and "not a directory of game records" in empty.stderr


@pytest.mark.parametrize(("settle_ms", "busy_ms"), [(None, 5), (0, 200)])
def test_a_brain_still_finishing_its_move_gets_no_command_until_it_settles(
        monkeypatch: pytest.MonkeyPatch, settle_ms: int | None, busy_ms: int) -> None:
    """Two brains that answer at once and drop every line that comes within
    ``busy_ms`` of their own move (as Rapfi does while it finishes one). The client
    waits SETTLE_MS (10) after a move before sending that brain anything, so against
    5 ms no game is lost; with no wait, against 200 ms, the dropped commands cost
    games."""
    if settle_ms is not None:
        monkeypatch.setattr(client_module, "SETTLE_MS", settle_ms)
    assert busy_ms < client_module.SETTLE_MS or settle_ms == 0  # the case the test means
    config = MatchConfig((fake("busy", busy_ms), fake("busy", busy_ms)), games=2, width=9,
                         height=9, time_ms=300, tolerance_ms=300,
                         openings=default_opening_moves(9, 9), seed=1)
    report = run_match(config)
    lost = [r.reason for r in report.results if "lost on time" in r.reason]
    if settle_ms is None:
        assert lost == [] and all("made five" in r.reason for r in report.results)
    else:
        assert len(lost) == 2


def test_real_match_of_our_brain(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["match", "level:2", "level:3", "--games", "2", "--size", "9",
                 "--time-ms", "150", "--out", str(tmp_path), "--seed", "5"])
    out = capsys.readouterr().out
    assert code == 0, out
    games = [line for line in out.splitlines() if line.startswith("Game ")]
    assert len(games) == 2, out
    assert "Elo difference" in out and "lost by error" not in out
    for line in games:
        assert "made five" in line or "draw" in line, line
    assert len(list(tmp_path.glob("*.psq"))) == 2


def test_a_match_clock_is_never_overrun(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    """Our brain against itself, 3 s a game: no game lost on time, no clock below zero
    (no lateness forgiven), and the clock spent unevenly, where the moves asked for it."""
    match_ms = 3000
    code = main(["match", "level:max", "level:max", "--games", "2", "--time-ms", "1000",
                 "--match-time-ms", str(match_ms), "--tolerance-ms", "0",
                 "--out", str(tmp_path), "--seed", "3"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "lost by error" not in out and "lost on time" not in out, out
    games = [line for line in out.splitlines() if line.startswith("Game ")]
    assert len(games) == 2 and all("made five" in line or "draw" in line for line in games)
    for path in sorted(tmp_path.glob("*.psq")):
        record = load(path)
        assert record.times_ms is not None
        played = record.times_ms[3:]  # after the three stones of the opening
        for side in (played[0::2], played[1::2]):
            left = match_ms
            for spent in side:
                left -= spent
                assert left >= 0, f"{path.name}: the clock went below zero"
            assert max(side) <= 1000
            searched = [t for t in side if t > 20]
            if len(searched) >= 4:
                assert max(searched) > 1.3 * min(searched), side


def test_cli_refuses_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:  # refused by argparse (tests/cli/test_options.py)
        main(["match", "level:1", "level:1", "--games", "0"])
    assert exit_.value.code == 2
    assert "argument --games: must be a whole number from 1 to 1000000" in capsys.readouterr().err
    assert main(["match", "level:1", "level:1", "--rule", "chess"]) == 2
    assert main(["match", "level:1", "level:99"]) == 2
    assert main(["match", "level:1", "level:1", "--sprt", "5"]) == 2
    assert "gridgames match:" in capsys.readouterr().err
    assert main(["match", "/nonexistent/pbrain-x", "level:1", "--games", "1"]) == 1
    assert "cannot start" in capsys.readouterr().err


def test_cli_time_odds_reach_each_brain(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    """Each brain is told its own times: the first engine's multiplied by --time-odds."""
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    commands = [f"env FAKE_BRAIN_LOG={log} {sys.executable} {FAKE} good" for log in logs]
    code = main(["match", *commands, "--games", "1", "--size", "9", "--time-ms", "300",
                 "--match-time-ms", "5000", "--time-odds", "1.5"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "env's times x1.5" in out.splitlines()[0]
    first, second = (set(log.read_text(encoding="utf-8").splitlines()) for log in logs)
    assert {"INFO timeout_turn 450", "INFO timeout_match 7500"} <= first
    assert {"INFO timeout_turn 300", "INFO timeout_match 5000"} <= second
    assert not any(line.startswith("INFO timeout_turn 450") for line in second)


def test_cli_nodes_reach_both_brains_and_bound_our_search(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--nodes is sent to each brain as INFO max_node; our brain then searches that many
    nodes a move, so two runs of the same match play the same games."""
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    commands = [f"env FAKE_BRAIN_LOG={log} {sys.executable} {FAKE} good" for log in logs]
    code = main(["match", *commands, "--games", "1", "--size", "9", "--nodes", "5000"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "5000 nodes a move" in out.splitlines()[0]
    for log in logs:
        assert "INFO max_node 5000" in log.read_text(encoding="utf-8").splitlines()
    runs = []
    for run in ("a", "b"):
        main(["match", "level:max", "level:max", "--games", "2", "--size", "11", "--nodes",
              "3000", "--seed", "4", "--out", str(tmp_path / run)])
        runs.append([load(f).moves for f in sorted((tmp_path / run).glob("*.psq"))])
    capsys.readouterr()
    assert runs[0] == runs[1] and len(runs[0]) == 2


def test_cli_says_when_fixed_nodes_replay_an_opening(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    """Past twice the openings, pairs replay them; at a fixed node count our engine
    replays the same games, which the match then says."""
    openings = tmp_path / "two.txt"
    openings.write_text("h8i9j10\nh8h9h10\n", encoding="utf-8")
    common = ["level:3", "level:3", "--games", "6", "--size", "15", "--openings",
              str(openings)]
    assert main(["match", *common, "--nodes", "2000", "--out", str(tmp_path / "g")]) == 0
    out = capsys.readouterr().out
    assert ("Note: 2 of the 6 games replay an opening of the 2 already played"
            in out.splitlines()[1])
    games = [load(f).moves for f in sorted((tmp_path / "g").glob("*.psq"))]
    assert games[4:] == games[:2]
    assert games[0] != games[2]
    done = subprocess.run([sys.executable, str(MATCH_REPORT), str(tmp_path / "g"), "--engine",
                           "level:3", "--alias", "level:3-2"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "games that repeat an earlier game move for move (counted): 2" in done.stdout
    assert main(["match", *common[:3], "4", *common[4:], "--nodes", "2000"]) == 0
    assert main(["match", *common, "--time-ms", "50"]) == 0
    assert "Note:" not in capsys.readouterr().out


def test_bad_time_odds_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="time_odds must be a number above 0, got 0"):
        MatchConfig((fake("good"), fake("good")), time_odds=0)
    for odds in ("0", "-2", "twice"):
        with pytest.raises(SystemExit) as exit_:
            main(["match", "level:1", "level:1", "--time-odds", odds])
        assert exit_.value.code == 2
        assert "argument --time-odds: must be a number above 0" in capsys.readouterr().err


@pytest.mark.parametrize(("options", "says"), [
    ({"games": 0}, "games must be a whole number from 1 to 1000000, got 0$"),
    ({"concurrency": 0}, "concurrency must be a whole number from 1 to 256, got 0$"),
    ({"time_ms": -1}, "time_ms must be a whole number from 0 to 2147483647, got -1$"),
    ({"match_time_ms": 0}, "match_time_ms must be a whole number from 1 to 2147483647, got 0$"),
    ({"match_time_ms": -5}, "match_time_ms must be a whole number from 1 to 2147483647, "
                            "got -5$"),
    ({"tolerance_ms": -5}, "tolerance_ms must be a whole number from 0 to 2147483647, got -5$"),
    ({"time_ms": 2.5}, "time_ms must be a whole number from 0 to 2147483647, got 2.5$"),
    ({"nodes": 0}, "nodes must be a whole number from 1 to 281474976710656, got 0$"),
    ({"start_timeout_ms": 0}, "start_timeout_ms must be a whole number from 1 to 2147483647, "
                              "got 0$"),
    ({"start_timeout_ms": 3_000_000_000},
     "start_timeout_ms must be a whole number from 1 to 2147483647, got 3000000000$"),
    # once a traceback: a wait past what the platform's timers take
    ({"tolerance_ms": 10**17},
     "tolerance_ms must be a whole number from 0 to 2147483647, got 100000000000000000$"),
    ({"width": 4}, "board width 4 is out of range; allowed: 5 to 64"),
    ({"height": 65}, "board height 65 is out of range; allowed: 5 to 64"),
    ({"time_odds": 1e308}, "time_ms 1000 with time odds 1e\\+308 is more than"),
    ({"match_time_ms": 2_000_000_000, "time_odds": 1.5},
     "match_time_ms 2000000000 with time odds 1.5 is more than the protocol's 2147483647 ms"),
    # once taken: thousands of digits printed whole, or an OverflowError (times odds)
    ({"games": MAX_GAMES + 1}, "games must be a whole number from 1 to 1000000, got 1000001$"),
    ({"concurrency": MAX_CONCURRENCY + 1}, "concurrency must be a whole number from 1 to 256"),
    ({"nodes": MAX_NODES + 1}, "nodes must be a whole number from 1 to 281474976710656, "
                               "got 281474976710657$"),
    ({"match_time_ms": MAX_TIME_MS + 1}, "match_time_ms must be a whole number from 1 to "
                                         "2147483647, got 2147483648$"),
    ({"time_ms": 10**3000}, "time_ms must be a whole number from 0 to 2147483647, "
                            "got 1000000000000000000000000000000000000...$"),
    ({"games": -(10**5000)}, "games must be a whole number from 1 to 1000000, "
                             "got a number of over 4,300 digits$"),
])
def test_a_match_config_that_cannot_be_played_is_refused(options: dict[str, object],
                                                         says: str) -> None:
    with pytest.raises(ValueError, match=says):
        MatchConfig((fake("good"), fake("good")), **options)  # type: ignore[arg-type]


def test_a_match_config_at_every_maximum_is_taken() -> None:
    """The greatest values the options allow are a match the library takes, and the nodes
    bound is what our engine's search limit and our brain take."""
    from gridgames.gomoku.ai.limits import MAX_LIMIT
    from gridgames.gomoku.gomocup.brain import MAX_SEARCH_LIMIT

    assert MAX_NODES == MAX_LIMIT == MAX_SEARCH_LIMIT
    config = MatchConfig((fake("good"), fake("good")), games=MAX_GAMES,
                         concurrency=MAX_CONCURRENCY, nodes=MAX_NODES, time_ms=MAX_TIME_MS,
                         match_time_ms=MAX_TIME_MS, tolerance_ms=MAX_TIME_MS,
                         start_timeout_ms=MAX_TIME_MS)
    assert len(schedule(config)) == MAX_GAMES
    assert config.turn_ms(0) == config.game_ms(1) == MAX_TIME_MS


@pytest.mark.parametrize(("option", "value", "says"), [
    ("--match-time-ms", "0",
     "argument --match-time-ms: must be a whole number from 1 to 2147483647, got 0"),
    ("--match-time-ms", "-5",
     "argument --match-time-ms: must be a whole number from 1 to 2147483647, got -5"),
    ("--tolerance-ms", "-5",
     "argument --tolerance-ms: must be a whole number from 0 to 2147483647, got -5"),
])
def test_cli_refuses_times_no_game_can_be_played_with(
        capsys: pytest.CaptureFixture[str], option: str, value: str, says: str) -> None:
    """Once these were taken, and every game of the match was lost on time."""
    with pytest.raises(SystemExit) as exit_:
        main(["match", "level:1", "level:1", option, value])
    assert exit_.value.code == 2
    assert says in capsys.readouterr().err


@pytest.mark.parametrize("size", [["--size", "0"], ["--width", "0"], ["--height", "0"]])
def test_cli_refuses_a_zero_size(capsys: pytest.CaptureFixture[str], size: list[str]) -> None:
    """A zero size was once taken as 'not given' (a 15x15 match)."""
    with pytest.raises(SystemExit) as exit_:
        main(["match", "level:1", "level:1", *size])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {size[0]}: must be a whole number from 5 to 64, got 0" in err
    assert "Traceback" not in err


def test_cli_refuses_huge_time_odds(capsys: pytest.CaptureFixture[str]) -> None:
    """Huge odds were once a traceback."""
    assert main(["match", "level:1", "level:1", "--time-odds", "1e308"]) == 2
    err = capsys.readouterr().err
    assert "with time odds 1e+308 is more than the protocol's" in err
    assert "Traceback" not in err


def test_cli_board_size_defaults() -> None:
    from gridgames.cli.match import add_arguments, build_config

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    for options, size in [([], (15, 15)), (["--size", "9"], (9, 9)), (["--width", "9"], (9, 9)),
                          (["--size", "12", "--width", "9"], (9, 12)),
                          (["--width", "9", "--height", "7"], (9, 7))]:
        config = build_config(parser.parse_args(["level:1", "level:1", *options]))
        assert (config.width, config.height) == size, options


def test_cli_with_command_lines_and_an_openings_file(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    openings = tmp_path / "openings.txt"
    # The second as Piskvork's and Gomocup's files write openings: dx,dy from the centre.
    openings.write_text("# two openings\ne4f5\n0,0, -1,1\n", encoding="utf-8")
    command = f"{sys.executable} {FAKE} good"
    code = main(["match", command, command, "--games", "4", "--width", "9", "--height", "7",
                 "--openings", str(openings), "--concurrency", "2", "--time-ms", "500"])
    out = capsys.readouterr().out
    assert code == 0, out
    games = [line for line in out.splitlines() if line.startswith("Game ")]
    assert len(games) == 4 and "freestyle 9x7" in out
    assert sum("[opening e4f5]" in line for line in games) == 2
    assert sum("[opening e4d3]" in line for line in games) == 2
    assert "Elo difference" in out
