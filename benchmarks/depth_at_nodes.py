"""How deep the engine gets on a fixed node budget, on positions from match records.

    python benchmarks/depth_at_nodes.py run DIR [DIR ...] --json main.json
    PYTHONPATH=/other/checkout/src python benchmarks/depth_at_nodes.py run DIR ... \\
        --json other.json
    python benchmarks/depth_at_nodes.py compare other.json main.json

``run`` searches, one after another with one thread, the positions after
``--plies`` moves (8 and 14 by default) of the first ``--games`` records of each
directory that ``gridgames match --out DIR`` wrote (under ``--rule``, which
.psq records do not store), each to ``--nodes`` nodes,
and prints the depth reached by board size. A node budget makes the search the
same on every run, whatever else the machine is doing, so two versions of the
engine (run from two checkouts) compare position by position. ``compare`` gives,
by board size, the mean difference in depth (second file less the first) with
its 95% interval, and how often the two chose the same move.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

from gridgames.gomoku import Board
from gridgames.gomoku.ai import Limit, think, warm_up
from gridgames.gomoku.rules import Rule
from match_report import half_width, numbered_records  # beside this script


def _size(row: dict) -> str:
    return f"{row['width']}x{row['height']}"


def run(dirs: list[Path], rule: Rule, games: int, plies: list[int], nodes: int) -> list[dict]:
    records = [(f"{directory}/{number}", record) for directory in dirs
               for number, record in numbered_records(directory, rule)[:games]]
    warm_up()
    rows = []
    for name, record in records:
        for ply in plies:
            if ply > len(record.moves) - 2:
                continue  # too near the game's end to tell anything
            board = Board(record.width, record.height, rule=record.rule)
            board.push_many(record.moves[:ply])
            result = think(board, Limit(nodes=nodes))
            rows.append({"record": name, "ply": ply, "width": board.width,
                         "height": board.height, "depth": result.depth,
                         "nodes": result.nodes, "move": list(result.move)})
    return rows


def summary(rows: list[dict]) -> None:
    for size in sorted({_size(r) for r in rows}):
        depths = [r["depth"] for r in rows if _size(r) == size]
        print(f"{size}: {len(depths)} positions, depth median {statistics.median(depths)}, "
              f"mean {statistics.mean(depths):.2f}")


def compare(first: list[dict], second: list[dict]) -> None:
    key = {(r["record"], r["ply"]): r for r in first}
    pairs = [(key[(r["record"], r["ply"])], r) for r in second if (r["record"], r["ply"]) in key]
    if not pairs:
        sys.exit("compare: the two files share no position (run both on the same records)")
    for size in sorted({_size(b) for _, b in pairs}):
        here = [(a, b) for a, b in pairs if _size(b) == size]
        diffs = [b["depth"] - a["depth"] for a, b in here]
        half = half_width([float(d) for d in diffs]) if len(diffs) > 1 else 0.0
        same = sum(a["move"] == b["move"] for a, b in here)
        print(f"{size}: {len(here)} positions, depth {statistics.mean(diffs):+.2f} "
              f"(±{half:.2f}), same move in {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_run = sub.add_parser("run", help="search the records' positions to a node budget")
    p_run.add_argument("dirs", nargs="+", type=Path)
    p_run.add_argument("--rule", default="freestyle", choices=[r.value for r in Rule],
                       help="the rule the games were played under (not stored in .psq)")
    p_run.add_argument("--games", type=int, default=30, help="records read a directory")
    p_run.add_argument("--plies", type=int, nargs="+", default=[8, 14])
    p_run.add_argument("--nodes", type=int, default=600_000)
    p_run.add_argument("--json", type=Path, required=True, metavar="FILE")
    p_cmp = sub.add_parser("compare", help="two run files, position by position")
    p_cmp.add_argument("first", type=Path)
    p_cmp.add_argument("second", type=Path)
    args = parser.parse_args()
    if args.command == "compare":
        try:
            runs = [json.loads(p.read_text()) for p in (args.first, args.second)]
        except (OSError, ValueError) as error:
            parser.error(f"compare needs two files that run --json wrote: {error}")
        compare(*runs)
        return
    if args.games < 1 or args.nodes < 1 or min(args.plies) < 0:
        parser.error("--games and --nodes must be 1 or more, and --plies 0 or more")
    try:
        rows = run(args.dirs, Rule(args.rule), args.games, args.plies, args.nodes)
    except ValueError as error:  # a directory that is not one of readable records
        parser.error(str(error))
    args.json.write_text(json.dumps(rows) + "\n")
    print(f"{platform.machine()}, {time.strftime('%Y-%m-%d')}: {args.nodes:,} nodes a position")
    summary(rows)


if __name__ == "__main__":
    main()
