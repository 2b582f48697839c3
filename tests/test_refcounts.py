"""The numba runtime counts references without atomics, and still frees every array."""

from __future__ import annotations

from numba.core.runtime import _nrt_python as runtime

import gridgames  # noqa: F401  (switches the counts on import)
from gridgames._refcounts import refcounts_are_plain
from gridgames.gomoku import Board
from gridgames.gomoku.ai import Limit, think


def test_importing_gridgames_makes_the_counts_plain() -> None:
    assert refcounts_are_plain()


def test_searches_on_several_threads_free_every_array_they_allocate() -> None:
    board = Board(15)
    board.push_many([(7, 7), (8, 8), (6, 6)])
    think(board, Limit(depth=3))  # compiled and warmed before counting
    was_enabled = runtime.memsys_stats_enabled()
    runtime.memsys_enable_stats()
    try:
        before = runtime.memsys_get_stats_mi_alloc() - runtime.memsys_get_stats_mi_free()
        for _ in range(5):
            think(board, Limit(time_ms=150), threads=2)  # helpers run on time only
        after = runtime.memsys_get_stats_mi_alloc() - runtime.memsys_get_stats_mi_free()
        allocated = runtime.memsys_get_stats_mi_alloc()
    finally:
        if not was_enabled:
            runtime.memsys_disable_stats()
    assert allocated > 0  # the searches did count
    assert after == before  # every meminfo made during them was freed
