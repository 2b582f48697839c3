"""How soon brains prove the forced results that a judge reported in a match's games.

    python benchmarks/proof_speed.py JUDGED [JUDGED ...] --judge NAME [--unproved-by NAME]
        --brain CMD [--brain CMD] [--ms 2000] [--workers 2] [--json F]

JUDGED is a ``--json`` written by ``judged_games.py``. From each game it takes the
first position after the opening where the judge ``--judge`` reported a forced result
(a win or a loss for the side to move), unless the judge ``--unproved-by`` reported
one there as well. Positions with a single answer were never judged.

Each brain (a Gomocup brain's command, started afresh for every position) searches
every position for ``--ms``. The time of its first report of that result is read from
its MESSAGE lines. It prints, by rule and brain:

- how many of the positions the brain proved, and how many within 250 ms, 500 ms,
  1 s and so on;
- the median time of those it proved.

A report of the opposite result is counted apart, and so is a move played in less
than half the time with no result reported: our brain plays at once a move that
is the only one left after its first plies, without a proof.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

from gridgames.gomoku.ai import Limit
from gridgames.gomoku.gomocup import Engine
from gridgames.gomoku.gomocup.protocol import parse_search_message
from judged_games import (  # beside this script
    DECIDED_SCORE,
    each_in_pool,
    empty_board,
    judge_name,
)

WITHIN_MS = (250, 500, 1000, 2000, 4000, 8000, 16000)


def first_claims(games: list[dict], judge: str, unproved_by: str | None) -> list[dict]:
    """Each game's first judged position where ``judge`` reported a forced result that
    ``unproved_by`` did not: the game's file, the stones before it, and the result."""
    positions = []
    for game in games:
        claims = game["scores"].get(judge) or []
        others = game["scores"].get(unproved_by) or [None] * len(claims)
        for ply, (claim, other) in enumerate(zip(claims, others, strict=True)):
            if claim is None or abs(claim) < DECIDED_SCORE:
                continue
            if other is None or abs(other) < DECIDED_SCORE:
                positions.append({
                    "path": game["path"], "rule": game["rule"], "width": game["width"],
                    "height": game["height"], "moves": game["moves"][:ply],
                    "result": "win" if claim > 0 else "loss"})
            break
    return positions


def first_proof(task: tuple[str, dict, int]) -> dict:
    """How soon one brain reported the position's result: ``ms`` is the time of its first
    report (None if it made none), ``contradicted`` whether it reported the opposite,
    ``moved_ms`` when it played."""
    command, position, ms = task
    board = empty_board(position)
    board.push_many([tuple(m) for m in position["moves"]])
    engine = Engine(command, tolerance_ms=10_000)
    try:
        played = engine.play(board, Limit(time_ms=ms))
    finally:
        engine.quit()
    for message in played.messages:
        info = parse_search_message(message)
        if info.mate is None:
            continue
        if (info.mate > 0) != (position["result"] == "win"):
            return {"ms": None, "contradicted": True, "moved_ms": played.time_ms}
        # a brain that tells no time is taken at its whole search's
        return {"ms": played.time_ms if info.time_ms is None else info.time_ms,
                "contradicted": False, "moved_ms": played.time_ms}
    return {"ms": None, "contradicted": False, "moved_ms": played.time_ms}


def prove(positions: list[dict], commands: list[str], ms: int, workers: int) -> None:
    """Each brain's first proof of every position, into ``position["proofs"]``."""
    for command in commands:
        tasks = [(command, position, ms) for position in positions]
        proofs = each_in_pool(first_proof, tasks, workers, "brain", command, "positions")
        for position, proof in zip(positions, proofs, strict=True):
            position.setdefault("proofs", {})[judge_name(command)] = proof


def summary(positions: list[dict], names: list[str], ms: int) -> list[dict]:
    """By rule (and all rules together) and brain: positions proved, within each time,
    the median time, the contradictions, and the moves played early with no result."""
    rows = []
    rules = sorted({p["rule"] for p in positions})
    for rule in [*rules, "all"] if len(rules) > 1 else rules:
        chosen = [p for p in positions if rule in ("all", p["rule"])]
        for name in names:
            proofs = [p["proofs"][name] for p in chosen]
            times = [proof["ms"] for proof in proofs if proof["ms"] is not None]
            rows.append({
                "rule": rule, "brain": name, "positions": len(chosen), "proved": len(times),
                "within_ms": {str(limit): sum(t <= limit for t in times)
                              for limit in WITHIN_MS if limit <= ms},
                "median_ms": statistics.median(times) if times else None,
                "contradicted": sum(proof["contradicted"] for proof in proofs),
                "moved_early": sum(proof["ms"] is None and not proof["contradicted"]
                                   and proof["moved_ms"] < ms / 2 for proof in proofs)})
    return rows


def print_summary(rows: list[dict]) -> None:
    for row in rows:
        within = ", ".join(f"{count} in {int(limit) / 1000:g} s"
                           for limit, count in row["within_ms"].items())
        median = "-" if row["median_ms"] is None else f"{row['median_ms']:.0f} ms"
        print(f"{row['rule']:>9} {row['brain']}: proved {row['proved']} of "
              f"{row['positions']} ({within}), median {median}, "
              f"the opposite reported {row['contradicted']}, played early with no result "
              f"{row['moved_early']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("judged", nargs="+", type=Path,
                        help="a --json of judged_games.py; repeat for more")
    parser.add_argument("--judge", required=True, help="the judge whose results are proved")
    parser.add_argument("--unproved-by", help="leave out positions this judge proved too")
    parser.add_argument("--brain", action="append", default=[], required=True,
                        help="a Gomocup brain's command; repeat for more brains")
    parser.add_argument("--ms", type=int, default=2000, help="a brain's time a position")
    parser.add_argument("--workers", type=int, default=2, help="positions searched at once")
    parser.add_argument("--json", type=Path, help="write the positions and the proofs")
    args = parser.parse_args()
    if args.ms <= 0 or args.workers <= 0:
        parser.error("--ms and --workers must be above 0")
    names = [judge_name(command) for command in args.brain]
    if len(set(names)) < len(names):
        parser.error("two brains go by the same name (their program's file name)")
    games: list[dict] = []
    for path in args.judged:
        try:
            games += json.loads(path.read_text(encoding="utf-8"))["games"]
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"cannot read judged games from {path}: {error!r}")
    judges = {name for game in games for name in game.get("scores", {})}
    for wanted in (args.judge, args.unproved_by):
        if wanted is not None and wanted not in judges:
            parser.error(f"no judge {wanted!r} in the files; they hold {sorted(judges)}")
    try:
        positions = first_claims(games, args.judge, args.unproved_by)
        for position in positions:
            empty_board(position)
    except (KeyError, TypeError, ValueError) as error:
        parser.error(f"the judged games are not what judged_games.py writes: {error!r}")
    if not positions:
        parser.error(f"{args.judge!r} reported no forced result to prove")
    started = time.monotonic()
    prove(positions, args.brain, args.ms, args.workers)
    print(f"{platform.machine()}, {time.strftime('%Y-%m-%d')}: {len(positions)} positions "
          f"at {args.ms} ms each in {time.monotonic() - started:.0f} s")
    rows = summary(positions, names, args.ms)
    print_summary(rows)
    if args.json:
        args.json.write_text(json.dumps({
            "command": " ".join(sys.argv), "machine": platform.machine(),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "ms": args.ms,
            "summary": rows, "positions": positions}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
