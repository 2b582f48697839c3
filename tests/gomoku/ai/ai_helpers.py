"""Shared helpers for the engine tests (positions written in renju notation)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.notation import parse_renju

BENCHMARKS = Path(__file__).parents[3] / "benchmarks"
# A scripted Gomocup brain (see its docstring for the modes)
FAKE_BRAIN = Path(__file__).parents[1] / "gomocup" / "fake_brain.py"
# A freestyle game of 30 moves, neither side making five.
FREESTYLE_GAME = [
    (7, 7), (8, 8), (8, 6), (6, 8), (9, 5), (10, 4), (7, 5), (6, 4), (7, 6), (7, 4),
    (7, 8), (7, 9), (9, 7), (10, 8), (6, 6), (5, 5), (9, 6), (10, 6), (9, 8), (9, 9),
    (6, 7), (5, 7), (8, 4), (10, 2), (10, 7), (11, 8), (5, 9), (4, 10), (12, 9), (8, 5),
]


def load_benchmark(name: str) -> ModuleType:
    """The script ``benchmarks/<name>.py`` as a module (it is not a package); the scripts
    beside it import as they do when it runs."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCHMARKS))
    return module


def stones(text: str, height: int = 15) -> list[tuple[int, int]]:
    """Points in renju notation, e.g. ``"h8 i9"``."""
    return [parse_renju(p, height, height) for p in text.split()]


def position(black: str, white: str, *, rule: Rule = Rule.FREESTYLE, size: int = 15) -> Board:
    """A board with the stones played alternately, black first (their counts decide who moves).

    Black's list may be one longer than white's (white to move) or as long (black to move).
    """
    blacks, whites = stones(black, size), stones(white, size)
    assert len(blacks) - len(whites) in (0, 1), "black has as many stones as white, or one more"
    board = Board(size, rule=rule)
    for i, point in enumerate(blacks):
        board.push(point)
        if i < len(whites):
            board.push(whites[i])
    return board
