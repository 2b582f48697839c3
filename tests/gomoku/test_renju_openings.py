"""The shipped renju openings, and the script that makes them (benchmarks/make_openings.py)."""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gridgames.cli.match import add_arguments, build_config
from gridgames.gomoku import Board, Color, Rule
from gridgames.gomoku.match import default_opening_moves
from gridgames.gomoku.notation import parse_position
from gridgames.gomoku.opening_rules import RENJU_OPENINGS, canonical_opening, opening_name
from gridgames.gomoku.openings import default_openings, load_openings

_SCRIPT = Path(__file__).parents[2] / "benchmarks" / "make_openings.py"
_spec = importlib.util.spec_from_file_location("make_openings", _SCRIPT)
assert _spec is not None and _spec.loader is not None
make_openings = importlib.util.module_from_spec(_spec)
sys.modules["make_openings"] = make_openings  # its dataclass looks its module up by name
_spec.loader.exec_module(make_openings)

CENTRE = (7, 7)


def stone_array(moves: list[tuple[int, int]]) -> np.ndarray:
    """15x15 array, 1 for black and 2 for white (moves alternate from black)."""
    grid = np.zeros((15, 15), dtype=np.int8)
    for i, (x, y) in enumerate(moves):
        grid[y, x] = 1 + i % 2
    return grid


def symmetry_key(moves: list[tuple[int, int]]) -> bytes:
    """The same bytes for positions that are rotations or mirror images of each other."""
    grid = stone_array(moves)
    images = [np.rot90(g, k) for g in (grid, grid.T) for k in range(4)]
    return min(image.tobytes() for image in images)


def longest_window(grid: np.ndarray, color: int) -> int:
    """Most stones of ``color`` in five points of a line holding no stone of the other."""
    other = 3 - color
    best = 0
    lines = [*grid, *grid.T]
    lines += [np.diagonal(grid, k) for k in range(-10, 11)]
    lines += [np.diagonal(np.fliplr(grid), k) for k in range(-10, 11)]
    for line in lines:
        for start in range(len(line) - 4):
            window = line[start:start + 5]
            if not (window == other).any():
                best = max(best, int((window == color).sum()))
    return best


# -- the 26 canonical openings ------------------------------------------------------------


def test_the_canonical_openings_are_the_26_classes_of_third_moves() -> None:
    openings = {code: parse_position(canonical_opening(code), 15, 15)
                for code, _, _ in RENJU_OPENINGS}
    assert len(openings) == 26
    for code, (first, second, third) in openings.items():
        assert first == CENTRE
        step = (second[0] - 7, second[1] - 7)
        # direct: white's stone next to black's on a line; indirect: on a diagonal
        assert step == ((0, -1) if code.endswith("D") else (1, -1)), code
        assert max(abs(third[0] - 7), abs(third[1] - 7)) <= 2 and third != second, code
        assert Board(15, rule=Rule.RENJU).push_many([first, second, third]) is None
    assert len({symmetry_key(moves) for moves in openings.values()}) == 26
    # every third move in the central 5x5 gives one of them
    for second in ((7, 6), (8, 6)):
        for x in range(5, 10):
            for y in range(5, 10):
                if (x, y) not in (CENTRE, second):
                    key = symmetry_key([CENTRE, second, (x, y)])
                    assert key in {symmetry_key(m) for m in openings.values()}, (x, y)


def test_known_openings_by_name() -> None:
    assert canonical_opening("4D") == "h8h9i9"    # Kagetsu
    assert canonical_opening("13i") == "h8i9f6"   # Suisei
    assert opening_name("2I") == "2I Kyogetsu"
    with pytest.raises(ValueError, match="allowed: 1D, 2D"):
        canonical_opening("14D")


# -- the shipped set ------------------------------------------------------------------------


def test_the_shipped_renju_openings_are_legal_quiet_and_distinct() -> None:
    texts = default_openings(Rule.RENJU)
    assert len(texts) >= 30
    canonical = {symmetry_key(parse_position(canonical_opening(code), 15, 15))
                 for code, _, _ in RENJU_OPENINGS}
    bases = set()
    for text in texts:
        moves = parse_position(text, 15, 15)
        board = Board(15, rule=Rule.RENJU)
        board.push_many(moves)  # raises if a black stone is on a forbidden point
        assert len(moves) == 5 and board.to_move is Color.WHITE, text
        assert not board.is_game_over(), text
        grid = stone_array(moves)
        # no four of either side: nobody wins in one move, no open four
        assert longest_window(grid, 1) <= 3 and longest_window(grid, 2) <= 3, text
        # the first three stones are a canonical renju opening
        base = symmetry_key(moves[:3])
        assert base in canonical, text
        bases.add(base)
    assert len({symmetry_key(parse_position(t, 15, 15)) for t in texts}) == len(texts)
    assert len(bases) >= 10  # spread over many base openings


def test_renju_matches_default_to_the_renju_set_and_other_rules_do_not() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    renju = build_config(parser.parse_args(["level:1", "level:1", "--rule", "renju"]))
    standard = build_config(parser.parse_args(["level:1", "level:1", "--rule", "standard"]))
    shipped = tuple(tuple(parse_position(t, 15, 15)) for t in default_openings(Rule.RENJU))
    assert renju.openings == shipped == default_opening_moves(15, 15, Rule.RENJU)
    assert standard.openings == default_opening_moves(15, 15) != shipped
    assert {len(o) for o in standard.openings} == {3}


# -- the script -----------------------------------------------------------------------------


def run_script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(_SCRIPT), *args], capture_output=True,
                          text=True, timeout=120, check=False)


def test_a_small_run_writes_a_file_that_reads_back_and_verifies(tmp_path: Path) -> None:
    out = tmp_path / "openings.txt"
    small = ["generate", "--bases", "13I", "11I", "--screen-depths", "2", "--keep", "2",
             "--depths", "2", "3", "--count", "3", "--out", str(out)]
    done = run_script(*small)
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Balanced 5-stone renju openings")
    openings = load_openings(out)
    assert 1 <= len(openings) <= 3
    for line in (line for line in text.splitlines() if not line.startswith("#")):
        position, comment = line.split("#", 1)
        board = Board(15, rule=Rule.RENJU)
        board.push_many(parse_position(position, 15, 15))
        assert len(board.move_stack) == 5
        score = int(comment.split()[0])
        assert abs(score) < 1000 and ("13I Suisei" in comment or "11I Shagetsu" in comment)
    # the searches are bounded by depth alone: a second run writes the same file
    again = tmp_path / "again.txt"
    assert run_script(*small[:-1], str(again)).returncode == 0
    assert again.read_text(encoding="utf-8") == text

    verified = run_script("verify", str(out), "--depths", "2")
    assert verified.returncode == 0, verified.stderr
    rows = [line for line in verified.stdout.splitlines() if line.startswith("h8")]
    assert [row.split()[0] for row in rows] == openings

    # a second opinion from a Gomocup brain (our own, run as a real subprocess); a
    # second, not a tenth: until its search is loaded a brain answers without a score
    brain = f"{sys.executable} -m gridgames.gomoku.gomocup.brain"
    judged = run_script("verify", str(out), "--depths", "2", "--brain", brain,
                        "--brain-time-ms", "1000")
    assert judged.returncode == 0, judged.stderr
    rows = [line.split() for line in judged.stdout.splitlines() if line.startswith("h8")]
    assert len(rows) == len(openings) and all(len(row) == 3 for row in rows)
    assert all(abs(int(row[2])) < 20_000 for row in rows)  # the brain's score, not a mate


def test_the_choice_passes_over_what_the_judge_turns_down() -> None:
    found = [make_openings.Candidate(base, ((7, 7),), (distance,))
             for base, distance in (("1D", 5), ("1D", 10), ("2D", 20), ("2D", 30), ("1D", 40))]
    distances = [c.distance for c in make_openings.select(found, 3, 2)]
    assert distances == [5, 10, 20]
    asked: list[int] = []

    def turn_down_ten(candidate: Any) -> bool:
        asked.append(candidate.distance)
        return bool(candidate.distance != 10)

    chosen = make_openings.select(found, 3, 2, turn_down_ten)
    assert [c.distance for c in chosen] == [5, 20, 30]  # the 40 is 1D's third
    assert asked == [5, 10, 20, 30]  # closest first, and none after the count is reached


def test_a_judge_brain_scores_the_kept_openings(tmp_path: Path) -> None:
    # our own brain, as a real subprocess, as the judge: every position it is asked
    # about and keeps carries its score, within the limit
    out = tmp_path / "judged.txt"
    brain = f"{sys.executable} -m gridgames.gomoku.gomocup.brain"
    done = run_script("generate", "--bases", "13I", "11I", "--screen-depths", "2",
                      "--keep", "2", "--depths", "2", "3", "--count", "2", "--out", str(out),
                      "--judge", brain, "--judge-ms", "1000", "--judge-limit", "5000")
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    assert "A position is kept only if python" in text and "within +-5000" in text
    rows = [line for line in text.splitlines() if not line.startswith("#")]
    assert rows
    for row in rows:
        judged = row.rsplit("; judge ", 1)[1]
        assert abs(int(judged)) <= 5000
        assert f"judge: {row.split()[0]} {judged}" in done.stderr


def test_the_script_refuses_bad_input(tmp_path: Path) -> None:
    done = run_script("generate", "--bases", "27D", "--out", str(tmp_path / "x.txt"))
    assert done.returncode == 2 and "unknown canonical opening '27D'" in done.stderr
    done = run_script("generate", "--judge", "x", "--judge-limit", "-5")
    assert done.returncode == 2 and "--judge-limit must be 0 or more" in done.stderr
    done = run_script("verify", "x.txt", "--brain", "x", "--brain-time-ms", "0")
    assert done.returncode == 2 and "--brain-time-ms must be 1 or more" in done.stderr
    done = run_script("verify", str(tmp_path / "missing.txt"))
    assert done.returncode == 2 and "cannot read the openings file" in done.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("# one good, one bad\nh8h9i9\nh8h9h8\n", encoding="utf-8")
    done = run_script("verify", str(bad), "--depths", "1")
    assert done.returncode == 2
    assert "opening 'h8h9h8'" in done.stderr and "occupied" in done.stderr
