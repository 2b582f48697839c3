"""Tune the search's margins (``gridgames.gomoku.ai.params``) by SPSA over self-play.

    python benchmarks/tune_search.py --pairs 1500 --nodes 20000 --log tune.jsonl
    python benchmarks/tune_search.py --rule renju --only futility_margin,lmr_base
    python benchmarks/tune_search.py --opponent ./pbrain-rapfi --opponent-nodes 40000

Simultaneous perturbation stochastic approximation as engine tuners run it
(Spall; the form of Stockfish's fishtest): each step draws a random sign for
every tuned value, plays a pair of games from one opening (each side black once)
between the values moved up by ``c_k`` times their signs and moved down by it,
and moves each value by ``a_k / c_k`` times the pair's result (the first side's
points minus the second's, -2 to 2) times its sign. ``c_k`` and ``a_k`` shrink
with the step number k as Spall's gains do (exponents 0.101 and 0.602, A a tenth
of the steps), so that at the last step ``c_k`` is each value's ``c`` below and
``a_k / c_k**2`` is ``--rate``. Games are at a fixed node count a move, so a run
does not depend on the machine's load; ``--workers`` pairs are played at once,
and their results applied together.

With ``--opponent`` (a Gomocup brain's command line) the two sides do not meet:
each plays the step's pair against the opponent (at ``--opponent-nodes`` a move,
sent as ``max_node``), and the step's result is half the first side's pair result
less the second's (-2 to 2 still). So values are moved by what scores against
that engine, not against the tuned engine itself. Each worker keeps one
opponent process for the whole run.

Every step is written to ``--log`` (JSON lines: step, the values, the pair's
result), and every ``--report`` steps the values are printed rounded, as
``SearchParams(...)`` to paste into ``params.py``. At the end each value's
signal is printed: the pairs' result times the sign of its move, averaged over
the steps, with a 95% interval; only a value whose interval leaves zero was
moved by more than noise. ``--signals LOG`` prints them for a run's log.
Values that look better here still have to be screened against the engine as
it is (``gridgames match --sprt``) and against Rapfi before they are kept.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import nullcontext
from typing import NamedTuple

import numpy as np

from fit_eval import opening_board  # beside this script
from gridgames.gomoku import Board, Color, Point, Rule
from gridgames.gomoku.ai import Limit, SearchParams, default_params, think, warm_up
from gridgames.gomoku.gomocup import Engine, EngineError
from gridgames.gomoku.openings import default_openings

ALPHA = 0.602
GAMMA = 0.101


class Tuned(NamedTuple):
    lowest: int
    highest: int
    c: float  # the perturbation at the last step


# Each value's range and perturbation: wide enough that a pair of games can tell
# the two sides apart, within what the search still makes sense with.
TUNED = {
    "futility_margin": Tuned(40, 300, 20),
    "lmr_base": Tuned(-50, 200, 20),
    "lmr_scale": Tuned(50, 200, 12),
    "deeper_margin": Tuned(0, 150, 10),
    "deeper_per_ply": Tuned(0, 40, 4),
    "history_cut": Tuned(500, 16000, 800),
    "move_count_scale": Tuned(50, 250, 15),
    "own_weight": Tuned(100, 500, 25),
    "reverse_futility_depth": Tuned(2, 12, 1),
    "futility_depth": Tuned(0, 6, 1),
    "late_count_scale": Tuned(50, 300, 15),
    "null_base": Tuned(100, 600, 30),
    "null_per_ply": Tuned(0, 60, 5),
    "singular_depth": Tuned(4, 12, 1),
    "singular_margin": Tuned(0, 10, 1),
}


Task = tuple[str, dict[str, int], dict[str, int], int, int]  # rule, plus, minus, nodes, seed
Opponent = tuple[str, int]  # a Gomocup brain's command line, and its nodes a move
Mover = Callable[[Board], Point]  # one side's move in a position
# Time a node-limited opponent is given for a move: far more than its nodes take.
OPPONENT_TURN_MS = 60_000

# The worker's opponent process and its nodes a move, when tuning against one.
_opponent: tuple[Engine, int] | None = None


def _within(space: dict[str, Tuned], name: str, value: float) -> float:
    return min(max(value, space[name].lowest), space[name].highest)


def play_pair(task: Task) -> float:
    """Points of ``plus`` minus those of ``minus`` over two games from one opening."""
    rule_name, plus, minus, nodes, seed = task
    base = default_params(Rule[rule_name].code)
    return pair_result(rule_name, nodes, seed,
                       ({"params": base._replace(**plus)}, {"params": base._replace(**minus)}))


def pair_result(rule_name: str, nodes: int, seed: int, sides: tuple[dict, dict]) -> float:
    """Points of the first side minus the second's over two games from one opening,
    each side black once; a side is the keyword arguments it passes to ``think``.
    Against an opponent (``--opponent``) each side plays the pair against it, and the
    result is half the first side's pair result less the second's."""
    rule = Rule[rule_name]
    rng = random.Random(seed)
    start = opening_board(rng, default_openings(rule), rule)
    first, second = (_thinker(nodes, side) for side in sides)
    if _opponent is None:
        return _pair(start, first, second)
    engine, opponent_nodes = _opponent
    limit = Limit(time_ms=OPPONENT_TURN_MS, nodes=opponent_nodes)

    def opponent(board: Board) -> Point:
        return engine.play(board, limit).move

    return (_pair(start, first, opponent) - _pair(start, second, opponent)) / 2


def _thinker(nodes: int, options: dict) -> Mover:
    return lambda board: think(board, Limit(nodes=nodes), **options).move


def _pair(start: Board, one: Mover, other: Mover) -> float:
    """``one``'s points minus ``other``'s over two games from ``start``, each black once."""
    total = 0.0
    for first in range(2):
        board = start.copy()
        while board.outcome() is None and board.legal_moves:
            mover = one if (board.to_move == Color.BLACK) == (first == 0) else other
            board.push(mover(board))
        outcome = board.outcome()
        if outcome is not None and outcome.winner is not None:
            total += 1.0 if (outcome.winner == Color.BLACK) == (first == 0) else -1.0
    return total


def _worker_init(opponent: Opponent | None = None) -> None:
    global _opponent
    warm_up()
    if opponent is not None:
        _opponent = (Engine(opponent[0], name="opponent"), opponent[1])


def check_opponent(command: str, rule: Rule) -> None:
    """Exit with the reason when ``command`` does not start a Gomocup brain that plays
    ``rule``."""
    try:
        with Engine(command, name="opponent") as engine:
            engine.play(Board(15, rule=rule), Limit(time_ms=OPPONENT_TURN_MS, nodes=1000))
    except (EngineError, OSError) as err:
        sys.exit(f"the opponent {command!r} does not play as a Gomocup brain: {err}")


STEP_KEYS = {"result", "plus", "minus", "theta"}  # what --signals reads of a logged step


def signals(steps: list[dict]) -> dict[str, tuple[float, float]]:
    """Each value's mean of result x the sign of its move, and that mean's 95% half-width."""
    found = {}
    for name in steps[0]["theta"]:
        xs = np.array([np.sign(s["plus"][name] - s["minus"][name]) * s["result"]
                       for s in steps], dtype=float)
        half = 1.96 * xs.std(ddof=1) / np.sqrt(len(xs)) if len(xs) > 1 else float("inf")
        found[name] = (float(xs.mean()), float(half))
    return found


def print_signals(steps: list[dict]) -> None:
    print(f"signals over {len(steps)} steps (mean of result x sign, 95% interval):")
    for name, (mean, half) in signals(steps).items():
        moved = "  *" if abs(mean) > half else ""
        print(f"  {name:18s} {mean:+.3f} ({mean - half:+.3f} to {mean + half:+.3f}), "
              f"now {steps[-1]['theta'][name]:.1f}{moved}")


def read_log(path: str) -> list[dict]:
    try:
        with open(path, encoding="utf-8") as log:
            steps = [json.loads(line) for line in log if line.strip()]
    except (OSError, json.JSONDecodeError) as err:
        sys.exit(f"cannot read the tuning log {path}: {err}")
    if not steps or not all(isinstance(s, dict) and s.keys() >= STEP_KEYS for s in steps):
        sys.exit(f"{path} is not a tuning log: each line must be a step with "
                 f"{', '.join(sorted(STEP_KEYS))}, as --log writes")
    return steps


def rounded(theta: dict[str, float]) -> dict[str, int]:
    return {name: round(value) for name, value in theta.items()}


def tune(rule: Rule, names: list[str], pairs: int, nodes: int, workers: int, rate: float,
         seed: int, log: str | None, report: int, space: dict[str, Tuned] = TUNED,
         start: dict[str, float] | None = None,
         play: Callable[[Task], float] = play_pair,
         opponent: Opponent | None = None) -> dict[str, int]:
    """The SPSA run: ``names`` of ``space`` tuned from ``start`` (the rule's search
    margins by default), each step's pair of games played by ``play``, against
    ``opponent`` when one is given."""
    if start is None:
        start = default_params(rule.code)._asdict()
    theta = {name: float(start[name]) for name in names}
    rng = np.random.default_rng(seed)
    big_a = 0.1 * pairs
    c0 = {name: space[name].c * pairs**GAMMA for name in names}
    a0 = {name: rate * space[name].c**2 * (big_a + pairs) ** ALPHA for name in names}
    started = time.monotonic()
    steps: list[dict] = []
    with (open(log, "a", encoding="utf-8") if log else nullcontext()) as out, \
            ProcessPoolExecutor(workers, initializer=_worker_init,
                                initargs=(opponent,)) as pool:
        step = 0
        while step < pairs:
            batch: list[tuple[int, np.ndarray, dict[str, float], Task]] = []
            for _ in range(min(workers, pairs - step)):
                k = step + len(batch) + 1
                signs = rng.choice((-1, 1), size=len(names))
                ck = {n: c0[n] / k**GAMMA for n in names}
                plus: dict[str, int] = {}
                minus: dict[str, int] = {}
                for sign, n in zip(signs, names, strict=True):
                    plus[n] = round(_within(space, n, theta[n] + ck[n] * sign))
                    minus[n] = round(_within(space, n, theta[n] - ck[n] * sign))
                task = (rule.name, plus, minus, nodes, int(rng.integers(1 << 31)))
                batch.append((k, signs, ck, task))
            try:
                results = list(pool.map(play, [b[3] for b in batch]))
            except (EngineError, BrokenProcessPool) as err:  # the steps before are logged
                sys.exit(f"the opponent failed at step {step + 1}: {err}")
            for (k, signs, ck, task), result in zip(batch, results, strict=True):
                for sign, n in zip(signs, names, strict=True):
                    ak = a0[n] / (big_a + k) ** ALPHA
                    theta[n] = _within(space, n, theta[n] + ak / ck[n] * result * sign)
                steps.append({"step": k, "result": result, "plus": task[1],
                              "minus": task[2], "theta": dict(theta)})
                if out is not None:
                    out.write(json.dumps(steps[-1]) + "\n")
            if out is not None:
                out.flush()
            step += len(batch)
            if step % report < workers or step == pairs:
                minutes = (time.monotonic() - started) / 60
                uneven = sum(s["result"] != 0 for s in steps)  # pairs one side won more of
                print(f"step {step}/{pairs} ({minutes:.1f} min, {uneven} pairs not split): "
                      f"{rounded(theta)}", flush=True)
    print_signals(steps)
    return rounded(theta)


def tuning_parser(description: str) -> argparse.ArgumentParser:
    """The options of an SPSA run (this script's, and ``tune_eval.py``'s)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--rule", default="freestyle", choices=[r.name.lower() for r in Rule])
    parser.add_argument("--only", help="comma-separated values to tune (default: all)")
    parser.add_argument("--pairs", type=int, default=1000, help="SPSA steps, a pair each")
    parser.add_argument("--nodes", type=int, default=20000, help="nodes a move")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rate", type=float, default=0.01,
                        help="a_k / c_k**2 at the last step (fishtest uses 0.002 over "
                             "tens of thousands of games)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent", metavar="COMMAND",
                        help="a Gomocup brain each side plays its pair against")
    parser.add_argument("--opponent-nodes", type=int,
                        help="the opponent's nodes a move (default: --nodes)")
    parser.add_argument("--log", help="JSON lines of every step")
    parser.add_argument("--report", type=int, default=50, help="print the values every N steps")
    parser.add_argument("--signals", metavar="LOG",
                        help="print each value's signal over a run's --log, and stop")
    return parser


def chosen_names(args: argparse.Namespace, space: dict[str, Tuned]) -> list[str]:
    """The values ``--only`` names (all of ``space`` by default); exits on a bad one."""
    names = list(space) if not args.only else [n.strip() for n in args.only.split(",")]
    unknown = [n for n in names if n not in space]
    if unknown:
        sys.exit(f"unknown values {unknown}; choose from {', '.join(space)}")
    if args.pairs < 1 or args.nodes < 1 or args.workers < 1 or args.report < 1:
        sys.exit("--pairs, --nodes, --workers and --report must be 1 or more")
    if args.opponent_nodes is not None and args.opponent_nodes < 1:
        sys.exit("--opponent-nodes must be 1 or more")
    return names


def chosen_opponent(args: argparse.Namespace) -> Opponent | None:
    """The ``--opponent`` and its nodes a move, checked to play; None without one."""
    if args.opponent is None:
        return None
    check_opponent(args.opponent, Rule[args.rule.upper()])
    return args.opponent, args.opponent_nodes or args.nodes


def main() -> None:
    args = tuning_parser(__doc__.split("\n\n")[0]).parse_args()
    if args.signals:
        print_signals(read_log(args.signals))
        return
    names = chosen_names(args, TUNED)
    rule = Rule[args.rule.upper()]
    final = tune(rule, names, args.pairs, args.nodes, args.workers, args.rate, args.seed,
                 args.log, args.report, opponent=chosen_opponent(args))
    print(SearchParams(**{**default_params(rule.code)._asdict(), **final}))


if __name__ == "__main__":
    main()
