"""The evaluation network: the search computes the network that was fitted, on the
inputs the fit saw, and refuses a broken network file."""

from __future__ import annotations

import itertools
import json
import shlex
import sys
from pathlib import Path

import numpy as np
import pytest
from ai_helpers import FAKE_BRAIN, load_benchmark
from ai_helpers import FREESTYLE_GAME as MOVES

from gridgames.gomoku import Rule
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai import search as S
from gridgames.gomoku.ai.patterns import EVAL_SCALE, NET_INPUTS, eval_net, load_net

fit_eval = load_benchmark("fit_eval")
fit_choices = load_benchmark("fit_choices")

def _linear(pos: P.Position) -> int:
    """The linear evaluation: the side to move's sum less the other's, and the tempo."""
    me = int(pos.info[P.I_SIDE]) - 1
    return int((pos.info[P.I_VALUE + me] - pos.info[P.I_WAIT_VALUE + 1 - me]) // EVAL_SCALE
               + pos.info[P.I_TEMPO])


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.STANDARD, Rule.RENJU])
def test_each_rule_with_a_network_is_evaluated_by_it_on_every_position_of_a_game(rule: Rule
                                                                                ) -> None:
    net = eval_net(rule.code)
    assert net[0] > 0
    pos = P.new_position(15, 15, rule.code)
    differs = 0
    for move in MOVES:
        P.make(pos, P.cell_index(pos, move))
        expected = float(fit_eval.flat_net_logits(net, fit_choices.net_inputs_of(pos)) * net[-1])
        assert abs(S.evaluate(pos) - expected) <= 1
        differs += abs(S.evaluate(pos) - _linear(pos)) > 10
    assert differs > len(MOVES) // 2


def test_the_fit_sees_the_inputs_the_search_reads() -> None:
    pos = P.new_position(15, 15, Rule.FREESTYLE.code)
    per_combo = fit_eval.combo_features()
    width = per_combo.shape[1]
    weights = fit_eval.eval_weights(Rule.FREESTYLE.code)
    for move in MOVES:
        P.make(pos, P.cell_index(pos, move))
        histograms, _ = fit_eval.features(pos)
        x = np.zeros((1, 2 * width))
        for side, histogram in ((0, histograms[0]), (width, histograms[1])):
            for combo, count in histogram:
                x[0, side:side + width] += count * per_combo[combo]
        assert np.array_equal(fit_eval.net_inputs(x, weights)[0], fit_choices.net_inputs_of(pos))


def test_renju_has_a_network_of_its_own_and_caro_stays_linear() -> None:
    assert not np.array_equal(eval_net(Rule.RENJU.code), eval_net(Rule.FREESTYLE.code))
    for rule in (Rule.CARO, Rule.CARO_EXACT):
        assert eval_net(rule.code).size == 0
    pos = P.new_position(15, 15, Rule.CARO.code)
    for move in MOVES[:9]:
        P.make(pos, P.cell_index(pos, move))
    assert S.evaluate(pos) == _linear(pos)


def test_a_broken_network_file_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "net.json"
    path.write_text("{not json")
    with pytest.raises(ValueError, match=r"net\.json: not an evaluation network"):
        load_net(path)
    good = {"hidden": [[0.0] * NET_INPUTS] * 2, "hidden_bias": [0, 0], "out": [1, 1],
            "linear": [0.0] * NET_INPUTS, "bias": 0.5, "scale": 200}
    path.write_text(json.dumps(good))
    assert load_net(path).size == 1 + 2 * NET_INPUTS + 2 + 2 + NET_INPUTS + 2
    for broken in ({"out": [1]}, {"hidden": 5}, {"hidden": []}):
        path.write_text(json.dumps({**good, **broken}))
        with pytest.raises(ValueError, match=r"net\.json: an evaluation network has H rows"):
            load_net(path)


def test_fit_net_writes_a_network_the_engine_loads(tmp_path: Path) -> None:
    board = fit_eval.Board(15)
    board.push_many(MOVES)
    games = tmp_path / "games.jsonl"
    scores = [(-1) ** i * 10 * i for i in range(len(MOVES))]
    record = fit_eval.game_record(board, scores)
    record["winner"] = "black"
    games.write_text(json.dumps(record) + "\n")
    out = tmp_path / "net.json"
    fit_eval.fit_net([str(games)], Rule.FREESTYLE, 1.0, 3, str(out), seed=1)
    net = load_net(out)
    assert net[0] == 3
    assert net[-1] == json.loads(out.read_text())["scale"] > 0


def _game_file(tmp_path: Path, plies: int) -> tuple[fit_eval.Board, Path]:
    """The first ``plies`` moves of MOVES, written as ``generate`` writes a game."""
    board = fit_eval.Board(15)
    board.push_many(MOVES[:plies])
    games = tmp_path / "games.jsonl"
    games.write_text(json.dumps(fit_eval.game_record(board)) + "\n")
    return board, games


def _fake_judge(mode: str) -> str:
    return shlex.join([sys.executable, str(FAKE_BRAIN), mode])


def test_label_writes_a_judges_scores_of_the_quiet_positions(tmp_path: Path) -> None:
    _, games = _game_file(tmp_path, 12)
    out = tmp_path / "rated.jsonl"
    # a brain that reports, in Rapfi's words, that it will be mated in 7
    fit_eval.label([str(games)], str(out), _fake_judge("chatty"), 100, 1, Rule.FREESTYLE, 1, 1)
    (rated,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert rated["moves"] == [list(m) for m in MOVES[:12]]
    quiet = [ply for ply in fit_eval.quiet_plies(rated) if ply >= 6]
    assert quiet
    # every quiet position from the 7th move on, and only those, has the judge's score
    assert rated["scores"] == [-fit_eval.MATE_SCORE if ply in quiet else None
                               for ply in range(12)]


def test_games_of_another_rule_are_replayed_and_those_ending_otherwise_left_out(
        tmp_path: Path) -> None:
    white = [(0, 10), (2, 10), (4, 10), (6, 10), (8, 10)]

    def game(black: list[tuple[int, int]]) -> dict:
        board = fit_eval.Board(15)  # freestyle
        pairs = itertools.zip_longest(black, white)
        board.push_many([m for pair in pairs for m in pair if m][:2 * len(black) - 1])
        return fit_eval.game_record(board)
    five = game([(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)])
    six = game([(0, 0), (1, 0), (2, 0), (4, 0), (5, 0), (3, 0)])  # an overline
    assert five["winner"] == six["winner"] == "black"
    games = tmp_path / "freestyle.jsonl"
    games.write_text("".join(json.dumps(g) + "\n" for g in (five, six)))
    with pytest.raises(SystemExit, match="is a freestyle game, not standard"):
        fit_eval.for_each_game([str(games)], Rule.STANDARD, lambda g: g)
    kept = fit_eval.for_each_game([str(games)], Rule.STANDARD, lambda g: g, Rule.FREESTYLE)
    assert kept == [{**five, "rule": "standard"}]


def test_label_refuses_a_record_with_an_illegal_move_by_name(tmp_path: Path) -> None:
    board = fit_eval.Board(15)
    board.push_many(MOVES[:8])
    record = fit_eval.game_record(board)
    record["moves"].append(list(MOVES[0]))  # a stone on an occupied point
    games = tmp_path / "bad.jsonl"
    games.write_text(json.dumps(record) + "\n")
    judge = _fake_judge("chatty")
    with pytest.raises(SystemExit, match=r"cannot read .*bad\.jsonl"):
        fit_eval.label([str(games)], str(tmp_path / "out.jsonl"), judge, 100, 1,
                       Rule.FREESTYLE, 1, 1)
    assert not (tmp_path / "out.jsonl").exists()


def test_siblings_writes_a_judges_scores_of_positions_and_of_their_best_moves(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board, games = _game_file(tmp_path, 14)
    out = tmp_path / "siblings.jsonl"
    # a brain whose score is 10 times the sum of the stones' x: each child's differs
    fit_eval.label_siblings([str(games)], str(out), _fake_judge("scoring"), 100, 1,
                            Rule.FREESTYLE, 1, 1, nodes=300, width=3)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    quiet = [ply for ply in fit_eval.quiet_plies(fit_eval.game_record(board)) if ply >= 6]
    assert [len(row["moves"]) for row in rows] == quiet
    for row in rows:
        stones = [tuple(m) for m in row["moves"]]
        assert row["score"] == 10 * sum(x for x, _ in stones)
        position = fit_eval.Board(15)
        position.push_many(stones)
        ours = [r.move for r in fit_eval.analyse(position, fit_eval.Limit(nodes=300), 3)]
        # our three best and the judge's own (the fake plays the free point nearest the
        # centre), each scored after it is played
        moves = [(x, y) for x, y, _ in row["children"]]
        assert set(moves) >= set(ours) and len(set(moves)) == len(moves) <= 4
        assert all(score == 10 * (sum(x for x, _ in stones) + x)
                   for x, _, score in row["children"])
    siblings = fit_eval.read_siblings([str(out)], Rule.FREESTYLE, score_scale=10)
    assert 0 < siblings.groups[-1] + 1 <= len(rows)
    for group in np.unique(siblings.groups):
        targets = siblings.targets[siblings.groups == group]
        # each child's x less its siblings' mean: they sum to 0, a whole x apart
        assert len(targets) >= 2 and abs(targets.sum()) < 1e-9
        assert np.allclose(targets - targets[0], np.round(targets - targets[0]))
    games.write_text(json.dumps(fit_eval.game_record(board, [(-1) ** i * 10 * i for i in
                                                             range(14)])) + "\n")
    capsys.readouterr()
    fit_eval.fit_net([str(games)], Rule.FREESTYLE, 1.0, 3, str(tmp_path / "net.json"), seed=1,
                     score_scale=10, sibling_paths=[str(out)])
    printed = capsys.readouterr().out
    assert f"{len(siblings.x)} child positions of {siblings.groups[-1] + 1} parents" in printed
    assert printed.count("held-out siblings") == 3
    assert load_net(tmp_path / "net.json")[0] == 3


def test_fit_net_refuses_a_file_siblings_did_not_write_by_name_and_line(tmp_path: Path) -> None:
    _, games = _game_file(tmp_path, 14)  # a game, not positions with rated children
    with pytest.raises(SystemExit, match=r"cannot read .*games\.jsonl \(positions written "
                                         r"by 'siblings'\), line 1: 'children'"):
        fit_eval.read_siblings([str(games)], Rule.FREESTYLE, score_scale=450)
