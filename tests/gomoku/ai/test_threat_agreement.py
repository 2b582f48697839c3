"""The threat agreement benchmark counts the judge's forced results against our search's."""

from __future__ import annotations

import json
from pathlib import Path

from ai_helpers import load_benchmark

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import Limit

agreement = load_benchmark("threat_agreement")

# Black makes five on row 7 while white answers on row 9: 9 moves.
WON = [(3, 7), (3, 9), (4, 7), (4, 9), (5, 7), (5, 9), (6, 7), (9, 9), (7, 7)]


def test_each_judged_position_is_counted_by_both_verdicts(tmp_path: Path) -> None:
    board = Board(15)
    board.push_many(WON)
    scores: list[int | None] = [None] * len(WON)
    scores[1] = 0  # a single stone on the board: nothing is forced
    scores[2] = -5000  # a judge that is wrong: nothing is forced yet
    scores[6] = 5000  # black's open three against white's: black makes an open four
    scores[7] = -5000  # white faces that open four
    record = {"rule": "freestyle", "width": 15, "height": 15,
              "moves": [list(m) for m in WON], "winner": "black", "scores": scores}
    rated = tmp_path / "rated.jsonl"
    rated.write_text(json.dumps(record) + "\n")
    counts = agreement.agreement(rated, Rule.FREESTYLE, Limit(nodes=20_000), 10, 1, 1)
    assert counts == {"win": {"win": 1, "loss": 0, "neither": 0},
                      "loss": {"win": 0, "loss": 1, "neither": 1},
                      "neither": {"win": 0, "loss": 0, "neither": 1}}
