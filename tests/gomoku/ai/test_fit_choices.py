"""The fit to a deeper search's choices: the children it builds are what the search
evaluates, its gradient is right, and it writes a network the engine loads."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from ai_helpers import FREESTYLE_GAME as MOVES
from ai_helpers import load_benchmark

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai import search as S
from gridgames.gomoku.ai.patterns import NET_INPUTS, eval_net, load_net

fit_choices = load_benchmark("fit_choices")
fit_eval = load_benchmark("fit_eval")


def _row(moves: list[tuple[int, int]], chosen: tuple[int, int]) -> dict:
    return {"rule": "freestyle", "width": 15, "height": 15, "moves": [list(m) for m in moves],
            "chosen": list(chosen), "score": 0}


def test_each_child_carries_the_inputs_the_search_evaluates() -> None:
    net = eval_net(Rule.FREESTYLE.code)
    far = _row(MOVES[:10], (0, 14))  # a move far from the stones: left out
    data = fit_choices.children([_row(MOVES[:10], MOVES[10]), far, _row(MOVES[:11], MOVES[11])])
    assert len(data.chosen) == 2 and data.start[-1] == len(data.z)
    for i, (prefix, chosen) in enumerate([(MOVES[:10], MOVES[10]), (MOVES[:11], MOVES[11])]):
        board = Board(15)
        board.push_many(prefix)
        moves = fit_eval.near_moves(board)
        assert data.start[i + 1] - data.start[i] == len(moves)
        assert data.chosen[i] == data.start[i] + moves.index(chosen)
        pos = P.new_position(15, 15, Rule.FREESTYLE.code)
        for move in prefix:
            P.make(pos, P.cell_index(pos, move))
        for k, move in enumerate(moves):
            P.make(pos, P.cell_index(pos, move))
            logit = fit_eval.flat_net_logits(net, data.z[data.start[i] + k][None, :])[0]
            assert abs(S.evaluate(pos) - logit * net[-1]) <= 1
            P.unmake(pos)


def test_the_gradient_is_that_of_the_loss() -> None:
    rng = np.random.default_rng(3)
    sizes = [4, 7, 5]
    start = np.concatenate([[0], np.cumsum(sizes)])
    data = fit_choices.Choices(rng.normal(size=(start[-1], NET_INPUTS)), start,
                               start[:-1] + np.array([1, 6, 0]))
    params = {"hidden": rng.normal(size=(NET_INPUTS, 3)), "hidden_bias": rng.normal(size=3),
              "out": rng.normal(size=3), "linear": rng.normal(size=NET_INPUTS) * 0.1,
              "bias": np.array([0.2])}
    anchor = rng.normal(size=start[-1])
    positions = np.arange(3)

    def loss(p: dict[str, np.ndarray], beta: float) -> float:
        value = fit_choices.choice_loss(p, beta, data, positions)[0]
        rows = np.arange(start[-1])
        logits = fit_eval.net_forward(p, data.z[rows])[0]
        return value + 0.7 * float(np.mean((logits - anchor) ** 2))

    _, _, d_beta, grads = fit_choices.choice_loss(params, 1.3, data, positions, True, anchor,
                                                  0.7)
    eps = 1e-6
    assert abs((loss(params, 1.3 + eps) - loss(params, 1.3 - eps)) / (2 * eps) - d_beta) < 1e-5
    for key, value in params.items():
        for index in [(0,) * value.ndim, tuple(s - 1 for s in value.shape)]:
            plus = {k: v.copy() for k, v in params.items()}
            minus = {k: v.copy() for k, v in params.items()}
            plus[key][index] += eps
            minus[key][index] -= eps
            numeric = (loss(plus, 1.3) - loss(minus, 1.3)) / (2 * eps)
            assert abs(numeric - grads[key][index]) < 1e-5, (key, index)


def test_label_and_fit_write_a_network_the_engine_loads(tmp_path: Path, capsys) -> None:
    board = Board(15)
    board.push_many(MOVES[:16])
    games = tmp_path / "games.jsonl"
    games.write_text(json.dumps(fit_eval.game_record(board)) + "\n")
    chosen = tmp_path / "chosen.jsonl"
    fit_choices.label([str(games)], str(chosen), 2000, 1, Rule.FREESTYLE, 1, 1)
    rows = [json.loads(line) for line in chosen.read_text().splitlines()]
    quiet = [ply for ply in fit_eval.quiet_plies(fit_eval.game_record(board)) if ply >= 6]
    # every quiet position from the 7th move on whose search found no win or loss
    assert rows and {len(r["moves"]) for r in rows} <= set(quiet)
    for row in rows:
        position = Board(15)
        position.push_many([tuple(m) for m in row["moves"]])
        assert tuple(row["chosen"]) in position.legal_moves
    out = tmp_path / "net.json"
    fit_choices.fit([str(chosen)], str(out), Rule.FREESTYLE, 1.0)
    assert "held-out log-loss" in capsys.readouterr().out
    net = load_net(out)
    assert net[0] == eval_net(Rule.FREESTYLE.code)[0]
    assert net[-1] == eval_net(Rule.FREESTYLE.code)[-1]
