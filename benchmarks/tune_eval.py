"""Tune the linear evaluation's weights (``patterns.EvalWeights``) by SPSA over self-play.

    python benchmarks/tune_eval.py --pairs 2000 --nodes 40000 --log tune-eval.jsonl
    python benchmarks/tune_eval.py --only waiter.BLOCK3,mover.FLEX3

The weights were fitted to predict games' results (``fit_eval.py``); here they
are moved by what wins games, as ``tune_search.py`` moves the search's margins,
with the same SPSA steps, options (``--opponent`` too), log and signals. The
values are each line shape's and each threat class's weight for the side to
move (``mover.F3``) and for the side that waits (``waiter.FLEX3``), and the
tempo; the dead, overline and five weights stay. A value's perturbation at the
last step is 15% of its starting size (8 at least). The weights feed the
evaluation network's two sums and the move ordering's cell values, so both
change with them. The end prints the values as ``EvalWeights(...)`` to paste
into ``patterns.py``.
"""

from __future__ import annotations

from gridgames.gomoku import Rule
from gridgames.gomoku.ai.patterns import CLASS_NAMES, SHAPE_NAMES, EvalWeights, eval_weights
from tune_search import (  # beside this script
    Task,
    Tuned,
    chosen_names,
    chosen_opponent,
    pair_result,
    print_signals,
    read_log,
    tune,
    tuning_parser,
)

ROLES = ("mover", "waiter")
SHAPES = ("B1", "F1", "B2", "F2", "B3", "F3", "B4", "F4")
CLASSES = CLASS_NAMES[1:-1]  # every class but NONE and FIVE


def values_of(weights: EvalWeights) -> dict[str, float]:
    """The tuned values of ``weights``, by name."""
    values: dict[str, float] = {"tempo": weights.tempo}
    for r, role in enumerate(ROLES):
        values |= {f"{role}.{s}": weights.shape[r][SHAPE_NAMES.index(s)] for s in SHAPES}
        values |= {f"{role}.{k}": weights.klass[r][CLASS_NAMES.index(k)] for k in CLASSES}
    return values


def weights_with(base: EvalWeights, values: dict[str, int]) -> EvalWeights:
    """``base`` with the named values replaced."""
    shape = [list(row) for row in base.shape]
    klass = [list(row) for row in base.klass]
    for name, value in values.items():
        if name == "tempo":
            continue
        role, what = name.split(".")
        r = ROLES.index(role)
        if what in SHAPE_NAMES:
            shape[r][SHAPE_NAMES.index(what)] = value
        else:
            klass[r][CLASS_NAMES.index(what)] = value
    return EvalWeights(shape=(tuple(shape[0]), tuple(shape[1])),
                       klass=(tuple(klass[0]), tuple(klass[1])),
                       tempo=values.get("tempo", base.tempo))


def space_of(weights: EvalWeights) -> dict[str, Tuned]:
    """Each value's range (ten perturbations either way) and last perturbation."""
    space = {}
    for name, value in values_of(weights).items():
        c = max(8.0, 0.15 * abs(value))
        space[name] = Tuned(int(value - 10 * c), int(value + 10 * c), c)
    return space


def play_pair(task: Task) -> float:
    """Points of the ``plus`` weights minus the ``minus`` ones over two games."""
    rule_name, plus, minus, nodes, seed = task
    base = eval_weights(Rule[rule_name].code)
    return pair_result(rule_name, nodes, seed, ({"weights": weights_with(base, plus)},
                                                {"weights": weights_with(base, minus)}))


def main() -> None:
    args = tuning_parser(__doc__.split("\n\n")[0]).parse_args()
    if args.signals:
        print_signals(read_log(args.signals))
        return
    rule = Rule[args.rule.upper()]
    base = eval_weights(rule.code)
    space = space_of(base)
    names = chosen_names(args, space)
    final = tune(rule, names, args.pairs, args.nodes, args.workers, args.rate, args.seed,
                 args.log, args.report, space=space, start=values_of(base), play=play_pair,
                 opponent=chosen_opponent(args))
    print(weights_with(base, final))


if __name__ == "__main__":
    main()
