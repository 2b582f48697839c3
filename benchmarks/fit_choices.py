"""Fit the evaluation network to the moves a deeper search chooses, not to scores.

    python benchmarks/fit_choices.py label games.jsonl match-out/ --out chosen.jsonl \
        --nodes 200000 --every 3
    python benchmarks/fit_choices.py fit chosen.jsonl --out net.json

At a node one ply above the leaves the search plays the move whose position the
evaluation likes best (for the side that moved). What matters there is how the
evaluation ranks a position's children, which a fit to scores or results of
unrelated positions does not measure.

``label`` takes one in ``--every`` quiet positions (from the 7th move on) of games
written by ``fit_eval.py generate`` or ``.psq`` records, searches each with our own
engine at ``--nodes`` and writes the position's moves with the move chosen and its
score; positions whose search found a win or a loss are left out.

``fit`` builds, for each labelled position, every child reached by a move near the
stones and the network's inputs there. It then adjusts the rule's network so that
a softmax over the children's values, each the negated logit of the child from the
opponent's side, puts the chosen move first, while ``--pull`` holds the children's
logits near what the network as it is says of them; the softmax's temperature is
fitted with it. It prints, on held-out positions (the last fifth), how often the
chosen move is the child the network likes best and the softmax's log-loss, before
and after, and writes the network as JSON where ``patterns.eval_net`` can read it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np

from fit_eval import in_workers, near_moves, net_forward, sampled_plies  # beside this script
from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import Limit, think, warm_up
from gridgames.gomoku.ai import position as P
from gridgames.gomoku.ai.patterns import EVAL_SCALE, N_CLASSES, NET_INPUTS, eval_net

EPOCHS = 1500
RATE = 2e-3


def _search_game(task: tuple[dict, list[int], int]) -> list[dict]:
    game, plies, nodes = task
    warm_up()
    rule = Rule[game["rule"].upper()]
    rows = []
    for ply in plies:
        board = Board(game["width"], game["height"], rule=rule)
        board.push_many([tuple(m) for m in game["moves"][:ply]])
        result = think(board, Limit(nodes=nodes), seed=ply)
        if result.mate is None:
            rows.append({"rule": game["rule"], "width": board.width, "height": board.height,
                         "moves": game["moves"][:ply], "chosen": list(result.move),
                         "score": result.score})
    return rows


def label(paths: list[str], out: str, nodes: int, every: int, rule: Rule, workers: int,
          seed: int) -> None:
    tasks = [(game, plies, nodes) for game, plies in sampled_plies(paths, rule, every, seed)]
    total = sum(len(plies) for _, plies, _ in tasks)
    print(f"{total} positions of {len(tasks)} games to search, {nodes} nodes each", flush=True)
    done = 0
    start = time.monotonic()
    with open(out, "a", encoding="utf-8") as file:
        for rows in in_workers(_search_game, tasks, workers):
            for row in rows:
                file.write(json.dumps(row) + "\n")
            done += len(rows)
            print(f"\r{done} written, {time.monotonic() - start:.0f} s", end="",
                  file=sys.stderr, flush=True)
    print(f"\n{done} positions written to {out}")


def net_inputs_of(pos: P.Position) -> np.ndarray:
    """The network's inputs as the search reads them (see ``search._weighed_inputs``)."""
    me = int(pos.info[P.I_SIDE]) - 1
    counts = pos.class_count
    return np.concatenate([counts[me, 1:N_CLASSES], counts[1 - me, 1:N_CLASSES],
                           [pos.info[P.I_VALUE + me] / EVAL_SCALE,
                            pos.info[P.I_WAIT_VALUE + 1 - me] / EVAL_SCALE]]).astype(float)


class Choices(NamedTuple):
    z: np.ndarray  # the network's inputs of every child, the children of a position together
    start: np.ndarray  # where each position's children begin in ``z`` (one more: the end)
    chosen: np.ndarray  # the row of the chosen child


def children(rows: list[dict]) -> Choices:
    inputs, start, chosen = [], [0], []
    for row in rows:
        board = Board(row["width"], row["height"], rule=Rule[row["rule"].upper()])
        pos = P.new_position(board.width, board.height, board.rule.code, P.new_table(4))
        for move in row["moves"]:
            board.push(tuple(move))
            P.make(pos, P.cell_index(pos, tuple(move)))
        moves = near_moves(board)
        if tuple(row["chosen"]) not in moves:
            continue
        for move in moves:
            P.make(pos, P.cell_index(pos, move))
            inputs.append(net_inputs_of(pos))
            P.unmake(pos)
        chosen.append(start[-1] + moves.index(tuple(row["chosen"])))
        start.append(start[-1] + len(moves))
    return Choices(np.array(inputs), np.array(start), np.array(chosen))


def unflatten(net: np.ndarray) -> dict[str, np.ndarray]:
    size = int(net[0])
    rest = net[1 + size * NET_INPUTS:]
    return {"hidden": net[1:1 + size * NET_INPUTS].reshape(size, NET_INPUTS).T.copy(),
            "hidden_bias": rest[:size].copy(), "out": rest[size:2 * size].copy(),
            "linear": rest[2 * size:2 * size + NET_INPUTS].copy(),
            "bias": rest[-2:-1].copy()}


def choice_loss(params: dict[str, np.ndarray], beta: float, data: Choices,
                positions: np.ndarray, grads: bool = False, anchor: np.ndarray | None = None,
                pull: float = 0.0):
    """Mean log-loss of the chosen moves under a softmax of ``beta`` times the children's
    values, the share chosen first, and with ``grads`` the gradients of the log-loss
    plus ``pull`` times the mean squared change of the logits from ``anchor`` (the
    logits of every row of ``data.z``)."""
    rows = np.concatenate([np.arange(data.start[i], data.start[i + 1]) for i in positions])
    group = np.repeat(np.arange(len(positions)),
                      data.start[positions + 1] - data.start[positions])
    logits, units = net_forward(params, data.z[rows])
    values = -logits  # the child's logit is the opponent's
    scaled = beta * values
    top = np.full(len(positions), -np.inf)
    np.maximum.at(top, group, scaled)
    weights = np.exp(scaled - top[group])
    sums = np.zeros(len(positions))
    np.add.at(sums, group, weights)
    prob = weights / sums[group]
    chosen_rows = np.searchsorted(rows, data.chosen[positions])
    loss = float(-np.mean(np.log(prob[chosen_rows] + 1e-12)))
    best = np.full(len(positions), -np.inf)
    np.maximum.at(best, group, values)
    hits = float(np.mean(values[chosen_rows] >= best))
    if not grads:
        return loss, hits
    # d loss / d scaled = prob - onehot, over positions; values = -logits
    d_scaled = prob.copy()
    d_scaled[chosen_rows] -= 1
    d_scaled /= len(positions)
    d_beta = float(d_scaled @ values)
    g = -beta * d_scaled  # d loss / d logits
    if anchor is not None:
        g = g + 2 * pull * (logits - anchor[rows]) / len(rows)
    x = data.z[rows]
    back = np.outer(g, params["out"]) * (units > 0)
    return loss, hits, d_beta, {"linear": x.T @ g, "bias": np.array([g.sum()]),
                                "hidden": x.T @ back, "hidden_bias": back.sum(0),
                                "out": units.T @ g}


def fit(paths: list[str], out: str, rule: Rule, pull: float) -> None:
    rows = [json.loads(line) for p in paths for line in Path(p).read_text().splitlines()]
    rows = [r for r in rows if r["rule"] == rule.name.lower()]
    data = children(rows)
    n = len(data.chosen)
    if n < 5:
        raise SystemExit(f"{n} positions with the chosen move near the stones: the fit needs "
                         "5 or more (files written by 'label' under this rule)")
    split = n * 4 // 5
    train, test = np.arange(split), np.arange(split, n)
    print(f"{n} positions, {len(data.z)} children ({len(data.z) / max(n, 1):.1f} a position)")
    start_net = eval_net(rule.code)
    prior = unflatten(start_net)
    # the temperature alone first: the network as it is
    betas = np.exp(np.linspace(np.log(0.05), np.log(20), 60))
    beta = float(min(betas, key=lambda b: choice_loss(prior, b, data, train)[0]))
    before = choice_loss(prior, beta, data, test)
    anchor = net_forward(prior, data.z)[0]
    params = {k: v.copy() for k, v in prior.items()}
    log_beta = np.log(beta)
    state = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    beta_state = [0.0, 0.0]
    best, kept = before[0], ({k: v.copy() for k, v in params.items()}, beta)
    for epoch in range(1, EPOCHS + 1):
        _, _, d_beta, grads = choice_loss(params, float(np.exp(log_beta)), data, train, True,
                                          anchor, pull)
        for k, value in params.items():
            grad = grads[k]
            m, v = state[k]
            m[:] = 0.9 * m + 0.1 * grad
            v[:] = 0.999 * v + 0.001 * grad**2
            value -= RATE * (m / (1 - 0.9**epoch)) / (np.sqrt(v / (1 - 0.999**epoch)) + 1e-8)
        g = d_beta * np.exp(log_beta)
        beta_state[0] = 0.9 * beta_state[0] + 0.1 * g
        beta_state[1] = 0.999 * beta_state[1] + 0.001 * g**2
        log_beta -= RATE * (beta_state[0] / (1 - 0.9**epoch)) / (
            np.sqrt(beta_state[1] / (1 - 0.999**epoch)) + 1e-8)
        if epoch % 50 == 0:
            loss, hits = choice_loss(params, float(np.exp(log_beta)), data, test)
            print(f"epoch {epoch}: held-out log-loss {loss:.4f}, chosen first {hits:.3f}",
                  file=sys.stderr, flush=True)
            if loss < best:
                best, kept = loss, ({k: v.copy() for k, v in params.items()},
                                    float(np.exp(log_beta)))
    params, beta = kept
    after = choice_loss(params, beta, data, test)
    print(f"held-out log-loss {before[0]:.4f} -> {after[0]:.4f}, "
          f"chosen first {before[1]:.3f} -> {after[1]:.3f}, temperature {1 / beta:.2f} logits")
    held = slice(data.start[split], None)
    moved = net_forward(params, data.z[held])[0] - anchor[held]
    print(f"the held-out children's logits: spread {anchor[held].std():.3f}, changed by "
          f"{moved.mean():+.3f} on average, {np.abs(moved).mean():.3f} in size")
    written = {"hidden": params["hidden"].T, "hidden_bias": params["hidden_bias"],
               "out": params["out"], "linear": params["linear"], "bias": params["bias"][0]}
    net = {k: np.round(v, 8).tolist() for k, v in written.items()}
    net["scale"] = float(start_net[-1])
    Path(out).write_text(json.dumps(net, indent=1) + "\n", encoding="utf-8")
    print(f"written to {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    labelling = commands.add_parser("label", help="search quiet positions and write the "
                                    "moves chosen")
    labelling.add_argument("data", nargs="+",
                           help="games written by fit_eval.py generate, .psq records or "
                                "folders of them")
    labelling.add_argument("--out", required=True)
    labelling.add_argument("--nodes", type=int, default=200_000)
    labelling.add_argument("--every", type=int, default=3)
    labelling.add_argument("--workers", type=int, default=2)
    labelling.add_argument("--seed", type=int, default=1)
    fitting = commands.add_parser("fit", help="fit the network to the moves chosen")
    fitting.add_argument("data", nargs="+", help="files written by label")
    fitting.add_argument("--out", required=True, help="the network's file (JSON)")
    fitting.add_argument("--pull", type=float, default=1.0,
                         help="weight of the mean squared change of the children's logits "
                              "(default 1)")
    for sub in (labelling, fitting):
        sub.add_argument("--rule", choices=[r.name.lower() for r in Rule], default="freestyle")
    args = parser.parse_args()
    rule = Rule[args.rule.upper()]
    if args.command == "label":
        if args.nodes <= 0 or args.every <= 0 or args.workers <= 0:
            parser.error("--nodes, --every and --workers must be above 0")
        label(args.data, args.out, args.nodes, args.every, rule, args.workers, args.seed)
    else:
        if args.pull < 0:
            parser.error("--pull must be 0 or more")
        fit(args.data, args.out, rule, args.pull)


if __name__ == "__main__":
    main()
