"""The search's margins and counts, as values a position carries.

The kernels read them from the position (``Position.info``) rather than from
constants, so that versions of the search differing only in them can play each
other in one process: ``benchmarks/tune_search.py`` tunes them that way (SPSA).
All are integers; those that scale something are in hundredths.
"""

from __future__ import annotations

from typing import NamedTuple

from gridgames.gomoku.rules import FREESTYLE_CODE


class SearchParams(NamedTuple):
    futility_margin: int = 120  # centi-stones a ply: reverse futility and futility pruning
    lmr_base: int = 60  # late-move reduction: (base + scale * ln depth * ln moves) / 100 plies
    lmr_scale: int = 100
    deeper_margin: int = 34  # a reduced move beating alpha by margin + per_ply * reduction
    deeper_per_ply: int = 11  # ... is searched a ply deeper
    history_cut: int = 4096  # quiet history past +-this: a ply less / more of reduction
    move_count_scale: int = 100  # move-count pruning: of 3 + depth^1.32 moves
    own_weight: int = 300  # ordering: our own shapes' weight, the opponent's being 100
    reverse_futility_depth: int = 6  # reverse futility at this depth and below
    futility_depth: int = 2  # late quiet moves pruned by the futility margin to this depth
    late_count_scale: int = 100  # ... and to depth 5 past 1 + (3 + depth^2) / 2 x this / 100
    null_base: int = 300  # null move: (base + per_ply * depth) / 100 plies shallower
    null_per_ply: int = 25
    singular_depth: int = 0  # the table's move tested for singularity from this depth (0: never)
    singular_margin: int = 2  # ... against its stored score less this a ply


# Freestyle's, tuned by SPSA (2,400 pairs of self-play games at 40,000 nodes a move,
# from the values above with our own shapes twice the opponent's); they scored 0.057
# more against Rapfi at 200 ms a move on the same openings (400 games each).
# Singular extensions measured +53 Elo in freestyle self-play; under renju the
# screen was undecided, and the other rules are not yet screened.
FREESTYLE_PARAMS = SearchParams(futility_margin=82, lmr_base=92, lmr_scale=99,
                                deeper_margin=30, deeper_per_ply=7, history_cut=4403,
                                move_count_scale=119, own_weight=225, singular_depth=7)


# The least each value may be (0 where not listed): the ordering divides by the
# weights, the reductions' constant may be below zero, and a null move must be
# searched at least a ply shallower.
_LOWEST = {"own_weight": 1, "move_count_scale": 1, "lmr_base": -1000, "null_base": 100}


def checked(params: SearchParams) -> SearchParams:
    """``params`` if every value is a whole number the search can use, else a
    ValueError that names the first one that is not."""
    for name, value in params._asdict().items():
        lowest = _LOWEST.get(name, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < lowest:
            raise ValueError(f"search parameter {name} must be a whole number of at least "
                             f"{lowest}, got {value!r}")
    return params


def default_params(rule_code: int) -> SearchParams:
    """The values a rule plays with: freestyle's tuned ones, or the values above
    under the other rules, where our own shapes weigh three times the opponent's in
    the move ordering (twice measured worse under standard and renju)."""
    return FREESTYLE_PARAMS if rule_code == FREESTYLE_CODE else SearchParams()
