"""The ordering fit reads a player's quiet moves from match records and learns from them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from ai_helpers import load_benchmark

from gridgames.gomoku import Board
from gridgames.gomoku.ai.patterns import F2, F3, N_SHAPES, combo_shapes
from gridgames.gomoku.records import GameRecord, save

fit_order = load_benchmark("fit_order")

# Black makes five on row 7 while white answers on row 9; the first three are the opening.
WON = [(3, 7), (3, 9), (4, 7), (4, 9), (5, 7), (5, 9), (6, 7), (9, 9), (7, 7)]
TIMES = [0, 0, 0, 120, 130, 140, 150, 160, 170]


def test_only_the_players_quiet_moves_after_the_opening_are_taken(tmp_path: Path) -> None:
    board = Board(15)
    board.push_many(WON)
    save(GameRecord.from_board(board, black="pbrain-strong", white="level:3", times_ms=TIMES),
         tmp_path / "game-0001.psq")
    positions = fit_order.read_positions([str(tmp_path)], fit_order.Rule.FREESTYLE, "strong")
    # black's moves after the opening are the 5th, 7th and 9th; before the 7th black
    # has an open three (an open four to make), before the 9th a four: not quiet
    assert len(positions) == 1
    played, mover = positions.played[0], positions.mover[0]
    # the candidate played makes black's open three on row 7
    assert F3 in combo_shapes(int(mover[played]))
    with pytest.raises(SystemExit, match="no quiet position where a player named like"):
        fit_order.read_positions([str(tmp_path)], fit_order.Rule.FREESTYLE, "nobody")


def test_the_fit_learns_the_shape_the_player_prefers() -> None:
    # every position: one candidate makes an open two for the side to move (the one
    # played), three make nothing
    two = F2 * N_SHAPES**3
    positions = fit_order.Positions()
    for game in range(40):
        positions.add(np.array([0, 0, two, 0]), np.zeros(4, dtype=np.int64), 2, game)
    model = fit_order.Softmax(positions, fit_order.combo_features())
    weights = np.zeros(model.x.shape[1])
    weights[[F2]] = model.fit(np.array([F2]))
    assert weights[F2] > 1
    assert (model.ranks(model.x @ weights) == 0).all()
    assert (model.places(model.x @ weights)[2::4] == 0).all()


def test_quiet_only_keeps_the_quiet_candidates_of_quiet_choices() -> None:
    three = F3 * N_SHAPES**3  # makes an open three: not quiet
    two = F2 * N_SHAPES**3
    positions = fit_order.Positions()
    positions.add(np.array([0, three, two, 0]), np.zeros(4, dtype=np.int64), 2, 1)
    positions.add(np.array([0, three, two]), np.zeros(3, dtype=np.int64), 1, 2)  # played a three
    quiet = fit_order.quiet_only(positions)
    assert len(quiet) == 1
    assert quiet.mover[0].tolist() == [0, two, 0]
    assert quiet.played[0] == 1


def test_a_record_with_an_illegal_move_is_refused_by_name(tmp_path: Path) -> None:
    bad = tmp_path / "game-0001.psq"
    bad.write_text("Piskvorky 15x15, 0:0, 0\n8,8,0\n8,8,10\nx\ny\n0\n")
    with pytest.raises(SystemExit, match=r"cannot read .*game-0001\.psq: move 2 is not legal"):
        fit_order.read_positions([str(tmp_path)], fit_order.Rule.FREESTYLE, "y")
