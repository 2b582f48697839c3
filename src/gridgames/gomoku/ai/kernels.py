"""The kernels Python calls, each on the position lent once (see :func:`.position.borrow`).

Each entry calls the kernel of the same name in :mod:`.position` or
:mod:`.search`, so every call inside the search passes lent arrays and counts no
references. The Python caller holds the :class:`~.position.Position` for the
whole call, which keeps its arrays alive.
"""

from __future__ import annotations

from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai import search as S
from gridgames.gomoku.ai.position import borrow, kernel


@kernel
def make(pos, idx):
    P.make(borrow(pos), idx)


@kernel
def prepare_root(pos):
    return S.prepare_root(borrow(pos))


@kernel
def search_root(pos, depth, alpha, beta, skip):
    return S.search_root(borrow(pos), depth, alpha, beta, skip)


@kernel
def vcf(pos, ply, depth_left, attacker, every_four):
    return S.vcf(borrow(pos), ply, depth_left, attacker, every_four)


@kernel
def vct(pos, ply, depth_left, attacker):
    return S.vct(borrow(pos), ply, depth_left, attacker)


@kernel
def drop_losing_root_moves(pos, depth, budget):
    return S.drop_losing_root_moves(borrow(pos), depth, budget)
