"""Importing gridgames and searching leaves numba's runtime as numba ships it."""

from __future__ import annotations

import numpy as np
from numba import njit, prange
from numba.core.runtime import _nrt_python as runtime
from numba.core.runtime import nrt, nrtdynmod

import gridgames  # noqa: F401
from gridgames.gomoku import Board
from gridgames.gomoku.ai import Limit, think


def _searched() -> None:
    board = Board(15)
    board.push_many([(7, 7), (8, 8), (6, 6)])
    think(board, Limit(depth=3))
    think(board, Limit(time_ms=100), threads=2)


def test_reference_counts_stay_atomic_after_a_search() -> None:
    _searched()
    # numba's own code generator, and the runtime module it built, counting atomically
    assert nrtdynmod._define_atomic_inc_dec.__module__ == "numba.core.runtime.nrtdynmod"
    assert "atomicrmw" in nrt.rtsys.library.get_llvm_str()


@njit(parallel=True)
def _slice_sums(shared: np.ndarray, rounds: int) -> np.ndarray:
    out = np.zeros(rounds)
    for i in prange(rounds):
        view = shared[i % 7 :]  # each view counts a reference to the shared array
        out[i] = view.sum()
    return out


def test_arrays_shared_across_threads_keep_their_counts() -> None:
    _searched()
    shared = np.arange(64, dtype=np.float64)
    _slice_sums(shared, 8)
    was_enabled = runtime.memsys_stats_enabled()
    runtime.memsys_enable_stats()
    try:
        before = runtime.memsys_get_stats_mi_alloc() - runtime.memsys_get_stats_mi_free()
        for _ in range(50):
            # the views come and go on numba's threads; the sums are freed at once
            assert _slice_sums(shared, 4096)[0] == shared.sum()
        after = runtime.memsys_get_stats_mi_alloc() - runtime.memsys_get_stats_mi_free()
    finally:
        if not was_enabled:
            runtime.memsys_disable_stats()
    assert after == before  # every count went back to zero: nothing leaked or freed twice


def test_searches_on_several_threads_free_every_array_they_allocate() -> None:
    board = Board(15)
    board.push_many([(7, 7), (8, 8), (6, 6)])
    think(board, Limit(depth=3))  # compiled and warmed before counting
    was_enabled = runtime.memsys_stats_enabled()
    runtime.memsys_enable_stats()
    try:
        before = runtime.memsys_get_stats_mi_alloc() - runtime.memsys_get_stats_mi_free()
        for _ in range(3):
            think(board, Limit(time_ms=150), threads=2)  # helpers run on time only
        after = runtime.memsys_get_stats_mi_alloc() - runtime.memsys_get_stats_mi_free()
        allocated = runtime.memsys_get_stats_mi_alloc()
    finally:
        if not was_enabled:
            runtime.memsys_disable_stats()
    assert allocated > 0  # the searches did count
    assert after == before  # every meminfo made during them was freed
