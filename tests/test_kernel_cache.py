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


def _count(cache: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, "-c", COUNT], env=env, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.slow
def test_an_unreadable_cache_is_compiled_again(tmp_path: Path) -> None:
    first = _count(tmp_path)
    assert first.returncode == 0, first.stderr
    assert "preparing the queens solver (first run only)" in first.stderr
    indexes = list(tmp_path.rglob("*.nbi"))
    assert indexes
    for index in indexes:  # as a disk that filled up mid-write would leave them
        index.write_bytes(b"garbage\n")
    for code in tmp_path.rglob("*.nbc"):
        code.write_bytes(code.read_bytes()[:100])

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
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))

    def search() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", SEARCH], env=env, capture_output=True,
                              text=True, timeout=600)

    first = search()
    assert first.returncode == 0, first.stderr
    entries = list(tmp_path.rglob("search._negamax_body-*.nbi"))
    assert entries  # the search's entry points are cached like its kernels
    for index in entries:
        index.write_bytes(b"garbage\n")
    for code in tmp_path.rglob("search._negamax_body-*.nbc"):
        code.write_bytes(code.read_bytes()[:100])

    again = search()
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout  # the same move
    assert "Traceback" not in again.stderr
    assert "preparing the engine (first run only)" in again.stderr  # compiled again
