"""The search's margins and the evaluation's weights carried by the position, and the
SPSA runs that tune them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from ai_helpers import BENCHMARKS, FAKE_BRAIN
from test_think import middle_game

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import Limit, SearchParams, default_params, think
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai import search as S
from gridgames.gomoku.ai.engine import Helpers, load_position
from gridgames.gomoku.ai.params import FREESTYLE_PARAMS
from gridgames.gomoku.ai.patterns import eval_weights


def test_each_rule_starts_from_its_own_margins() -> None:
    assert default_params(Rule.FREESTYLE.code) == FREESTYLE_PARAMS != SearchParams()
    for rule in (Rule.STANDARD, Rule.RENJU, Rule.CARO):
        assert default_params(rule.code) == SearchParams()
    pos = load_position(middle_game(Rule.RENJU))
    assert P.params_of(pos) == SearchParams()


def test_the_search_reads_its_margins_from_the_position() -> None:
    board = middle_game()
    plain = think(board, Limit(depth=7))
    same = think(board, Limit(depth=7), params=default_params(Rule.FREESTYLE.code))
    assert (same.move, same.nodes, same.score) == (plain.move, plain.nodes, plain.score)
    for changed in ({"futility_margin": 40}, {"lmr_scale": 200}, {"own_weight": 100},
                    {"move_count_scale": 50}, {"reverse_futility_depth": 2},
                    {"futility_depth": 5}, {"late_count_scale": 50}):
        other = think(board, Limit(depth=7),
                      params=default_params(Rule.FREESTYLE.code)._replace(**changed))
        assert other.nodes != plain.nodes, changed
    # null moves need a position where neither side is winning yet
    opening = Board(15)
    opening.push_many([(7, 7), (8, 8), (8, 6), (6, 8)])
    plain = think(opening, Limit(depth=10))
    for changed in ({"null_base": 500}, {"null_per_ply": 0}, {"singular_depth": 0},
                    {"singular_margin": 10}):
        other = think(opening, Limit(depth=10),
                      params=default_params(Rule.FREESTYLE.code)._replace(**changed))
        assert other.nodes != plain.nodes, changed


def test_helper_searches_play_with_the_main_search_margins() -> None:
    board = middle_game()
    params = SearchParams(futility_margin=77, lmr_base=10, history_cut=999)
    pos = load_position(board, params=params)
    assert S.prepare_root(pos) > 0
    helpers = Helpers(board, pos, 2)
    helpers.stop()
    for helper in helpers.positions:
        assert P.params_of(helper) == params


def test_the_search_reads_the_evaluation_weights_it_is_given() -> None:
    board = middle_game()
    own = eval_weights(Rule.FREESTYLE.code)
    plain = think(board, Limit(depth=7))
    same = think(board, Limit(depth=7), weights=own)
    assert (same.move, same.nodes, same.score) == (plain.move, plain.nodes, plain.score)
    # the opponent's open threes worth nothing to the side to move: another search
    klass = (own.klass[0], tuple(0 if k == 5 else v for k, v in enumerate(own.klass[1])))
    other = think(board, Limit(depth=7), weights=own._replace(klass=klass, tempo=0))
    assert (other.nodes, other.score) != (plain.nodes, plain.score)
    pos = load_position(board, weights=own._replace(tempo=0))
    assert pos.info[P.I_TEMPO] == 0
    helpers = Helpers(board, pos, 1, own._replace(klass=klass))
    helpers.stop()
    assert (helpers.positions[0].combo_table != pos.combo_table).any()


def _tune(*args: str, script: str = "tune_search.py") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCHMARKS / script), *args],
                          capture_output=True, text=True, timeout=600, check=False)


def test_a_short_tuning_run_of_the_evaluation_weights(tmp_path: Path) -> None:
    log = tmp_path / "steps.jsonl"
    done = _tune("--pairs", "2", "--nodes", "300", "--workers", "1", "--report", "1",
                 "--only", "waiter.BLOCK3,mover.FLEX3,tempo", "--log", str(log),
                 script="tune_eval.py")
    assert done.returncode == 0, done.stderr
    steps = [json.loads(line) for line in log.read_text().splitlines()]
    assert [s["step"] for s in steps] == [1, 2]
    assert set(steps[0]["theta"]) == {"waiter.BLOCK3", "mover.FLEX3", "tempo"}
    assert done.stdout.splitlines()[-1].startswith("EvalWeights(shape=")
    bad = _tune("--only", "mover.FIVE", script="tune_eval.py")
    assert bad.returncode != 0 and "unknown values ['mover.FIVE']" in bad.stderr


def test_a_short_tuning_run_logs_every_step_and_prints_the_values(tmp_path: Path) -> None:
    log = tmp_path / "steps.jsonl"
    done = _tune("--pairs", "3", "--nodes", "300", "--workers", "1", "--report", "1",
                 "--only", "futility_margin,own_weight", "--log", str(log))
    assert done.returncode == 0, done.stderr
    steps = [json.loads(line) for line in log.read_text().splitlines()]
    assert [s["step"] for s in steps] == [1, 2, 3]
    for s in steps:
        assert s["result"] in (-2, -1, 0, 1, 2)
        assert set(s["theta"]) == {"futility_margin", "own_weight"}
        # the two sides of a step differ in every value tuned
        for name, value in s["plus"].items():
            assert value != s["minus"][name]
    assert "step 3/3" in done.stdout
    assert "SearchParams(futility_margin=" in done.stdout.splitlines()[-1]
    assert "signals over 3 steps" in done.stdout
    # the signal is the mean of result x the sign of the value's move, from the log
    own = [s["result"] * (1 if s["plus"]["own_weight"] > s["minus"]["own_weight"] else -1)
           for s in steps]
    again = _tune("--signals", str(log))
    assert again.returncode == 0, again.stderr
    line = next(row for row in again.stdout.splitlines() if "own_weight" in row)
    assert line.split()[1] == f"{sum(own) / 3:+.3f}"
    assert line in done.stdout


@pytest.mark.parametrize(("text", "message"), [
    (None, "cannot read the tuning log"),
    ("{not json\n", "cannot read the tuning log"),
    ("", "is not a tuning log"),
    ('{"step": 1, "result": 2}\n', "each line must be a step with minus, plus, result, theta"),
])
def test_signals_of_a_log_that_is_not_one_say_what_is_wrong(tmp_path: Path, text: str | None,
                                                             message: str) -> None:
    log = tmp_path / "steps.jsonl"
    if text is not None:
        log.write_text(text)
    done = _tune("--signals", str(log))
    assert done.returncode != 0
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unknown_value_to_tune_is_refused_with_the_known_ones() -> None:
    done = _tune("--only", "futility_margin,razor_depth")
    assert done.returncode != 0
    assert "unknown values ['razor_depth']" in done.stderr
    assert "lmr_base" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(("changed", "message"), [
    ({"own_weight": 0}, "own_weight must be a whole number of at least 1, got 0"),
    ({"futility_margin": -5}, "futility_margin must be a whole number of at least 0"),
    ({"lmr_scale": 1.5}, "lmr_scale must be a whole number of at least 0, got 1.5"),
    ({"null_base": 50}, "null_base must be a whole number of at least 100, got 50"),
])
def test_margins_the_search_cannot_use_are_refused_by_name(changed: dict, message: str
                                                            ) -> None:
    with pytest.raises(ValueError, match=message):
        think(middle_game(), Limit(depth=2), params=SearchParams()._replace(**changed))


def test_tuning_against_an_opponent_plays_each_side_against_it(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    heard = tmp_path / "heard.txt"
    monkeypatch.setenv("FAKE_BRAIN_LOG", str(heard))
    log = tmp_path / "steps.jsonl"
    done = _tune("--pairs", "2", "--nodes", "300", "--workers", "1", "--report", "1",
                 "--only", "futility_margin", "--log", str(log),
                 "--opponent", f"{sys.executable} {FAKE_BRAIN} good", "--opponent-nodes", "500")
    assert done.returncode == 0, done.stderr
    steps = [json.loads(line) for line in log.read_text().splitlines()]
    # both sides beat a player of the first empty point with either colour: no signal
    assert [(s["step"], s["result"]) for s in steps] == [(1, 0), (2, 0)]
    lines = heard.read_text().splitlines()
    assert "INFO max_node 500" in lines
    # four games a step: each side a pair against it (the check's game comes first)
    assert sum(line.startswith(("BOARD", "BEGIN")) for line in lines) >= 8


@pytest.mark.parametrize(("mode", "message"), [
    ("crash-start", "does not play as a Gomocup brain"),
    ("crash-late 3", "the opponent failed at step 1: opponent ended with exit code 3"),
])
def test_an_opponent_that_fails_stops_the_tuning_with_why(tmp_path: Path, mode: str,
                                                          message: str) -> None:
    log = tmp_path / "steps.jsonl"
    done = _tune("--pairs", "2", "--nodes", "300", "--workers", "1", "--only",
                 "futility_margin", "--log", str(log),
                 "--opponent", f"{sys.executable} {FAKE_BRAIN} {mode}")
    assert done.returncode != 0
    assert message in done.stderr
    assert "Traceback" not in done.stderr
