"""Matches under a Gomocup match clock: score by colour and how each side spent its clock.

    # play: our brain against another brain, 20 s a game and 5 s a move
    python benchmarks/clock_match.py play ".venv/bin/pbrain-gridgames" "/opt/pbrain-rapfi" \\
        --games 20 --time-ms 5000 --match-time-ms 20000 --seed 1 --out /tmp/clock-games
    # read the records of matches already played (gridgames match --out DIR ...)
    python benchmarks/clock_match.py summary /tmp/clock-games /tmp/more-games \\
        --engine pbrain-gridgames --match-time-ms 20000

``play`` runs :func:`gridgames.gomoku.match.run_match` (the same judge as
``gridgames match``) and prints the summary below; ``summary`` reads the ``.psq``
records of earlier matches, pooled. The summary gives, for the named engine: wins,
losses and draws as black and as white, the score with its 95% interval, the
longest and the mean time it spent on a move, the least time it had left on its
clock, how many moves it spent more than twice its even share of the clock on, and
the games that did not end with five in a row or a full board (a loss on time or a
crash: there must be none). Figures name the machine and the date.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from gridgames.gomoku.match import (
    EngineSpec,
    MatchConfig,
    default_opening_moves,
    run_match,
)
from gridgames.gomoku.records import GameRecord, load
from match_report import (  # beside this script
    ColourTally,
    moves_timed,
    opening_stones,
    points_of,
)


@dataclass
class ClockSummary(ColourTally):
    engine: str
    games: int = 0
    unfinished: int = 0  # games that ended without five or a full board
    moves: int = 0
    max_move_ms: int = 0
    total_ms: int = 0
    min_left_ms: int | None = None
    long_moves: int = 0  # moves on more than twice the even share of the clock

    @property
    def score(self) -> float:
        return self.stats.score if self.games else 0.0

    def add(self, record: GameRecord, match_ms: int) -> None:
        points = points_of(record, self.engine)
        self.games += 1
        as_black = record.black == self.engine
        if points is None or record.termination:  # not ended by five or a full board
            self.unfinished += 1
            points = 0.0  # counted against us: it must not happen
        self.count(as_black, points)
        placed = opening_stones(record)
        ours = [spent for name, spent in moves_timed(record, placed) if name == self.engine]
        left = match_ms
        played = placed + ((placed % 2 == 0) != as_black)  # stones before our first move
        for spent in ours:
            share = left / max(8.0, 20 - 0.3 * (played // 2))
            if spent > 2 * share:
                self.long_moves += 1
            left -= spent
            played += 2
            self.min_left_ms = left if self.min_left_ms is None else min(self.min_left_ms, left)
        self.moves += len(ours)
        self.total_ms += sum(ours)
        self.max_move_ms = max([self.max_move_ms, *ours])

    def lines(self) -> list[str]:
        low, high = self.interval()
        b, w = self.black, self.white
        mean = self.total_ms / self.moves if self.moves else 0
        return [
            f"{self.engine}: {self.games} games, score {self.score:.3f} "
            f"(95% interval {low:.3f} to {high:.3f})",
            f"  as black {b[0]}-{b[1]}-{b[2]}, as white {w[0]}-{w[1]}-{w[2]} (W-L-D)",
            f"  time per move: max {self.max_move_ms} ms, mean {mean:.0f} ms over "
            f"{self.moves} moves; {self.long_moves} moves over twice the even share",
            f"  least time left on the clock: {self.min_left_ms} ms; games not ended by "
            f"five or a full board: {self.unfinished}",
        ]


def machine() -> str:
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, " \
           f"{platform.system()} {platform.release()}"


def summarise(records: list[GameRecord], engine: str, match_ms: int) -> ClockSummary:
    summary = ClockSummary(engine)
    for record in records:
        summary.add(record, match_ms)
    return summary


def _play(args: argparse.Namespace) -> ClockSummary:
    specs = (EngineSpec.parse(args.engine), EngineSpec.parse(args.opponent))
    config = MatchConfig(specs, games=args.games, time_ms=args.time_ms,
                         match_time_ms=args.match_time_ms,
                         openings=default_opening_moves(15, 15), concurrency=1,
                         out_dir=Path(args.out) if args.out else None, seed=args.seed)
    report = run_match(config, on_game=lambda result, stats: print(
        f"game {result.number}: {result.record.black} vs {result.record.white} "
        f"{result.result}, {result.reason}", flush=True))
    for result in report.results:
        if result.errors:
            print(f"game {result.number}: {'; '.join(result.errors)}")
    records = [result.record for result in report.results]
    for record, result in zip(records, report.results, strict=True):
        record.result = result.result if not result.errors else "*"
    return summarise(records, specs[0].name, args.match_time_ms)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("play", help="play a match under a clock and summarise it")
    play.add_argument("engine", help="our brain's command line (quoted), or level:N")
    play.add_argument("opponent", help="the other brain's command line (quoted)")
    play.add_argument("--games", type=int, default=20)
    play.add_argument("--time-ms", type=int, default=5000)
    play.add_argument("--match-time-ms", type=int, default=20000)
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--out", help="directory for the .psq records")
    play.add_argument("--json", help="write the summary to this file too")
    summary = commands.add_parser("summary", help="summarise .psq records of earlier matches")
    summary.add_argument("dirs", nargs="+", help="directories of .psq records")
    summary.add_argument("--engine", required=True,
                         help="the engine's name in the records (its command's file name)")
    summary.add_argument("--match-time-ms", type=int, default=20000)
    summary.add_argument("--json", help="write the summary to this file too")
    args = parser.parse_args(argv)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    if args.command == "play":
        result = _play(args)
        setting = f"{args.time_ms} ms a move, {args.match_time_ms} ms a game"
    else:
        paths = sorted(p for d in args.dirs for p in Path(d).glob("*.psq"))
        if not paths:
            print(f"clock_match: no .psq records in {' '.join(args.dirs)}", file=sys.stderr)
            return 2
        try:
            result = summarise([load(p) for p in paths], args.engine, args.match_time_ms)
        except ValueError as error:
            print(f"clock_match: {error}", file=sys.stderr)
            return 2
        setting = f"{args.match_time_ms} ms a game"
    print(f"{started}, {machine()}; {setting}")
    for line in result.lines():
        print(line)
    if args.json:
        data = {"date": started, "machine": machine(), "setting": setting,
                "command": shlex.join(sys.argv), **asdict(result),
                "score": result.score, "interval": result.interval()}
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
