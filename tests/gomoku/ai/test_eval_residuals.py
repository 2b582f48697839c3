"""The residual fit reads quiet positions with their finer shapes and finds a planted weight."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from ai_helpers import BENCHMARKS, load_benchmark

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai.patterns import B3, F2, F3, N_CLASSES, N_SHAPES, line_key, line_table
from gridgames.gomoku.ai.search import evaluate
from gridgames.gomoku.records import GameRecord, save

eval_residuals = load_benchmark("eval_residuals")
fit_eval = load_benchmark("fit_eval")
FINE = eval_residuals.FINE_NAMES


@pytest.fixture(scope="module")
def fine() -> np.ndarray:
    return eval_residuals.fine_table(Rule.FREESTYLE)


def test_an_open_three_is_told_apart_by_its_ways_to_an_open_four(fine: np.ndarray) -> None:
    # . . . X X [.] . . . . .: both ends can make an open four
    free = line_key([0, 0, 0, 1, 1, 0, 0, 0, 0, 0])
    # | | . X X [.] . . . . .: the wall two cells off leaves one
    walled = line_key([3, 3, 0, 1, 1, 0, 0, 0, 0, 0])
    table = line_table(Rule.FREESTYLE.code)
    assert table[0, free] == table[0, walled] == F3
    assert FINE[fine[0, free] - 1] == "F3/2+"
    assert FINE[fine[0, walled] - 1] == "F3/1"
    assert fine[1, free] == 0  # white there makes nothing on this line


def random_game(rng: random.Random) -> Board:
    """A freestyle game of random moves near the stones, played to its end."""
    board = Board(15)
    board.push((7, 7))
    while board.outcome() is None:
        board.push(rng.choice(fit_eval.near_moves(board)))
    return board


def test_each_quiet_position_gives_its_result_evaluation_and_shape_counts(fine: np.ndarray) -> None:
    board = random_game(random.Random(3))
    game = {"rule": "freestyle", "width": 15, "height": 15,
            "moves": [list(m) for m in board.move_stack],
            "winner": board.outcome().winner.name.lower()}
    rows = eval_residuals.position_rows(Rule.FREESTYLE)(game)
    assert rows
    winner = 1 if game["winner"] == "black" else 2
    side = N_SHAPES + N_CLASSES + len(FINE)
    replay = P.new_position(15, 15, Rule.FREESTYLE.code, P.new_table(4))
    for move in board.move_stack[:6]:
        P.make(replay, P.cell_index(replay, move))
    for row in rows:
        assert row[0] in (0.0, 1.0)
        for start in (3, 3 + side):
            shapes = row[start:start + N_SHAPES]
            finer = row[start + N_SHAPES + N_CLASSES:start + side]
            # every open three, open two and blocked three falls in one finer shape
            assert finer[0] + finer[1] == shapes[F3]
            assert finer[2] + finer[3] + finer[4] == shapes[F2]
            assert finer[5] + finer[6] == shapes[B3]
    # one row for each quiet position from the 7th move on; the first's evaluation is
    # the engine's, and its result the side to move's
    plies = [p for p in fit_eval.quiet_plies(game) if p >= 6]
    assert len(rows) == len(plies)
    for move in board.move_stack[6:plies[0]]:
        P.make(replay, P.cell_index(replay, move))
    assert rows[0][1] == evaluate(replay)
    side_to_move = 1 if plies[0] % 2 == 0 else 2
    assert rows[0][0] == float(winner == side_to_move)


def test_the_logistic_fit_finds_a_planted_weight() -> None:
    rng = np.random.default_rng(5)
    x = np.column_stack([rng.normal(size=4000), rng.normal(size=4000)])
    y = (rng.random(4000) < 1 / (1 + np.exp(-(x[:, 0] + 0.8 * x[:, 1])))).astype(float)
    weights = eval_residuals.fit_logistic(x, y, ridge=0.1)
    assert abs(weights[0] - 1) < 0.15 and abs(weights[1] - 0.8) < 0.15


def write_games(folder: Path, count: int, seed: int) -> None:
    rng = random.Random(seed)
    folder.mkdir()
    for number in range(1, count + 1):
        record = GameRecord.from_board(random_game(rng), black="a", white="b")
        save(record, folder / f"game-{number:04d}.psq")


def test_the_script_prints_the_held_out_losses_and_the_correction(tmp_path: Path) -> None:
    write_games(tmp_path / "games", 12, seed=7)
    run = subprocess.run([sys.executable, str(BENCHMARKS / "eval_residuals.py"),
                          str(tmp_path / "games"), "--folds", "2"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "evaluation alone" in run.stdout and "finer shapes" in run.stdout
    assert "shape=((" in run.stdout and "klass=((" in run.stdout
    assert "the correction's standard deviation over the positions" in run.stdout


def test_too_few_openings_for_the_folds_is_refused_by_name(tmp_path: Path) -> None:
    write_games(tmp_path / "games", 2, seed=8)
    run = subprocess.run([sys.executable, str(BENCHMARKS / "eval_residuals.py"),
                          str(tmp_path / "games"), "--folds", "5"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode != 0
    assert "cannot be split into 5 folds" in run.stderr
    assert "Traceback" not in run.stderr
