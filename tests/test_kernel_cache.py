"""A corrupt kernel cache is compiled afresh instead of crashing the program."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

COUNT = (
    "from gridgames.prepare import stderr_report\n"
    "from gridgames.queens import count_solutions, warm_up\n"
    "warm_up(stderr_report('the queens solver'))\n"
    "print(count_solutions(8))\n"
)


def _run(code: str, cache: Path) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter whose kernels are cached in ``cache``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=600)


def _count(cache: Path) -> subprocess.CompletedProcess[str]:
    return _run(COUNT, cache)


def _corrupt(cache: Path, pattern: str) -> None:
    """Spoil the cached kernels matching ``pattern`` as a disk that filled up mid-write
    would leave them: a garbage index, the code cut short."""
    indexes = list(cache.rglob(f"{pattern}.nbi"))
    assert indexes
    for index in indexes:
        index.write_bytes(b"garbage\n")
    for code in cache.rglob(f"{pattern}.nbc"):
        code.write_bytes(code.read_bytes()[:100])


@pytest.mark.slow
def test_an_unreadable_cache_is_compiled_again(tmp_path: Path) -> None:
    first = _count(tmp_path)
    assert first.returncode == 0, first.stderr
    assert "preparing the queens solver (first run only)" in first.stderr
    _corrupt(tmp_path, "*")

    again = _count(tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stdout.split() == ["92"]
    assert "Traceback" not in again.stderr
    assert "preparing the queens solver (first run only)" in again.stderr

    warm = _count(tmp_path)  # and the fresh cache serves the next process
    assert warm.returncode == 0, warm.stderr
    assert "preparing" not in warm.stderr


SEARCH = (
    "from gridgames.gomoku import Board\n"
    "from gridgames.gomoku.ai import Limit, think\n"
    "board = Board(15)\n"
    "board.push_many([(7, 7), (8, 8), (6, 8)])\n"
    "print(think(board, Limit(depth=4)).move)\n"
)


@pytest.mark.slow
def test_an_unreadable_entry_point_of_the_search_is_compiled_again(tmp_path: Path) -> None:
    first = _run(SEARCH, tmp_path)
    assert first.returncode == 0, first.stderr
    # the search's entry points are cached like its kernels (_corrupt finds them)
    _corrupt(tmp_path, "search._negamax_body-*")

    again = _run(SEARCH, tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout  # the same move
    assert "Traceback" not in again.stderr
    assert "preparing the engine (first run only)" in again.stderr  # compiled again
