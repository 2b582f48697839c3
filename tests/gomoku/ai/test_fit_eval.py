"""The evaluation fit reads match records: .psq files and folders of them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from ai_helpers import load_benchmark

from gridgames.gomoku import Board
from gridgames.gomoku.openings import centred, default_openings
from gridgames.gomoku.records import GameRecord, save

fit_eval = load_benchmark("fit_eval")

# Black makes five on row 7 while white answers on row 9: 9 moves.
WON = [(3, 7), (3, 9), (4, 7), (4, 9), (5, 7), (5, 9), (6, 7), (9, 9), (7, 7)]


def _record(moves: list[tuple[int, int]], path: Path) -> None:
    board = Board(15)
    board.push_many(moves)
    save(GameRecord.from_board(board, black="a", white="b"), path)


def _written_game(scores: list[int | None], path: Path) -> str:
    """WON as ``generate`` writes it, with the engine's ``scores``."""
    board = Board(15)
    board.push_many(WON)
    path.write_text(json.dumps(fit_eval.game_record(board, scores)) + "\n")
    return str(path)


def test_a_match_folder_gives_the_quiet_positions_of_its_finished_games(tmp_path: Path) -> None:
    _record(WON, tmp_path / "game-0001.psq")
    _record(WON[:4], tmp_path / "game-0002.psq")  # unfinished: says nothing, skipped
    rows = fit_eval.read_positions([str(tmp_path)], fit_eval.Rule.FREESTYLE)
    games = fit_eval.match_games(tmp_path, fit_eval.Rule.FREESTYLE)
    assert [g["winner"] for g in games] == ["black"]
    assert rows == fit_eval.quiet_positions(games[0])
    # the first three positions: black to move (the winner), white, black
    assert [r[0] for r in rows[:3]] == [1.0, 0.0, 1.0]
    # a single file reads the same as its folder
    assert fit_eval.read_positions([str(tmp_path / "game-0001.psq")],
                                   fit_eval.Rule.FREESTYLE) == rows


def test_a_file_that_is_not_a_record_is_refused_by_name(tmp_path: Path) -> None:
    bad = tmp_path / "notes.psq"
    bad.write_text("hello\n")
    with pytest.raises(SystemExit, match=r"cannot read .*notes\.psq .*records.*: not a"):
        fit_eval.read_positions([str(bad)], fit_eval.Rule.FREESTYLE)


def test_written_games_carry_the_engine_scores_into_their_positions(tmp_path: Path) -> None:
    scores = [None, None, None, 10, -20, 30, -40, 50, 60]
    games = _written_game(scores, tmp_path / "games.jsonl")
    rows = fit_eval.read_positions([games], fit_eval.Rule.FREESTYLE)
    # the quiet ones: those before black, to move, can make an open four
    assert [r[1] for r in rows] == scores[:6]
    assert [r[0] for r in rows[:2]] == [1.0, 0.0]


def test_a_search_target_needs_games_with_scores(tmp_path: Path) -> None:
    _record(WON, tmp_path / "game-0001.psq")
    with pytest.raises(SystemExit, match="no position has a score"):
        fit_eval.fit([str(tmp_path)], 0.3, fit_eval.Rule.FREESTYLE, search_weight=1.0)


def test_random_self_play_moves_are_near_the_stones_and_carry_no_score() -> None:
    board, scores = next(fit_eval.self_play(1, 100, fit_eval.Rule.FREESTYLE, seed=3,
                                            random_moves=1.0))
    assert board.outcome() is not None or not board.legal_moves
    assert scores == [None] * len(board.move_stack)
    stones = board.move_stack
    opening = max(len(centred(o, 15, 15) or []) for o in default_openings(fit_eval.Rule.FREESTYLE))
    assert len(stones) > opening
    for ply in range(opening, len(stones)):
        assert any(abs(stones[ply][0] - x) <= 2 and abs(stones[ply][1] - y) <= 2
                   for x, y in stones[:ply])


def test_self_play_never_starts_twice_from_one_position() -> None:
    """At a fixed node count a start played again is the same game again: a start
    already played gets random moves until it is new."""
    rng = fit_eval.random.Random(5)
    played: set[tuple[tuple[int, int], ...]] = set()
    starts = [fit_eval.opening_board(rng, ["h8i9j10"], fit_eval.Rule.FREESTYLE, played)
              for _ in range(60)]
    keys = [tuple(board.move_stack) for board in starts]
    assert len(set(keys)) == 60 and set(keys) == played
    opening = tuple(centred("h8i9j10", 15, 15) or [])
    assert all(key[:3] == opening for key in keys)
    # without the set, the one opening with no random move comes back
    rng = fit_eval.random.Random(5)
    again = [tuple(fit_eval.opening_board(rng, ["h8i9j10"], fit_eval.Rule.FREESTYLE).move_stack)
             for _ in range(60)]
    assert len(set(again)) < 60


def test_a_given_score_scale_turns_the_scores_into_the_targets(tmp_path: Path) -> None:
    games = _written_game([None, None, None, 100, -200, 300, -400, 500, 600],
                          tmp_path / "games.jsonl")
    data = fit_eval.dataset([games], fit_eval.Rule.FREESTYLE, 1.0, score_scale=100)
    assert data.targets == pytest.approx(1 / (1 + np.exp(-np.array([1.0, -2.0, 3.0]))))
